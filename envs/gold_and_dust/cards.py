"""Gold & Dust card data: the file format, its schema, and the compiled cards the engine uses.

A pool file (TOML) lists heroes (``[[hero]]``) and cards (``[[card]]``); a deck file names a
hero and 40 cards from a pool (``[cards]``, name = copies). Files are validated with pydantic
on load, and every error names the file, the card and the field (``envs/core/cards/data.py``).
Abilities are composed in data from the vocabulary of ``effects.VOCAB`` (effect primitives,
selectors, trigger events, conditions and the ``aura`` continuous effect) and keywords
(``KEYWORDS``); the rare card that needs code names a function registered in
``effects.SPECIALS``. The format is documented in docs/card-format.md.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    BeforeValidator,
    Field,
    create_model,
    field_validator,
    model_validator,
)

from tabletop.envs.core.cards.data import (
    CardPool,
    DeckRules,
    FieldError,
    PackagedData,
    PoolTable,
    StrictModel,
    count_copies,
    data_error,
    deck_entries,
    find_named,
    listed_once,
    read_pool,
    validate_record,
)
from tabletop.envs.core.cards.events import Triggers, triggers_of
from tabletop.envs.core.cards.vocabulary import Effect
from tabletop.envs.gold_and_dust.effects import (
    ENEMY_UNIT_SELECTORS,
    GROUPS,
    OWN_UNIT_SELECTORS,
    PRIMITIVES,
    SELECTORS,
    UNIT_EVENTS,
    UNIT_SELECTORS,
    VOCAB,
    AuraDef,
    Die,
    parse_die,
)

__all__ = [
    "ARTIFACT", "ENEMY_UNIT_SELECTORS", "GROUPS", "HEROES", "KEYWORDS", "OWN_UNIT_SELECTORS",
    "PRIMITIVES", "ROLES", "SELECTORS", "SPELL", "TARGETS", "UNIT", "UNIT_SELECTORS", "AuraDef",
    "Card", "Deck", "Hero", "Pool", "data_path", "load_deck", "load_pool", "parse_deck",
    "parse_die", "parse_pool",
]  # fmt: skip

FORMAT = 1
"""Version of the file format itself (the ``format`` key of pool files)."""
HEROES = ("warrior", "mage", "thief", "merchant", "assassin")
"""The packaged decks, one per hero of GD-2.1, by file stem in ``data/decks``."""

DECK_SIZE = 41  # GD-1.1
MAX_COPIES = 2  # GD-1.2

UNIT, SPELL, ARTIFACT = "unit", "spell", "artifact"
ROLES = ("melee", "archer", "mage", "machine")  # GD-5.1
KEYWORDS = ("charge", "vanguard", "sniper", "death_strike", "tireless", "immobile")
"""Rule-breaking abilities (GD-0): ``charge`` may attack the turn it moves up (GD-5.2),
``vanguard`` enters the first row (GD-5.2), ``sniper`` may shoot the Hero from anywhere
(GD-6.2), ``death_strike`` strikes back even when it dies blocking (GD-7.2), ``tireless``
does not rest after blocking (GD-7.3), ``immobile`` never moves up (a machine)."""

TARGETS = (
    "none",
    "enemy",
    "enemy_unit",
    "enemy_front",
    "enemy_back",
    "ally",
    "ally_unit",
    "ally_front",
    "ally_back",
)
"""What the player chooses when playing a card: ``enemy``/``ally`` are a unit or that
side's Hero, ``*_unit`` any unit of the side, ``*_front``/``*_back`` a unit of that row."""

NAME_PATTERN = re.compile(r"^[A-Za-z][A-Za-z' -]{0,30}[A-Za-z]$")
RESERVED_NAMES = ("hero", "done")

# ----- schema -----------------------------------------------------------------------------


EffectData = Annotated[Effect, BeforeValidator(VOCAB.parse_effect)]
"""An effect as written in a card (``{do = "damage", amount = 2, die = "k6"}``), checked
against ``effects.VOCAB`` and loaded into a typed ``Effect`` (selector parsed) on load."""


@dataclass(frozen=True)
class Aim:
    """A parsed ``target``: the side the player picks on (relative: 0 own, 1 enemy),
    whether that side's Hero may be picked, and the row a unit must be in (None: any)."""

    side: int
    hero: bool
    row: int | None


def parse_aim(target: str) -> Aim | None:
    """``"none"`` -> None; ``"enemy_front"`` -> Aim(1, False, 0), and so on."""
    if target == "none":
        return None
    side_word, _, row_word = target.partition("_")
    row = {"front": 0, "back": 1}.get(row_word)
    return Aim(0 if side_word == "ally" else 1, row_word == "", row)


