"""The conformance suite: every generic check, over every registered game and each of its
bench settings (``SPEC.bench_options``). A game gets all of it by registering; its own test
files keep only its rules and its game-specific invariants.

Checks: PettingZoo's ``api_test`` (each encoder) and ``seed_test``; masks equal the legal
actions and returns fit ``SPEC.payoff`` in the env; no encoder leaks hidden information,
nor do the observer texts, events and ``render``; determinizations keep the card
multisets a player knows (a pile shuffled into a deck stays its cards); the heuristic and
ISMCTS never peek; options are validated by name; clones are independent; the seed decides
the game (and ``SPEC.chance`` is honest); action notation round-trips; the state contract
holds in random games; and every golden playthrough (``tests/<name>/playthroughs/*.txt``)
replays exactly.

Sizes: each check looks at about ``*_PLIES`` positions per game, shared among its bench
settings, so a long game plays fewer games and a game with many settings fewer per setting.
The checks of random positions walk one set of random games per setting, played once per
process (``trajectories``): they all look at the same positions, and each takes as many of
its games as its size asks for.
"""

from __future__ import annotations

import contextlib
import copy
import functools
import math
import os
import pickle
import random
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from pettingzoo import AECEnv
from pettingzoo.test import api_test, seed_test

from tabletop import envs
from tabletop.agents import make_agent
from tabletop.envs.core.checks import (
    Trajectory,
    check_agent_never_peeks,
    check_clone_independence,
    check_env_random_play,
    check_known_multisets,
    check_no_leak,
    check_no_text_leak,
    check_notation,
    check_option_validation,
    check_public_facts_encoded,
    check_seed_determinism,
    random_trajectories,
    run_random_games,
)
from tabletop.envs.core.playthrough import REGENERATE, check_golden, check_playthrough
from tabletop.envs.core.protocol import Game
from tabletop.envs.core.spec import GameSpec

TESTS = Path(__file__).parent
GOLDEN_DIR = "playthroughs"
"""A game's golden transcripts live in ``tests/<name>/playthroughs/*.txt`` (``game_folder``)."""
API_CYCLES = 300
# Positions each check looks at per game, shared among its bench settings (``games_for``).
LEAK_PLIES = 1_000
TEXT_LEAK_PLIES = 1_000
HEURISTIC_PEEK_PLIES = 1_500
ENV_STEPS = 4_000
DETERMINISM_PLIES = 1_000
CLONE_PLIES = 1_000
NOTATION_PLIES = 1_000
CONTRACT_PLIES = 2_000
KNOWN_MULTISET_PLIES = 1_000
PUBLIC_FACT_PLIES = 1_000
SHARED_PLIES = max(LEAK_PLIES, TEXT_LEAK_PLIES, ENV_STEPS, DETERMINISM_PLIES, CLONE_PLIES,
                   NOTATION_PLIES, KNOWN_MULTISET_PLIES, PUBLIC_FACT_PLIES)  # fmt: skip
"""The size of the shared random games (``trajectories``): the largest that a check asks
for."""
SHARED_SEED = 1
ISMCTS_SPEC = "ismcts:iterations=25"
ISMCTS_GAMES = 2
ISMCTS_PLIES = (4, 20)
"""ISMCTS is checked at two positions of two games per setting: early, and in mid-game
(earlier in a game shorter than twice the later ply: ``ismcts_plies``)."""


@dataclass(frozen=True)
class Setting:
    """One registered game with one of its bench option sets (kept as items, so that a
    setting can key a cache)."""

    name: str
    option_items: tuple[tuple[str, Any], ...]

    @property
    def options(self) -> dict[str, Any]:
        return dict(self.option_items)

    @property
    def spec(self) -> GameSpec:
        return envs.spec(self.name)

    @property
    def id(self) -> str:
        """``regicide-num_players=1``; the game's name alone for its defaults."""
        parts = [f"{key}={_option_text(value)}" for key, value in self.options.items()]
        return "-".join([self.name, *parts])

    def game(self) -> Game:
        return self.spec.new_game(**self.options)

    def env(self, **env_options: Any) -> AECEnv:
        return envs.make(self.name, **self.options, **env_options)

    def games_for(self, plies_per_game: int) -> int:
        """Games of this setting for its share of ``plies_per_game`` positions (at least 2,
        so that seeds can differ)."""
        share = plies_per_game / len(self.spec.bench_options)
        return max(2, round(share / mean_plies(self)))


