"""Kaleva as a PettingZoo AEC environment (competitive, 2 players: player_0 Silver,
player_1 Bronze).

    from tabletop.envs import kaleva_v0
    env = kaleva_v0.env()

Game options are listed in ``SPEC.options`` (``tabletop info kaleva`` prints them); every
env also takes ``encoder`` ("flat" or "entity"), ``max_plies`` (truncation safety net),
``illegal_action`` ("terminate", the default, or "raise") and ``render_mode`` ("ansi" or "human").

Version history:
- v0 (2026-11-30): the rules of docs/rules/kaleva.md; encoders flat v1 and entity v1
  (every swap that changes the state offered, KV-4.4; the Tuuri pause hidden, KV-4.7).
- v0 (2026-12-04): an illegal action ends the game with -1 to the offender by default
  (``illegal_action="terminate"``, PettingZoo classic; ``"raise"`` on request); the engine
  state is ``env.unwrapped.game_state`` and ``state()`` is PettingZoo's (not implemented);
  a step after the end raises ``ResetNeeded``; registered in PettingZoo as
  ``tabletop/kaleva-v0``; envs pickle and deep-copy.
"""

from __future__ import annotations

from tabletop.envs.core.aec import env_constructors
from tabletop.envs.core.spec import GameSpec, Payoff, frozen_options, seedless
from tabletop.envs.kaleva.encoders import ENCODERS
from tabletop.envs.kaleva.engine import KalevaGame
from tabletop.envs.kaleva.heuristic import KalevaHeuristic

SPEC = GameSpec(
    name="kaleva",
    env_name="kaleva_v0",
    title="Kaleva",
    game_class=KalevaGame,
    encoders=ENCODERS,
    heuristic=seedless(KalevaHeuristic),
    payoff=Payoff.ZERO_SUM,
    min_players=2,
    max_players=2,
    # A safety net only: the turn limit ends every game first (200 turns, plus at most 12
    # arrangement, and one Tuuri and one swap decision per turn).
    max_plies=2_000,
    chance=True,
    hidden_information=True,
    options=frozen_options(
        turn_limit="turns (moves and returns, both players together) before a draw (KV-6.3)",
    ),
)

raw_env, env = env_constructors(SPEC)
