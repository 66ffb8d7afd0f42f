"""Regicide's own invariants in random and heuristic games, its encoders' layout, its
options, and the baselines. The generic checks (PettingZoo, masks, leaks, peeking agents,
options by name, clones, seeds, notation, the golden playthroughs) run in
tests/test_conformance.py."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from tabletop.agents import RandomAgent, play_game
from tabletop.envs import make, make_game
from tabletop.envs.core.checks import check_no_text_leak, run_random_games
from tabletop.envs.regicide.cards import NUM_CARDS, VALUE
from tabletop.envs.regicide.encoders import ENCODERS, flat_layout
from tabletop.envs.regicide.engine import OVER, RegicideGame, RegicideState
from tabletop.envs.regicide.heuristic import RegicideHeuristic

PLAYER_COUNTS = (1, 2, 3, 4)


def conserved(state: RegicideState) -> None:
    """RG-1.1: the 54 cards are each in exactly one zone; hands never exceed the maximum;
    a card known to be held is in its holder's hand."""
    cards = sorted(card for zone in state.cards_by_zone().values() for card in zone)
    assert cards == list(range(NUM_CARDS)), state.render()
    assert all(set(k) <= set(h) for k, h in zip(state.known_held, state.hands, strict=True))
    assert all(len(hand) <= state.game.max_hand for hand in state.hands), state.render()
    assert 0 <= state.tavern_known_top <= len(state.tavern)
    assert state.phase == OVER or state.enemy_damage < state.enemy_health
    assert 0 <= state.jester_powers <= 2


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_random_games_keep_every_invariant(players: int) -> None:
    summary = run_random_games(
        RegicideGame(players), games=1000, seed=players, invariant=conserved,
        deep_check_fraction=0.05,
    )  # fmt: skip
    assert summary.games == 1000
    defeated = [stats["enemies_defeated"] for stats in summary.stats]
    assert max(defeated) >= 3  # random play does get somewhere, and every game ended
    assert set(summary.outcomes()) <= {(-1.0,) * players, (1.0,) * players}


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_every_state_holds_the_54_cards_once_won_games_included(players: int) -> None:
    """RG-1.1 in heuristic games, which (unlike random ones) are sometimes won: the last
    King is no longer the enemy once it lies in the discard pile or the tavern."""
    heuristic, won = RegicideHeuristic(), 0
    for seed in range(1000):
        state = RegicideGame(players).new_state(seed=seed)
        conserved(state)
        while not state.is_terminal():
            state.apply(heuristic.act(state, state.current_player))
            conserved(state)
        won += bool(state.won)
    assert won > 0


def test_rg_2_1_solo_yield_leaks_nothing_through_texts_events_or_render() -> None:
    """RG-2.1: the solo yield option (not a bench setting) adds moves; what they show is
    checked like the bench settings' in the conformance suite."""
    game = RegicideGame(1, solo_yield=True)
    report = check_no_text_leak(game, ENCODERS, games=15, seed=1)
    assert report.comparisons > 500


@pytest.mark.parametrize("encoder", sorted(ENCODERS))
def test_solo_encoding_sees_its_own_hand(encoder: str) -> None:
    """The leak check's sensitivity half needs two players; in solo, swap a hand card for a
    tavern card by hand: the view must change."""
    state = RegicideGame(1).new_state(seed=4)
    before = ENCODERS[encoder].encode(state, 0)
    state.hands[0][0], state.tavern[0] = state.tavern[0], state.hands[0][0]
    assert not np.array_equal(before, ENCODERS[encoder].encode(state, 0))


def test_flat_layout_covers_the_vector_and_names_the_hand() -> None:
    layout = flat_layout()
    assert layout[0][1].start == 0
    assert all(a[1].stop == b[1].start for a, b in itertools.pairwise(layout))
    state = RegicideGame(2).new_state(seed=2)
    vector = ENCODERS["flat"].encode(state, 1)
    assert vector.shape == ENCODERS["flat"].shape(state.game) == (layout[-1][1].stop,)
    hand = vector[dict((name, s) for name, s, _ in layout)["hand"]]
    assert sorted(np.flatnonzero(hand)) == sorted(state.hands[1])


def test_rg_1_3_one_to_four_players() -> None:
    """RG-1.3: the player count is an option of the game and of the env, from 1 to 4."""
    env = make("regicide_v0", num_players=3)
    env.reset(seed=1)
    assert env.unwrapped.game_state.game.num_players == 3
    assert make_game("regicide", num_players=1).num_players == 1
    with pytest.raises(ValueError, match="1-4"):
        make("regicide", num_players=5)


def _mean_defeated(players: int, agent_factory, games: int) -> tuple[float, int]:
    game = RegicideGame(players)
    defeated, wins = 0, 0
    for seed in range(games):
        state = play_game(game.new_state(seed=seed), [agent_factory()] * players)
        defeated += state.enemies_defeated
        wins += bool(state.won)
    return defeated / games, wins


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_heuristic_defeats_far_more_enemies_than_random(players: int) -> None:
    heuristic, _ = _mean_defeated(players, RegicideHeuristic, games=100)
    uniform, random_wins = _mean_defeated(players, lambda: RandomAgent(seed=1), games=100)
    assert heuristic > uniform + 2.0, (heuristic, uniform)
    assert random_wins == 0


def test_heuristic_pays_damage_with_the_cheapest_cards() -> None:
    state = RegicideGame(2).stacked_state(
        hands=[["2H", "10S", "6D", "4C", "7C"], ["3C"]], castle=["JC"]
    )
    state.apply(state.string_to_action("play 2H"))  # the jack attacks for 10
    heuristic = RegicideHeuristic()
    paid = []
    while state.current_player == 0:
        action = heuristic.act(state, 0)
        paid.append(state.action_to_string(action))
        state.apply(action)
    assert sum(VALUE[c] for c in state.discard) == 10 and paid[-1] == "done"
