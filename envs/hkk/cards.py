"""HKK card data: the pool and deck file formats, their validation, the compiled cards.

A pool file (TOML) lists cards (``[[card]]``), each with a ``type`` of HK-1.3 that decides
which fields it has: creatures (monster, mutant, galetki, adventurer) their cost, damage,
life, components, abilities (HK-7) and drawbacks; buildings their builders and structure
(HK-9.1); items their components, kind and subtype (HK-9.2); and so on. A deck file names
cards of a pool and their copies under the deck rules of HK-1.1 (``parse_deck``). Every
error names the file, the card and the field (HK-10.2, through ``envs/core/cards/data.py``).
What cards do is composed from ``effects.VOCAB``; a loaded card is a frozen dataclass of
its type (``Monster``, ``Mutant``, ... ``Sorcery``).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, ClassVar, Literal, get_args

from pydantic import BeforeValidator, Field, field_validator, model_validator

from tabletop.envs.core.cards.data import (
    CardPool,
    DeckRules,
    FieldError,
    PackagedData,
    PoolTable,
    StrictModel,
    count_copies,
    deck_entries,
    listed_once,
    read_pool,
    validate_record,
)
from tabletop.envs.core.cards.events import Triggers, triggers_of
from tabletop.envs.core.cards.vocabulary import Condition, Effect, Params, StaticsTable
from tabletop.envs.hkk.effects import (
    PLAYER_STATICS,
    VOCAB,
    Abilities,
    CardType,
    Colour,
    Form,
    Group,
    Seq,
)

CARD_TYPES: tuple[str, ...] = get_args(CardType)
"""The twelve card types of HK-1.3, in its order."""
CREATURE_TYPES = ("monster", "mutant", "galetki", "adventurer")  # HK-1.3
SPELL_TYPES = ("enchantment", "sorcery", "instant")  # HK-1.3
DECK_MINIMUM = 30  # HK-1.1, a friendly game
TOURNAMENT_MINIMUM = 45  # HK-1.1
MAX_COPIES = 3  # HK-1.1
PACKAGED_DECKS = ("skyfire", "venom", "stronghold", "devourers")
"""The packaged decks by file stem in data/decks (HK-10.1)."""

ABILITY_RULES = {
    "immunity": "HK-7.1",
    "magic_attack": "HK-7.2",
    "magic_defence": "HK-7.2",
    "poison": "HK-7.3",
    "invisible": "HK-7.4",
    "sees_invisible": "HK-7.4",
    "flying": "HK-7.5",
    "swimming": "HK-7.6",
    "untargetable": "HK-7.7",
    "unaffected": "HK-7.7",
    "on_play": "HK-7.8",
    "may_on_play": "HK-7.8",
    "regeneration": "HK-7.9",
    "passivation_cost": "HK-7.10",
    "play_condition": "HK-7.11",
    "drawback": "HK-7.11",
    "direct_damage": "HK-6.4",
}
"""Every ability a card can have (``abilities_of``) and the rule that defines it."""

NAME_PATTERN = re.compile(r"^[A-Za-z][A-Za-z' -]{0,28}[A-Za-z]$")
SUBTYPE_PATTERN = r"^[a-z][a-z-]{1,19}$"


EffectData = Annotated[Effect, BeforeValidator(VOCAB.parse_effect)]
Effects = Seq[EffectData]
Cost = Annotated[int, Field(ge=0, le=20)]
Count = Annotated[int, Field(ge=0, le=10)]


def _parse_condition(data: Any) -> Condition:
    """A play condition: the vocabulary's condition, its errors named under ``condition``
    (the vocabulary names them as the guard ``when`` of an effect)."""
    try:
        return VOCAB.parse_condition(data)
    except FieldError as error:
        inner = error.field.removeprefix("when").lstrip(".")
        if not inner:
            raise ValueError(str(error)) from None
        raise FieldError(inner, str(error)) from None


ConditionData = Annotated[Condition, BeforeValidator(_parse_condition)]


# ----- parts of cards -----------------------------------------------------------------------


class Activated(StrictModel):
    """An activated ability (HK-7): its costs, when it may be used (HK-8.3), the adventurer
    level it needs (HK-4.4) and its effects."""

    effects: Effects = Field(min_length=1)
    vp: Cost = 0
    life: Cost = 0
    components: Cost = 0
    passivate: bool = False
    """HK-7.10: the card becomes passive to pay for it."""
    sacrifice: bool = False
    """The card itself is sacrificed to pay for it (no components, HK-5.1)."""
    level: Annotated[int, Field(ge=0, le=5)] = 0
    timing: Literal["instant", "preparation"] = "instant"
    """HK-8.3: at instant speed, or (also) in the preparation phase when the card says so."""


class Direct(StrictModel):
    """A direct-damage ability (HK-6.4): a ``breath`` of a rating, paid per point in magic
    points (or life where ``life_payable``), or other ``effects`` costing ``vp``."""

    breath: Annotated[int, Field(ge=1, le=10)] | None = None
    form: Form | None = None
    life_payable: bool = False
    effects: Effects = ()
    vp: Cost = 0

    @model_validator(mode="after")
    def _one_kind(self) -> Direct:
        if (self.breath is None) == (not self.effects):
            raise FieldError("breath", "a direct ability is a breath or effects, one of them")
        if self.breath is None and (self.form is not None or self.life_payable):
            raise FieldError("form", "'form' and 'life_payable' are for a breath")
        if self.breath is not None and self.vp:
            raise FieldError("vp", "a breath costs a magic point per point of damage (HK-6.4)")
        return self


class Upkeep(StrictModel):
    """A drawback paid in the preparation phase (HK-7.11); unpaid, the card is sacrificed."""

    kind: Literal["upkeep"]
    vp: Cost = 0
    life: Cost = 0
    components: Cost = 0

    @model_validator(mode="after")
    def _pays(self) -> Upkeep:
        if not (self.vp or self.life or self.components):
            raise FieldError("vp", "an upkeep asks for magic points, life or components")
        return self


class BodyPartLimit(StrictModel):
    """A drawback: the galetki carries at most ``count`` body parts (HK-7.11, HK-9.4)."""

    kind: Literal["body_parts"]
    count: Annotated[int, Field(ge=0, le=2)]


class WeakAgainst(StrictModel):
    """A drawback: ``amount`` less damage against creatures with an ability (HK-7.11)."""

    kind: Literal["weak_against"]
    ability: Literal["flying", "swimming", "invisible", "magic_defence"]
    amount: Annotated[int, Field(ge=1, le=5)]


Drawback = Annotated[Upkeep | BodyPartLimit | WeakAgainst, Field(discriminator="kind")]


class AtLevel(StrictModel):
    """Abilities an adventurer has from a level on (HK-4.4)."""

    level: Annotated[int, Field(ge=1, le=5)]
    abilities: Abilities


class Modifiers(StaticsTable):
    """What a permanent modifies while active: its host (a carrier, an attached card) or,
    lying on the table, the creatures of ``group``; ``guard_size`` and ``vp_limit`` its
    controller's limits (``effects.PLAYER_STATICS``)."""

    VOCAB = VOCAB
    NOT_STATICS = frozenset({"group"})

    group: Group | None = None
    bonus: dict[str, Any] | None = None
    grant: dict[str, Any] | None = None
    guard_size: dict[str, Any] | None = None
    vp_limit: dict[str, Any] | None = None


