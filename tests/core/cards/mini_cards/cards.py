"""Mini Cards' vocabulary and card data, declared through the kit: three primitives, one
condition, two events, one continuous effect, and a pool file validated by them."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, model_validator

from tabletop.envs.core.cards.data import (
    FieldError,
    check_unique_names,
    read_toml,
    validate_records,
)
from tabletop.envs.core.cards.events import Triggers, triggers_of
from tabletop.envs.core.cards.vocabulary import Params, Vocabulary

POOL_FILE = Path(__file__).parent / "data" / "pool.toml"
UNIT, SPELL, INSTANT = "unit", "spell", "instant"


class Reach(enum.Enum):
    """The typed selectors: whom an effect reaches, from its owner's side."""

    OWNER = "owner"
    OPPONENT = "opponent"


VOCAB = Vocabulary("mini_cards")
VOCAB.selector("owner", Reach.OWNER)
VOCAB.selector("opponent", Reach.OPPONENT)
VOCAB.event("played", "on_play", "the card resolves from the chain")
VOCAB.event("turn_starts", "on_turn_start", "its owner's turn starts while it is on the table")


class Amount(Params):
    amount: int = Field(ge=0, le=5)


def _nothing(params: Amount) -> bool:
    return params.amount == 0


# Named functions, not lambdas: a state's effects must pickle (the conformance suite checks).
def _damage_traits(params: Amount) -> dict[str, float]:
    return {"damage": params.amount}


def _heal_traits(params: Amount) -> dict[str, float]:
    return {"heal": params.amount}


def _draw_traits(params: Amount) -> dict[str, float]:
    return {"draw": params.amount}


@VOCAB.primitive("damage", params=Amount, selectors=("opponent", "owner"), default_to="opponent",
                 traits=_damage_traits, empty=_nothing)  # fmt: skip
def _damage(state: Any, context: Any, effect: Any) -> None:
    state.hurt(context.owner, effect.reach, effect.amount)


@VOCAB.primitive("heal", params=Amount, selectors=("owner",), default_to="owner",
                 traits=_heal_traits, empty=_nothing)  # fmt: skip
def _heal(state: Any, context: Any, effect: Any) -> None:
    state.heal(context.owner, effect.amount)


@VOCAB.primitive("draw", params=Amount, traits=_draw_traits, empty=_nothing)
def _draw(state: Any, context: Any, effect: Any) -> None:
    state.draw(context.owner, effect.amount)


@VOCAB.condition("life_below", params=Amount)
def _life_below(state: Any, context: Any, params: Amount) -> bool:
    return state.life[context.owner] < params.amount


VOCAB.static("boost", params=Amount)
"""While the card is on its owner's table, the owner's damage effects deal ``amount`` more."""

Effects = list[Annotated[Any, BeforeValidator(VOCAB.parse_effect)]]


def _statics(data: Any) -> tuple[tuple[str, Params], ...]:
    if not isinstance(data, dict):
        raise ValueError("statics is a table: { boost = { amount = 1 } }")
    return tuple((name, VOCAB.parse_static(name, value)) for name, value in data.items())


class CardRecord(BaseModel):
    """A ``[[card]]`` of the pool file."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    name: str = Field(min_length=1)
    kind: Literal["unit", "spell", "instant"]
    copies: int = Field(ge=1, le=3)
    on_play: Effects = []
    on_turn_start: Effects = []
    statics: Annotated[tuple[tuple[str, Any], ...], BeforeValidator(_statics)] = ()

    @model_validator(mode="after")
    def _units_only(self) -> CardRecord:
        for name in ("on_turn_start", "statics"):
            if getattr(self, name) and self.kind != UNIT:
                raise FieldError(name, f"only a unit stays on the table; a {self.kind} cannot")
        return self


@dataclass(frozen=True, eq=False)
class Card:
    """A card definition, as the kit needs it: ``index``, ``triggers``, ``statics``."""

    index: int
    name: str
    kind: str
    copies: int
    triggers: Triggers
    statics: tuple[tuple[str, Params], ...]


def load_pool(path: Path = POOL_FILE) -> tuple[Card, ...]:
    """The cards of a pool file; an error names the file, the card and the field."""
    source = Path(path).name
    records = validate_records(CardRecord, read_toml(path).get("card"), source, "card")
    check_unique_names((record.name for record in records), source)
    events = list(VOCAB.trigger_fields())
    return tuple(
        Card(index, r.name, r.kind, r.copies, triggers_of(vars(r), events), r.statics)
        for index, r in enumerate(records)
    )


POOL = load_pool()
