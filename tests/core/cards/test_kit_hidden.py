"""The kit's determinization: ``redeal`` keeps what the observer knows and re-deals the
rest."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from kit_table import POOL, SHARED, Unit, dealt, layout, views

from tabletop.envs.core.cards.continuous import Continuous
from tabletop.envs.core.cards.hidden import redeal
from tabletop.envs.core.cards.zones import Table, iid_of


def per_owner(table) -> dict[int, Counter[str]]:
    counts: dict[int, Counter[str]] = {}
    for _, _, _, entry in table.entries():
        iid = iid_of(entry)
        counts.setdefault(table.owners[iid], Counter())[table.cards[iid].name] += 1
    return counts


@pytest.mark.parametrize("observer", [0, 1])
def test_a_redeal_keeps_the_observers_view_and_every_count(observer: int) -> None:
    table = dealt(seed=3)
    known = {iid: card for iid, card in enumerate(table.cards) if table.knows(observer, iid)}
    sizes = {zone: len(names) for zone, names in layout(table).items()}
    for seed in range(20):
        twin = table.copy()
        redrawn = redeal(twin, observer, random.Random(seed))
        assert views(twin, observer) == views(table, observer)
        assert {iid: twin.cards[iid] for iid in known} == known
        assert sorted(redrawn) == sorted(set(range(len(table.cards))) - set(known))
        assert per_owner(twin) == per_owner(table)
        assert {zone: len(names) for zone, names in layout(twin).items()} == sizes
        twin.check_conservation()
    assert layout(table) == layout(dealt(seed=3)), "the original is untouched"


def test_the_cards_the_observer_cannot_identify_are_dealt_again() -> None:
    table = dealt(seed=3)
    hands, decks, face_down = set(), set(), set()
    for seed in range(30):
        twin = table.copy()
        redeal(twin, 0, random.Random(seed))
        hands.add(tuple(sorted(card.name for card in twin.definitions("hand", 1))))
        decks.add(tuple(card.name for card in twin.definitions("deck", 0)))
        unit = twin.zone("table", 1)[0]
        assert unit.card is twin.cards[unit.iid] and type(unit) is Unit and not unit.face_up
        face_down.add(unit.card.name)
    assert len(hands) > 1, "the other seat's hand (but the card it showed)"
    assert len(decks) > 1, "the observer's own deck order"
    assert len(face_down) > 1, "a card in play face down"


def test_a_redeal_depends_only_on_what_the_observer_knows() -> None:
    table = dealt(seed=5)
    other = table.copy()
    hidden = [i for i in other.zone("hand", 1) + other.zone("deck", 1) if not other.knows(0, i)]
    first = hidden[0]
    second = next(i for i in hidden if other.cards[i] is not other.cards[first])
    other.cards[first], other.cards[second] = other.cards[second], other.cards[first]
    other.zone("deck", 1).reverse()
    other.zone("deck", 0).reverse()
    assert layout(other) != layout(table) and views(other, 0) == views(table, 0)
    for seed in range(10):
        twins = [position.copy() for position in (table, other)]
        for twin in twins:
            redeal(twin, 0, random.Random(seed))
        assert layout(twins[0]) == layout(twins[1])


def test_a_redeal_invalidates_figures_cached_from_the_definitions() -> None:
    table = dealt(seed=3)
    cache = Continuous()

    def hand_of_1() -> tuple[str, ...]:
        return tuple(sorted(card.name for card in table.definitions("hand", 1)))

    hands = {cache.get(table, "hand", hand_of_1)}
    for seed in range(30):
        version = table.version
        redeal(table, 0, random.Random(seed))
        assert table.version > version
        assert cache.get(table, "hand", hand_of_1) == hand_of_1()
        hands.add(hand_of_1())
    assert len(hands) > 1


def test_the_cards_of_a_common_supply_are_re_dealt_among_themselves() -> None:
    table = dealt(seed=3)
    supply = table.num_players  # SHARED is seat 0's number too: cards get an owner apart
    for _ in range(4):
        table.create(POOL[5], supply, "pile", SHARED)
    for seed in range(10):
        twin = table.copy()
        redeal(twin, 1, random.Random(seed))
        assert [card.name for card in twin.definitions("pile", SHARED)] == ["F"] * 4
        assert per_owner(twin) == per_owner(table)


def reshuffled(seed: int = 3) -> tuple[Table, list[int], list[int]]:
    """``dealt(seed)``, then seat 1 lays its deck face up on its discard pile, shuffles the
    pile into a new deck (everyone knows its cards, not their order) and draws two of it.
    Returns the table, the pile's instances and seat 1's cards seat 0 never knew (a hand
    card drawn before, the face-down card in play)."""
    table = dealt(seed=seed)
    never = [i for i in table.zone("hand", 1) if not table.knows(0, i)]
    never += [unit.iid for unit in table.zone("table", 1)]
    for iid in list(table.zone("deck", 1)):
        table.move(iid, ("deck", 1), ("discard", 1))
    pile = list(table.zone("discard", 1))
    for iid in pile:
        table.move(iid, ("discard", 1), ("deck", 1))
    table.shuffle(("deck", 1), random.Random(seed))
    for _ in range(2):
        table.take(("deck", 1), -1, ("hand", 1))
    return table, pile, never


def names(table: Table, iids: list[int]) -> list[str]:
    return sorted(table.cards[iid].name for iid in iids)


def test_a_public_pile_shuffled_into_a_deck_stays_the_decks_cards_and_those_drawn_since() -> None:
    """The pile's cards are a multiset every seat knows: a redeal deals them among the
    pile's instances only (the deck and the two drawn from it), never exchanging them with
    the owner's cards seat 0 never knew."""
    table, pile, never = reshuffled()
    drawn = table.zone("hand", 1)[-2:]
    assert len(set(names(table, pile))) > 1 and all(table.lost[i] == (1, 1) for i in pile)
    hands = set()
    for seed in range(40):
        twin = table.copy()
        redeal(twin, 0, random.Random(seed))
        assert names(twin, pile) == names(table, pile)
        assert names(twin, never) == names(table, never)
        assert views(twin, 0) == views(table, 0)
        hands.add(tuple(names(twin, drawn)))
    assert len(hands) > 1, "the cards drawn since are dealt again among the pile's"


