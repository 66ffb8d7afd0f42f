"""Gold & Dust as a PettingZoo AEC environment (two players, a collectible card game).

    from tabletop.envs import gold_and_dust_v0
    env = gold_and_dust_v0.env(decks=("warrior", "mage"))

Options: ``decks`` (a pair, seat 0 then seat 1: packaged deck names ``warrior``, ``mage``,
``thief``, ``merchant``, ``assassin`` or paths to deck files; on the command line
``--option decks=warrior,my/deck.toml``), ``pool`` (path to a pool file;
default the packaged starter pool), ``max_turns`` (GD-9.1's turn limit, default 200),
``encoder`` ("flat" or "entity"), ``max_plies`` (truncation safety net of the env),
``illegal_action`` ("raise" or "terminate"), ``render_mode`` ("ansi" or "human").
``metadata["card_data_version"]`` names the pool the env plays with.
"""

from __future__ import annotations

from typing import Any

from pettingzoo import AECEnv

from tabletop.envs.core.aec import TabletopAEC, resolve_encoder, wrap
from tabletop.envs.gold_and_dust.cards import HEROES, load_pool
from tabletop.envs.gold_and_dust.encoders import ENCODERS
from tabletop.envs.gold_and_dust.engine import GoldDustGame
from tabletop.envs.gold_and_dust.heuristic import GoldDustHeuristic

metadata = {
    "name": "gold_and_dust_v0",
    "render_modes": ["ansi", "human"],
    "is_parallelizable": False,
    "render_fps": 1,
    "card_data_version": load_pool().data_version,
}

COMPETITIVE = True
"""Two players against each other: the bench and training treat it as a competitive game."""

DEFAULT_MAX_PLIES = 5_000
"""Far above any real game: the engine's own turn limit (GD-9.1) ends games first."""

BENCH_OPTIONS = [{"decks": (hero, hero)} for hero in HEROES]
"""One mirror match per hero, so each row of ``tabletop bench`` is one hero's deck."""


def new_game(**game_options: Any) -> GoldDustGame:
    """The rules engine's game object; ``new_game(...).new_state(seed=…)`` starts a game."""
    return GoldDustGame.from_options(**game_options)


def raw_env(
    *,
    render_mode: str | None = None,
    max_plies: int | None = DEFAULT_MAX_PLIES,
    illegal_action: str = "raise",
    encoder: str = "flat",
    **game_options: Any,
) -> TabletopAEC:
    """The unwrapped env; its metadata reports the card data of the pool in use."""
    game = new_game(**game_options)
    return TabletopAEC(
        game,
        resolve_encoder(ENCODERS, encoder),
        metadata={**metadata, "card_data_version": game.pool.data_version},
        render_mode=render_mode,
        max_plies=max_plies,
        illegal_action=illegal_action,
    )


def env(**options: Any) -> AECEnv:
    return wrap(raw_env(**options))


def heuristic_agent(seed: int | None = None) -> GoldDustHeuristic:
    """The rule-based baseline; it is deterministic, ``seed`` is accepted for uniformity."""
    return GoldDustHeuristic()
