"""Gold & Dust card data: the file format, its schema, and the compiled cards the engine uses.

A pool file (TOML) lists heroes (``[[hero]]``) and cards (``[[card]]``); a deck file names a
hero and 40 cards from a pool (``[cards]``, name = copies). Files are validated with pydantic
on load, and every error names the file, the card and the field (``envs/core/carddata.py``).
Abilities are composed in data from a small vocabulary of effect primitives (``PRIMITIVES``)
and keywords (``KEYWORDS``); the rare card that needs code names a function registered in
``effects.SPECIALS``. The format is documented in docs/card-format.md.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    field_validator,
    model_validator,
)

from tabletop.envs.core.carddata import (
    CardDataError,
    FieldError,
    check_unique_names,
    data_error,
    read_toml,
    validate_record,
    validate_records,
)

FORMAT = 1
"""Version of the file format itself (the ``format`` key of pool files)."""
DATA_PACKAGE = "tabletop.envs.gold_and_dust"
STARTER_POOL = "pool.toml"
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

GROUPS = (
    "each_enemy_unit",
    "each_enemy_front",
    "each_enemy_back",
    "each_ally_unit",
    "each_ally_front",
    "each_ally_back",
)
SELECTORS = ("target", "self", "own_hero", "enemy_hero", *GROUPS)
"""Whom an effect affects: the chosen ``target``, the unit itself (``self``), a Hero, or
every living unit of a group."""

UNIT_SELECTORS = ("target", "self", *GROUPS)
OWN_UNIT_SELECTORS = ("target", "self", "each_ally_unit", "each_ally_front", "each_ally_back")
ENEMY_UNIT_SELECTORS = ("target", "each_enemy_unit", "each_enemy_front", "each_enemy_back")

PRIMITIVES: dict[str, tuple[frozenset[str], tuple[str, ...]]] = {
    "damage": (frozenset({"amount", "die", "pierce", "to"}), SELECTORS),
    "heal": (frozenset({"amount", "to"}), SELECTORS),
    "buff": (frozenset({"attack", "armour", "hp", "to"}), UNIT_SELECTORS),
    "draw": (frozenset({"cards"}), ()),
    "gain": (frozenset({"gold", "dust"}), ()),
    "destroy": (frozenset({"to"}), UNIT_SELECTORS),
    "move_up": (frozenset({"to"}), OWN_UNIT_SELECTORS),
    "push_back": (frozenset({"to"}), ENEMY_UNIT_SELECTORS),
    "ready": (frozenset({"to"}), OWN_UNIT_SELECTORS),
    "special": (frozenset({"name", "to"}), SELECTORS),
}
"""Effect primitive -> (its parameters, the selectors ``to`` may take). ``draw`` and ``gain``
always concern the card's owner. See ``effects.py`` for what each one does."""

NAME_PATTERN = re.compile(r"^[A-Za-z][A-Za-z' -]{0,30}[A-Za-z]$")
RESERVED_NAMES = ("hero", "done")
DIE_PATTERN = re.compile(r"^(?:([1-9])?k(3|6)|none)$")


def parse_die(text: str) -> tuple[int, int]:
    """``"k6"`` -> (1, 6), ``"2k6"`` -> (2, 6), ``"k3"`` -> (1, 3), ``"none"`` -> (0, 0)."""
    match = DIE_PATTERN.match(text)
    if match is None:
        raise ValueError(f"{text!r} is not a die: write k3, k6, 2k6, ... or none (GD-3.1)")
    if text == "none":
        return (0, 0)
    return (int(match.group(1) or 1), int(match.group(2)))


def _checked_die(text: str) -> str:
    parse_die(text)
    return text


Die = Annotated[str, AfterValidator(_checked_die)]
"""A die written as in the cards (``k6``, ``2k6``, ``none``), checked where it is read."""


