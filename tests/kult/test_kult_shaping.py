"""The ``shaped_reward`` option (not a rule: a training aid beside KU-9.2's ±1): potential-based
progress toward the Hub, zero-sum between seats, adding only the final difference in
progress over a game."""

from __future__ import annotations

import random

import pytest
from kult_positions import FILLER_DECK, act

from tabletop.envs.kult.engine import SHAPING_SCALE, KultGame

SHAPED = {players: KultGame(num_players=players, shaped_reward=True) for players in (2, 3, 4)}


def shaped_position(players: int, *setups: dict) -> object:
    filled = [{"deck": FILLER_DECK, **setup} for setup in setups]
    filled += [{"deck": FILLER_DECK} for _ in range(players - len(filled))]
    return SHAPED[players].stacked_state(filled, phase="attract")


def test_attracting_into_the_hub_pays_half_a_scene_token_of_progress() -> None:
    """A Scene token is worth half a Hub token: Scene1 -> Hub gains 0.5 / 5 of the target."""
    state = shaped_position(2, {"hub": 2, "cross": {1: {"card": "Old Cemetery", "tokens": 1}}})
    act(state, "attract Scene1>Hub")
    gain = SHAPING_SCALE * 0.5 / 5
    assert state.rewards() == pytest.approx([gain, -gain])


@pytest.mark.parametrize("players", (2, 3, 4))
def test_a_win_adds_the_shaping_to_the_plus_one_minus_one(players: int) -> None:
    """KU-9.2's ±1 stays; the shaping rewards sum to zero across the seats."""
    state = shaped_position(players, {"hub": 4, "cross": {1: {"card": "Old Cemetery",
                                                              "tokens": 1}}})  # fmt: skip
    act(state, "attract Scene1>Hub")
    gain = SHAPING_SCALE * 0.5 / 5
    expected = [1.0 + gain] + [-1.0 - gain / (players - 1)] * (players - 1)
    assert state.is_terminal() and state.returns() == pytest.approx(expected)


def test_unshaped_games_reward_only_the_end() -> None:
    state = KultGame().stacked_state(
        [{"deck": FILLER_DECK, "cross": {1: {"card": "Old Cemetery", "tokens": 1}}},
         {"deck": FILLER_DECK}], phase="attract",
    )  # fmt: skip
    act(state, "attract Scene1>Hub")
    assert state.rewards() == [0.0, 0.0]


@pytest.mark.parametrize("players", (2, 3, 4))
def test_a_game_adds_only_the_final_difference_in_progress(players: int) -> None:
    """Potential-based: the shaping's sum over a whole game is each seat's final progress
    less the others' mean, less the same at the deal, whatever happened in between."""
    rng = random.Random(players)
    for seed in range(5):
        state = SHAPED[players].new_state(seed)
        start = state.progress()
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_actions()))
        end = state.progress()
        outcome = [0.0] * players if state.winner == -1 else [
            1.0 if seat == state.winner else -1.0 for seat in range(players)]  # fmt: skip
        for seat in range(players):
            others = [end[s] - start[s] for s in range(players) if s != seat]
            shaping = SHAPING_SCALE * (end[seat] - start[seat] - sum(others) / (players - 1))
            assert state.returns()[seat] == pytest.approx(outcome[seat] + shaping)
