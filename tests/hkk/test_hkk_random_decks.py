"""Random legal decks of the starter pool (HK-1.1: 30 cards, at most three copies of one)
play random games to the end without an error, keeping the rules' invariants: every card
of the pool meets the engine in company the packaged decks never give it (HK-10.2: cards
are data, and any legal deck plays)."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_hkk_random_games import check_invariants

from tabletop.envs.hkk.cards import DECK_MINIMUM, MAX_COPIES, Deck, load_pool
from tabletop.envs.hkk.engine import HkkGame

POOL = load_pool()


def legal_deck(cards: list[int]) -> bool:
    return max(Counter(cards).values()) <= MAX_COPIES


DECKS = st.builds(
    lambda cards: Deck(name="random", text="", source="hypothesis", cards=tuple(cards)),
    st.lists(st.sampled_from(range(len(POOL.cards))), min_size=DECK_MINIMUM,
             max_size=DECK_MINIMUM).filter(legal_deck),
)  # fmt: skip
"""Decks of the pool under HK-1.1: the friendly minimum, at most three copies of a card."""


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(first=DECKS, second=DECKS, seed=st.integers(0, 2**32 - 1))
def test_hk_10_2_random_decks_play_to_the_end(first: Deck, second: Deck, seed: int) -> None:
    game = HkkGame(pool=POOL, decks=(first, second))
    state = game.new_state(seed)
    total = len(first.cards) + len(second.cards)
    rng = random.Random(seed)
    while not state.is_terminal():
        check_invariants(state, total)
        state.apply(rng.choice(state.legal_actions()))
    assert state.plies < game.ply_limit
