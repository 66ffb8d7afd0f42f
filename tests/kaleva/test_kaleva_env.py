"""Kaleva's own invariants in random games, its encoders' layout, its options, and the
baselines. The generic checks (PettingZoo, masks, leaks, peeking agents, options by name,
clones, seeds, notation, the golden playthrough) run in tests/test_conformance.py."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from tabletop.agents import RandomAgent, play_game
from tabletop.envs import make, make_game
from tabletop.envs.core.checks import run_random_games
from tabletop.envs.kaleva.board import BRONZE, DISCS_PER_PLAYER, FULL_DECK, SILVER
from tabletop.envs.kaleva.encoders import ENCODERS, flat_layout
from tabletop.envs.kaleva.engine import EMPTY, SETUP, KalevaGame, KalevaState
from tabletop.envs.kaleva.heuristic import KalevaHeuristic

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


@pytest.mark.slow
def test_random_games_keep_every_invariant() -> None:
    summary = run_random_games(
        KalevaGame(), games=2000, seed=1, invariant=conserved, deep_check_fraction=0.02
    )
    assert summary.games == 2000
    outcomes = summary.outcomes()
    assert set(outcomes) == {(1.0, -1.0), (-1.0, 1.0), (0.0, 0.0)}
    assert max(stats["fights"] for stats in summary.stats) >= 20


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


def test_kv_6_3_the_turn_limit_is_an_option_of_a_two_player_game() -> None:
    """KV-6.3: ``turn_limit`` configures the game and the env and must be positive; KV-1.1:
    always two players."""
    env = make("kaleva_v0", turn_limit=50)
    env.reset(seed=1)
    assert env.unwrapped.game_state.game.turn_limit == 50
    assert make_game("kaleva").num_players == 2
    with pytest.raises(ValueError, match="turn_limit"):
        make("kaleva", turn_limit=-1)


def test_heuristic_beats_random_clearly_from_either_seat() -> None:
    game, wins = KalevaGame(), {SILVER: 0, BRONZE: 0}
    for seed in range(100):
        seat = seed % 2
        agents = [RandomAgent(seed), RandomAgent(seed)]
        agents[seat] = KalevaHeuristic()
        state = play_game(game.new_state(seed=seed), agents)
        wins[seat] += state.returns()[seat] > 0
    assert wins[SILVER] >= 40 and wins[BRONZE] >= 40, wins
