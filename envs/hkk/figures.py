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
import inspect
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from tabletop.envs.hkk.cards import Adventurer, Building, Card, Creature, Galetki, Monster
from tabletop.envs.hkk.zones import InPlay

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
        if abilities.immunity:
            self.immunity |= frozenset(abilities.immunity)
        if abilities.untargetable:
            self.untargetable |= frozenset(abilities.untargetable)
        if abilities.unaffected:
            self.unaffected |= frozenset(abilities.unaffected)
        self.magic_attack = self.magic_attack or abilities.magic_attack
        self.magic_defence = self.magic_defence or abilities.magic_defence
        self.invisible = self.invisible or abilities.invisible
        self.sees_invisible = self.sees_invisible or abilities.sees_invisible
        self.flying = self.flying or abilities.flying
        self.swimming = self.swimming or abilities.swimming
        self.poison += abilities.poison
        if abilities.regeneration and (
            not self.regeneration or abilities.regeneration < self.regeneration
        ):
            self.regeneration = abilities.regeneration


NOTHING: frozenset[str] = frozenset()


@dataclass(frozen=True)
class PoolFacts:
    """What a pool's cards can ever do to creatures' abilities and life, worked out once
    per match (card data never changes), so that the hot paths skip looking up figures that
    cannot matter: ``untargetable`` and ``unaffected`` hold the indices of the creature
    cards that may have such an ability (their own or a level's; every creature when some
    card grants it), ``lowers_life`` whether some card gives less life (a bonus below 0)."""

    untargetable: frozenset[int]
    unaffected: frozenset[int]
    lowers_life: bool


def pool_facts(cards: Iterable[Card]) -> PoolFacts:
    """``PoolFacts`` of the pool ``cards``."""
    cards = tuple(cards)
    grants = [params for card in cards for kind, params in getattr(card, "statics", ())
              if kind == "grant"]  # fmt: skip
    lowers = any(kind == "bonus" and params.life < 0
                 for card in cards for kind, params in getattr(card, "statics", ()))  # fmt: skip

    def having(name: str) -> frozenset[int]:
        creatures_ = [card for card in cards if isinstance(card, Creature)]
        if any(getattr(params, name) for params in grants):
            return frozenset(card.index for card in creatures_)
        return frozenset(card.index for card in creatures_
                         if getattr(card.abilities, name)
                         or any(getattr(level.abilities, name)
                                for level in getattr(card, "at_level", ())))  # fmt: skip

    return PoolFacts(having("untargetable"), having("unaffected"), lowers)


def untargetable(state: HkkState, entry: InPlay) -> frozenset[str]:
    """``held(state, entry).untargetable``, not looked up for a creature whose card the
    pool never makes untargetable (``PoolFacts``)."""
    if entry.card.index in state.game.facts.untargetable:
        return held(state, entry).untargetable
    return NOTHING


def unaffected(state: HkkState, entry: InPlay) -> frozenset[str]:
    """``held(state, entry).unaffected``, as ``untargetable``."""
    if entry.card.index in state.game.facts.unaffected:
        return held(state, entry).unaffected
    return NOTHING


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
    depend only on the cards on the tables and their marks (``Table.version`` counts their
    comings and goings and the changes of ``zones.FIGURE_MARKS``) and whose turn it is
    (the defence bonus), so they are kept until one of these changes. The version only
    grows, so one number, twice the version plus the active seat, changes whenever either
    does (``HkkState.memo_key``): a single comparison per read."""
    now = 2 * state.table.version + state.active
    if state.memo_key != now:
        state.memo = {}
        state.memo_key = now
    return state.memo


def remembered_figure(compute: Callable[..., T]) -> Callable[..., T]:
    """``compute(state, *args)`` remembered for the position as it is now (``remembered``):
    worked out once however often it is asked (the legal actions, the encoders and the
    heuristic ask the same figures again and again) while nothing it depends on changes.
    The figures of one card or seat (``compute(state, arg)``, most of them) are asked
    without packing their arguments (the look-up is on every hot path)."""
    if _one_argument(compute):

        def figure_of(state: HkkState, arg: Any) -> T:
            memo = state.memo
            if state.memo_key != 2 * state.table.version + state.active:
                memo = remembered(state)  # the position changed: forget
            key = (compute, arg)
            value = memo.get(key, _UNKNOWN)
            if value is _UNKNOWN:
                value = memo[key] = compute(state, arg)
            return value

        return functools.wraps(compute)(figure_of)

    def figure(state: HkkState, *args: Any) -> T:
        memo = state.memo
        if state.memo_key != 2 * state.table.version + state.active:
            memo = remembered(state)  # the position changed: forget
        key = (compute, args)
        value = memo.get(key, _UNKNOWN)
        if value is _UNKNOWN:
            value = memo[key] = compute(state, *args)
        return value

    return functools.wraps(compute)(figure)


def _one_argument(compute: Callable[..., Any]) -> bool:
    """Whether ``compute`` takes the state and exactly one more positional argument."""
    params = list(inspect.signature(compute).parameters.values())
    return len(params) == 2 and all(
        p.kind is p.POSITIONAL_OR_KEYWORD and p.default is p.empty for p in params
    )


_UNKNOWN: Any = object()


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


def modifiers(state: HkkState, entry: InPlay, seat: int) -> list[tuple[str, Any]]:
    """(static name, params) of every active card that modifies creature ``entry`` on
    ``seat``'s table: attached to it, or lying on either table with a group that takes it
    in; none of a kind its card says has no effect on it (HK-7.7)."""
    unaffected = entry.card.abilities.unaffected
    host = entry.iid
    found: list[tuple[str, Any]] = []
    for side, card, effects in _sources(state):
        if card.host == host:
            if not (unaffected and kinds_of(card.card, False).intersection(unaffected)):
                found += effects
        elif card.area == "beside":
            group = getattr(card.card, "group", None)
            if group is None or (
                unaffected and kinds_of(card.card, False).intersection(unaffected)
            ):
                continue
            if _in_group(state, group, "own" if side == seat else "enemy", entry):
                found += effects
    return found


@remembered_figure
def _sources(state: HkkState) -> tuple[tuple[int, InPlay, tuple[tuple[str, Any], ...]], ...]:
    """(seat, card, its statics) of the active cards in play with continuous effects, in
    table order: the few that ``modifiers`` looks through (most cards in play have none)."""
    found = []
    for side, table in enumerate(state.tables):
        for card in table:
            if card.active:
                effects = getattr(card.card, "statics", ())  # (``statics``)
                if effects:
                    found.append((side, card, effects))
    return tuple(found)


@remembered_figure
def held(state: HkkState, entry: InPlay) -> Held:
    """The creature's abilities now (HK-7)."""
    result = Held()
    result.add(entry.card.abilities)
    for level in _levels_reached(entry):
        result.add(level.abilities)
    for kind, params in modifiers(state, entry, controller(state, entry)):
        if kind == "grant":
            result.add(params)
    return result


