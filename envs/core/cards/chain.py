"""A last-in-first-out chain of pending abilities, answered in turn.

When a player starts an ability that may be answered (an instant, an activated ability),
it goes on the chain instead of resolving, and the other players, in seat order from the
one after its controller, get priority: each may pass or add an answer on top, which gives
priority round again. Once every player has passed in a row, the top item resolves; then
priority goes round again for what is left, until the chain is empty. ``Chain`` keeps that
bookkeeping; a game's response phase (``phases.ResponseWindow``) asks it who decides.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Pending:
    """An item on the chain: who controls it and what resolves (a game's own data)."""

    controller: int
    what: Any


class Chain:
    """The chain of one position; copy it with the state."""

    __slots__ = ("num_players", "items", "priority", "passes")

    def __init__(self, num_players: int) -> None:
        self.num_players = num_players
        self.items: list[Pending] = []
        self.priority = -1
        self.passes = 0

    def __bool__(self) -> bool:
        return bool(self.items)

    @property
    def top(self) -> Pending:
        return self.items[-1]

    def push(self, controller: int, what: Any) -> None:
        """Put an item on top; the next player after ``controller`` gets priority."""
        self.items.append(Pending(controller, what))
        self.priority = (controller + 1) % self.num_players
        self.passes = 0

    def pass_priority(self) -> Pending | None:
        """The player with priority passes. When all have passed in a row the top item
        leaves the chain and is returned for the game to resolve (priority then starts
        again from the player after its controller); else ``None``."""
        self.passes += 1
        if self.passes < self.num_players:
            self.priority = (self.priority + 1) % self.num_players
            return None
        item = self.items.pop()
        self.passes = 0
        self.priority = (item.controller + 1) % self.num_players if self.items else -1
        return item

    def copy(self) -> Chain:
        other = Chain(self.num_players)
        other.items = self.items[:]
        other.priority = self.priority
        other.passes = self.passes
        return other
