"""What a card on the table is worth now: its abilities, damage and life, and a player's
limits, computed from the cards in play (the kit's rule for continuous effects: never
patched by hand, so a card leaving play takes its effect with it).

A creature's figures add up its card (HK-4.2), +1/+1 counters (HK-4.5), levels (HK-4.4),
the active cards attached to it (items HK-9.2, body parts HK-9.4, enchantments HK-8.1),
the active cards lying on either table whose group takes it in, boosts until the end of
the turn, and the defence bonus of HK-4.3. A passive card gives nothing (HK-1.4).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, TypeVar

from tabletop.envs.hkk.cards import Adventurer, Building, Creature, Galetki, Monster
from tabletop.envs.hkk.zones import InPlay, figure_mark_writes

if TYPE_CHECKING:
    from tabletop.envs.hkk.engine import HkkState

T = TypeVar("T")
GUARD_POST = 3  # HK-1.2
LIMIT = 20  # HK-2.1: life and magic points
CREATURE_AREAS = ("guard", "reserve")


class Held:
    """The abilities of HK-7 a creature has now, from every source merged: immunities and
    protections add up, flags are on if any source has them, poison counts add up, and
    regeneration is the cheapest offered (fewest magic points a point)."""

    __slots__ = (
        "immunity", "magic_attack", "magic_defence", "poison", "invisible", "sees_invisible",
        "flying", "swimming", "untargetable", "unaffected", "regeneration",
    )  # fmt: skip

    def __init__(self) -> None:
        self.immunity: frozenset[str] = frozenset()
        self.untargetable: frozenset[str] = frozenset()
        self.unaffected: frozenset[str] = frozenset()
        self.magic_attack = self.magic_defence = self.invisible = False
        self.sees_invisible = self.flying = self.swimming = False
        self.poison = 0
        self.regeneration = 0

    def add(self, abilities: Any) -> None:
        """Merge an ``effects.Abilities`` (a card's own or a grant)."""
        self.immunity |= frozenset(abilities.immunity)
        self.untargetable |= frozenset(abilities.untargetable)
        self.unaffected |= frozenset(abilities.unaffected)
        for flag in ("magic_attack", "magic_defence", "invisible", "sees_invisible", "flying",
                     "swimming"):  # fmt: skip
            if getattr(abilities, flag):
                setattr(self, flag, True)
        self.poison += abilities.poison
        if abilities.regeneration and (
            not self.regeneration or abilities.regeneration < self.regeneration
        ):
            self.regeneration = abilities.regeneration


PLURALS = {"enchantment": "enchantments", "sorcery": "sorceries", "instant": "instants",
           "item": "items"}  # fmt: skip


def kinds_of(card: Any, ability: bool) -> frozenset[str]:
    """What a card's effects (or, with ``ability``, its activated and direct-damage
    abilities') count as for HK-7.7's protections: ``cards`` always, its type and the
    type's plural, ``spells`` for the spell types; ``abilities`` (and ``items`` for an
    item's)."""
    return _kinds(card.TYPE, ability)


@functools.cache
def _kinds(kind: str, ability: bool) -> frozenset[str]:
    """``kinds_of`` by card type, worked out once per type (it is asked on every look)."""
    if ability:
        return frozenset({"abilities", "cards", *(("items",) if kind == "item" else ())})
    spells = ("spells",) if kind in ("enchantment", "sorcery", "instant") else ()
    return frozenset({"cards", kind, PLURALS.get(kind, kind), *spells})


def remembered(state: HkkState) -> dict[Any, Any]:
    """The figures worked out for the position as it is now (``HkkState.memo``). Figures
    depend only on the cards on the tables (``Table.version`` counts their comings and
    goings), their marks (``zones.figure_mark_writes``) and whose turn it is (the defence
    bonus), so they are kept until one of these changes."""
    key = (state.table.version, figure_mark_writes(), state.active)
    if state.memo_key != key:
        state.memo = {}
        state.memo_key = key
    return state.memo


def remembered_figure(compute: Callable[..., T]) -> Callable[..., T]:
    """``compute(state, *args)`` remembered for the position as it is now (``remembered``):
    worked out once however often it is asked (the legal actions, the encoders and the
    heuristic ask the same figures again and again) while nothing it depends on changes."""

    def figure(state: HkkState, *args: Any) -> T:
        memo = remembered(state)
        key = (compute, *args)
        if key not in memo:
            memo[key] = compute(state, *args)
        return memo[key]

    return functools.wraps(compute)(figure)


def controller(state: HkkState, entry: InPlay) -> int:
    """The seat on whose table ``entry`` lies."""
    for seat, table in enumerate(state.tables):
        if entry in table:
            return seat
    raise ValueError(f"hkk: {entry.card.name} is not on the table")


def attached(state: HkkState, seat: int, host: InPlay) -> Iterator[InPlay]:
    """The cards attached to ``host`` (on the same table)."""
    return (e for e in state.tables[seat] if e.host == host.iid)


def creatures(state: HkkState, seat: int) -> list[InPlay]:
    return [e for e in state.tables[seat] if e.area in CREATURE_AREAS]


def guard(state: HkkState, seat: int) -> list[InPlay]:
    return [e for e in state.tables[seat] if e.area == "guard"]


def reserve(state: HkkState, seat: int) -> list[InPlay]:
    return [e for e in state.tables[seat] if e.area == "reserve"]


def _in_group(state: HkkState, group: str, side: str, entry: InPlay) -> bool:
    """Whether creature ``entry`` is in ``group`` seen from the group's card (``side``:
    ``own`` when the card and the creature are on the same table)."""
    whose, _, kind = group.partition("_")
    if whose == "all":
        return True
    if whose != side:
        return False
    card = entry.card
    match kind:
        case "creatures":
            return True
        case "guard_post":
            return entry.area == "guard"
        case "reserve":
            return entry.area == "reserve"
        case "monsters":
            return isinstance(card, Monster)
        case "adventurers":
            return isinstance(card, Adventurer)
        case "galetki":
            return isinstance(card, Galetki)
        case "flying":
            return _own_flying(state, entry)
    raise ValueError(f"hkk: unknown group {group!r}")


def _own_flying(state: HkkState, entry: InPlay) -> bool:
    """Flying from the creature's card, level or attached cards (a group's own grants
    are left out, so that a group of flyers never depends on itself)."""
    if entry.card.abilities.flying:
        return True
    if any(level.abilities.flying for level in _levels_reached(entry)):
        return True
    seat = controller(state, entry)
    return any(params.flying for a in attached(state, seat, entry) if a.active
               for kind, params in statics(a) if kind == "grant")  # fmt: skip


def statics(entry: InPlay) -> tuple[tuple[str, Any], ...]:
    """The continuous effects of a card on the table (none for creatures and level-ups)."""
    return getattr(entry.card, "statics", ())


def _levels_reached(entry: InPlay) -> Iterator[Any]:
    return (level for level in getattr(entry.card, "at_level", ()) if entry.levels >= level.level)


def modifiers(state: HkkState, entry: InPlay) -> Iterator[tuple[str, Any]]:
    """(static name, params) of every active card that modifies creature ``entry``:
    attached to it, or lying on either table with a group that takes it in; none of a
    kind its card says has no effect on it (HK-7.7)."""
    seat = controller(state, entry)
    unaffected = frozenset(entry.card.abilities.unaffected)
    host = entry.iid
    for side, table in enumerate(state.tables):
        relation = "own" if side == seat else "enemy"
        for card in table:
            if not card.active or (card.host != host and card.area != "beside"):
                continue
            if unaffected and kinds_of(card.card, False) & unaffected:
                continue
            if card.host == host:
                yield from statics(card)
                continue
            group = getattr(card.card, "group", None)
            if group is not None and _in_group(state, group, relation, entry):
                yield from statics(card)


@remembered_figure
def held(state: HkkState, entry: InPlay) -> Held:
    """The creature's abilities now (HK-7)."""
    result = Held()
    result.add(entry.card.abilities)
    for level in _levels_reached(entry):
        result.add(level.abilities)
    for kind, params in modifiers(state, entry):
        if kind == "grant":
            result.add(params)
    return result


@remembered_figure
def _bonus(state: HkkState, entry: InPlay, figure: str) -> int:
    """What a creature's ``damage`` or ``life`` has beyond its card's."""
    total = sum(getattr(params, figure) for kind, params in modifiers(state, entry)
                if kind == "bonus")  # fmt: skip
    total += entry.counters + entry.levels
    total += entry.boost[0 if figure == "damage" else 1]
    if controller(state, entry) != state.active:
        total += 1  # HK-4.3: the defence bonus
    return total


def damage(state: HkkState, entry: InPlay) -> int:
    """A creature's damage now, never below 0."""
    return max(0, entry.card.damage + _bonus(state, entry, "damage"))


def life(state: HkkState, entry: InPlay) -> int:
    """A creature's full life now (before damage), or a building's structure."""
    if isinstance(entry.card, Building):
        return entry.card.structure
    return entry.card.life + _bonus(state, entry, "life")


def remaining(state: HkkState, entry: InPlay) -> int:
    """Life left: full life less damage taken (HK-4.2); 0 or less is dying."""
    return life(state, entry) - entry.damage


@remembered_figure
def lowers_life(state: HkkState) -> bool:
    """Whether an active card in play gives some creature less life (a bonus below 0)."""
    return any(kind == "bonus" and params.life < 0
               for table in state.tables for card in table if card.active
               for kind, params in statics(card))  # fmt: skip


def is_creature(entry: InPlay) -> bool:
    return isinstance(entry.card, Creature)


def _table_statics(state: HkkState, seat: int, name: str) -> Iterator[Any]:
    for card in state.tables[seat]:
        if card.area == "beside" and card.active:
            yield from (params for kind, params in statics(card) if kind == name)


@remembered_figure
def guard_size(state: HkkState, seat: int) -> int:
    """Places in ``seat``'s guard post: 3 and what active cards add (HK-1.2)."""
    return GUARD_POST + sum(p.places for p in _table_statics(state, seat, "guard_size"))


@remembered_figure
def vp_limit(state: HkkState, seat: int) -> int:
    """The most magic points ``seat`` may hold: 20 and what active cards add (HK-2.1)."""
    return LIMIT + sum(p.amount for p in _table_statics(state, seat, "vp_limit"))


def skill_level(state: HkkState, seat: int, name: str) -> int:
    """``seat``'s level in the skill ``name``: its active copies in play (HK-9.3)."""
    return sum(1 for e in state.tables[seat] if e.active and e.card.name == name)
