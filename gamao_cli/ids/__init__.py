"""Position notations: GNU Backgammon's Position ID and Match ID, and
eXtreme Gammon's XGID."""
from .gnubg import (GAME_DROPPED, GAME_NONE, GAME_OVER, GAME_PLAYING, GAME_RESIGNED, Board,
                    MatchState, decode_match_id, decode_position_id, gnubg_id, match_id,
                    position_id)
from .xgid import XgidState, parse_xgid, xgid

__all__ = [
    "GAME_DROPPED", "GAME_NONE", "GAME_OVER", "GAME_PLAYING", "GAME_RESIGNED", "Board",
    "MatchState", "decode_match_id", "decode_position_id", "gnubg_id", "match_id",
    "position_id", "XgidState", "parse_xgid", "xgid",
]
