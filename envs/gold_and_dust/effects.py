"""What Gold & Dust cards can say, declared once in the kit's vocabulary (``VOCAB``): the
selectors (whom an effect reaches), the trigger events, the continuous effect (``aura``),
the conditions, and each effect primitive with its parameter schema, its run function,
its traits (what encoders read) and its appraisal (what the heuristic makes of it).

A primitive runs as ``run(state, context, effect)``: ``context.owner`` plays the card,
``context.source`` is the unit's board slot for unit abilities (else -1), and
``context.target`` the chosen ``(side, slot)`` (slot -1 is that side's Hero) or None.
Damage goes through the engine's rules (armour, GD-3.2; death, GD-3.3; a Hero at 0 loses,
GD-2.4), so cards never bypass them. A card that needs more than the vocabulary registers a
function in ``SPECIALS`` by name and says ``{ do = "special", name = "..." }``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import AfterValidator, Field, model_validator

from tabletop.envs.core.cards.data import FieldError
from tabletop.envs.core.cards.events import Context
from tabletop.envs.core.cards.vocabulary import (
    Effect,
    NoParams,
    Params,
    RegisteredName,
    Vocabulary,
)

if TYPE_CHECKING:  # the engine imports the cards, which import this vocabulary
    from tabletop.envs.gold_and_dust.engine import GoldDustState

HERO = -1
"""The slot that stands for a side's Hero in a ``(side, slot)`` target."""
FRONT, BACK = 0, 1
ALLY, ENEMY = 0, 1
"""A selector's side, relative to the effect's owner."""
IGNORE_ARMOUR = 1_000
"""Pierce large enough to ignore any armour (``pierce = true`` on a damage effect)."""

Target = tuple[int, int]

VOCAB = Vocabulary("gold_and_dust")

# ----- selectors: whom an effect reaches ----------------------------------------------------


@dataclass(frozen=True)
class Reach:
    """A parsed selector: the chosen ``target``, the unit itself (``self``), a side's
    ``hero``, or every living unit of a side's ``group`` (``row`` None: both rows)."""

    kind: Literal["target", "self", "hero", "group"]
    side: int = ALLY
    row: int | None = None


GROUPS = (
    "each_enemy_unit",
    "each_enemy_front",
    "each_enemy_back",
    "each_ally_unit",
    "each_ally_front",
    "each_ally_back",
)
SELECTORS = ("target", "self", "own_hero", "enemy_hero", *GROUPS)
UNIT_SELECTORS = ("target", "self", *GROUPS)
OWN_UNIT_SELECTORS = ("target", "self", "each_ally_unit", "each_ally_front", "each_ally_back")
ENEMY_UNIT_SELECTORS = ("target", "each_enemy_unit", "each_enemy_front", "each_enemy_back")
_ROWS = {"unit": None, "front": FRONT, "back": BACK}

VOCAB.selector("target", Reach("target"))
VOCAB.selector("self", Reach("self"))
VOCAB.selector("own_hero", Reach("hero", ALLY))
VOCAB.selector("enemy_hero", Reach("hero", ENEMY))
for _name in GROUPS:
    _, _side, _row = _name.split("_")
    VOCAB.selector(_name, Reach("group", ALLY if _side == "ally" else ENEMY, _ROWS[_row]))


def affected(state: GoldDustState, context: Context, reach: Reach | None) -> list[Target]:
    """The ``(side, slot)`` pairs an effect reaches, living units only."""
    owner = context.owner
    if reach is None:
        return []
    if reach.kind == "target":
        target = context.target
        return [target] if target is not None and state.is_alive(*target) else []
    if reach.kind == "self":
        slot = context.source  # a unit's board slot; -1 or None for a card not on the table
        if slot is None or slot < 0:
            return []
        return [(owner, slot)] if state.is_alive(owner, slot) else []
    side = owner if reach.side == ALLY else 1 - owner
    if reach.kind == "hero":
        return [(side, HERO)]
    row = reach.row
    return [
        (side, slot)
        for slot, unit in enumerate(state.boards[side])
        if unit is not None and not unit.dead and (row is None or unit.row == row)
    ]


# ----- trigger events -------------------------------------------------------------------------

