"""Where HKK's cards are (HK-1.2): the kit zones of a position and the card-in-play object.

Per seat: the deck (face down: nobody sees its order, HK-11.1), the hand (its owner), the
table (public; ``InPlay`` objects, which hold a card's marks), the discard pile (public)
and the Void (public; cards removed from the game). ``chain`` holds the cards being played
until they resolve (public: every card played is, HK-11.1). A card's owner
(``Table.owners``) is whose deck it came from, and its discard pile is where it goes
(HK-1.2); its controller is the seat whose table it lies on.
"""

from __future__ import annotations

from typing import Literal

from tabletop.envs.core.cards.zones import Permanent, Visibility, ZoneSpec

ZONES = (
    ZoneSpec("deck", Visibility.NOBODY),
    ZoneSpec("hand", Visibility.OWNER),
    ZoneSpec("table", Visibility.PUBLIC, in_play=True, lasting=True),
    ZoneSpec("discard", Visibility.PUBLIC),
    ZoneSpec("void", Visibility.PUBLIC),
    ZoneSpec("chain", Visibility.PUBLIC),
)
PILES = ("deck", "hand", "table", "discard", "void")
"""The five zones a card is in whenever nothing is being played (HK-1.2)."""

FIGURE_MARKS = frozenset({"active", "area", "host", "counters", "levels", "boost"})
"""The marks of a card on the table that creatures' figures depend on (``figures``)."""


class MarkWrites:
    """How many times a mark of ``FIGURE_MARKS`` changed on the cards in play of one
    position (each ``InPlay`` holds its position's counter): figures remembered while it
    stays the same (and the tables' cards too) are still right. A write that leaves a mark
    as it was (the end of the turn clearing boosts that were none) changes nothing."""

    __slots__ = ("count",)

    def __init__(self) -> None:
        self.count = 0


Area = Literal["guard", "reserve", "beside", "attached"]
"""Where a card on the table lies: a creature in the guard post or the reserve, another
card beside them, or a card attached to another (``InPlay.host``)."""


class InPlay(Permanent):
    """A card on the table and the marks play leaves on it.

    ``active`` (HK-1.4); ``area``; ``host``: the iid of the card it is attached to
    (enchantment, creature item, body part, level-up), else ``None``; ``damage`` taken this
    turn (creatures and buildings, HK-4.2, HK-6.8); ``poison`` counters (HK-7.3);
    ``counters``: +1/+1 counters (HK-4.5); ``levels`` (adventurers, HK-4.4);
    ``regenerated``: life regained by regeneration this turn (HK-7.9); ``boost``: damage
    and life until the end of the turn; ``breathed``: used its direct damage this combat."""

    __slots__ = (
        "active", "area", "host", "damage", "poison", "counters", "levels", "regenerated",
        "boost", "breathed", "writes",
    )  # fmt: skip

    def __init__(
        self, iid: int, card: object, area: Area, writes: MarkWrites, *, active: bool = True,
        host: int | None = None,
    ) -> None:  # fmt: skip
        super().__init__(iid, card)
        self.writes = writes
        """The counter of its position's mark changes (``MarkWrites``)."""
        self.active = active
        self.area: Area = area
        self.host = host
        self.damage = 0
        self.poison = 0
        self.counters = 0
        self.levels = 0
        self.regenerated = 0
        self.boost = (0, 0)
        self.breathed = False

    def __setattr__(self, name: str, value: object) -> None:
        """Every change of a mark in ``FIGURE_MARKS`` is counted, hand edits included, so
        remembered figures are never read stale (a mark set for the first time, as the
        card is made or copied, is no change: it comes onto a table, which counts)."""
        if name in FIGURE_MARKS:
            old = getattr(self, name, _UNSET)
            if old is not _UNSET and old != value:
                self.writes.count += 1
        object.__setattr__(self, name, value)


_UNSET = object()
