"""Kult's position evaluation (``SPEC.evaluate``): each seat's estimated final return, for
search whose rollouts stop before the end (``ismcts:depth=N``).

A Kult game is won by the first Hub to reach the target (KU-9), +1 to the winner and -1 to
every other seat. A seat's *strength* is a weighted count of what it has on the board: its
Hub tokens, the tokens on its Scene cards (one attraction from the Hub) and on its Cast
cards (two), its face-up Cast cards that can hold a token (lanes from the Pool) and the
combat values of its face-up Beings. The chance that a seat wins is the softmax of the
strengths (a logistic model of the difference with 2 players), and the estimate is that
chance's expected return, ``2 * p - 1``: the payoff's own shape for any number of players,
added to the returns so far (0 mid-game unless the game's ``shaped_reward`` is on).

The weights were fitted (logistic regression, 2 players, continent game) to the winners of
1,500 games of heuristic self-play with 5% random moves, 148k positions, so that the
estimate is what the heuristic rollouts would find: it predicts the winner of held-out
games in 74% of positions. Hand sizes, keys, lanes in the Scene, face-down cards and whose
turn it is added nothing measurable and are left out. Tokens are counted in Hub targets, so
a world game's 10-token target halves what one token is worth.

It reads only what is public (tokens, crosses, the Hub target), so it never looks at a
hidden card; search evaluates determinizations anyway.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from tabletop.envs.kult.actions import CAST, SCENE
from tabletop.envs.kult.cards import BEING

if TYPE_CHECKING:
    from tabletop.envs.kult.engine import KultState

FITTED_TARGET = 5
"""The Hub target of the games the weights were fitted on (a continent game, KU-2.4)."""
HUB_TOKEN = 1.72
"""Log-odds of a token in the Hub."""
SCENE_TOKEN = 1.70
"""A token on a Scene card: attracted into the Hub at the next attract phase (KU-7.2)."""
CAST_TOKEN = 0.60
"""A token on a Cast card: two attractions from the Hub, and exposed to attacks."""
CAST_LANE = 0.155
"""A face-up Cast card that can hold a token: a lane from the Pool."""
COMBAT = 0.039
"""A point of printed combat value of a face-up Being in the Cast."""


def strength(state: KultState, seat: int) -> float:
    """``seat``'s log-odds of winning, up to a constant shared by every seat."""
    cross = state.crosses[seat]
    tokens = HUB_TOKEN * state.hub_tokens[seat]
    for station in SCENE:
        base = cross[station]
        if base is not None:
            tokens += SCENE_TOKEN * base.tokens
    board = 0.0
    for station in CAST:
        base = cross[station]
        if base is not None:
            tokens += CAST_TOKEN * base.tokens
            if base.face_up:
                card = base.card
                board += CAST_LANE * (card.holds > 0) + COMBAT * (card.kind == BEING) * card.combat
    return tokens * FITTED_TARGET / state.game.target + board


def evaluate(state: KultState) -> list[float]:
    """Each seat's returns so far plus the expected return of the win, its chance of
    winning being the softmax of the seats' strengths; the real returns once it is over."""
    returns = state.returns()
    if state.is_terminal():
        return list(returns)
    strengths = [strength(state, seat) for seat in range(len(state.crosses))]
    top = max(strengths)
    weights = [math.exp(value - top) for value in strengths]
    total = sum(weights)
    chances = zip(returns, weights, strict=True)
    return [so_far + 2.0 * weight / total - 1.0 for so_far, weight in chances]
