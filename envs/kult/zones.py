"""Where Kult's cards are: the kit zones of a position and the card-in-play objects.

Per seat: the Arcanum (public), the face-down Hub card (``hub_card``: nobody sees it, not
even its owner, KU-2.3), the deck (nobody), the hand (its owner), the discard pile
(public), the Mystic Cross (``cross``: eight slots, KU-1.1, holding ``Base`` cards) and
the Influences attached to that cross's cards, stations or Hub (``influences``,
``Attachment`` objects); shared: the Influences attached to the Pool (KU-3.2). A card's
owner (``Table.owners``) is whose deck it came from, and its discard pile is where it
goes; its controller is the seat whose cross it lies in (KU-7.4).

The Influences lie on the cross (``ZoneSpec.lies_on``): the kit's stamps of a cross's
station (``Table.slot_stamps``) and of the whole cross (``Table.stamps``) change with its
card, the card's marks (``Base``: face, tokens) and every Influence on it, on its station,
on its Hub or on the Pool, which is all a station's row in a view reads of the cards.
The cross, the zones lying on it and the discard piles are the zones the encoders' caches
read the stamps of, so they alone are ``stamped``. No zone is ``lasting``: Kult caches no
figure on ``Table.version`` (the rules read the cards in play afresh, the encoders key on
stamps), so moves and marks need not move it.
"""

from __future__ import annotations

from tabletop.envs.core.cards.zones import Marked, Permanent, Visibility, ZoneSpec
from tabletop.envs.kult.actions import HUB, STATIONS

ZONES = (
    ZoneSpec("arcanum", Visibility.PUBLIC),
    ZoneSpec("hub_card", Visibility.NOBODY),
    ZoneSpec("deck", Visibility.NOBODY),
    ZoneSpec("hand", Visibility.OWNER),
    ZoneSpec("discard", Visibility.PUBLIC, stamped=True),
    ZoneSpec("cross", Visibility.PUBLIC, slots=STATIONS, in_play=True, stamped=True),
    ZoneSpec("influences", Visibility.PUBLIC, in_play=True, lies_on="cross", stamped=True),
    ZoneSpec(
        "pool_influences",
        Visibility.PUBLIC,
        shared=True,
        in_play=True,
        lies_on="cross",
        stamped=True,
    ),
)
IN_PLAY = ("cross", "influences", "pool_influences")
"""The zones whose cards are in play (unique cards, KU-3.5)."""
RECRUITED, INVOKED, ATTACKING, DEFENDING = 1, 2, 4, 8
"""The marks of the turn on a station, as bits (``KultState.station_marks``): recruited
onto, push ability used, attacking, defending."""


class Base(Marked):
    """A base card on a station (KU-3.1): face up or down (KU-5) and its tokens, both
    counted marks (the kit tracks their changes)."""

    __slots__ = ("face_up", "tokens")
    COUNTED = frozenset(__slots__)

    def __init__(self, iid: int, card: object, face_up: bool = True, tokens: int = 0) -> None:
        super().__init__(iid, card)
        object.__setattr__(self, "face_up", face_up)  # a card being made counts no change
        object.__setattr__(self, "tokens", tokens)


class Attachment(Permanent):
    """An Influence in play (KU-3.2) and what it lies on: ``station`` 0-7 (the card there,
    or the station itself, as its ``card.attach`` says), ``HUB`` or, on the Pool, ``HUB``
    too (unused)."""

    __slots__ = ("station",)

    def __init__(self, iid: int, card: object, station: int) -> None:
        super().__init__(iid, card)
        self.station = station

    def lies_at(self) -> int | None:
        """Its station; ``None`` on the Hub (it bears on every station's Being)."""
        return None if self.station == HUB else self.station
