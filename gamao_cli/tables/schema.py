"""The typed schema of the three tables ``gamao export`` writes: ``matches``,
``games`` and ``actions``. One list of columns per table, in order, each
with its type, whether it may be null, and what it holds; the Parquet,
CSV and JSON-lines writers all take their columns from here, so every output
form has the same columns in the same order (``docs/tables.md`` documents
them, and a test keeps that page equal to this table).

Types: ``string``, ``bool``, ``int8``, ``int16``, ``int32``, ``int64``,
``float64`` and ``date`` (a calendar day, ``YYYY-MM-DD`` in CSV and JSON).

>>> [c.name for c in MATCHES][:4]
['match_id', 'path', 'index_in_file', 'format']
>>> TABLES["actions"][0].name, TABLES["actions"][0].type
('match_id', 'string')
"""
from __future__ import annotations

from dataclasses import dataclass

#: The version of the tables' layout, written in each Parquet file's
#: metadata (``gamao.tables_version``): a column's meaning never changes
#: within a version.
TABLES_VERSION = 1

TYPES = ("string", "bool", "int8", "int16", "int32", "int64", "float64", "date")


@dataclass(frozen=True)
class Column:
    name: str
    type: str
    nullable: bool
    doc: str

    def __post_init__(self) -> None:
        if self.type not in TYPES:
            raise ValueError(f"unknown column type {self.type!r}")


def _c(name: str, type: str, doc: str, nullable: bool = True) -> Column:
    return Column(name, type, nullable, doc)


MATCH_ID_DOC = ("the match's stable id: 16 hex digits of a SHA-256 of the match as played (length, "
                "players, every game's score and every action, plays as die steps in a fixed "
                "order), the same whatever format or program the record comes from; tags, "
                "comments and the file are not part of it")

MATCHES: tuple[Column, ...] = (
    _c("match_id", "string", MATCH_ID_DOC, False),
    _c("path", "string", "the file it was read from; `archive.zip:member.mat` for an archive "
                         "member; the URL for remote input", False),
    _c("index_in_file", "int32", "0 for the first match of the file, 1 for the next...", False),
    _c("format", "string", "the format it was read in: `mat`, `sgf`, `json` (`xg` once read)",
       False),
    _c("player0", "string", "the left player (player 0 everywhere: the left column of a match "
                            "file, SGF White)", False),
    _c("player1", "string", "the right player (player 1)", False),
    _c("length", "int32", "match length in points; 0 = money session", False),
    _c("crawford", "bool", "the Crawford rule is played (false for money)"),
    _c("jacoby", "bool", "the Jacoby rule, as the record states it (null: it does not say)"),
    _c("beaver", "bool", "beavers allowed, as the record states it (null: it does not say; "
                         "false in match play)"),
    _c("variant", "string", "`backgammon`, `nackgammon`, `hypergammon1`..."),
    _c("event", "string", "the `Event` tag (SGF `EV`)"),
    _c("site", "string", "the `Site` tag (SGF `PC`)"),
    _c("date", "date", "the `EventDate` tag (SGF `DT`) when it is a calendar date"),
    _c("score0", "int32", "final score of player 0 (as the validator counts it)", False),
    _c("score1", "int32", "final score of player 1", False),
    _c("winner", "int8", "0 or 1; null: not decided (or a money session)"),
    _c("games", "int32", "number of games", False),
    _c("actions", "int32", "number of rows of this match in `actions`", False),
    _c("errors", "int32", "error diagnostics of the validator in the whole match", False),
    _c("warnings", "int32", "warning diagnostics in the whole match", False),
    _c("infos", "int32", "info diagnostics in the whole match", False),
    _c("codes", "string", "the codes of the diagnostics about the match as a whole (no game), "
                          "space-separated in order; null: none"),
)

#: The copy of a match a game or action row belongs to: one match found in
#: two files (its ``.mat`` and its SGF, or twice in an archive) has one
#: ``match_id`` and two copies.
COPY = (
    _c("path", "string", "the file of this copy of the match (`matches.path`)", False),
    _c("index_in_file", "int32", "its place in the file (`matches.index_in_file`)", False),
)

