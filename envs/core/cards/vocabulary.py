"""One registry of what cards can say: effect primitives, selectors, conditions, trigger
events and continuous effects, each declared once.

A game builds one ``Vocabulary`` and declares into it:

- **primitives** (``@vocab.primitive(name, params=..., selectors=...)`` on the function
  that runs it): the parameter schema (a pydantic model), the selectors its ``to`` takes,
  and ``traits``: the figures encoders and heuristics read of it (e.g. expected damage),
  so that none of them needs an if-chain over primitive names;
- **selectors**: a name used in data (``"each_enemy_front"``) and the typed object it
  stands for, parsed once at load;
- **conditions** (``@vocab.condition(name, params=...)``): tests an effect may be guarded
  by (``when = { is = "...", ... }``);
- **events**: the names triggers react to, each with the card field that lists its
  effects (``dies`` -> ``on_death``);
- **continuous effects** (``vocab.static(name, params=...)``): modifiers computed from
  the cards in play (``continuous``).

Loading an effect (``parse_effect``) checks everything against these declarations and
raises errors that ``data.validate_record`` turns into ``file: card: field`` messages;
adding a primitive is one declaration, and the loader, the encoders' traits and the
heuristics' appraisals all find it there.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from pydantic import (
    BaseModel,
    ConfigDict,
    PrivateAttr,
    ValidationError,
    field_validator,
    model_validator,
)

from tabletop.envs.core.cards.data import FieldError, StrictModel, field_path


class Params(BaseModel):
    """Base of parameter schemas: strict types, no unknown keys, immutable."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class NoParams(Params):
    """The schema of a primitive or condition that takes no parameters."""


class RegisteredName(Params):
    """The schema ``{ name = "..." }`` of an effect that runs code a game registered by
    name (its ``special``): a game's subclass sets ``REGISTRY`` and ``WHAT`` (what such
    code is called in the error). The name is checked as a card is validated, against the
    registry as it is then, so that a card file cannot name code that does not exist. A
    subclass, not a schema made by a function: effects hold their parameters, and states
    that hold effects pickle."""

    REGISTRY: ClassVar[Mapping[str, Any]]
    WHAT: ClassVar[str]

    name: str

    @field_validator("name")
    @classmethod
    def _registered(cls, name: str) -> str:
        if name not in cls.REGISTRY:
            known = ", ".join(cls.REGISTRY)
            raise ValueError(f"unknown {cls.WHAT} {name!r}; known: {known}")
        return name


Runner = Callable[..., None]
"""``run(state, context, effect)``: what a primitive does; the context is the game's."""
Traits = Callable[[Any], Mapping[str, float]]
"""``traits(params) -> {figure: value}``: what encoders and heuristics read of an effect."""


@dataclass(frozen=True)
class Primitive:
    """An effect primitive as declared: its schema, selectors, run function and traits."""

    name: str
    params: type[Params]
    run: Runner
    selectors: tuple[str, ...] = ()
    """The selector names ``to`` may take; empty: the primitive takes no ``to``."""
    default_to: str | None = None
    """The selector an effect without ``to`` gets (``None``: ``to`` is then absent)."""
    traits: Traits | None = None
    empty: Callable[[Any], bool] | None = None
    """Whether parameters make the effect do nothing (refused at load)."""
    appraise: Callable[..., float] | None = None
    """A heuristic's value of the effect: ``appraise(state, player, effect, reached)``."""


@dataclass(frozen=True)
class ConditionKind:
    """A declared condition: its schema and its test ``test(state, context, params)``."""

    name: str
    params: type[Params]
    test: Callable[..., bool]


@dataclass(frozen=True)
class Condition:
    """A parsed condition, ready to test."""

    kind: ConditionKind
    params: Params

    def holds(self, state: Any, context: Any) -> bool:
        return self.kind.test(state, context, self.params)


@dataclass(frozen=True)
class StaticKind:
    """A declared continuous effect: its schema (the modifier's parameters)."""

    name: str
    params: type[Params]


