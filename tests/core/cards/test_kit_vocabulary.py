"""The kit's vocabulary: each primitive declared once, effects parsed into typed objects at
load, and every mistake in data reported as ``file: card: field``."""

from __future__ import annotations

import pickle
from typing import Annotated, Any

import pytest
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

from tabletop.envs.core.cards.data import CardDataError, FieldError, validate_record
from tabletop.envs.core.cards.vocabulary import (
    Effect,
    Params,
    RegisteredName,
    StaticsTable,
    Vocabulary,
)


class Amount(Params):
    amount: int = Field(ge=0, le=9)


class Quest(Params):
    label: str


def vocabulary() -> Vocabulary:
    vocab = Vocabulary("toy")
    vocab.selector("foe", ("typed", "foe"))
    vocab.selector("me", ("typed", "me"))
    vocab.primitive(
        "hit", params=Amount, selectors=("foe", "me"), default_to="foe",
        traits=lambda p: {"damage": float(p.amount)}, empty=lambda p: p.amount == 0,
    )(lambda state, context, effect: None)  # fmt: skip
    vocab.primitive("shout", params=Quest)(lambda state, context, effect: None)
    vocab.condition("hurt", params=Amount)(lambda state, context, params: True)
    vocab.event("dies", "on_death", "the card dies")
    vocab.static("aura", params=Amount)
    return vocab


VOCAB = vocabulary()


