"""HKK's fixed action space: one ``Discrete(NUM_ACTIONS)`` for every pool and deck.

Ids address hand slots, table positions and a few choices *relative to the mover*, never
card ids; the notation (``notation``) names the cards. A *table position* is a card's
index in its controller's ``table`` list (creatures, buildings, items, skills,
enchantments and the cards attached to them, in the order they came into play). A
*ref* (``REFS`` of them) picks a card as a target or a choice:

=====================  ==========================================================
ref                    what it names
=====================  ==========================================================
0                      nothing (a card or ability without a chosen target)
1 … 24                 the mover's table position 0 … 23
25 … 48                the other player's table position 0 … 23
49 … 72                the mover's 1st … 24th creature card in their discard pile
=====================  ==========================================================

The ranges, in id order:

=================  =====  =====================================================  ======
range              size   fields                                                 rule
=================  =====  =====================================================  ======
``PASS``           1      pass priority, end a step, decline a choice             HK-8.4
``PAY``            1      pay an upkeep drawback (``PASS`` refuses: sacrifice)   HK-7.11
``PLAY_BASE``      1168   hand slot 0-15 x ref: play a card from hand            HK-3.3
``ACTIVATE_BASE``  5256   table position 0-23 x ability 0-2 x ref                HK-7
``SACRIFICE_BASE`` 24     table position: a monster for its components in the    HK-5.2
                          preparation phase; in a window a mutant for +1/+1      HK-4.5
                          counters, or a body part to shield its galetki         HK-9.4
``GUARD_BASE``     24     table position: reserve creature to the guard post     HK-3.4
``RESERVE_BASE``   24     table position: guard-post creature to the reserve     HK-3.4
``CHOOSE_BASE``    73     ref: the pending choice (the next upkeep, builders,    HK-3.1
                          an optional trigger's target or ``nothing``, which     HK-6.2
                          attacker a defender strikes back, a galetki eating,    HK-4.5
                          a killer taking an item)                               HK-9.2
``ATTACK_BASE``    600    attacker position x target (0 the player, 1-24 the     HK-6.2
                          other player's table position 0-23)
``BREATH_BASE``    6000   creature position x damage 1-10 x target (as attacks)  HK-6.4
``DIRECT_BASE``    24     creature position: its direct-damage effects           HK-6.4
``REGEN_BASE``     24     own table position: regenerate one point of life       HK-7.9
=================  =====  =====================================================  ======

**Project decisions**: the space addresses the first ``MAX_HAND`` cards of a hand (a card
further back waits until the hand is smaller: HKK has no hand limit, and a 16-card hand
is rare); a side of the table holds at most ``MAX_TABLE`` cards (a card that would come
into play beyond it cannot be played, and an effect that would bring one there does
nothing); activated abilities are addressed up to ``MAX_ABILITIES`` per card.
"""

from __future__ import annotations

from tabletop.envs.core.cards.actions import ActionLayout

MAX_HAND = 16
MAX_TABLE = 24
MAX_ABILITIES = 3
MAX_BREATH = 10
"""The highest breath rating a card may have (``cards.Direct.breath``)."""

NO_REF = 0
OWN_BASE = 1
ENEMY_BASE = OWN_BASE + MAX_TABLE
DISCARD_REF_BASE = ENEMY_BASE + MAX_TABLE
REFS = DISCARD_REF_BASE + MAX_TABLE
STRIKE_TARGETS = 1 + MAX_TABLE
"""Attack and breath targets: the other player (0) or their table position 0-23."""
PLAYER_TARGET = 0


def _breath_fields(creature: int, amount: int, target: int) -> tuple[int, int, int]:
    return creature, amount + 1, target


LAYOUT = ActionLayout(
    "hkk",
    [
        ("pass", ()),
        ("pay", ()),
        ("play", (MAX_HAND, REFS)),
        ("activate", (MAX_TABLE, MAX_ABILITIES, REFS)),
        ("sacrifice", (MAX_TABLE,)),
        ("guard", (MAX_TABLE,)),
        ("reserve", (MAX_TABLE,)),
        ("choose", (REFS,)),
        ("attack", (MAX_TABLE, STRIKE_TARGETS)),
        ("breath", (MAX_TABLE, MAX_BREATH, STRIKE_TARGETS)),
        ("direct", (MAX_TABLE,)),
        ("regenerate", (MAX_TABLE,)),
    ],
    meanings={"breath": _breath_fields},
)
"""The ranges of the table above, in id order."""
_PLAY, _ACTIVATE, _ATTACK, _BREATH = (
    LAYOUT[name] for name in ("play", "activate", "attack", "breath")
)

PASS = LAYOUT["pass"].base
PAY = LAYOUT["pay"].base
PLAY_BASE = _PLAY.base
ACTIVATE_BASE = _ACTIVATE.base
SACRIFICE_BASE = LAYOUT["sacrifice"].base
GUARD_BASE = LAYOUT["guard"].base
RESERVE_BASE = LAYOUT["reserve"].base
CHOOSE_BASE = LAYOUT["choose"].base
ATTACK_BASE = _ATTACK.base
BREATH_BASE = _BREATH.base
DIRECT_BASE = LAYOUT["direct"].base
REGEN_BASE = LAYOUT["regenerate"].base
NUM_ACTIONS = LAYOUT.total
decode = LAYOUT.decode
"""``(kind, fields)`` of an action id, the inverse of the ``*_action`` functions."""
DECODED = LAYOUT.decoded
"""``DECODED[action]`` is ``decode(action)`` for an id known to be legal (no range check)."""


def own_ref(position: int) -> int:
    return OWN_BASE + position


def enemy_ref(position: int) -> int:
    return ENEMY_BASE + position


def discard_ref(number: int) -> int:
    """The ``number``-th (0-based) creature card of the mover's discard pile."""
    return DISCARD_REF_BASE + number


def decode_ref(ref: int) -> tuple[str, int]:
    """``("none", 0)``, ``("own", position)``, ``("enemy", position)`` or ``("discard",
    number)``."""
    if ref == NO_REF:
        return "none", 0
    if ref < ENEMY_BASE:
        return "own", ref - OWN_BASE
    if ref < DISCARD_REF_BASE:
        return "enemy", ref - ENEMY_BASE
    return "discard", ref - DISCARD_REF_BASE


def play_action(slot: int, ref: int = NO_REF) -> int:
    return _PLAY.encode(slot, ref)


def activate_action(position: int, ability: int, ref: int = NO_REF) -> int:
    return _ACTIVATE.encode(position, ability, ref)


def attack_action(attacker: int, target: int) -> int:
    """``target``: ``PLAYER_TARGET`` or 1 + the other player's table position."""
    return _ATTACK.encode(attacker, target)


def breath_action(creature: int, amount: int, target: int) -> int:
    """Breathe ``amount`` (1-10) at ``target`` (as ``attack_action``'s)."""
    return _BREATH.encode(creature, amount - 1, target)