def _option_text(value: Any) -> str:
    """An option value as the command line writes it: a pair of decks is ``a,b``."""
    return ",".join(map(str, value)) if isinstance(value, tuple | list) else str(value)


@functools.cache
def mean_plies(setting: Setting) -> float:
    """Mean length of ten uniformly random games of ``setting``."""
    game, rng, plies = setting.game(), random.Random(0), 0
    for seed in range(10):
        state = game.new_state(seed=seed)
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_actions()))
            plies += 1
    return plies / 10


@functools.cache
def shared_games(setting: Setting) -> tuple[Trajectory, ...]:
    """The setting's random games, played once per process."""
    game = setting.game()
    return random_trajectories(game, games=setting.games_for(SHARED_PLIES), seed=SHARED_SEED)


def trajectories(setting: Setting, plies_per_game: int) -> tuple[Trajectory, ...]:
    """The first of the setting's shared random games, as many as a check of
    ``plies_per_game`` positions takes (``Setting.games_for``): the same games for every
    check, so a position one check trips on is one that the others passed or saw."""
    return shared_games(setting)[: setting.games_for(plies_per_game)]


EXAMPLE_GAMES = {"three_cards": TESTS / "three_cards", "mini_cards": TESTS / "core" / "cards"}
"""The test-only games and their folders: the example game of docs/adding-a-game.md
(tests/three_cards/) and the card game built from the card-game kit (tests/core/cards/).
The package does not register them; this suite does, for its own tests, so that they pass
every check."""
sys.path[:0] = [str(folder) for folder in EXAMPLE_GAMES.values()]


def game_folder(name: str) -> Path:
    """Where a game's tests live: ``tests/<name>`` for the packaged games."""
    return EXAMPLE_GAMES.get(name, TESTS / name)


@contextlib.contextmanager
def example_game_registered() -> Iterator[None]:
    for name in EXAMPLE_GAMES:
        envs.REGISTRY[name] = f"{name}_v0"
    try:
        yield
    finally:
        for name in EXAMPLE_GAMES:
            del envs.REGISTRY[name]


@pytest.fixture(autouse=True)
def _example_game_registered() -> Iterator[None]:
    with example_game_registered():
        yield


with example_game_registered():
    GAMES = envs.names()
    SETTINGS = [
        Setting(name, tuple(options.items()))
        for name in GAMES
        for options in envs.spec(name).bench_options
    ]
    ENCODED = [(s, encoder) for s in SETTINGS for encoder in sorted(s.spec.encoders)]
    EVALUATED = [setting for setting in SETTINGS if setting.spec.evaluate is not None]
GOLDEN = [
    (name, path)
    for name in GAMES
    for path in sorted((game_folder(name) / GOLDEN_DIR).glob("*.txt"))
]


each_setting = pytest.mark.parametrize("setting", SETTINGS, ids=[s.id for s in SETTINGS])
SLOW_TEXT_LEAK = {"kult-num_players=4"}
"""Settings whose text-leak check takes over 20 s on one core: marked ``slow``."""
each_setting_text_leak = pytest.mark.parametrize(
    "setting",
    [
        pytest.param(s, id=s.id, marks=[pytest.mark.slow] * (s.id in SLOW_TEXT_LEAK))
        for s in SETTINGS
    ],
)
each_encoder = pytest.mark.parametrize(
    ("setting", "encoder"), ENCODED, ids=[f"{s.id}-encoder={e}" for s, e in ENCODED]
)


@each_encoder
def test_pettingzoo_api_test(setting: Setting, encoder: str) -> None:
    api_test(setting.env(encoder=encoder), num_cycles=API_CYCLES)


@each_setting
def test_pettingzoo_seed_test(setting: Setting) -> None:
    seed_test(setting.env, num_cycles=API_CYCLES)


@each_setting
def test_masks_match_legal_actions_and_returns_fit_the_payoff(setting: Setting) -> None:
    games = trajectories(setting, ENV_STEPS)
    summary = check_env_random_play(setting.env(), games=games, seed=1, payoff=setting.spec.payoff)
    assert summary.episodes == len(games)


