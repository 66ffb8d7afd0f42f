"""Three Cards as a PettingZoo AEC environment (2 players, zero-sum): the example game of
docs/adding-a-game.md, registered by the tests only.

Version history:
- v0 (2026-12-01): rules TC-1 to TC-3; encoder flat v0.
"""

from __future__ import annotations

from three_cards.encoders import ENCODERS
from three_cards.engine import ThreeCardsGame
from three_cards.heuristic import ThreeCardsHeuristic

from tabletop.envs.core.aec import env_constructors
from tabletop.envs.core.spec import GameSpec, Payoff, seedless

SPEC = GameSpec(
    name="three_cards",
    env_name="three_cards_v0",
    title="Three Cards",
    game_class=ThreeCardsGame,
    encoders=ENCODERS,
    heuristic=seedless(ThreeCardsHeuristic),
    payoff=Payoff.ZERO_SUM,
    min_players=2,
    max_players=2,
    max_plies=100,  # a game has six plies
    chance=True,
    hidden_information=True,
)

raw_env, env = env_constructors(SPEC)
