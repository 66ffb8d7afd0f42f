"""Kult as a PettingZoo AEC environment (competitive, 2-4 players, a card game of the
Mystic Cross: win Population tokens into your Hub).

    from tabletop.envs import kult_v0
    env = kult_v0.env(num_players=3, decks=("lantern", "ash", "tide"))

Game options are listed in ``SPEC.options`` (``tabletop info kult`` prints them); on the
command line the decks are ``--option decks=lantern,my/deck.toml`` (one per seat) and the
player count ``--players 3``. Every env also takes ``encoder`` ("flat" or "entity"),
``max_plies`` (truncation safety net; the game's own ``ply_limit`` option, a draw, ends
games first), ``illegal_action`` ("terminate", the default, or "raise") and
``render_mode`` ("ansi" or "human"). ``env.metadata["card_data_version"]`` names the pool
the env plays with.

One fixed ``Discrete(1321)`` action space for every player count; observations depend on
the player count (seats are relative to the observer: docs/games/kult.md, "Observations").

Version history:
- v0 (2026-12-01): the rules of docs/rules/kult.md (KU-1 … KU-11) and the packaged starter
  pool (4 Arcana, a deck each); encoders flat v0 and entity v0.
- v0 (2026-12-02): the game's draw after a number of decisions is the option ``ply_limit``
  (it was ``max_plies``, which the env took as its own truncation, so the game's could not
  be set through the env); observations unchanged.
- v0 (2026-12-04): an illegal action ends the game with -1 to the offender by default
  (``illegal_action="terminate"``, PettingZoo classic; ``"raise"`` on request); the engine
  state is ``env.unwrapped.game_state`` and ``state()`` is PettingZoo's (not implemented);
  a step after the end raises ``ResetNeeded``; registered in PettingZoo as
  ``tabletop/kult-v0``; envs pickle and deep-copy.
- v0 (2026-12-04): encoder entity v1: it holds the flat encoder's counts of every discard
  pile (public, KU-11.1) and of the observer's unseen cards, in rows after the table
  features; flat v0 unchanged.
- v0 (2026-12-06): the flat encoder offers an action structure for pointer networks
  (``envs/kult/structure.py``); observations and actions unchanged.
"""

from __future__ import annotations

from tabletop.envs.core.aec import env_constructors
from tabletop.envs.core.cards.data import card_data_metadata
from tabletop.envs.core.spec import GameSpec, Payoff, frozen_options, seedless
from tabletop.envs.kult.cards import PACKAGED_DECKS
from tabletop.envs.kult.encoders import ENCODERS
from tabletop.envs.kult.engine import GAME_TYPES, KultGame
from tabletop.envs.kult.evaluation import evaluate
from tabletop.envs.kult.heuristic import KultHeuristic
from tabletop.envs.kult.structure import flat_structure

SPEC = GameSpec(
    name="kult",
    env_name="kult_v0",
    title="Kult",
    game_class=KultGame,
    encoders=ENCODERS,
    heuristic=seedless(KultHeuristic),
    # +1 to the winner and -1 to every other player (KU-9.2): zero-sum with 2 players only
    # (+1 -1 -1 sums to -1), so in general each seat plays for itself.
    payoff=Payoff.GENERAL_SUM,
    min_players=2,
    max_players=4,
    # A safety net far above the game's own ply limit (KU-9.1, the ply_limit option).
    max_plies=10_000,
    chance=True,
    hidden_information=True,
    options=frozen_options(
        num_players="players, 2-4 (KU-9.2)",
        game_type="'" + "' or '".join(GAME_TYPES) + "': 5 or 10 tokens per player less one, "
        "and the Hub target (KU-2.4)",
        same_arcanum_swap="players of the same Arcanum swap decks (KU-2.1)",
        ply_limit="decisions before the game ends in a draw (KU-9.1)",
        shaped_reward="not a rule: also reward progress toward the Hub, zero-sum between "
        "seats (tokens in the Hub, on Scene and Cast cards), for training; default off",
        pool="path to a pool file; default the packaged starter pool (KU-10.2)",
        decks="one per seat, in seat order: packaged deck names ("
        + ", ".join(PACKAGED_DECKS)
        + ") or paths to deck files; default the first num_players packaged decks",
    ),
    # The engine refuses any game type not in GAME_TYPES: one declaration for both.
    option_choices={"game_type": tuple(GAME_TYPES)},
    bench_options=tuple({"num_players": n} for n in (2, 3, 4)),
    metadata_of=card_data_metadata,
    decks=PACKAGED_DECKS,
    evaluate=evaluate,
    action_structures={"flat": flat_structure},
)

raw_env, env = env_constructors(SPEC)
