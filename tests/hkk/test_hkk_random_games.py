"""Random games of HKK from every pair of packaged decks (HK-10.1) played to the end,
``GAMES_PER_PAIR`` a pair (1,008 in all), with the invariants of the rules checked after
every decision: card conservation across the five zones and the chain (HK-1.2), life and
magic points within their limits (HK-2.1), the guard post's places (HK-1.2) and its
creatures never passive (HK-1.4), legal actions sorted and in the action space, the texts,
picture and events of the moves readable, and every game ending by HK-2.3 (never by the
safety net on decisions). One game a pair more runs through the registered env, where the
action mask equals the legal actions at every step (the conformance suite does the same
for the mirror matches)."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from tabletop.envs import make
from tabletop.envs.hkk import figures
from tabletop.envs.hkk.actions import NUM_ACTIONS
from tabletop.envs.hkk.cards import PACKAGED_DECKS
from tabletop.envs.hkk.engine import HkkGame, HkkState
from tabletop.envs.hkk.zones import PILES

GAMES_PER_PAIR = 63
RENDER_EVERY = 3
"""Decisions between two looks at the picture and events (they cost more than a move)."""
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
        action = rng.choice(state.legal_actions())
        for observer in (None, 0, 1):
            assert state.action_to_string(action, observer)
        state.apply(action)
        if state.plies % RENDER_EVERY == 0:
            check_shown(state)
    check_invariants(state, total)
    check_shown(state)
    return state


def check_shown(state: HkkState) -> None:
    """The picture and the events of the last decision, for everyone (HK-11.1)."""
    for observer in (None, 0, 1):
        assert state.render(observer)
        assert all(event.text for event in state.last_events(observer))


@pytest.mark.parametrize(("first", "second"), PAIRS)
def test_hk_2_3_random_games_end_with_the_rules_kept(first: str, second: str) -> None:
    game = HkkGame(decks=(first, second))
    for seed in range(GAMES_PER_PAIR):
        state = play_out(game, seed)
        assert state.plies < game.ply_limit, "a game ends by HK-2.3, not by the safety net"
        assert state.winner in (-1, 0, 1)
        assert sum(state.returns()) == 0
        losers = [seat for seat in (0, 1) if state.life[seat] <= 0]
        if state.winner in (0, 1):
            assert losers == [1 - state.winner], "HK-2.3: the loser is at 0 life or less"
        elif losers:
            assert losers == [0, 1], "HK-2.3: both at 0 or less is a draw"


@pytest.mark.parametrize(("first", "second"), PAIRS)
def test_masks_equal_the_legal_actions_in_random_env_games(first: str, second: str) -> None:
    env = make("hkk", decks=(first, second))
    env.reset(seed=len(first) * 31 + len(second))
    state: HkkState = env.unwrapped.game_state
    total = sum(len(deck.cards) for deck in state.game.decks)
    rng = np.random.default_rng(7)
    for agent in env.agent_iter():
        _, _, termination, truncation, _ = env.last()
        mask = env.observe(agent)["action_mask"]
        if termination or truncation:
            assert not truncation and not mask.any()
            env.step(None)
            continue
        state = env.unwrapped.game_state
        check_invariants(state, total)
        assert agent == env.possible_agents[state.current_player]
        assert np.flatnonzero(mask).tolist() == state.legal_actions()
        env.step(int(rng.choice(np.flatnonzero(mask))))
    assert env.unwrapped.game_state.is_terminal()
