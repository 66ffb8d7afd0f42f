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

PASS = 0
PAY = 1
PLAY_BASE = 2
ACTIVATE_BASE = PLAY_BASE + MAX_HAND * REFS
SACRIFICE_BASE = ACTIVATE_BASE + MAX_TABLE * MAX_ABILITIES * REFS
GUARD_BASE = SACRIFICE_BASE + MAX_TABLE
RESERVE_BASE = GUARD_BASE + MAX_TABLE
CHOOSE_BASE = RESERVE_BASE + MAX_TABLE
ATTACK_BASE = CHOOSE_BASE + REFS
BREATH_BASE = ATTACK_BASE + MAX_TABLE * STRIKE_TARGETS
DIRECT_BASE = BREATH_BASE + MAX_TABLE * MAX_BREATH * STRIKE_TARGETS
REGEN_BASE = DIRECT_BASE + MAX_TABLE
NUM_ACTIONS = REGEN_BASE + MAX_TABLE


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
    return PLAY_BASE + slot * REFS + ref


def activate_action(position: int, ability: int, ref: int = NO_REF) -> int:
    return ACTIVATE_BASE + (position * MAX_ABILITIES + ability) * REFS + ref


def attack_action(attacker: int, target: int) -> int:
    """``target``: ``PLAYER_TARGET`` or 1 + the other player's table position."""
    return ATTACK_BASE + attacker * STRIKE_TARGETS + target


def breath_action(creature: int, amount: int, target: int) -> int:
    """Breathe ``amount`` (1-10) at ``target`` (as ``attack_action``'s)."""
    return BREATH_BASE + (creature * MAX_BREATH + amount - 1) * STRIKE_TARGETS + target


def decode(action: int) -> tuple[str, tuple[int, ...]]:
    """``(kind, fields)`` of an action id, the inverse of the ``*_action`` functions."""
    if action == PASS:
        return "pass", ()
    if action == PAY:
        return "pay", ()
    for kind, base, end in _RANGES:
        if base <= action < end:
            return kind, _FIELDS[kind](action - base)
    raise ValueError(f"hkk: action {action} is outside 0..{NUM_ACTIONS - 1}")


def _activate_fields(index: int) -> tuple[int, int, int]:
    rest, ref = divmod(index, REFS)
    return (*divmod(rest, MAX_ABILITIES), ref)


def _breath_fields(index: int) -> tuple[int, int, int]:
    rest, target = divmod(index, STRIKE_TARGETS)
    creature, amount = divmod(rest, MAX_BREATH)
    return creature, amount + 1, target


_RANGES = (
    ("play", PLAY_BASE, ACTIVATE_BASE),
    ("activate", ACTIVATE_BASE, SACRIFICE_BASE),
    ("sacrifice", SACRIFICE_BASE, GUARD_BASE),
    ("guard", GUARD_BASE, RESERVE_BASE),
    ("reserve", RESERVE_BASE, CHOOSE_BASE),
    ("choose", CHOOSE_BASE, ATTACK_BASE),
    ("attack", ATTACK_BASE, BREATH_BASE),
    ("breath", BREATH_BASE, DIRECT_BASE),
    ("direct", DIRECT_BASE, REGEN_BASE),
    ("regenerate", REGEN_BASE, NUM_ACTIONS),
)
_FIELDS = {
    "play": lambda index: divmod(index, REFS),
    "activate": _activate_fields,
    "sacrifice": lambda index: (index,),
    "guard": lambda index: (index,),
    "reserve": lambda index: (index,),
    "choose": lambda index: (index,),
    "attack": lambda index: divmod(index, STRIKE_TARGETS),
    "breath": _breath_fields,
    "direct": lambda index: (index,),
    "regenerate": lambda index: (index,),
}
