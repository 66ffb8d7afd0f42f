"""Gold & Dust as a PettingZoo AEC environment (two players, a collectible card game).

    from tabletop.envs import gold_and_dust_v0
    env = gold_and_dust_v0.env(decks=("warrior", "mage"))

Game options are listed in ``SPEC.options`` (``tabletop info gold_and_dust`` prints them);
on the command line a pair of decks is ``--option decks=warrior,my/deck.toml``. Every env
also takes ``encoder`` ("flat" or "entity"), ``max_plies`` (truncation safety net),
``illegal_action`` ("terminate", the default, or "raise") and ``render_mode`` ("ansi" or "human").
``env.metadata["card_data_version"]`` names the pool the env plays with.

Version history:
- v0 (2026-11-30): the rules of docs/rules/gold_and_dust.md and the packaged starter pool;
  encoders flat v0 and entity v0.
- v0 (2026-12-01): the engine runs on the card-game kit, with the same rules,
  observations and golden playthroughs; card files write a Hero's passive as auras (the
  continuous effects of lasting artifacts) and may use more trigger events and conditions
  (docs/card-format.md).
- v0 (2026-12-04): an illegal action ends the game with -1 to the offender by default
  (``illegal_action="terminate"``, PettingZoo classic; ``"raise"`` on request); the engine
  state is ``env.unwrapped.game_state`` and ``state()`` is PettingZoo's (not implemented);
  a step after the end raises ``ResetNeeded``; registered in PettingZoo as
  ``tabletop/gold_and_dust-v0``; envs pickle and deep-copy.
- v0 (2026-12-04): encoders flat v1 and entity v1: a card's effect summary counts the gold
  and the dust it gains apart (``gains gold``, ``gains dust``: a card row is 56 wide), and
  the entity encoder holds the counts of the own deck and both graveyards (GD-9.3), as the
  flat one does.
- v0 (2026-12-06): the flat encoder offers an action structure for pointer networks
  (``envs/gold_and_dust/structure.py``); observations and actions are unchanged.
"""

from __future__ import annotations

from tabletop.envs.core.aec import env_constructors
from tabletop.envs.core.cards.data import card_data_metadata
from tabletop.envs.core.spec import GameSpec, Payoff, frozen_options, seedless
from tabletop.envs.gold_and_dust.cards import HEROES
from tabletop.envs.gold_and_dust.encoders import ENCODERS
from tabletop.envs.gold_and_dust.engine import GoldDustGame
from tabletop.envs.gold_and_dust.heuristic import GoldDustHeuristic
from tabletop.envs.gold_and_dust.structure import flat_structure

SPEC = GameSpec(
    name="gold_and_dust",
    env_name="gold_and_dust_v0",
    title="Gold & Dust",
    game_class=GoldDustGame,
    encoders=ENCODERS,
    action_structures={"flat": flat_structure},
    heuristic=seedless(GoldDustHeuristic),
    payoff=Payoff.ZERO_SUM,
    min_players=2,
    max_players=2,
    # Far above any real game: the engine's own turn limit (GD-9.1) ends games first.
    max_plies=5_000,
    chance=True,
    hidden_information=True,
    options=frozen_options(
        decks="a pair, seat 0 then seat 1: packaged deck names ("
        + ", ".join(HEROES)
        + ") or paths to deck files (GD-1.2)",
        pool="path to a pool file; default the packaged starter pool",
        max_turns="turns before the game ends in a draw (GD-9.1)",
    ),
    # One mirror match per hero, so each row of ``tabletop bench`` is one hero's deck.
    bench_options=tuple({"decks": (hero, hero)} for hero in HEROES),
    metadata_of=card_data_metadata,
    decks=HEROES,
)

raw_env, env = env_constructors(SPEC)
