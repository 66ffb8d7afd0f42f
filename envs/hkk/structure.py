"""The rows each HKK action names in the flat observation (``envs.core.structure``).

The flat observation holds the card rows of ``encoders.ROW_BLOCKS`` after the table
features: hand slots, own table positions, enemy table positions, chain items. An action
names up to two of them:

============================  =========================  ==================================
action                        first row                  second row
============================  =========================  ==================================
play (slot, ref)              the hand slot              the ref's table position
activate (pos, ability, ref)  own table position         the ref's table position
sacrifice, guard, reserve,    own table position         none
direct, regenerate (pos)
choose (ref)                  none                       the ref's table position
attack, breath (pos, target)  own table position         the enemy table position, or none
                                                         for the player
pass, pay                     none                       none
============================  =========================  ==================================

A ref to a card in the discard pile names no row (discarded cards are counted, not laid
out). The features say the rest: the action's kind, the ability number, the breath
amount / 10, the kind of ref (none, own, enemy, discard, the player), the discard
card's number / 24, and each named row's slot or table position / 24 (the rows do not say
where they are, and a player's tie-breaks may).
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

import numpy as np

from tabletop.envs.core.structure import NAMED_ROWS, ActionStructure, place_in_block
from tabletop.envs.hkk import actions
from tabletop.envs.hkk.encoders import (
    CARD_ROWS,
    ENCODERS,
    ENEMY_ROW,
    HAND_ROW,
    OWN_ROW,
    TABLE_SIZE,
    WIDTH,
)

if TYPE_CHECKING:
    from tabletop.envs.hkk.engine import HkkGame

KINDS = ("pass", "pay", "play", "activate", "sacrifice", "guard", "reserve", "choose",
         "attack", "breath", "direct", "regenerate")  # fmt: skip
REF_KINDS = ("none", "own", "enemy", "discard", "player")
FEATURES = (
    *(f"kind {kind}" for kind in KINDS),
    *(f"ability {number}" for number in range(actions.MAX_ABILITIES)),
    "breath amount / 10",
    *(f"ref {kind}" for kind in REF_KINDS),
    "discard number / 24",
    "first row's position / 24",
    "second row's position / 24",
)
NO_ROW = CARD_ROWS
ONE_ROW_KINDS = ("sacrifice", "guard", "reserve", "direct", "regenerate")


def flat_structure(game: HkkGame) -> ActionStructure:
    """The structure of ``game``'s flat observation (its size depends on the pool)."""
    rows, features = _tables()
    size = ENCODERS["flat"].shape(game)[0]
    return ActionStructure(size, TABLE_SIZE, CARD_ROWS, WIDTH, rows, features)


@functools.cache
def _tables() -> tuple[np.ndarray, np.ndarray]:
    rows = np.full((actions.NUM_ACTIONS, NAMED_ROWS), NO_ROW, dtype=np.int64)
    features = np.zeros((actions.NUM_ACTIONS, len(FEATURES)), dtype=np.float32)
    for action in range(actions.NUM_ACTIONS):
        kind, fields = actions.decode(action)
        rows[action], named_features = _named(kind, fields)
        for name, value in named_features.items():
            features[action, FEATURES.index(name)] = value
        features[action, FEATURES.index(f"kind {kind}")] = 1.0
        for which, row in zip(("first", "second"), rows[action], strict=True):
            features[action, FEATURES.index(f"{which} row's position / 24")] = _position(row)
    rows.flags.writeable = features.flags.writeable = False
    return rows, features


def _position(row: int) -> float:
    """A named row's slot or table position within its block (0 for none)."""
    if row == NO_ROW:
        return 0.0
    return place_in_block(row, (HAND_ROW, OWN_ROW, ENEMY_ROW)) / actions.MAX_TABLE


def _named(kind: str, fields: tuple[int, ...]) -> tuple[tuple[int, int], dict[str, float]]:
    """The two rows ``kind`` with ``fields`` names and its features beside its kind."""
    if kind == "play":
        target, features = _ref(fields[1])
        return (HAND_ROW + fields[0], target), features
    if kind == "activate":
        target, features = _ref(fields[2])
        return (OWN_ROW + fields[0], target), {**features, f"ability {fields[1]}": 1.0}
    if kind == "choose":
        target, features = _ref(fields[0])
        return (NO_ROW, target), features
    if kind in ("attack", "breath"):
        target, features = _strike_target(fields[-1])
        if kind == "breath":
            features["breath amount / 10"] = fields[1] / 10
        return (OWN_ROW + fields[0], target), features
    if kind in ONE_ROW_KINDS:
        return (OWN_ROW + fields[0], NO_ROW), {"ref none": 1.0}
    return (NO_ROW, NO_ROW), {"ref none": 1.0}


def _ref(ref: int) -> tuple[int, dict[str, float]]:
    where, number = actions.decode_ref(ref)
    features = {f"ref {where}": 1.0}
    if where == "own":
        return OWN_ROW + number, features
    if where == "enemy":
        return ENEMY_ROW + number, features
    if where == "discard":
        features["discard number / 24"] = number / actions.MAX_TABLE
    return NO_ROW, features


def _strike_target(target: int) -> tuple[int, dict[str, float]]:
    if target == actions.PLAYER_TARGET:
        return NO_ROW, {"ref player": 1.0}
    return ENEMY_ROW + target - 1, {"ref enemy": 1.0}
