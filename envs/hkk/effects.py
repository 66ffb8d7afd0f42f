"""What HKK cards can say, declared once in the kit's vocabulary (``VOCAB``).

Cards are data (HK-10.2); what they do is composed from the declarations here, which the
loader checks every card against:

- trigger events: ``played`` (the card was successfully played, HK-7.8, field ``on_play``),
  ``played_optional`` (the same, but its owner may decline, field ``may_on_play``) and
  ``upkeep`` (its controller's preparation phase, HK-3.1, field ``on_upkeep``);
- selectors: whom an effect reaches (``Reach``): a target chosen on play, the card itself,
  every card of a group, a player, or the card or ability a reaction answers (HK-8.4);
- primitives, with their parameter schemas: damage (with an attack form, HK-7.1), healing,
  life, magic points, cards, components (HK-5), poison counters (HK-7.3), +1/+1 counters
  (HK-4.5), levels (HK-4.4), turn-long boosts, passivating and waking (HK-1.4), removal
  (destroy, the Void, back to hand), taking control (HK-1.2), bringing a creature back from
  the discard pile (HK-7.11) and cancelling (HK-8.4);
- conditions (play conditions, HK-7.11, and guards of effects): ``controls``,
  ``life_at_most``, ``skill_level`` (HK-9.3);
- continuous effects (``modifiers`` of permanents): ``bonus`` (damage and life), ``grant``
  (abilities of HK-7, schema ``Abilities``), ``guard_size`` (HK-1.2) and ``vp_limit``
  (HK-2.1).

Each primitive's run function and each condition's test work on the engine's state
(``engine.HkkState``) through its methods only, so this module imports no engine module.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, Literal, TypeVar

from pydantic import AfterValidator, BeforeValidator, Field, model_validator

from tabletop.envs.core.cards.data import listed_once
from tabletop.envs.core.cards.events import Context
from tabletop.envs.core.cards.vocabulary import Effect, NoParams, Params, Runner, Vocabulary

Colour = Literal["red", "blue", "green", "black", "white", "colourless"]
"""The five colours of HK-1.5 (each a clan and a god) [decision: the source's colour table
is missing], or colourless."""
Form = Literal["fire", "ice", "acid", "lightning"]
"""Attack forms (HK-7.1): damage may have one, and a creature may be immune to it."""
Immunity = Literal["fire", "ice", "acid", "lightning", "poison"]
"""What a creature may be immune to: an attack form, or poison counters (HK-7.1)."""
Source = Literal["cards", "spells", "enchantments", "sorceries", "instants", "abilities", "items"]
"""What a creature may be protected from (HK-7.7): ``cards`` is every card and ability,
``spells`` the three spell types (HK-1.3), ``abilities`` activated and direct-damage ones."""
CardType = Literal[
    "monster", "mutant", "galetki", "adventurer", "building", "item", "skill", "level_up",
    "body_part", "enchantment", "instant", "sorcery",
]  # fmt: skip
"""The twelve card types of HK-1.3, in its order."""
Group = Literal[
    "own_creatures", "own_guard_post", "own_reserve", "own_monsters", "own_adventurers",
    "own_galetki", "own_flying", "enemy_creatures", "enemy_guard_post", "all_creatures",
]  # fmt: skip
"""Groups of creatures a card lying on the table affects (its ``modifiers.group``)."""

T = TypeVar("T")


def as_tuple(value: Any) -> tuple[Any, ...]:
    """TOML arrays are lists; immutable card data keeps them as tuples. Anything but an
    array is refused (a lone ``"fire"`` is not ``["fire"]``)."""
    if isinstance(value, list | tuple):
        return tuple(value)
    raise ValueError(f"should be an array [...], not {value!r}")


Seq = Annotated[tuple[T, ...], BeforeValidator(as_tuple)]
"""An array of a data file, kept as a tuple (strict: a lone value is refused)."""
SetOf = Annotated[tuple[T, ...], BeforeValidator(as_tuple), AfterValidator(listed_once)]
"""An array that is a set (immunities, protections): a value listed twice can only be a
mistake, never a stronger ability, so it is refused."""

VOCAB = Vocabulary("hkk")

VOCAB.event("played", "on_play", "the card was successfully played (HK-7.8)")
VOCAB.event(
    "played_optional", "may_on_play", "the card was successfully played; its owner may (HK-7.8)"
)
VOCAB.event("upkeep", "on_upkeep", "its controller's preparation phase, upkeep step (HK-3.1)")


# ----- selectors: whom an effect reaches ----------------------------------------------------


@dataclass(frozen=True)
class Reach:
    """A parsed selector. ``how``: a target ``chosen`` when the card is played or the
    ability used, the card ``self`` (its carrier for a card attached to a creature),
    ``each`` card of the group, a ``player``, or the card or ability ``answered`` by a
    reaction. ``side``: ``own``, ``enemy`` or ``any``, seen from the effect's controller.
    ``what``: a card type group (``creature``, ``adventurer``, ``galetki``, ``building``,
    ``item``, ``enchantment``), ``player``, or ``card``. ``area``: ``guard_post``,
    ``reserve``, ``table`` or ``discard``."""

    how: Literal["chosen", "self", "each", "player", "answered"]
    side: Literal["own", "enemy", "any"] = "any"
    what: Literal[
        "creature", "adventurer", "galetki", "building", "item", "enchantment", "player", "card"
    ] = "creature"
    area: Literal["guard_post", "reserve", "table", "discard"] = "table"


SELECTORS: dict[str, Reach] = {
    "target_creature": Reach("chosen"),
    "target_own_creature": Reach("chosen", "own"),
    "target_enemy_creature": Reach("chosen", "enemy"),
    "target_own_adventurer": Reach("chosen", "own", "adventurer"),
    "target_own_galetki": Reach("chosen", "own", "galetki"),
    "target_building": Reach("chosen", "any", "building"),
    "target_enemy_building": Reach("chosen", "enemy", "building"),
    "target_item": Reach("chosen", "any", "item"),
    "target_enchantment": Reach("chosen", "any", "enchantment"),
    "own_discarded_creature": Reach("chosen", "own", area="discard"),
    "self": Reach("self"),
    "each_own_creature": Reach("each", "own"),
    "each_enemy_creature": Reach("each", "enemy"),
    "each_enemy_guard": Reach("each", "enemy", area="guard_post"),
    "opponent": Reach("player", "enemy", "player"),
    "answered": Reach("answered", what="card"),
}
for _name, _reach in SELECTORS.items():
    VOCAB.selector(_name, _reach)

CREATURES = ("target_creature", "target_own_creature", "target_enemy_creature", "self")
"""Selectors that reach one creature."""
EACH = ("each_own_creature", "each_enemy_creature", "each_enemy_guard")
"""Selectors that reach every creature of a group."""
OWN_CREATURES = ("target_own_creature", "self", "each_own_creature")
PERMANENTS = ("target_building", "target_enemy_building", "target_item", "target_enchantment")


# ----- parameter schemas ------------------------------------------------------------------

Small = Annotated[int, Field(ge=1, le=10)]


class AmountParams(Params):
    amount: Small


class DamageParams(Params):
    amount: Small
    form: Form | None = None
    """The attack form (HK-7.1): a creature immune to it takes nothing."""


class CardsParams(Params):
    cards: Annotated[int, Field(ge=1, le=3)]


class CountersParams(Params):
    counters: Annotated[int, Field(ge=1, le=5)]


class LevelsParams(Params):
    levels: Annotated[int, Field(ge=1, le=3)]


class BoostParams(Params):
    """A change of damage and life until the end of the turn (negative: weaker)."""

    damage: Annotated[int, Field(ge=-5, le=5)] = 0
    life: Annotated[int, Field(ge=-5, le=5)] = 0


def _no_change(params: Any) -> bool:
    return params.damage == 0 and params.life == 0


# ----- primitives -------------------------------------------------------------------------
#
# A run function reaches its cards through the state (``state.reached``: table cards,
# seats, discarded cards, a chain item) and changes them through the state's methods, so
# that this vocabulary knows no engine module (``plays`` has the rules they follow).


def _creatures(state: Any, context: Context, effect: Effect) -> list[Any]:
    """The table cards ``effect`` reaches that it may change (HK-7.7: not one that the
    effect's kind of card has no effect on)."""
    return [t for t in state.reached(context, effect)
            if not isinstance(t, int | tuple) and state.affects(context, t)]  # fmt: skip


def _run_damage(state: Any, context: Context, effect: Effect) -> None:
    """HK-4.2: damage of a form (HK-7.1) to creatures, buildings (HK-6.8) or a player."""
    for target in state.reached(context, effect):
        if isinstance(target, int):
            state.hurt_player(target, effect.amount)
        elif state.affects(context, target):
            state.hurt(target, effect.amount, effect.form)


def _run_heal(state: Any, context: Context, effect: Effect) -> None:
    """A creature regains life: damage taken goes, never below none."""
    for target in _creatures(state, context, effect):
        target.damage = max(0, target.damage - effect.amount)


def _run_cure(state: Any, context: Context, effect: Effect) -> None:
    for target in _creatures(state, context, effect):
        target.poison = 0


def _run_grow(state: Any, context: Context, effect: Effect) -> None:
    """+1/+1 counters (HK-4.5)."""
    for target in _creatures(state, context, effect):
        target.counters += effect.counters


def _run_poison(state: Any, context: Context, effect: Effect) -> None:
    for target in _creatures(state, context, effect):
        state.poison_creature(target, effect.counters)


def _run_level_up(state: Any, context: Context, effect: Effect) -> None:
    """HK-4.4: only an adventurer has levels."""
    for target in _creatures(state, context, effect):
        if target.card.TYPE == "adventurer":
            target.levels += effect.levels


def _run_boost(state: Any, context: Context, effect: Effect) -> None:
    """Damage and life until the end of the turn (the healing phase clears it)."""
    for target in _creatures(state, context, effect):
        damage, life = target.boost
        target.boost = (damage + effect.damage, life + effect.life)


def _run_passivate(state: Any, context: Context, effect: Effect) -> None:
    for target in _creatures(state, context, effect):
        state.passivate(target)


def _run_activate(state: Any, context: Context, effect: Effect) -> None:
    for target in _creatures(state, context, effect):
        target.active = True


def _mover(to: str) -> Runner:
    """Removal without damage (HK-4.2): to the owner's discard pile, the Void or hand. A
    partial, not a closure, so that states holding effects pickle (so is ``_player_runner``)."""
    return functools.partial(_run_move, to)


def _run_move(to: str, state: Any, context: Context, effect: Effect) -> None:
    for target in _creatures(state, context, effect):
        state.leave(target, to)


def _run_steal(state: Any, context: Context, effect: Effect) -> None:
    """HK-1.2: the creature moves to the taker's reserve."""
    for target in _creatures(state, context, effect):
        state.take_control(target, context.owner)


def _run_reanimate(state: Any, context: Context, effect: Effect) -> None:
    """A creature card from the discard pile into the reserve, passive (HK-4.1)."""
    for _, iid in state.reached(context, effect):
        state.enter(context.owner, iid, ("discard", context.owner), "reserve",
                    active=state.card(iid).abilities.flying)  # fmt: skip


def _run_cancel(state: Any, context: Context, effect: Effect) -> None:
    """HK-8.4: the answered card or ability does nothing; a card goes to the discard."""
    for item in state.reached(context, effect):
        state.cancel(item)


def _player_runner(method: str, field: str, whom: str = "owner") -> Runner:
    """A primitive on a player: ``state.<method>(seat, effect.<field>)``."""
    return functools.partial(_run_on_player, method, field, whom)


def _run_on_player(
    method: str, field: str, whom: str, state: Any, context: Context, effect: Effect
) -> None:
    seat = context.owner if whom == "owner" else 1 - context.owner
    getattr(state, method)(seat, getattr(effect, field))


def _declare(
    name: str, run: Runner, params: type[Params] = NoParams, selectors: tuple[str, ...] = (),
    empty: Callable[[Any], bool] | None = None,
) -> None:  # fmt: skip
    """Declare primitive ``name``; its first selector is the default ``to``."""
    VOCAB.primitive(
        name, params=params, selectors=selectors,
        default_to=selectors[0] if selectors else None, empty=empty,
    )(run)  # fmt: skip


_declare("damage", _run_damage, DamageParams, (*CREATURES, *EACH, "target_building",
         "target_enemy_building", "opponent"))  # fmt: skip
_declare("heal", _run_heal, AmountParams, (*CREATURES, "each_own_creature"))
_declare("gain_life", _player_runner("gain_life", "amount"), AmountParams)
_declare("gain_vp", _player_runner("gain_vp", "amount"), AmountParams)
_declare("drain_vp", _player_runner("lose_vp", "amount", "enemy"), AmountParams)
_declare("draw", _player_runner("draw", "cards"), CardsParams)
_declare("gain_components", _player_runner("gain_components", "amount"), AmountParams)
_declare("poison", _run_poison, CountersParams, (*CREATURES, *EACH))
_declare("cure", _run_cure, NoParams, (*OWN_CREATURES, "target_creature"))
_declare("grow", _run_grow, CountersParams, ("target_own_galetki", *OWN_CREATURES))
_declare("level_up", _run_level_up, LevelsParams, ("target_own_adventurer", "self"))
_declare("boost", _run_boost, BoostParams, (*CREATURES, *EACH), empty=_no_change)
_declare("passivate", _run_passivate, NoParams, (*CREATURES, "each_enemy_creature", *PERMANENTS))
_declare("activate", _run_activate, NoParams, ("target_own_creature", "self"))
_declare("destroy", _mover("discard"), NoParams, (*CREATURES, *EACH, *PERMANENTS))
_declare("exile", _mover("void"), NoParams, CREATURES)
_declare("bounce", _mover("hand"), NoParams, CREATURES)
_declare("steal", _run_steal, NoParams, ("target_enemy_creature",))
_declare("reanimate", _run_reanimate, NoParams, ("own_discarded_creature",))
_declare("cancel", _run_cancel, NoParams, ("answered",))


# ----- conditions: play conditions (HK-7.11) and guards of effects --------------------------


class ControlsParams(Params):
    """At least ``count`` cards in play of ``whose`` side matching every given filter."""

    whose: Literal["you", "opponent"] = "you"
    type: CardType | None = None
    subtype: str | None = None
    colour: Colour | None = None
    count: Annotated[int, Field(ge=1, le=5)] = 1


class LevelParams(Params):
    level: Annotated[int, Field(ge=1, le=3)]


def _controls(state: Any, context: Context, params: ControlsParams) -> bool:
    """At least ``count`` cards in play of a side that match every filter
    (**Project decision**: passive cards count: they are in play)."""
    seat = context.owner if params.whose == "you" else 1 - context.owner
    matching = [
        entry for entry in state.tables[seat]
        if (params.type is None or params.type == entry.card.TYPE
            or (params.type == "monster" and entry.card.TYPE == "mutant"))
        and (params.subtype is None or params.subtype in getattr(entry.card, "subtypes", ()))
        and (params.colour is None or entry.card.colour == params.colour)
    ]  # fmt: skip
    return len(matching) >= params.count


def _life_at_most(state: Any, context: Context, params: AmountParams) -> bool:
    return state.life[context.owner] <= params.amount


def _skill_level(state: Any, context: Context, params: LevelParams) -> bool:
    """HK-9.3: the level in the skill the effect comes from (its active copies)."""
    return state.skill_count(context.owner, context.source) >= params.level


VOCAB.condition("controls", params=ControlsParams)(_controls)
VOCAB.condition("life_at_most", params=AmountParams)(_life_at_most)
VOCAB.condition("skill_level", params=LevelParams)(_skill_level)


# ----- continuous effects: what a permanent modifies while it is active -----------------------


Amount = Annotated[int, Field(ge=0, le=10)]


class Abilities(Params):
    """The named abilities of HK-7 a creature has (its own, or given by a card): each field
    is one, and ``names`` lists those present."""

    immunity: SetOf[Immunity] = ()
    magic_attack: bool = False
    magic_defence: bool = False
    poison: Amount = 0
    invisible: bool = False
    sees_invisible: bool = False
    flying: bool = False
    swimming: bool = False
    untargetable: SetOf[Source] = ()
    """HK-7.7: what cannot target it at all."""
    unaffected: SetOf[Source] = ()
    """HK-7.7: what may be played on it but changes nothing on it."""
    regeneration: Amount = 0
    """HK-7.9: magic points per point of life restored."""

    def names(self) -> frozenset[str]:
        """The abilities present (fields with a value)."""
        return frozenset(name for name, value in self if value)


class BonusParams(Params):
    damage: Annotated[int, Field(ge=-5, le=5)] = 0
    life: Annotated[int, Field(ge=-5, le=5)] = 0

    @model_validator(mode="after")
    def _changes(self) -> BonusParams:
        if _no_change(self):
            raise ValueError("a bonus changes damage or life")
        return self


class GrantParams(Abilities):
    @model_validator(mode="after")
    def _grants(self) -> GrantParams:
        if not self.names():
            raise ValueError("a grant gives at least one ability")
        return self


class PlacesParams(Params):
    places: Annotated[int, Field(ge=1, le=3)]


class LimitParams(Params):
    amount: Annotated[int, Field(ge=1, le=10)]


VOCAB.static("bonus", params=BonusParams)
VOCAB.static("grant", params=GrantParams)
VOCAB.static("guard_size", params=PlacesParams)
VOCAB.static("vp_limit", params=LimitParams)

PLAYER_STATICS = ("guard_size", "vp_limit")
"""Statics that change a player's limits (HK-1.2, HK-2.1), not creatures: only cards lying
on the table (no carrier, no group) may have them."""
