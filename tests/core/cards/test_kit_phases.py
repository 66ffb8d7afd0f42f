"""The kit's turn structure: phase objects, response windows, and the chain."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from tabletop.envs.core.cards.chain import Chain, Pending
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


def test_the_chain_resolves_last_in_first_out_once_everyone_passed() -> None:
    chain = Chain(2)
    assert not chain and chain.priority == -1
    chain.push(0, "bolt")
    assert chain and chain.priority == 1 and chain.top == Pending(0, "bolt")
    assert chain.pass_priority() is None and chain.priority == 0
    chain.push(0, "boost")  # the controller answers its own card
    assert chain.priority == 1 and chain.passes == 0
    chain.push(1, "counter")
    assert chain.priority == 0
    resolved = []
    while chain:
        item = chain.pass_priority() or chain.pass_priority()
        assert item is not None
        resolved.append(item)
    assert resolved == [Pending(1, "counter"), Pending(0, "boost"), Pending(0, "bolt")]
    assert chain.priority == -1


def test_with_three_players_priority_goes_round_from_the_controllers_left() -> None:
    chain = Chain(3)
    chain.push(1, "spell")
    seen = [chain.priority]
    for _ in range(2):
        assert chain.pass_priority() is None
        seen.append(chain.priority)
    assert seen == [2, 0, 1]
    chain.push(1, "answer")
    assert chain.priority == 2 and chain.passes == 0
    assert chain.pass_priority() is None and chain.pass_priority() is None
    assert chain.pass_priority() == Pending(1, "answer")
    assert chain.priority == 2, "the spell below: priority again from the controller's left"
    assert [chain.pass_priority() for _ in range(3)][-1] == Pending(1, "spell")


def test_a_copied_chain_is_independent() -> None:
    chain = Chain(2)
    chain.push(0, "bolt")
    copy = chain.copy()
    copy.push(1, "counter")
    assert copy.pass_priority() is None
    assert chain.items == [Pending(0, "bolt")] and chain.priority == 1 and chain.passes == 0
    assert [item.what for item in copy.items] == ["bolt", "counter"] and copy.passes == 1
