"""Cards and zones: the physical cards of a position, where each one is, and who has seen it.

A card *definition* is data (a pool entry, shared and immutable); a card *instance* is one
physical card, named by an instance id (``iid``, an int) that follows it across zones. A
``Table`` holds, per instance, its definition, its owner and the seats that have seen it,
and the zones: lists of instance ids (or, in zones of cards in play, ``Permanent`` objects
that carry an iid and the marks play leaves on the card).

Moving a card is one operation (``Table.move``) that also records who sees it where it
lands: a card revealed once stays known to those who saw it, which is what
``hidden.redeal`` needs to re-deal only what an observer cannot identify.

What a cache may key on is the table's too, so that no rule has to say what it changed:
``Table.version`` counts the changes of the cards in play (for figures computed from them),
``Table.stamps`` and ``Table.slot_stamps`` name each zone's and slot's contents as they are
(for views cached across positions). Both move with every operation of the table and with
every change of a counted mark of a card in play (``Marked``), hand edits included.
Stamps cost a little at every move, so only the zones a game declares ``stamped`` (those
its caches read) have them: reading the stamp of another zone is a ``KeyError``, never a
stamp that does not move.
"""

from __future__ import annotations

import enum
import functools
import itertools
import random
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

_STAMPS = itertools.count(1)
"""Where every table's stamps come from: never the same number twice in a process."""

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
    ``lasting`` zones hold the cards whose continuous effects a game caches figures of
    (``continuous.statics_in`` reads only these; flag in-play zones too where their cards
    have any): a card moving in or out of one, or a counted mark of one changing, moves
    ``Table.version``; moves between other zones (a draw, a discard) do not, so figures
    cached from the cards in play stay valid. A game that caches no figure on the version
    declares none, and its moves and marks skip counting it.
    ``lies_on`` names the slotted zone whose slots this zone's cards lie on (cards attached
    to the cards or places of a board): a change here is one of that zone too, at the slot
    the card lies at (``Permanent.lies_at``), so views of a slot are keyed by its stamp alone.
    ``stamped`` zones have stamps (``Table.stamps``, and ``Table.slot_stamps`` when slotted),
    for the games whose caches read them; a zone lying on another is stamped as that one is.
    """

    name: str
    visibility: Visibility
    shared: bool = False
    slots: int | None = None
    in_play: bool = False
    lasting: bool = False
    lies_on: str | None = None
    stamped: bool = False

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
            _set(other, name, getattr(self, name))  # a copy changes no mark
        return other

    def lies_at(self) -> int | None:
        """In a zone that lies on another (``ZoneSpec.lies_on``), the slot of that zone this
        card lies at; ``None`` (the default): it bears on every slot of its owner's."""
        return None


_UNSET = object()
_set = object.__setattr__


class Marked(Permanent):
    """A card in play whose marks named in ``COUNTED`` (those views and figures read) are
    tracked: a change of one, by a rule or by hand, is a change of the table it lies on, as
    a card coming or going is (``Table.version`` in a lasting zone, the stamps of its zone
    and slot, ``Table.mark_writes``). A mark written as it was changes nothing, nor does
    one set while the card lies on no table (as it is made): its coming onto one counts.

    Every attribute write of such a card runs Python code, so each subclass gets its own
    ``__setattr__`` (``_tracking``) with its ``COUNTED`` bound in: reading a class
    attribute through the card would cost a write more than the rest of its test."""

    __slots__ = ("table", "at")
    COUNTED: frozenset[str] = frozenset()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.__setattr__ = _tracking(cls.COUNTED)  # type: ignore[method-assign]

    def __init__(self, iid: int, card: Any) -> None:  # no mark is counted yet: set directly
        _set(self, "iid", iid)
        _set(self, "card", card)
        _set(self, "table", None)
        """The ``Table`` it lies on (``None``: on none), set by the table."""
        _set(self, "at", None)
        """Where on it: (zone name, owner, slot or ``None``, whether the zone is lasting,
        whether it is stamped, whether a change renews that slot alone), set by the table."""

    def __setstate__(self, state: tuple[None, dict[str, Any]]) -> None:
        """Unpickled (or deep-copied): every slot as it was, no mark counted."""
        for name, value in state[1].items():
            _set(self, name, value)


