"""Kult card data: the pool and deck file formats, their validation, the compiled cards.

A pool file (TOML) lists Arcana (``[[arcanum]]``: Hierarchy number, allegiance, the four
colour symbols of KU-4.2, an optional smaller hand, KU-7.1) and cards (``[[card]]``:
Places, Beings, Spells, Influences and Commands, KU-3). A deck file names an Arcanum and
``DECK_SIZE`` cards of the pool (``[cards]``, name = copies) under the deck rules of
``parse_deck``. Every error names the file, the card and the field (KU-10.2, through
``envs/core/cards/data.py``). Abilities and modifiers are composed from ``effects.VOCAB``.
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
    read_pool,
    validate_record,
)
from tabletop.envs.core.cards.events import Triggers, triggers_of
from tabletop.envs.core.cards.vocabulary import Effect, Params, StaticsTable
from tabletop.envs.kult.effects import (
    ANY,
    BEFORE_RECRUIT,
    COLOURS,
    FIGHT,
    STATIC_TARGETS,
    VOCAB,
    Colour,
    timing_of,
)

FORMAT = 1
PACKAGED_DECKS = ("lantern", "ash", "tide", "clock")
"""The packaged decks, one per Arcanum of the starter pool, by file stem in data/decks;
a game of N players defaults to the first N."""

DECK_SIZE = 30
"""Cards in a deck besides its Arcanum [decision: the rules set none; 30 leaves 22 in the
deck after the Hub card and the first hand, so decks are reshuffled in long games]."""
MAX_COPIES = 3
"""Copies of one card a deck may hold [decision]; a unique card (KU-3.5) only one."""
HAND_SIZE = 7  # KU-7.1

PLACE, BEING, SPELL, INFLUENCE, COMMAND = "place", "being", "spell", "influence", "command"
BASE_KINDS = (PLACE, BEING, SPELL)
"""Cards that occupy a station (KU-3.1)."""
DEFAULT_HOLDS = {PLACE: 1, BEING: 1, SPELL: 0, INFLUENCE: 0, COMMAND: 0}  # KU-3.4
NEUTRAL = "neutral"
INTO = ("own", "opponent", "any")
"""Whose cross a base card may be played into (KU-7.4), or whose cards an Influence may
be attached to."""
ATTACH = ("card", "being", "place", "station", "hub", "pool")
"""What an Influence is attached to (KU-3.2): any base card, a Being, a Place, a station,
a Hub or the Pool."""

NAME_PATTERN = re.compile(r"^[A-Za-z][A-Za-z' -]{0,28}[A-Za-z]$")
RESERVED = re.compile(r"^(done|pass|hub|pool|scene\d|cast\d|p\d)$", re.IGNORECASE)
"""Words of the notation a card name may not be (``notation``)."""


EffectData = Annotated[Effect, BeforeValidator(VOCAB.parse_effect)]


def _check_name(value: str) -> str:
    if not NAME_PATTERN.match(value):
        raise ValueError(
            f"{value!r} is not a card name: 2-30 letters, spaces, hyphens or apostrophes"
        )
    if RESERVED.match(value):
        raise ValueError(f"{value!r} is a word of the action notation")
    return value


class ArcanumDef(StrictModel):
    """A Major Arcana card (KU-2.1, KU-2.7, KU-4.2, KU-7.1)."""

    name: str
    hierarchy: int = Field(ge=0, le=99)
    allegiance: str = Field(pattern=r"^[a-z]+$")
    colours: list[Colour] = Field(min_length=4, max_length=4)
    hand_size: int = Field(HAND_SIZE, ge=3, le=HAND_SIZE)
    text: str = ""

    _name = field_validator("name")(classmethod(lambda cls, value: _check_name(value)))

    @model_validator(mode="after")
    def _not_neutral(self) -> ArcanumDef:
        if self.allegiance == NEUTRAL:
            raise FieldError("allegiance", "an Arcanum has an allegiance of its own (KU-3.7)")
        return self


class Modifiers(StaticsTable):
    """An Influence's statics (``effects.STATIC_TARGETS``): ``{ combat = { amount = -2 } }``."""

    VOCAB = VOCAB

    combat: dict[str, Any] | None = None
    holds: dict[str, Any] | None = None
    keys: dict[str, Any] | None = None


