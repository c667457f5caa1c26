"""The first words of GNU Backgammon's text export in the languages gnubg
1.07 translates it into, so that a file in another language than English is
recognised and named (gamao reads the English export only).

Each entry is (language, the start of the score line, the start of a move
heading), as gnubg's message catalogues (``gnubg.mo``, Debian's gnubg 1.07)
translate ``The score (after %d games) is:`` and ``Move number %d:``.

>>> language_of("Der Spielstand (nach 0 Partie) ist: a 0, b 0")
'German'
>>> language_of("The score (after 0 games) is: a 0, b 0") is None
True
"""
from __future__ import annotations

#: (language name, score line start, move heading start); English is gamao's.
LANGUAGES: tuple[tuple[str, str, str], ...] = (
    ("Czech", "Skóre (po ", "Tah číslo "),
    ("Danish", "Stillingen (efter ", "Træk nummer "),
    ("German", "Der Spielstand (nach ", "Zug Nr. "),
    ("Spanish", "El marcador (después de ", "Movimiento número "),
    ("Finnish", "Tulos (", "Siirto numero "),
    ("French", "Le score (après ", "Coup numéro "),
    ("Italian", "Il punteggio (dopo ", "Numero mossa "),
    ("Romanian", "Scorul (după ", "Număr mutare "),
    ("Russian", "Счёт (после ", "Ход номер"),
)

ENGLISH_SCORE = "The score (after "
ENGLISH_MOVE = "Move number "


def language_of(first_line: str) -> str | None:
    """The language of an export whose score line is ``first_line``, None
    for English or for a line that is no export's score line."""
    line = first_line.lstrip("\ufeff")
    for name, score, _move in LANGUAGES:
        if line.startswith(score) and (") " in line or "):" in line):
            return name
    return None


def move_heading_language(line: str) -> str | None:
    """The language of a translated move heading (``Zug Nr. 3:``), else None."""
    for name, _score, move in LANGUAGES:
        if line.startswith(move) and ":" in line:
            return name
    return None


def sniff_text(text: str) -> bool:
    """Whether ``text`` (the first bytes of an input) starts as a gnubg text
    export, in English or in a language gnubg translates it into (here, not
    in the reader, so that telling the format of every input does not
    import the reader)."""
    first = text.lstrip("\ufeff").split("\n", 1)[0]
    if first.startswith(ENGLISH_SCORE) and ") is: " in first:
        return True
    return language_of(first) is not None
