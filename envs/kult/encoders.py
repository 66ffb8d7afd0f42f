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
hand slot, then rows holding the table and seat figures flattened. The flat encoder is the
table and seat figures, the same card rows flattened, then per-card counts of every
discard pile and of the observer's unseen cards.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from tabletop.envs.core.layout import stack_layout
from tabletop.envs.kult import crosses
from tabletop.envs.kult.actions import CAST, MAX_HAND, NUM_COLOURS, STATIONS
from tabletop.envs.kult.cards import ATTACH, INTO, NEUTRAL, Card, Pool, load_pool
from tabletop.envs.kult.combat import Fight
from tabletop.envs.kult.effects import BEFORE_RECRUIT, COLOURS, FIGHT, VOCAB
from tabletop.envs.kult.turns import OVER, PHASE_NAMES

if TYPE_CHECKING:
    from tabletop.envs.kult.engine import KultGame, KultState

KINDS = ("place", "being", "spell", "influence", "command")
TIMINGS = ("any time", "fight", "recruit window")
FIGHT_RESULTS = ("attacker", "defender", "tie", "cancelled")
STATIC_NAMES = tuple(VOCAB.statics)
"""The vocabulary's continuous effects (combat, holds, keys): one column each."""
EFFECT_COLUMNS = tuple(
    (event.name, primitive.name, selector)
    for event in VOCAB.events.values()
    for primitive in VOCAB.primitives.values()
    for selector in (primitive.selectors or ("",))
)
"""(trigger event, primitive, selector): one column per combination, the effects of that
kind the card lists under that event, weighted by their size (``_magnitude``)."""


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
    """Every size and offset of both encoders for one pool and player count, built once
    per (pool, players) and cached: the encoders run on every env step."""

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
        """The sizes of ``table_values``' parts: what changes every step (Pool tokens, the
        game, the phase, who decides), the turn, a token stepping out, the fight, the last
        fight, the Pool's Influences."""
        self.table_rows = -(-self.table_size // self.width)
        self.counts = len(pool.cards)
        self.flat_size = self.table_size + self.card_rows * self.width + (players + 1) * self.counts
        self.static = self._static_rows()
        self.owner_column = self.C + 4
        """Where a station row without its position columns has its owner columns."""
        self.positions = self._positions()
        self.seat_cache: dict[int, SeatView] = {}
        """``seat_views``' cache: a seat's view by its stamp."""
        self.station_cache: dict[int, StationEntry] = {}
        """``SeatView``'s cache: a station's entry by its stamp."""
        self._empty_rows: dict[int, np.ndarray] = {}
        self.row_cache: dict[tuple, np.ndarray] = {}
        """``StationContext.station``'s cache: a station's row (without position and owner
        columns) by the card and what its state columns are read from: positions repeat
        a card's row far more often than they keep its station's stamp."""
        self._starts: dict[tuple[int, int, int | None], list[int]] = {}
        self.pile_cache: dict[int, np.ndarray] = {}
        """``_pile_counts``' cache: a discard pile's counts by its stamp."""
        self.unseen_cache: dict[tuple, tuple[list, np.ndarray]] = {}
        """``unseen_counts``' cache: by ``id`` of the ``Table.cards`` list and the unseen
        instances."""
        self.pool_cache: dict[tuple[int, ...], tuple[float, ...]] = {}
        """``_pool_values``' cache: by the pool indices of the Pool's Influences, in order."""
        self.index_cache: dict[int, CardIndex] = {}
        """``card_index``' cache: by ``id`` of a ``Table.cards`` list."""
        self.hand_slot_rows = self._hand_slot_rows()
        self.no_hand_slot = np.zeros(self.width, dtype=np.float32)
        """An empty hand slot's row (a hand's rows have no slot column)."""
        self.no_counts = np.zeros(self.counts, dtype=np.float32)
        self.phase_one_hot = [
            tuple(float(p == phase) for p in range(len(PHASE_NAMES)))
            for phase in range(len(PHASE_NAMES))
        ]
        self.zeros = (0.0,) * self.table_size
        """Zeros to slice the table features' empty parts from."""
        self.no_stepping = self.zeros[: self.head_sizes[2]]
        self.no_fight = self.zeros[: self.head_sizes[3]]
        self.no_last_fight = self.zeros[: self.head_sizes[4]]
        """The parts of ``table_values`` while nothing is on: one object each, written
        once (``WorkingCopy.update``)."""
        self.last_fight_cache: dict[tuple, tuple[float, ...]] = {}
        """``table_values``' last fight part by the fight's result and values: one object
        while the last fight stays."""
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
            name: (0.0, 0.0, *values) for name, values in self.arcanum_values.items()
        }
        """A seat block's tail without Influences on its cross (``_influence_figures``)."""
        self.arcanum_index = {a.name: a.index for a in pool.arcana}
        self.static_amounts = [
            tuple(_static_amount(card.static(name)) for name in STATIC_NAMES) for card in pool.cards
        ]
        """``static_amounts[card.index]``: its amount of every ``STATIC_NAMES`` modifier."""

    def part_starts(self, table: int, rows: int, counts: int | None) -> list[int]:
        """Where each part of an encoding starts, its table features at ``table``, its
        card rows at ``rows`` and (flat) its counts at ``counts``: every station's row
        after its position columns, every part of ``table_values``, every seat block,
        every hand slot's row, every discard pile's counts, the unseen counts
        (``_Encoder.encode``'s parts)."""
        starts = self._starts.get((table, rows, counts))
        if starts is None:
            starts = [rows + row * self.width + self.P for row in range(self.cross_rows)]
            for size in self.head_sizes:
                starts.append(table)
                table += size
            blocks = table
            starts += [blocks + k * self.seat_size for k in range(self.players)]
            hand = rows + self.cross_rows * self.width
            starts += [hand + slot * self.width for slot in range(MAX_HAND)]
            if counts is not None:
                starts += [counts + j * self.counts for j in range(self.players + 1)]
            self._starts[table, rows, counts] = starts
        return starts

    def empty_row(self, station_influences: int) -> np.ndarray:
        """The row (without position columns) of an empty station with
        ``station_influences`` on it: one array for all, so that a station that stays
        empty is never written again."""
        row = self._empty_rows.get(station_influences)
        if row is None:
            row = np.zeros(self.C + self.D, dtype=np.float32)
            row[self.C + 7 + self.players] = station_influences / 3
            self._empty_rows[station_influences] = row
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

    def _hand_slot_rows(self) -> list[tuple[np.ndarray, np.ndarray]]:
        """Per pool card, the row of a hand slot holding it, not playable now and
        playable: any slot's (``hand_rows``)."""
        rows = np.zeros((len(self.pool.cards), 2, self.width), dtype=np.float32)
        rows[:, :, self.P : self.P + self.C] = self.static[:, None, :]
        dyn = self.P + self.C
        rows[:, :, 1] = 1.0  # in hand
        rows[:, :, 2] = 1.0  # controller seat +0
        rows[:, :, dyn + 4] = 1.0  # owner seat +0
        rows[:, 1, dyn + 12 + self.players] = 1.0  # playable now
        return [(card[0], card[1]) for card in rows]

    def _static_rows(self) -> np.ndarray:
        """``static[card.index]``: the card's ``static_features`` (one row per pool card)."""
        rows = np.zeros((len(self.pool.cards), self.C), dtype=np.float32)
        for card in self.pool.cards:
            rows[card.index] = static_features(card, self.allegiances)
        return rows