class _CardFields(StrictModel):
    """A card of a pool; ``CardDef`` adds one effect list per trigger event."""

    name: str
    kind: Literal["place", "being", "spell", "influence", "command"]
    text: str
    allegiance: str = Field(NEUTRAL, pattern=r"^[a-z]+$")
    cost: list[Colour] = Field([], max_length=6)
    stations: list[Annotated[int, Field(ge=1, le=8)]] = Field(default_factory=list)
    unique: bool = False
    combat: int | None = Field(None, ge=-5, le=12)
    colours: list[Colour] = Field([], max_length=3)
    holds: int | None = Field(None, ge=0, le=3)
    into: Literal["own", "opponent", "any"] = "own"
    attach: Literal["card", "being", "place", "station", "hub", "pool"] | None = None
    modifiers: Modifiers = Modifiers()

    _name = field_validator("name")(classmethod(lambda cls, value: _check_name(value)))

    @model_validator(mode="after")
    def _consistent(self) -> _CardFields:
        for field, _ in VOCAB.trigger_fields():
            if any(e.do == "refresh" for e in self.effects(field)):
                raise FieldError(
                    field, "'refresh' would turn cards face up outside phase 7 (KU-5.3: only "
                    "the refresh phase turns them up)",
                )  # fmt: skip
        if self.kind in BASE_KINDS:
            self._check_base()
        elif self.kind == INFLUENCE:
            self._check_influence()
        else:
            self._check_command()
        return self

    def effects(self, field: str) -> list[Effect]:
        return getattr(self, field)

    def _forbid(self, fields: tuple[str, ...], why: str) -> None:
        for name in fields:
            if name in self.model_fields_set:
                raise FieldError(name, f"{name!r}: {why}")

    def _check_base(self) -> None:
        if not self.stations:
            raise FieldError("stations", "a base card lists the stations it may occupy (KU-1.3)")
        if len(set(self.stations)) != len(self.stations):
            raise FieldError("stations", "a station is listed twice")
        self._forbid(("attach", "modifiers", "on_play"), f"a {self.kind} has none")
        if (self.kind == BEING) != (self.combat is not None):
            raise FieldError("combat", "a Being has a combat value, other cards none (KU-3.6)")
        if (self.kind == PLACE) != bool(self.colours):
            raise FieldError("colours", "a Place gives colours (KU-4.2), other cards none")
        for field in ("on_turn", "on_push"):
            effects = self.effects(field)
            if any(e.trait("timing") != ANY for e in effects):
                raise FieldError(field, "fight and recruit effects are for Commands")
            if any(e.do == "discard_self" for e in effects[:-1]):
                raise FieldError(field, "'discard_self' comes last: the card is gone after it")

    def _check_influence(self) -> None:
        self._forbid(
            ("stations", "combat", "colours", "holds", "on_play", "on_turn", "on_push"),
            "an Influence has none (it modifies what it is attached to, KU-3.2)",
        )
        if self.attach is None:
            raise FieldError("attach", f"an Influence says what it is attached to: {ATTACH}")
        if self.attach == "pool" and "into" in self.model_fields_set:
            raise FieldError("into", "the Pool is shared: an Influence on it has no 'into'")
        statics = {k: v for k, v in self.modifiers if v is not None}
        if not statics:
            raise FieldError("modifiers", "an Influence modifies something: combat, holds, keys")
        for name in statics:
            if self.attach not in STATIC_TARGETS[name]:
                raise FieldError(
                    f"modifiers.{name}", f"{name!r} cannot be attached to {self.attach!r} "
                    f"(allowed: {STATIC_TARGETS[name]})",
                )  # fmt: skip

    def _check_command(self) -> None:
        self._forbid(
            ("stations", "combat", "colours", "holds", "into", "attach", "modifiers", "unique",
             "on_turn", "on_push"),
            "a Command is one-shot (KU-3.3)",
        )  # fmt: skip
        if not self.on_play:  # type: ignore[attr-defined]
            raise FieldError("on_play", "a Command without effects does nothing")
        if any(e.do == "discard_self" for e in self.on_play):  # type: ignore[attr-defined]
            raise FieldError("on_play", "'discard_self' is for cards in a cross")
        timings = {e.trait("timing") for e in self.on_play} - {ANY}  # type: ignore[attr-defined]
        if len(timings) > 1:
            raise FieldError("on_play", "fight and recruit effects cannot be mixed")


