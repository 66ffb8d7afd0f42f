"""Kult's heuristic: legal moves only, deterministic, the decisions its docstring promises
on positions built by hand, and a small match it wins clearly against random play (the
400-game figures are in docs/games/kult.md, "Baseline"). That it never peeks is checked
by the conformance suite (tests/test_conformance.py) for 2, 3 and 4 players. Also Kult's
position evaluation (``SPEC.evaluate``, what search scores cut-off rollouts with)."""

from __future__ import annotations

import math
import random

import pytest
from kult_positions import stacked

from tabletop import envs
from tabletop.agents import RandomAgent, play_game
from tabletop.envs.kult.engine import KultGame, KultState
from tabletop.envs.kult.evaluation import evaluate, strength
from tabletop.envs.kult.heuristic import KultHeuristic


class Checked(KultHeuristic):
    """The heuristic, asserting that every move it makes is legal."""

    def act(self, state: KultState, player: int) -> int:
        action = super().act(state, player)
        assert action in state.legal_actions(), state.render()
        assert player == state.current_player
        return action


def chosen(state: KultState) -> str:
    return state.action_to_string(KultHeuristic().act(state, state.current_player))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_only_legal_moves_against_itself_and_random_play(players: int) -> None:
    game = KultGame(num_players=players)
    for seed in range(3):
        agents = [Checked() if s % 2 == seed % 2 else RandomAgent(seed) for s in range(players)]
        state = play_game(game.new_state(seed=seed), agents)
        assert state.is_terminal()
    state = play_game(game.new_state(seed=9), [Checked() for _ in range(players)])
    assert state.is_terminal()


def test_the_same_position_gets_the_same_move() -> None:
    state = KultGame().new_state(seed=3)
    rng = random.Random(3)
    while not state.is_terminal():
        first = KultHeuristic().act(state, state.current_player)
        assert KultHeuristic().act(state.clone(), state.current_player) == first
        state.apply(first if rng.random() < 0.7 else rng.choice(state.legal_actions()))


def test_it_attracts_into_the_hub_first_then_onto_scene_cards() -> None:
    state = stacked(
        {"cross": {1: {"card": "Old Cemetery", "tokens": 1}, 2: "Rose Garden",
                   5: {"card": "Street Prophet", "tokens": 1}}},
        phase="attract",
    )  # fmt: skip
    assert chosen(state) == "attract Scene1>Hub"
    state.apply(state.string_to_action("attract Scene1>Hub"))
    assert chosen(state) == "attract Cast5>Scene2"


def test_it_recruits_and_builds_lanes_and_keys() -> None:
    state = stacked({"cross": {5: "Street Prophet"}}, phase="recruit")
    assert chosen(state) == "recruit Cast5"
    state = stacked({"hand": ["Old Cemetery", "Stray Cat"]}, phase="actions")
    assert chosen(state).startswith("play Old Cemetery>Scene")  # a lane and a new colour


def test_it_attacks_when_the_fight_wins_a_token_and_not_when_it_would_lose() -> None:
    state = stacked(
        {"cross": {5: "Grave Hound", 6: "Street Prophet"}},
        {"cross": {7: {"card": "Tin Soldier", "tokens": 1}}},
        phase="attack",
    )
    assert chosen(state) == "attack Cast5>p1.Cast7"  # 3 against 2: the token moves over
    state = stacked(
        {"cross": {5: "Street Prophet"}},
        {"cross": {7: {"card": "Tin Soldier", "tokens": 1}}},
        phase="attack",
    )
    assert chosen(state) == "done"  # 1 against 2
    state = stacked(
        {"cross": {5: {"card": "Grave Hound", "tokens": 1}}},
        {"cross": {7: "Tin Soldier"}},
        phase="attack",
    )
    assert chosen(state) == "done"  # its own token at stake on a margin of 1