class Record(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    name: str
    on_play: list[Annotated[Any, BeforeValidator(VOCAB.parse_effect)]] = []


def load_error(*effects: dict[str, Any]) -> str:
    with pytest.raises(CardDataError) as error:
        validate_record(Record, {"name": "Imp", "on_play": list(effects)}, "pool.toml", "Imp")
    return str(error.value)


def test_a_declared_primitive_is_parsed_into_a_typed_effect() -> None:
    card = validate_record(
        Record, {"name": "Imp", "on_play": [{"do": "hit", "amount": 2}]}, "pool.toml", "Imp"
    )
    (effect,) = card.on_play
    assert isinstance(effect, Effect) and effect.do == "hit" and effect.amount == 2
    assert effect.to == "foe" and effect.reach == ("typed", "foe"), "the default selector"
    assert effect.trait("damage") == 2.0 and effect.trait("heal") == 0.0
    assert effect.primitive is VOCAB.primitives["hit"] and effect.when is None
    with pytest.raises(AttributeError, match="'hit' has no parameter 'label'"):
        _ = effect.label
    me = VOCAB.parse_effect({"do": "hit", "amount": 1, "to": "me"})
    assert me.reach == ("typed", "me") and VOCAB.parse_effect(me) is me
    shout = VOCAB.parse_effect({"do": "shout", "label": "hey"})
    assert shout.to == "" and shout.reach is None and shout.traits == {}


def test_a_guarded_effect_gets_a_parsed_condition() -> None:
    effect = VOCAB.parse_effect({"do": "hit", "amount": 1, "when": {"is": "hurt", "amount": 3}})
    assert effect.when is not None and effect.when.kind is VOCAB.conditions["hurt"]
    assert effect.when.params == Amount(amount=3) and effect.when.holds(None, None)


@pytest.mark.parametrize(
    ("effect", "field", "problem"),
    [
        ({"do": "explode"}, "on_play[0].do", "unknown effect primitive 'explode'; known: hit"),
        ({"do": "hit", "amount": 1, "range": 2}, "on_play[0]", "'range' is not a parameter"),
        ({"do": "hit", "amount": "2"}, "on_play[0].amount", "Input should be a valid integer"),
        ({"do": "hit", "amount": 12}, "on_play[0].amount", "less than or equal to 9"),
        ({"do": "hit", "amount": 1, "to": "all"}, "on_play[0].to", "'hit' cannot affect 'all'"),
        ({"do": "shout", "label": "x", "to": "me"}, "on_play[0]", "'to' is not a parameter"),
        ({"do": "hit", "amount": 0}, "on_play[0]", "'hit' with nothing to do"),
        ({"do": "shout"}, "on_play[0].label", "Field required"),
        (
            {"do": "hit", "amount": 1, "when": {"is": "asleep"}},
            "on_play[0].when.is",
            "unknown condition 'asleep'; known: hurt",
        ),
        (
            {"do": "hit", "amount": 1, "when": {"is": ["hurt"]}},
            "on_play[0].when.is",
            "unknown condition ['hurt']; known: hurt",
        ),
        (
            {"do": "hit", "amount": 1, "when": {"is": "hurt", "amount": -1}},
            "on_play[0].when.amount",
            "greater than or equal to 0",
        ),
        ({"do": "hit", "amount": 1, "when": "hurt"}, "on_play[0].when", "a condition is a table"),
        ("hit", "on_play[0]", "an effect is a table"),
    ],
)
def test_a_wrong_effect_names_file_card_and_field(effect: Any, field: str, problem: str) -> None:
    message = load_error({"do": "hit", "amount": 1}, effect)
    assert message.startswith(f"pool.toml: card 'Imp': field '{field.replace('[0]', '[1]')}': ")
    assert problem in message


def test_continuous_effects_are_parsed_and_an_unknown_one_is_named() -> None:
    assert VOCAB.parse_static("aura", {"amount": 2}) == Amount(amount=2)
    with pytest.raises(FieldError, match="unknown continuous effect 'glow'; known: aura") as error:
        VOCAB.parse_static("glow", {"amount": 2})
    assert error.value.field == "glow"
    with pytest.raises(FieldError) as error:
        VOCAB.parse_static("aura", {"amount": "2"})
    assert error.value.field == "amount"


class Modifiers(StaticsTable):
    VOCAB = VOCAB
    NOT_STATICS = frozenset({"group"})
    group: str | None = None
    aura: dict[str, Any] | None = None


class Aura(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    name: str
    modifiers: Modifiers = Modifiers()


def test_a_statics_table_parses_its_effects_as_the_card_is_validated() -> None:
    assert Modifiers(group="foes", aura={"amount": 2}).statics() == (("aura", Amount(amount=2)),)
    assert Modifiers(group="foes").statics() == ()
    with pytest.raises(CardDataError) as error:
        modifiers = {"aura": {"amount": "2"}}
        validate_record(Aura, {"name": "Imp", "modifiers": modifiers}, "pool.toml", "Imp")
    assert str(error.value).startswith("pool.toml: card 'Imp': field 'modifiers.aura.amount': ")


REGISTRY: dict[str, object] = {}


class SpecialParams(RegisteredName):
    REGISTRY = REGISTRY
    WHAT = "special"


def test_a_registered_name_must_be_in_the_registry_when_the_card_is_validated() -> None:
    REGISTRY.clear()
    with pytest.raises(ValueError, match=r"unknown special 'wager'; known:  \["):
        SpecialParams(name="wager")
    REGISTRY["wager"] = print
    assert SpecialParams(name="wager").name == "wager"
    with pytest.raises(ValueError, match="unknown special 'nope'; known: wager"):
        SpecialParams(name="nope")
    params = SpecialParams(name="wager")
    assert pickle.loads(pickle.dumps(params)) == params, "effects holding it pickle"


def test_events_give_their_card_fields_in_declaration_order() -> None:
    vocab = vocabulary()
    vocab.event("played", "on_play", "the card is played")
    assert list(vocab.trigger_fields()) == [("on_death", "dies"), ("on_play", "played")]


def test_appraisals_sit_beside_their_primitive() -> None:
    vocab = vocabulary()
    vocab.appraisal("hit")(lambda state, player, effect, reached: 2.0 * effect.amount)
    primitive = vocab.primitives["hit"]
    assert primitive.appraise is not None and primitive.selectors == ("foe", "me")
    effect = vocab.parse_effect({"do": "hit", "amount": 3})
    assert effect.primitive.appraise(None, 0, effect, []) == 6.0


@pytest.mark.parametrize(
    ("declare", "message"),
    [
        (lambda v: v.primitive("hit")(print), "toy: primitive 'hit' is declared twice"),
        (lambda v: v.selector("foe", None), "toy: selector 'foe' is declared twice"),
        (lambda v: v.condition("hurt")(print), "toy: condition 'hurt' is declared twice"),
        (lambda v: v.event("dies", "on_end", ""), "toy: event 'dies' is declared twice"),
        (lambda v: v.event("ends", "on_death", ""), "card field 'on_death' is used by two"),
        (lambda v: v.static("aura", params=Amount), "continuous effect 'aura' is declared twice"),
        (lambda v: v.primitive("zap", selectors=("all",))(print), "undeclared selectors"),
    ],
)
def test_a_second_declaration_or_an_undeclared_selector_is_refused(declare, message) -> None:
    with pytest.raises(ValueError, match=message):
        declare(vocabulary())
