"""Random games of HKK from every pair of packaged decks (HK-10.1) played to the end,
with the invariants of the rules checked after every decision: card conservation across
the zones (HK-1.2), life and magic points within their limits (HK-2.1), the guard post's
places (HK-1.2) and its creatures never passive (HK-1.4), legal actions sorted and in the
action space, and every game ending by HK-2.3 (never by the safety net on decisions)."""

from __future__ import annotations

import itertools
import random

import pytest

from tabletop.envs.hkk import figures
from tabletop.envs.hkk.actions import NUM_ACTIONS
from tabletop.envs.hkk.cards import PACKAGED_DECKS
from tabletop.envs.hkk.engine import HkkGame, HkkState
from tabletop.envs.hkk.zones import PILES

GAMES_PER_PAIR = 16
PAIRS = list(itertools.product(PACKAGED_DECKS, repeat=2))


def check_invariants(state: HkkState, total: int) -> None:
    state.table.check_conservation()
    placed = sum(len(zone) for name in PILES for zone in state.table.zones[name])
    on_chain = sum(len(zone) for zone in state.chain_cards)
    assert placed + on_chain == total
    assert on_chain == len([i for i in state.stack.items if i.what.ability < 0]) or state.choice
    for seat in (0, 1):
        assert state.life[seat] <= figures.LIMIT
        assert 0 <= state.vp[seat] <= figures.vp_limit(state, seat)
        assert state.components[seat] >= 0
        guard = figures.guard(state, seat)
        assert len(guard) <= figures.guard_size(state, seat), "HK-1.2"
        assert all(entry.active for entry in guard), "HK-1.4"
    legal = state.legal_actions()
    assert legal == sorted(set(legal))
    assert all(0 <= action < NUM_ACTIONS for action in legal)


def play_out(game: HkkGame, seed: int) -> HkkState:
    state = game.new_state(seed)
    total = sum(len(deck.cards) for deck in game.decks)
    rng = random.Random(seed)
    while not state.is_terminal():
        check_invariants(state, total)
        state.apply(rng.choice(state.legal_actions()))
    check_invariants(state, total)
    return state


@pytest.mark.parametrize(("first", "second"), PAIRS)
def test_hk_2_3_random_games_end_with_the_rules_kept(first: str, second: str) -> None:
    game = HkkGame(decks=(first, second))
    for seed in range(GAMES_PER_PAIR):
        state = play_out(game, seed)
        assert state.plies < game.max_plies, "a game ends by HK-2.3, not by the safety net"
        assert state.winner in (-1, 0, 1)
        assert sum(state.returns()) == 0
        losers = [seat for seat in (0, 1) if state.life[seat] <= 0]
        if state.winner in (0, 1):
            assert losers == [1 - state.winner], "HK-2.3: the loser is at 0 life or less"
        elif losers:
            assert losers == [0, 1], "HK-2.3: both at 0 or less is a draw"
