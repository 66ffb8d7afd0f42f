"""Regicide through the generic checks: engine contract in random games, the AEC env
(PettingZoo api/seed tests, masks), hidden information, and the baselines."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from tabletop.agents import RandomAgent, play_game
from tabletop.envs import make, make_game, regicide_v0
from tabletop.envs.core.checks import (
    check_env_random_play,
    check_no_leak,
    check_no_text_leak,
    run_random_games,
)
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


@pytest.mark.parametrize("players", PLAYER_COUNTS)
@pytest.mark.parametrize("encoder", sorted(ENCODERS))
def test_no_hidden_information_leaks(players: int, encoder: str) -> None:
    report = check_no_leak(RegicideGame(players), ENCODERS[encoder], games=15, seed=players)
    assert report.resamples > 300


@pytest.mark.parametrize(
    "game",
    [RegicideGame(1, solo_yield=True), RegicideGame(2), RegicideGame(3), RegicideGame(4)],
    ids=repr,
)
def test_no_hidden_information_leaks_through_texts_events_or_render(game: RegicideGame) -> None:
    report = check_no_text_leak(game, ENCODERS, games=15, seed=game.num_players)
    assert report.comparisons > 500
    assert game.num_players == 1 or report.off_turn_comparisons > 200


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


@pytest.mark.parametrize("players", PLAYER_COUNTS)
@pytest.mark.parametrize("encoder", sorted(ENCODERS))
def test_pettingzoo_api_test(players: int, encoder: str) -> None:
    api_test(regicide_v0.env(num_players=players, encoder=encoder), num_cycles=300)


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_pettingzoo_seed_test(players: int) -> None:
    seed_test(lambda: regicide_v0.env(num_players=players), num_cycles=300)


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_masks_match_legal_actions_in_the_env(players: int) -> None:
    summary = check_env_random_play(regicide_v0.env(num_players=players), games=50, seed=players)
    assert summary.episodes == 50
    assert all(len(set(r.values())) == 1 for r in summary.returns)  # a shared outcome


def test_registry_and_unknown_options() -> None:
    env = make("regicide_v0", num_players=3)
    env.reset(seed=1)
    assert env.unwrapped.state.game.num_players == 3
    assert make_game("regicide", num_players=1).num_players == 1
    with pytest.raises(TypeError, match="unknown option"):
        make("regicide", players=3)
    with pytest.raises(ValueError, match="1-4"):
        make("regicide", num_players=5)


def test_heuristic_never_peeks() -> None:
    """Its decision is the same in every state its player cannot tell apart."""
    heuristic, rng = RegicideHeuristic(), random.Random(0)
    for players in PLAYER_COUNTS:
        for seed in range(15):
            state = RegicideGame(players).new_state(seed=seed)
            while not state.is_terminal():
                player = state.current_player
                action = heuristic.act(state, player)
                for _ in range(2):
                    twin = state.resample_hidden(player, rng)
                    assert heuristic.act(twin, player) == action, state.render()
                state.apply(action)


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