_GEOMETRIES: dict[tuple[int, int], tuple[Pool, Geometry]] = {}


def geometry(pool: Pool, players: int) -> Geometry:
    """The cached ``Geometry`` of ``pool`` with ``players`` seats."""
    cached = _GEOMETRIES.get((id(pool), players))
    if cached is None or cached[0] is not pool:
        cached = _GEOMETRIES[id(pool), players] = (pool, Geometry(pool, players))
    return cached[1]


def _magnitude(effect: object) -> float:
    """An effect's size: its numeric parameters summed and its list parameters counted
    (``draw cards = 2`` is 2, ``gain_keys colours = [eye, eye]`` is 2), at least 1."""
    total = 0.0
    for value in effect.params.model_dump().values():  # type: ignore[attr-defined]
        if isinstance(value, bool):
            continue
        if isinstance(value, int | float):
            total += value
        elif isinstance(value, list | tuple):
            total += len(value)
    return total if total else 1.0


def static_features(card: Card, allegiances: Sequence[str]) -> list[float]:
    """The card's features from the data, in ``Geometry.static_names`` order."""
    statics = dict(card.statics)
    effects = {column: 0.0 for column in EFFECT_COLUMNS}
    colours = {(e, c): 0.0 for e in VOCAB.events for c in COLOURS}
    for event, listed in card.triggers.items():
        for effect in listed:
            effects[event, effect.do, effect.to] += _magnitude(effect)
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


