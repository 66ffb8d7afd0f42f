"""HKK's position evaluation (``SPEC.evaluate``): each seat's estimated final return, for
search whose rollouts stop before the end (``ismcts:depth=N``).

An HKK game is won by bringing the other player's life to 0 (HK-2.3), +1 to the winner and
-1 to the loser (HK-2.4). A seat's *strength* is a weighted count of what it has: its life,
the cards in its hand, and its creatures' damage and the life they have left (HK-4.2),
less their poison counters (HK-7.3: a creature dies once its counters reach its life).
The chance that seat 0 wins is the logistic function of the difference of the strengths,
and the estimate is that chance's expected return, ``2 * p - 1`` for seat 0 and its
negative for seat 1 (zero-sum), added to the returns so far.

The weights were fitted (logistic regression) to the winners of 1,500 games of heuristic
self-play with 5% random moves over every pair of packaged decks (pool 1.1), 42k positions,
so that the estimate is what the heuristic rollouts would find: it predicts the winner of
held-out games in 75% of positions. Magic points, monster components, the number of
creatures and where they stand, and the other cards on the table added less than half a
point of accuracy and are left out. Creature figures are counted without the defence bonus
(HK-4.3), which changes sides every turn.

It reads only what is public (life, hand sizes, the table), so it never looks at a hidden
card; search evaluates determinizations anyway.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from tabletop.envs.hkk import figures

if TYPE_CHECKING:
    from tabletop.envs.hkk.engine import HkkState

LIFE = 0.0698
"""Log-odds of a point of the player's own life."""
HAND = 0.0610
"""A card in hand: a play still to come."""
DAMAGE = 0.1188
"""A point of damage of a creature on the table."""
TOUGHNESS = 0.1387
"""A point of life a creature has left, less its poison counters."""


def board(state: HkkState, seat: int) -> tuple[int, int]:
    """The damage and the life left (less poison) of ``seat``'s creatures, without the
    defence bonus (HK-4.3)."""
    bonus = 0 if seat == state.active else 1
    damage = toughness = 0
    for entry in figures.creatures(state, seat):
        damage += max(0, figures.damage(state, entry) - bonus)
        toughness += max(0, figures.remaining(state, entry) - bonus - entry.poison)
    return damage, toughness


def strength(state: HkkState, seat: int) -> float:
    """``seat``'s log-odds of winning, up to a constant shared by both seats."""
    damage, toughness = board(state, seat)
    return (LIFE * state.life[seat] + HAND * len(state.hands[seat]) + DAMAGE * damage
            + TOUGHNESS * toughness)  # fmt: skip


def evaluate(state: HkkState) -> list[float]:
    """Each seat's returns so far plus the expected return of the game, seat 0's chance of
    winning being the logistic function of the difference of the strengths; the real
    returns once it is over."""
    returns = state.returns()
    if state.is_terminal():
        return list(returns)
    lead = strength(state, 0) - strength(state, 1)
    value = math.tanh(lead / 2)  # 2 * p - 1 with p = 1 / (1 + exp(-lead))
    return [returns[0] + value, returns[1] - value]