@each_encoder
def test_encoders_leak_no_hidden_information(setting: Setting, encoder: str) -> None:
    """Resamples are played out to their end (they must be valid games) in the first
    encoder's test only: that checks ``resample_hidden``, not the encoder, and every
    encoder's test walks the same positions."""
    game = setting.game()
    encoding = setting.spec.encoders[encoder]
    first = encoder == min(setting.spec.encoders)
    report = check_no_leak(
        game,
        encoding,
        games=trajectories(setting, LEAK_PLIES),
        seed=3,
        min_sensitivity=0.5,
        playout_fraction=0.1 if first else 0.0,
    )
    assert report.resamples >= 2 * game.num_players * report.states > 0
    assert report.playouts > 0 or not first
    assert game.num_players == 1 or report.sensitivity_trials > 0


@each_encoder
def test_encoders_show_every_declared_public_fact(setting: Setting, encoder: str) -> None:
    game = setting.game()
    if not hasattr(game, "public_fact_variants"):
        pytest.skip(f"{setting.name} declares no public facts (Game.public_fact_variants)")
    encoders = {encoder: setting.spec.encoders[encoder]}
    games = trajectories(setting, PUBLIC_FACT_PLIES)
    report = check_public_facts_encoded(game, encoders, games=games, seed=4)
    assert report.states > 0 and sum(report.variants.values()) > 0


@each_setting_text_leak
def test_texts_events_and_render_leak_no_hidden_information(setting: Setting) -> None:
    game = setting.game()
    games = trajectories(setting, TEXT_LEAK_PLIES)
    report = check_no_text_leak(game, setting.spec.encoders, games=games, seed=2)
    assert report.comparisons > report.states
    assert game.num_players == 1 or report.off_turn_comparisons > report.states


@each_setting
def test_determinizations_keep_the_card_multisets_a_player_knows(setting: Setting) -> None:
    """A shuffle forgets order, not membership: a public pile shuffled into a deck stays
    that deck's cards (and those drawn from it since) in every ``resample_hidden``."""
    games = trajectories(setting, KNOWN_MULTISET_PLIES)
    if not check_known_multisets(setting.game(), games=games, seed=9):
        pytest.skip(f"{setting.name} keeps no card-kit Table")


@each_setting
def test_heuristic_never_peeks(setting: Setting) -> None:
    report = check_agent_never_peeks(
        setting.game(),
        functools.partial(setting.spec.heuristic, 0),
        games=setting.games_for(HEURISTIC_PEEK_PLIES),
        seed=0,
    )
    assert _twins_differ(setting, report.hidden_differences, report.decisions)


@each_setting
def test_ismcts_never_peeks(setting: Setting) -> None:
    report = check_agent_never_peeks(
        setting.game(),
        functools.partial(make_agent, ISMCTS_SPEC, setting.name, 5),
        games=ISMCTS_GAMES,
        seed=7,
        twins=1,
        at_plies=ismcts_plies(setting),
    )
    assert report.decisions >= ISMCTS_GAMES
    assert _twins_differ(setting, report.hidden_differences, report.decisions)


@pytest.mark.parametrize("setting", EVALUATED, ids=[s.id for s in EVALUATED])
def test_a_declared_evaluation_scores_every_seat_and_ends_on_the_returns(
    setting: Setting,
) -> None:
    """``GameSpec.evaluate`` (what ``ismcts:depth=N`` scores a cut-off rollout with): one
    finite estimate per seat at every position of random games, the returns once over."""
    game, rng = setting.game(), random.Random(4)
    for seed in range(3):
        state = game.new_state(seed)
        while True:
            values = setting.spec.evaluate(state)
            assert len(values) == game.num_players
            assert all(math.isfinite(value) for value in values)
            if state.is_terminal():
                assert list(values) == list(state.returns())
                break
            state.apply(rng.choice(state.legal_actions()))