# ----- schema -----------------------------------------------------------------------------


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class EffectDef(_Strict):
    """An effect primitive and its parameters: ``{do = "damage", amount = 2, die = "k6"}``."""

    do: Literal[
        "damage", "heal", "buff", "draw", "gain", "destroy", "move_up", "push_back", "ready",
        "special",
    ]  # fmt: skip
    to: Literal[SELECTORS] = "target"  # type: ignore[valid-type]
    amount: int = Field(0, ge=0, le=50)
    die: Die = "none"
    pierce: bool = False
    attack: int = Field(0, ge=-10, le=10)
    armour: int = Field(0, ge=-10, le=10)
    hp: int = Field(0, ge=0, le=20)
    cards: int = Field(0, ge=0, le=5)
    gold: int = Field(0, ge=0, le=20)
    dust: int = Field(0, ge=0, le=20)
    name: str = ""

    @model_validator(mode="before")
    @classmethod
    def _only_own_parameters(cls, data: Any) -> Any:
        if isinstance(data, dict) and data.get("do") in PRIMITIVES:
            allowed = PRIMITIVES[data["do"]][0]
            for key in data:
                if key != "do" and key not in allowed:
                    raise ValueError(
                        f"{key!r} is not a parameter of {data['do']!r} "
                        f"(it takes {', '.join(sorted(allowed))})"
                    )
        return data

    @model_validator(mode="after")
    def _meaningful(self) -> EffectDef:
        selectors = PRIMITIVES[self.do][1]
        if selectors and self.to not in selectors:
            raise FieldError("to", f"{self.do!r} cannot affect {self.to!r} (allowed: {selectors})")
        empty = {
            "damage": self.amount == 0 and self.die == "none",
            "heal": self.amount == 0,
            "buff": (self.attack, self.armour, self.hp) == (0, 0, 0),
            "draw": self.cards == 0,
            "gain": self.gold == 0 and self.dust == 0,
        }
        if empty.get(self.do, False):
            raise ValueError(f"{self.do!r} with nothing to do: give it an amount")
        if self.do == "special":
            from tabletop.envs.gold_and_dust.effects import SPECIALS

            if self.name not in SPECIALS:
                raise FieldError(
                    "name", f"unknown special {self.name!r}; registered: {sorted(SPECIALS)}"
                )
        return self

    @property
    def selector(self) -> str:
        """What ``to`` means here: ``draw``/``gain`` concern the owner, never a target, and a
        ``special`` without ``to`` decides in code."""
        if not PRIMITIVES[self.do][1] or (
            self.do == "special" and "to" not in self.model_fields_set
        ):
            return ""
        return self.to


class AuraDef(_Strict):
    """A lasting bonus to a group of the owner's units, e.g. the front row's attack."""

    group: Literal["ally_front", "ally_back", "ally_unit"]
    attack: int = Field(0, ge=-5, le=5)
    armour: int = Field(0, ge=-5, le=5)

    @model_validator(mode="after")
    def _meaningful(self) -> AuraDef:
        if self.attack == 0 and self.armour == 0:
            raise ValueError("an aura with nothing to do: give it attack or armour")
        return self


class PassiveDef(_Strict):
    """A hero's passive ability (GD-2.4), composed of these modifiers."""

    text: str
    aura: list[AuraDef] = []
    spell_dust_discount: int = Field(0, ge=0, le=5)
    artifact_gold_discount: int = Field(0, ge=0, le=5)
    first_turn_extra_draws: int = Field(0, ge=0, le=3)
    hero_damage_bonus: int = Field(0, ge=0, le=5)


class HeroDef(_Strict):
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


class CardDef(_Strict):
    """A unit, spell or artifact of a pool."""

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
    keywords: list[Literal[KEYWORDS]] = []  # type: ignore[valid-type]
    persistent: bool = False
    target: Literal[TARGETS] = "none"  # type: ignore[valid-type]
    on_play: list[EffectDef] = []
    on_death: list[EffectDef] = []
    on_turn_start: list[EffectDef] = []
    aura: list[AuraDef] = []

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        return _check_name(value)

    @model_validator(mode="after")
    def _consistent(self) -> CardDef:
        if self.kind == UNIT:
            self._check_unit()
        else:
            self._check_non_unit()
        self._check_targets()
        return self

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
        if self.on_death:
            raise FieldError("on_death", "'on_death' is for units")
        if self.kind == SPELL and self.gold:
            raise FieldError("gold", "spells are paid in dust only (GD-8.1)")
        if self.kind == ARTIFACT and self.dust:
            raise FieldError("dust", "artifacts are paid in gold only (GD-8.1)")
        lasting = [name for name in ("aura", "on_turn_start") if getattr(self, name)]
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
        if not (self.on_play or lasting):
            raise FieldError("on_play", f"a {self.kind} without effects does nothing")

    def _check_targets(self) -> None:
        uses_target = any(e.selector == "target" for e in self.on_play)
        if uses_target and self.target == "none":
            raise FieldError(
                "target", "an on_play effect affects 'target' but the card has target = 'none'"
            )
        if self.target != "none" and not uses_target:
            raise FieldError(
                "target", f"target = {self.target!r} but no on_play effect affects 'target'"
            )
        for trigger in ("on_death", "on_turn_start"):
            for effect in getattr(self, trigger):
                if effect.selector == "target":
                    raise FieldError(trigger, f"{trigger} effects cannot choose a target: set 'to'")
        if any(e.selector == "self" for e in self.on_death):
            raise FieldError("on_death", "on_death effects cannot affect 'self': the unit is dead")
        for trigger in ("on_play", "on_turn_start"):
            if self.kind != UNIT and any(e.selector == "self" for e in getattr(self, trigger)):
                raise FieldError(trigger, f"'self' is a unit; a {self.kind} cannot affect it")
        for effect in self.on_play:
            if effect.selector == "target":
                _check_target_fits(self.target, effect)


