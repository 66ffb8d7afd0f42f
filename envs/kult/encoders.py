"""Kult observation encoders: one seat's view (KU-11.1) as float32 arrays.

Both read only what the observing seat may see: every Mystic Cross (cards face up or down,
tokens, Influences), the Hubs' tokens and Influences, the Pool and its Influences, every
seat's keys now (permanent and temporary), hand, deck and discard sizes, the discard piles,
the phase, the Commands window, the fight and the last decided one; of the hands only the
observer's own, by card; of the decks only the observer's own unseen cards as counts
(its deck list less what it has seen: never the deck's order, never a Hub card).

Seats are relative to the observer: seat block 0 is the observer, then the next seats in
turn order, so shapes depend on the number of players (``shape(game)``). Every card row
carries the card's features from the data (kind, allegiance, cost, colours, combat value,
holding limit, stations, and its effects and modifiers counted per vocabulary primitive),
so a new card or primitive needs no new encoder code.

The entity encoder is a matrix: one row per station of every cross (seat-major), one per
hand slot, rows holding the table and seat figures flattened, then rows holding per-card
counts of every discard pile and of the observer's unseen cards flattened. The flat encoder
is the table and seat figures, the same card rows flattened, then the same counts.
"""

from __future__ import annotations

import itertools
import math
import struct
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from tabletop.envs.core.cards.encoding import magnitude
from tabletop.envs.core.layout import stack_layout
from tabletop.envs.kult import crosses
from tabletop.envs.kult.actions import CAST, MAX_HAND, NUM_COLOURS, STATIONS
from tabletop.envs.kult.cards import ATTACH, INTO, NEUTRAL, Arcanum, Card, Pool, load_pool
from tabletop.envs.kult.combat import Fight
from tabletop.envs.kult.effects import BEFORE_RECRUIT, COLOURS, FIGHT, VOCAB
from tabletop.envs.kult.turns import OVER, PHASE_NAMES
from tabletop.envs.kult.zones import ATTACKING, DEFENDING, INVOKED, RECRUITED

if TYPE_CHECKING:
    from tabletop.envs.kult.engine import KultGame, KultState
    from tabletop.envs.kult.zones import Attachment

KINDS = ("place", "being", "spell", "influence", "command")
TIMINGS = ("any time", "fight", "recruit window")
FIGHT_RESULTS = ("attacker", "defender", "tie", "cancelled")
TURN_MARKS = (RECRUITED, INVOKED, ATTACKING, DEFENDING)
"""The marks of the turn a station row shows (``KultState.station_marks``), in its column
order."""
STATIC_NAMES = tuple(VOCAB.statics)
"""The vocabulary's continuous effects (combat, holds, keys): one column each."""
EFFECT_COLUMNS = tuple(
    (event.name, primitive.name, selector)
    for event in VOCAB.events.values()
    for primitive in VOCAB.primitives.values()
    for selector in (primitive.selectors or ("",))
)
"""(trigger event, primitive, selector): one column per combination, the effects of that
kind the card lists under that event, weighted by their size (``encoding.magnitude``, signed)."""


def _effect_name(column: tuple[str, str, str]) -> str:
    event, primitive, selector = column
    return f"{event} {primitive}" + (f" to {selector}" if selector else "")


def _static_features_names(allegiances: Sequence[str]) -> tuple[str, ...]:
    return (
        *(f"kind {k}" for k in KINDS), "neutral", *(f"allegiance {a}" for a in allegiances),
        *(f"cost {c} / 3" for c in COLOURS), *(f"gives {c}" for c in COLOURS),
        "combat / 5", "holds / 3", "unique", *(f"into {i}" for i in INTO),
        *(f"attach {a}" for a in ATTACH), *(f"may occupy station {s + 1}" for s in range(8)),
        *(f"timing {t}" for t in TIMINGS), *(f"modifier {s} / 3" for s in STATIC_NAMES),
        *(f"modifier keys {c}" for c in COLOURS), *(_effect_name(c) for c in EFFECT_COLUMNS),
        *(f"{e} keys {c}" for e in VOCAB.events for c in COLOURS),
    )  # fmt: skip


def _position_names(players: int) -> tuple[str, ...]:
    return (
        "in a cross",
        "in hand",
        *(f"controller seat +{k}" for k in range(players)),
        *(f"station {s + 1}" for s in range(STATIONS)),
    )


def _dynamic_names(players: int) -> tuple[str, ...]:
    return (
        "face up", "tokens / 3", "holding limit now / 3", "combat value now / 5",
        *(f"owner seat +{k}" for k in range(players)), "Influences on it / 3",
        "their combat / 3", "their holds / 3", "station Influences / 3",
        "recruited onto this turn", "push ability used this turn", "attacking", "defending",
        "playable now (own hand: allegiance, keys, unique)",
    )  # fmt: skip


def _allegiances(pool: Pool) -> tuple[str, ...]:
    return tuple(dict.fromkeys(a.allegiance for a in pool.arcana))