class PassiveDef(StrictModel):
    """A hero's passive ability (GD-2.4): its text and its continuous effects (``aura``),
    the same vocabulary lasting artifacts use."""

    text: str
    aura: list[AuraDef] = Field(default_factory=list)


class HeroDef(StrictModel):
    """A Hero card (GD-1.4, GD-2): resources, regeneration, hit points, passive."""

    name: str
    text: str = ""
    gold: int = Field(ge=0, le=50)
    gold_regen: int = Field(ge=0, le=20)
    dust: int = Field(ge=0, le=50)
    dust_regen: int = Field(ge=0, le=20)
    hp: int = Field(30, ge=1, le=99)
    passive: PassiveDef

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        return _check_name(value)


class _CardFields(StrictModel):
    """A unit, spell or artifact of a pool; ``CardDef`` adds one effect list per trigger
    event of the vocabulary (``on_play``, ``on_death``, ...)."""

    name: str
    kind: Literal["unit", "spell", "artifact"]
    text: str
    gold: int = Field(0, ge=0, le=30)
    dust: int = Field(0, ge=0, le=30)
    role: Literal[ROLES] | None = None  # type: ignore[valid-type]
    attack: int = Field(0, ge=0, le=20)
    die: Die = "none"
    armour: int = Field(0, ge=0, le=10)
    hp: int = Field(0, ge=0, le=40)
    ranged: bool = False
    pierce: int = Field(0, ge=0, le=10)
    keywords: list[Literal[KEYWORDS]] = Field(default_factory=list)  # type: ignore[valid-type]
    persistent: bool = False
    target: Literal[TARGETS] = "none"  # type: ignore[valid-type]
    aura: list[AuraDef] = Field(default_factory=list)

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        return _check_name(value)

    _keywords = field_validator("keywords")(classmethod(lambda cls, value: listed_once(value)))

    @model_validator(mode="after")
    def _consistent(self) -> _CardFields:
        if self.kind == UNIT:
            self._check_unit()
        else:
            self._check_non_unit()
        self._check_targets()
        return self

    def effects(self, event: str) -> list[Effect]:
        return getattr(self, VOCAB.events[event].field)

    def _lasting(self) -> list[str]:
        """The fields that only mean something while the card stays on the table."""
        return [n for n in ("aura", "on_turn_start") if getattr(self, n)]

    def _check_unit(self) -> None:
        if self.role is None:
            raise FieldError("role", f"a unit needs a role: one of {ROLES} (GD-5.1)")
        if self.hp < 1:
            raise FieldError("hp", "a unit needs hp of at least 1 (GD-3.3)")
        if self.role == "archer" and not self.ranged:
            raise FieldError("ranged", "an archer must be ranged (GD-6.1)")
        if "sniper" in self.keywords and not self.ranged:
            raise FieldError("keywords", "'sniper' is an ability of ranged units (GD-6.2)")
        if self.persistent or self.aura:
            field = "persistent" if self.persistent else "aura"
            raise FieldError(field, "'persistent' and 'aura' are for artifacts")

    def _check_non_unit(self) -> None:
        unit_fields = ("role", "attack", "die", "armour", "hp", "ranged", "pierce", "keywords")
        for name in unit_fields:
            if name in self.model_fields_set:
                raise FieldError(name, f"{name!r} is a unit field; a {self.kind} has none")
        for event in UNIT_EVENTS:
            if self.effects(event):
                field = VOCAB.events[event].field
                raise FieldError(field, f"{field!r} is for units")
        if self.kind == SPELL and self.gold:
            raise FieldError("gold", "spells are paid in dust only (GD-8.1)")
        if self.kind == ARTIFACT and self.dust:
            raise FieldError("dust", "artifacts are paid in gold only (GD-8.1)")
        lasting = self._lasting()
        if self.kind == SPELL and (self.persistent or lasting):
            field = "persistent" if self.persistent else lasting[0]
            raise FieldError(
                field, "a spell is one-shot (GD-3.3): no persistent, aura, on_turn_start"
            )
        if not self.persistent and lasting:
            raise FieldError(lasting[0], "'aura' and 'on_turn_start' need persistent = true")
        if self.persistent and not lasting:
            raise FieldError(
                "persistent", "a lasting artifact without aura or on_turn_start does nothing "
                "on the table: give it one, or drop persistent",
            )  # fmt: skip
        if not (self.effects("played") or lasting):
            raise FieldError("on_play", f"a {self.kind} without effects does nothing")

    def _check_targets(self) -> None:
        on_play = self.effects("played")
        uses_target = any(e.to == "target" for e in on_play)
        if uses_target and self.target == "none":
            raise FieldError(
                "target", "an on_play effect affects 'target' but the card has target = 'none'"
            )
        if self.target != "none" and not uses_target:
            raise FieldError(
                "target", f"target = {self.target!r} but no on_play effect affects 'target'"
            )
        for field, event in VOCAB.trigger_fields():
            effects = self.effects(event)
            if event != "played" and any(e.to == "target" for e in effects):
                raise FieldError(field, f"{field} effects cannot choose a target: set 'to'")
            if self.kind != UNIT and any(e.to == "self" for e in effects):
                raise FieldError(field, f"'self' is a unit; a {self.kind} cannot affect it")
        if any(e.to == "self" for e in self.effects("dies")):
            raise FieldError("on_death", "on_death effects cannot affect 'self': the unit is dead")
        for effect in on_play:
            if effect.to == "target":
                _check_target_fits(self.target, effect)