class SeatView:
    """One seat's part of every observer's view, cached with the seat's stamp: its 8
    stations' entries (each cached with its station's stamp) and the figures the seat
    block and the playable marks read of it (tokens in the Scene and the Cast, the
    permanent keys as ``crosses.permanent_keys`` counts them, the Hub Influences and the
    Arcanum, the cards in play). Holding limits and combat values are summed as
    ``crosses.holding_limit`` and ``crosses.combat_value`` sum them (a test holds rows and
    keys equal to the engine's figures). What it keeps is in tuples, not lists: the cache
    holds thousands of views, and the garbage collector stops tracking a tuple of numbers
    or arrays, where every list would be traversed again at each collection."""

    __slots__ = (
        "entries", "attached", "permanent", "quarters", "tokens", "tail", "indices",
        "last_figures", "last_block",
    )  # fmt: skip

    def __init__(self, state: KultState, seat: int, geo: Geometry) -> None:
        context = None  # made at the first station whose row is not cached
        keys, self.tail = _influence_figures(state, seat, geo)
        """``tail``: the end of its seat block, the Hub Influences' figures and the
        Arcanum's."""
        k0, k1, k2, k3, k4 = keys
        self.attached = tuple([a.card.index for a in state.influences[seat]])
        """Pool indices of the Influences on this cross (``holds``)."""
        entries: list[StationEntry] = []
        scene = cast = 0
        cache = geo.station_cache
        stamps = state.station_stamps[seat]
        for station in range(STATIONS):
            entry = cache.get(stamps[station]) if CACHE_SEATS else None
            if entry is None:
                context = context or StationContext(state, seat, geo)
                entry = context.station(station)
                if CACHE_SEATS:
                    if len(cache) >= CACHE_SIZE:
                        cache.clear()
                    cache[stamps[station]] = entry
            entries.append(entry)
            if entry.index < 0:
                continue
            if station >= _CAST_START:
                cast += entry.tokens
            else:
                scene += entry.tokens
            colours = entry.colours
            if colours is not None:
                c0, c1, c2, c3, c4 = colours
                k0, k1, k2, k3, k4 = k0 + c0, k1 + c1, k2 + c2, k3 + c3, k4 + c4
        self.entries = tuple(entries)
        self.permanent = (k0, k1, k2, k3, k4)
        self.quarters = (k0 / 4, k1 / 4, k2 / 4, k3 / 4, k4 / 4)
        """The permanent keys / 4: the seat block's keys while no temporary key is held."""
        self.tokens = (scene / 4, cast / 4)
        """Its tokens figures in the seat block, as ``seat_block`` writes them."""
        self.indices: frozenset[int] | None = None
        self.last_figures: SeatFigures | None = None
        self.last_block: np.ndarray | None = None
        """The last seat block made (``block``) and its figures."""

    def block(self, figures: SeatFigures, target: int) -> np.ndarray:
        """Make the seat block with the seat's other ``figures`` (active, responder, Hub
        tokens, temporary keys, hand, deck and discard sizes), Hub ``target``; the last
        one is kept (``last_block``: a seat's view lives for one Hub target, its
        game's)."""
        active, responder, hub, temp, hand, deck, discard = figures
        values = [float(active), float(responder), hub / target, *self.tokens]
        if any(temp):
            values += [(key + t) / 4 for key, t in zip(self.permanent, temp, strict=True)]
            values += [t / 4 for t in temp]
        else:
            values += self.quarters
            values += _ZEROS[:NUM_COLOURS]
        values += (hand / MAX_HAND, deck / 30, discard / 30)
        values += self.tail
        block = np.array(values, dtype=np.float32)
        if CACHE_SEATS:
            self.last_figures, self.last_block = figures, block
        return block

    def holds(self, pool_index: int) -> bool:
        """Whether a copy of the pool card lies in this cross or on it (KU-3.5)."""
        if self.indices is None:  # asked for unique cards in hand only: made then, once
            self.indices = frozenset([*self.attached, *(e.index for e in self.entries)])
        return pool_index in self.indices


SeatFigures = tuple[bool, bool, int, tuple[int, ...], int, int, int]
"""What a seat block reads besides the seat's view (``SeatView.block``)."""


class StationEntry:
    """A station's row but for its position and owner columns, and what the seat figures
    take from it: its tokens, the colours of a face-up Place (else ``None``), the card's
    owner and pool index (-1 for an empty station). The owner columns depend on the
    observer: ``WorkingCopy.update`` sets the one of the owner relative to its observer
    after writing the row."""

    __slots__ = ("row", "tokens", "colours", "owner", "index")

    def __init__(
        self, row: np.ndarray, tokens: int, colours: tuple[int, ...] | None, owner: int,
        index: int,
    ) -> None:  # fmt: skip
        self.row = row
        self.tokens, self.colours, self.owner, self.index = tokens, colours, owner, index


