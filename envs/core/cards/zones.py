"""Cards and zones: the physical cards of a position, where each one is, and who has seen it.

A card *definition* is data (a pool entry, shared and immutable); a card *instance* is one
physical card, named by an instance id (``iid``, an int) that follows it across zones. A
``Table`` holds, per instance, its definition, its owner and the seats that have seen it,
and the zones: lists of instance ids (or, in zones of cards in play, ``Permanent`` objects
that carry an iid and the marks play leaves on the card).

Moving a card is one operation (``Table.move``) that also records who sees it where it
lands: a card revealed once stays known to those who saw it, which is what
``hidden.redeal`` needs to re-deal only what an observer cannot identify.
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

SHARED = 0
"""The owner index of a zone that belongs to no seat (a common pool or market)."""


class Visibility(enum.Enum):
    """Who sees the identity and order of a zone's cards (everyone always sees the count)."""

    PUBLIC = "public"
    """Every seat: a table, a discard pile."""
    OWNER = "owner"
    """The zone's owner only: a hand."""
    NOBODY = "nobody"
    """No seat: a face-down deck, whose order nobody knows."""


@dataclass(frozen=True)
class ZoneSpec:
    """A kind of zone, declared once per game.

    ``shared`` zones exist once (owner ``SHARED``), the others once per seat. ``slots``
    fixes a zone's length, with ``None`` for an empty slot (a board addressed by slot
    numbers). ``in_play`` zones hold ``Permanent`` objects instead of bare instance ids,
    so a card keeps its marks (damage, tapped, counters) while it stays there.
    """

    name: str
    visibility: Visibility
    shared: bool = False
    slots: int | None = None
    in_play: bool = False

    def __post_init__(self) -> None:
        if self.shared and self.visibility is Visibility.OWNER:
            raise ValueError(f"zone {self.name!r}: a shared zone has no owner to see it")


class Permanent:
    """A card in play: its instance id, its definition, and a game's marks (subclasses add
    ``__slots__``). ``copy`` copies every slot, so a subclass needs no copy of its own."""

    __slots__ = ("iid", "card")

    def __init__(self, iid: int, card: Any) -> None:
        self.iid = iid
        self.card = card

    def copy(self) -> Permanent:
        other = object.__new__(type(self))
        for cls in type(self).__mro__:
            for name in getattr(cls, "__slots__", ()):
                setattr(other, name, getattr(self, name))
        return other


Entry = int | Permanent | None
"""What a zone holds at a position: an instance id, a card in play, or an empty slot."""


def iid_of(entry: Entry) -> int | None:
    """The instance id at a zone position (``None`` for an empty slot)."""
    if entry is None or type(entry) is int:
        return entry
    return entry.iid


class ConservationError(AssertionError):
    """An instance missing from every zone, or in two places at once: an engine bug."""