CardDef = create_model(
    "CardDef",
    __base__=_CardFields,
    __doc__=_CardFields.__doc__,
    **{field: (list[EffectData], []) for field, _ in VOCAB.trigger_fields()},
)


class DeckFile(StrictModel):
    name: str = Field(min_length=1)
    arcanum: str
    cards: dict[str, int]


# ----- compiled form ----------------------------------------------------------------------

Keys = tuple[int, int, int, int, int]
"""Counts of the five colours (``effects.COLOURS`` order): a cost or a set of keys."""


def keys_of(colours: list[str] | tuple[str, ...]) -> Keys:
    return tuple(colours.count(colour) for colour in COLOURS)  # type: ignore[return-value]


@dataclass(frozen=True, slots=True)
class Arcanum:
    """An Arcanum as the engine uses it (``index`` in ``Pool.arcana``)."""

    index: int
    name: str
    hierarchy: int
    allegiance: str
    colours: tuple[str, ...]
    keys: Keys
    hand_size: int
    text: str
    statics: tuple[tuple[str, Params], ...] = ()


@dataclass(frozen=True, slots=True)
class Card:
    """A pool card as the engine uses it; ``index`` is its position in ``Pool.cards``."""

    index: int
    name: str
    kind: str
    text: str
    allegiance: str
    cost: Keys
    stations: frozenset[int]
    """Station indices 0-7 (stations 1-8) the card may occupy (KU-1.3)."""
    unique: bool
    combat: int
    colours: Keys
    """The permanent keys a face-up Place gives (KU-4.2)."""
    holds: int
    into: str
    attach: str | None
    statics: tuple[tuple[str, Params], ...]
    triggers: Triggers
    timing: float
    """When a Command can be played (``effects`` timings)."""
    combat_bonus: int = 0
    """The ``combat`` static's amount (0 without one): what the rules read on every step."""
    holds_bonus: int = 0
    """The ``holds`` static's amount (0 without one)."""
    key_bonus: Keys = (0, 0, 0, 0, 0)
    """The ``keys`` static's colours as counts (all 0 without one)."""
    on_play: tuple[Effect, ...] = ()
    """The ``played`` trigger's effects (``triggers``, read once: the legal actions ask for
    the three triggers' effects of every card in play at every step)."""
    on_turn: tuple[Effect, ...] = ()
    """The ``turned`` trigger's effects (KU-5.2)."""
    on_push: tuple[Effect, ...] = ()
    """The ``pushed`` trigger's effects (KU-6.5)."""

    @property
    def is_base(self) -> bool:
        return self.kind in BASE_KINDS

    def static(self, name: str) -> Params | None:
        return next((params for kind, params in self.statics if kind == name), None)


@dataclass(frozen=True)
class Pool(CardPool[Card]):
    """A validated pool: Arcana and cards by index, both also by lower-case name."""

    arcana: tuple[Arcanum, ...]

    def arcanum_named(self, name: str) -> Arcanum | None:
        return find_named(self.arcana, name)


@dataclass(frozen=True)
class Deck:
    """A legal deck: its Arcanum and ``DECK_SIZE`` card indices into its pool."""

    name: str
    source: str
    arcanum: Arcanum
    cards: tuple[int, ...]


def _compile_card(index: int, card: Any) -> Card:
    statics = card.modifiers.statics()
    triggers = triggers_of(card.__dict__, VOCAB.trigger_fields())
    return Card(
        index=index,
        name=card.name,
        kind=card.kind,
        text=card.text,
        allegiance=card.allegiance,
        cost=keys_of(card.cost),
        stations=frozenset(station - 1 for station in card.stations),
        unique=card.unique,
        combat=card.combat or 0,
        colours=keys_of(card.colours),
        holds=DEFAULT_HOLDS[card.kind] if card.holds is None else card.holds,
        into=card.into,
        attach=card.attach,
        statics=statics,
        triggers=triggers,
        timing=timing_of(triggers.get("played", ())),
        combat_bonus=_amount(statics, "combat"),
        holds_bonus=_amount(statics, "holds"),
        key_bonus=keys_of(next((p.colours for k, p in statics if k == "keys"), [])),
        on_play=triggers.get("played", ()),
        on_turn=triggers.get("turned", ()),
        on_push=triggers.get("pushed", ()),
    )