def _influence_figures(
    state: KultState, seat: int, geo: Geometry
) -> tuple[Sequence[int], tuple[float, ...]]:
    """The Arcanum's keys with those the Influences on ``seat``'s cross give (the Places'
    are added by the stations), and the end of its seat block: the Hub Influences' combat
    modifier and keys given / 3, the Arcanum's figures."""
    arcanum = state.arcana[seat]
    influences = state.influences[seat]
    if not influences:
        return arcanum.keys, geo.bare_tails[arcanum.name]
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
    return keys, (hub_combat / 3, hub_keys / 3, *geo.arcanum_values[arcanum.name])


class StationContext:
    """What a seat's station rows are read from besides their stations, gathered once
    per seat view: per station, the Influences on its card (count, their combat and holds
    as printed, the engine's combat and holds bonuses) and on the station (count, combat
    and holds bonuses); the Hub's and the Pool's bonuses; the turn and the fight."""

    def __init__(self, state: KultState, seat: int, geo: Geometry) -> None:
        self.state, self.seat, self.geo = state, seat, geo
        mods = geo.modifiers
        marks: dict[int, list] = {}
        hub_bonus = 0
        for attachment in state.influences[seat]:
            card = attachment.card
            combat, holds, _ = mods[card.index]
            attach = card.attach
            if attach == "hub":
                hub_bonus += card.combat_bonus
                continue
            mark = marks.get(attachment.station)
            if mark is None:
                mark = marks[attachment.station] = [0, 0.0, 0.0, 0, 0, 0, 0, 0]
            if attach == "station":
                mark[3] += 1
                mark[4] += card.combat_bonus
                mark[5] += card.holds_bonus
            else:
                mark[0] += 1
                mark[1] += combat
                mark[2] += holds
                mark[6] += card.combat_bonus
                mark[7] += card.holds_bonus
        self.marks = marks
        self.hub_bonus = hub_bonus
        self.pool_combat = self.pool_holds = 0
        for attachment in state.pool_influences:
            self.pool_combat += attachment.card.combat_bonus
            self.pool_holds += attachment.card.holds_bonus

    def station(self, station: int) -> StationEntry:
        """The station's row (card features, state; position and owner left 0) and its
        seat figures."""
        state, seat, geo = self.state, self.seat, self.geo
        mark = self.marks.get(station, _NO_MARK)
        base = state.crosses[seat][station]
        if base is None:
            return StationEntry(geo.empty_row(mark[3]), 0, None, -1, -1)
        card = base.card
        owner = state.table.owners[base.iid]
        face_up = base.face_up
        kind = card.kind
        limit = card.holds + mark[5] + (mark[7] if face_up else 0)
        if kind == "place" or kind == "being":
            limit += self.pool_holds
        combat = 0.0
        if kind == "being":
            value = card.combat + mark[4] + (mark[6] if face_up else 0) + self.pool_combat
            combat = (value + self.hub_bonus if station >= _CAST_START else value) / 5
        fight = state.fight
        attacking = defending = False
        if fight is not None:
            at = (seat, station)
            attacking = fight.attacker == at
            defending = not attacking and fight.defender == at
        active = seat == state.active
        recruited = active and station in state.recruited
        invoked = active and station in state.invoked
        on_card = (mark[0], mark[1], mark[2]) if mark[0] else _NO_MARKS
        key = (
            card.index, face_up, base.tokens, limit, combat, *on_card, mark[3], recruited,
            invoked, attacking, defending,
        )  # fmt: skip
        row = geo.row_cache.get(key) if CACHE_SEATS else None
        if row is None:
            row = np.empty(geo.C + geo.D, dtype=np.float32)
            row[: geo.C] = geo.static[card.index]
            row[geo.C :] = (
                float(face_up), base.tokens / 3, limit / 3, combat,
                *geo.zeros[: geo.players],  # the owner, relative to the observer: set later
                on_card[0] / 3, on_card[1] / 3, on_card[2] / 3, mark[3] / 3,
                float(recruited), float(invoked), float(attacking), float(defending), 0.0,
            )  # fmt: skip
            if CACHE_SEATS:
                if len(geo.row_cache) >= CACHE_SIZE:
                    geo.row_cache.clear()
                geo.row_cache[key] = row
        colours = card.colours if face_up and kind == "place" else None
        return StationEntry(row, base.tokens, colours, owner, card.index)


