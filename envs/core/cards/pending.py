"""Decisions owed outside the order of the phases: a card leaving play whose owner says
where its tokens go, the creatures that pay for a building, an optional trigger, the order
of a turn's upkeep. Such a decision falls due in the middle of a phase, and the seat that
owes it decides before the phase goes on, whoever the phase would ask.

``PendingDecisions`` keeps them in the order they arose, the first one due; a
``PendingPhasedState`` asks it first: while a decision is due, its seat decides, and its
``legal`` and ``apply`` stand in for the phase's.
"""

from __future__ import annotations

from typing import Any

from tabletop.envs.core.cards.phases import PhasedState


class Decision:
    """A decision owed by ``seat``: its legal actions and what one does. Instances never
    change (copies of a state share them); ``apply`` moves the state's ``pending`` on,
    to the decision's next step (``then``) or past it (``done``)."""

    __slots__ = ()
    seat: int

    def legal(self, state: Any) -> list[int]:
        """The sorted legal actions of ``seat``."""
        raise NotImplementedError

    def apply(self, state: Any, action: int) -> None:
        raise NotImplementedError


class PendingDecisions:
    """The decisions owed now (``due``) and after it (``waiting``, in the order they
    arose); copy it with the state."""

    __slots__ = ("due", "waiting")

    def __init__(self) -> None:
        self.due: Decision | None = None
        self.waiting: list[Decision] = []

    def __bool__(self) -> bool:
        return self.due is not None

    def offer(self, decision: Decision) -> None:
        """A decision falls due: now if none is, else after those owed already."""
        if self.due is None:
            self.due = decision
        else:
            self.waiting.append(decision)

    def then(self, decision: Decision) -> None:
        """The due decision goes on as ``decision`` (its next step), ahead of the waiting."""
        self.due = decision

    def done(self) -> None:
        """The due decision is taken: the first waiting one, if any, falls due."""
        self.due = self.waiting.pop(0) if self.waiting else None

    def clear(self) -> None:
        """Nothing is owed any more (the game is over)."""
        self.due = None
        self.waiting = []

    def copy(self) -> PendingDecisions:
        other = object.__new__(PendingDecisions)
        other.due = self.due
        other.waiting = self.waiting[:]
        return other

    def __repr__(self) -> str:
        return f"PendingDecisions(due={self.due!r}, waiting={self.waiting!r})"


class PendingPhasedState(PhasedState):
    """A ``PhasedState`` with decisions owed outside the phase order: subclasses keep a
    ``PendingDecisions`` in their ``pending`` slot. Whoever owes the due decision decides,
    and its legal actions and effect are the phase's until it is taken."""

    __slots__ = ()

    pending: PendingDecisions

    @property
    def current_player(self) -> int:
        due = self.pending.due
        if due is not None:
            return due.seat
        return self.PHASES[self.phase].decider(self)

    def _compute_legal(self) -> list[int]:
        due = self.pending.due
        if due is not None:
            return due.legal(self)
        return self.PHASES[self.phase].legal(self)

    def _do(self, action: int) -> None:
        due = self.pending.due
        if due is not None:
            due.apply(self, action)
        else:
            self.PHASES[self.phase].apply(self, action)