# ----- the schemas of the card types ---------------------------------------------------------


class _CardFields(StrictModel):
    """Fields every card has: its name, type, colour (HK-1.5), text, play condition
    (HK-7.11) and effects when successfully played (HK-7.8)."""

    name: str
    type: CardType
    text: str = Field(min_length=1)
    colour: Colour = "colourless"
    condition: ConditionData | None = None
    on_play: Effects = ()
    may_on_play: Effects = ()

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        if not NAME_PATTERN.match(value):
            raise ValueError(f"{value!r} is not a card name: 2-30 letters, spaces, - or '")
        return value

    @model_validator(mode="after")
    def _answers(self) -> _CardFields:
        """Only a reaction, an instant as it is played, answers a card or ability on the
        chain (HK-8.4); an effect anywhere else has nothing to answer."""
        reaction_field = ("instant", "on_play")
        for name, effects in self._effect_lists():
            answers = any(effect.to == "answered" for effect in effects)
            if answers and (self.type, name) != reaction_field:
                raise FieldError(name, "only an instant answers a card or ability (HK-8.4)")
        return self

    def _effect_lists(self) -> Iterator[tuple[str, tuple[Effect, ...]]]:
        """Every list of effects the card has, by its field."""
        yield "on_play", self.on_play
        yield "may_on_play", self.may_on_play
        yield "on_upkeep", getattr(self, "on_upkeep", ())
        for index, ability in enumerate(getattr(self, "activated", ())):
            yield f"activated[{index}].effects", ability.effects
        direct = getattr(self, "direct", None)
        if direct is not None:
            yield "direct.effects", direct.effects