_CAST_START = CAST.start
_NO_MARK = (0, 0.0, 0.0, 0, 0, 0, 0, 0)
_NO_MARKS = (0.0, 0.0, 0.0)


CACHE_SEATS = True
"""Reuse what an observation is made of while everything it is read from is unchanged: a
seat's summary (by the seat's stamp), a station's entry (by its stamp) and row (by what it
shows), a seat block, a discard pile's counts, the unseen counts, and each observer's last
encoding of a position; off, every view is computed afresh (a test compares the two)."""
CACHE_SIZE = 1024
"""Cached entries per cache of a geometry; a cache is emptied when it is full. A few times
what the positions in play use (per position its seats' views and 8 stations each: 32
positions of 4 seats fill it), no more: every cached object is one more for the garbage
collector to traverse, and with 4096 an env step took twice as many collections."""


def seat_views(state: KultState, player: int, geo: Geometry) -> list[SeatView]:
    """Per relative seat (the observer first): its ``SeatView``, cached by the seat's
    stamp (``KultState.seat_stamps``: renewed by the rules whenever what it is read from
    changes, never given twice in a process, so that a copy that diverges never finds the
    other's view); every observer shares it."""
    views = []
    cache = geo.seat_cache
    players = geo.players
    stamps = state.seat_stamps
    for k in range(players):
        seat = (player + k) % players
        stamp = stamps[seat]
        view = cache.get(stamp) if CACHE_SEATS else None
        if view is None:
            view = SeatView(state, seat, geo)
            if CACHE_SEATS:
                if len(cache) >= CACHE_SIZE:
                    cache.clear()
                cache[stamp] = view
        views.append(view)
    return views


def table_values(state: KultState, player: int, geo: Geometry) -> list[Sequence[float]]:
    """The table features (``Geometry.table_features``) of ``player``'s view before the
    seat blocks (``seat_blocks``), in the parts of ``Geometry.head_sizes``: a part that
    is the same object as at the last encoding (nothing done yet this turn, no fight, the
    same last fight and Pool Influences) is not written again (``WorkingCopy.update``)."""
    game = state.game
    players = geo.players
    phase = state.phase
    stepping = state.pending_token
    fight = state.fight
    return [
        (
            state.pool_tokens / game.tokens,
            game.target / 10,
            state.plies / game.ply_limit,
            *geo.phase_one_hot[phase],
            float(phase != OVER and state.player == player),
        ),
        _turn_values(state),
        geo.no_stepping if stepping is None
        else (1.0, *(float((stepping[0] - player) % players == k) for k in range(players))),
        geo.no_fight if fight is None else _fight_values(state, fight, player, players),
        _last_fight_values(state.last_fight, geo),
        _pool_values(state, geo),
    ]  # fmt: skip


def _last_fight_values(last: Fight | None, geo: Geometry) -> tuple[float, ...]:
    """``last_fight``: the result one-hot and the compared values / 5, one tuple per
    result and values (cached), so that a last fight that stays is not written again."""
    if last is None or last.values is None:
        return geo.no_last_fight
    key = (last.result, last.values)
    values = geo.last_fight_cache.get(key)
    if values is None:
        if len(geo.last_fight_cache) >= CACHE_SIZE:
            geo.last_fight_cache.clear()
        values = geo.last_fight_cache[key] = (
            *(float(last.result == r) for r in FIGHT_RESULTS),
            *_fight_figures(last),
        )
    return values


def _fight_figures(fight: Fight) -> tuple[float, float]:
    """A decided fight's compared values / 5."""
    attack, defence = fight.values
    return attack / 5, defence / 5


_NO_TURN = (0.0,) * (3 + len(CAST) + 2 * STATIONS)


def _turn_values(state: KultState) -> tuple[float, ...]:
    """``turn_state`` and ``pending_push``: what the active seat did this turn."""
    pending = state.pending_push
    recruited, invoked = state.recruited, state.invoked
    if not (state.attacked or state.embargo or recruited or invoked or pending is not None):
        return _NO_TURN
    values = [float(state.attacked), float(state.embargo), float(pending is not None)]
    values += [float(s in recruited) for s in CAST] if recruited else _ZEROS[: len(CAST)]
    values += [float(s in invoked) for s in range(STATIONS)] if invoked else _ZEROS[:STATIONS]
    values += _ZEROS[:STATIONS] if pending is None else [float(pending == s) for s in range(8)]
    return tuple(values)