def ismcts_plies(setting: Setting) -> tuple[int, ...]:
    """``ISMCTS_PLIES``, moved up in short games so that both are reached: at most a quarter
    and half of a random game's mean length."""
    early, middle = ISMCTS_PLIES
    half = int(mean_plies(setting) // 2)
    return (min(early, half // 2), min(middle, half))


def _twins_differ(setting: Setting, differences: int, decisions: int) -> bool:
    """Whether enough twins differed from their position (in ``render()``) for the peek
    check to have teeth. Alone at the table, a player is kept from the order of face-down
    piles only, which ``render()`` does not picture: nothing to count there."""
    return setting.game().num_players == 1 or differences >= decisions / 2


@pytest.mark.parametrize("name", GAMES)
def test_options_are_validated_by_name(name: str) -> None:
    check_option_validation(envs.spec(name), functools.partial(envs.make, name))


@each_setting
def test_clones_are_independent(setting: Setting) -> None:
    clones = check_clone_independence(
        setting.game(), games=trajectories(setting, CLONE_PLIES), seed=4
    )
    assert clones > 0


@each_setting
def test_a_mid_game_env_pickles_and_deep_copies_and_plays_on_identically(setting: Setting) -> None:
    """Subprocess vector envs pickle envs, and tools deep-copy them: halfway through a game
    (and past its end, into the next unseeded game) a pickled and a deep-copied env must
    play on exactly as the original does, each on its own."""
    env = setting.env()
    env.reset(seed=11)
    _play(env, np.random.default_rng(11), plies=int(mean_plies(setting) // 2))
    twins = [pickle.loads(pickle.dumps(env)), copy.deepcopy(env)]
    played = _play(env, np.random.default_rng(12))
    env.reset()
    played += _play(env, np.random.default_rng(13), plies=20)
    for twin in twins:
        replayed = _play(twin, np.random.default_rng(12))
        twin.reset()
        replayed += _play(twin, np.random.default_rng(13), plies=20)
        assert replayed == played


def _play(env: AECEnv, rng: np.random.Generator, plies: int | None = None) -> list[object]:
    """Random legal steps of ``env`` (to the end of the game, or ``plies`` live moves): what
    ``last()`` showed at each, and the final render."""
    seen: list[object] = []
    moves = 0
    while env.agents and moves != plies:
        observation, reward, termination, truncation, _ = env.last()
        mask = observation["action_mask"].tobytes()
        seen.append((env.agent_selection, observation["observation"].tobytes(), mask, reward))
        if termination or truncation:
            env.step(None)
        else:
            env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
            moves += 1
    return [*seen, env.unwrapped.game_state.render()]


@each_setting
def test_the_seed_decides_the_game(setting: Setting) -> None:
    plies = check_seed_determinism(
        setting.game(),
        games=trajectories(setting, DETERMINISM_PLIES),
        seed=5,
        chance=setting.spec.chance,
    )
    assert plies > 0


@each_setting
def test_action_notation_round_trips(setting: Setting) -> None:
    games = trajectories(setting, NOTATION_PLIES)
    positions = check_notation(setting.game(), games=games, seed=6)
    assert positions > 0


@each_setting
def test_state_contract_holds_in_random_games(setting: Setting) -> None:
    games = setting.games_for(CONTRACT_PLIES)
    summary = run_random_games(
        setting.game(), games=games, seed=8, max_plies=setting.spec.max_plies
    )
    assert summary.games == games


@pytest.mark.parametrize(("name", "path"), GOLDEN, ids=[path.stem for _, path in GOLDEN])
def test_golden_playthrough_replays_exactly(name: str, path: Path) -> None:
    check_golden(envs.spec(name), path)


@pytest.mark.parametrize("name", GAMES)
def test_every_game_has_a_golden_playthrough(name: str) -> None:
    """With TABLETOP_REGENERATE=1, a game without one gets its defaults' game recorded."""
    folder = game_folder(name) / GOLDEN_DIR
    if not any(folder.glob("*.txt")) and os.environ.get(REGENERATE) == "1":
        check_playthrough(envs.spec(name).new_game(), folder / f"{name}_seed7.txt", seed=7,
                          action_seed=1)  # fmt: skip
    assert any(folder.glob("*.txt")), (
        f"{name}: no golden playthrough in {folder}; record one by running this test with "
        f"{REGENERATE}=1"
    )
