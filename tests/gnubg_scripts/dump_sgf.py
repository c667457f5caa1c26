"""Load SGF files into GNU Backgammon and dump what it makes of them, as JSON.

Run by Debian's gnubg, whose embedded Python gets no arguments (the wheel's
``load match`` crashes on SGF)::

    GAMAO_GNUBG_LIST=files.txt GAMAO_GNUBG_OUT=out.json \\
        /usr/games/gnubg -t -q -r -p dump_sgf.py

``files.txt`` holds one SGF path per line. For each file the output maps the
path to ``{"messages", "length", "players", "games"}``; each game has gnubg's
``score`` before it, ``winner`` (0 = X = SGF White = left, 1), ``points``,
``resigned``, ``crawford`` and ``actions``: ``[action, player, dice, move,
board]`` with ``board`` the Position ID before the action (player on roll).
With ``GAMAO_GNUBG_EXPORT`` set to a folder, gnubg also writes its own match
file and SGF of each file there (``<stem>.mat``, ``<stem>.sgf``).

gnubg prints to the C-level standard output; the script sends file
descriptors 1 and 2 to a temporary file around each command and keeps what
gnubg said under ``messages``. A file gnubg cannot load leaves the previous
match in place, so ``messages`` and the comparison tell.
"""
import json
import os
import tempfile

import gnubg

PLAYER = {"X": 0, "O": 1}


def quietly(command):
    """Run a gnubg command; return what it printed."""
    with tempfile.TemporaryFile(mode="w+b") as sink:
        saved = os.dup(1), os.dup(2)
        os.dup2(sink.fileno(), 1)
        os.dup2(sink.fileno(), 2)
        try:
            gnubg.command(command)
        finally:
            os.dup2(saved[0], 1)
            os.dup2(saved[1], 2)
            os.close(saved[0])
            os.close(saved[1])
        sink.seek(0)
        return sink.read().decode("utf-8", "replace")


def dump(path, export):
    messages = quietly('load match "%s"' % path)
    out = {"messages": messages}
    try:
        m = gnubg.match(analysis=0, boards=1, statistics=0, verbose=0)
    except Exception as exc:  # no match loaded at all
        out["error"] = repr(exc)
        return out
    info = m["match-info"]
    out["length"] = info.get("match-length")
    out["players"] = [info["X"]["name"], info["O"]["name"]]
    out["rules"] = info.get("rules")
    out["variation"] = info.get("variation")
    games = []
    for g in m["games"]:
        gi = g["info"]
        actions = []
        for r in g["game"]:
            actions.append([r["action"], PLAYER.get(r.get("player")), r.get("dice"),
                            r.get("move"), r.get("board")])
        games.append({
            "score": [gi["score-X"], gi["score-O"]],
            "winner": PLAYER.get(gi.get("winner")),
            "points": gi.get("points-won"),
            "resigned": bool(gi.get("resigned")),
            "crawford": bool(gi.get("crawford")),
            "actions": actions,
        })
    out["games"] = games
    if export:
        stem = os.path.join(export, os.path.splitext(os.path.basename(path))[0])
        out["messages"] += quietly('export match mat "%s.mat"' % stem)
        out["messages"] += quietly('save match "%s.sgf"' % stem)
    return out


def main():
    with open(os.environ["GAMAO_GNUBG_LIST"], encoding="utf-8") as fh:
        paths = [line.rstrip("\n") for line in fh if line.strip()]
    export = os.environ.get("GAMAO_GNUBG_EXPORT")
    quietly("set display off")
    result = {}
    for path in paths:
        result[path] = dump(path, export)
    with open(os.environ["GAMAO_GNUBG_OUT"], "w", encoding="utf-8") as fh:
        json.dump(result, fh, default=list)


main()