VOCAB.event("played", "on_play", "the card is played (GD-2.3)")
VOCAB.event("dies", "on_death", "the unit goes to the graveyard (GD-3.3)")
VOCAB.event("turn_starts", "on_turn_start", "its owner's turn starts (units, lasting artifacts)")
VOCAB.event("damaged", "on_damaged", "the unit takes damage and survives it")
VOCAB.event("attacks", "on_attack", "the unit is declared an attacker (GD-7.1)")
VOCAB.event("blocks", "on_block", "the unit is declared a blocker (GD-7.1)")
VOCAB.event("shoots", "on_shoot", "the unit shoots (GD-6)")
UNIT_EVENTS = ("dies", "damaged", "attacks", "blocks", "shoots")
"""Events that happen to a unit, so only unit cards react to them."""

# ----- dice ------------------------------------------------------------------------------------

DIE_PATTERN = re.compile(r"^(?:([1-9])?k(3|6)|none)$")


def parse_die(text: str) -> tuple[int, int]:
    """``"k6"`` -> (1, 6), ``"2k6"`` -> (2, 6), ``"k3"`` -> (1, 3), ``"none"`` -> (0, 0)."""
    match = DIE_PATTERN.match(text)
    if match is None:
        raise ValueError(f"{text!r} is not a die: write k3, k6, 2k6, ... or none (GD-3.1)")
    if text == "none":
        return (0, 0)
    return (int(match.group(1) or 1), int(match.group(2)))


def mean_roll(dice: tuple[int, int]) -> float:
    """The expected roll: 3.5 a k6, 2 a k3."""
    count, sides = dice
    return count * (3.5 if sides == 6 else 2.0)


def _checked_die(text: str) -> str:
    parse_die(text)
    return text


Die = Annotated[str, AfterValidator(_checked_die)]
"""A die written as in the cards (``k6``, ``2k6``, ``none``), checked where it is read."""

# ----- the continuous effect: auras, discounts and hero passives ------------------------------

UNIT_GROUPS = ("ally_front", "ally_back", "ally_unit")
AURA_GROUPS = (*UNIT_GROUPS, "own_spells", "own_artifacts", "own_hero")
AURA_FIGURES = {
    "attack": UNIT_GROUPS,
    "armour": UNIT_GROUPS,
    "hero_damage": UNIT_GROUPS,
    "dust": ("own_spells",),
    "gold": ("own_artifacts",),
    "first_turn_draws": ("own_hero",),
}
"""What an aura may change, and for which group: base attack and armour of units,
damage their attacks deal to a Hero, the cost of spells (dust) or artifacts (gold), and
the Hero's draws on its first turn."""


class AuraDef(Params):
    """A lasting modifier of a group while its source is in play: a lasting artifact on
    the table, or a Hero (its passive, GD-2.4). Costs go down with negative figures."""

    group: Literal[AURA_GROUPS]  # type: ignore[valid-type]
    attack: int = Field(0, ge=-5, le=5)
    armour: int = Field(0, ge=-5, le=5)
    hero_damage: int = Field(0, ge=0, le=5)
    dust: int = Field(0, ge=-5, le=5)
    gold: int = Field(0, ge=-5, le=5)
    first_turn_draws: int = Field(0, ge=0, le=3)

    @model_validator(mode="after")
    def _meaningful(self) -> AuraDef:
        given = [name for name in AURA_FIGURES if getattr(self, name)]
        if not given:
            raise ValueError(
                "an aura with nothing to do: give it attack, armour, hero_damage (units), "
                "dust (own_spells), gold (own_artifacts) or first_turn_draws (own_hero)"
            )
        for name in given:
            if self.group not in AURA_FIGURES[name]:
                raise FieldError(
                    name, f"{name!r} is for groups {AURA_FIGURES[name]}, not {self.group!r}"
                )
        return self


VOCAB.static("aura", params=AuraDef)

# ----- conditions ------------------------------------------------------------------------------


class Amount(Params):
    amount: int = Field(ge=0, le=99)


@VOCAB.condition("own_hero_hp_at_most", params=Amount)
def _own_hero_hp_at_most(state: GoldDustState, context: Context, params: Amount) -> bool:
    """The owner's Hero has at most ``amount`` HP."""
    return state.hp[context.owner] <= params.amount


@VOCAB.condition("enemy_has_units")
def _enemy_has_units(state: GoldDustState, context: Context, params: NoParams) -> bool:
    """The owner's opponent has a living unit on the table."""
    return any(u is not None and not u.dead for u in state.boards[1 - context.owner])


@VOCAB.condition("first_turn")
def _first_turn(state: GoldDustState, context: Context, params: NoParams) -> bool:
    """It is the owner's first turn (GD-2.2: no regeneration yet)."""
    return state.turns_started[context.owner] == 1