class _PermanentFields(_CardFields):
    """A card that stays in play: its activated abilities and upkeep effects."""

    activated: Seq[Activated] = ()
    on_upkeep: Effects = ()

    def _check_passivation(self, can_be_passive: bool) -> None:
        if not can_be_passive and any(a.passivate for a in self.activated):
            raise FieldError("activated", f"a {self.type} can never be made passive")


class _ModifierFields(_PermanentFields):
    """A permanent that is not a creature: it may modify creatures or its controller's
    limits while it is active."""

    modifiers: Modifiers = Modifiers()

    def _check_modifiers(self, on_table: bool) -> None:
        """A card lying on the table names the ``group`` its bonus and grant affect; an
        attached one affects its host and names none, nor changes a player's limits."""
        modifiers = self.modifiers
        affects = modifiers.bonus is not None or modifiers.grant is not None
        if on_table and affects and modifiers.group is None:
            raise FieldError("modifiers.group", "a card on the table names the group it affects")
        if not on_table and modifiers.group is not None:
            raise FieldError("modifiers.group", "an attached card affects what it lies on")
        for name in PLAYER_STATICS:
            if not on_table and getattr(modifiers, name) is not None:
                raise FieldError(f"modifiers.{name}", "only a card on the table has it")

    def _does_something(self) -> None:
        if not (self.modifiers.statics() or self.activated or self.on_upkeep or self.on_play
                or self.may_on_play):  # fmt: skip
            raise FieldError("modifiers", f"a {self.type} without effects does nothing")


class CreatureDef(_PermanentFields):
    """Monsters, mutants, galetki and adventurers (HK-4)."""

    type: Literal["monster", "mutant", "galetki", "adventurer"]
    cost: Cost
    damage: Count
    life: Annotated[int, Field(ge=1, le=20)]
    components: Annotated[int, Field(ge=0, le=5)] = 0
    subtypes: Seq[Annotated[str, Field(pattern=SUBTYPE_PATTERN)]] = ()
    item_use: bool = False
    abilities: Abilities = Abilities()
    direct: Direct | None = None
    drawbacks: Seq[Drawback] = ()
    at_level: Seq[AtLevel] = ()

    _subtypes = field_validator("subtypes")(classmethod(lambda cls, value: listed_once(value)))

    @model_validator(mode="before")
    @classmethod
    def _adventurers_use_items(cls, data: Any) -> Any:
        """Every adventurer may use items (HK-4.4), without saying so."""
        if isinstance(data, dict) and data.get("type") == "adventurer":
            return {"item_use": True, **data}
        return data

    @model_validator(mode="after")
    def _consistent(self) -> CreatureDef:
        adventurer = self.type == "adventurer"
        if adventurer and not self.item_use:
            raise FieldError("item_use", "every adventurer may use items (HK-4.4)")
        if not adventurer and (self.at_level or any(a.level for a in self.activated)):
            raise FieldError("at_level", "only adventurers have levels (HK-4.4)")
        if self.type != "galetki" and any(d.kind == "body_parts" for d in self.drawbacks):
            raise FieldError("drawbacks", "only a galetki carries body parts (HK-9.4)")
        return self


class BuildingDef(_ModifierFields):
    """HK-9.1: paid by making ``builders`` active reserve creatures passive."""

    type: Literal["building"]
    builders: Annotated[int, Field(ge=1, le=5)]
    structure: Annotated[int, Field(ge=1, le=20)]

    @model_validator(mode="after")
    def _consistent(self) -> BuildingDef:
        self._check_modifiers(on_table=True)
        return self


