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

import weakref
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from tabletop.envs.core.layout import stack_layout
from tabletop.envs.kult import crosses
from tabletop.envs.kult.actions import CAST, MAX_HAND, NUM_COLOURS, STATIONS
from tabletop.envs.kult.cards import ATTACH, INTO, NEUTRAL, Card, Pool, load_pool
from tabletop.envs.kult.combat import Fight
from tabletop.envs.kult.effects import BEFORE_RECRUIT, COLOURS, FIGHT, VOCAB
from tabletop.envs.kult.plays import in_play
from tabletop.envs.kult.turns import OVER, PHASE_NAMES
from tabletop.envs.kult.zones import Attachment

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
        self.table_rows = -(-self.table_size // self.width)
        self.counts = len(pool.cards)
        self.flat_size = self.table_size + self.card_rows * self.width + (players + 1) * self.counts
        self.static = self._static_rows()
        self.positions = self._positions()
        self.seat_cache: dict[tuple, tuple[np.ndarray, SeatSummary]] = {}
        """``seat_views``' cache: a seat's rows and summary by what they are read from."""
        self.station_cache: dict[tuple, np.ndarray] = {}
        """``_seat_rows``' cache: a station's row by what it is read from."""
        self.hand_cache: dict[tuple, np.ndarray] = {}
        """``hand_rows``' cache: the hand rows by its cards and which are playable."""
        self.pile_cache: dict[bytes, np.ndarray] = {}
        """``_pile_counts``' cache: a discard pile's counts by its pool cards."""
        self.index_cache: dict[int, tuple[list, np.ndarray]] = {}
        """``_pool_indices``' cache: a table's pool index per instance."""
        self.no_hand = np.zeros((MAX_HAND, self.width), dtype=np.float32)
        self.no_counts = np.zeros(self.counts, dtype=np.float32)
        self.phase_one_hot = [
            [float(p == phase) for p in range(len(PHASE_NAMES))]
            for phase in range(len(PHASE_NAMES))
        ]
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
        self.arcanum_index = {a.name: a.index for a in pool.arcana}
        self.static_amounts = [
            tuple(_static_amount(card.static(name)) for name in STATIC_NAMES) for card in pool.cards
        ]
        """``static_amounts[card.index]``: its amount of every ``STATIC_NAMES`` modifier."""

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


class SeatSummary:
    """What both encoders read of one cross, gathered in one pass over its cards and
    Influences: per station, the Influences on its card and on the station (count, and
    their combat and holds modifiers as printed), the Hub's combat modifier, tokens in
    the Scene and the Cast, and the permanent keys (as ``crosses.permanent_keys`` counts
    them: a test holds them equal)."""

    __slots__ = (
        "marks", "hub_combat", "hub_keys", "permanent", "scene", "cast", "owned", "tokens", "tail"
    )  # fmt: skip

    def __init__(self, state: KultState, seat: int, geo: Geometry) -> None:
        mods = geo.modifiers
        owners = state.table.owners
        self.owned: dict[int, list[int]] = {}
        """Owner -> pool indices of the cards in this cross it owns (cards and Influences)."""
        self.marks: dict[int, list[float]] = {}
        self.hub_combat = 0.0
        self.hub_keys = 0
        keys = list(state.arcana[seat].keys)
        for attachment in state.influences[seat]:
            self.owned.setdefault(owners[attachment.iid], []).append(attachment.card.index)
            attach = attachment.card.attach
            combat, holds, given = mods[attachment.card.index]
            if any(given):
                self.hub_keys += sum(given)
                keys = [k + g for k, g in zip(keys, given, strict=True)]
            if attach == "hub":
                self.hub_combat += combat
                continue
            mark = self.marks.get(attachment.station)
            if mark is None:
                mark = self.marks[attachment.station] = [0, 0.0, 0.0, 0, 0.0, 0.0]
            if attach == "station":
                mark[3] += 1
                mark[4] += combat
                mark[5] += holds
            else:
                mark[0] += 1
                mark[1] += combat
                mark[2] += holds
        scene = cast = 0
        for station, base in enumerate(state.crosses[seat]):
            if base is None:
                continue
            self.owned.setdefault(owners[base.iid], []).append(base.card.index)
            if station < CAST.start:
                scene += base.tokens
            else:
                cast += base.tokens
            if base.face_up and base.card.kind == "place":
                keys = [k + c for k, c in zip(keys, base.card.colours, strict=True)]
        self.permanent = keys
        self.scene = scene
        self.cast = cast
        self.tokens = (scene / 4, cast / 4)
        """Its tokens figures in the seat block, as ``table_values`` writes them."""
        self.tail = (
            self.hub_combat / 3, self.hub_keys / 3, *geo.arcanum_values[state.arcana[seat].name]
        )  # fmt: skip
        """The end of its seat block: the Hub Influences' figures and the Arcanum's."""


def keys_now(state: KultState, seat: int, summary: SeatSummary) -> list[int]:
    """The seat's keys now: permanent and temporary (``crosses.keys``)."""
    return [k + t for k, t in zip(summary.permanent, state.temp_keys[seat], strict=True)]


CACHE_SEATS = True
"""Reuse what an observation is made of while everything it is read from is unchanged: a
seat's rows and summary (``_seat_key``), a station's row, the hand rows and a discard
pile's counts; off, every view is computed afresh (a test compares the two)."""
CACHE_SIZE = 1024
"""Cached entries per cache of a geometry; a cache is emptied when it is full."""


def _seat_key(state: KultState, seat: int, k: int) -> tuple:
    """Everything a seat's rows and summary are read from, seen from relative seat ``k``:
    its Arcanum, its cross (card, owner, face, tokens per station), its Influences and the
    Pool's, the turn's recruits and push abilities if it is the active seat, and its part
    in a fight."""
    owners = state.table.owners
    cross = tuple(
        [
            None if b is None else (b.card.index, owners[b.iid] - seat, b.face_up, b.tokens)
            for b in state.crosses[seat]
        ]
    )
    influences = state.influences[seat]
    attached = tuple([(a.card.index, a.station) for a in influences]) if influences else ()
    pool = state.pool_influences
    pooled = tuple([a.card.index for a in pool]) if pool else ()
    turn = (
        (tuple(sorted(state.recruited)), tuple(sorted(state.invoked)))
        if seat == state.active
        else None
    )
    fight = state.fight
    fighting = None
    if fight is not None and seat in (fight.attacker[0], fight.defender[0]):
        fighting = (fight.attacker, fight.defender)
    return (seat, k, state.arcana[seat].index, cross, attached, pooled, turn, fighting)


def seat_views(
    state: KultState, player: int, geo: Geometry
) -> list[tuple[np.ndarray, SeatSummary]]:
    """Per relative seat (the observer first): its 8 card rows and its ``SeatSummary``,
    from the cache when nothing they read has changed."""
    views = []
    cache = geo.seat_cache
    players = geo.players
    for k in range(players):
        seat = (player + k) % players
        if not CACHE_SEATS:
            summary = SeatSummary(state, seat, geo)
            views.append((_seat_rows(state, seat, k, player, geo, summary), summary))
            continue
        key = _seat_key(state, seat, k)
        view = cache.get(key)
        if view is None:
            summary = SeatSummary(state, seat, geo)
            view = (_seat_rows(state, seat, k, player, geo, summary), summary)
            if len(cache) >= CACHE_SIZE:
                cache.clear()
            cache[key] = view
        views.append(view)
    return views


def table_values(
    state: KultState, player: int, geo: Geometry, views: list[tuple[np.ndarray, SeatSummary]]
) -> list[float]:
    """The table features (``Geometry.table_features``) of ``player``'s view, in order."""
    game = state.game
    players = geo.players
    over = state.phase == OVER
    values: list[float] = [
        state.pool_tokens / game.tokens,
        game.target / 10,
        state.plies / game.max_plies,
    ]
    values += geo.phase_one_hot[state.phase]
    values.append(float(not over and state.player == player))
    pending = state.pending_push
    recruited, invoked = state.recruited, state.invoked
    values += (float(state.attacked), float(state.embargo), float(pending is not None))
    values += [float(s in recruited) for s in CAST] if recruited else _ZEROS[: len(CAST)]
    values += [float(s in invoked) for s in range(STATIONS)] if invoked else _ZEROS[:STATIONS]
    values += _ZEROS[:STATIONS] if pending is None else [float(pending == s) for s in range(8)]
    stepping = state.pending_token
    if stepping is None:
        values += _ZEROS[: 1 + players]
    else:
        values += [1.0] + [float((stepping[0] - player) % players == k) for k in range(players)]
    fight = state.fight
    if fight is None:
        values += _ZEROS[: 2 * players + 2 * len(CAST) + 5]
    else:
        values += _fight_values(state, fight, player, players)
    last = state.last_fight
    if last is None or last.values is None:
        values += _ZEROS[: len(FIGHT_RESULTS) + 2]
    else:
        values += (float(last.result == r) for r in FIGHT_RESULTS)
        values += (last.values[0] / 5, last.values[1] / 5)
    pool_influences = state.pool_influences
    if pool_influences:
        values.append(len(pool_influences) / 3)
        amounts = geo.static_amounts
        for column in range(len(STATIC_NAMES)):
            total = 0.0
            for attachment in pool_influences:
                total += amounts[attachment.card.index][column]
            values.append(total / 3)
    else:
        values += _ZEROS[: len(STATIC_NAMES) + 1]
    window = state.window
    responder = window.responder if window is not None else -1
    active = state.active if not over else -1
    target = game.target
    hub_tokens, temp_keys = state.hub_tokens, state.temp_keys
    hands, decks, discards = state.hands, state.decks, state.discards
    for k in range(players):
        seat = (player + k) % players
        summary = views[k][1]
        values += (float(active == seat), float(responder == seat), hub_tokens[seat] / target)
        values += summary.tokens
        temp = temp_keys[seat]
        values += [(key + t) / 4 for key, t in zip(summary.permanent, temp, strict=True)]
        values += [t / 4 for t in temp]
        values += (len(hands[seat]) / MAX_HAND, len(decks[seat]) / 30, len(discards[seat]) / 30)
        values += summary.tail
    return values


_ZEROS = [0.0] * 32


def _fight_values(state: KultState, fight: Fight | None, player: int, players: int) -> list[float]:
    if fight is None:
        return [0.0] * (2 * players + 2 * len(CAST) + 5)
    values: list[float] = []
    for seat, station in (fight.attacker, fight.defender):
        values += (float((seat - player) % players == k) for k in range(players))
        values += (float(station == s) for s in CAST)
    attack = crosses.combat_value(state, *fight.attacker) + fight.bonus[0]
    defence = crosses.combat_value(state, *fight.defender) + fight.bonus[1]
    values += (fight.bonus[0] / 5, fight.bonus[1] / 5, float(fight.cancelled))
    values += (attack / 5, defence / 5)
    return values


def _statics_sum(attachments: Sequence[Attachment], name: str) -> float:
    total = 0.0
    for attachment in attachments:
        params = attachment.card.static(name)
        if params is not None:
            total += _static_amount(params)
    return total


def hand_rows(state: KultState, player: int, geo: Geometry, summary: SeatSummary) -> np.ndarray:
    """The ``MAX_HAND`` x ``width`` rows of ``player``'s hand slots (cached by the cards
    and which of them the player may pay for now): do not modify the array returned."""
    hand = state.hands[player]
    if not hand:
        return geo.no_hand
    k0, k1, k2, k3, k4 = keys_now(state, player, summary)
    allegiance = state.arcana[player].allegiance
    cards = state.table.cards
    key = []
    for iid in hand:
        card = cards[iid]
        c0, c1, c2, c3, c4 = card.cost
        playable = (
            k0 >= c0 and k1 >= c1 and k2 >= c2 and k3 >= c3 and k4 >= c4
            and card.allegiance in (NEUTRAL, allegiance)
            and not (card.unique and in_play(state, card))
        )  # fmt: skip
        key.append(card.index if playable else -1 - card.index)
    cache = geo.hand_cache
    rows = cache.get(tuple(key)) if CACHE_SEATS else None
    if rows is None:
        rows = np.zeros((MAX_HAND, geo.width), dtype=np.float32)
        sources = [i if i >= 0 else -1 - i for i in key]
        count = len(key)
        rows[:count, geo.P : geo.P + geo.C] = geo.static.take(sources, axis=0)
        dyn = geo.P + geo.C
        rows[:count, 1] = 1.0  # in hand
        rows[:count, 2] = 1.0  # controller seat +0
        rows[:count, dyn + 4] = 1.0  # owner seat +0
        rows[:count, dyn + 12 + geo.players] = [float(i >= 0) for i in key]
        if CACHE_SEATS:
            if len(cache) >= CACHE_SIZE:
                cache.clear()
            cache[tuple(key)] = rows
    return rows


def fill_card_rows(
    state: KultState,
    player: int,
    rows: np.ndarray,
    geo: Geometry,
    views: list[tuple[np.ndarray, SeatSummary]],
) -> None:
    """Write the ``card_rows`` x ``width`` rows of ``player``'s view into ``rows``: each
    seat's 8 rows from ``seat_views``, then the observer's hand."""
    for k, (block, _) in enumerate(views):
        rows[k * STATIONS : (k + 1) * STATIONS] = block
    rows[geo.cross_rows :] = hand_rows(state, player, geo, views[0][1])


def _seat_rows(
    state: KultState, seat: int, k: int, player: int, geo: Geometry, summary: SeatSummary
) -> np.ndarray:
    """The 8 rows of ``seat``'s cross (relative seat ``k``), a new array: one row per
    station, each from the station cache when what it is read from is unchanged. Holding
    limits and combat values are the engine's (``crosses.holding_limit``,
    ``crosses.combat_value``)."""
    players = geo.players
    owners = state.table.owners
    fight = state.fight
    attacking = fight.attacker if fight is not None else None
    defending = fight.defender if fight is not None else None
    holding_limit, combat_value = crosses.holding_limit, crosses.combat_value
    marks = summary.marks
    active = seat == state.active
    recruited, invoked = state.recruited, state.invoked
    cache = geo.station_cache
    rows = []
    for station, base in enumerate(state.crosses[seat]):
        mark = marks.get(station) if marks else None
        if base is None:
            key: tuple = (k, station, mark[3] if mark else 0)
        else:
            card = base.card
            at = (seat, station)
            key = (
                k, station, mark[3] if mark else 0, card.index,
                (owners[base.iid] - player) % players, base.face_up, base.tokens,
                holding_limit(state, seat, station),
                combat_value(state, seat, station) if card.kind == "being" else None,
                (mark[0], mark[1], mark[2]) if mark and mark[0] else None,
                active and station in recruited, active and station in invoked,
                attacking is not None and attacking == at,
                attacking is not None and attacking != at and defending == at,
            )  # fmt: skip
        row = cache.get(key) if CACHE_SEATS else None
        if row is None:
            row = _station_row(key, geo)
            if CACHE_SEATS:
                if len(cache) >= CACHE_SIZE:
                    cache.clear()
                cache[key] = row
        rows.append(row)
    return np.concatenate(rows).reshape(STATIONS, geo.width)


def _station_row(key: tuple, geo: Geometry) -> np.ndarray:
    """One station's row from its ``_seat_rows`` key."""
    k, station, station_marks = key[:3]
    players = geo.players
    dyn = geo.P + geo.C
    row = np.zeros(geo.width, dtype=np.float32)
    row[: geo.P] = geo.positions[k * STATIONS + station]
    if station_marks:
        row[dyn + 7 + players] = station_marks / 3
    if len(key) == 3:
        return row
    _, _, _, index, owner, face_up, tokens, limit, combat, mark, recruited, invoked = key[:12]
    attacking, defending = key[12:]
    row[geo.P : geo.P + geo.C] = geo.static[index]
    row[dyn : dyn + 3] = (float(face_up), tokens / 3, limit / 3)
    row[dyn + 4 + owner] = 1.0
    if combat is not None:
        row[dyn + 3] = combat / 5
    if mark is not None:
        row[dyn + 4 + players : dyn + 7 + players] = (mark[0] / 3, mark[1] / 3, mark[2] / 3)
    if recruited:
        row[dyn + 8 + players] = 1.0
    if invoked:
        row[dyn + 9 + players] = 1.0
    if attacking:
        row[dyn + 10 + players] = 1.0
    elif defending:
        row[dyn + 11 + players] = 1.0
    return row


_DECK_LISTS: weakref.WeakKeyDictionary[KultGame, list[np.ndarray]] = weakref.WeakKeyDictionary()


def deck_list(game: KultGame, seat: int, size: int) -> np.ndarray:
    """Copies of each pool card in ``seat``'s deck list after KU-2.1's swap (public from
    the start), cached per game."""
    lists = _DECK_LISTS.get(game)
    if lists is None:
        lists = _DECK_LISTS[game] = [
            np.bincount(cards, minlength=size).astype(np.float32) for cards in game.deck_cards()
        ]
    return lists[seat]


def _pool_indices(geo: Geometry, cards: list[Card]) -> np.ndarray:
    """``cards[iid].index`` for every instance of a table, as an array (cached per
    ``Table.cards`` list, which copies share and the engine replaces, never edits)."""
    cached = geo.index_cache.get(id(cards))
    if cached is None or cached[0] is not cards or len(cached[1]) != len(cards):
        if len(geo.index_cache) >= CACHE_SIZE:
            geo.index_cache.clear()
        cached = geo.index_cache[id(cards)] = (
            cards,
            np.fromiter((card.index for card in cards), np.intp, len(cards)),
        )
    return cached[1]


def _pile_counts(geo: Geometry, pile: list[int], indices: np.ndarray) -> np.ndarray:
    """Copies of each pool card in a discard pile / 3 (cached by the pile's pool cards)."""
    if not pile:
        return geo.no_counts
    cards = indices[pile]
    if not CACHE_SEATS:
        return np.bincount(cards, minlength=geo.counts).astype(np.float32) / 3
    key = cards.tobytes()
    counts = geo.pile_cache.get(key)
    if counts is None:
        counts = np.bincount(cards, minlength=geo.counts).astype(np.float32) / 3
        if len(geo.pile_cache) >= CACHE_SIZE:
            geo.pile_cache.clear()
        geo.pile_cache[key] = counts
    return counts


def count_parts(
    state: KultState, player: int, geo: Geometry, views: list[tuple[np.ndarray, SeatSummary]]
) -> list[np.ndarray]:
    """Per-card counts of every discard pile (the observer's first) and of the observer's
    unseen cards: its deck list less its hand, its discard pile and its cards in play
    anywhere (what remains is its deck and Hub card together, in an unknown order), each
    / 3: do not modify the arrays returned."""
    players = geo.players
    size = geo.counts
    indices = _pool_indices(geo, state.table.cards)
    discards = state.discards
    parts = [_pile_counts(geo, discards[(player + k) % players], indices) for k in range(players)]
    owners = state.table.owners
    seen = state.hands[player] + discards[player]
    in_play = [a.card.index for a in state.pool_influences if owners[a.iid] == player]
    for _, summary in views:
        in_play += summary.owned.get(player, ())
    held = np.bincount(indices[seen], minlength=size) if seen else 0
    if in_play:
        held = held + np.bincount(in_play, minlength=size)
    parts.append((deck_list(state.game, player, size) - held).astype(np.float32) / 3)
    return parts


def count_values(
    state: KultState, player: int, geo: Geometry, views: list[tuple[np.ndarray, SeatSummary]]
) -> np.ndarray:
    """``count_parts`` as one vector."""
    return np.concatenate(count_parts(state, player, geo, views))


class FlatEncoder:
    """One float32 vector; ``flat_layout(pool, players)`` documents its slices."""

    name = "flat"
    version = 0

    def shape(self, game: KultGame) -> tuple[int, ...]:
        return (geometry(game.pool, game.num_players).flat_size,)

    def encode(self, state: KultState, player: int) -> np.ndarray:
        geo = geometry(state.game.pool, geo_players(state))
        views = seat_views(state, player, geo)
        return np.concatenate(
            (
                np.array(table_values(state, player, geo, views), dtype=np.float32),
                *(block.reshape(-1) for block, _ in views),
                hand_rows(state, player, geo, views[0][1]).reshape(-1),
                *count_parts(state, player, geo, views),
            )
        )


class EntityEncoder:
    """Rows ``0 .. 8N-1``: the stations of every cross (the observer's first), then
    ``MAX_HAND`` rows of the observer's hand slots, each a position one-hot, the card's
    data features and its state; the last ``table_rows`` rows hold the table features
    flattened and zero-padded. Empty positions are zeros but for their position."""

    name = "entity"
    version = 0

    def shape(self, game: KultGame) -> tuple[int, ...]:
        geo = geometry(game.pool, game.num_players)
        return (geo.card_rows + geo.table_rows, geo.width)

    def encode(self, state: KultState, player: int) -> np.ndarray:
        geo = geometry(state.game.pool, geo_players(state))
        views = seat_views(state, player, geo)
        table = np.zeros(geo.table_rows * geo.width, dtype=np.float32)
        table[: geo.table_size] = table_values(state, player, geo, views)
        return np.concatenate(
            (
                *(block for block, _ in views),
                hand_rows(state, player, geo, views[0][1]),
                table.reshape(geo.table_rows, geo.width),
            )
        )


def geo_players(state: KultState) -> int:
    return state.game.num_players


ENCODERS = {"flat": FlatEncoder(), "entity": EntityEncoder()}
