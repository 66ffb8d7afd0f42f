"""Regicide as a PettingZoo AEC environment (cooperative, 1-4 players).

    from tabletop.envs import regicide_v0
    env = regicide_v0.env(num_players=2)

Game options are listed in ``SPEC.options`` (``tabletop info regicide`` prints them); every
env also takes ``encoder`` ("flat" or "entity"), ``max_plies`` (truncation safety net,
RG-8.3), ``illegal_action`` ("terminate", the default, or "raise") and ``render_mode``
("ansi" or "human").

Version history:
- v0 (2026-11-30): the rules of docs/rules/regicide.md; encoders flat v2 and entity v2
  (public knowledge of who holds which known card, RG-4.1 heal batches).
- v0 (2026-12-04): an illegal action ends the game with -1 to the offender by default
  (``illegal_action="terminate"``, PettingZoo classic; ``"raise"`` on request); the engine
  state is ``env.unwrapped.game_state`` and ``state()`` is PettingZoo's (not implemented);
  a step after the end raises ``ResetNeeded``; registered in PettingZoo as
  ``tabletop/regicide-v0``; envs pickle and deep-copy.
"""

from __future__ import annotations

from tabletop.envs.core.aec import env_constructors
from tabletop.envs.core.spec import GameSpec, Payoff, frozen_options, seedless
from tabletop.envs.regicide.encoders import ENCODERS
from tabletop.envs.regicide.engine import RegicideGame
from tabletop.envs.regicide.heuristic import RegicideHeuristic

SPEC = GameSpec(
    name="regicide",
    env_name="regicide_v0",
    title="Regicide",
    game_class=RegicideGame,
    encoders=ENCODERS,
    heuristic=seedless(RegicideHeuristic),
    payoff=Payoff.IDENTICAL,
    min_players=1,
    max_players=4,
    # Far above any real game: the longest of 10,000 random and heuristic games was 98 plies.
    max_plies=2_000,
    chance=True,
    hidden_information=True,
    options=frozen_options(
        num_players="players, 1-4 (RG-1.3)",
        solo_yield="solo may yield, never on two turns in a row (RG-2.1)",
        shaped_reward="+1/12 to everyone per enemy defeated, on top of the shared ±1 (RG-8.1)",
    ),
    bench_options=tuple({"num_players": n} for n in (1, 2, 3, 4)),
)

raw_env, env = env_constructors(SPEC)
