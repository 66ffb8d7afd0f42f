"""The kit's zones: visibility, instance tracking, who has seen what, copies, conservation."""

from __future__ import annotations

import random

import pytest
from kit_table import POOL, SHARED, ZONES, Unit, dealt

from tabletop.envs.core.cards.zones import (
    ConservationError,
    Permanent,
    Table,
    Visibility,
    ZoneSpec,
    iid_of,
)


def test_each_visibility_gives_its_seats_and_a_shared_zone_exists_once() -> None:
    table = Table(3, ZONES)
    assert [table.sees("hand", seat) for seat in range(3)] == [0b001, 0b010, 0b100]
    assert [table.sees("discard", seat) for seat in range(3)] == [0b111] * 3
    assert [table.sees("deck", seat) for seat in range(3)] == [0, 0, 0]
    assert len(table.zones["hand"]) == 3
    assert len(table.zones["market"]) == 1 and table.sees("market", SHARED) == 0b111
    assert table.sees("pile", SHARED) == 0


def test_a_shared_zone_cannot_be_owner_only_and_zone_names_are_unique() -> None:
    with pytest.raises(ValueError, match="shared zone has no owner"):
        ZoneSpec("pool", Visibility.OWNER, shared=True)
    with pytest.raises(ValueError, match="unique"):
        Table(2, [ZoneSpec("hand", Visibility.OWNER), ZoneSpec("hand", Visibility.PUBLIC)])


def test_a_card_created_in_a_zone_is_seen_by_the_seats_that_see_the_zone() -> None:
    table = Table(2, ZONES)
    in_deck = table.create(POOL[0], 1, "deck")
    in_hand = table.create(POOL[1], 1, "hand")
    in_market = table.create(POOL[2], SHARED, "market", SHARED)
    assert table.zone("deck", 1) == [in_deck] and table.zone("hand", 1) == [in_hand]
    assert table.zone("market") == [in_market]
    assert [table.seen[i] for i in (in_deck, in_hand, in_market)] == [0, 0b10, 0b11]
    assert table.knows(1, in_hand) and not table.knows(0, in_hand)


def test_an_instance_is_followed_from_hand_to_table_to_discard() -> None:
    table = Table(2, ZONES)
    iid = table.create(POOL[4], 0, "hand")
    other = table.create(POOL[4], 0, "hand")  # a second copy of the same card
    assert table.where()[iid] == ("hand", 0, 0)
    unit = Unit(iid, table.cards[iid])
    table.remove(iid, ("hand", 0))
    table.put(unit, ("table", 0))
    assert table.where()[iid] == ("table", 0, 0) and table.zone("hand", 0) == [other]
    unit.damage = 2
    table.remove(unit, ("table", 0))
    table.put(iid, ("discard", 0))
    assert table.where() == {iid: ("discard", 0, 0), other: ("hand", 0, 0)}
    assert table.owners[iid] == 0 and table.cards[iid] is POOL[4]
    assert table.knows(1, iid) and not table.knows(1, other)


def test_a_slotted_zone_keeps_its_length_and_its_holes() -> None:
    table = Table(2, ZONES)
    first, second = (table.create(POOL[n], 0, "hand") for n in (0, 1))
    table.move(first, ("hand", 0), ("board", 0), seen_by=None)
    table.move(second, ("hand", 0), ("board", 0), position=2)
    assert table.zone("board", 0) == [first, None, second]
    with pytest.raises(ValueError, match="slot 2 is taken"):
        table.put(table.create(POOL[2], 0, "hand"), ("board", 0), 2)
    table.move(first, ("board", 0), ("discard", 0))
    assert table.zone("board", 0) == [None, None, second]
    assert table.definitions("board", 0) == [POOL[1]]
    assert table.where()[second] == ("board", 0, 2)


def test_a_card_revealed_once_stays_known_after_it_goes_back_into_hiding() -> None:
    table = Table(2, ZONES)
    iid = table.create(POOL[0], 1, "hand")
    table.reveal(iid, 0b01)  # shown to seat 0
    table.move(iid, ("hand", 1), ("deck", 1))
    assert table.knows(0, iid) and table.knows(1, iid)
    drawn = table.create(POOL[1], 1, "deck")
    table.move(drawn, ("deck", 1), ("discard", 1))
    table.move(drawn, ("discard", 1), ("hand", 1))
    assert table.knows(0, drawn), "seen in the discard, still known in the hand"


def test_seen_by_overrides_the_zone_for_a_card_played_face_down() -> None:
    table = Table(2, ZONES)
    iid = table.create(POOL[0], 1, "hand")
    table.remove(iid, ("hand", 1))
    unit = Unit(iid, POOL[0], face_up=False)
    table.put(unit, ("table", 1), seen_by=0b10)
    assert not table.knows(0, iid) and table.knows(1, iid)
    table.move(unit, ("table", 1), ("discard", 1))  # it dies and is turned face up
    assert table.knows(0, iid)


