"""Where Kult's cards are: the kit zones of a position and the card-in-play objects.

Per seat: the Arcanum (public), the face-down Hub card (``hub_card``: nobody sees it, not
even its owner, KU-2.3), the deck (nobody), the hand (its owner), the discard pile
(public), the Mystic Cross (``cross``: eight slots, KU-1.1, holding ``Base`` cards) and
the Influences attached to that cross's cards, stations or Hub (``influences``,
``Attachment`` objects); shared: the Influences attached to the Pool (KU-3.2). A card's
owner (``Table.owners``) is whose deck it came from, and its discard pile is where it
goes; its controller is the seat whose cross it lies in (KU-7.4).
"""

from __future__ import annotations

from tabletop.envs.core.cards.zones import Permanent, Visibility, ZoneSpec
from tabletop.envs.kult.actions import STATIONS

ZONES = (
    ZoneSpec("arcanum", Visibility.PUBLIC),
    ZoneSpec("hub_card", Visibility.NOBODY),
    ZoneSpec("deck", Visibility.NOBODY),
    ZoneSpec("hand", Visibility.OWNER),
    ZoneSpec("discard", Visibility.PUBLIC),
    ZoneSpec("cross", Visibility.PUBLIC, slots=STATIONS, in_play=True, lasting=True),
    ZoneSpec("influences", Visibility.PUBLIC, in_play=True, lasting=True),
    ZoneSpec("pool_influences", Visibility.PUBLIC, shared=True, in_play=True, lasting=True),
)
IN_PLAY = ("cross", "influences", "pool_influences")
"""The zones whose cards are in play (unique cards, KU-3.5)."""


class Base(Permanent):
    """A base card on a station (KU-3.1): face up or down (KU-5) and its tokens."""

    __slots__ = ("face_up", "tokens")

    def __init__(self, iid: int, card: object, face_up: bool = True, tokens: int = 0) -> None:
        super().__init__(iid, card)
        self.face_up = face_up
        self.tokens = tokens


class Attachment(Permanent):
    """An Influence in play (KU-3.2) and what it lies on: ``station`` 0-7 (the card there,
    or the station itself, as its ``card.attach`` says), ``HUB`` or, on the Pool, ``HUB``
    too (unused)."""

    __slots__ = ("station",)

    def __init__(self, iid: int, card: object, station: int) -> None:
        super().__init__(iid, card)
        self.station = station
