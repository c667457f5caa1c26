"""Import match files with GNU Backgammon (the gnubg wheel) and print, as JSON,
what gnubg makes of them: per file the players, length and per game the
winner (0 = left column, gnubg's X), points won and whether it was resigned.

    python dump_mat.py FILE.mat [FILE.mat ...] > out.json

Run in its own process: gnubg prints to the C-level standard output (sent to
/dev/null around each command here) and a crash must not take pytest down.
"""
import json
import os
import sys

import gnubg

PLAYER = {"X": 0, "O": 1}


def quiet(command: str) -> None:
    devnull = os.open(os.devnull, os.O_WRONLY)
    saved = os.dup(1)
    os.dup2(devnull, 1)
    try:
        gnubg.command(command)
    finally:
        os.dup2(saved, 1)
        os.close(devnull)
        os.close(saved)


def main() -> None:
    out = {}
    for path in sys.argv[1:]:
        quiet('import mat "%s"' % os.path.abspath(path))
        match = gnubg.match()
        info = match["match-info"]
        games = []
        for g in match["games"]:
            gi = g["info"]
            games.append({
                "score": [gi["score-X"], gi["score-O"]],
                "winner": PLAYER.get(gi["winner"]),
                "points": gi["points-won"],
                "resigned": bool(gi["resigned"]),
            })
        out[path] = {"length": info.get("match-length"),
                     "players": [info["X"]["name"], info["O"]["name"]],
                     "games": games}
    json.dump(out, sys.stdout)


main()
