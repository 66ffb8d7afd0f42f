"""The kit's turn structure: phase objects and response windows."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from tabletop.envs.core.cards.phases import GameOver, Phase, PhasedState, ResponseWindow
from tabletop.envs.core.protocol import TERMINAL, IllegalActionError

PICK, ANSWER, OVER = 0, 1, 2
BLOCK = 3


class Pick(Phase):
    """The active player takes 1 or 2 from the pile."""

    name = "pick"

    def legal(self, state: Duel) -> list[int]:
        return [1, 2]

    def apply(self, state: Duel, action: int) -> None:
        state.log.append(f"{state.active} takes {action}")
        state.pending = action
        state.phase = ANSWER


class Block(ResponseWindow):
    """The other player may spend a shield to block the take."""

    name = "block"

    def responder(self, state: Duel) -> int:
        return 1 - state.active

    def answers(self, state: Duel) -> list[int]:
        return [BLOCK] if state.shields[self.responder(state)] else []

    def answer(self, state: Duel, action: int) -> None:
        state.shields[self.responder(state)] -= 1
        state.log.append(f"{self.responder(state)} blocks")
        state.pending = 0
        self.close(state)

    def close(self, state: Duel) -> None:
        state.pile -= state.pending
        state.active = 1 - state.active
        state.phase = OVER if state.pile <= 0 else PICK


class Duel(PhasedState):
    __slots__ = ("game", "_legal", "_rewards", "_returns", "phase", "active", "pile", "pending")
    __slots__ += ("shields", "log")

    PHASES = (Pick(), Block(), GameOver())

    def __init__(self, shields: list[int], pile: int = 5) -> None:
        self.game = SimpleNamespace(name="duel", num_actions=4)
        self.phase, self.active, self.pile, self.pending = PICK, 0, pile, 0
        self.shields, self.log = shields, []
        self._rewards, self._returns, self._events = [0.0, 0.0], [0.0, 0.0], []
        self.settle()

    def action_to_string(self, action: int, observer: int | None = None) -> str:
        return ["pass", "take 1", "take 2", "block"][action]


def test_the_phase_gives_the_decider_the_legal_actions_and_what_they_do() -> None:
    state = Duel(shields=[1, 1])
    assert state.current_player == 0 and state.legal_actions() == [1, 2]
    assert not state.is_terminal()
    state.apply(2)
    assert state.phase == ANSWER and state.current_player == 1
    assert state.legal_actions() == [Block.pass_action, BLOCK]
    with pytest.raises(
        IllegalActionError, match=r"duel: illegal action 1 \(take 1\); legal: pass, block"
    ):
        state.apply(1)
    state.apply(BLOCK)
    assert state.log == ["0 takes 2", "1 blocks"] and state.pile == 5 and state.shields == [1, 0]
    assert state.phase == PICK and state.current_player == 1


def test_a_responder_with_nothing_to_answer_is_not_asked() -> None:
    state = Duel(shields=[0, 0])
    state.apply(2)
    assert state.log == ["0 takes 2"], "the window closed by itself"
    assert state.pile == 3 and state.phase == PICK and state.current_player == 1


def test_the_game_over_phase_ends_the_game() -> None:
    state = Duel(shields=[0, 0], pile=2)
    state.apply(2)
    assert state.is_terminal() and state.current_player == TERMINAL
    assert state.legal_actions() == [] and GameOver().legal(state) == []
