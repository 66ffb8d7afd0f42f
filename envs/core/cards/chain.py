"""A last-in-first-out chain of pending abilities, answered in turn.

When a player starts an ability that may be answered (an instant, an activated ability),
it goes on the chain instead of resolving, and the players get priority in turn (a
``priority.PriorityRound``): each may pass or add an answer on top, which starts the
passing again. Once every player has passed in a row, the top item leaves the chain
(``pop``) and resolves; then priority goes round again for what is left, until the chain is
empty. ``Chain`` keeps the items; who answers is the round's, whom it starts from after a
resolution the game's (the controller's left, or the player whose turn it is).
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

    __slots__ = ("items",)

    def __init__(self) -> None:
        self.items: list[Pending] = []

    def __bool__(self) -> bool:
        return bool(self.items)

    @property
    def top(self) -> Pending:
        return self.items[-1]

    def push(self, controller: int, what: Any) -> None:
        """Put an item on top."""
        self.items.append(Pending(controller, what))

    def pop(self) -> Pending:
        """Take the top item off, to resolve it."""
        return self.items.pop()

    def copy(self) -> Chain:
        other = Chain()
        other.items = self.items[:]
        return other
