"""The rules engine: positions, legal plays, and checking a recorded play.

This module knows nothing of file formats: it works on plain integers. A
checker movement is a pair ``(src, dst)`` of points in the mover's numbering,
with 25 for the bar and 0 for borne off; a die step is a triple
``(src, dst, hit)``.

The rules are those of ``RULES.md`` (see "Moving", "Hitting and entering" and
"Bearing off"). The numbering follows the rule book: a player's point ``p`` is
the opponent's point ``25 - p``.

>>> pos = start_position()
>>> pos.pip_count()
(167, 167)
>>> len(legal_plays(pos, 3, 1)), legal_plays(pos, 3, 1)[resolve_play(pos, [(8, 5), (6, 5)], 3, 1).position]
(16, ((8, 5, False), (6, 5, False)))
>>> r = resolve_play(pos, [(8, 5), (6, 5)], 3, 1)
>>> r.ok, r.dice_used, r.position.me[5]
(True, 2, 2)
"""
from .outcome import game_over, result_multiplier
from .plays import die_playable, legal_plays, max_dice_playable
from .position import BAR, OFF, Position, Step, checkers
from .resolve import PROBLEMS, Resolution, play_in_written_order, play_is_legal, resolve_play
from .steps import apply_step, apply_steps_as_written, step_destination
from .variants import VARIANTS, start_position, variant_key

__all__ = [
    "BAR",
    "OFF",
    "PROBLEMS",
    "Position",
    "Resolution",
    "VARIANTS",
    "apply_step",
    "apply_steps_as_written",
    "checkers",
    "die_playable",
    "game_over",
    "legal_plays",
    "max_dice_playable",
    "play_in_written_order",
    "play_is_legal",
    "resolve_play",
    "result_multiplier",
    "start_position",
    "step_destination",
    "variant_key",
    "Step",
]
