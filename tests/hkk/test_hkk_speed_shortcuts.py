"""The engine's per-pool shortcuts change no figure: what ``figures.PoolFacts`` lets the hot
paths skip (a creature that the pool never makes untargetable or unaffected, a pool without
a card that lowers life) reads the same as the full look, at every decision of random games
of every packaged deck."""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest

from tabletop.envs.hkk import figures
from tabletop.envs.hkk.cards import PACKAGED_DECKS, Card
from tabletop.envs.hkk.engine import HkkGame, HkkState

GAMES_PER_DECK = 3


def _check(state: HkkState) -> None:
    for table in state.tables:
        for entry in table:
            if figures.is_creature(entry):
                held = figures.held(state, entry)
                assert figures.untargetable(state, entry) == held.untargetable
                assert figures.unaffected(state, entry) == held.unaffected
    assert figures.lowers_life(state) == figures._lowers_life(state)


@pytest.mark.parametrize("deck", PACKAGED_DECKS)
def test_the_pool_shortcuts_read_as_the_full_look(deck: str) -> None:
    game = HkkGame(decks=(deck, deck))
    rng = random.Random(11)
    for seed in range(GAMES_PER_DECK):
        state = game.new_state(seed)
        while not state.is_terminal():
            _check(state)
            state.apply(rng.choice(state.legal_actions()))


def test_pool_facts_name_the_cards_that_may_hide() -> None:
    game = HkkGame()
    cards: tuple[Card, ...] = game.cards
    own = {c.index for c in cards if getattr(getattr(c, "abilities", None), "untargetable", ())}
    assert own and own <= game.facts.untargetable
    creatures = {c.index for c in cards if isinstance(c, figures.Creature)}
    grant = SimpleNamespace(untargetable=("spell",), unaffected=())
    granting = SimpleNamespace(statics=(("grant", grant),))
    facts = figures.pool_facts((*cards, granting))
    assert facts.untargetable == creatures  # a grant may reach any creature
    assert facts.unaffected == game.facts.unaffected