class ItemDef(_ModifierFields):
    """HK-9.2: paid in components; ``carried`` by a creature (one per ``subtype``) or
    lying on the table."""

    type: Literal["item"]
    components: Annotated[int, Field(ge=0, le=10)]
    carried: bool
    subtype: Annotated[str, Field(pattern=SUBTYPE_PATTERN)] | None = None

    @model_validator(mode="after")
    def _consistent(self) -> ItemDef:
        if self.carried != (self.subtype is not None):
            raise FieldError("subtype", "a creature item has a subtype, a table item none")
        self._check_modifiers(on_table=not self.carried)
        self._check_passivation(not self.carried)
        self._does_something()
        return self


class SkillDef(_ModifierFields):
    """HK-9.3: lies on the table; every copy in play is a level."""

    type: Literal["skill"]
    cost: Cost

    @model_validator(mode="after")
    def _consistent(self) -> SkillDef:
        self._check_modifiers(on_table=True)
        self._does_something()
        return self


class BodyPartDef(_ModifierFields):
    """HK-9.4: goes on a galetki, never passive."""

    type: Literal["body_part"]
    cost: Cost

    @model_validator(mode="after")
    def _consistent(self) -> BodyPartDef:
        self._check_modifiers(on_table=False)
        self._check_passivation(False)
        return self


class EnchantmentDef(_ModifierFields):
    """HK-8.1: attached to a card of the kind ``attach`` names, or lying on the table."""

    type: Literal["enchantment"]
    cost: Cost
    attach: Literal["creature", "item", "building", "enchantment"] | None = None

    @model_validator(mode="after")
    def _consistent(self) -> EnchantmentDef:
        self._check_modifiers(on_table=self.attach is None)
        self._does_something()
        if self.attach in ("item", "building", "enchantment"):
            self._check_no_creature_effects()
        return self

    def _check_no_creature_effects(self) -> None:
        """An enchantment on an item, a building or an enchantment lies on no creature, so
        what changes the creature it lies on (a bonus, a grant, an effect on ``self``)
        could never happen: such a card is refused, not loaded to do nothing (HK-8.1)."""
        host = {"item": "an item", "building": "a building", "enchantment": "an enchantment"}
        where = f"an enchantment on {host[str(self.attach)]}"
        for name in ("bonus", "grant"):
            if getattr(self.modifiers, name) is not None:
                raise FieldError(f"modifiers.{name}", f"{where} lies on no creature to change")
        for name, effects in self._effect_lists():
            if any(effect.reach is not None and effect.reach.how == "self" for effect in effects):
                raise FieldError(name, f"{where} has no creature as 'self'")


class LevelUpDef(_CardFields):
    """HK-4.4: played on one of your adventurers, ``levels`` more for it."""

    type: Literal["level_up"]
    cost: Cost
    levels: Annotated[int, Field(ge=1, le=3)] = 1


class SpellDef(_CardFields):
    """Sorceries (HK-8.2) and instants (HK-8.3): they happen once. A reaction (an instant
    that answers, HK-8.4) may say what it ``answers``: a spell, an ability, a reaction or,
    by default, any card or ability."""

    type: Literal["sorcery", "instant"]
    cost: Cost
    answers: Literal["spell", "ability", "reaction", "any"] | None = None

    @model_validator(mode="after")
    def _does_something(self) -> SpellDef:
        if not (self.on_play or self.may_on_play):
            raise FieldError("on_play", f"a {self.type} without effects does nothing")
        if self.answers is not None and not any(e.to == "answered" for e in self.on_play):
            raise FieldError("answers", "only a reaction answers a card or ability (HK-8.4)")
        return self


SCHEMAS: dict[str, type[_CardFields]] = {
    **dict.fromkeys(CREATURE_TYPES, CreatureDef),
    "building": BuildingDef,
    "item": ItemDef,
    "skill": SkillDef,
    "level_up": LevelUpDef,
    "body_part": BodyPartDef,
    "enchantment": EnchantmentDef,
    "sorcery": SpellDef,
    "instant": SpellDef,
}


class DeckFile(StrictModel):
    name: str = Field(min_length=1)
    text: str = ""
    """The deck's plan, for people."""
    cards: dict[str, int]


