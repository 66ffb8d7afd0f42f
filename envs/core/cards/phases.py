"""Turn structure as phase objects (as gym-locm's Phase classes): each phase knows who
decides in it, its legal decisions and what applying one does; a game's turn is a list of
phases, not if-chains over a step number.

A state keeps the index of its phase in ``phase``; ``PhasedState`` is the ``EngineState``
whose ``_compute_legal``, ``_do``, ``current_player`` and ``is_terminal`` come from its
``PHASES``. A ``ResponseWindow`` is a phase in which another player than the active one
decides inside the turn (a block, an answer to an action); when that player has nothing to
answer with, passing is their only legal action, and the engine takes single options by
itself: the window closes without asking.

A phase's ``name`` is its one declaration: ``PhasedState.PHASE_NAMES`` and ``phase_name``
are read from ``PHASES``, never kept in a tuple beside it. ``PhasedState.end_game`` is the
one place a game ends: the result, the returns and the terminal phase, once.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from tabletop.envs.core.engine import EngineState
from tabletop.envs.core.protocol import TERMINAL

DRAW = -1
"""``PhasedState.winner`` of a drawn game."""


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


def phase_names(phases: Sequence[Phase]) -> tuple[str, ...]:
    """The names of ``phases`` in order, each given and none twice: rendering, notation and
    encoders name a phase by them, and a position is stacked by one."""
    names = tuple(phase.name for phase in phases)
    unnamed = [index for index, name in enumerate(names) if not name]
    if unnamed:
        raise ValueError(f"phases {unnamed} have no name")
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise ValueError(f"phase names used twice: {twice}")
    return names


class PhasedState(EngineState):
    """An ``EngineState`` run by phase objects: subclasses set ``PHASES`` (indexed by
    ``phase``) and keep ``phase``, ``active`` and ``winner`` in their slots.

    A subclass may also set ``PHASE_NAMES``, a copy that a leaf module keeps so that its
    phase numbers need not import the phase objects; it is checked against ``PHASES``."""

    __slots__ = ()

    PHASES: ClassVar[Sequence[Phase]] = ()
    PHASE_NAMES: ClassVar[tuple[str, ...]] = ()
    _TERMINAL: ClassVar[frozenset[int]] = frozenset()
    _OVER: ClassVar[int | None] = None
    phase: int
    active: int
    winner: int | None

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        names = phase_names(cls.PHASES)
        if "PHASE_NAMES" in cls.__dict__ and tuple(cls.PHASE_NAMES) != names:
            raise ValueError(
                f"{cls.__name__}.PHASE_NAMES {cls.PHASE_NAMES} differ from its PHASES' {names}"
            )
        cls.PHASE_NAMES = names
        cls._TERMINAL = frozenset(i for i, phase in enumerate(cls.PHASES) if phase.terminal)
        cls._OVER = min(cls._TERMINAL, default=None)

    @property
    def phase_name(self) -> str:
        return self.PHASE_NAMES[self.phase]

    def end_game(self, winner: int) -> None:
        """End the game with ``winner`` (a seat, or ``DRAW``): +1 to the winner and -1 to
        every other seat, 0 to all on a draw, and the first terminal phase of ``PHASES``.
        A game's own ending (clearing what is pending, its ``game_over`` event) follows."""
        if self.is_terminal():
            raise RuntimeError(f"{self.game.name}: the game is over already")
        if self._OVER is None:
            raise TypeError(f"{type(self).__name__}: no terminal phase in PHASES")
        self.winner = winner
        self.phase = self._OVER
        if winner != DRAW:
            for seat in range(len(self._returns)):
                self._reward(seat, 1.0 if seat == winner else -1.0)

    @property
    def current_player(self) -> int:
        return self.PHASES[self.phase].decider(self)

    def is_terminal(self) -> bool:
        return self.phase in self._TERMINAL

    def _compute_legal(self) -> list[int]:
        return self.PHASES[self.phase].legal(self)

    def _do(self, action: int) -> None:
        self.PHASES[self.phase].apply(self, action)
