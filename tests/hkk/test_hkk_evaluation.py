"""HKK's position evaluation (``SPEC.evaluate``, what ``ismcts:depth=N`` scores cut-off
rollouts with): life, cards in hand and creatures' figures less poison (HK-2.3, HK-4.2,
HK-7.3) rank positions; zero-sum like the payoff (HK-2.4); reads nothing hidden (HK-11.1)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import pytest
from hkk_positions import HOLD, stacked

from tabletop import envs
from tabletop.envs.hkk.engine import HkkGame
from tabletop.envs.hkk.evaluation import evaluate
from tabletop.envs.hkk.heuristic import HkkHeuristic


def value(mine: Mapping[str, Any], theirs: Mapping[str, Any], active: int = 0) -> float:
    """Seat 0's estimate (seat 1's is its negative) in a main phase where each seat holds
    a Stray Wolf it may play, so that the position waits there (``HOLD``)."""
    setups = [{**HOLD, **mine}, {**HOLD, **theirs}]
    values = evaluate(stacked(setups, active=active))
    assert values[0] == pytest.approx(-values[1])
    return values[0]


def test_hk_2_3_more_life_is_a_better_position() -> None:
    ahead = value({"life": 20}, {"life": 15})
    far_ahead = value({"life": 20}, {"life": 5})
    assert 0 < ahead < far_ahead < 1
    assert value({"life": 12}, {"life": 12}) == pytest.approx(0.0)


def test_hk_4_2_a_bigger_creature_is_worth_more_and_cards_in_hand_count() -> None:
    wolf = value({"reserve": ["Stray Wolf"]}, {})
    giant = value({"reserve": ["Hill Giant"]}, {})
    assert 0 < wolf < giant
    assert value({"hand": ["Stray Wolf", "Fire Bolt"]}, {}) > 0


def test_hk_7_3_poison_counters_and_damage_lower_a_creature_s_worth() -> None:
    troll = value({"reserve": ["Mossback Troll"]}, {})
    poisoned = value({"reserve": [{"card": "Mossback Troll", "poison": 2}]}, {})
    hurt = value({"reserve": [{"card": "Mossback Troll", "damage": 3}]}, {})
    assert 0 < poisoned < troll and 0 < hurt < troll


def test_hk_4_3_the_defence_bonus_does_not_swing_the_estimate_between_turns() -> None:
    """The same board on either player's turn: the bonus changes sides, the value not."""
    setups = ({"guard": ["Hill Giant"]}, {"guard": ["Iron Golem", "Stray Wolf"]})
    assert value(*setups, active=0) == pytest.approx(value(*setups, active=1))


def test_the_evaluation_is_the_games_own_and_reads_no_hidden_card() -> None:
    """The spec's evaluation; two values in [-1, 1] summing to 0 like the payoff;
    unchanged when the hidden cards are re-dealt; the returns once the game is over."""
    assert envs.spec("hkk").evaluate is evaluate
    state = HkkGame(decks=("devourers", "stronghold")).new_state(seed=4)
    rng = random.Random(4)
    while not state.is_terminal():
        values = evaluate(state)
        assert all(-1 <= v <= 1 for v in values) and sum(values) == pytest.approx(0)
        assert evaluate(state.resample_hidden(state.current_player, rng)) == values
        state.apply(HkkHeuristic().act(state, state.current_player))
    assert evaluate(state) == state.returns()