CardDef = create_model(
    "CardDef",
    __base__=_CardFields,
    __doc__=_CardFields.__doc__,
    **{field: (list[EffectData], []) for field, _ in VOCAB.trigger_fields()},
)
"""A pool card's record: the fields above and one effect list per trigger event."""


def _check_target_fits(target: str, effect: Effect) -> None:
    """The chosen target must be something the primitive can affect."""
    hero_possible = target in ("enemy", "ally")
    if hero_possible and effect.do in ("buff", "destroy", "move_up", "push_back", "ready"):
        raise FieldError(
            "target", f"{effect.do!r} affects units, but target {target!r} may be a Hero"
        )
    if effect.do in ("move_up", "ready") and not target.startswith("ally"):
        raise FieldError("target", f"{effect.do!r} affects own units; target must be ally_*")
    if effect.do == "push_back" and not target.startswith("enemy"):
        raise FieldError("target", "'push_back' affects enemy units; target must be enemy_*")


def _check_name(value: str) -> str:
    if not NAME_PATTERN.match(value) or " with " in f" {value.lower()} ":
        raise ValueError(
            f"{value!r} is not a card name: 2-32 letters, spaces, hyphens or apostrophes, "
            "and no word 'with' (notation: 'block A with B')"
        )
    if value.lower() in RESERVED_NAMES:
        raise ValueError(f"{value!r} is reserved in the action notation")
    return value


class DeckFile(StrictModel):
    """A deck file: its name and ``[cards]``, card name -> copies (the Hero counts too)."""

    name: str = Field(min_length=1)
    cards: dict[str, int]


# ----- compiled form ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Card:
    """A pool card as the engine uses it; ``index`` is its position in ``Pool.cards``."""

    index: int
    name: str
    kind: str
    text: str
    gold: int
    dust: int
    role: str | None
    attack: int
    dice: tuple[int, int]
    armour: int
    hp: int
    ranged: bool
    pierce: int
    charge: bool
    vanguard: bool
    sniper: bool
    death_strike: bool
    tireless: bool
    immobile: bool
    persistent: bool
    target: str
    aim: Aim | None
    triggers: Triggers
    """Event name -> the effects the card resolves when it happens."""
    aura: tuple[AuraDef, ...]
    statics: tuple[tuple[str, AuraDef], ...]
    """The card's continuous effects while it is on the table: ``("aura", modifier)``."""

    @property
    def is_unit(self) -> bool:
        return self.kind == UNIT

    @property
    def on_play(self) -> tuple[Effect, ...]:
        return self.triggers.get("played", ())

    @property
    def on_death(self) -> tuple[Effect, ...]:
        return self.triggers.get("dies", ())

    @property
    def on_turn_start(self) -> tuple[Effect, ...]:
        return self.triggers.get("turn_starts", ())

    def effects(self) -> tuple[Effect, ...]:
        """Every effect of every trigger, in the vocabulary's event order."""
        return tuple(e for _, event in VOCAB.trigger_fields() for e in self.triggers.get(event, ()))

    def die_text(self) -> str:
        count, sides = self.dice
        return "none" if not count else f"{'' if count == 1 else count}k{sides}"


@dataclass(frozen=True, slots=True)
class Hero:
    """A Hero card; its passive's auras are its ``statics`` (it is always in play)."""

    index: int
    name: str
    text: str
    gold: int
    gold_regen: int
    dust: int
    dust_regen: int
    hp: int
    passive: PassiveDef
    statics: tuple[tuple[str, AuraDef], ...]