@dataclass(frozen=True, eq=False)
class Effect:
    """A loaded effect: its primitive, parameters, typed selector and optional guard.

    Parameters read as attributes (``effect.amount``), ``do`` is the primitive's name and
    ``to`` the selector's name as written (``""`` when the primitive takes none)."""

    primitive: Primitive
    params: Params
    reach: Any = None
    """The typed selector object (``None`` when the effect has no ``to``)."""
    to: str = ""
    when: Condition | None = None
    traits: Mapping[str, float] = field(default_factory=dict)

    @property
    def do(self) -> str:
        return self.primitive.name

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        params = object.__getattribute__(self, "params")
        try:
            return getattr(params, name)
        except AttributeError:
            raise AttributeError(f"effect {self.do!r} has no parameter {name!r}") from None

    def trait(self, name: str) -> float:
        """A figure of the primitive's ``traits`` (0 when it declares none of that name)."""
        return self.traits.get(name, 0.0)


@dataclass(frozen=True)
class Event:
    """A trigger event: its name and the card field listing the effects it fires."""

    name: str
    field: str
    doc: str


class Vocabulary:
    """Everything the cards of one game can say; see the module docstring."""

    def __init__(self, game: str) -> None:
        self.game = game
        self.primitives: dict[str, Primitive] = {}
        self.selectors: dict[str, Any] = {}
        self.conditions: dict[str, ConditionKind] = {}
        self.events: dict[str, Event] = {}
        self.statics: dict[str, StaticKind] = {}

    # ----- declaring ------------------------------------------------------------------------

    def primitive(
        self, name: str, *, params: type[Params] = NoParams, selectors: tuple[str, ...] = (),
        default_to: str | None = None, traits: Traits | None = None,
        empty: Callable[[Any], bool] | None = None,
    ) -> Callable[[Runner], Runner]:  # fmt: skip
        """Decorator: declare the function as primitive ``name``."""

        def register(run: Runner) -> Runner:
            self._new(self.primitives, name, "primitive")
            unknown = [s for s in selectors if s not in self.selectors]
            if unknown:
                raise ValueError(f"{self.game}: primitive {name!r}: undeclared selectors {unknown}")
            self.primitives[name] = Primitive(
                name, params, run, selectors, default_to, traits, empty
            )
            return run

        return register

    def appraisal(self, name: str) -> Callable[[Callable[..., float]], Callable[..., float]]:
        """Decorator: a heuristic's value of primitive ``name`` (kept beside the primitive,
        so a heuristic has no if-chain over primitive names)."""

        def register(appraise: Callable[..., float]) -> Callable[..., float]:
            primitive = self.primitives[name]
            self.primitives[name] = Primitive(
                primitive.name, primitive.params, primitive.run, primitive.selectors,
                primitive.default_to, primitive.traits, primitive.empty, appraise,
            )  # fmt: skip
            return appraise

        return register

    def selector(self, name: str, value: Any) -> None:
        """Declare selector ``name`` and the typed object effects get for it."""
        self._new(self.selectors, name, "selector")
        self.selectors[name] = value

    def condition(
        self, name: str, *, params: type[Params] = NoParams
    ) -> Callable[[Callable[..., bool]], Callable[..., bool]]:
        """Decorator: declare the function as condition ``name``."""

        def register(test: Callable[..., bool]) -> Callable[..., bool]:
            self._new(self.conditions, name, "condition")
            self.conditions[name] = ConditionKind(name, params, test)
            return test

        return register

    def event(self, name: str, field: str, doc: str) -> None:
        """Declare trigger event ``name``, whose effects a card lists under ``field``."""
        self._new(self.events, name, "event")
        if any(e.field == field for e in self.events.values()):
            raise ValueError(f"{self.game}: card field {field!r} is used by two events")
        self.events[name] = Event(name, field, doc)

    def static(self, name: str, *, params: type[Params]) -> None:
        """Declare continuous effect ``name`` with its modifier schema."""
        self._new(self.statics, name, "continuous effect")
        self.statics[name] = StaticKind(name, params)

    def _new(self, table: Mapping[str, Any], name: str, what: str) -> None:
        if name in table:
            raise ValueError(f"{self.game}: {what} {name!r} is declared twice")

    # ----- loading --------------------------------------------------------------------------

    def trigger_fields(self) -> Iterator[tuple[str, str]]:
        """(card field, event name) of every declared event, in declaration order."""
        return ((event.field, event.name) for event in self.events.values())

    def parse_effect(self, data: Any) -> Effect:
        """An effect from its data (``{do = "...", ...}``); a wrong one raises
        ``ValueError`` or ``FieldError`` naming the parameter."""
        if isinstance(data, Effect):
            return data
        if not isinstance(data, dict):
            raise ValueError('an effect is a table: { do = "...", ... }')
        name = data.get("do")
        primitive = self.primitives.get(name) if isinstance(name, str) else None
        if primitive is None:
            raise FieldError(
                "do", f"unknown effect primitive {name!r}; known: {', '.join(self.primitives)}"
            )
        values = {k: v for k, v in data.items() if k not in ("do", "to", "when")}
        allowed = set(primitive.params.model_fields) | ({"to"} if primitive.selectors else set())
        for key in data:
            if key not in ("do", "when") and key not in allowed:
                raise ValueError(
                    f"{key!r} is not a parameter of {name!r} "
                    f"(it takes {', '.join(sorted(allowed)) or 'nothing'})"
                )
        params = _validated(primitive.params, values)
        to = data.get("to", primitive.default_to)
        if to is not None and to not in primitive.selectors:
            allowed_to = primitive.selectors
            raise FieldError("to", f"{name!r} cannot affect {to!r} (allowed: {allowed_to})")
        if primitive.empty is not None and primitive.empty(params):
            raise ValueError(f"{name!r} with nothing to do: give it an amount")
        when = self.parse_condition(data["when"]) if "when" in data else None
        traits = dict(primitive.traits(params)) if primitive.traits else {}
        reach = self.selectors[to] if to is not None else None
        return Effect(primitive, params, reach, to or "", when, traits)

    def parse_condition(self, data: Any) -> Condition:
        """A condition from its data (``{is = "...", ...}``)."""
        if not isinstance(data, dict):
            raise FieldError("when", 'a condition is a table: { is = "...", ... }')
        name = data.get("is")
        kind = self.conditions.get(name) if isinstance(name, str) else None
        if kind is None:
            raise FieldError(
                "when.is",
                f"unknown condition {data.get('is')!r}; known: {', '.join(self.conditions)}",
            )
        values = {k: v for k, v in data.items() if k != "is"}
        return Condition(kind, _validated(kind.params, values, prefix="when"))

    def parse_static(self, name: str, data: Any) -> Params:
        """The modifier of continuous effect ``name`` from its data."""
        if name not in self.statics:
            raise FieldError(
                name, f"unknown continuous effect {name!r}; known: {', '.join(self.statics)}"
            )
        return _validated(self.statics[name].params, data)

    def parse_statics(self, fields: Iterable[tuple[str, Any]]) -> tuple[tuple[str, Params], ...]:
        """A card's ``modifiers`` table, ``(name, data)`` per field (``None``: not given),
        parsed; an error is a ``FieldError`` under the field's name, so the loader can name
        the card and the whole field (``modifiers.combat.amount``)."""
        statics = []
        for name, data in fields:
            if data is None:
                continue
            try:
                statics.append((name, self.parse_static(name, data)))
            except FieldError as error:
                raise FieldError(f"{name}.{error.field}", str(error)) from None
            except ValueError as error:
                raise FieldError(name, str(error).removeprefix("Value error, ")) from None
        return tuple(statics)


