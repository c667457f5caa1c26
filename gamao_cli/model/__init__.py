"""The match as a record states it: typed classes for matches, games and
actions (:mod:`.records`), and the one notation of plays (:mod:`.notation`)."""
from .notation import BAR, OFF, point_text
from .records import (CENTRED, LEFT, RIGHT, Action, ActionType, Dance, Double, Drop, Game,
                      IllegalPlayMarker, Loss, Match, Notice, Play, PlayText, Resign, ScoreLine,
                      SetUp, Step, Tag, Take, UnplayedRoll, Win, ROLLS, dice_text, parse_steps,
                      play_shape)

__all__ = [
    "BAR", "CENTRED", "LEFT", "OFF", "RIGHT", "Action", "ActionType", "Dance", "Double", "Drop",
    "Game", "IllegalPlayMarker", "Loss", "Match", "Notice", "Play", "PlayText", "Resign",
    "ScoreLine", "SetUp", "Step",
    "Tag", "Take", "UnplayedRoll", "Win", "ROLLS", "dice_text", "parse_steps", "play_shape", "point_text",
]
