"""``python -m gamao_cli.i18n refresh|check|compile``: see :mod:`gamao_cli.i18n.catalog`."""
import sys

from gamao_cli.i18n.catalog import main

if __name__ == "__main__":
    sys.exit(main())
