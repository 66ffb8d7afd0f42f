"""Kult's fixed action space: one ``Discrete(NUM_ACTIONS)`` for every player count (2-4)
and every pool. Ids address stations, hand slots and seats *relative to the mover*
(offset 0 is the mover, 1 the next seat, ...), never card ids; the notation names cards
and absolute seats instead (``notation``).

Stations are numbered as KU-1.1: Scene 1-4, Cast 5-8; here ``station`` is 0-7 for
stations 1-8. Positions a token can be on or go to: ``HUB`` and ``POOL`` beside them.

The ranges, in id order (docs/games/kult.md has the same as a table):

- ``DONE`` (0): end the phase, or pass in a Commands window (``done`` / ``pass``);
- ``ATTRACT_BASE``, 40: from station 0-7 to the Hub (0) or Scene 1-4 (1-4);
- ``RECRUIT_BASE``, 4: onto Cast station 5-8;
- ``PUSH_BASE``, 486: from the Hub (0) or station 1-8 (1-8), to station 1-8 (0-7) or
  the Pool (8), gaining colour 0-4 or none (5, paying for an ability);
- ``PLAY_BASE``, 320: a base card from hand slot 0-9 onto station 0-7 of seat offset 0-3;
- ``ATTACH_BASE``, 370: an Influence from hand slot 0-9 onto seat offset x 9 + (Hub 0,
  station 1-8), or the Pool (36);
- ``COMMAND_BASE``, 10: a Command from hand slot 0-9;
- ``TURN_BASE``, 8 and ``INVOKE_BASE``, 8: an own card's ability, by station;
- ``ATTACK_BASE``, 64: own Cast station 5-8 against Cast 5-8 of seat offset 0-3;
- ``DISCARD_BASE``, 10: a card from hand slot 0-9.
"""

from __future__ import annotations

from tabletop.envs.core.cards.actions import ActionLayout

MAX_PLAYERS = 4
STATIONS = 8
SCENE = range(0, 4)
"""Scene stations 1-4 as 0-3 (KU-1.1)."""
CAST = range(4, 8)
"""Cast stations 5-8 as 4-7 (KU-1.1)."""
MAX_HAND = 10
"""Hand slots the action space addresses [decision: card draws stop at 10 cards in hand;
the draw phase fills to 7 at most, so only draw effects get near it]."""
NUM_COLOURS = 5
NO_COLOUR = 5
"""The colour slot of a push that pays for an ability and gains nothing (KU-6.5)."""

HUB = -1
"""A token's position in the Hub (push sources, attract targets)."""
POOL = 8
"""A push's target the Pool (beside stations 0-7)."""

ATTRACT_TARGETS = 5  # the Hub, Scene 1-4
PUSH_FROMS = 9  # the Hub, station 1-8
PUSH_TOS = 9  # station 1-8, the Pool
PUSH_COLOURS = NUM_COLOURS + 1
ATTACH_TARGETS = MAX_PLAYERS * 9 + 1
POOL_TARGET = MAX_PLAYERS * 9


def _attract_fields(source: int, target: int) -> tuple[int, int]:
    return source, HUB if target == 0 else target - 1


def _attach_fields(slot: int, target: int) -> tuple[int, int, int]:
    """(slot, seat offset, station or HUB); the Pool as offset -1."""
    if target == POOL_TARGET:
        return slot, -1, POOL
    offset, where = divmod(target, 9)
    return slot, offset, where - 1


def _attack_fields(attacker: int, offset: int, target: int) -> tuple[int, int, int]:
    return attacker + CAST.start, offset, target + CAST.start


LAYOUT = ActionLayout(
    "kult",
    [
        ("done", ()),
        ("attract", (STATIONS, ATTRACT_TARGETS)),
        ("recruit", (len(CAST),)),
        ("push", (PUSH_FROMS, PUSH_TOS, PUSH_COLOURS)),
        ("play", (MAX_HAND, MAX_PLAYERS, STATIONS)),
        ("attach", (MAX_HAND, ATTACH_TARGETS)),
        ("command", (MAX_HAND,)),
        ("turn", (STATIONS,)),
        ("invoke", (STATIONS,)),
        ("attack", (len(CAST), MAX_PLAYERS, len(CAST))),
        ("discard", (MAX_HAND,)),
    ],
    meanings={
        "attract": _attract_fields,
        "recruit": lambda index: (index + CAST.start,),
        "push": lambda source, target, colour: (source - 1, target, colour),
        "attach": _attach_fields,
        "attack": _attack_fields,
    },
)
"""The ranges in id order; ``decode`` gives each its fields as the ``*_action`` functions
take them."""
_ATTRACT, _RECRUIT, _PUSH, _PLAY, _ATTACH, _ATTACK = (
    LAYOUT[name] for name in ("attract", "recruit", "push", "play", "attach", "attack")
)

DONE = LAYOUT["done"].base
ATTRACT_BASE = _ATTRACT.base
RECRUIT_BASE = _RECRUIT.base
PUSH_BASE = _PUSH.base
PLAY_BASE = _PLAY.base
ATTACH_BASE = _ATTACH.base
COMMAND_BASE = LAYOUT["command"].base
TURN_BASE = LAYOUT["turn"].base
INVOKE_BASE = LAYOUT["invoke"].base
ATTACK_BASE = _ATTACK.base
DISCARD_BASE = LAYOUT["discard"].base
NUM_ACTIONS = LAYOUT.total
decode = LAYOUT.decode
"""``(kind, fields)`` of an action id, e.g. ``("push", (HUB, 1, 0))``; the inverse of the
``*_action`` functions below."""
DECODED = LAYOUT.decoded
"""``DECODED[action]`` is ``decode(action)`` for an id known to be legal (no range check)."""


def attract_action(source: int, target: int) -> int:
    """From station ``source`` (0-7) to the Hub (``HUB``) or Scene station ``target`` (0-3)."""
    return _ATTRACT.encode(source, 0 if target == HUB else 1 + target)


def recruit_action(station: int) -> int:
    return _RECRUIT.encode(station - CAST.start)


def push_action(source: int, target: int, colour: int) -> int:
    """From the Hub (``HUB``) or station ``source`` to station ``target`` or ``POOL``;
    ``colour`` 0-4 (``effects.COLOURS``) or ``NO_COLOUR``."""
    return _PUSH.encode(source + 1, target, colour)


def play_action(slot: int, offset: int, station: int) -> int:
    return _PLAY.encode(slot, offset, station)


def attach_action(slot: int, target: int) -> int:
    """``target``: ``attach_target(offset, station)`` or ``POOL_TARGET``."""
    return _ATTACH.encode(slot, target)


def attach_target(offset: int, station: int) -> int:
    """A seat's Hub (``station`` = ``HUB``) or station 0-7, as an attach target index."""
    return offset * 9 + station + 1


def attack_action(attacker: int, offset: int, target: int) -> int:
    """Own Cast station ``attacker`` (4-7) attacks Cast station ``target`` of a seat."""
    return _ATTACK.encode(attacker - CAST.start, offset, target - CAST.start)
