"""The targets offered are the targets reached, as the rules say: ``plays.in_reach`` (which
cards in play a selector takes in: the targets ``candidates`` offers, those ``matches`` and
``reached`` find as a card resolves) gives exactly the cards of a plain card-by-card reading
of the selector and HK-7.7 (``_reference``: with the full look at what protects a creature,
not the pool's shortcut), in table order, for every selector of the pool, both seats and
every kind of effect, at every position of random games of every packaged deck (the
positions the engine passes through by itself included)."""

from __future__ import annotations

import random

import pytest

from tabletop.envs.hkk import figures, plays
from tabletop.envs.hkk.cards import PACKAGED_DECKS, Enchantment
from tabletop.envs.hkk.effects import Reach
from tabletop.envs.hkk.engine import HkkGame, HkkState
from tabletop.envs.hkk.plays import TARGET_TYPES

GAMES_PER_DECK = 1


def _selectors(game: HkkGame) -> set[tuple[Reach, frozenset[str]]]:
    """Each selector of the pool's cards that picks cards in play, with the kinds of the
    effects it belongs to (as card and as ability, both asked of every selector)."""
    reaches: set[Reach] = set()
    for card in game.cards:
        lists = [*card.triggers.values(), *(a.effects for a in getattr(card, "activated", ()))]
        direct = getattr(card, "direct", None)
        if direct is not None:
            lists.append(direct.effects)
        reaches |= {e.reach for effects in lists for e in effects if e.reach is not None}
        if isinstance(card, Enchantment) and card.attach is not None:
            reaches.add(Reach("chosen", "any", card.attach))
    kinds = {figures.kinds_of(card, ability) for card in game.cards for ability in (False, True)}
    return {
        (reach, kind)
        for reach in reaches
        if reach.how in ("chosen", "each") and reach.what not in ("player", "card")
        and reach.area != "discard"
        for kind in kinds
    }  # fmt: skip


def _reference(state: HkkState, seat: int, reach: Reach, kinds: frozenset[str]) -> list[int]:
    """The selector read plainly, card by card: the side, the type, for a creature the area
    and HK-7.7's protection (``figures.held``: everything that protects it)."""
    found = []
    for side, table in enumerate(state.tables):
        if (reach.side == "own" and side != seat) or (reach.side == "enemy" and side == seat):
            continue
        for entry in table:
            if reach.what in ("creature", "adventurer", "galetki"):
                if entry.area not in ("guard", "reserve"):
                    continue
                if reach.area == "guard_post" and entry.area != "guard":
                    continue
                if reach.what != "creature" and not isinstance(
                    entry.card, TARGET_TYPES[reach.what]
                ):
                    continue
                if figures.held(state, entry).untargetable & kinds:
                    continue
            elif not isinstance(entry.card, TARGET_TYPES[reach.what]):
                continue
            found.append(entry.iid)
    return found


def _check(state: HkkState, selectors: set[tuple[Reach, frozenset[str]]]) -> int:
    checked = 0
    for seat in (0, 1):
        for reach, kinds in selectors:
            expected = _reference(state, seat, reach, kinds)
            assert plays.candidates(state, seat, reach, kinds) == expected, (reach, kinds)
            for table in state.tables:
                for entry in table:
                    assert plays.matches(state, seat, reach, entry, kinds) == (
                        entry.iid in expected
                    ), (reach, kinds, entry)
            checked += len(expected)
    return checked


@pytest.mark.parametrize("deck", PACKAGED_DECKS)
def test_the_targets_offered_are_those_the_resolution_reaches(
    deck: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = HkkGame(decks=(deck, deck))
    selectors = _selectors(game)
    assert {reach.what for reach, _ in selectors} >= {"creature", "building"}
    found = 0
    do = HkkState._do

    def checked_do(state: HkkState, action: int) -> None:
        nonlocal found
        found += _check(state, selectors)
        do(state, action)

    monkeypatch.setattr(HkkState, "_do", checked_do)
    rng = random.Random(5)
    for seed in range(GAMES_PER_DECK):
        state = game.new_state(seed)
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_actions()))
    assert found > 0
