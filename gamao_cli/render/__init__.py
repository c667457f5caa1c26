"""Drawing positions: :mod:`.text` (the text board of ``gamao position``),
:mod:`.svg` (standalone SVG boards, in the style of python-chess's
``chess.svg.board``) and :mod:`.html` (a self-contained replay page of a
file, and a report page of many)."""
