"""``python -m gamao_cli`` runs the ``gamao`` command."""
from gamao_cli.cli import run

run()
