"""The steps of a Gold & Dust turn (the state's ``phase``) and the end of the game.

A leaf of the engine's role modules: the turn structure, combat, legality, notation and
rendering all read the step, and both a fallen Hero (combat) and the turn limit (turns)
end the game, so both find ``finish`` here without importing each other.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tabletop.envs.core.cards.phases import DRAW

if TYPE_CHECKING:
    from tabletop.envs.gold_and_dust.engine import GoldDustState

MAIN, SHOOT, ATTACK, BLOCK, STRIKE, OVER = range(6)
"""The steps by number, as ``turns.PHASES`` declares them (and their names)."""


def finish(state: GoldDustState, *, winner: int) -> None:
    """GD-9.2: +1 win, -1 loss, 0 each for a draw (``DRAW``: the turn limit), by the
    kit's ``end_game``; then the event that says how."""
    state.end_game(winner)
    if winner == DRAW:
        state._record("game_drawn", turns=state.turn)
    else:
        state._record("game_won", player=winner, loser=1 - winner)