# ----- primitives ------------------------------------------------------------------------------


class DamageParams(Params):
    amount: int = Field(0, ge=0, le=50)
    die: Die = "none"
    pierce: bool = False

    @cached_property
    def dice(self) -> tuple[int, int]:
        """``die`` parsed, once (a pydantic private attribute would cost a ``__getattr__``
        at every hit)."""
        return parse_die(self.die)


# Traits and emptiness tests are named functions, not lambdas, so that the effects a state
# holds pickle (subprocess vector envs, saved games).


def _damage_traits(p: DamageParams) -> dict[str, float]:
    return {"damage": p.amount + mean_roll(p.dice)}


def _no_damage(p: DamageParams) -> bool:
    return p.amount == 0 and p.die == "none"


@VOCAB.primitive(
    "damage", params=DamageParams, selectors=SELECTORS, default_to="target",
    traits=_damage_traits, empty=_no_damage,
)  # fmt: skip
def _damage(state: GoldDustState, context: Context, effect: Effect) -> None:
    """``amount`` + a roll of ``die`` (GD-3.1), rolled for each one hit, minus armour
    unless ``pierce`` (GD-3.2)."""
    params = effect.params
    pierce = IGNORE_ARMOUR if params.pierce else 0
    for side, slot in affected(state, context, effect.reach):
        amount = params.amount + state.roll(params.dice)
        if slot == HERO:
            state.hit_hero(side, amount)
            if state.is_terminal():
                return
        else:
            state.hit_unit(side, slot, amount, pierce)


class HealParams(Params):
    amount: int = Field(0, ge=0, le=50)


def _heal_traits(p: HealParams) -> dict[str, float]:
    return {"heal": p.amount}


def _no_amount(p: HealParams) -> bool:
    return p.amount == 0


@VOCAB.primitive(
    "heal", params=HealParams, selectors=SELECTORS, default_to="target",
    traits=_heal_traits, empty=_no_amount,
)  # fmt: skip
def _heal(state: GoldDustState, context: Context, effect: Effect) -> None:
    """Up to the maximum hit points, never above."""
    amount = effect.params.amount
    for side, slot in affected(state, context, effect.reach):
        if slot == HERO:
            before = state.hp[side]
            state.hp[side] = min(state.heroes[side].hp, before + amount)
            after, label = state.hp[side], "Hero"
        else:
            unit = state.boards[side][slot]
            before = unit.hp
            unit.hp = after = min(unit.max_hp, before + amount)
            label = state.unit_label(side, slot)
        if after > before:
            state._record("healed", player=side, target=label, amount=after - before, hp=after)


class BuffParams(Params):
    attack: int = Field(0, ge=-10, le=10)
    armour: int = Field(0, ge=-10, le=10)
    hp: int = Field(0, ge=0, le=20)


def _buff_traits(p: BuffParams) -> dict[str, float]:
    return {"buff_attack": p.attack, "buff_armour": p.armour, "buff_hp": p.hp}


def _no_buff(p: BuffParams) -> bool:
    return (p.attack, p.armour, p.hp) == (0, 0, 0)


@VOCAB.primitive(
    "buff", params=BuffParams, selectors=UNIT_SELECTORS, default_to="target",
    traits=_buff_traits, empty=_no_buff,
)  # fmt: skip
def _buff(state: GoldDustState, context: Context, effect: Effect) -> None:
    """Lasting changes of base attack, armour and (maximum and current) hit points."""
    params = effect.params
    for side, slot in affected(state, context, effect.reach):
        unit = state.boards[side][slot]
        unit.attack_bonus += params.attack
        unit.armour_bonus += params.armour
        unit.max_hp += params.hp
        unit.hp += params.hp
        state._record(
            "unit_buffed", player=side, unit=state.unit_label(side, slot),
            attack=params.attack, armour=params.armour, hp=params.hp,
        )  # fmt: skip


class DrawParams(Params):
    cards: int = Field(0, ge=0, le=5)


def _draw_traits(p: DrawParams) -> dict[str, float]:
    return {"draws": p.cards}


def _no_cards(p: DrawParams) -> bool:
    return p.cards == 0