# ----- compiled form: one frozen dataclass per card type --------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class Card:
    """A pool card as the engine uses it; ``index`` is its position in ``Pool.cards``."""

    TYPE: ClassVar[str] = ""
    index: int
    name: str
    text: str
    colour: str
    condition: Condition | None
    """HK-7.11: what must hold to play it."""
    triggers: Triggers = field(default_factory=dict)
    """Effects per event of ``effects.VOCAB`` (``played``, ``played_optional``, ``upkeep``)."""

    @property
    def is_spell(self) -> bool:
        """Enchantments, sorceries and instants are spells; nothing else is (HK-1.3)."""
        return self.TYPE in SPELL_TYPES


@dataclass(frozen=True, slots=True, kw_only=True)
class Permanent(Card):
    """A card that stays in play (everything but sorceries, instants and level-ups, whose
    cards go to the discard pile or under an adventurer)."""

    activated: tuple[Activated, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class Modifier(Permanent):
    """A permanent other than a creature: what it modifies while active."""

    statics: tuple[tuple[str, Params], ...] = ()
    """Its continuous effects (``effects`` statics)."""
    group: str | None = None
    """The creatures its ``bonus`` and ``grant`` affect when it lies on the table."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Creature(Permanent):
    """HK-4: damage, life and components; its abilities (HK-7) and drawbacks."""

    cost: int
    damage: int
    life: int
    components: int
    subtypes: tuple[str, ...]
    item_use: bool
    abilities: Abilities
    direct: Direct | None
    drawbacks: tuple[Upkeep | BodyPartLimit | WeakAgainst, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class Monster(Creature):
    TYPE: ClassVar[str] = "monster"


@dataclass(frozen=True, slots=True, kw_only=True)
class Mutant(Monster):
    """A mutant counts as a monster for every rule and card (HK-1.3): it is one."""

    TYPE: ClassVar[str] = "mutant"


@dataclass(frozen=True, slots=True, kw_only=True)
class Galetki(Creature):
    TYPE: ClassVar[str] = "galetki"


@dataclass(frozen=True, slots=True, kw_only=True)
class Adventurer(Creature):
    TYPE: ClassVar[str] = "adventurer"
    at_level: tuple[AtLevel, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class Building(Modifier):
    TYPE: ClassVar[str] = "building"
    builders: int
    structure: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Item(Modifier):
    TYPE: ClassVar[str] = "item"
    components: int
    carried: bool
    subtype: str | None


@dataclass(frozen=True, slots=True, kw_only=True)
class Skill(Modifier):
    TYPE: ClassVar[str] = "skill"
    cost: int


@dataclass(frozen=True, slots=True, kw_only=True)
class BodyPart(Modifier):
    TYPE: ClassVar[str] = "body_part"
    cost: int


@dataclass(frozen=True, slots=True, kw_only=True)
class LevelUp(Card):
    TYPE: ClassVar[str] = "level_up"
    cost: int
    levels: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Enchantment(Modifier):
    TYPE: ClassVar[str] = "enchantment"
    cost: int
    attach: str | None
    """What it is put on (HK-8.1); ``None``: it lies on the table."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Sorcery(Card):
    TYPE: ClassVar[str] = "sorcery"
    cost: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Instant(Card):
    TYPE: ClassVar[str] = "instant"
    cost: int
    answers: str | None = None
    """What a reaction answers: "spell", "ability", "reaction" or (``None``) any card or
    ability (HK-8.4)."""

    @property
    def reaction(self) -> bool:
        """Whether it answers a card or ability on the chain (HK-8.4)."""
        return any(effect.to == "answered" for effect in self.triggers.get("played", ()))


CARD_CLASSES: dict[str, type[Card]] = {
    cls.TYPE: cls
    for cls in (
        Monster, Mutant, Galetki, Adventurer, Building, Item, Skill, LevelUp, BodyPart,
        Enchantment, Instant, Sorcery,
    )
}  # fmt: skip


def abilities_of(card: Card) -> frozenset[str]:
    """The abilities (``ABILITY_RULES``) a card has or gives: its own, those at a level, those
    its modifiers grant, its triggers, costs, condition and drawbacks."""
    names = set(getattr(card, "abilities", Abilities()).names())
    names |= {n for level in getattr(card, "at_level", ()) for n in level.abilities.names()}
    names |= {n for kind, params in getattr(card, "statics", ()) if kind == "grant"
              for n in params.names()}  # fmt: skip
    flags = {
        "on_play": "played" in card.triggers,
        "may_on_play": "played_optional" in card.triggers,
        "passivation_cost": any(a.passivate for a in getattr(card, "activated", ())),
        "play_condition": card.condition is not None,
        "drawback": bool(getattr(card, "drawbacks", ())),
        "direct_damage": getattr(card, "direct", None) is not None,
    }
    names |= {name for name, present in flags.items() if present}
    return frozenset(names)


def _compile(index: int, record: _CardFields) -> Card:
    """The card's dataclass, its fields taken from the record's fields of the same name."""
    cls = CARD_CLASSES[record.type]
    values: dict[str, Any] = {"index": index}
    modifiers = getattr(record, "modifiers", None)
    if modifiers is not None:
        values["statics"], values["group"] = modifiers.statics(), modifiers.group
    for item in dataclasses.fields(cls):
        if item.name not in values and item.name in type(record).model_fields:
            values[item.name] = getattr(record, item.name)
    values["triggers"] = triggers_of(record.__dict__, VOCAB.trigger_fields())
    return cls(**values)


# ----- pools and decks -------------------------------------------------------------------------


@dataclass(frozen=True)
class Pool(CardPool[Card]):
    """A validated pool: its cards by index, and by lower-case name."""


@dataclass(frozen=True)
class Deck:
    """A legal deck (HK-1.1): card indices into its pool, each copy once."""

    name: str
    text: str
    source: str
    cards: tuple[int, ...]


DATA = PackagedData("tabletop.envs.hkk", PACKAGED_DECKS)
"""The packaged starter pool and decks (HK-10.1)."""
data_path = DATA.path


DECK_RULES = DeckRules(
    size=DECK_MINIMUM,
    exact=False,
    max_copies=MAX_COPIES,
    size_rule="a deck holds at least {size} cards (HK-1.1), this one {total}",
    copies_rule="a deck holds at most {limit} of a card (HK-1.1)",
)
"""HK-1.1 for a friendly game, checked by the kit (docs/card-format.md); a tournament
deck's minimum is ``TOURNAMENT_MINIMUM``."""
POOL_TABLES = (
    PoolTable(
        "card",
        schemas={kind: SCHEMAS[kind] for kind in CARD_TYPES},  # errors list them as HK-1.3
        kind="type",
        needed="a pool needs [[card]] entries",
    ),
)


def load_pool(path: str | Path | None = None) -> Pool:
    """The pool file at ``path`` (default: the packaged starter pool), validated."""
    return parse_pool(*DATA.read_pool(path))


def parse_pool(data: dict[str, Any], source: str) -> Pool:
    """A pool from parsed TOML, each card validated by the schema of its ``type``;
    ``source`` names the file in errors (HK-10.2)."""
    meta, records = read_pool(data, source, POOL_TABLES)
    return Pool(
        name=meta.name,
        version=meta.version,
        source=source,
        cards=tuple(_compile(index, card) for index, card in enumerate(records["card"])),
    )


def load_deck(spec: str | Path, pool: Pool, minimum: int = DECK_MINIMUM) -> Deck:
    """A deck by packaged name (``PACKAGED_DECKS``) or file path, checked against ``pool``
    and the deck rules (HK-1.1); ``TOURNAMENT_MINIMUM`` for a tournament deck."""
    data, source = DATA.read_deck(spec)
    return parse_deck(data, pool, source, minimum)


def parse_deck(data: dict[str, Any], pool: Pool, source: str, minimum: int = DECK_MINIMUM) -> Deck:
    """A deck from parsed TOML under HK-1.1 (``DECK_RULES``): at least ``minimum`` cards of
    ``pool``, at most ``MAX_COPIES`` of any card."""
    deck = validate_record(DeckFile, data, source, None)
    rules = dataclasses.replace(DECK_RULES, size=minimum)
    counted = count_copies(deck.cards, pool.card_named, pool.name, rules, source)
    cards = tuple(card.index for card in deck_entries(counted, rules, source))
    return Deck(name=deck.name, text=deck.text, source=source, cards=cards)