class Geometry:
    """Every size and offset of both encoders for one pool and player count, and the
    parts they write that are fixed by the data (as float32 bytes), built once per
    (pool, players) and cached: the encoders run on every env step."""

    def __init__(self, pool: Pool, players: int) -> None:
        self.pool = pool
        self.players = players
        self.allegiances = _allegiances(pool)
        self.static_names = _static_features_names(self.allegiances)
        self.position_names = _position_names(players)
        self.dynamic_names = _dynamic_names(players)
        self.P = len(self.position_names)
        self.C = len(self.static_names)
        self.D = len(self.dynamic_names)
        self.width = self.P + self.C + self.D
        self.cross_rows = players * STATIONS
        self.card_rows = self.cross_rows + MAX_HAND
        self.table_features = _table_features(pool, players)
        self.table_size = sum(size for _, size, _ in self.table_features)
        self.seat_size = seat_size(len(pool.arcana))
        self.head_sizes = (
            3 + len(PHASE_NAMES) + 1, 3 + len(CAST) + 2 * STATIONS, 1 + players,
            2 * players + 2 * len(CAST) + 5, len(FIGHT_RESULTS) + 2, len(STATIC_NAMES) + 1,
        )  # fmt: skip
        """The sizes of the table features' parts before the seat blocks: what changes
        every step (Pool tokens, the game, the phase, who decides), the turn, a token
        stepping out, the fight, the last fight, the Pool's Influences."""
        self.table_rows = -(-self.table_size // self.width)
        self.counts = len(pool.cards)
        self.flat_size = self.table_size + self.card_rows * self.width + (players + 1) * self.counts
        self.count_rows = -(-(players + 1) * self.counts // self.width)
        """Rows of the entity matrix holding the counts (every discard pile, the unseen)."""
        self.static = self._static_rows()
        self.static_bytes = [row.tobytes() for row in self.static]
        """``static[card.index]`` as float32 bytes: the start of a station's row."""
        self.owner_column = self.C + 4
        """Where a station row without its position columns has its owner columns."""
        self.turn_at = 4 * (self.C + self.dynamic_names.index("recruited onto this turn"))
        """The byte where it has its columns of the marks of the turn (``TURN_MARKS``)."""
        self.turn_bytes = [
            _pack([float(bool(bits & mark)) for mark in TURN_MARKS])
            for bits in range(1 << len(TURN_MARKS))
        ]
        """Those columns by the station's marks (bits)."""
        self.positions = self._positions()
        self.state_struct = struct.Struct(f"{self.D}f")
        """Packs a station row's state columns (``StationEntry``)."""
        self.seat_cache: dict[int, SeatView] = {}
        """``WorkingCopy._cross``' cache: a seat's view by the kit's stamp of its cross."""
        self.station_cache: dict[int, StationEntry] = {}
        """``SeatView``'s cache: a station's entry by the kit's stamp of the station."""
        self._empty_rows: dict[int, bytes] = {}
        self.row_cache: dict[tuple, bytes] = {}
        """``station_entry``'s cache: a station's row (without position and owner columns)
        by the card and what its state columns are read from: positions repeat a card's
        row far more often than they keep its station's stamp."""
        self.turn_cache: dict[tuple, bytes] = {}
        """``_turn_values``' cache: by what the active seat did this turn."""
        self.pool_cache: dict[tuple[int, ...], bytes] = {}
        """``_pool_values``' cache: by the pool indices of the Pool's Influences, in order."""
        self.index_cache: dict[int, CardIndex] = {}
        """``card_index``' cache: by ``id`` of a ``Table.cards`` list."""
        self.hand_slot_rows = self._hand_slot_rows()
        self.no_hand_slot = bytes(4 * self.width)
        """An empty hand slot's row (a hand's rows have no slot column)."""
        self.phase_one_hot = [
            _pack([float(p == phase) for p in range(len(PHASE_NAMES))])
            for phase in range(len(PHASE_NAMES))
        ]
        self.no_stepping, self.no_fight, self.no_last_fight, self.no_pool = (
            bytes(4 * size) for size in self.head_sizes[2:]
        )
        """The parts of the table features while nothing is on: one object each, written
        once (``WorkingCopy._table``)."""
        self.stepping = [
            _pack((1.0, *(float(seat == k) for k in range(players)))) for seat in range(players)
        ]
        """The ``stepping_out`` part by the seat whose choice it is, relative to the
        observer."""
        self.last_fight_cache: dict[tuple, bytes] = {}
        """``_last_fight_values``' cache: by the fight's result and values, one object
        while the last fight stays."""
        self.allowed = {
            allegiance: frozenset(
                card.index for card in pool.cards if card.allegiance in (NEUTRAL, allegiance)
            )
            for allegiance in self.allegiances
        }
        """Pool indices of the cards an Arcanum of each allegiance may play: Neutral or
        its own (KU-4.4)."""
        self.costs = [card.cost for card in pool.cards]
        self.modifiers = [
            (
                _static_amount(card.static("combat")),
                _static_amount(card.static("holds")),
                _colour_counts(getattr(card.static("keys"), "colours", ())),
            )
            for card in pool.cards
        ]
        """``modifiers[card.index]``: an Influence's combat and holds modifiers and the keys
        it gives (counts per colour)."""
        self.arcanum_values = {
            arcanum.name: [float(a is arcanum) for a in pool.arcana]
            + [arcanum.hierarchy / 20, arcanum.hand_size / 7]
            for arcanum in pool.arcana
        }
        """The fixed end of a seat block per Arcanum: its one-hot, Hierarchy, hand size."""
        self.bare_tails = {
            name: _pack((0.0, 0.0, *values)) for name, values in self.arcanum_values.items()
        }
        """A seat block's tail without Influences on its cross (``_influence_figures``)."""
        self.static_amounts = [
            tuple(_static_amount(card.static(name)) for name in STATIC_NAMES) for card in pool.cards
        ]
        """``static_amounts[card.index]``: its amount of every ``STATIC_NAMES`` modifier."""
        self.unique = frozenset(card.index for card in pool.cards if card.unique)
        """Pool indices of the unique cards (KU-3.5)."""

    def empty_row(self, station_influences: int) -> bytes:
        """The row (without position columns) of an empty station with
        ``station_influences`` on it: one object for all, so that a station that stays
        empty is never written again."""
        row = self._empty_rows.get(station_influences)
        if row is None:
            values = np.zeros(self.C + self.D, dtype=np.float32)
            values[self.C + 7 + self.players] = station_influences / 3
            row = self._empty_rows[station_influences] = values.tobytes()
        return row

    def _positions(self) -> np.ndarray:
        """The position columns of the cross rows: in a cross, the seat, the station."""
        positions = np.zeros((self.cross_rows, self.P), dtype=np.float32)
        for k in range(self.players):
            for station in range(STATIONS):
                row = k * STATIONS + station
                positions[row, 0] = 1.0
                positions[row, 2 + k] = 1.0
                positions[row, 2 + self.players + station] = 1.0
        return positions

    def _hand_slot_rows(self) -> list[tuple[bytes, bytes]]:
        """Per pool card, the row of a hand slot holding it, not playable now and
        playable: any slot's (``WorkingCopy._hand``)."""
        rows = np.zeros((len(self.pool.cards), 2, self.width), dtype=np.float32)
        rows[:, :, self.P : self.P + self.C] = self.static[:, None, :]
        dyn = self.P + self.C
        rows[:, :, 1] = 1.0  # in hand
        rows[:, :, 2] = 1.0  # controller seat +0
        rows[:, :, dyn + 4] = 1.0  # owner seat +0
        rows[:, 1, dyn + 12 + self.players] = 1.0  # playable now
        return [(card[0].tobytes(), card[1].tobytes()) for card in rows]

    def _static_rows(self) -> np.ndarray:
        """``static[card.index]``: the card's ``static_features`` (one row per pool card)."""
        rows = np.zeros((len(self.pool.cards), self.C), dtype=np.float32)
        for card in self.pool.cards:
            rows[card.index] = static_features(card, self.allegiances)
        return rows


def _pack(values: Sequence[float]) -> bytes:
    """``values`` as float32 bytes, as the encodings hold them."""
    return struct.pack(f"{len(values)}f", *values)


_GEOMETRIES: dict[tuple[int, int], tuple[Pool, Geometry]] = {}


def geometry(pool: Pool, players: int) -> Geometry:
    """The cached ``Geometry`` of ``pool`` with ``players`` seats."""
    cached = _GEOMETRIES.get((id(pool), players))
    if cached is None or cached[0] is not pool:
        cached = _GEOMETRIES[id(pool), players] = (pool, Geometry(pool, players))
    return cached[1]


def static_features(card: Card, allegiances: Sequence[str]) -> list[float]:
    """The card's features from the data, in ``Geometry.static_names`` order."""
    statics = dict(card.statics)
    effects = {column: 0.0 for column in EFFECT_COLUMNS}
    colours = {(e, c): 0.0 for e in VOCAB.events for c in COLOURS}
    for event, listed in card.triggers.items():
        for effect in listed:
            effects[event, effect.do, effect.to] += magnitude(effect.params, signed=True)
            for colour in getattr(effect.params, "colours", ()) or ():
                colours[event, colour] += 1.0
    static_keys = getattr(statics.get("keys"), "colours", ()) or ()
    return [
        *(float(card.kind == kind) for kind in KINDS),
        float(card.allegiance == NEUTRAL),
        *(float(card.allegiance == a) for a in allegiances),
        *(n / 3 for n in card.cost),
        *(float(n) for n in card.colours),
        card.combat / 5,
        card.holds / 3,
        float(card.unique),
        *(float(card.into == i) for i in INTO),
        *(float(card.attach == a) for a in ATTACH),
        *(float(s in card.stations) for s in range(STATIONS)),
        float(card.timing not in (FIGHT, BEFORE_RECRUIT)),
        float(card.timing == FIGHT),
        float(card.timing == BEFORE_RECRUIT),
        *(_static_amount(statics.get(name)) / 3 for name in STATIC_NAMES),
        *(float(static_keys.count(c)) for c in COLOURS),
        *effects.values(),
        *colours.values(),
    ]


def _colour_counts(colours: Sequence[str]) -> tuple[int, ...]:
    return tuple(list(colours).count(colour) for colour in COLOURS)


def _static_amount(params: object) -> float:
    if params is None:
        return 0.0
    amount = getattr(params, "amount", None)
    return float(amount) if amount is not None else _magnitude_of_params(params)


def _magnitude_of_params(params: object) -> float:
    values = params.model_dump().values()  # type: ignore[attr-defined]
    return float(sum(len(v) if isinstance(v, list | tuple) else 1 for v in values))


def _table_features(pool: Pool, players: int) -> list[tuple[str, int, str]]:
    arcana = len(pool.arcana)
    return [
        ("pool_tokens", 1, "tokens in the Pool / tokens in the game"),
        ("game", 2, "Hub target / 10; plies played / ply limit"),
        ("phase", len(PHASE_NAMES), "one-hot: " + ", ".join(PHASE_NAMES)),
        ("deciding", 1, "1 if the observer decides now"),
        ("turn_state", 3 + len(CAST) + STATIONS,
         "the active seat has attacked; an embargo holds; a push ability awaits its paying "
         "push; Cast 5-8 recruited onto this turn; stations 1-8 whose push ability was used"),
        ("pending_push", STATIONS, "one-hot: the station whose push ability awaits its push"),
        ("stepping_out", 1 + players,
         "a token of a Scene card that left play awaits the Cast card it steps out to "
         "(KU-8.1); whose choice it is: seat one-hot"),
        ("fight", 2 * players + 2 * len(CAST) + 5,
         "the fight being decided: attacker seat one-hot, attacker Cast one-hot, defender "
         "seat one-hot, defender Cast one-hot, Commands' bonus to attacker and defender / 5, "
         "cancelled, combat values now / 5 (attacker, defender)"),
        ("last_fight", len(FIGHT_RESULTS) + 2,
         "the last decided fight: result one-hot (" + ", ".join(FIGHT_RESULTS)
         + "), compared values / 5"),
        ("pool_influences", len(STATIC_NAMES) + 1,
         "Influences on the Pool: count / 3, then their " + ", ".join(STATIC_NAMES)
         + " modifiers / 3"),
        ("seats", players * seat_size(arcana),
         f"{players} seat blocks of {seat_size(arcana)}, the observer's first, then in turn "
         "order (seat layout)"),
    ]  # fmt: skip


SEAT_FEATURES = (
    ("active", 1, "1 if it is this seat's turn"),
    ("responder", 1, "1 if this seat answers in the open Commands window"),
    ("hub", 1, "Hub tokens / Hub target"),
    ("tokens", 2, "tokens on Scene cards / 4, on Cast cards / 4"),
    ("keys", NUM_COLOURS, "keys controlled now per colour / 4 (permanent and temporary)"),
    ("temp_keys", NUM_COLOURS, "temporary keys this turn per colour / 4"),
    ("sizes", 3, "hand size / 10, deck size / 30, discard pile size / 30"),
    ("hub_influences", 2, "Influences on the Hub: combat modifier / 3, keys they give / 3"),
    ("arcanum", None, "the seat's Arcanum, one-hot over the pool's Arcana"),
    ("arcanum_figures", 2, "its Hierarchy / 20, its hand size / 7"),
)  # fmt: skip


def seat_size(arcana: int) -> int:
    return sum(arcana if size is None else size for _, size, _ in SEAT_FEATURES)


def seat_layout(pool: Pool | None = None) -> list[tuple[str, slice, str]]:
    """(feature, slice, meaning) within one seat block of the ``seats`` table feature."""
    pool = pool if pool is not None else load_pool()
    arcana = len(pool.arcana)
    return stack_layout(
        (name, arcana if size is None else size, meaning) for name, size, meaning in SEAT_FEATURES
    )


def row_layout(pool: Pool | None = None, players: int = 2) -> list[tuple[str, slice, str]]:
    """(part, columns, features) of a card row, shared by both encoders."""
    geo = geometry(pool if pool is not None else load_pool(), players)
    return [
        ("position", slice(0, geo.P), ", ".join(geo.position_names)),
        ("card", slice(geo.P, geo.P + geo.C), ", ".join(geo.static_names)),
        ("state", slice(geo.P + geo.C, geo.width), ", ".join(geo.dynamic_names)),
    ]


def flat_layout(pool: Pool | None = None, players: int = 2) -> list[tuple[str, slice, str]]:
    """(feature, slice, meaning) of every part of the flat vector for ``pool`` (default the
    starter pool) and ``players`` seats: the table of docs/games/kult.md (2 players)."""
    geo = geometry(pool if pool is not None else load_pool(), players)
    parts = [(name, size, meaning) for name, size, meaning in geo.table_features]
    parts += [
        ("cross_rows", geo.cross_rows * geo.width,
         f"{geo.cross_rows} rows of {geo.width} (card row layout): stations 1-8 of each "
         "seat's cross, the observer's first; an empty station has only its position"),
        ("hand_rows", MAX_HAND * geo.width,
         f"{MAX_HAND} rows of {geo.width}: the observer's hand slots"),
        ("discard_counts", players * geo.counts,
         "copies of each pool card in each seat's discard pile / 3, the observer's first"),
        ("unseen_counts", geo.counts,
         "copies of each pool card the observer has not seen of its own deck list (its "
         "deck and Hub card together) / 3"),
    ]  # fmt: skip
    return stack_layout(parts)


FLAT_SIZE = flat_layout()[-1][1].stop
"""Length of the flat vector with the starter pool and 2 players; ``FlatEncoder.shape``
gives any pool's and player count's."""


# ----- filling ------------------------------------------------------------------------------
#
# Every part is held and written as float32 bytes: a cached part is copied into the vector
# by a slice assignment (a memcpy), figures computed at a step are packed straight into it
# (``struct``); both round a Python float to float32 as NumPy does.

CACHE_SEATS = True
"""Reuse what an observation is made of while everything it is read from is unchanged: a
seat's view (by the kit's stamp of its cross, ``Table.stamps``), a station's entry (by
the stamp of the station, ``Table.slot_stamps``) and row (by what it shows), a discard
pile's counts, the unseen counts, and each observer's last encoding of a position; off,
every view is computed afresh (a test compares the two)."""
CACHE_SIZE = 1024
"""Cached entries per cache of a geometry; a cache is emptied when it is full. A few times
what the positions in play use (per position its seats' views and 8 stations each: 32
positions of 4 seats fill it), no more: every cached object is one more for the garbage
collector to traverse, and with 4096 an env step took twice as many collections."""

_CAST_START = CAST.start
_BLOCK_BODY = struct.Struct(f"{2 + 2 * NUM_COLOURS}f")
"""Packs a seat block's tokens, keys and temporary keys."""
_THREE = struct.Struct("3f")
_NO_TEMP = (0.0,) * NUM_COLOURS


class StationEntry:
    """A station's row but for its position and owner columns (float32 bytes), and what
    the seat figures take from it: its tokens, the colours of a face-up Place (else
    ``None``), the card's owner and pool index (-1 for an empty station). The owner
    columns depend on the observer: ``WorkingCopy._cross`` sets the one of the owner
    relative to its observer after writing the row."""

    __slots__ = ("row", "tokens", "colours", "owner", "index")

    def __init__(
        self, row: bytes, tokens: int, colours: tuple[int, ...] | None, owner: int, index: int
    ) -> None:
        self.row = row
        self.tokens, self.colours, self.owner, self.index = tokens, colours, owner, index


_NO_ENTRIES = (StationEntry(b"", 0, None, -1, -1),) * STATIONS
"""What a seat view made afresh derives from (``SeatView``): no station."""
_NO_STAMPS = (None,) * STATIONS


class SeatView:
    """One seat's part of every observer's view, cached with the seat's key: its 8
    stations' entries (each cached with its station's key) and the figures the seat
    block and the playable marks read of it (tokens in the Scene and the Cast, the
    permanent keys as ``crosses.permanent_keys`` counts them, the Hub Influences and the
    Arcanum, the cards in play). Holding limits and combat values are summed as
    ``crosses.holding_limit`` and ``crosses.combat_value`` sum them (a test holds rows and
    keys equal to the engine's figures).

    A view is derived from the seat's ``previous`` view when there is one (the last one
    an observer wrote): only the stations whose keys changed are read, the sums move by
    what they changed, and the Influences' figures are kept while the same Influences lie
    on the cross. What it keeps is in tuples, not lists: the cache holds thousands of
    views, and the garbage collector stops tracking a tuple of numbers or bytes, where
    every list would be traversed again at each collection."""

    __slots__ = (
        "stamp", "stamps", "entries", "arcanum", "attached", "influence_keys", "tail",
        "scene", "cast", "places", "permanent", "body", "indices",
    )  # fmt: skip

    def __init__(
        self, state: KultState, seat: int, geo: Geometry, previous: SeatView | None
    ) -> None:
        self.stamp = state.table.stamps["cross"][seat]
        """The kit's stamp of the seat's cross it was read with."""
        self.arcanum = arcanum = state.arcana[seat]
        influences = state.influences[seat]
        self.attached = attached = tuple([a.card.index for a in influences])
        """Pool indices of the Influences on this cross (``holds``)."""
        if previous is not None and previous.arcanum is arcanum and previous.attached == attached:
            self.influence_keys, self.tail = previous.influence_keys, previous.tail
        else:
            self.influence_keys, self.tail = _influence_figures(arcanum, influences, geo)
        """``influence_keys``: the Arcanum's keys with those its Influences give;
        ``tail``: the end of its seat block, the Hub Influences' figures and the
        Arcanum's."""
        self.stamps = stamps = tuple(state.table.slot_stamps["cross"][seat])
        if previous is None:
            entries, old_stamps = list(_NO_ENTRIES), _NO_STAMPS
            scene = cast = p0 = p1 = p2 = p3 = p4 = 0
        else:
            entries, old_stamps = list(previous.entries), previous.stamps
            scene, cast = previous.scene, previous.cast
            p0, p1, p2, p3, p4 = previous.places
        cache = geo.station_cache
        for station in range(STATIONS):
            stamp = stamps[station]
            if stamp == old_stamps[station]:
                continue
            entry = cache.get(stamp) if CACHE_SEATS else None
            if entry is None:
                entry = station_entry(state, seat, station, geo)
                if CACHE_SEATS:
                    if len(cache) >= CACHE_SIZE:
                        cache.clear()
                    cache[stamp] = entry
            old = entries[station]
            entries[station] = entry
            if station >= _CAST_START:
                cast += entry.tokens - old.tokens
            else:
                scene += entry.tokens - old.tokens
            if old.colours is not None:
                c0, c1, c2, c3, c4 = old.colours
                p0, p1, p2, p3, p4 = p0 - c0, p1 - c1, p2 - c2, p3 - c3, p4 - c4
            if entry.colours is not None:
                c0, c1, c2, c3, c4 = entry.colours
                p0, p1, p2, p3, p4 = p0 + c0, p1 + c1, p2 + c2, p3 + c3, p4 + c4
        self.entries = tuple(entries)
        self.scene, self.cast, self.places = scene, cast, (p0, p1, p2, p3, p4)
        """Tokens on the Scene and the Cast cards, and the keys the face-up Places give."""
        k0, k1, k2, k3, k4 = self.influence_keys
        k0, k1, k2, k3, k4 = k0 + p0, k1 + p1, k2 + p2, k3 + p3, k4 + p4
        self.permanent = (k0, k1, k2, k3, k4)
        self.body = _BLOCK_BODY.pack(
            scene / 4, cast / 4, k0 / 4, k1 / 4, k2 / 4, k3 / 4, k4 / 4, *_NO_TEMP
        )
        """Its tokens and keys in the seat block while no temporary key is held."""
        self.indices: frozenset[int] | None = None

    def body_with(self, temp: list[int]) -> bytes:
        """Its tokens and keys in the seat block with the temporary keys ``temp``."""
        k0, k1, k2, k3, k4 = self.permanent
        t0, t1, t2, t3, t4 = temp
        return _BLOCK_BODY.pack(
            self.scene / 4, self.cast / 4,
            (k0 + t0) / 4, (k1 + t1) / 4, (k2 + t2) / 4, (k3 + t3) / 4, (k4 + t4) / 4,
            t0 / 4, t1 / 4, t2 / 4, t3 / 4, t4 / 4,
        )  # fmt: skip

    def holds(self, pool_index: int) -> bool:
        """Whether a copy of the pool card lies in this cross or on it (KU-3.5)."""
        if self.indices is None:  # asked for unique cards in hand only: made then, once
            self.indices = frozenset([*self.attached, *(e.index for e in self.entries)])
        return pool_index in self.indices


def _influence_figures(
    arcanum: Arcanum, influences: list[Attachment], geo: Geometry
) -> tuple[tuple[int, ...], bytes]:
    """The Arcanum's keys with those the ``influences`` on its cross give (the Places'
    are added by the stations), and the end of its seat block: the Hub Influences' combat
    modifier and keys given / 3, the Arcanum's figures."""
    if not influences:
        return tuple(arcanum.keys), geo.bare_tails[arcanum.name]
    mods = geo.modifiers
    keys = list(arcanum.keys)
    hub_combat = 0.0
    hub_keys = 0
    for attachment in influences:
        combat, _, given = mods[attachment.card.index]
        if any(given):
            hub_keys += sum(given)
            keys = [k + g for k, g in zip(keys, given, strict=True)]
        if attachment.card.attach == "hub":
            hub_combat += combat
    tail = _pack((hub_combat / 3, hub_keys / 3, *geo.arcanum_values[arcanum.name]))
    return tuple(keys), tail


def station_entry(state: KultState, seat: int, station: int, geo: Geometry) -> StationEntry:
    """The station's entry: its row (card features, state; position, owner and the marks
    of the turn left 0), read with the Influences on its card and on it, on the Hub and on
    the Pool: what the kit's stamp of the station is renewed with."""
    on_card = combat_mod = holds_mod = on_station = 0
    station_combat = station_holds = card_combat = card_holds = hub_bonus = 0
    for attachment in state.influences[seat]:
        card = attachment.card
        attach = card.attach
        if attach == "hub":
            hub_bonus += card.combat_bonus
        elif attachment.station == station:
            if attach == "station":
                on_station += 1
                station_combat += card.combat_bonus
                station_holds += card.holds_bonus
            else:
                combat, holds, _ = geo.modifiers[card.index]
                on_card += 1
                combat_mod += combat
                holds_mod += holds
                card_combat += card.combat_bonus
                card_holds += card.holds_bonus
    base = state.crosses[seat][station]
    if base is None:
        return StationEntry(geo.empty_row(on_station), 0, None, -1, -1)
    pool_combat = pool_holds = 0
    for attachment in state.pool_influences:
        pool_combat += attachment.card.combat_bonus
        pool_holds += attachment.card.holds_bonus
    card = base.card
    face_up = base.face_up
    kind = card.kind
    limit = card.holds + station_holds + (card_holds if face_up else 0)
    if kind == "place" or kind == "being":
        limit += pool_holds
    combat = 0.0
    if kind == "being":
        value = card.combat + station_combat + (card_combat if face_up else 0) + pool_combat
        combat = (value + hub_bonus if station >= _CAST_START else value) / 5
    marks = (on_card, float(combat_mod), float(holds_mod)) if on_card else _NO_MARKS
    key = (card.index, face_up, base.tokens, limit, combat, *marks, on_station)
    row = geo.row_cache.get(key) if CACHE_SEATS else None
    if row is None:
        row = geo.static_bytes[card.index] + geo.state_struct.pack(
            float(face_up), base.tokens / 3, limit / 3, combat,
            *_NO_OWNER[: geo.players],  # the owner, relative to the observer: set later
            marks[0] / 3, marks[1] / 3, marks[2] / 3, on_station / 3,
            *_NO_TURN_MARKS,  # the marks of the turn: set later (``WorkingCopy._mark``)
            0.0,
        )  # fmt: skip
        if CACHE_SEATS:
            if len(geo.row_cache) >= CACHE_SIZE:
                geo.row_cache.clear()
            geo.row_cache[key] = row
    colours = card.colours if face_up and kind == "place" else None
    return StationEntry(row, base.tokens, colours, state.table.owners[base.iid], card.index)


_NO_MARKS = (0, 0.0, 0.0)
_NO_OWNER = (0.0,) * 4
_NO_TURN_MARKS = (0.0,) * len(TURN_MARKS)


def _last_fight_values(last: Fight | None, geo: Geometry) -> bytes:
    """``last_fight``: the result one-hot and the compared values / 5, one object per
    result and values (cached), so that a last fight that stays is not written again."""
    if last is None or last.values is None:
        return geo.no_last_fight
    key = (last.result, last.values)
    values = geo.last_fight_cache.get(key)
    if values is None:
        if len(geo.last_fight_cache) >= CACHE_SIZE:
            geo.last_fight_cache.clear()
        attack, defence = last.values
        values = geo.last_fight_cache[key] = _pack(
            (*(float(last.result == r) for r in FIGHT_RESULTS), attack / 5, defence / 5)
        )
    return values


def _turn_values(turn: tuple, geo: Geometry) -> bytes:
    """``turn_state`` and ``pending_push`` of ``turn`` (whether the active seat attacked,
    an embargo, the pending push, the stations recruited onto and invoked this turn),
    one object per what it shows (cached)."""
    values = geo.turn_cache.get(turn)
    if values is None:
        attacked, embargo, pending, recruited, invoked = turn
        if len(geo.turn_cache) >= CACHE_SIZE:
            geo.turn_cache.clear()
        values = geo.turn_cache[turn] = _pack(
            (
                float(attacked), float(embargo), float(pending is not None),
                *(float(s in recruited) for s in CAST),
                *(float(s in invoked) for s in range(STATIONS)),
                *(float(pending == s) for s in range(STATIONS)),
            )
        )  # fmt: skip
    return values


def _pool_values(state: KultState, geo: Geometry) -> bytes:
    """``pool_influences``: their count / 3, then each static's amounts summed / 3."""
    pool_influences = state.pool_influences
    if not pool_influences:
        return geo.no_pool
    key = tuple([attachment.card.index for attachment in pool_influences])
    values = geo.pool_cache.get(key)
    if values is None:
        totals = [len(key) / 3]
        amounts = geo.static_amounts
        for column in range(len(STATIC_NAMES)):
            total = 0.0
            for index in key:
                total += amounts[index][column]
            totals.append(total / 3)
        if len(geo.pool_cache) >= CACHE_SIZE:
            geo.pool_cache.clear()
        values = geo.pool_cache[key] = _pack(totals)
    return values


def _fight_values(state: KultState, fight: Fight, player: int, players: int) -> bytes:
    """``fight``: the fight being decided, as ``player`` sees its seats."""
    values: list[float] = []
    for seat, station in (fight.attacker, fight.defender):
        values += (float((seat - player) % players == k) for k in range(players))
        values += (float(station == s) for s in CAST)
    attack = crosses.combat_value(state, *fight.attacker) + fight.bonus[0]
    defence = crosses.combat_value(state, *fight.defender) + fight.bonus[1]
    values += (fight.bonus[0] / 5, fight.bonus[1] / 5, float(fight.cancelled))
    values += (attack / 5, defence / 5)
    return _pack(values)


def _in_play(state: KultState, views: list[SeatView], pool_index: int) -> bool:
    """Whether a copy of the pool card lies in play anywhere (``plays.in_play``)."""
    for view in views:
        if view.holds(pool_index):
            return True
    return any(a.card.index == pool_index for a in state.pool_influences)


class CardIndex:
    """Each instance's pool index in one ``Table.cards`` list (copies share it; the engine
    replaces it, never edits it). The cache names the list by ``id`` and keeps it, so
    that the id stays its own."""

    __slots__ = ("cards", "of")

    def __init__(self, cards: list[Card]) -> None:
        self.cards = cards
        self.of = [card.index for card in cards]


def card_index(geo: Geometry, cards: list[Card]) -> CardIndex:
    """The ``CardIndex`` of a ``Table.cards`` list (cached)."""
    cached = geo.index_cache.get(id(cards))
    if cached is None or cached.cards is not cards:
        if len(geo.index_cache) >= CACHE_SIZE:
            geo.index_cache.clear()
        cached = geo.index_cache[id(cards)] = CardIndex(cards)
    return cached


class WorkingCopy:
    """An observer's last encoding of one position (``KultState.encodings``, never copied
    with the state), and what each part of it was read from, so that a step reads again
    only what may have changed and writes only what changed. What is read again is told
    by what it is read from: the kit's stamps of the crosses (the seats' views and the
    cross rows), the marks of the turn (``_mark``), the figures of each seat block, the
    hand with the keys to pay for it (the hand rows), the kit's stamps of the discard
    piles and the piles (the discard counts), the deck and the Hub card (the unseen
    counts, ``Counts``); a cached part (a station's entry, a part of the table features,
    a hand slot's row) is written only when it is another object than the one written
    there last. The position columns of the cross rows never change: they are written
    once.

    Parts are float32 bytes copied into ``bytes`` (a memoryview of the vector), figures
    are packed into it with ``struct`` or set through ``floats`` (another one)."""

    __slots__ = (
        "vector", "output", "bytes", "floats", "player", "seats", "geo", "at", "written",
        "owner_at", "head_at", "deciding_at", "block_at", "counted", "views", "stamps",
        "marks", "shown", "phase", "turn", "fight", "blocks", "hand", "piles",
    )  # fmt: skip

    def __init__(self, encoder: _Encoder, geo: Geometry, player: int) -> None:
        self.player, self.geo = player, geo
        players = geo.players
        self.seats = tuple((player + k) % players for k in range(players))
        """The seats in the observer's order: itself first, then in turn order."""
        table, rows, counts = encoder.offsets(geo)
        shape = encoder.shape_of(geo)
        self.vector = np.zeros(math.prod(shape), dtype=np.float32)
        self.output = self.vector.reshape(shape)
        """The vector in the encoder's shape (a view of it)."""
        self.bytes = memoryview(self.vector).cast("B")
        self.floats = memoryview(self.vector)
        cross = self.vector[rows : rows + geo.cross_rows * geo.width]
        cross.reshape(geo.cross_rows, geo.width)[:, : geo.P] = geo.positions
        stations = [rows + row * geo.width + geo.P for row in range(geo.cross_rows)]
        self.owner_at = [start + geo.owner_column for start in stations]
        """Float index of each station row's first owner column."""
        head = list(itertools.accumulate(geo.head_sizes, initial=table))
        self.head_at = 4 * head[0]
        self.deciding_at = head[1] - 1
        """Float index of ``deciding``."""
        self.block_at = [4 * (head[-1] + k * geo.seat_size) for k in range(players)]
        hand = rows + geo.cross_rows * geo.width
        starts = [*stations, *head[1:-1], *(hand + slot * geo.width for slot in range(MAX_HAND))]
        self.at = [4 * start for start in starts]
        """Byte offset of each cached part: the station rows (after their position
        columns), the table features' parts after the first, the hand slots' rows."""
        self.written: list[StationEntry | bytes | None] = [None] * len(starts)
        self.counted = [Counts(counts + j * geo.counts, geo.counts) for j in range(players + 1)]
        """The discard piles' counts (the observer's first) and the unseen counts."""
        self.views: list[SeatView | None] = [None] * players
        """The seat views whose station rows were written last, in the observer's order."""
        self.stamps: list[int] | None = None
        """The kit's stamps of the crosses ``views`` were read with."""
        self.marks: TurnMarks | None = None
        """What the marks of the turn written over the station rows were read from."""
        self.shown: dict[int, int] = {}
        """The marks of the turn written over the station rows (``TURN_MARKS`` bits), by
        row (``seat * 8 + station``, seats in the observer's order)."""
        self.phase = -1
        """The phase whose one-hot was written last."""
        self.turn: tuple | None = None
        """What the turn's part was written from (``_table``)."""
        self.fight: tuple | None = None
        """What the fight's part was written from while a fight is on (``_table``)."""
        self.blocks: list[tuple | None] = [None] * players
        """What each seat block was written from: the view, the figures, the temporary
        keys."""
        self.hand: tuple | None = None
        """What the hand rows were read from (``_hand``)."""
        self.piles: list[int] | None = None
        """The pile stamps the discard counts were read with."""

    def update(self, state: KultState) -> None:
        """Make the vector ``state``'s view for the observer."""
        views = self._cross(state)
        self._table(state)
        self._seats(state, views)
        self._hand(state, views)
        self._counts(state, self.counted)

    def _put(self, part: int, data: bytes) -> None:
        """Write ``data`` at ``part`` if it is not what was written there last."""
        if self.written[part] is not data:
            at = self.at[part]
            self.bytes[at : at + len(data)] = data
            self.written[part] = data

    def _cross(self, state: KultState) -> list[SeatView]:
        """The seat views, read again where the kit's stamp of a seat's cross changed
        (each derived from the last one, ``SeatView``): each station entry of a view that
        changed is written, with its owner's column as this observer sees it, then the
        marks of the turn over the rows (``_mark``). The list is a new one whenever a view
        changed."""
        stamps = state.table.stamps["cross"]
        if stamps == self.stamps:
            if not _marked(state, self.marks):
                self._mark(state)
            return self.views  # type: ignore[return-value]
        geo = self.geo
        cache, players, player = geo.seat_cache, geo.players, self.player
        views = list(self.views)
        written, at, owner_at, shown = self.written, self.at, self.owner_at, self.shown
        data, floats = self.bytes, self.floats
        for k in range(players):
            seat = self.seats[k]
            stamp = stamps[seat]
            last = views[k]
            if last is not None and last.stamp == stamp:
                continue
            view = cache.get(stamp) if CACHE_SEATS else None
            if view is None:
                view = SeatView(state, seat, geo, last if CACHE_SEATS else None)
                if CACHE_SEATS:
                    if len(cache) >= CACHE_SIZE:
                        cache.clear()
                    cache[stamp] = view
            views[k] = view
            i = k * STATIONS
            for entry in view.entries:
                if written[i] is not entry:
                    row, start = entry.row, at[i]
                    data[start : start + len(row)] = row
                    if entry.index >= 0:
                        floats[owner_at[i] + (entry.owner - player) % players] = 1.0
                    written[i] = entry
                    if i in shown:  # the row's marks of the turn were written over
                        if entry.index >= 0:
                            self._show(i, shown[i])
                        else:
                            del shown[i]
                i += 1
        self.views, self.stamps = views, stamps[:]
        if not _marked(state, self.marks):
            self._mark(state)
        return views  # type: ignore[return-value]

    def _mark(self, state: KultState) -> None:
        """Write the marks of the turn (``KultState.station_marks``) over the station rows
        that hold a card, and clear those no longer marked: few stations have any, and
        they change at a few moves of a turn, so the rows and views stay cached without
        them (as the owner columns)."""
        views, players, player = self.views, self.geo.players, self.player
        marked: dict[int, int] = {}
        for (seat, station), bits in state.station_marks().items():
            k = (seat - player) % players
            if views[k].entries[station].index >= 0:  # type: ignore[union-attr]
                marked[k * STATIONS + station] = bits
        shown = self.shown
        for i in {*shown, *marked}:
            bits = marked.get(i, 0)
            if shown.get(i, 0) != bits:
                self._show(i, bits)
        self.shown = marked
        self.marks = (
            state.active, state.fight, frozenset(state.recruited), frozenset(state.invoked)
        )  # fmt: skip

    def _show(self, i: int, bits: int) -> None:
        """Write the marks of the turn ``bits`` over station row ``i``."""
        start = self.at[i] + self.geo.turn_at
        self.bytes[start : start + 4 * len(TURN_MARKS)] = self.geo.turn_bytes[bits]

    def _table(self, state: KultState) -> None:
        """The table features before the seat blocks (``Geometry.table_features``): the
        Pool tokens, the game's figures and who decides are packed at every step, the
        phase when it changed, the other parts (``Geometry.head_sizes``) when what they
        are read from changed."""
        geo, player, data = self.geo, self.player, self.bytes
        game, phase = state.game, state.phase
        _THREE.pack_into(
            data, self.head_at,
            state.pool_tokens / game.tokens, game.target / 10, state.plies / game.ply_limit,
        )  # fmt: skip
        if phase != self.phase:
            start = self.head_at + 12
            data[start : start + 4 * len(PHASE_NAMES)] = geo.phase_one_hot[phase]
            self.phase = phase
        self.floats[self.deciding_at] = float(phase != OVER and state.player == player)
        first = geo.cross_rows
        turn = (state.attacked, state.embargo, state.pending_push, state.recruited, state.invoked)
        if turn != self.turn:
            self.turn = (*turn[:3], frozenset(state.recruited), frozenset(state.invoked))
            self._put(first, _turn_values(self.turn, geo))
        stepping = state.pending_token
        if stepping is None:
            self._put(first + 1, geo.no_stepping)
        else:
            self._put(first + 1, geo.stepping[(stepping[0] - player) % geo.players])
        fight = state.fight
        if fight is None:
            self._put(first + 2, geo.no_fight)
            self.fight = None
        else:  # its combat values read the two stations' cards: as new as their stamps
            (seat, station), (other, at) = fight.attacker, fight.defender
            stamps = state.table.slot_stamps["cross"]
            key = (
                fight.attacker, fight.defender, *fight.bonus, fight.cancelled,
                stamps[seat][station], stamps[other][at],
            )  # fmt: skip
            if key != self.fight:
                self._put(first + 2, _fight_values(state, fight, player, geo.players))
                self.fight = key
        self._put(first + 3, _last_fight_values(state.last_fight, geo))
        self._put(first + 4, _pool_values(state, geo))

    def _seats(self, state: KultState, views: list[SeatView]) -> None:
        """The seat blocks (``SEAT_FEATURES``), the observer's first: each packed again when
        its seat's view, its temporary keys or its other figures (turn, window, Hub
        tokens, hand, deck and discard sizes) changed."""
        active = -1 if state.phase == OVER else state.active
        window = state.window
        responder = window.responder if window is not None else -1
        target = state.game.target
        hub_tokens, temp_keys = state.hub_tokens, state.temp_keys
        hands, decks, discards = state.hands, state.decks, state.discards
        data, blocks = self.bytes, self.blocks
        for k, seat in enumerate(self.seats):
            view, temp = views[k], temp_keys[seat]
            figures = (
                active == seat, responder == seat, hub_tokens[seat], len(hands[seat]),
                len(decks[seat]), len(discards[seat]),
            )  # fmt: skip
            last = blocks[k]
            if last is not None and last[0] is view and last[1] == figures and last[2] == temp:
                continue
            blocks[k] = (view, figures, temp[:])
            at = self.block_at[k]
            _THREE.pack_into(data, at, float(figures[0]), float(figures[1]), figures[2] / target)
            body = view.body_with(temp) if any(temp) else view.body
            data[at + 12 : at + 12 + len(body)] = body
            at += 12 + len(body)
            _THREE.pack_into(data, at, figures[3] / MAX_HAND, figures[4] / 30, figures[5] / 30)
            tail = view.tail
            data[at + 12 : at + 12 + len(tail)] = tail

    def _hand(self, state: KultState, views: list[SeatView]) -> None:
        """The observer's hand rows, marked where it may pay for the card now (KU-4.4,
        KU-3.5): read again when the hand, the keys it controls (permanent and temporary)
        or, with a unique card in hand, a seat's view changed."""
        player, geo = self.player, self.geo
        hand, temp, cards = state.hands[player], state.temp_keys[player], state.table.cards
        keys = views[0].permanent
        last = self.hand
        if (
            last is not None and last[0] is cards and last[1] == keys and last[2] == temp
            and last[3] == hand and (last[4] is None or last[4] is views)
        ):  # fmt: skip
            return
        k0, k1, k2, k3, k4 = keys
        t0, t1, t2, t3, t4 = temp
        k0, k1, k2, k3, k4 = k0 + t0, k1 + t1, k2 + t2, k3 + t3, k4 + t4
        allowed = geo.allowed[state.arcana[player].allegiance]
        of, costs, unique = card_index(geo, cards).of, geo.costs, geo.unique
        slot_rows, written, at, data = geo.hand_slot_rows, self.written, self.at, self.bytes
        has_unique = False
        part = geo.cross_rows + len(geo.head_sizes) - 1
        for slot in range(MAX_HAND):
            if slot < len(hand):
                index = of[hand[slot]]
                mark = 0
                if index in allowed:
                    c0, c1, c2, c3, c4 = costs[index]
                    if not (k0 < c0 or k1 < c1 or k2 < c2 or k3 < c3 or k4 < c4):
                        mark = 1
                if index in unique:
                    has_unique = True
                    if mark and _in_play(state, views, index):
                        mark = 0
                row = slot_rows[index][mark]
            else:
                row = geo.no_hand_slot
            if written[part] is not row:
                start = at[part]
                data[start : start + len(row)] = row
                written[part] = row
            part += 1
        self.hand = (cards, keys, temp[:], hand[:], views if has_unique else None)

    def _counts(self, state: KultState, counts: list[Counts]) -> None:
        """Per-card counts of every discard pile (the observer's first), read again when
        a pile's stamp (the kit's) changed, and of the observer's unseen cards (its deck
        and Hub card together), when they changed (``Counts``)."""
        player = self.player
        of = card_index(self.geo, state.table.cards).of
        stamps, last = state.table.stamps["discard"], self.piles
        if stamps != last:
            discards = state.discards
            for k, seat in enumerate(self.seats):
                if last is None or stamps[seat] != last[seat]:
                    counts[k].update(discards[seat], of, self.floats)
            self.piles = stamps[:]
        unseen = counts[-1]
        deck, hub = state.decks[player], state.hub_cards[player]
        if of is not unseen.of or deck != unseen.instances or hub != unseen.hub:
            unseen.update(deck, of, self.floats, hub)


TurnMarks = tuple[int, Fight | None, frozenset[int], frozenset[int]]
"""What the marks of the turn are read from: the active seat, the fight, the stations
recruited onto and invoked (``WorkingCopy.marks``)."""


def _marked(state: KultState, last: TurnMarks | None) -> bool:
    """Whether the marks of the turn (``KultState.station_marks``) are still those read
    from ``last``: a fight's Beings never change while it is the same fight."""
    if last is None:
        return False
    active, fight, recruited, invoked = last
    return (
        state.fight is fight and state.active == active and state.recruited == recruited
        and state.invoked == invoked
    )  # fmt: skip


_NONE: list[int] = []
"""No Hub card (``Counts.update`` of a discard pile): never modified."""


class Counts:
    """An observer's copies of each pool card in one zone (a discard pile; or its deck,
    with its Hub card: the unseen cards) / 3, as written in its vector from float
    ``start``: kept as numbers with the instances they were counted from, so that cards
    put on or taken off the end of the list (a discard, a draw) move only their own
    counts. A count written is ``n / 3`` rounded once to float32, as NumPy divides a
    float32 count."""

    __slots__ = ("start", "size", "instances", "hub", "numbers", "of")

    def __init__(self, start: int, size: int) -> None:
        self.start, self.size = start, size
        self.instances: list[int] = []
        self.hub: list[int] = []
        self.numbers: list[int] | None = None
        self.of: list[int] | None = None
        """The pool indices of the ``Table.cards`` list counted from."""

    def update(
        self, instances: list[int], of: list[int], floats: memoryview, hub: list[int] = _NONE
    ) -> None:
        """Count ``instances`` (and the ``hub`` cards), whose pool indices are ``of``,
        and write the counts that changed."""
        old, numbers, start = self.instances, self.numbers, self.start
        kept = min(len(old), len(instances))
        if (
            numbers is None
            or of is not self.of
            or hub != self.hub
            or old[:kept] != instances[:kept]
        ):
            self._recount(instances, of, floats, hub)
            return
        for iid in old[kept:]:
            index = of[iid]
            numbers[index] -= 1
            floats[start + index] = numbers[index] / 3
        for iid in instances[kept:]:
            index = of[iid]
            numbers[index] += 1
            floats[start + index] = numbers[index] / 3
        self.instances = instances[:]

    def _recount(
        self, instances: list[int], of: list[int], floats: memoryview, hub: list[int]
    ) -> None:
        """Count every instance afresh and write every count."""
        numbers = [0] * self.size
        for iid in instances:
            numbers[of[iid]] += 1
        for iid in hub:
            numbers[of[iid]] += 1
        floats[self.start : self.start + self.size] = np.array(numbers, dtype=np.float32) / 3
        self.instances, self.hub, self.numbers, self.of = instances[:], hub[:], numbers, of


class _Encoder:
    """Both encoders: the same parts (seat views, table features, seat blocks, hand
    rows, counts) written into a ``WorkingCopy`` at the encoder's offsets."""

    name = ""
    version = 0

    def shape(self, game: KultGame) -> tuple[int, ...]:
        return self.shape_of(geometry(game.pool, game.num_players))

    def shape_of(self, geo: Geometry) -> tuple[int, ...]:
        raise NotImplementedError

    def offsets(self, geo: Geometry) -> tuple[int, int, int]:
        """Where the table features, the card rows and the counts start."""
        raise NotImplementedError

    def encode(self, state: KultState, player: int) -> np.ndarray:
        copy = state.encodings.get((self.name, player)) if CACHE_SEATS else None
        if copy is None:
            copy = WorkingCopy(self, geometry(state.game.pool, state.game.num_players), player)
            if CACHE_SEATS:
                state.encodings[self.name, player] = copy
        copy.update(state)
        return copy.output.copy()  # a new array: callers may keep it


class FlatEncoder(_Encoder):
    """One float32 vector; ``flat_layout(pool, players)`` documents its slices."""

    name = "flat"

    def shape_of(self, geo: Geometry) -> tuple[int, ...]:
        return (geo.flat_size,)

    def offsets(self, geo: Geometry) -> tuple[int, int, int]:
        rows = geo.table_size
        return 0, rows, rows + geo.card_rows * geo.width


class EntityEncoder(_Encoder):
    """Rows ``0 .. 8N-1``: the stations of every cross (the observer's first), then
    ``MAX_HAND`` rows of the observer's hand slots, each a position one-hot, the card's
    data features and its state; then ``table_rows`` rows holding the table features
    flattened and zero-padded; then ``count_rows`` rows holding the flat encoder's
    ``discard_counts`` and ``unseen_counts`` (the discard piles are public, KU-11.1)
    flattened and zero-padded. Empty positions are zeros but for their position."""

    name = "entity"
    version = 1

    def shape_of(self, geo: Geometry) -> tuple[int, ...]:
        return (geo.card_rows + geo.table_rows + geo.count_rows, geo.width)

    def offsets(self, geo: Geometry) -> tuple[int, int, int]:
        return geo.card_rows * geo.width, 0, (geo.card_rows + geo.table_rows) * geo.width


ENCODERS = {"flat": FlatEncoder(), "entity": EntityEncoder()}