@VOCAB.primitive("draw", params=DrawParams, traits=_draw_traits, empty=_no_cards)
def _draw(state: GoldDustState, context: Context, effect: Effect) -> None:
    """The owner draws; each card is a draw under GD-1.3 (overflow) and GD-9.1 (fatigue)."""
    for _ in range(effect.params.cards):
        state.draw(context.owner)
        if state.is_terminal():
            return


class GainParams(Params):
    gold: int = Field(0, ge=0, le=20)
    dust: int = Field(0, ge=0, le=20)


def _gain_traits(p: GainParams) -> dict[str, float]:
    """Gold and dust apart: a card gaining one is not the card gaining the other."""
    return {"gains_gold": p.gold, "gains_dust": p.dust}


def _no_gain(p: GainParams) -> bool:
    return p.gold == 0 and p.dust == 0


@VOCAB.primitive("gain", params=GainParams, traits=_gain_traits, empty=_no_gain)
def _gain(state: GoldDustState, context: Context, effect: Effect) -> None:
    """The owner gains resources."""
    state.gain(context.owner, effect.params.gold, effect.params.dust, "effect")


def _destroy_traits(p: Params) -> dict[str, float]:
    return {"destroys": 1}


def _move_traits(p: Params) -> dict[str, float]:
    return {"moves_units": 1}


@VOCAB.primitive("destroy", selectors=UNIT_SELECTORS, default_to="target", traits=_destroy_traits)
def _destroy(state: GoldDustState, context: Context, effect: Effect) -> None:
    for side, slot in affected(state, context, effect.reach):
        state.kill_unit(side, slot)


@VOCAB.primitive(
    "move_up", selectors=OWN_UNIT_SELECTORS, default_to="target",
    traits=_move_traits,
)  # fmt: skip
def _move_up(state: GoldDustState, context: Context, effect: Effect) -> None:
    """To the first row; unlike a unit's own move (GD-5.2) it does not use the unit's turn.
    An ``immobile`` unit stays where it is."""
    for side, slot in affected(state, context, effect.reach):
        unit = state.boards[side][slot]
        if not unit.card.immobile and unit.row != FRONT:
            unit.row = FRONT
            state.record_row(side, slot)


@VOCAB.primitive(
    "push_back", selectors=ENEMY_UNIT_SELECTORS, default_to="target",
    traits=_move_traits,
)  # fmt: skip
def _push_back(state: GoldDustState, context: Context, effect: Effect) -> None:
    for side, slot in affected(state, context, effect.reach):
        if state.boards[side][slot].row != BACK:
            state.boards[side][slot].row = BACK
            state.record_row(side, slot)


@VOCAB.primitive(
    "ready", selectors=OWN_UNIT_SELECTORS, default_to="target",
    traits=_move_traits,
)  # fmt: skip
def _ready(state: GoldDustState, context: Context, effect: Effect) -> None:
    """Untapped, not resting, and free to attack this turn even if it moved."""
    for side, slot in affected(state, context, effect.reach):
        unit = state.boards[side][slot]
        unit.tapped = unit.resting = unit.moved = False
        state._record("unit_readied", player=side, unit=state.unit_label(side, slot))


Special = Callable[["GoldDustState", Context, Effect], None]
SPECIALS: dict[str, Special] = {}
"""Named code for cards that truly need it; card files refer to these names (the specials
below)."""


class SpecialParams(RegisteredName):
    REGISTRY = SPECIALS
    WHAT = "special"


@VOCAB.primitive("special", params=SpecialParams, selectors=SELECTORS)
def _special(state: GoldDustState, context: Context, effect: Effect) -> None:
    SPECIALS[effect.params.name](state, context, effect)


PRIMITIVES = VOCAB.primitives
"""Effect primitive name -> its declaration (schema, selectors, run, traits, appraisal)."""

# ----- specials: card abilities the vocabulary cannot say -------------------------------------

WAGER_DIE = (1, 6)
WAGER_WINS_FROM = 4
WAGER_CARDS = 2
WAGER_LOSS = 2


def _wager(state: GoldDustState, context: Context, effect: Effect) -> None:
    """Fortune's Die: roll k6; on 4+ draw 2 cards, otherwise your Hero takes 2 damage.
    Code because the vocabulary's conditions do not look at a roll made by the effect."""
    if state.roll(WAGER_DIE) >= WAGER_WINS_FROM:
        for _ in range(WAGER_CARDS):
            state.draw(context.owner)
            if state.is_terminal():
                return
    else:
        state.hit_hero(context.owner, WAGER_LOSS)


SPECIALS["wager"] = _wager