def test_a_copy_is_independent_and_copies_cards_in_play_with_their_marks() -> None:
    table = dealt()
    copy = table.copy()
    unit = table.zone("table", 0)[0]
    copied = copy.zone("table", 0)[0]
    assert copied is not unit and type(copied) is Unit
    assert (copied.iid, copied.card, copied.damage, copied.face_up) == (
        unit.iid, unit.card, unit.damage, unit.face_up,
    )  # fmt: skip
    copied.damage = 5
    copy.move(copy.zone("hand", 0)[0], ("hand", 0), ("discard", 0))
    copy.reveal(copy.zone("hand", 1)[-1], 0b01)
    assert unit.damage == 0
    assert table.zone("discard", 0) == [] and len(table.zone("hand", 0)) == 2
    assert not table.knows(0, table.zone("hand", 1)[-1])
    copy.move(copied, ("table", 0), ("discard", 0))
    assert copy.version > table.version and table.zone("table", 0) == [unit]
    table.check_conservation()
    copy.check_conservation()


def test_permanent_copy_copies_the_slots_of_every_class() -> None:
    unit = Unit(3, POOL[2], damage=4, face_up=False)
    twin = unit.copy()
    assert (twin.iid, twin.card, twin.damage, twin.face_up) == (3, POOL[2], 4, False)
    assert type(Permanent(1, POOL[0]).copy()) is Permanent


def test_conservation_catches_a_duplicated_and_a_missing_instance() -> None:
    table = dealt()
    table.check_conservation()
    doubled = table.copy()
    doubled.zone("discard", 0).append(doubled.zone("hand", 0)[0])
    with pytest.raises(ConservationError, match=r"two places: \[\d+\]; in no zone: \[\]"):
        doubled.check_conservation()
    missing = table.copy()
    lost = missing.zone("deck", 1).pop()
    with pytest.raises(ConservationError, match=rf"two places: \[\]; in no zone: \[{lost}\]"):
        missing.check_conservation()
    in_play = table.copy()
    in_play.zone("table", 1).clear()
    with pytest.raises(ConservationError, match="in no zone"):
        in_play.check_conservation()


def test_census_counts_placed_instances_by_definition() -> None:
    table = dealt()
    assert sum(table.census().values()) == 16
    assert table.census(lambda card: card.index % 2) == {0: 8, 1: 8}
    assert [iid_of(e) for e in table.zone("table", 1)] == [table.zone("table", 1)[0].iid]
    assert iid_of(None) is None


def test_a_shuffle_makes_every_seat_forget_the_cards_it_hides() -> None:
    """A card shown and shuffled back into a face-down deck is one of the deck's unknown
    cards again: its instance id no longer tells anyone which card it is."""
    table = Table(2, ZONES)
    iid = table.create(POOL[0], 0, "discard")  # public: both seats know it
    table.create(POOL[1], 0, "deck")
    table.move(iid, ("discard", 0), ("deck", 0))
    assert table.knows(0, iid) and table.knows(1, iid)
    table.shuffle(("deck", 0), random.Random(1))
    assert not table.knows(0, iid) and not table.knows(1, iid)
    shown = table.create(POOL[2], 1, "hand")
    table.shuffle(("hand", 1), random.Random(1))
    assert table.knows(1, shown) and not table.knows(0, shown)  # a hand stays its owner's


def test_a_shuffle_notes_per_seat_the_cards_it_forgot_and_copies_share_the_note() -> None:
    """A shuffle forgets order, not membership: ``lost`` keeps, per seat, the number of the
    shuffle in which the seat stopped knowing a card, so the cards it saw go in together
    stay a multiset it knows; a card it never knew gets no number."""
    table = Table(2, ZONES)
    unknown = table.create(POOL[0], 0, "deck")
    held = table.create(POOL[1], 0, "hand")  # seat 0 knows it, seat 1 does not
    shown = table.create(POOL[2], 0, "discard")  # both know it
    table.move(held, ("hand", 0), ("deck", 0))
    table.move(shown, ("discard", 0), ("deck", 0))
    before = table.copy()
    table.shuffle(("deck", 0), random.Random(2))
    assert table.lost == {held: (1, 0), shown: (1, 1)} and unknown not in table.lost
    assert before.lost == {} and before.knows(1, shown), "a copy taken before is untouched"
    table.move(shown, ("deck", 0), ("discard", 0))  # seen again
    table.shuffle(("deck", 0), random.Random(2))  # nobody knew a card of the deck
    assert table.lost[held] == (1, 0) and table.shuffles == 1
    table.move(shown, ("discard", 0), ("deck", 0))  # and shuffled away again
    table.shuffle(("deck", 0), random.Random(2))
    assert table.lost == {held: (1, 0), shown: (2, 2)} and table.shuffles == 2
    assert table.copy().lost is table.lost  # shared until a shuffle replaces it


def test_a_permanent_without_slots_is_refused() -> None:
    with pytest.raises(TypeError, match="declares its marks in __slots__"):

        class Loose(Permanent):
            pass