class StaticsTable(StrictModel):
    """A card's ``modifiers`` table: one optional field per continuous effect, parsed by
    ``VOCAB`` as the card is validated, so that a wrong one is an error naming the file,
    the card and the field (``modifiers.combat.amount``). A game's subclass sets ``VOCAB``,
    declares the fields and names in ``NOT_STATICS`` those that are no effect (e.g. the
    group they apply to)."""

    VOCAB: ClassVar[Vocabulary]
    NOT_STATICS: ClassVar[frozenset[str]] = frozenset()

    _statics: tuple[tuple[str, Params], ...] = PrivateAttr(())

    @model_validator(mode="after")
    def _parse(self) -> StaticsTable:
        fields = ((name, data) for name, data in self if name not in self.NOT_STATICS)
        self._statics = self.VOCAB.parse_statics(fields)
        return self

    def statics(self) -> tuple[tuple[str, Params], ...]:
        """The continuous effects it lists, parsed, in field order."""
        return self._statics


def _validated(schema: type[Params], values: Any, prefix: str = "") -> Params:
    """``values`` as ``schema``; the first failure is a ``FieldError`` on its field."""
    try:
        return schema.model_validate(values)
    except ValidationError as error:
        first = error.errors()[0]
        path = field_path([*([prefix] if prefix else []), *first["loc"]])
        message = first["msg"].removeprefix("Value error, ")
        if not path:
            raise ValueError(message) from None
        raise FieldError(path, message) from None
