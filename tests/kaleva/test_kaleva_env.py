"""Kaleva through the generic checks: engine contract in random games, the AEC env
(PettingZoo api/seed tests, masks), hidden information, and the baselines."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from tabletop.agents import RandomAgent, play_game
from tabletop.envs import kaleva_v0, make, make_game
from tabletop.envs.core.checks import (
    check_env_random_play,
    check_no_leak,
    check_no_text_leak,
    run_random_games,
)
from tabletop.envs.core.playthrough import check_playthrough
from tabletop.envs.kaleva.board import BRONZE, DISCS_PER_PLAYER, FULL_DECK, SILVER
from tabletop.envs.kaleva.encoders import ENCODERS, flat_layout
from tabletop.envs.kaleva.engine import EMPTY, SETUP, KalevaGame, KalevaState
from tabletop.envs.kaleva.heuristic import KalevaHeuristic

GOLDEN = Path(__file__).parent / "playthroughs"
DECK = sorted(FULL_DECK)


def conserved(state: KalevaState) -> None:
    """KV-1.3: 27 cards per player across deck, slots, discard (and, during setup, the cards
    still to arrange); KV-1.2: 6 discs per player on the board or lost."""
    for player in (SILVER, BRONZE):
        assert sorted(state.cards_of(player)) == DECK, state.render()
        on_board = state.board.count(player)
        assert on_board + state.lost[player] == DISCS_PER_PLAYER, state.render()
        if state.phase != SETUP:
            assert EMPTY not in state.slots[player], state.render()
        filled = [card != EMPTY for card in state.slots[player]]
        assert all(f or not r for f, r in zip(filled, state.revealed[player], strict=True))


def test_random_games_keep_every_invariant() -> None:
    summary = run_random_games(
        KalevaGame(), games=2000, seed=1, invariant=conserved, deep_check_fraction=0.02
    )
    assert summary.games == 2000
    outcomes = summary.outcomes()
    assert set(outcomes) == {(1.0, -1.0), (-1.0, 1.0), (0.0, 0.0)}
    assert max(stats["fights"] for stats in summary.stats) >= 20


@pytest.mark.parametrize("encoder", sorted(ENCODERS))
def test_no_hidden_information_leaks(encoder: str) -> None:
    report = check_no_leak(KalevaGame(), ENCODERS[encoder], games=4, seed=3)
    assert report.resamples > 2000 and report.playouts > 100


def test_observer_texts_and_events_leak_nothing() -> None:
    """The shared check: what each player is told of a move (its text, the events) is the
    same for every move that looks the same to them, in the state and its resamples (KV-7)."""
    report = check_no_text_leak(KalevaGame(turn_limit=80), ENCODERS, games=6, seed=2)
    assert report.off_turn_comparisons > 2000, report


def test_flat_layout_covers_the_vector_and_names_own_and_face_up_cards() -> None:
    layout = flat_layout()
    assert layout[0][1].start == 0
    assert all(a[1].stop == b[1].start for a, b in itertools.pairwise(layout))
    state = KalevaGame().stacked_state(
        silver=["b1"], bronze=["c2"], cards=((2, 3, 4, 5, 6, 7), (8, 7, 6, 5, 4, 3)),
        revealed=((), ("b",)),
    )  # fmt: skip
    vector = ENCODERS["flat"].encode(state, SILVER)
    assert vector.shape == ENCODERS["flat"].shape(state.game) == (layout[-1][1].stop,)
    part = {name: s for name, s, _ in layout}
    own = np.flatnonzero(vector[part["own_cards"]]).tolist()
    assert own == [col * 10 + card for col, card in enumerate((2, 3, 4, 5, 6, 7))]
    assert np.flatnonzero(vector[part["opponent_cards"]]).tolist() == [1 * 10 + 7]
    assert np.flatnonzero(vector[part["own_discs"]]).tolist() == [7]
    assert np.flatnonzero(vector[part["opponent_discs"]]).tolist() == [14]


@pytest.mark.parametrize("encoder", sorted(ENCODERS))
def test_pettingzoo_api_test(encoder: str) -> None:
    api_test(kaleva_v0.env(encoder=encoder), num_cycles=300)


def test_pettingzoo_seed_test() -> None:
    seed_test(kaleva_v0.env, num_cycles=300)


def test_masks_match_legal_actions_in_the_env() -> None:
    summary = check_env_random_play(kaleva_v0.env(), games=30, seed=5)
    assert summary.episodes == 30
    assert all(sum(r.values()) == 0 for r in summary.returns)  # zero-sum


def test_registry_and_unknown_options() -> None:
    env = make("kaleva_v0", turn_limit=50)
    env.reset(seed=1)
    assert env.unwrapped.state.game.turn_limit == 50
    assert make_game("kaleva").num_players == 2
    with pytest.raises(TypeError, match=r"unknown option.*num_players"):
        make("kaleva", num_players=3)
    with pytest.raises(ValueError, match="turn_limit"):
        make("kaleva", turn_limit=-1)


def test_playthrough_matches_the_golden_file() -> None:
    path = GOLDEN / "kaleva_limit60_seed7.txt"
    check_playthrough(KalevaGame(turn_limit=60), path, seed=7, action_seed=4)


def test_heuristic_never_peeks() -> None:
    """Its decision is the same in every state its player cannot tell apart."""
    heuristic, rng = KalevaHeuristic(), random.Random(0)
    for seed in range(8):
        state = KalevaGame().new_state(seed=seed)
        opponent = RandomAgent(seed)
        while not state.is_terminal():
            player = state.current_player
            action = heuristic.act(state, player)
            for _ in range(2):
                twin = state.resample_hidden(player, rng)
                assert heuristic.act(twin, player) == action, state.render(player)
            # Alternate who follows the heuristic, so that both seats and random
            # positions (fights, swaps, reveals) are covered.
            state.apply(action if (player + seed) % 2 else opponent.act(state, player))


def test_heuristic_beats_random_clearly_from_either_seat() -> None:
    game, wins = KalevaGame(), {SILVER: 0, BRONZE: 0}
    for seed in range(100):
        seat = seed % 2
        agents = [RandomAgent(seed), RandomAgent(seed)]
        agents[seat] = KalevaHeuristic()
        state = play_game(game.new_state(seed=seed), agents)
        wins[seat] += state.returns()[seat] > 0
    assert wins[SILVER] >= 40 and wins[BRONZE] >= 40, wins