def _check_target_fits(target: str, effect: EffectDef) -> None:
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


class PoolFile(_Strict):
    """The top-level keys of a pool file besides its ``[[hero]]`` and ``[[card]]`` arrays."""

    format: Literal[1]
    name: str = Field(min_length=1)
    version: str = Field(min_length=1)


class DeckFile(_Strict):
    """A deck file: its name and ``[cards]``, card name -> copies (the Hero counts too)."""

    name: str = Field(min_length=1)
    cards: dict[str, int]


# ----- compiled form ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Effect:
    """An effect as the engine runs it."""

    do: str
    to: str
    amount: int
    dice: tuple[int, int]
    pierce: bool
    attack: int
    armour: int
    hp: int
    cards: int
    gold: int
    dust: int
    name: str


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
    on_play: tuple[Effect, ...]
    on_death: tuple[Effect, ...]
    on_turn_start: tuple[Effect, ...]
    aura: tuple[AuraDef, ...]

    @property
    def is_unit(self) -> bool:
        return self.kind == UNIT

    def die_text(self) -> str:
        count, sides = self.dice
        return "none" if not count else f"{'' if count == 1 else count}k{sides}"


@dataclass(frozen=True, slots=True)
class Hero:
    index: int
    name: str
    text: str
    gold: int
    gold_regen: int
    dust: int
    dust_regen: int
    hp: int
    passive: PassiveDef


@dataclass(frozen=True)
class Pool:
    """A validated card pool: heroes and cards by index, both also by lower-case name."""

    name: str
    version: str
    source: str
    heroes: tuple[Hero, ...]
    cards: tuple[Card, ...]

    @property
    def data_version(self) -> str:
        """What env metadata reports: the pool's name and version."""
        return f"{self.name} {self.version}"

    def hero_named(self, name: str) -> Hero | None:
        return next((h for h in self.heroes if h.name.lower() == name.lower()), None)

    def card_named(self, name: str) -> Card | None:
        return next((c for c in self.cards if c.name.lower() == name.lower()), None)


@dataclass(frozen=True)
class Deck:
    """A legal deck (GD-1.1, GD-1.2): one hero and 40 card indices into its pool."""

    name: str
    source: str
    hero: Hero
    cards: tuple[int, ...]


def _compile_effect(effect: EffectDef) -> Effect:
    return Effect(
        do=effect.do,
        to=effect.selector,
        amount=effect.amount,
        dice=parse_die(effect.die),
        pierce=effect.pierce,
        attack=effect.attack,
        armour=effect.armour,
        hp=effect.hp,
        cards=effect.cards,
        gold=effect.gold,
        dust=effect.dust,
        name=effect.name,
    )


def _compile_card(index: int, card: CardDef) -> Card:
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
        on_play=tuple(_compile_effect(e) for e in card.on_play),
        on_death=tuple(_compile_effect(e) for e in card.on_death),
        on_turn_start=tuple(_compile_effect(e) for e in card.on_turn_start),
        aura=tuple(card.aura),
    )


# ----- loading ----------------------------------------------------------------------------


def data_path(*parts: str) -> Path:
    """A packaged data file, e.g. ``data_path("decks", "mage.toml")``."""
    return Path(str(resources.files(DATA_PACKAGE).joinpath("data", *parts)))