class Table:
    """The instances and zones of one position.

    ``cards[iid]`` is the instance's definition, ``owners[iid]`` its owner and
    ``seen[iid]`` a bit mask of the seats that know which card it is. ``zones[name][owner]``
    is a zone's list. ``version`` grows with every change of a zone's membership, so that
    figures computed from the cards in play (``continuous``) can be cached until it moves.
    """

    __slots__ = ("num_players", "specs", "zones", "cards", "owners", "seen", "version", "_sees")

    def __init__(self, num_players: int, specs: Sequence[ZoneSpec]) -> None:
        names = [spec.name for spec in specs]
        if len(set(names)) != len(names):
            raise ValueError(f"zone names must be unique: {names}")
        self.num_players = num_players
        self.specs = {spec.name: spec for spec in specs}
        self.zones: dict[str, list[list[Any]]] = {
            spec.name: [_empty(spec) for _ in range(1 if spec.shared else num_players)]
            for spec in specs
        }
        self.cards: list[Any] = []
        self.owners: list[int] = []
        self.seen: list[int] = []
        self.version = 0
        everyone = (1 << num_players) - 1
        self._sees = {
            spec.name: _sees_mask(spec.visibility, everyone, spec.shared, num_players)
            for spec in specs
        }

    # ----- reading --------------------------------------------------------------------------

    def zone(self, name: str, owner: int = SHARED) -> list[Any]:
        return self.zones[name][owner]

    def sees(self, name: str, owner: int) -> int:
        """The mask of seats that see the identities and order of zone ``(name, owner)``."""
        return self._sees[name][owner]

    def knows(self, seat: int, iid: int) -> bool:
        """Whether ``seat`` knows which card instance ``iid`` is."""
        return bool(self.seen[iid] >> seat & 1)

    def definitions(self, name: str, owner: int = SHARED) -> list[Any]:
        """The definitions of a zone's cards, in order (empty slots left out)."""
        cards = self.cards
        return [cards[iid_of(e)] for e in self.zones[name][owner] if e is not None]

    def where(self) -> dict[int, tuple[str, int, int]]:
        """iid -> (zone name, owner, position) of every placed instance."""
        places: dict[int, tuple[str, int, int]] = {}
        for name, owned in self.zones.items():
            for owner, zone in enumerate(owned):
                for position, entry in enumerate(zone):
                    if entry is not None:
                        places[iid_of(entry)] = (name, owner, position)
        return places

    def entries(self) -> Iterator[tuple[str, int, int, Entry]]:
        """(zone name, owner, position, entry) of every occupied position, in zone order."""
        for name, owned in self.zones.items():
            for owner, zone in enumerate(owned):
                for position, entry in enumerate(zone):
                    if entry is not None:
                        yield name, owner, position, entry

    # ----- changing -------------------------------------------------------------------------

    def create(self, card: Any, owner: int, zone: str, zone_owner: int | None = None) -> int:
        """A new instance of ``card`` owned by ``owner``, put last in zone ``(zone,
        zone_owner)`` (default the owner's); in an ``in_play`` zone wrap it yourself with
        ``place``. Returns its iid."""
        iid = len(self.cards)
        self.cards.append(card)
        self.owners.append(owner)
        self.seen.append(0)
        where = owner if zone_owner is None else zone_owner
        if not self.specs[zone].in_play:
            self._land(iid, zone, where)
            self.zones[zone][where].append(iid)
        return iid

    def move(
        self, entry: Entry, source: tuple[str, int], target: tuple[str, int],
        position: int | None = None, *, seen_by: int | None = None,
    ) -> None:  # fmt: skip
        """Take ``entry`` out of zone ``source`` and put it in ``target`` (last, or at
        ``position``; in a slotted zone: the slot, default the first empty one).

        The seats that see the target zone learn the card, unless ``seen_by`` gives the mask
        of who sees it arrive (a card played face down is seen by its owner only)."""
        self.remove(entry, source)
        self.put(entry, target, position, seen_by=seen_by)

    def remove(self, entry: Entry, source: tuple[str, int]) -> None:
        """Take ``entry`` out of a zone (a slotted zone keeps the hole)."""
        zone = self.zones[source[0]][source[1]]
        if self.specs[source[0]].slots is None:
            zone.remove(entry)
        else:
            zone[zone.index(entry)] = None
        self.version += 1

    def put(
        self, entry: Entry, target: tuple[str, int], position: int | None = None,
        *, seen_by: int | None = None,
    ) -> None:  # fmt: skip
        """Put ``entry`` (not in any zone) into ``target``; see ``move``."""
        name, owner = target
        zone = self.zones[name][owner]
        if self.specs[name].slots is not None:
            slot = zone.index(None) if position is None else position
            if zone[slot] is not None:
                raise ValueError(f"zone {name!r} of {owner}: slot {slot} is taken")
            zone[slot] = entry
        elif position is None:
            zone.append(entry)
        else:
            zone.insert(position, entry)
        self._land(iid_of(entry), name, owner, seen_by)

    def reveal(self, iid: int, seats: int) -> None:
        """The seats in mask ``seats`` learn which card ``iid`` is (a card shown)."""
        self.seen[iid] |= seats

    def touch(self) -> None:
        """Say that something continuous effects depend on changed, besides zones."""
        self.version += 1

    def _land(self, iid: int, name: str, owner: int, seen_by: int | None = None) -> None:
        self.seen[iid] |= self._sees[name][owner] if seen_by is None else seen_by
        self.version += 1

    # ----- copies and checks ----------------------------------------------------------------

    def copy(self) -> Table:
        """An independent copy; cards in play are copied with their marks."""
        other = Table.__new__(Table)
        other.num_players = self.num_players
        other.specs = self.specs
        other.zones = {
            name: (
                [[e.copy() if e is not None else None for e in z] for z in owned]
                if self.specs[name].in_play
                else [z[:] for z in owned]
            )
            for name, owned in self.zones.items()
        }
        other.cards = self.cards[:]
        other.owners = self.owners[:]
        other.seen = self.seen[:]
        other.version = self.version
        other._sees = self._sees
        return other

    def check_conservation(self) -> None:
        """Every instance is in exactly one zone position; raise ``ConservationError``."""
        counts = Counter(iid_of(e) for _, _, _, e in self.entries())
        doubled = sorted(iid for iid, n in counts.items() if n > 1)
        missing = sorted(set(range(len(self.cards))) - set(counts))
        if doubled or missing:
            raise ConservationError(
                f"card instances in two places: {doubled}; in no zone: {missing}"
            )

    def census(self, key: Any = None) -> Counter[Any]:
        """How many instances of each definition (or of ``key(definition)``) are placed."""
        key = key or (lambda card: card)
        return Counter(key(self.cards[iid_of(e)]) for _, _, _, e in self.entries())


def _empty(spec: ZoneSpec) -> list[Any]:
    return [] if spec.slots is None else [None] * spec.slots


def _sees_mask(visibility: Visibility, everyone: int, shared: bool, players: int) -> list[int]:
    owners: Iterable[int] = range(1 if shared else players)
    if visibility is Visibility.PUBLIC:
        return [everyone for _ in owners]
    if visibility is Visibility.OWNER:
        return [1 << owner for owner in owners]
    return [0 for _ in owners]
