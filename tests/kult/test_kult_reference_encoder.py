"""Kult's encoders equal their reference (``reference_encoder``: the same layout read
straight from the state, nothing reused) for every seat at every step of the recorded
games (the golden playthroughs of 2, 3 and 4 players) and of longer seeded games, where
fights, Influences and full hands come up."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from tabletop import envs
from tabletop.envs.core.playthrough import golden_options, read_header
from tabletop.envs.kult.encoders import ENCODERS
from tabletop.envs.kult.engine import KultGame, KultState
from tabletop.envs.kult.reference_encoder import REFERENCES

RECORDED = sorted((Path(__file__).parent / "playthroughs").glob("*.txt"))
SEEDED_PLIES = 400


def played(game: KultGame, seed: int, action_seed: int, plies: int) -> Iterator[KultState]:
    """Every state of the game ``seed`` with random actions of ``action_seed`` (as the
    golden playthroughs choose them), for at most ``plies`` decisions."""
    rng = random.Random(action_seed)
    state = game.new_state(seed=seed)
    yield state
    while not state.is_terminal() and state.plies < plies:
        state.apply(rng.choice(state.legal_actions()))
        yield state


def assert_equal_to_reference(states: Iterator[KultState]) -> int:
    steps = 0
    for state in states:
        for player in range(state.game.num_players):
            for name, encoder in ENCODERS.items():
                fast, slow = encoder.encode(state, player), REFERENCES[name](state, player)
                assert fast.shape == slow.shape, name
                if not np.array_equal(fast, slow):
                    columns = np.flatnonzero(fast.reshape(-1) != slow.reshape(-1)).tolist()
                    raise AssertionError(f"{name}, ply {state.plies}, seat {player}: {columns}")
        steps += 1
    return steps


def test_the_references_cover_every_encoder() -> None:
    assert set(REFERENCES) == set(ENCODERS)


@pytest.mark.parametrize("path", RECORDED, ids=[p.stem for p in RECORDED])
def test_encoders_equal_the_reference_along_the_recorded_games(path: Path) -> None:
    header = read_header(path)
    game = envs.spec("kult").new_game(**golden_options(envs.spec("kult"), header))
    states = played(game, header.seed, header.action_seed, game.ply_limit)
    assert assert_equal_to_reference(states) > 50


@pytest.mark.parametrize("players", [2, 3, 4])
def test_encoders_equal_the_reference_along_longer_games(players: int) -> None:
    states = played(KultGame(num_players=players), players, players, SEEDED_PLIES)
    assert assert_equal_to_reference(states) == SEEDED_PLIES + 1
