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
import functools
import random
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

SHARED = 0
"""The owner index of a zone that belongs to no seat (a common pool or market). It is seat
0's number too: give the *cards* of a common supply an owner of their own (e.g.
``num_players``), or ``hidden.redeal`` exchanges them with seat 0's unseen cards."""


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
    ``lasting`` zones hold the cards whose continuous effects count (flag in-play zones too
    where their cards have any):
    a card moving in or out of one changes ``Table.version``, moves between other zones
    (a draw, a discard) do not, so figures cached from the cards in play stay valid.
    """

    name: str
    visibility: Visibility
    shared: bool = False
    slots: int | None = None
    in_play: bool = False
    lasting: bool = False

    def __post_init__(self) -> None:
        if self.shared and self.visibility is Visibility.OWNER:
            raise ValueError(f"zone {self.name!r}: a shared zone has no owner to see it")


class Permanent:
    """A card in play: its instance id, its definition, and a game's marks (subclasses add
    ``__slots__``). ``copy`` copies every slot, so a subclass needs no copy of its own."""

    __slots__ = ("iid", "card")
    _FIELDS: tuple[str, ...] = ("iid", "card")
    """Every slot of the class and its bases, gathered once per class for ``copy``."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "__slots__" not in cls.__dict__:
            raise TypeError(f"{cls.__name__}: a Permanent declares its marks in __slots__")
        cls._FIELDS = tuple(
            name for klass in cls.__mro__ for name in getattr(klass, "__slots__", ())
        )

    def __init__(self, iid: int, card: Any) -> None:
        self.iid = iid
        self.card = card

    def copy(self) -> Permanent:
        other = object.__new__(type(self))
        for name in self._FIELDS:
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
    ``seen[iid]`` a bit mask of the seats that know which card it is; ``lost[iid]``, for
    an instance some seat stopped knowing in a ``shuffle``, per seat the number of that
    shuffle (0: none). ``cards``, ``owners`` and ``lost`` are shared with copies: code that
    changes them replaces them (as ``create``, ``shuffle`` and ``hidden.redeal`` do), never
    edits them in place. ``zones[name][owner]``
    is a zone's list. ``version`` grows with every change of a lasting zone's membership
    (and with ``touch``), so that figures computed from the cards in play (``continuous``)
    can be cached until it moves.
    """

    __slots__ = (
        "num_players", "specs", "zones", "cards", "owners", "seen", "concealed", "version",
        "lost", "shuffles", "_sees", "_lasting",
    )  # fmt: skip

    def __init__(self, num_players: int, specs: Sequence[ZoneSpec]) -> None:
        self.num_players = num_players
        self.specs, self._sees, self._lasting = _layout(num_players, tuple(specs))
        self.zones: dict[str, list[list[Any]]] = {
            spec.name: [_empty(spec) for _ in range(1 if spec.shared else num_players)]
            for spec in specs
        }
        self.cards: list[Any] = []
        self.owners: list[int] = []
        self.seen: list[int] = []
        self.concealed: set[int] = set()
        """Instances in a zone whose seats do not all know them (a face-down card on a
        public table): where a determinization must look besides the hidden zones."""
        self.version = 0
        self.lost: dict[int, tuple[int, ...]] = {}
        self.shuffles = 0
        """Shuffles that made some seat forget cards: the numbers in ``lost``."""

    def with_next_card(self, iid: int, pool: Sequence[Any]) -> None:
        """Make instance ``iid`` the next card of ``pool`` (by index, wrapping): a position that
        differs from this one in a single card's identity, as a game's public-fact variants
        need. ``cards`` is shared with copies, so it is replaced, not edited."""
        cards = list(self.cards)
        cards[iid] = pool[(cards[iid].index + 1) % len(pool)]
        self.cards = cards

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
        a ``Permanent`` and ``put`` it there. Returns its iid."""
        iid = len(self.cards)
        self.cards = [*self.cards, card]  # replaced, not changed: copies share the lists
        self.owners = [*self.owners, owner]
        self.seen.append(0)
        where = owner if zone_owner is None else zone_owner
        if not self.specs[zone].in_play:
            self._land(iid, zone, where)
            self.zones[zone][where].append(iid)
        return iid

    def create_many(self, cards: Iterable[Any], owner: int, zone: str) -> list[int]:
        """``create`` for each of ``cards`` in order (a deck being built), quickly."""
        first = len(self.cards)
        self.cards = [*self.cards, *cards]  # replaced, not changed: copies share the lists
        iids = list(range(first, len(self.cards)))
        self.owners = [*self.owners, *([owner] * len(iids))]
        self.seen.extend([self._sees[zone][owner]] * len(iids))
        self.zones[zone][owner].extend(iids)
        if zone in self._lasting:
            self.version += 1
        return iids

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
        if source[0] in self._lasting:
            self.version += 1

    def pop(self, source: tuple[str, int], index: int = -1) -> Entry:
        """Take the entry at ``index`` out of list zone ``source`` (a card in hand about to
        be played); put it somewhere with ``put`` before the position is done."""
        entry = self.zones[source[0]][source[1]].pop(index)
        if source[0] in self._lasting:
            self.version += 1
        return entry

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
        iid = entry if type(entry) is int else entry.iid  # iid_of, inlined: every move
        self._land(iid, name, owner, seen_by)

    def take(self, source: tuple[str, int], index: int, target: tuple[str, int]) -> int:
        """Move the card at ``index`` of list zone ``source`` (``-1``: its top, the last)
        to the end of list zone ``target``; returns its iid. The quick path of ``move`` for
        draws and discards, with the same bookkeeping."""
        iid = self.zones[source[0]][source[1]].pop(index)
        self.zones[target[0]][target[1]].append(iid)
        if source[0] in self._lasting:
            self.version += 1
        self._land(iid, target[0], target[1])
        return iid

    def shuffle(self, zone: tuple[str, int], rng: random.Random) -> None:
        """Shuffle a list zone. Afterwards nobody can tell which of its cards is which
        beyond what the zone shows, so every seat the zone hides them from forgets them (a
        card shown and shuffled back into a deck is one of the deck's unknown cards again).
        A shuffle forgets order, not membership: the cards a seat forgets here stay a
        multiset it knows (``lost``), which ``hidden.redeal`` keeps together.
        """
        cards = self.zones[zone[0]][zone[1]]
        rng.shuffle(cards)
        shown = self._sees[zone[0]][zone[1]]
        seen = self.seen
        forgotten = [iid for iid in cards if seen[iid] & ~shown]
        if forgotten:
            self._forget(forgotten, shown)

    def _forget(self, iids: list[int], shown: int) -> None:
        """The seats outside ``shown`` that knew ``iids`` forget which is which, and note
        this shuffle's number for them in ``lost``."""
        self.shuffles += 1
        lost = self.lost = dict(self.lost)  # replaced, not changed: copies share it
        seen, nobody = self.seen, (0,) * self.num_players
        for iid in iids:
            forgets = seen[iid] & ~shown
            lost[iid] = tuple(
                self.shuffles if forgets >> seat & 1 else number
                for seat, number in enumerate(lost.get(iid, nobody))
            )
            seen[iid] &= shown

    def reveal(self, iid: int, seats: int) -> None:
        """The seats in mask ``seats`` learn which card ``iid`` is (a card shown)."""
        self.seen[iid] |= seats
        if iid in self.concealed and self.seen[iid] == (1 << self.num_players) - 1:
            self.concealed.discard(iid)

    def touch(self) -> None:
        """Say that something continuous effects depend on changed, besides zones."""
        self.version += 1

    def _land(self, iid: int, name: str, owner: int, seen_by: int | None = None) -> None:
        zone_sees = self._sees[name][owner]
        if seen_by is None:
            self.seen[iid] |= zone_sees
            if self.concealed:
                self.concealed.discard(iid)
        else:
            self.seen[iid] |= seen_by
            if zone_sees & ~self.seen[iid]:
                self.concealed.add(iid)
            else:
                self.concealed.discard(iid)
        if name in self._lasting:
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
        other.cards = self.cards  # shared: both are replaced, never changed in place
        other.owners = self.owners
        other.seen = self.seen[:]
        other.concealed = set(self.concealed)
        other.version = self.version
        other.lost = self.lost
        other.shuffles = self.shuffles
        other._sees = self._sees
        other._lasting = self._lasting
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


@functools.cache
def _layout(
    num_players: int, specs: tuple[ZoneSpec, ...]
) -> tuple[dict[str, ZoneSpec], dict[str, list[int]], frozenset[str]]:
    """What a table of these zones derives from their specs, worked out once per game:
    specs by name, the masks of seats that see each zone, the lasting zones."""
    names = [spec.name for spec in specs]
    if len(set(names)) != len(names):
        raise ValueError(f"zone names must be unique: {names}")
    everyone = (1 << num_players) - 1
    sees = {
        spec.name: _sees_mask(spec.visibility, everyone, spec.shared, num_players) for spec in specs
    }
    return {s.name: s for s in specs}, sees, frozenset(s.name for s in specs if s.lasting)


def _empty(spec: ZoneSpec) -> list[Any]:
    return [] if spec.slots is None else [None] * spec.slots


def _sees_mask(visibility: Visibility, everyone: int, shared: bool, players: int) -> list[int]:
    owners: Iterable[int] = range(1 if shared else players)
    if visibility is Visibility.PUBLIC:
        return [everyone for _ in owners]
    if visibility is Visibility.OWNER:
        return [1 << owner for owner in owners]
    return [0 for _ in owners]
