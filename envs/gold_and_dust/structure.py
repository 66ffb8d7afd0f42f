"""The rows each Gold & Dust action names in the flat observation (``envs.core.structure``).

The flat observation holds the card rows of ``encoders.ROW_BLOCKS`` after the table
features: hand slots, own unit slots, enemy unit slots, own and enemy artifacts. Every
board slot is seen from the deciding player: the defender's own board while it blocks
(GD-7.1), the attacker's own board otherwise. An action names three rows:

=========================  =============  =================  ===========================
action                     what acts      own target         enemy target
=========================  =============  =================  ===========================
play (hand slot, unit u)   the hand slot  own unit slot u    enemy unit slot u
play (hand slot, none or   the hand slot  none               none
Hero)
move, attack (slot)        own unit slot  none               none
shoot (slot, enemy slot)   own unit slot  none               the enemy unit slot, or
                                                             none for the enemy Hero
block (attacker, blocker)  own unit slot  none               the attacker's enemy unit
                           (the blocker)                     slot
strike (target)            none           none               the enemy unit slot, or
                                                             none for the enemy Hero
done                       none           none               none
=========================  =============  =================  ===========================

A play's unit target is a slot on the side the card aims at, which only the card says (its
row's "targets the enemy"), so it names both sides' rows at that slot and the scorer reads
the card to tell which one counts. A strike's attacker is whichever unblocked attacker is
next (GD-7.4), not a part of the action id: its row carries "strikes next" instead.

The features say the rest: the action's kind, what its target is (none, a Hero, a unit),
and each named row's slot within its block / 8 (the rows do not say where they are, and a
player's tie-breaks may).
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

import numpy as np

from tabletop.envs.core.structure import ActionStructure, place_in_block
from tabletop.envs.gold_and_dust import actions
from tabletop.envs.gold_and_dust.encoders import (
    CARD_ROWS,
    ENCODERS,
    ENEMY_ROW,
    HAND_ROW,
    OWN_ROW,
    TABLE_SIZE,
    WIDTH,
)

if TYPE_CHECKING:
    from tabletop.envs.gold_and_dust.engine import GoldDustGame

KINDS = tuple(actions.LAYOUT.blocks)
"""done, play, move, shoot, attack, block, strike."""
TARGETS = ("none", "Hero", "unit")
NAMED = ("actor", "own target", "enemy target")
FEATURES = (
    *(f"kind {kind}" for kind in KINDS),
    *(f"target {target}" for target in TARGETS),
    *(f"{named} row's slot / {actions.BOARD_SLOTS}" for named in NAMED),
)
NO_ROW = CARD_ROWS
ONE_ROW_KINDS = ("move", "attack")


def flat_structure(game: GoldDustGame) -> ActionStructure:
    """The structure of ``game``'s flat observation (its size depends on the pool)."""
    rows, features = _tables()
    size = ENCODERS["flat"].shape(game)[0]
    return ActionStructure(size, TABLE_SIZE, CARD_ROWS, WIDTH, rows, features)


@functools.cache
def _tables() -> tuple[np.ndarray, np.ndarray]:
    rows = np.full((actions.NUM_ACTIONS, len(NAMED)), NO_ROW, dtype=np.int64)
    features = np.zeros((actions.NUM_ACTIONS, len(FEATURES)), dtype=np.float32)
    for action in range(actions.NUM_ACTIONS):
        kind, fields = actions.decode(action)
        rows[action], target = _named(kind, fields)
        features[action, FEATURES.index(f"kind {kind}")] = 1.0
        features[action, FEATURES.index(f"target {target}")] = 1.0
        for named, row in zip(NAMED, rows[action], strict=True):
            name = f"{named} row's slot / {actions.BOARD_SLOTS}"
            features[action, FEATURES.index(name)] = _slot(int(row))
    rows.flags.writeable = features.flags.writeable = False
    return rows, features


def _slot(row: int) -> float:
    """A named row's slot within its block (0 for none)."""
    if row == NO_ROW:
        return 0.0
    return place_in_block(row, (HAND_ROW, OWN_ROW, ENEMY_ROW)) / actions.BOARD_SLOTS


def _named(kind: str, fields: tuple[int, ...]) -> tuple[tuple[int, int, int], str]:
    """The (actor, own target, enemy target) rows ``kind`` with ``fields`` names, and what
    its target is (one of ``TARGETS``)."""
    if kind == "play":
        hand_slot, target = fields
        if target >= 2:
            slot = target - 2
            return (HAND_ROW + hand_slot, OWN_ROW + slot, ENEMY_ROW + slot), "unit"
        hero = "Hero" if target == actions.HERO_TARGET else "none"
        return (HAND_ROW + hand_slot, NO_ROW, NO_ROW), hero
    if kind == "shoot":
        enemy, target = _enemy_target(fields[1])
        return (OWN_ROW + fields[0], NO_ROW, enemy), target
    if kind == "strike":
        enemy, target = _enemy_target(fields[0])
        return (NO_ROW, NO_ROW, enemy), target
    if kind == "block":
        attacker, blocker = fields
        return (OWN_ROW + blocker, NO_ROW, ENEMY_ROW + attacker), "unit"
    if kind in ONE_ROW_KINDS:
        return (OWN_ROW + fields[0], NO_ROW, NO_ROW), "none"
    return (NO_ROW, NO_ROW, NO_ROW), "none"


def _enemy_target(target: int) -> tuple[int, str]:
    """A shot's or strike's target: 0 the enemy Hero (no row), 1 + an enemy unit slot."""
    if target == 0:
        return NO_ROW, "Hero"
    return ENEMY_ROW + target - 1, "unit"