def _pool_values(state: KultState, geo: Geometry) -> Sequence[float]:
    """``pool_influences``: their count / 3, then each static's amounts summed / 3."""
    pool_influences = state.pool_influences
    if not pool_influences:
        return _NO_POOL
    key = tuple(attachment.card.index for attachment in pool_influences)
    values = geo.pool_cache.get(key)
    if values is None:
        values = [len(key) / 3]
        amounts = geo.static_amounts
        for column in range(len(STATIC_NAMES)):
            total = 0.0
            for index in key:
                total += amounts[index][column]
            values.append(total / 3)
        if len(geo.pool_cache) >= CACHE_SIZE:
            geo.pool_cache.clear()
        values = geo.pool_cache[key] = tuple(values)
    return values


def seat_blocks(state: KultState, player: int, views: list[SeatView]) -> list[np.ndarray]:
    """The seat blocks (``SEAT_FEATURES``), the observer's first: each kept by its seat's
    view with what else it is read from (``SeatView.block``), so that a seat whose
    figures did not change is not written again. Do not modify the arrays returned."""
    players = len(views)
    active = -1 if state.phase == OVER else state.active
    window = state.window
    responder = window.responder if window is not None else -1
    target = state.game.target
    hub_tokens, temp_keys = state.hub_tokens, state.temp_keys
    hands, decks, discards = state.hands, state.decks, state.discards
    blocks = []
    for k, view in enumerate(views):
        seat = (player + k) % players
        figures = (
            active == seat, responder == seat, hub_tokens[seat], tuple(temp_keys[seat]),
            len(hands[seat]), len(decks[seat]), len(discards[seat]),
        )  # fmt: skip
        same = view.last_figures == figures
        blocks.append(view.last_block if same else view.block(figures, target))
    return blocks


_ZEROS = [0.0] * 32
_NO_POOL = (0.0,) * (len(STATIC_NAMES) + 1)


def _fight_values(state: KultState, fight: Fight, player: int, players: int) -> list[float]:
    """``fight``: the fight being decided, as ``player`` sees its seats."""
    values: list[float] = []
    for seat, station in (fight.attacker, fight.defender):
        values += (float((seat - player) % players == k) for k in range(players))
        values += (float(station == s) for s in CAST)
    attack = crosses.combat_value(state, *fight.attacker) + fight.bonus[0]
    defence = crosses.combat_value(state, *fight.defender) + fight.bonus[1]
    values += (fight.bonus[0] / 5, fight.bonus[1] / 5, float(fight.cancelled))
    values += (attack / 5, defence / 5)
    return values


def hand_rows(
    state: KultState, player: int, geo: Geometry, views: list[SeatView], index: CardIndex
) -> list[np.ndarray]:
    """The rows of ``player``'s ``MAX_HAND`` hand slots: per slot, its card's row,
    marked when ``player`` may pay for it now (KU-4.4, KU-3.5), shared by every slot and
    hand holding that card (``Geometry.hand_slot_rows``): do not modify them."""
    hand = state.hands[player]
    if not hand:
        return [geo.no_hand_slot] * MAX_HAND
    playable = _playable(state, player, views, index)
    of, slot_rows = index.of, geo.hand_slot_rows
    rows = [slot_rows[of[iid]][playable >> slot & 1] for slot, iid in enumerate(hand)]
    rows += [geo.no_hand_slot] * (MAX_HAND - len(hand))
    return rows


def _playable(state: KultState, player: int, views: list[SeatView], index: CardIndex) -> int:
    """Which of ``player``'s hand cards it may pay for now, as bits in hand order: the
    allegiance its own or Neutral, the keys it controls (permanent and temporary), a
    unique card not in play yet (``plays.may_play``)."""
    k0, k1, k2, k3, k4 = views[0].permanent
    t0, t1, t2, t3, t4 = state.temp_keys[player]
    k0, k1, k2, k3, k4 = k0 + t0, k1 + t1, k2 + t2, k3 + t3, k4 + t4
    allowed = index.allowed(state.arcana[player].allegiance)
    cards, unique = index.cards, index.unique
    bits = 0
    for slot, iid in enumerate(state.hands[player]):
        if iid not in allowed:
            continue
        c0, c1, c2, c3, c4 = cards[iid].cost
        if k0 < c0 or k1 < c1 or k2 < c2 or k3 < c3 or k4 < c4:
            continue
        if iid in unique and _in_play(state, views, index.of[iid]):
            continue
        bits |= 1 << slot
    return bits


