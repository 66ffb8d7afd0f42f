"""HKK's encoders equal their reference (``reference_encoder``: the same layout read
straight from the state, nothing reused) for every seat at every step of the recorded
games (the golden playthroughs) and of seeded games of random decks of the whole starter
pool, played at random or mostly by the heuristic (which declares breaths, takes spoils
and raises shields random play rarely does), so that nearly every mark comes up."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from test_hkk_heuristic_choices import random_deck

from tabletop import envs
from tabletop.envs.core.playthrough import golden_options, read_header
from tabletop.envs.hkk.cards import load_pool
from tabletop.envs.hkk.encoders import ENCODERS
from tabletop.envs.hkk.engine import HkkGame, HkkState
from tabletop.envs.hkk.heuristic import HkkHeuristic
from tabletop.envs.hkk.reference_encoder import REFERENCES

RECORDED = sorted((Path(__file__).parent / "playthroughs").glob("*.txt"))
SEEDED_PLIES = 500


def played(
    game: HkkGame, seed: int, action_seed: int, plies: int, heuristic: float = 0.0
) -> Iterator[HkkState]:
    """Every state of the game ``seed`` with random actions of ``action_seed`` (as the
    golden playthroughs choose them), the heuristic's instead in a share ``heuristic`` of
    the moves, for at most ``plies`` decisions."""
    rng = random.Random(action_seed)
    state = game.new_state(seed=seed)
    yield state
    while not state.is_terminal() and state.plies < plies:
        if heuristic and rng.random() < heuristic:
            state.apply(HkkHeuristic().act(state, state.current_player))
        else:
            state.apply(rng.choice(state.legal_actions()))
        yield state


def assert_equal_to_reference(states: Iterator[HkkState]) -> int:
    steps = 0
    for state in states:
        for player in (0, 1):
            for name, encoder in ENCODERS.items():
                fast, slow = encoder.encode(state, player), REFERENCES[name](state, player)
                assert fast.shape == slow.shape, name
                if not np.array_equal(fast, slow):
                    cells = np.flatnonzero(fast.reshape(-1) != slow.reshape(-1)).tolist()
                    raise AssertionError(f"{name}, ply {state.plies}, seat {player}: {cells}")
        steps += 1
    return steps


def test_the_references_cover_every_encoder() -> None:
    assert set(REFERENCES) == set(ENCODERS)


@pytest.mark.parametrize("path", RECORDED, ids=[p.stem for p in RECORDED])
def test_encoders_equal_the_reference_along_the_recorded_games(path: Path) -> None:
    header = read_header(path)
    game = envs.spec("hkk").new_game(**golden_options(envs.spec("hkk"), header))
    states = played(game, header.seed, header.action_seed, game.ply_limit)
    assert assert_equal_to_reference(states) > 100


@pytest.mark.parametrize("heuristic", [0.0, 0.7])
@pytest.mark.parametrize("seed", range(1, 9))
def test_encoders_equal_the_reference_along_games_of_random_decks(
    seed: int, heuristic: float
) -> None:
    rng = random.Random(seed)
    game = HkkGame(pool=load_pool(), decks=(random_deck(rng), random_deck(rng)))
    states = played(game, seed, seed, SEEDED_PLIES, heuristic)
    assert assert_equal_to_reference(states) > 50