@dataclass(frozen=True)
class Pool(CardPool[Card]):
    """A validated card pool: heroes and cards by index, both also by lower-case name."""

    heroes: tuple[Hero, ...]

    def hero_named(self, name: str) -> Hero | None:
        return find_named(self.heroes, name)


@dataclass(frozen=True)
class Deck:
    """A legal deck (GD-1.1, GD-1.2): one hero and 40 card indices into its pool."""

    name: str
    source: str
    hero: Hero
    cards: tuple[int, ...]


def _compile_card(index: int, card: Any) -> Card:
    keywords = set(card.keywords)
    return Card(
        index=index,
        name=card.name,
        kind=card.kind,
        text=card.text,
        gold=card.gold,
        dust=card.dust,
        role=card.role,
        attack=card.attack,
        dice=parse_die(card.die),
        armour=card.armour,
        hp=card.hp,
        ranged=card.ranged,
        pierce=card.pierce,
        charge="charge" in keywords,
        vanguard="vanguard" in keywords,
        sniper="sniper" in keywords,
        death_strike="death_strike" in keywords,
        tireless="tireless" in keywords,
        immobile="immobile" in keywords,
        persistent=card.persistent,
        target=card.target,
        aim=parse_aim(card.target),
        triggers=triggers_of(card.__dict__, VOCAB.trigger_fields()),
        aura=tuple(card.aura),
        statics=tuple(("aura", aura) for aura in card.aura),
    )


def _compile_hero(index: int, hero: HeroDef) -> Hero:
    return Hero(
        index, hero.name, hero.text, hero.gold, hero.gold_regen, hero.dust, hero.dust_regen,
        hero.hp, hero.passive, tuple(("aura", aura) for aura in hero.passive.aura),
    )  # fmt: skip


# ----- loading ----------------------------------------------------------------------------


DATA = PackagedData("tabletop.envs.gold_and_dust", HEROES)
"""The packaged starter pool and the hero decks."""
data_path = DATA.path
STARTER_POOL = DATA.pool
DECK_RULES = DeckRules(
    size=DECK_SIZE,
    exact=True,
    max_copies=MAX_COPIES,
    size_rule="GD-1.1: a deck has exactly {size} cards (1 Hero + 40), this one has {total}",
    copies_rule="no card may appear more than twice (GD-1.2)",
)
"""GD-1.1 and GD-1.2, checked by the kit (docs/card-format.md); the Hero counts as a card."""
POOL_TABLES = (
    PoolTable("hero", HeroDef, needed="a pool needs at least one [[hero]] (GD-1.1)"),
    PoolTable("card", CardDef, needed="a pool needs [[card]] entries"),
)


def load_pool(path: str | Path | None = None) -> Pool:
    """The pool file at ``path`` (default: the packaged starter pool), validated."""
    return parse_pool(*DATA.read_pool(path))


def parse_pool(data: dict[str, Any], source: str) -> Pool:
    """A pool from parsed TOML; ``source`` names the file in errors."""
    meta, records = read_pool(data, source, POOL_TABLES)
    return Pool(
        name=meta.name,
        version=meta.version,
        source=source,
        heroes=tuple(_compile_hero(i, h) for i, h in enumerate(records["hero"])),
        cards=tuple(_compile_card(i, c) for i, c in enumerate(records["card"])),
    )


def load_deck(spec: str | Path, pool: Pool) -> Deck:
    """A deck by packaged name (``"warrior"``, see ``HEROES``) or by file path, checked
    against ``pool`` and the deck rules; errors cite the rule id (GD-1.1, GD-1.2)."""
    data, source = DATA.read_deck(spec)
    return parse_deck(data, pool, source)


def parse_deck(data: dict[str, Any], pool: Pool, source: str) -> Deck:
    """A deck from parsed TOML, validated against ``pool`` under ``DECK_RULES`` and one
    Hero (GD-1.1)."""
    deck = validate_record(DeckFile, data, source, None)
    counted = count_copies(
        deck.cards, lambda name: pool.hero_named(name) or pool.card_named(name), pool.name,
        DECK_RULES, source,
    )  # fmt: skip
    heroes = [entry for entry, copies in counted if isinstance(entry, Hero) for _ in range(copies)]
    if len(heroes) != 1:
        raise data_error(
            source, f"GD-1.1: a deck has exactly one Hero card, this one has {len(heroes)}",
            field="cards",
        )  # fmt: skip
    entries = deck_entries(counted, DECK_RULES, source)
    cards = tuple(entry.index for entry in entries if isinstance(entry, Card))
    return Deck(name=deck.name, source=source, hero=heroes[0], cards=cards)
