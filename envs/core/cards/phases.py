"""Turn structure as phase objects (as gym-locm's Phase classes): each phase knows who
decides in it, its legal decisions and what applying one does; a game's turn is a list of
phases, not if-chains over a step number.

A state keeps the index of its phase in ``phase``; ``PhasedState`` is the ``EngineState``
whose ``_compute_legal``, ``_do``, ``current_player`` and ``is_terminal`` come from its
``PHASES``. A ``ResponseWindow`` is a phase in which another player than the active one
decides inside the turn (a block, an answer to an action); when that player has nothing to
answer with, passing is their only legal action, and the engine takes single options by
itself: the window closes without asking.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from tabletop.envs.core.engine import EngineState
from tabletop.envs.core.protocol import TERMINAL


class Phase:
    """One step of a turn. Subclasses give ``legal`` and ``apply``; the active player
    decides unless ``decider`` says otherwise."""

    name: ClassVar[str] = ""
    terminal: ClassVar[bool] = False
    """The game is over while this phase holds."""

    def decider(self, state: Any) -> int:
        return state.active

    def legal(self, state: Any) -> list[int]:
        """The sorted legal actions of ``decider(state)`` in this phase."""
        raise NotImplementedError

    def apply(self, state: Any, action: int) -> None:
        """Play a legal ``action``; moving on to another phase is the phase's call."""
        raise NotImplementedError


class GameOver(Phase):
    """The phase of a finished game: nobody decides, nothing is legal."""

    name = "over"
    terminal = True

    def decider(self, state: Any) -> int:
        return TERMINAL

    def legal(self, state: Any) -> list[int]:
        return []


class ResponseWindow(Phase):
    """A phase in which ``responder(state)`` (not the active player) decides: ``answers``
    are their legal responses besides ``pass_action``, which ``close`` handles."""

    pass_action: ClassVar[int] = 0

    def decider(self, state: Any) -> int:
        return self.responder(state)

    def responder(self, state: Any) -> int:
        raise NotImplementedError

    def answers(self, state: Any) -> list[int]:
        raise NotImplementedError

    def legal(self, state: Any) -> list[int]:
        return sorted({self.pass_action, *self.answers(state)})

    def apply(self, state: Any, action: int) -> None:
        if action == self.pass_action:
            self.close(state)
        else:
            self.answer(state, action)

    def answer(self, state: Any, action: int) -> None:
        raise NotImplementedError

    def close(self, state: Any) -> None:
        """The responder passes: the window's business ends."""
        raise NotImplementedError


class PhasedState(EngineState):
    """An ``EngineState`` run by phase objects: subclasses set ``PHASES`` (indexed by
    ``phase``) and keep ``phase`` and ``active`` in their slots."""

    __slots__ = ()

    PHASES: ClassVar[Sequence[Phase]] = ()
    _TERMINAL: ClassVar[frozenset[int]] = frozenset()
    phase: int
    active: int

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        cls._TERMINAL = frozenset(i for i, phase in enumerate(cls.PHASES) if phase.terminal)

    @property
    def current_player(self) -> int:
        return self.PHASES[self.phase].decider(self)

    def is_terminal(self) -> bool:
        return self.phase in self._TERMINAL

    def _compute_legal(self) -> list[int]:
        return self.PHASES[self.phase].legal(self)

    def _do(self, action: int) -> None:
        self.PHASES[self.phase].apply(self, action)
