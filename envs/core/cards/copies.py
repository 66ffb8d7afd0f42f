"""Copies of a card game's state: what every game's ``_copy`` does first and last, and
the determinization that re-deals such a copy.

A card game's state keeps its ``game``, its dice generator ``rng`` and its ``table`` (a
``zones.Table`` whose zone lists ``_bind_zones`` sets as attributes, as the rules read
them on every step), besides the ``EngineState`` record of the last move. Its
``_copy(rng)`` starts with ``bare_copy``, copies its own fields and ends with
``copy_last_move``; its ``resample_hidden`` is ``redealt_copy`` (plus whatever the game
keeps about the cards it re-dealt). Copies are on the hot path of every search, so these
only assign.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection
from typing import Any, Protocol, TypeVar

from tabletop.envs.core.cards.hidden import redeal
from tabletop.envs.core.cards.zones import Table
from tabletop.envs.core.engine import EventRecord, resample_consistent, shows_real_choice


class CardState(Protocol):
    """What these helpers read of a card game's state."""

    game: Any
    rng: random.Random
    _rewards: list[float]
    _returns: list[float]
    _legal: list[int]
    _events: list[EventRecord]

    def _copy(self, rng: random.Random) -> Any: ...


StateT = TypeVar("StateT")


def bare_copy(cls: type[StateT], state: Any, rng: random.Random) -> StateT:
    """A new ``cls`` (unset but for these) of ``state``'s game, drawing its dice from
    ``rng``, with a copy of ``state``'s table and its zones bound."""
    other = cls.__new__(cls)
    other.game = state.game
    other.rng = rng
    other.table = state.table.copy()
    other._bind_zones()
    return other


def copy_last_move(state: CardState, other: CardState) -> None:
    """Give ``other`` ``state``'s record of the last move: its rewards, the returns so
    far, the legal actions now and the events (each copied, as the move after changes
    them in place)."""
    other._rewards = state._rewards[:]
    other._returns = state._returns[:]
    other._legal = state._legal[:]
    other._events = list(state._events)


Redeal = Callable[[Table, int, random.Random], list[int]]


def redealt_copy(
    state: CardState,
    observer: int,
    rng: random.Random,
    hand_events: Collection[str],
    deal_table: Redeal = redeal,
) -> Any:
    """A determinization of ``state`` for ``observer``: a copy whose unseen cards
    ``deal_table`` (the kit's ``redeal``, or a game's variant of it) dealt again with
    ``rng``, again until the player to move has a real choice (``shows_real_choice``),
    with a fresh dice generator drawn from ``rng`` and the records of ``hand_events`` of
    other players' hands made blind (``unseen_hand_cards``): the re-deal put other cards
    in those hands."""

    def deal() -> Any:
        other = state._copy(state.rng)  # shares the generator until it gets its own below
        deal_table(other.table, observer, rng)
        return other

    other = resample_consistent(deal, shows_real_choice(state), state.game.name)
    other.rng = random.Random(rng.getrandbits(64))
    other._events = [unseen_hand_cards(record, observer, hand_events) for record in state._events]
    return other


def unseen_hand_cards(
    record: EventRecord, observer: int, hand_events: Collection[str]
) -> EventRecord:
    """``record`` as ``observer`` may know it in a determinization: for an event of
    ``hand_events`` (cards going into or out of a hand) of another player, its ``cards``
    are each ``None`` and its ``card`` is ``None``."""
    kind, facts = record
    if kind not in hand_events or facts["player"] == observer:
        return record
    blind = dict(facts)
    if "cards" in blind:
        blind["cards"] = [None] * len(blind["cards"])
    if "card" in blind:
        blind["card"] = None
    return kind, blind
