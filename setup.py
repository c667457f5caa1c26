"""The optional compiled kernels (everything else is in pyproject.toml).

Each kernel is a C twin of a pure-Python hot path that stays the reference
and the fallback: ``optional=True`` lets ``pip install .`` go on without
the kernel when it cannot be compiled (no compiler, no Python headers), and
gamao then runs the Python code, only slower. ``GAMAO_PURE_PYTHON=1`` makes
an installed kernel go unused (:mod:`gamao_cli.kernels`); the tests compare
the two on the whole corpus.
"""
from setuptools import Extension, setup

#: what the kernels share (included by those that read slots or ints)
SHARED = ["gamao_cli/kernel_support.h"]

KERNELS = [
    # the cell scanner of the match-file reader (formats/mat/reader.py, _runs)
    Extension("gamao_cli.formats.mat._cell_scan", ["gamao_cli/formats/mat/_cell_scan.c"],
              optional=True),
    # the replay's run of plays (replay/replay.py, _GameReplay.plays)
    Extension("gamao_cli.replay._play_run", ["gamao_cli/replay/_play_run.c"],
              depends=SHARED, optional=True),
    # the board part of every action's IDs (ids/board.py, board_ids)
    Extension("gamao_cli.ids._ids", ["gamao_cli/ids/_ids.c"], depends=SHARED, optional=True),
    # the actions table's rows of a game (tables/rows.py, _game_cells)
    Extension("gamao_cli.tables._action_cells", ["gamao_cli/tables/_action_cells.c"],
              depends=SHARED, optional=True),
    # the rows of a replay page's positions (render/html.py, _Page._position_rows)
    Extension("gamao_cli.render._page_positions", ["gamao_cli/render/_page_positions.c"],
              depends=SHARED, optional=True),
]

setup(ext_modules=KERNELS)
