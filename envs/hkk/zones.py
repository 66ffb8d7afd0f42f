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

from tabletop.envs.core.cards.zones import Marked, Visibility, ZoneSpec

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
"""The marks of a card on the table that creatures' figures depend on (``figures``): the
kit counts their changes (``InPlay.COUNTED``), so ``Table.version`` moves with them."""


Area = Literal["guard", "reserve", "beside", "attached"]
"""Where a card on the table lies: a creature in the guard post or the reserve, another
card beside them, or a card attached to another (``InPlay.host``)."""


class InPlay(Marked):
    """A card on the table and the marks play leaves on it.

    ``active`` (HK-1.4); ``area``; ``host``: the iid of the card it is attached to
    (enchantment, creature item, body part, level-up), else ``None``; ``damage`` taken this
    turn (creatures and buildings, HK-4.2, HK-6.8); ``poison`` counters (HK-7.3);
    ``counters``: +1/+1 counters (HK-4.5); ``levels`` (adventurers, HK-4.4);
    ``regenerated``: life regained by regeneration this turn (HK-7.9); ``boost``: damage
    and life until the end of the turn; ``breathed``: used its direct damage this combat.
    A change of a mark of ``FIGURE_MARKS``, by a rule or by hand, is counted by the kit
    (``Marked``); the others are read at every encoding."""

    __slots__ = (
        "active", "area", "host", "damage", "poison", "counters", "levels", "regenerated",
        "boost", "breathed",
    )  # fmt: skip
    COUNTED = FIGURE_MARKS

    def __init__(
        self, iid: int, card: object, area: Area, *, active: bool = True, host: int | None = None
    ) -> None:
        super().__init__(iid, card)
        mark = object.__setattr__  # a card being made counts no change: no __setattr__ run
        mark(self, "active", active)
        mark(self, "area", area)
        mark(self, "host", host)
        mark(self, "damage", 0)
        mark(self, "poison", 0)
        mark(self, "counters", 0)
        mark(self, "levels", 0)
        mark(self, "regenerated", 0)
        mark(self, "boost", (0, 0))
        mark(self, "breathed", False)
