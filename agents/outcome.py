"""What a finished game means for a seat, or a side of seats: a win, a draw or a loss.

Defined once, from the final returns alone, and used by everything that counts results:
the learner env's ``info`` (``tabletop.wrappers``), evaluation, the bench and the search
runs (``tabletop.training``). It lives in the agents layer, below both: a result is what
agents achieved in a game, and a definition read by the wrappers cannot sit above them.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

WIN = "win"
DRAW = "draw"
LOSS = "loss"
OUTCOMES = (WIN, DRAW, LOSS)


def outcome(returns: Sequence[float], side: int | Collection[int], *, cooperative: bool) -> str:
    """``"win"``, ``"draw"`` or ``"loss"`` of ``side`` (a seat or several seats).

    Competitive: see ``side_outcome``. Cooperative: every seat is on one team, so ``side``
    does not matter; see ``team_outcome``.
    """
    return team_outcome(returns) if cooperative else side_outcome(returns, side)


def side_outcome(returns: Sequence[float], side: int | Collection[int]) -> str:
    """A side's result against the other seats: its best return against their best; a win
    is strictly higher, a draw equal. One seat is a side of one; in a game of one agent
    against a field of another, each agent's seats form a side."""
    seats = {side} if isinstance(side, int) else set(side)
    own = max(returns[seat] for seat in seats)
    others = [r for seat, r in enumerate(returns) if seat not in seats]
    if not others:
        raise ValueError(f"seats {sorted(seats)} are every seat: there is no one to beat")
    best_other = max(others)
    return WIN if own > best_other else DRAW if own == best_other else LOSS


def team_outcome(returns: Sequence[float]) -> str:
    """The team's result when every seat plays together: a win when every seat's return is
    positive, a loss when any is negative, otherwise a draw. In a cooperative game (identical
    payoffs) that is the sign of the shared return."""
    if min(returns) > 0:
        return WIN
    return LOSS if min(returns) < 0 else DRAW
