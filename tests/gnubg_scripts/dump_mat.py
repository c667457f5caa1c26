"""Import match files with GNU Backgammon (the gnubg wheel) and print, as JSON,
what gnubg makes of them: per file the players, length and per game the
winner (0 = left column, gnubg's X), points won and whether it was resigned,
and what gnubg printed while importing it (its warnings: "printed").

    python dump_mat.py FILE.mat [FILE.mat ...] > out.json

Run in its own process: gnubg prints to the C-level standard output (caught around each
command here) and a crash must not take pytest down.
"""
import ctypes
import json
import os
import sys
import tempfile

import gnubg

PLAYER = {"X": 0, "O": 1}
_LIBC = ctypes.CDLL(None)


def quiet(command: str) -> str:
    """Run a gnubg command; what it printed (its warnings), as text."""
    with tempfile.TemporaryFile() as sink:
        saved = os.dup(1)
        os.dup2(sink.fileno(), 1)
        try:
            gnubg.command(command)
        finally:
            _LIBC.fflush(None)   # gnubg's C stdio buffer, into the sink
            os.dup2(saved, 1)
            os.close(saved)
        sink.seek(0)
        return sink.read().decode("utf-8", "replace")


def main() -> None:
    out = {}
    for path in sys.argv[1:]:
        printed = quiet('import mat "%s"' % os.path.abspath(path))
        match = gnubg.match()
        info = match["match-info"]
        games = []
        for g in match["games"]:
            gi = g["info"]
            games.append({
                "score": [gi["score-X"], gi["score-O"]],
                "winner": PLAYER.get(gi["winner"]),
                "points": gi.get("points-won", 0),
                "resigned": bool(gi.get("resigned")),
            })
        out[path] = {"length": info.get("match-length"),
                     "players": [info["X"]["name"], info["O"]["name"]],
                     "games": games,
                     "printed": printed}
    json.dump(out, sys.stdout)


main()