def _amount(statics: tuple[tuple[str, Params], ...], name: str) -> int:
    return next((params.amount for kind, params in statics if kind == name), 0)


def _compile_arcanum(index: int, arcanum: ArcanumDef) -> Arcanum:
    return Arcanum(
        index, arcanum.name, arcanum.hierarchy, arcanum.allegiance, tuple(arcanum.colours),
        keys_of(arcanum.colours), arcanum.hand_size, arcanum.text,
    )  # fmt: skip


# ----- loading ----------------------------------------------------------------------------


DATA = PackagedData("tabletop.envs.kult", PACKAGED_DECKS)
"""The packaged starter pool and a deck per Arcanum."""
data_path = DATA.path


DECK_RULES = DeckRules(
    size=DECK_SIZE,
    exact=True,
    max_copies=MAX_COPIES,
    size_rule="a deck holds exactly {size} cards besides its Arcanum, this one {total}",
    copies_rule="a card at most {limit}",
    unique_copies=1,
    unique_rule="a unique card (KU-3.5) at most {limit}",
)
"""The deck rules [decision], checked by the kit (docs/card-format.md)."""
POOL_TABLES = (
    PoolTable("arcanum", ArcanumDef, needed="a pool needs at least one [[arcanum]] (KU-10.1)"),
    PoolTable("card", CardDef, needed="a pool needs [[card]] entries"),
)


def load_pool(path: str | Path | None = None) -> Pool:
    """The pool file at ``path`` (default: the packaged starter pool), validated."""
    return parse_pool(*DATA.read_pool(path))


def parse_pool(data: dict[str, Any], source: str) -> Pool:
    """A pool from parsed TOML; ``source`` names the file in errors."""
    meta, records = read_pool(data, source, POOL_TABLES)
    arcana, cards = records["arcanum"], records["card"]
    allegiances = {a.allegiance for a in arcana}
    for card in cards:
        if card.allegiance not in allegiances | {NEUTRAL}:
            raise data_error(
                source, f"{card.allegiance!r} is no Arcanum's allegiance; known: "
                f"{sorted(allegiances)} or 'neutral' (KU-3.7)", card.name, "allegiance",
            )  # fmt: skip
    return Pool(
        name=meta.name,
        version=meta.version,
        source=source,
        arcana=tuple(_compile_arcanum(i, a) for i, a in enumerate(arcana)),
        cards=tuple(_compile_card(i, c) for i, c in enumerate(cards)),
    )


def load_deck(spec: str | Path, pool: Pool) -> Deck:
    """A deck by packaged name (``PACKAGED_DECKS``) or file path, checked against ``pool``."""
    data, source = DATA.read_deck(spec)
    return parse_deck(data, pool, source)


def parse_deck(data: dict[str, Any], pool: Pool, source: str) -> Deck:
    """A deck from parsed TOML, under ``DECK_RULES``: exactly ``DECK_SIZE`` cards of
    ``pool`` besides the Arcanum, at most ``MAX_COPIES`` of a card and one of a unique card
    (KU-3.5), each Neutral or of the Arcanum's allegiance (KU-4.4: others could never be
    played)."""
    deck = validate_record(DeckFile, data, source, None)
    arcanum = pool.arcanum_named(deck.arcanum)
    if arcanum is None:
        raise data_error(source, f"no Arcanum {deck.arcanum!r} in {pool.name!r}", field="arcanum")

    def check_allegiance(card: Card, copies: int) -> None:
        if card.allegiance not in (NEUTRAL, arcanum.allegiance):
            raise data_error(
                source, f"allegiance {card.allegiance!r}: {arcanum.name} plays only Neutral "
                f"and {arcanum.allegiance!r} cards (KU-4.4)", card.name, "cards",
            )  # fmt: skip

    counted = count_copies(
        deck.cards, pool.card_named, pool.name, DECK_RULES, source, check_allegiance
    )
    cards = tuple(card.index for card in deck_entries(counted, DECK_RULES, source))
    return Deck(name=deck.name, source=source, arcanum=arcanum, cards=cards)


TIMINGS = {ANY: "any time", FIGHT: "during a fight", BEFORE_RECRUIT: "in a recruit window"}
"""Words for a Command's timing (rendering and help)."""
