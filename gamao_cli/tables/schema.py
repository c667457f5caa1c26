"""The typed schema of the four tables ``gamao export`` writes: ``matches``,
``games``, ``actions`` and ``decisions`` (the analysis the records carry). One list of columns per table, in order, each
with its type, whether it may be null, and what it holds; the Parquet,
CSV and JSON-lines writers all take their columns from here, so every output
form has the same columns in the same order (``docs/tables.md`` documents
them, and a test keeps that page equal to this table).

Types: ``string``, ``bool``, ``int8``, ``int16``, ``int32``, ``int64``,
``float64``, ``date`` (a calendar day, ``YYYY-MM-DD`` in CSV and JSON) and
``list<candidate>`` (a list of :data:`CANDIDATE_FIELDS` records: a Parquet
list of structs, a JSON array of objects in JSON lines, that array's JSON
text in CSV).

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

TYPES = ("string", "bool", "int8", "int16", "int32", "int64", "float64", "date",
         "list<candidate>")

#: The fields of one ``candidate`` of a ``list<candidate>`` column (the plays
#: an analysing program lists for a roll, best first): name, type, what it is.
CANDIDATE_FIELDS: tuple[tuple[str, str, str], ...] = (
    ("play", "string", "the play in gamao's notation (`24/18 13/11`)"),
    ("equity", "float64", "the program's equity for it (EMG, normalised to a 1-cube)"),
    ("win", "float64", "the mover's chance to win (null: not stated)"),
    ("win_gammon", "float64", "to win a gammon or backgammon"),
    ("win_backgammon", "float64", "to win a backgammon"),
    ("lose_gammon", "float64", "to lose a gammon or backgammon"),
    ("lose_backgammon", "float64", "to lose a backgammon"),
    ("depth", "string", "how the program evaluated it, as it says (`0-ply`, `rollout`)"),
)


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
    _c("path", "string", "the file it was read from; `archive.zip!member.mat` for an archive "
                         "member (as every command names it); the URL for remote input", False),
    _c("index_in_file", "int32", "0 for the first match of the file, 1 for the next...", False),
    _c("format", "string", "the format it was read in: `mat`, `sgf`, `json`, `xg`, `bgf`, `gnubg-text`",
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
    _c("fingerprint", "string", "the tolerant match key of `gamao dedupe`: `LENGTH:KEY,KEY,...`, "
                                "one key a game from its dice and plays; the same for every copy "
                                "of the match (other names, sides swapped, a trailing roll, no "
                                "results), and a copy holding only some of its games holds a run "
                                "of its keys (docs/dedupe.md)", False),
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
                         "(Backgammon Galaxy's `Losses N point` note), `setup` (a position "
                         "the record sets; the player is the one on roll after it)", False),
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

#: One row a decision the record's analysis judges (empty for a record
#: without analysis). Every figure is the analysing program's or gamao's
#: figures' (:mod:`gamao_cli.analysis.figures`, defined in
#: ``docs/analysis.md``): nothing is computed here.
DECISIONS: tuple[Column, ...] = (
    _c("match_id", "string", "the match (`matches.match_id`)", False),
    *COPY,
    _c("game", "int32", "the game's number", False),
    _c("seq", "int32", "the action the decision is on (`actions.seq`): a roll carries the cube "
                       "decision made before it and the checker decision of its play; a double, "
                       "take or drop its own cube decision", False),
    _c("move_number", "int32", "the move number as the record numbers it"),
    _c("player", "int8", "who decides: 0 (left) or 1 (right); for a take or pass, the one "
                         "answering", False),
    _c("kind", "string", "`checker` (a play), `no_double` (a cube decision where the player did "
                         "not double), `double`, `take`, `pass`, or `roll` (a roll with no "
                         "checker decision, a dance: its luck only)", False),
    _c("program", "string", "the analysing program (`GNU Backgammon`, `eXtreme Gammon`...)"),
    _c("depth", "string", "how the program evaluated the decision, as it says (`0-ply`, "
                          "`XG level 3`, `rollout`)"),
    _c("die1", "int8", "the higher die of the roll (checker and roll rows)"),
    _c("die2", "int8", "the lower die"),
    _c("candidates", "list<candidate>", "checker: the plays the program lists, best first "
                                        "(empty: a cube row)", False),
    _c("played_rank", "int16", "checker: the rank of the play made in `candidates` (1 = the "
                               "program's best); null: not among them"),
    _c("forced", "bool", "checker: the roll left no choice (counted in no error rate)"),
    _c("equity_loss", "float64", "what the decision lost, EMG (>= 0; 0 = the best), as the "
                                 "figures count it: the program's own figure where it states "
                                 "one; null: a roll row"),
    _c("equity_loss_mwc", "float64", "what it lost in match winning chances (a fraction, "
                                     ">= 0; null for money and roll rows)"),
    _c("counted", "bool", "it is one of the decisions eXtreme Gammon's PR counts: PR = 500 x "
                          "avg(equity_loss) over them (docs/analysis.md)", False),
    _c("mark", "string", "the program's skill mark: `doubtful`, `bad`, `very bad`; null: none"),
    _c("no_double", "float64", "cube: the equity of no double, for the player who may double, as "
                               "the program states it (in `cube_unit`)"),
    _c("double_take", "float64", "cube: the equity of double, take"),
    _c("double_pass", "float64", "cube: the equity of double, pass (null: the program leaves it "
                                 "to the match equity table)"),
    _c("cube_unit", "string", "cube: `emg` (normalised equity) or `mwc` (match winning chances)"),
    _c("luck", "float64", "checker and roll rows: the luck of the roll for the player who "
                          "rolled, EMG (positive: lucky)"),
    _c("luck_mark", "string", "the program's luck mark: `very lucky`, `lucky`, `unlucky`, "
                              "`very unlucky`; null: none"),
    _c("position_id", "string", "GNU Backgammon's Position ID before the action (as in "
                                "`actions`)"),
    _c("match_id_gnubg", "string", "GNU Backgammon's Match ID before the action"),
    _c("xgid", "string", "the XGID before the action"),
)

TABLES: dict[str, tuple[Column, ...]] = {"matches": MATCHES, "games": GAMES, "actions": ACTIONS,
                                         "decisions": DECISIONS}


def names(table: str) -> list[str]:
    return [c.name for c in TABLES[table]]
