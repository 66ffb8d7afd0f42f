"""The kit's phase names (read from the phase objects, never a tuple beside them) and its
one ending of a game (``PhasedState.end_game``)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from tabletop.envs.core.cards.phases import DRAW, GameOver, Phase, PhasedState, phase_names
from tabletop.envs.core.protocol import TERMINAL

COUNT, OVER = 0, 1


class Count(Phase):
    """Whoever is active says 1 or 2; reaching 3 wins, passing 3 loses to the next seat."""

    name = "count"

    def legal(self, state: Race) -> list[int]:
        return [1, 2]

    def apply(self, state: Race, action: int) -> None:
        state.total += action
        if state.total == 3:
            state.end_game(state.active)
        elif state.total > 3:
            state.end_game((state.active + 1) % 3)
        else:
            state.active = (state.active + 1) % 3


class Race(PhasedState):
    __slots__ = ("game", "_legal", "_rewards", "_returns", "phase", "active", "winner", "total")

    PHASES = (Count(), GameOver())

    def __init__(self) -> None:
        self.game = SimpleNamespace(name="race", num_actions=3)
        self.phase, self.active, self.winner, self.total = COUNT, 0, None, 0
        self._rewards, self._returns, self._events = [0.0] * 3, [0.0] * 3, []
        self.settle()


def test_names_come_from_the_phases_in_order() -> None:
    assert Race.PHASE_NAMES == ("count", "over")
    state = Race()
    assert state.phase_name == "count"
    state.apply(2)
    state.apply(1)
    assert state.phase_name == "over"


def test_the_winner_gets_one_and_every_other_seat_minus_one_once() -> None:
    state = Race()
    state.apply(2)
    state.apply(1)
    assert state.is_terminal() and state.current_player == TERMINAL and state.winner == 1
    assert state.returns() == [-1.0, 1.0, -1.0] and state.rewards() == [-1.0, 1.0, -1.0]
    with pytest.raises(RuntimeError, match="race: the game is over already"):
        state.end_game(0)
    assert state.returns() == [-1.0, 1.0, -1.0]


def test_a_draw_gives_nobody_anything() -> None:
    state = Race()
    state.end_game(DRAW)
    assert state.phase == OVER and state.winner == DRAW and state.returns() == [0.0] * 3


def test_unnamed_or_twice_named_phases_and_a_differing_copy_are_refused() -> None:
    with pytest.raises(ValueError, match=r"phases \[0\] have no name"):
        phase_names([Phase(), GameOver()])
    with pytest.raises(ValueError, match=r"used twice: \['count'\]"):
        phase_names([Count(), Count()])
    with pytest.raises(ValueError, match="differ from its PHASES'"):
        type("Stale", (Race,), {"__slots__": (), "PHASE_NAMES": ("count", "end")})


def test_a_state_without_a_terminal_phase_cannot_end() -> None:
    endless = type("Endless", (Race,), {"__slots__": (), "PHASES": (Count(),)})
    state = endless.__new__(endless)
    state.game, state.phase, state.active = SimpleNamespace(name="endless"), COUNT, 0
    with pytest.raises(TypeError, match="no terminal phase"):
        state.end_game(0)
