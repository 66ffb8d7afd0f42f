"""The kit's decisions owed outside the phase order: who decides while one is due, in what
order they fall due, and a state's copy of them."""

from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace

from tabletop.envs.core.cards.pending import Decision, PendingDecisions, PendingPhasedState
from tabletop.envs.core.cards.phases import GameOver, Phase

TAKE, OVER = 0, 1
KEEP, GIVE = 10, 11


class Take(Phase):
    """The active player takes 1 or 2 from the pile; taking 2 makes each other seat owe a
    ``Toll`` (the next seat's first)."""

    name = "take"

    def legal(self, state: Tolls) -> list[int]:
        return [1, 2]

    def apply(self, state: Tolls, action: int) -> None:
        state.pile -= action
        state.log.append(f"{state.active} takes {action}")
        if action == 2:
            for step in (1, 2):
                state.pending.offer(Toll((state.active + step) % 3, rounds=2))
        state.active = (state.active + 1) % 3
        if state.pile <= 0:
            state.phase = OVER


@dataclass(frozen=True)
class Toll(Decision):
    """``seat`` keeps or gives, ``rounds`` times in a row (each a step of one decision)."""

    seat: int
    rounds: int

    def legal(self, state: Tolls) -> list[int]:
        return [KEEP, GIVE]

    def apply(self, state: Tolls, action: int) -> None:
        state.log.append(f"{self.seat} {'keeps' if action == KEEP else 'gives'}")
        if self.rounds > 1:
            state.pending.then(Toll(self.seat, self.rounds - 1))
        else:
            state.pending.done()


class Tolls(PendingPhasedState):
    __slots__ = ("game", "_legal", "_rewards", "_returns", "phase", "active", "pile")
    __slots__ += ("pending", "log")

    PHASES = (Take(), GameOver())

    def __init__(self, pile: int = 9) -> None:
        self.game = SimpleNamespace(name="tolls", num_actions=12)
        self.phase, self.active, self.pile = TAKE, 0, pile
        self.pending, self.log = PendingDecisions(), []
        self._rewards, self._returns, self._events = [0.0] * 3, [0.0] * 3, []
        self.settle()


def test_the_seat_owing_the_due_decision_decides_before_the_phase_goes_on() -> None:
    state = Tolls()
    state.apply(2)
    assert state.active == 1 and state.current_player == 1, "seat 1 owes the first toll"
    assert state.legal_actions() == [KEEP, GIVE]
    decided = []
    while state.pending:
        decided.append(state.current_player)
        state.apply(GIVE if len(decided) % 2 else KEEP)
    assert decided == [1, 1, 2, 2], "each toll's steps, then the next toll in order"
    assert state.log[1:] == ["1 gives", "1 keeps", "2 gives", "2 keeps"]
    assert state.current_player == 1 and state.legal_actions() == [1, 2], "the phase again"


def test_pending_decisions_fall_due_in_the_order_they_arose() -> None:
    pending = PendingDecisions()
    assert not pending and pending.due is None
    first, second, third = Toll(0, 1), Toll(1, 1), Toll(2, 1)
    pending.offer(first)
    pending.offer(second)
    pending.offer(third)
    assert pending.due is first and pending.waiting == [second, third]
    pending.then(Toll(0, 5))
    assert pending.due == Toll(0, 5) and pending.waiting == [second, third]
    pending.done()
    assert pending.due is second and pending.waiting == [third]
    copy = pending.copy()
    copy.done()
    assert pending.due is second and pending.waiting == [third], "the copy is independent"
    assert copy.due is third and not copy.waiting
    pending.clear()
    assert not pending and pending.waiting == []
