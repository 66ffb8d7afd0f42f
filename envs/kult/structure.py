"""The rows each Kult action names in the flat observation (``envs.core.structure``).

After the table features the flat observation holds one card row per station of every
cross, seat-major (the observer's first, then the next seats in turn order), then one per
hand slot of the observer (``encoders.flat_layout``). Action ids address seats relative to
the mover, who is the observer when it decides, so station ``s`` (0-7) of seat offset
``o`` is row ``o * 8 + s`` and hand slot ``h`` is row ``8 * players + h``. An action names
up to two of them, what acts and what it aims at:

===============================  =======================  =================================
action                           first row                second row
===============================  =======================  =================================
attract (station, Hub or Scene)  own station              own Scene station, none for the
                                                          Hub
recruit (Cast station)           none (the Pool)          own Cast station
push (Hub or station, station    own station, none for    own station, none for the Pool
or Pool, colour)                 the Hub
play (slot, offset, station)     the hand slot            the offset's station
attach (slot, offset, Hub or     the hand slot            the offset's station, none for a
station; or the Pool)                                     Hub or the Pool
command, discard (slot)          the hand slot            none
turn, invoke (station)           own station              none
attack (Cast, offset, Cast)      own Cast station         the offset's Cast station
done                             none                     none
===============================  =======================  =================================

Attracting, recruiting, pushing and abilities act on the mover's own cross (KU-7.2,
KU-7.3, KU-6, KU-5.2, KU-6.5); only play, attach and attack carry a seat offset. The Hub
and the Pool have no row, nor has a seat offset the game lacks (offset ≥ the player count,
never legal), so the tables are built per player count. The features say the rest: the
action's kind, a push's colour (or none: a push that pays, KU-6.5), whether the token
comes from the Hub or goes to the Hub or the Pool, the seat offset of play, attach and
attack, and each named row's station / 8 or hand slot / 10 (a hand row does not say its
slot).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from tabletop.envs.core.structure import NAMED_ROWS, ActionStructure
from tabletop.envs.kult import actions
from tabletop.envs.kult.actions import HUB, MAX_HAND, MAX_PLAYERS, NO_COLOUR, POOL, STATIONS
from tabletop.envs.kult.effects import COLOURS
from tabletop.envs.kult.encoders import geometry

if TYPE_CHECKING:
    from tabletop.envs.kult.engine import KultGame

KINDS = tuple(actions.LAYOUT.blocks)
"""done, attract, recruit, push, play, attach, command, turn, invoke, attack, discard."""
FEATURES = (
    *(f"kind {kind}" for kind in KINDS),
    *(f"colour {colour}" for colour in COLOURS),
    "no colour (a paying push)",
    "from the Hub",
    "to the Hub",
    "to the Pool",
    *(f"seat +{offset}" for offset in range(MAX_PLAYERS)),
    "first row's position",
    "second row's position",
)

Named = tuple[tuple[int, int], dict[str, float]]
"""The two rows an action names and its features beside its kind and rows' positions."""


def flat_structure(game: KultGame) -> ActionStructure:
    """The structure of ``game``'s flat observation: its size and row width depend on the
    pool and the player count, the rows an action names on the player count."""
    geo = geometry(game.pool, game.num_players)
    rows, features = _tables(game.num_players)
    return ActionStructure(geo.flat_size, geo.table_size, geo.card_rows, geo.width, rows, features)


@dataclass(frozen=True)
class Rows:
    """The card rows of the flat observation with ``players`` seats."""

    players: int

    @property
    def cross(self) -> int:
        """Station rows, before the hand rows."""
        return self.players * STATIONS

    @property
    def none(self) -> int:
        """The index that names no row (``ActionStructure.rows``)."""
        return self.cross + MAX_HAND

    def station(self, station: int, offset: int = 0) -> int:
        """Station 0-7 of seat offset ``offset``; none for the Hub, the Pool or a seat
        the game has not."""
        if station in (HUB, POOL) or not 0 <= offset < self.players:
            return self.none
        return offset * STATIONS + station

    def slot(self, slot: int) -> int:
        return self.cross + slot

    def position(self, row: int) -> float:
        """A named row's station / 8 or hand slot / 10 (0 for none): a hand row does not
        say its slot, and a player's tie-breaks may read it."""
        if row == self.none:
            return 0.0
        if row < self.cross:
            return (row % STATIONS) / STATIONS
        return (row - self.cross) / MAX_HAND


@functools.cache
def _tables(players: int) -> tuple[np.ndarray, np.ndarray]:
    table = Rows(players)
    rows = np.full((actions.NUM_ACTIONS, NAMED_ROWS), table.none, dtype=np.int64)
    features = np.zeros((actions.NUM_ACTIONS, len(FEATURES)), dtype=np.float32)
    for action in range(actions.NUM_ACTIONS):
        kind, fields = actions.decode(action)
        rows[action], named_features = _NAMED[kind](table, *fields)
        named_features[f"kind {kind}"] = 1.0
        named_features["first row's position"] = table.position(rows[action, 0])
        named_features["second row's position"] = table.position(rows[action, 1])
        for name, value in named_features.items():
            features[action, FEATURES.index(name)] = value
    rows.flags.writeable = features.flags.writeable = False
    return rows, features


def _ends(source: int | None, target: int) -> dict[str, float]:
    """The ends of a move that have no row: the Hub it leaves, the Hub or Pool it reaches."""
    ends = {
        "from the Hub": source == HUB,
        "to the Hub": target == HUB,
        "to the Pool": target == POOL,
    }
    return {name: 1.0 for name, flag in ends.items() if flag}


def _done(table: Rows) -> Named:
    return (table.none, table.none), {}


def _attract(table: Rows, source: int, target: int) -> Named:
    return (table.station(source), table.station(target)), _ends(source, target)


def _recruit(table: Rows, station: int) -> Named:
    return (table.none, table.station(station)), {}


def _push(table: Rows, source: int, target: int, colour: int) -> Named:
    features = _ends(source, target)
    if colour == NO_COLOUR:
        features["no colour (a paying push)"] = 1.0
    else:
        features[f"colour {COLOURS[colour]}"] = 1.0
    return (table.station(source), table.station(target)), features


def _play(table: Rows, slot: int, offset: int, station: int) -> Named:
    return (table.slot(slot), table.station(station, offset)), {f"seat +{offset}": 1.0}


def _attach(table: Rows, slot: int, offset: int, where: int) -> Named:
    """Onto a seat's Hub or station, or onto the Pool (offset -1)."""
    features = _ends(None, where)
    if offset >= 0:
        features[f"seat +{offset}"] = 1.0
    return (table.slot(slot), table.station(where, offset)), features


def _hand_card(table: Rows, slot: int) -> Named:
    return (table.slot(slot), table.none), {}


def _ability(table: Rows, station: int) -> Named:
    return (table.station(station), table.none), {}


def _attack(table: Rows, attacker: int, offset: int, target: int) -> Named:
    return (table.station(attacker), table.station(target, offset)), {f"seat +{offset}": 1.0}


_NAMED: dict[str, Callable[..., Named]] = {
    "done": _done,
    "attract": _attract,
    "recruit": _recruit,
    "push": _push,
    "play": _play,
    "attach": _attach,
    "command": _hand_card,
    "turn": _ability,
    "invoke": _ability,
    "attack": _attack,
    "discard": _hand_card,
}