def _tracking(counted: frozenset[str]) -> Callable[[Marked, str, object], None]:
    """``Marked.__setattr__`` for a class whose counted marks are ``counted``."""

    def __setattr__(self: Marked, name: str, value: object) -> None:
        table = self.table
        if table is not None and name in counted and getattr(self, name, _UNSET) != value:
            zone, owner, slot, lasting, stamped, alone = self.at
            table.mark_writes.count += 1
            if lasting:
                table.version += 1
            if alone:  # ``Table._renew``'s quick path: marks change often
                table.stamps[zone][owner] = next(_STAMPS)
                table.slot_stamps[zone][owner][slot] = next(_STAMPS)
            elif stamped:
                table._renew(zone, owner, slot)
        _set(self, name, value)

    return __setattr__


class MarkWrites:
    """How many times a counted mark (``Marked.COUNTED``) of a table's cards in play
    changed: a count that only grows with the table and its copies."""

    __slots__ = ("count",)

    def __init__(self, count: int = 0) -> None:
        self.count = count


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
    and of a counted mark of a card in one (``Marked``), and with ``touch``, so that
    figures computed from the cards in play (``continuous``) can be cached until it moves.

    ``stamps[name][owner]`` (and, in a slotted zone, ``slot_stamps[name][owner][slot]``) of
    a ``stamped`` zone is renewed at every change of what the zone (the slot) holds: a card
    coming, going or reordered, a counted mark of one of its cards, a card lying on it
    (``ZoneSpec.lies_on``).
    Stamps are never given twice in a process and a copy keeps its table's until either
    changes, so a view cached by stamps can be shared by every position of a process.
    """

    __slots__ = (
        "num_players", "specs", "zones", "cards", "owners", "seen", "concealed", "version",
        "lost", "shuffles", "stamps", "slot_stamps", "mark_writes", "_sees", "_lasting",
        "_lies_on", "_plain",
    )  # fmt: skip

    def __init__(self, num_players: int, specs: Sequence[ZoneSpec]) -> None:
        self.num_players = num_players
        self.specs, self._sees, self._lasting, self._lies_on, self._plain = _layout(
            num_players, tuple(specs)
        )
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
        self.stamps: dict[str, list[int]] = {
            spec.name: [next(_STAMPS) for _ in self.zones[spec.name]]
            for spec in specs
            if spec.stamped
        }
        self.slot_stamps: dict[str, list[list[int]]] = {
            spec.name: [[next(_STAMPS) for _ in range(spec.slots)] for _ in self.zones[spec.name]]
            for spec in specs
            if spec.stamped and spec.slots is not None
        }
        self.mark_writes = MarkWrites()

    def with_next_card(self, iid: int, pool: Sequence[Any]) -> None:
        """Make instance ``iid`` the next card of ``pool`` (by index, wrapping): a position that
        differs from this one in a single card's identity, as a game's public-fact variants
        need. ``cards`` is shared with copies, so it is replaced, not edited."""
        cards = list(self.cards)
        cards[iid] = pool[(cards[iid].index + 1) % len(pool)]
        self.cards = cards
        self.touch()  # wherever it lies, what caches read of it changed

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
            self._renew(zone, where)
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
        self._renew(zone, owner)
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
        name, owner = source
        zone = self.zones[name][owner]
        slot = None
        if self.specs[name].slots is None:
            zone.remove(entry)
        else:
            slot = zone.index(entry)
            zone[slot] = None
        if name in self._lasting:
            self.version += 1
        self._leaves(entry, name, owner, slot)

    def pop(self, source: tuple[str, int], index: int = -1) -> Entry:
        """Take the entry at ``index`` out of list zone ``source`` (a card in hand about to
        be played); put it somewhere with ``put`` before the position is done."""
        name, owner = source
        entry = self.zones[name][owner].pop(index)
        if name in self._lasting:
            self.version += 1
        if type(entry) is not int:
            self._leaves(entry, name, owner, None)
        elif name in self._plain:  # ``_renew``'s quick path
            self.stamps[name][owner] = next(_STAMPS)
        elif name in self.stamps:
            self._renew(name, owner)
        return entry

    def put(
        self, entry: Entry, target: tuple[str, int], position: int | None = None,
        *, seen_by: int | None = None,
    ) -> None:  # fmt: skip
        """Put ``entry`` (not in any zone) into ``target``; see ``move``."""
        name, owner = target
        zone = self.zones[name][owner]
        slot = None
        if self.specs[name].slots is not None:
            slot = zone.index(None) if position is None else position
            if zone[slot] is not None:
                raise ValueError(f"zone {name!r} of {owner}: slot {slot} is taken")
            zone[slot] = entry
        elif position is None:
            zone.append(entry)
        else:
            zone.insert(position, entry)
        if type(entry) is int:  # iid_of, inlined: every move
            self._land(entry, name, owner, seen_by)
            if name in self._plain:  # ``_renew``'s quick path
                self.stamps[name][owner] = next(_STAMPS)
            elif name in self.stamps:
                self._renew(name, owner)
            return
        self._land(entry.iid, name, owner, seen_by)
        if slot is None:
            slot = entry.lies_at()
        stamped = name in self.stamps
        if isinstance(entry, Marked):
            _set(entry, "table", self)
            alone = stamped and slot is not None and name not in self._lies_on
            _set(entry, "at", (name, owner, slot, name in self._lasting, stamped, alone))
        if stamped:
            self._renew(name, owner, slot)

    def take(self, source: tuple[str, int], index: int, target: tuple[str, int]) -> int:
        """Move the card at ``index`` of list zone ``source`` (``-1``: its top, the last)
        to the end of list zone ``target``; returns its iid. The quick path of ``move`` for
        draws and discards, with the same bookkeeping."""
        name, owner = source
        iid = self.zones[name][owner].pop(index)
        self.zones[target[0]][target[1]].append(iid)
        if name in self._lasting:
            self.version += 1
        self._land(iid, target[0], target[1])
        plain, stamps = self._plain, self.stamps
        for zone, who in (source, target):  # ``_renew``, its quick path inlined: every draw
            if zone in plain:
                stamps[zone][who] = next(_STAMPS)
            elif zone in stamps:
                self._renew(zone, who)
        return iid

    def take_all(self, source: tuple[str, int], target: tuple[str, int]) -> None:
        """Move every card of list zone ``source`` to the end of list zone ``target``, in
        order (a discard pile turned over into a new deck): ``take`` for each, at once."""
        cards = self.zones[source[0]][source[1]]
        moved = cards[:]
        cards.clear()
        self.zones[target[0]][target[1]].extend(moved)
        if moved and source[0] in self._lasting:
            self.version += 1
        for iid in moved:
            self._land(iid, *target)
        self._renew(*source)
        self._renew(*target)

    def shuffle(self, zone: tuple[str, int], rng: random.Random) -> None:
        """Shuffle a list zone. Afterwards nobody can tell which of its cards is which
        beyond what the zone shows, so every seat the zone hides them from forgets them (a
        card shown and shuffled back into a deck is one of the deck's unknown cards again).
        A shuffle forgets order, not membership: the cards a seat forgets here stay a
        multiset it knows (``lost``), which ``hidden.redeal`` keeps together.
        """
        cards = self.zones[zone[0]][zone[1]]
        rng.shuffle(cards)
        self._renew(*zone)
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
        """Say that something changed that no operation of the table made (a card's
        definition, a zone edited by hand): ``version`` grows and every stamp is renewed."""
        self.version += 1
        for owned in self.stamps.values():
            owned[:] = [next(_STAMPS) for _ in owned]
        for slotted in self.slot_stamps.values():
            for slots in slotted:
                slots[:] = [next(_STAMPS) for _ in slots]

    def _leaves(self, entry: Entry, name: str, owner: int, slot: int | None) -> None:
        """``entry`` left zone ``(name, owner)`` (from ``slot`` of a slotted zone)."""
        if type(entry) is int:
            self._renew(name, owner)
            return
        if isinstance(entry, Marked):
            _set(entry, "table", None)
        if name in self.stamps:
            self._renew(name, owner, entry.lies_at() if slot is None else slot)

    def _renew(self, name: str, owner: int, slot: int | None = None) -> None:
        """New stamps for zone ``(name, owner)``: for ``slot`` of a slotted zone, or all its
        slots when ``None``; and for the zone it lies on (``ZoneSpec.lies_on``), at the
        same slot, every owner's when it is shared. Nothing for an unstamped zone."""
        stamps = self.stamps.get(name)
        if stamps is None:
            return
        stamps[owner] = next(_STAMPS)
        if name in self._plain:
            return
        slotted = self.slot_stamps.get(name)
        if slotted is not None:
            if slot is None:
                slotted[owner] = [next(_STAMPS) for _ in slotted[owner]]
            else:
                slotted[owner][slot] = next(_STAMPS)
        under = self._lies_on.get(name)
        if under is not None:
            if self.specs[name].shared:
                for other in range(len(self.stamps[under])):
                    self._renew(under, other)
            else:
                self._renew(under, owner, slot)

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
                [[_copied(e, other) for e in z] for z in owned]
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
        other.stamps = {name: owned[:] for name, owned in self.stamps.items()}
        other.slot_stamps = {
            name: [slots[:] for slots in slotted] for name, slotted in self.slot_stamps.items()
        }
        other.mark_writes = MarkWrites(self.mark_writes.count)
        other._sees = self._sees
        other._lasting = self._lasting
        other._lies_on = self._lies_on
        other._plain = self._plain
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


def _copied(entry: Entry, table: Table) -> Entry:
    """A card in play copied onto ``table`` (an empty slot stays empty)."""
    if entry is None:
        return None
    other = entry.copy()
    if isinstance(other, Marked):
        _set(other, "table", table)
    return other


@functools.cache
def _layout(
    num_players: int, specs: tuple[ZoneSpec, ...]
) -> tuple[
    dict[str, ZoneSpec], dict[str, list[int]], frozenset[str], dict[str, str], frozenset[str]
]:
    """What a table of these zones derives from their specs, worked out once per game:
    specs by name, the masks of seats that see each zone, the lasting zones, the zones
    lying on another (``ZoneSpec.lies_on``) and the stamped zones with only a stamp per
    owner (neither slotted nor lying on another)."""
    names = [spec.name for spec in specs]
    if len(set(names)) != len(names):
        raise ValueError(f"zone names must be unique: {names}")
    by_name = {s.name: s for s in specs}
    lies_on = {s.name: s.lies_on for s in specs if s.lies_on is not None}
    for name, under in lies_on.items():
        if under not in by_name or by_name[under].slots is None or by_name[under].shared:
            raise ValueError(f"zone {name!r} lies on {under!r}: not a slotted zone per seat")
        if by_name[name].stamped != by_name[under].stamped:
            raise ValueError(f"zone {name!r} lies on {under!r}: stamped as it is, or not")
    everyone = (1 << num_players) - 1
    sees = {
        spec.name: _sees_mask(spec.visibility, everyone, spec.shared, num_players) for spec in specs
    }
    lasting = frozenset(s.name for s in specs if s.lasting)
    plain = frozenset(s.name for s in specs if s.stamped and s.slots is None and s.lies_on is None)
    return by_name, sees, lasting, lies_on, plain


def _empty(spec: ZoneSpec) -> list[Any]:
    return [] if spec.slots is None else [None] * spec.slots


def _sees_mask(visibility: Visibility, everyone: int, shared: bool, players: int) -> list[int]:
    owners: Iterable[int] = range(1 if shared else players)
    if visibility is Visibility.PUBLIC:
        return [everyone for _ in owners]
    if visibility is Visibility.OWNER:
        return [1 << owner for owner in owners]
    return [0 for _ in owners]
