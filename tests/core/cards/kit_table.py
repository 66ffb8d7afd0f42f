"""Shared pieces of the kit tests: plain card definitions and a two-seat table with every
kind of zone (a face-down deck, hands, cards in play, a slotted board, public piles)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from tabletop.envs.core.cards.zones import SHARED, Permanent, Table, Visibility, ZoneSpec, iid_of


@dataclass(frozen=True)
class Def:
    """A card definition as the kit needs it: a place in its pool, and its statics."""

    index: int
    name: str
    statics: tuple[tuple[str, Any], ...] = ()


POOL = tuple(Def(index, name) for index, name in enumerate("ABCDEF"))
ZONES = (
    ZoneSpec("deck", Visibility.NOBODY),
    ZoneSpec("hand", Visibility.OWNER),
    ZoneSpec("table", Visibility.PUBLIC, in_play=True, lasting=True),
    ZoneSpec("board", Visibility.PUBLIC, slots=3, in_play=True, lasting=True),
    ZoneSpec("discard", Visibility.PUBLIC),
    ZoneSpec("market", Visibility.PUBLIC, shared=True),
    ZoneSpec("pile", Visibility.NOBODY, shared=True),
)
EVERYONE = 0b11


class Unit(Permanent):
    """A card in play with marks."""

    __slots__ = ("damage", "face_up")

    def __init__(self, iid: int, card: Any, damage: int = 0, face_up: bool = True) -> None:
        super().__init__(iid, card)
        self.damage = damage
        self.face_up = face_up


def dealt(seed: int = 0, deck: int = 8, hand: int = 3) -> Table:
    """Two seats, each with ``deck`` cards of the pool (in turn) shuffled face down, ``hand``
    of them drawn; seat 0 has played one to its table, seat 1 one to its discard and one
    face down to its table (seen by seat 1 only); seat 1 has shown one hand card to seat 0."""
    rng = random.Random(seed)
    table = Table(2, ZONES)
    for seat in (0, 1):
        for number in range(deck):
            table.create(POOL[(number + 3 * seat) % len(POOL)], seat, "deck")
        rng.shuffle(table.zone("deck", seat))
        for _ in range(hand):
            table.move(table.zone("deck", seat)[-1], ("deck", seat), ("hand", seat))
    played = table.zone("hand", 0)[0]
    table.remove(played, ("hand", 0))
    table.put(Unit(played, table.cards[played]), ("table", 0))
    table.move(table.zone("hand", 1)[0], ("hand", 1), ("discard", 1))
    face_down = table.zone("deck", 1)[-1]
    table.remove(face_down, ("deck", 1))
    table.put(Unit(face_down, table.cards[face_down], face_up=False), ("table", 1), seen_by=0b10)
    table.reveal(table.zone("hand", 1)[0], 0b01)
    return table


def views(table: Table, observer: int) -> dict[tuple[str, int], list[str]]:
    """What ``observer`` sees of every zone they see: the names in order, ``?`` for a card
    they do not know (face down), ``-`` for an empty slot."""
    return {
        (name, owner): [
            "-"
            if e is None
            else table.cards[iid_of(e)].name
            if table.knows(observer, iid_of(e))
            else "?"
            for e in zone
        ]
        for name, owned in table.zones.items()
        for owner, zone in enumerate(owned)
        if table.sees(name, owner) >> observer & 1
    }


def layout(table: Table) -> dict[tuple[str, int], list[str]]:
    """The names in every zone, in order: the whole position as definitions."""
    return {
        (name, owner): [card.name for card in table.definitions(name, owner)]
        for name, owned in table.zones.items()
        for owner in range(len(owned))
    }


__all__ = [
    "EVERYONE",
    "POOL",
    "SHARED",
    "ZONES",
    "Def",
    "Unit",
    "dealt",
    "layout",
    "views",
]
