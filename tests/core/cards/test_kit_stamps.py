"""What a cache may key on, kept by the kit: ``Table.version``, the stamps of every zone and
slot (``Table.stamps``, ``Table.slot_stamps``) and the counted marks of cards in play
(``Marked``), moved by every operation of the table and every change of a counted mark,
hand edits included, so no rule has to say what it changed."""

from __future__ import annotations

import pickle
import random
from dataclasses import replace
from typing import Any

import pytest
from kit_table import POOL

from tabletop.envs.core.cards.zones import Marked, Permanent, Table, Visibility, ZoneSpec

ZONES = tuple(
    replace(spec, stamped=True)
    for spec in (
        ZoneSpec("deck", Visibility.NOBODY),
        ZoneSpec("hand", Visibility.OWNER),
        ZoneSpec("discard", Visibility.PUBLIC),
        ZoneSpec("board", Visibility.PUBLIC, slots=3, in_play=True, lasting=True),
        ZoneSpec("attached", Visibility.PUBLIC, in_play=True, lasting=True, lies_on="board"),
        ZoneSpec(
            "aura", Visibility.PUBLIC, shared=True, in_play=True, lasting=True, lies_on="board"
        ),
    )
)
"""Every zone stamped; ``UNSTAMPED`` is the same zones without stamps."""
UNSTAMPED = tuple(replace(spec, stamped=False) for spec in ZONES)


class Unit(Marked):
    """A card on the board: ``damage`` is counted, ``note`` is not."""

    __slots__ = ("damage", "note")
    COUNTED = frozenset({"damage"})

    def __init__(self, iid: int, card: Any, damage: int = 0) -> None:
        super().__init__(iid, card)
        self.damage = damage
        self.note = ""


class Charm(Permanent):
    """A card attached to a slot of the board (``None``: to every slot of its owner)."""

    __slots__ = ("slot",)

    def __init__(self, iid: int, card: Any, slot: int | None) -> None:
        super().__init__(iid, card)
        self.slot = slot

    def lies_at(self) -> int | None:
        return self.slot


def board(units: int = 2, zones: tuple[ZoneSpec, ...] = ZONES) -> tuple[Table, list[Unit]]:
    """Seat 0 with ``units`` units on its board's first slots; three cards in each deck."""
    table = Table(2, zones)
    for seat in (0, 1):
        table.create_many(POOL[:3], seat, "deck")
    placed = []
    for slot in range(units):
        iid = table.create(POOL[slot], 0, "board")
        placed.append(Unit(iid, POOL[slot]))
        table.put(placed[-1], ("board", 0), slot)
    return table, placed


def snapshot(table: Table) -> tuple[dict[str, list[int]], dict[str, list[list[int]]], int]:
    return (
        {name: owned[:] for name, owned in table.stamps.items()},
        {name: [slots[:] for slots in owned] for name, owned in table.slot_stamps.items()},
        table.version,
    )


def changed(before: tuple[Any, ...], table: Table) -> set[tuple[Any, ...]]:
    """The zones ``(name, owner)`` and slots ``(name, owner, slot)`` whose stamps moved."""
    stamps, slots, _ = before
    moved: set[tuple[Any, ...]] = {
        (name, owner)
        for name, owned in table.stamps.items()
        for owner, stamp in enumerate(owned)
        if stamp != stamps[name][owner]
    }
    moved |= {
        (name, owner, slot)
        for name, owned in table.slot_stamps.items()
        for owner, numbers in enumerate(owned)
        for slot, stamp in enumerate(numbers)
        if stamp != slots[name][owner][slot]
    }
    return moved


def test_a_counted_mark_changed_by_hand_renews_its_slot_and_zone_and_the_version() -> None:
    table, (first, _) = board()
    before = snapshot(table)
    first.damage = 2
    assert changed(before, table) == {("board", 0), ("board", 0, 0)}
    assert table.version == before[2] + 1 and table.mark_writes.count == 1


def test_a_mark_written_as_it_was_or_not_counted_changes_nothing() -> None:
    table, (first, _) = board()
    before = snapshot(table)
    first.damage = 0
    first.note = "anything"
    assert changed(before, table) == set() and table.version == before[2]
    assert table.mark_writes.count == 0


def test_marks_set_off_the_table_count_nothing_and_coming_onto_it_counts() -> None:
    table, _ = board(units=0)
    unit = Unit(table.create(POOL[0], 0, "board"), POOL[0], damage=3)
    unit.damage = 4
    assert table.mark_writes.count == 0
    before = snapshot(table)
    table.put(unit, ("board", 0), 2)
    assert changed(before, table) == {("board", 0), ("board", 0, 2)}
    table.remove(unit, ("board", 0))
    before = snapshot(table)
    unit.damage = 5
    assert changed(before, table) == set() and table.mark_writes.count == 0


def test_every_move_renews_the_zones_it_touches_and_only_those() -> None:
    table, _ = board()
    before = snapshot(table)
    table.take(("deck", 1), -1, ("hand", 1))
    assert changed(before, table) == {("deck", 1), ("hand", 1)}
    before = snapshot(table)
    table.move(table.zone("hand", 1)[0], ("hand", 1), ("discard", 1))
    assert changed(before, table) == {("hand", 1), ("discard", 1)}
    before = snapshot(table)
    table.take_all(("discard", 1), ("deck", 1))
    assert changed(before, table) == {("discard", 1), ("deck", 1)}
    assert table.zone("discard", 1) == [] and len(table.zone("deck", 1)) == 3
    before = snapshot(table)
    table.shuffle(("deck", 1), random.Random(0))
    assert changed(before, table) == {("deck", 1)}