def _in_play(state: KultState, views: list[SeatView], pool_index: int) -> bool:
    """Whether a copy of the pool card lies in play anywhere (``plays.in_play``)."""
    if any(view.holds(pool_index) for view in views):
        return True
    return any(a.card.index == pool_index for a in state.pool_influences)


class CardIndex:
    """What the encoders look up by instance in one ``Table.cards`` list (copies share it;
    the engine replaces it, never edits it): each instance's pool index, as a list and an
    array, and the instances of unique cards (KU-3.5). Caches keyed by instances name the
    list by ``id`` and keep it, so that the id stays its own."""

    __slots__ = ("cards", "of", "array", "unique", "_allowed")

    def __init__(self, cards: list[Card]) -> None:
        self.cards = cards
        self.of = [card.index for card in cards]
        self.array = np.array(self.of, dtype=np.intp)
        self.unique = frozenset(
            iid for iid, card in enumerate(cards) if getattr(card, "unique", False)
        )  # the Arcana are instances too
        self._allowed: dict[str, frozenset[int]] = {}

    def allowed(self, allegiance: str) -> frozenset[int]:
        """The instances of cards an Arcanum of ``allegiance`` may play: Neutral or its
        own allegiance (KU-4.4)."""
        allowed = self._allowed.get(allegiance)
        if allowed is None:
            allowed = self._allowed[allegiance] = frozenset(
                iid for iid, card in enumerate(self.cards)
                if getattr(card, "allegiance", None) in (NEUTRAL, allegiance)
            )  # fmt: skip
        return allowed


def card_index(geo: Geometry, cards: list[Card]) -> CardIndex:
    """The ``CardIndex`` of a ``Table.cards`` list (cached)."""
    cached = geo.index_cache.get(id(cards))
    if cached is None or cached.cards is not cards:
        if len(geo.index_cache) >= CACHE_SIZE:
            geo.index_cache.clear()
        cached = geo.index_cache[id(cards)] = CardIndex(cards)
    return cached


def _pile_counts(geo: Geometry, pile: list[int], stamp: int, index: CardIndex) -> np.ndarray:
    """Copies of each pool card in a discard pile / 3, cached by the pile's stamp
    (``KultState.pile_stamps``)."""
    if not pile:
        return geo.no_counts
    counts = geo.pile_cache.get(stamp) if CACHE_SEATS else None
    if counts is None:
        counts = np.bincount(index.array[pile], minlength=geo.counts).astype(np.float32) / 3
        if CACHE_SEATS:
            if len(geo.pile_cache) >= CACHE_SIZE:
                geo.pile_cache.clear()
            geo.pile_cache[stamp] = counts
    return counts


def count_parts(state: KultState, player: int, geo: Geometry, index: CardIndex) -> list[np.ndarray]:
    """Per-card counts of every discard pile (the observer's first) and of the observer's
    unseen cards (``unseen_counts``), each / 3: do not modify the arrays returned."""
    players = geo.players
    discards, stamps = state.discards, state.pile_stamps
    parts = []
    for k in range(players):
        seat = (player + k) % players
        parts.append(_pile_counts(geo, discards[seat], stamps[seat], index))
    parts.append(unseen_counts(state, player, geo, index))
    return parts


def unseen_counts(state: KultState, player: int, geo: Geometry, index: CardIndex) -> np.ndarray:
    """The observer's deck list less its hand, its discard pile and its cards in play
    anywhere, / 3: what remains is its deck and Hub card together, counted here in an
    order nobody reads. Cached by those instances: they change only when the observer
    draws or its pile is shuffled into its deck, where the hand and the cards in play
    change at most moves."""
    unseen = state.decks[player] + state.hub_cards[player]
    key = (id(index.cards), *unseen)
    cached = geo.unseen_cache.get(key) if CACHE_SEATS else None
    if cached is not None:
        return cached[1]
    counts = np.bincount(index.array[unseen], minlength=geo.counts).astype(np.float32) / 3
    if CACHE_SEATS:
        if len(geo.unseen_cache) >= CACHE_SIZE:
            geo.unseen_cache.clear()
        geo.unseen_cache[key] = (index.cards, counts)
    return counts


