"""Triggers dispatched by event name, conditions checked, effects resolved in order.

A card lists effects per event of its game's vocabulary (``on_death = [...]`` for the
event ``dies``); the loader gathers them into ``triggers`` (event name -> effects). When
something happens the engine calls ``dispatch`` with the event and its listeners in the
order the rules give (e.g. the active player's cards first, by position): each listener's
effects for that event resolve in order, each guarded by its condition, and dispatch stops
as soon as the game is over. So a card can react to any event the vocabulary declares
without the engine knowing which cards do.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from tabletop.envs.core.cards.vocabulary import Effect

Triggers = Mapping[str, tuple[Effect, ...]]
"""A card's effects per event name (events it does not react to are absent)."""


class Context:
    """Whom an effect resolves for: the card's ``owner`` (its controller now), the
    ``source`` it comes from (a game's position of the card, e.g. a board slot, or
    ``None``), the chosen ``target`` if any, and the event's ``facts``. A plain class:
    one is made for every trigger that fires."""

    __slots__ = ("owner", "source", "target", "facts")

    def __init__(
        self, owner: int, source: Any = None, target: Any = None,
        facts: Mapping[str, Any] | None = None,
    ) -> None:  # fmt: skip
        self.owner = owner
        self.source = source
        self.target = target
        self.facts = facts

    def __repr__(self) -> str:
        return f"Context(owner={self.owner}, source={self.source!r}, target={self.target!r})"


def resolve(
    state: Any, context: Context, effects: Iterable[Effect], over: Callable[[], bool]
) -> None:
    """Run ``effects`` in order for ``context``: an effect whose condition fails is
    skipped, and nothing more runs once ``over()`` (the game ended)."""
    for effect in effects:
        if over():
            return
        if effect.when is not None and not effect.when.holds(state, context):
            continue
        effect.primitive.run(state, context, effect)


def dispatch(
    state: Any, event: str, listeners: Iterable[tuple[Triggers, Context]],
    over: Callable[[], bool],
) -> int:  # fmt: skip
    """Fire ``event`` for each ``(triggers, context)`` listener in order; returns how many
    listeners reacted."""
    fired = 0
    for triggers, context in listeners:
        effects = triggers.get(event)
        if not effects:
            continue
        if over():
            break
        fired += 1
        resolve(state, context, effects, over)
    return fired


def triggers_of(record: Mapping[str, Any], fields: Iterable[tuple[str, str]]) -> Triggers:
    """The ``triggers`` of a loaded card record: for each ``(card field, event name)`` of
    the vocabulary, the effects listed under that field, when there are any."""
    return {event: tuple(record[field]) for field, event in fields if record.get(field)}
