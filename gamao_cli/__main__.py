"""``python -m gamao_cli`` runs the ``gamao`` command."""
from .cli import main

main()
