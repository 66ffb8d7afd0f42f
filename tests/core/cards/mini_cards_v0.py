"""Mini Cards as a PettingZoo AEC environment (2 players, zero-sum): a card game built from
the card-game kit in tests/core/cards/mini_cards, registered by the tests only.

Version history:
- v0 (2026-12-01): rules MC-1 to MC-4; encoder flat v0.
"""

from __future__ import annotations

from mini_cards.encoders import ENCODERS
from mini_cards.engine import TURNS, MiniCardsGame
from mini_cards.heuristic import MiniCardsHeuristic

from tabletop.envs.core.aec import env_constructors
from tabletop.envs.core.spec import GameSpec, Payoff, seedless

SPEC = GameSpec(
    name="mini_cards",
    env_name="mini_cards_v0",
    title="Mini Cards",
    game_class=MiniCardsGame,
    encoders=ENCODERS,
    heuristic=seedless(MiniCardsHeuristic),
    payoff=Payoff.ZERO_SUM,
    min_players=2,
    max_players=2,
    max_plies=50 * TURNS,  # a turn takes a handful of plies
    chance=True,
    hidden_information=True,
)

raw_env, env = env_constructors(SPEC)