def test_a_deck_mixing_known_and_unknown_multisets_is_dealt_in_a_new_order() -> None:
    """Seat 1 knows the pile's cards in seat 0's deck, not where they lie among the cards
    it never saw: the redeal draws the deck's order again."""
    table = dealt(seed=3)
    table.move(table.zone("hand", 0)[0], ("hand", 0), ("discard", 0))
    unknown = table.zone("deck", 0) + table.zone("hand", 0)  # seat 1 never saw them
    pile = list(table.zone("discard", 0))
    for iid in pile:
        table.move(iid, ("discard", 0), ("deck", 0))
    table.shuffle(("deck", 0), random.Random(0))
    places = set()
    for seed in range(20):
        twin = table.copy()
        redeal(twin, 1, random.Random(seed))
        assert names(twin, pile) == names(table, pile)
        assert names(twin, unknown) == names(table, unknown)
        places.add(twin.zone("deck", 0).index(pile[0]))
    assert len(places) > 1


def test_a_redeal_of_a_reshuffled_deck_depends_only_on_what_the_observer_knows() -> None:
    table, pile, _ = reshuffled(seed=5)
    other = table.copy()
    in_deck = [i for i in pile if i in other.zone("deck", 1)]
    first = in_deck[0]
    second = next(i for i in in_deck if other.cards[i] is not other.cards[first])
    other.cards = other.cards[:]
    other.cards[first], other.cards[second] = other.cards[second], other.cards[first]
    other.zone("deck", 1).reverse()
    assert layout(other) != layout(table) and views(other, 0) == views(table, 0)
    for seed in range(10):
        twins = [position.copy() for position in (table, other)]
        for twin in twins:
            redeal(twin, 0, random.Random(seed))
        assert layout(twins[0]) == layout(twins[1])
