"""Position notations: GNU Backgammon's Position ID and Match ID, and
eXtreme Gammon's XGID."""
from .gnubg import (GAME_DROPPED, GAME_NONE, GAME_OVER, GAME_PLAYING, GAME_RESIGNED, Board,
                    MatchState, decode_match_id, decode_position_id, gnubg_id, match_id,
                    position_id)
from .xgid import XgidState, parse_xgid, xgid


def parse_position(text: str) -> tuple[Board, Board, MatchState | None]:
    """``(me, opp, state)`` of an XGID, a ``PositionID:MatchID`` pair, or a
    lone Position ID (``state`` None), ``me`` being the player on roll.
    Raises ``ValueError`` with what is wrong.

    >>> me, opp, state = parse_position("4HPwATDgc/ABMA:cAmgAAAAAAAE")
    >>> state.on_roll, state.length, me == opp
    (1, 5, True)
    """
    text = text.strip()
    if text.upper().startswith("XGID=") or text.count(":") >= 8:
        st = parse_xgid(text)
        return st.me, st.opp, st.match_state()
    pos_text, _, mid = text.partition(":")
    me, opp = decode_position_id(pos_text)
    return me, opp, (decode_match_id(mid) if mid else None)

__all__ = [
    "GAME_DROPPED", "GAME_NONE", "GAME_OVER", "GAME_PLAYING", "GAME_RESIGNED", "Board",
    "MatchState", "decode_match_id", "decode_position_id", "gnubg_id", "match_id",
    "position_id", "XgidState", "parse_xgid", "xgid", "parse_position",
]
