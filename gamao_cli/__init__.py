"""gamao: read, validate, convert and summarise backgammon match records.

The pipeline, one module per concern:

- ``grammar/*.lark`` and :mod:`gamao_cli.matfile_reader` (match files),
  :mod:`gamao_cli.sgf_reader` (SGF), :mod:`gamao_cli.loading` (any format);
- :mod:`gamao_cli.model`: the match as the record states it;
- :mod:`gamao_cli.board`: the rules engine (positions, legal plays), which
  knows nothing of file formats;
- :mod:`gamao_cli.validator`: replays games under the rules and reports
  :mod:`gamao_cli.diagnostics`;
- converters (:mod:`gamao_cli.matfile_writer`, :mod:`gamao_cli.json_format`,
  :mod:`gamao_cli.sgf_writer`), :mod:`gamao_cli.summary`;
- :mod:`gamao_cli.cli`: the ``gamao`` command.
"""
__version__ = "0.1.0"