class WorkingCopy:
    """An observer's last encoding of one position (``KultState.encodings``, never copied
    with the state), and what each part of it was written from: a part (a station's entry,
    a part of the table features, a seat block, a hand slot's row, a count vector: cached
    arrays and tuples, never modified) is written again only when it is another object, so
    a step rewrites only what changed. The position columns of the cross rows never
    change: they are written once."""

    __slots__ = ("vector", "shape", "starts", "player", "geo", "views", "written")

    def __init__(self, encoder: _Encoder, geo: Geometry, player: int) -> None:
        self.player, self.geo = player, geo
        table, rows, counts = encoder.offsets(geo)
        self.shape = encoder.shape_of(geo)
        self.vector = np.zeros(math.prod(self.shape), dtype=np.float32)
        cross = self.vector[rows : rows + geo.cross_rows * geo.width]
        cross.reshape(geo.cross_rows, geo.width)[:, : geo.P] = geo.positions
        self.starts = geo.part_starts(table, rows, counts if encoder.counts else None)
        self.views: list[SeatView | None] = [None] * geo.players
        """The seat views whose station rows were written last."""
        self.written: list[Sequence[float] | None] = [None] * len(self.starts)

    def update(self, views: list[SeatView], parts: list[Sequence[float]]) -> None:
        """Write each station entry of a view that changed, with its owner's column as
        this observer sees it, and each other part that changed, at its start."""
        written, vector, last, starts = self.written, self.vector, self.views, self.starts
        player, players, owner_column = self.player, self.geo.players, self.geo.owner_column
        for k, view in enumerate(views):
            if last[k] is view:
                continue
            last[k] = view
            for i, entry in enumerate(view.entries, k * STATIONS):
                if written[i] is not entry:
                    row, start = entry.row, starts[i]
                    vector[start : start + row.size] = row
                    if entry.index >= 0:
                        vector[start + owner_column + (entry.owner - player) % players] = 1.0
                    written[i] = entry
        for i, part in enumerate(parts, len(views) * STATIONS):
            if written[i] is not part:
                vector[starts[i] : starts[i] + len(part)] = part
                written[i] = part


class _Encoder:
    """Both encoders: the same parts (``seat_views``, ``seat_blocks``, ``hand_rows``,
    ``count_parts``, ``table_values``) written into a ``WorkingCopy`` at the encoder's
    offsets."""

    name = ""
    version = 0
    counts = False
    """Whether the vector holds the discard and unseen counts (the flat one)."""

    def shape(self, game: KultGame) -> tuple[int, ...]:
        return self.shape_of(geometry(game.pool, game.num_players))

    def shape_of(self, geo: Geometry) -> tuple[int, ...]:
        raise NotImplementedError

    def offsets(self, geo: Geometry) -> tuple[int, int, int]:
        """Where the table features, the card rows and the counts start."""
        raise NotImplementedError

    def encode(self, state: KultState, player: int) -> np.ndarray:
        geo = geometry(state.game.pool, state.game.num_players)
        copy = state.encodings.get((self.name, player)) if CACHE_SEATS else None
        if copy is None:
            copy = WorkingCopy(self, geo, player)
            if CACHE_SEATS:
                state.encodings[self.name, player] = copy
        views = seat_views(state, player, geo)
        parts = table_values(state, player, geo)
        parts += seat_blocks(state, player, views)
        index = card_index(geo, state.table.cards)
        parts += hand_rows(state, player, geo, views, index)
        if self.counts:
            parts += count_parts(state, player, geo, index)
        copy.update(views, parts)
        return copy.vector.reshape(copy.shape).copy()  # a new array: callers may keep it


class FlatEncoder(_Encoder):
    """One float32 vector; ``flat_layout(pool, players)`` documents its slices."""

    name = "flat"
    counts = True

    def shape_of(self, geo: Geometry) -> tuple[int, ...]:
        return (geo.flat_size,)

    def offsets(self, geo: Geometry) -> tuple[int, int, int]:
        rows = geo.table_size
        return 0, rows, rows + geo.card_rows * geo.width


class EntityEncoder(_Encoder):
    """Rows ``0 .. 8N-1``: the stations of every cross (the observer's first), then
    ``MAX_HAND`` rows of the observer's hand slots, each a position one-hot, the card's
    data features and its state; the last ``table_rows`` rows hold the table features
    flattened and zero-padded. Empty positions are zeros but for their position."""

    name = "entity"

    def shape_of(self, geo: Geometry) -> tuple[int, ...]:
        return (geo.card_rows + geo.table_rows, geo.width)

    def offsets(self, geo: Geometry) -> tuple[int, int, int]:
        return geo.card_rows * geo.width, 0, 0


ENCODERS = {"flat": FlatEncoder(), "entity": EntityEncoder()}
