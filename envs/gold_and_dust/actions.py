"""Gold & Dust's fixed action space: ids address hand slots and board slots, never card ids,
so the same ``Discrete(NUM_ACTIONS)`` serves every pool and deck.

| ids | action | notation |
|---|---|---|
| 0 | end the current step | ``done`` |
| PLAY | play hand slot h at target t (none, a Hero, a unit slot) | ``play Firebolt>Pikeman`` |
| MOVE | move own unit in slot s up to the first row | ``move Pikeman up`` |
| SHOOT | ranged unit in slot s shoots the enemy Hero or enemy slot u | ``shoot Archer>Hero`` |
| ATTACK | declare own first-row unit in slot s an attacker | ``attack Pikeman`` |
| BLOCK | the defender blocks attacker slot a with its slot b | ``block Pikeman with Wall`` |
| STRIKE | the next unblocked attacker hits the Hero or enemy slot u | ``strike Pikeman>Hero`` |
"""

from __future__ import annotations

from tabletop.envs.core.cards.actions import ActionLayout

MAX_HAND = 5  # GD-1.3
BOARD_SLOTS = 8
"""Units a player may have on the table at once [decision: the rules set no limit, a fixed
action space needs one; 8 is rarely reached]."""
ARTIFACT_SLOTS = 4
"""Lasting artifacts a player may have on the table at once [decision, as BOARD_SLOTS]."""

NO_TARGET, HERO_TARGET = 0, 1
PLAY_TARGETS = 2 + BOARD_SLOTS
"""Per hand slot: no target, the Hero of the card's side, or a unit slot of that side."""
SHOT_TARGETS = 1 + BOARD_SLOTS
"""Shots and strikes: the enemy Hero, or an enemy unit slot."""

LAYOUT = ActionLayout(
    "gold_and_dust",
    [
        ("done", ()),
        ("play", (MAX_HAND, PLAY_TARGETS)),
        ("move", (BOARD_SLOTS,)),
        ("shoot", (BOARD_SLOTS, SHOT_TARGETS)),
        ("attack", (BOARD_SLOTS,)),
        ("block", (BOARD_SLOTS, BOARD_SLOTS)),
        ("strike", (SHOT_TARGETS,)),
    ],
)
"""The rows of the table above, in id order."""
_PLAY, _SHOOT, _BLOCK = (LAYOUT[name] for name in ("play", "shoot", "block"))

DONE = LAYOUT["done"].base
PLAY_BASE = _PLAY.base
MOVE_BASE = LAYOUT["move"].base
SHOOT_BASE = _SHOOT.base
ATTACK_BASE = LAYOUT["attack"].base
BLOCK_BASE = _BLOCK.base
STRIKE_BASE = LAYOUT["strike"].base
NUM_ACTIONS = LAYOUT.total
decode = LAYOUT.decode
"""``(kind, fields)`` of an action id, e.g. ``("block", (attacker, blocker))``."""
DECODED = LAYOUT.decoded
"""``DECODED[action]`` is ``decode(action)`` for an id known to be legal (no range check)."""


play_action = _PLAY.encode
"""``play_action(hand_slot, target)``: ``target`` NO_TARGET, HERO_TARGET or 2 + unit slot."""
shoot_action = _SHOOT.encode
"""``shoot_action(slot, target)``: ``target`` 0 the enemy Hero, 1 + enemy unit slot."""
block_action = _BLOCK.encode
"""``block_action(attacker, blocker)``: the defender's unit in slot ``blocker`` blocks the
attacker in slot ``attacker``."""
move_action = LAYOUT["move"].encode
"""``move_action(slot)``: own unit in ``slot`` moves up to the first row."""
attack_action = LAYOUT["attack"].encode
"""``attack_action(slot)``: own first-row unit in ``slot`` attacks."""
strike_action = LAYOUT["strike"].encode
"""``strike_action(target)``: 0 the enemy Hero, 1 + enemy unit slot."""