def load_pool(path: str | Path | None = None) -> Pool:
    """The pool file at ``path`` (default: the packaged starter pool), validated."""
    path = Path(path) if path is not None else data_path(STARTER_POOL)
    return parse_pool(read_toml(path), path.name)


def parse_pool(data: dict[str, Any], source: str) -> Pool:
    """A pool from parsed TOML; ``source`` names the file in errors."""
    header = {key: value for key, value in data.items() if key not in ("hero", "card")}
    meta = validate_record(PoolFile, header, source, None)
    heroes = validate_records(HeroDef, data.get("hero", []), source, "hero")
    cards = validate_records(CardDef, data.get("card", []), source, "card")
    if not heroes:
        raise data_error(source, "a pool needs at least one [[hero]] (GD-1.1)", field="hero")
    if not cards:
        raise data_error(source, "a pool needs [[card]] entries", field="card")
    check_unique_names([*(h.name for h in heroes), *(c.name for c in cards)], source)
    return Pool(
        name=meta.name,
        version=meta.version,
        source=source,
        heroes=tuple(
            Hero(i, h.name, h.text, h.gold, h.gold_regen, h.dust, h.dust_regen, h.hp, h.passive)
            for i, h in enumerate(heroes)
        ),
        cards=tuple(_compile_card(i, c) for i, c in enumerate(cards)),
    )


def load_deck(spec: str | Path, pool: Pool) -> Deck:
    """A deck by packaged name (``"warrior"``, see ``HEROES``) or by file path, checked
    against ``pool`` and the deck rules; errors cite the rule id (GD-1.1, GD-1.2)."""
    return parse_deck(read_toml(deck_path(spec)), pool, Path(deck_path(spec)).name)


def deck_path(spec: str | Path) -> Path:
    """The file of a deck spec: a packaged deck's name, or a path to a TOML file."""
    if isinstance(spec, str) and spec in HEROES:
        return data_path("decks", f"{spec}.toml")
    path = Path(spec)
    if not str(spec).strip() or (path.suffix != ".toml" and not path.exists()):
        raise CardDataError(
            f"deck {str(spec)!r} is neither a packaged deck ({', '.join(HEROES)}) nor a .toml file"
        )
    return path


def parse_deck(data: dict[str, Any], pool: Pool, source: str) -> Deck:
    """A deck from parsed TOML, validated against ``pool`` (GD-1.1, GD-1.2). Names are read
    case-insensitively, as in notation, so copies are counted per card, not per spelling."""
    deck = validate_record(DeckFile, data, source, None)
    entries: dict[tuple[str, int], Hero | Card] = {}  # one key per pool entry
    copies_of: dict[tuple[str, int], int] = {}
    spellings: dict[tuple[str, int], list[str]] = {}
    for name, copies in deck.cards.items():
        if copies < 1:
            raise data_error(source, f"{copies} copies; list a card with 1 or 2", name, "cards")
        entry = pool.hero_named(name) or pool.card_named(name)
        if entry is None:
            raise data_error(source, f"not in the pool {pool.name!r}", name, "cards")
        key = (type(entry).__name__, entry.index)
        entries[key] = entry
        copies_of[key] = copies_of.get(key, 0) + copies
        spellings.setdefault(key, []).append(name)
    for key, copies in copies_of.items():
        if copies > MAX_COPIES:
            listed = spellings[key]
            also = f" (listed as {', '.join(map(repr, listed))})" if len(listed) > 1 else ""
            raise data_error(
                source, f"{copies} copies{also}: no card may appear more than twice (GD-1.2)",
                entries[key].name, "cards",
            )  # fmt: skip
    listed = [entries[key] for key, copies in copies_of.items() for _ in range(copies)]
    heroes = [entry for entry in listed if isinstance(entry, Hero)]
    cards = [entry.index for entry in listed if isinstance(entry, Card)]
    if len(heroes) != 1:
        raise data_error(
            source, f"GD-1.1: a deck has exactly one Hero card, this one has {len(heroes)}",
            field="cards",
        )  # fmt: skip
    total = len(cards) + len(heroes)
    if total != DECK_SIZE:
        raise data_error(
            source, f"GD-1.1: a deck has exactly {DECK_SIZE} cards (1 Hero + 40), this one "
            f"has {total}", field="cards",
        )  # fmt: skip
    return Deck(name=deck.name, source=source, hero=heroes[0], cards=tuple(cards))