def test_it_pushes_only_for_a_card_worth_it() -> None:
    """A Shadow Duelist (Skull, Eye, Rose) short of a Skull: it pushes a token from a
    Scene card onto a Cast card for the Skull, never one out of the cross (to the Pool);
    with only a Stray Cat to play it never pushes."""
    setup = {
        "hand": ["Shadow Duelist"],
        "cross": {1: {"card": "Mirror Hall", "tokens": 1}, 2: {"card": "Clock Tower",
                                                               "tokens": 1}},
    }  # fmt: skip
    state = stacked(setup, phase="actions")
    assert chosen(state) == "done"  # no Cast card to take the token: it would leave
    setup["cross"][5] = "Street Prophet"
    state = stacked(setup, phase="actions")
    move = chosen(state)
    assert move.startswith("push Scene") and move.endswith(">Cast5 Skull"), move
    state.apply(state.string_to_action(move))
    assert chosen(state).startswith("play Shadow Duelist>Cast")
    state = stacked({**setup, "hand": ["Stray Cat"]}, phase="actions")
    assert chosen(state).startswith("play Stray Cat")
    state.apply(state.string_to_action(chosen(state)))
    assert chosen(state) == "done"


def test_it_plays_a_fight_command_that_turns_the_fight() -> None:
    """Defending a token with Stand Firm (+2, paid with the Ashen Matron's Eye): against
    the Grave Hound (3 against 2) it plays it; against the Street Prophet (1 against 2) it
    passes, the fight being won already."""
    for attacker, expected in (("Grave Hound", "play Stand Firm"), ("Street Prophet", "pass")):
        state = stacked(
            {"cross": {5: attacker}, "temp_keys": ["skull", "skull"]},
            {"cross": {7: {"card": "Tin Soldier", "tokens": 1}}, "hand": ["Stand Firm"]},
            phase="attack",
        )
        state.apply(state.string_to_action("attack Cast5>p1.Cast7"))
        assert state.current_player == 1 and chosen(state) == expected


def test_it_beats_random_play_clearly() -> None:
    """A smoke match (the full figures are in the docs): 12 two-player games, seats
    alternating, and 6 three-player games."""
    for players, games, at_least in ((2, 12, 11), (3, 6, 4)):
        game = KultGame(num_players=players)
        wins = 0
        for index in range(games):
            seat = index % players
            agents = [KultHeuristic() if s == seat else RandomAgent(index) for s in range(players)]
            state = play_game(game.new_state(seed=100 + index), agents)
            wins += state.winner == seat
        assert wins >= at_least, (players, wins)


def test_the_evaluation_ranks_tokens_by_how_near_the_hub_they_are() -> None:
    """Seat 0 ahead by a Hub token, then by a Scene token against a Cast token, then level:
    positive, smaller, zero; 2 players: zero-sum, as the payoff."""
    lanes = {1: "Old Cemetery", 5: "Street Prophet"}

    def value(mine: dict, theirs: dict) -> float:
        setups = ({"cross": lanes, **mine}, {"cross": lanes, **theirs})
        values = evaluate(stacked(*setups, phase="attract"))
        assert values[0] == pytest.approx(-values[1])
        return values[0]

    scene = {"cross": {**lanes, 1: {"card": "Old Cemetery", "tokens": 1}}}
    cast = {"cross": {**lanes, 5: {"card": "Street Prophet", "tokens": 1}}}
    hub = value({"hub": 2}, {"hub": 1})
    near = value(scene, cast)
    assert 0 < near < hub < 1
    assert value(scene, scene) == pytest.approx(0.0)
    assert value({"cross": {}}, {}) < 0  # no lanes against two


def test_the_evaluation_is_the_games_own_and_reads_no_hidden_card() -> None:
    """The spec's evaluation; each of 3 seats in [-1, 1] summing to 2 - 3 like the payoff;
    unchanged when the hidden cards are re-dealt; the returns once the game is over."""
    assert envs.spec("kult").evaluate is evaluate
    game = KultGame(num_players=3)
    state = game.new_state(seed=4)
    rng = random.Random(4)
    while not state.is_terminal():
        values = evaluate(state)
        assert all(-1 <= v <= 1 for v in values) and sum(values) == pytest.approx(-1)
        assert evaluate(state.resample_hidden(state.current_player, rng)) == values
        state.apply(KultHeuristic().act(state, state.current_player))
    assert evaluate(state) == state.returns()


def test_the_evaluation_adds_the_returns_so_far_of_a_shaped_game() -> None:
    state = KultGame(shaped_reward=True).new_state(seed=4)
    for _ in range(30):
        state.apply(KultHeuristic().act(state, state.current_player))
    returns = state.returns()
    assert any(returns)
    lead = strength(state, 0) - strength(state, 1)
    win = 2 / (1 + math.exp(-lead)) - 1
    assert evaluate(state) == pytest.approx([returns[0] + win, returns[1] - win])
