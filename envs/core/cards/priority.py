"""A round of passing priority: the seats that may act or answer, who holds priority now,
and how many passed in a row; the round closes once every one of its seats has passed in
a row, with nothing done in between.

A game keeps one ``PriorityRound`` per business that is answered in turn (a response
window, the chain of a turn) and says what each decision was: ``passed`` (priority moves
on to the next seat, or the round closes), ``answered`` (something that may itself be
answered was done: the next seat after its doer has priority, passes start again) or
``acted`` (something that is answered by nobody: the holder keeps priority, passes start
again). What a closed round leads to (the top of a chain resolves, a window ends) is the
game's, as is ``restart`` for the next round.
"""

from __future__ import annotations

from collections.abc import Sequence


class PriorityRound:
    """Priority going round ``seats`` in their order, from ``holder`` (the first seat by
    default); copy it with the state."""

    __slots__ = ("seats", "holder", "passes", "_size", "_next")

    def __init__(self, seats: Sequence[int], holder: int | None = None) -> None:
        self.seats = tuple(seats)
        self.holder = self.seats[0] if holder is None else holder
        """The seat that has priority: it decides next."""
        self.passes = 0
        """How many seats passed in a row, up to the holder."""
        self._size = len(self.seats)
        self._next = _next_seats(self.seats)
        """Each seat's next one (a pass is most decisions of some games: looked up, not
        worked out); shared by the rounds among the same seats, never changed."""

    def after(self, seat: int) -> int:
        """The seat that has priority after ``seat`` (the first again after the last)."""
        return self._next[seat]

    def passed(self, restart: int | None = None) -> bool:
        """The holder passes: ``True`` when that closes the round (every seat passed in a
        row), a new one starting at once with ``restart`` first when given (``restart``
        in the same call: games whose rounds follow one another pass most of their
        decisions); else priority moves on to the next seat and ``False``."""
        self.passes += 1
        if self.passes >= self._size:
            if restart is not None:
                self.holder = restart
                self.passes = 0
            return True
        self.holder = self._next[self.holder]
        return False

    def answered(self, seat: int) -> None:
        """``seat`` did something the others may answer: the seat after it has priority,
        and nobody has passed since."""
        self.holder = self._next[seat]
        self.passes = 0

    def acted(self) -> None:
        """The holder did something nobody answers: it keeps priority, and nobody has
        passed since."""
        self.passes = 0

    def restart(self, holder: int) -> None:
        """A new round among the same seats, ``holder`` first."""
        self.holder = holder
        self.passes = 0

    def copy(self) -> PriorityRound:
        other = object.__new__(type(self))
        other.seats = self.seats
        other.holder = self.holder
        other.passes = self.passes
        other._size = self._size
        other._next = self._next
        return other

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.seats}, holder={self.holder}, passes={self.passes})"


_NEXT_SEATS: dict[tuple[int, ...], dict[int, int]] = {}
"""``PriorityRound._next`` per order of seats: a game opens a round every turn or window,
among the few orders its seat count allows."""


def _next_seats(seats: tuple[int, ...]) -> dict[int, int]:
    """Each of ``seats``' next one, the first after the last (worked out once per order)."""
    order = _NEXT_SEATS.get(seats)
    if order is None:
        order = _NEXT_SEATS[seats] = dict(zip(seats, seats[1:] + seats[:1], strict=True))
    return order
