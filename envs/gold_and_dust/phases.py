"""The steps of a Gold & Dust turn (the state's ``phase``) and the end of the game.

A leaf of the engine's role modules: the turn structure, combat, legality, notation and
rendering all read the step, and both a fallen Hero (combat) and the turn limit (turns)
end the game, so both find ``finish`` here without importing each other.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tabletop.envs.gold_and_dust.engine import GoldDustState

MAIN, SHOOT, ATTACK, BLOCK, STRIKE, OVER = range(6)
PHASE_NAMES = ("main", "shoot", "attack", "block", "strike", "over")
DRAW = -1
"""``winner`` of a game ended by the turn limit."""


def finish(state: GoldDustState, *, winner: int) -> None:
    """GD-9.2: +1 win, -1 loss, 0 each for a draw."""
    state.winner = winner
    state.phase = OVER
    if winner == DRAW:
        state._record("game_drawn", turns=state.turn)
    else:
        state._reward(winner, 1.0)
        state._reward(1 - winner, -1.0)
        state._record("game_won", player=winner, loser=1 - winner)