GAMES: tuple[Column, ...] = (
    _c("match_id", "string", "the match (`matches.match_id`)", False),
    *COPY,
    _c("game", "int32", "the game's number as the record numbers it", False),
    _c("score0", "int32", "player 0's score before the game", False),
    _c("score1", "int32", "player 1's score before the game", False),
    _c("crawford", "bool", "this is the Crawford game", False),
    _c("winner", "int8", "0 or 1 (0 = the left player); null: the game has no result"),
    _c("points", "int32", "the points the game adds to the winner's score"),
    _c("stated_points", "int32", "the points its `Wins` line states (null: none)"),
    _c("ended", "string", "`single`, `gammon`, `backgammon`, `drop`, `resign`, `time` or "
                          "`unfinished`", False),
    _c("cube", "int32", "the cube's value at the end of the game", False),
    _c("cube_owner", "int8", "who owns the cube at the end (null: centred)"),
    _c("moves", "int32", "checker plays in the game (as the validator counts them)", False),
    _c("rolls", "int32", "rows of kind `roll` of this game in `actions`", False),
    _c("errors", "int32", "error diagnostics located in this game", False),
    _c("warnings", "int32", "warning diagnostics located in this game", False),
    _c("codes", "string", "codes of the diagnostics about the game itself (score line, "
                          "result), not about one action; space-separated; null: none"),
)

#: Analysis figures: eXtreme Gammon's files and GNU Backgammon's analysed SGF
#: carry them. Filled only from what
#: the record carries (an action's ``analysis``), never computed by gamao.
ANALYSIS: tuple[Column, ...] = (
    _c("equity", "float64", "analysis: equity of the action taken, for the player making it "
                            "(null unless the record carries analysis)"),
    _c("best_equity", "float64", "analysis: equity of the best action"),
    _c("equity_loss", "float64", "analysis: how much equity the action lost against the best "
                                 "(>= 0)"),
    _c("luck", "float64", "analysis: the luck of the roll, in equity"),
    _c("win_probability", "float64", "analysis: the player's chance to win the game"),
    _c("gammon_probability", "float64", "analysis: the player's chance to win a gammon or "
                                        "backgammon"),
    _c("analysis_depth", "string", "analysis: how the record's program analysed it, as it says "
                                   "(e.g. `3-ply`)"),
)

ACTIONS: tuple[Column, ...] = (
    _c("match_id", "string", "the match (`matches.match_id`)", False),
    *COPY,
    _c("game", "int32", "the game's number", False),
    _c("seq", "int32", "the action's order in the game, from 1", False),
    _c("move_number", "int32", "the move number as the record numbers it (null: none, e.g. a "
                               "`Wins` line)"),
    _c("player", "int8", "who acts: 0 (left) or 1 (right)", False),
    _c("kind", "string", "`roll` (a roll and its play, also when no play was possible), "
                         "`double`, `beaver`, `raccoon`, `take`, `drop`, `resign`, `win`, `loss` "
                         "(Backgammon Galaxy's `Losses N point` note)", False),
    _c("die1", "int8", "the higher die of a roll"),
    _c("die2", "int8", "the lower die of a roll"),
    _c("play", "string", "the play as die steps in gamao's notation, one step per die "
                         "(`24/18 18/13`, `bar/22*`, `6/off`); empty: no play was possible; null: "
                         "not a roll, or the replay could not resolve what was written"),
    _c("play_written", "string", "the cell as the record wrote it (`65: 24/13` gives `24/13`)"),
    _c("points", "int32", "the points a `win` (or `loss`) line states"),
    _c("cube_value", "int32", "the cube's value before the action"),
    _c("cube_owner", "int8", "who owns the cube before the action (null: centred)"),
    _c("score0", "int32", "player 0's score before the game", False),
    _c("score1", "int32", "player 1's score before the game", False),
    _c("position_id", "string", "GNU Backgammon's Position ID of the position before the action"),
    _c("match_id_gnubg", "string", "GNU Backgammon's Match ID of the state before the action"),
    _c("xgid", "string", "the XGID of the position and state before the action"),
    _c("pips0", "int16", "player 0's pip count before the action"),
    _c("pips1", "int16", "player 1's pip count before the action"),
    _c("legal", "bool", "the action breaks no rule (no error diagnostic on it); null: the replay "
                        "could not check it"),
    _c("codes", "string", "codes of the diagnostics on this action, space-separated; null: none"),
) + ANALYSIS

TABLES: dict[str, tuple[Column, ...]] = {"matches": MATCHES, "games": GAMES, "actions": ACTIONS}


def names(table: str) -> list[str]:
    return [c.name for c in TABLES[table]]