def test_a_card_lying_on_a_slot_renews_that_slot_and_without_a_slot_all_of_them() -> None:
    table, _ = board()
    iid = table.create(POOL[3], 0, "hand")
    table.remove(iid, ("hand", 0))
    before = snapshot(table)
    charm = Charm(iid, POOL[3], 1)
    table.put(charm, ("attached", 0))
    assert changed(before, table) == {("attached", 0), ("board", 0), ("board", 0, 1)}
    before = snapshot(table)
    table.remove(charm, ("attached", 0))
    charm.slot = None
    table.put(charm, ("attached", 0))
    board_slots = {("board", 0, slot) for slot in range(3)}
    assert changed(before, table) == {("attached", 0), ("board", 0), *board_slots}


def test_a_shared_zone_lying_on_a_board_renews_every_seats_slots() -> None:
    table, _ = board()
    iid = table.create(POOL[4], 0, "hand")
    table.remove(iid, ("hand", 0))
    before = snapshot(table)
    table.put(Charm(iid, POOL[4], None), ("aura", 0))
    every = {("board", seat, slot) for seat in (0, 1) for slot in range(3)}
    assert changed(before, table) == {("aura", 0), ("board", 0), ("board", 1), *every}


def every_stamp(table: Table) -> list[int]:
    numbers = [n for owned in table.stamps.values() for n in owned]
    return numbers + [n for owned in table.slot_stamps.values() for s in owned for n in s]


def test_stamps_are_never_given_twice_and_copies_share_them_until_they_change() -> None:
    table, (first, _) = board()
    other, _ = board()
    assert len(set(every_stamp(table))) == len(every_stamp(table))
    assert not set(every_stamp(table)) & set(every_stamp(other))
    copy = table.copy()
    assert every_stamp(copy) == every_stamp(table)
    copied = copy.zone("board", 0)[0]
    assert copied.table is copy and first.table is table
    copied.damage = 1
    first.damage = 1
    assert copy.slot_stamps["board"][0][0] != table.slot_stamps["board"][0][0]
    assert (copy.mark_writes.count, table.mark_writes.count) == (1, 1)


def test_touch_and_a_cards_new_identity_renew_every_stamp() -> None:
    table, _ = board()
    for change in (table.touch, lambda: table.with_next_card(0, POOL)):
        before = snapshot(table)
        change()
        every = {
            (name, owner) for name, owned in table.stamps.items() for owner in range(len(owned))
        }
        every |= {("board", seat, slot) for seat in (0, 1) for slot in range(3)}
        assert changed(before, table) == every and table.version > before[2]


def test_a_zone_can_lie_only_on_a_slotted_zone_of_each_seat() -> None:
    with pytest.raises(ValueError, match="not a slotted zone"):
        Table(2, [ZoneSpec("hand", Visibility.OWNER, lies_on="deck"),
                  ZoneSpec("deck", Visibility.NOBODY)])  # fmt: skip


def test_a_pickled_table_keeps_its_stamps_and_counts_its_own_marks() -> None:
    table, _ = board()
    other = pickle.loads(pickle.dumps(table))
    assert every_stamp(other) == every_stamp(table)
    unit = other.zone("board", 0)[0]
    assert unit.table is other
    unit.damage = 1
    assert (other.mark_writes.count, table.mark_writes.count) == (1, 0)


def play_out(table: Table, units: list[Unit]) -> tuple[Any, ...]:
    """Every kind of operation and a counted mark's change; what they leave besides stamps."""
    table.take(("deck", 1), -1, ("hand", 1))
    table.move(table.zone("hand", 1)[0], ("hand", 1), ("discard", 1))
    table.take_all(("discard", 1), ("deck", 1))
    table.shuffle(("deck", 1), random.Random(0))
    units[0].damage = 2
    charm = Charm(table.pop(("deck", 0)), POOL[3], 1)
    table.put(charm, ("attached", 0))
    table.remove(units[1], ("board", 0))
    table.put(units[1], ("board", 0), 2)
    units[1].damage = 1
    table.move(charm, ("attached", 0), ("aura", 0))
    table.touch()
    table.check_conservation()
    return table.where(), table.seen, table.version, table.mark_writes.count


def test_an_unstamped_table_plays_as_a_stamped_one_without_stamps() -> None:
    stamped, unstamped = board(), board(zones=UNSTAMPED)
    assert play_out(*unstamped) == play_out(*stamped)
    table = unstamped[0]
    assert table.stamps == {} and table.slot_stamps == {}
    with pytest.raises(KeyError):
        table.stamps["deck"]  # no stamp that never moves


def test_moves_between_stamped_and_unstamped_zones_renew_the_stamped_ones_only() -> None:
    zones = (*UNSTAMPED[:1], *ZONES[1:3], *UNSTAMPED[3:])  # hand and discard stamped
    table, (first, _) = board(zones=zones)
    assert set(table.stamps) == {"hand", "discard"} and table.slot_stamps == {}
    before = snapshot(table)
    table.take(("deck", 1), -1, ("hand", 1))
    assert changed(before, table) == {("hand", 1)}
    before = snapshot(table)
    first.damage = 3
    assert changed(before, table) == set()
    assert table.version == before[2] + 1 and table.mark_writes.count == 1


def test_a_zone_lying_on_another_is_stamped_as_that_one_is() -> None:
    with pytest.raises(ValueError, match="stamped as it is"):
        Table(2, (*ZONES[:4], replace(ZONES[4], stamped=False)))
