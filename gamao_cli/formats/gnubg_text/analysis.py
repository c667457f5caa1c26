"""gnubg's analysis in its text export: the ranked candidates of a roll, the
cube analysis, and the "Game statistics" block, as JSON-ready dicts.

A roll's block holds, after the action line::

    Alert: doubtful move ( -0.041)
    Cube analysis
    0-ply cubeless equity +0.005 (Money: +0.006)
      0.505 0.148 0.006 - 0.495 0.151 0.009
    Cubeful equities:
    1. No double           +0.011
    2. Double, pass        +1.000  (+0.989)
    3. Double, take        -0.317  (-0.328)
    Proper cube action: No double, take (24.9%)

    Rolled 51:
    *    1. Cubeful 0-ply    13/8 6/5                     Eq.: -0.134
           0.473 0.126 0.007 - 0.527 0.168 0.012

(the ``*`` marks the play made). What gamao does not know in these lines
is passed over: the analysis is gnubg's figures, never the record.
"""
from __future__ import annotations

import re
from typing import Any

_CANDIDATE_RE = re.compile(
    r"(\*)?\s+(\d+)\.\s+(Cubeful|Cubeless)\s+(\d+)-ply\s+(.*?)\s+Eq\.:\s+([+-]?\d+\.\d+)"
    r"(?:\s+\(([+-]?\d+\.\d+)\))?\s*$")
_ROLLOUT_CANDIDATE_RE = re.compile(
    r"(\*)?\s+(\d+)\.\s+(Rollout|[A-Za-z ]+?)\s+(.*?)\s+Eq\.:\s+([+-]?\d+\.\d+)"
    r"(?:\s+\(([+-]?\d+\.\d+)\))?\s*$")
_PROBS_RE = re.compile(r"\s+(\d\.\d+) (\d\.\d+) (\d\.\d+) - (\d\.\d+) (\d\.\d+) (\d\.\d+)\s*$")
_CUBELESS_RE = re.compile(r"(\d+)-ply cubeless equity ([+-]?\d+\.\d+)"
                          r"(?: \(Money: ([+-]?\d+\.\d+)\))?")
_CUBEFUL_RE = re.compile(r"\d\. (No double|No redouble|Double, take|Redouble, take|"
                         r"Double, pass|Redouble, pass|Double, beaver|Redouble, beaver)"
                         r"\s+([+-]?\d+\.\d+)(?:\s+\(([+-]?\d+\.\d+)\))?")
_PROPER_RE = re.compile(r"Proper cube action: (.*?)\s*$")
_ALERT_RE = re.compile(r"Alert: (.*?) \(\s*([+-]?\d+\.\d+)\)")

_CUBE_KEYS = {"No double": "no_double", "No redouble": "no_double",
              "Double, take": "double_take", "Redouble, take": "double_take",
              "Double, pass": "double_pass", "Redouble, pass": "double_pass",
              "Double, beaver": "double_beaver", "Redouble, beaver": "double_beaver"}


def _probs(m: re.Match) -> dict[str, float]:
    v = [float(x) for x in m.groups()]
    return {"win": v[0], "gammon": v[1], "backgammon": v[2], "opp_win": v[3],
            "opp_gammon": v[4], "opp_backgammon": v[5]}


def block_analysis(lines, start: int, end: int, kind: str) -> dict[str, Any] | None:
    """gnubg's analysis in the lines ``start`` to ``end`` (exclusive) of one
    move block, None when there is none."""
    out: dict[str, Any] = {}
    candidates: list[dict[str, Any]] = []
    cube: dict[str, Any] = {}
    in_cube = False
    i = start
    while i < end:
        line = lines.get(i)
        i += 1
        if not line.strip():
            continue
        if line.startswith(" [") and line.rstrip().endswith("]") and out.get("alerts"):
            out["alerts"][-1]["mark"] = line.strip()[1:-1]   # the alert's skill mark
            continue
        if line.startswith("Alert: "):
            am = _ALERT_RE.match(line)
            if am:
                out.setdefault("alerts", []).append({"alert": am.group(1),
                                                     "loss": float(am.group(2))})
            continue
        if line.startswith("Cube analysis"):
            in_cube = True
            continue
        if in_cube:
            cm = _CUBELESS_RE.match(line)
            if cm:
                cube["ply"] = int(cm.group(1))
                cube["cubeless_equity"] = float(cm.group(2))
                if cm.group(3) is not None:
                    cube["money_equity"] = float(cm.group(3))
                continue
            pm = _PROBS_RE.match(line)
            if pm and "cubeless_equity" in cube and "probabilities" not in cube:
                cube["probabilities"] = _probs(pm)
                continue
            fm = _CUBEFUL_RE.match(line)
            if fm:
                key = _CUBE_KEYS[fm.group(1)]
                cube[key] = float(fm.group(2))
                # the "(+0.989)": this line less the first, of the unrounded
                # equities (the first line has none)
                diff = 0.0 if fm.group(3) is None else float(fm.group(3))
                cube.setdefault("differences", {})[key] = diff
                continue
            rm = _PROPER_RE.match(line)
            if rm:
                cube["proper"] = rm.group(1)
                in_cube = False
                continue
            if line.startswith("Cubeful equities"):
                continue
        if line.startswith("Rolled "):
            in_cube = False
            continue
        cm = _CANDIDATE_RE.match(line)
        if cm:
            c: dict[str, Any] = {"rank": int(cm.group(2)), "play": cm.group(5).strip(),
                                 "ply": int(cm.group(4)), "cubeful": cm.group(3) == "Cubeful",
                                 "equity": float(cm.group(6))}
            if cm.group(7) is not None:
                c["difference"] = float(cm.group(7))
            if cm.group(1):
                c["played"] = True
            if i < end:
                pm = _PROBS_RE.match(lines.get(i))
                if pm:
                    c.update(_probs(pm))
                    i += 1
            candidates.append(c)
            continue
    if cube:
        out["cube"] = cube
    if candidates:
        out["candidates"] = candidates
    if not out:
        return None
    out = {"source": "GNU Backgammon", **out}
    played = next((c for c in candidates if c.get("played")), None)
    if candidates:
        best = max(c["equity"] for c in candidates)
        out["best_equity"] = best
        if played is not None:
            out["equity"] = played["equity"]
            out["equity_loss"] = round(best - played["equity"], 6) + 0.0
            depth = f"{played['ply']}-ply"
            out["analysis_depth"] = depth
    elif cube.get("ply") is not None:
        out["analysis_depth"] = f"{cube['ply']}-ply"
    return out


#: gnubg's statistics table: a row's name in the first 41 columns, each
#: player's cell in the next 24 (formatgs.c's layout).
_LABEL, _CELL = 41, 24


def statistics(lines, i: int, path: str) -> dict[str, Any]:
    """gnubg's "Game statistics for game N" block from line ``i``: each row's
    two cells (as written) by section and row name, to the next block
    ("Match statistics", or the end). Kept as the record's stated figures,
    a cross-check of gamao's own, never their source."""
    out: dict[str, Any] = {}
    section = "header"
    n = len(lines)
    i += 1
    while i < n:
        line = lines.get(i)
        i += 1
        s = line.strip()
        if not s:
            continue
        if s == "Match statistics" or s.startswith("Output generated"):
            break
        if s.endswith("statistics") and "  " not in s:
            section = s
            continue
        name = line[:_LABEL].strip()
        cells = (line[_LABEL:_LABEL + _CELL].strip(), line[_LABEL + _CELL:].strip())
        if name and cells[0]:
            out.setdefault(section, {})[name] = cells
    return out