@remembered_figure
def _bonuses(state: HkkState, entry: InPlay) -> tuple[int, int]:
    """What a creature's damage and life have beyond its card's (both in one look at the
    tables)."""
    seat = controller(state, entry)
    damage = life = entry.counters + entry.levels
    for kind, params in modifiers(state, entry, seat):
        if kind == "bonus":
            damage += params.damage
            life += params.life
    damage += entry.boost[0]
    life += entry.boost[1]
    if seat != state.active:
        damage += 1  # HK-4.3: the defence bonus
        life += 1
    return damage, life


def damage(state: HkkState, entry: InPlay) -> int:
    """A creature's damage now, never below 0."""
    return max(0, entry.card.damage + _bonuses(state, entry)[0])


def life(state: HkkState, entry: InPlay) -> int:
    """A creature's full life now (before damage), or a building's structure."""
    card = entry.card
    if isinstance(card, Building):
        return card.structure
    return card.life + _bonuses(state, entry)[1]


def remaining(state: HkkState, entry: InPlay) -> int:
    """Life left: full life less damage taken (HK-4.2); 0 or less is dying."""
    card = entry.card
    if isinstance(card, Building):
        return card.structure - entry.damage
    return card.life + _bonuses(state, entry)[1] - entry.damage


def lowers_life(state: HkkState) -> bool:
    """Whether an active card in play gives some creature less life (a bonus below 0):
    never when no card of the pool does (``PoolFacts``)."""
    return state.game.facts.lowers_life and _lowers_life(state)


@remembered_figure
def _lowers_life(state: HkkState) -> bool:
    return any(kind == "bonus" and params.life < 0
               for _, _, effects in _sources(state) for kind, params in effects)  # fmt: skip


def is_creature(entry: InPlay) -> bool:
    return isinstance(entry.card, Creature)


@remembered_figure
def _limits(state: HkkState) -> tuple[tuple[int, int], tuple[int, int]]:
    """Each seat's places in its guard post and most magic points: 3 and 20 and what the
    active cards lying on its table add (HK-1.2, HK-2.1), both in one look."""
    places, limits = [GUARD_POST, GUARD_POST], [LIMIT, LIMIT]
    for side, card, effects in _sources(state):
        if card.area == "beside":
            for kind, params in effects:
                if kind == "guard_size":
                    places[side] += params.places
                elif kind == "vp_limit":
                    limits[side] += params.amount
    return (places[0], places[1]), (limits[0], limits[1])


def guard_size(state: HkkState, seat: int) -> int:
    """Places in ``seat``'s guard post: 3 and what active cards add (HK-1.2)."""
    return _limits(state)[0][seat]


def vp_limit(state: HkkState, seat: int) -> int:
    """The most magic points ``seat`` may hold: 20 and what active cards add (HK-2.1)."""
    return _limits(state)[1][seat]


def skill_level(state: HkkState, seat: int, name: str) -> int:
    """``seat``'s level in the skill ``name``: its active copies in play (HK-9.3)."""
    return sum(1 for e in state.tables[seat] if e.active and e.card.name == name)
