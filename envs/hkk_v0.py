"""HKK as a PettingZoo AEC environment (two players, a collectible card game of creatures,
buildings, items and spells with a last-in-first-out chain of instants).

    from tabletop.envs import hkk_v0
    env = hkk_v0.env(decks=("skyfire", "venom"))

Game options are listed in ``SPEC.options`` (``tabletop info hkk`` prints them); on the
command line a pair of decks is ``--option decks=skyfire,my/deck.toml``. Every env also
takes ``encoder`` ("flat" or "entity"), ``max_plies`` (truncation safety net),
``illegal_action`` ("terminate", the default, or "raise") and ``render_mode`` ("ansi" or "human").
``env.metadata["card_data_version"]`` names the pool the env plays with.

One fixed ``Discrete`` action space (docs/games/hkk.md, "Actions").

Version history:
- v0 (2026-12-02): the rules of docs/rules/hkk.md (HK-1 … HK-11) and the packaged starter
  pool (100 cards, four decks); encoders flat v0 and entity v0. The engine's safety net is
  the game option ``ply_limit``; ``max_plies`` is the env's truncation, as in every game.
- encoders flat v1 and entity v1 (2026-12-04): both mark the attacker a defender strikes
  back (HK-6.2) and a creature whose damage is fresh enough to regenerate (HK-7.9); the
  entity encoder adds the count rows of the own deck, both discard piles and both Voids
  (HK-11.1). Rules: regeneration only right after the damage (HK-7.9), no mutant fed in a
  life-saving window (HK-6.5), reactions answer the kind their card names (HK-8.4).
- v0 (2026-12-04): an illegal action ends the game with -1 to the offender by default
  (``illegal_action="terminate"``, PettingZoo classic; ``"raise"`` on request); the engine
  state is ``env.unwrapped.game_state`` and ``state()`` is PettingZoo's (not implemented);
  a step after the end raises ``ResetNeeded``; registered in PettingZoo as
  ``tabletop/hkk-v0``; envs pickle and deep-copy.
"""

from __future__ import annotations

from tabletop.envs.core.aec import env_constructors
from tabletop.envs.core.cards.data import card_data_metadata
from tabletop.envs.core.spec import GameSpec, Payoff, frozen_options, seedless
from tabletop.envs.hkk.cards import PACKAGED_DECKS
from tabletop.envs.hkk.encoders import ENCODERS
from tabletop.envs.hkk.engine import DEFAULT_PLY_LIMIT, HkkGame
from tabletop.envs.hkk.evaluation import evaluate
from tabletop.envs.hkk.heuristic import HkkHeuristic
from tabletop.envs.hkk.structure import flat_structure

SPEC = GameSpec(
    name="hkk",
    env_name="hkk_v0",
    title="HKK",
    game_class=HkkGame,
    encoders=ENCODERS,
    heuristic=seedless(HkkHeuristic),
    payoff=Payoff.ZERO_SUM,
    min_players=2,
    max_players=2,
    # The engine's own safety net (the ply_limit option, a draw) ends games first.
    max_plies=DEFAULT_PLY_LIMIT + 1,
    chance=True,
    hidden_information=True,
    options=frozen_options(
        decks="a pair, seat 0 then seat 1: packaged deck names ("
        + ", ".join(PACKAGED_DECKS)
        + ") or paths to deck files (HK-10.2)",
        pool="path to a pool file; default the packaged starter pool (HK-10.1)",
        ply_limit="decisions before the game ends in a draw (a safety net: HK-2.3 sets no "
        "turn limit)",
    ),
    # One mirror match per deck, so each row of ``tabletop bench`` is one deck.
    bench_options=tuple({"decks": (deck, deck)} for deck in PACKAGED_DECKS),
    metadata_of=card_data_metadata,
    decks=PACKAGED_DECKS,
    evaluate=evaluate,
    action_structures={"flat": flat_structure},
)

raw_env, env = env_constructors(SPEC)
