"""The rules engine: positions, the single die step, legal plays, checking a
recorded play, outcomes, the cube, the variants.

This package knows nothing of file formats, rendering, the command line or
the replay: it works on plain integers. A checker movement is a pair
``(src, dst)`` of points in the mover's numbering, with 25 for the bar and 0
for borne off; a die step is a triple ``(src, dst, hit)``.

The rules are those of ``RULES.md`` (see "Moving", "Hitting and entering" and
"Bearing off"). The numbering follows the rule book: a player's point ``p`` is
the opponent's point ``25 - p``.

- :mod:`.position`: positions (26 checker counts a side);
- :mod:`.steps`: the single die step (:func:`die_step`, the one place the rule
  of moving one checker is written) and moving a checker (hitting);
- :mod:`.plays`: every legal play of a roll, the most dice a roll can use;
- :mod:`.resolve`: which dice a written play takes, whether it is legal
  (:class:`Resolver` holds the memos a replay keeps);
- :mod:`.outcome`: how a game ends and what it is worth;
- :mod:`.cube`: the cube and the turn, a state machine;
- :mod:`.variants`: the variants and every name the formats give them.

>>> pos = start_position()
>>> pos.pip_count()
(167, 167)
>>> len(legal_plays(pos, 3, 1)), legal_plays(pos, 3, 1)[resolve_play(pos, [(8, 5), (6, 5)], 3, 1).position]
(16, ((8, 5, False), (6, 5, False)))
>>> r = resolve_play(pos, [(8, 5), (6, 5)], 3, 1)
>>> r.ok, r.dice_used, r.position.me[5]
(True, 2, 2)
"""
from .cube import CubeState, Offer, Refusal, Why, crawford_game
from .outcome import Outcome, game_over, outcome_of, result_multiplier
from .plays import die_playable, find_plays, legal_plays, max_dice_playable
from .position import BAR, OFF, Position, Step, checkers
from .resolve import (PROBLEMS, Problem, Resolution, Resolver, play_in_written_order,
                      play_is_legal, resolve_play)
from .steps import (HIT, POINT, StepProblem, apply_step, apply_steps_as_written, die_step, move_checker,
                    step_destination, unmove_checker)
from .variants import (ALL_VARIANTS, VARIANTS, Variant, find_variant, start_position,
                       variant_by_key, variant_key, variant_of_rule_word)

__all__ = [
    "ALL_VARIANTS",
    "BAR",
    "CubeState",
    "HIT",
    "OFF",
    "Offer",
    "Outcome",
    "POINT",
    "PROBLEMS",
    "Position",
    "Problem",
    "Refusal",
    "Resolution",
    "Resolver",
    "Step",
    "StepProblem",
    "VARIANTS",
    "Variant",
    "Why",
    "apply_step",
    "apply_steps_as_written",
    "checkers",
    "crawford_game",
    "die_playable",
    "die_step",
    "find_plays",
    "find_variant",
    "game_over",
    "legal_plays",
    "max_dice_playable",
    "move_checker",
    "outcome_of",
    "play_in_written_order",
    "play_is_legal",
    "resolve_play",
    "result_multiplier",
    "start_position",
    "step_destination",
    "unmove_checker",
    "variant_by_key",
    "variant_key",
    "variant_of_rule_word",
]
