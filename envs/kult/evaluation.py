"""Kult's position evaluation (``SPEC.evaluate``): each seat's estimated final return, for
search whose rollouts stop before the end (``ismcts:depth=N``).

A Kult game is won by the first Hub to reach the target (KU-9), +1 to the winner and -1 to
every other seat. A seat's *standing* counts its tokens on the way to its Hub, each by how
near it is (in the Hub, on a Scene card one attraction away, on a Cast card two), and its
lanes, the face-up cards that can hold a token (a Scene card carries tokens to the Hub, a
Cast card takes them from the Pool), all over the Hub target. The chance that a seat wins
is a softmax of the standings, and the estimate is that chance's expected return,
``2 * p - 1``: the payoff's own shape (one +1, the rest -1) for any number of players.

It reads only the public board (tokens, crosses, the Hub target), so it never looks at
hidden cards; search evaluates determinizations anyway.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from tabletop.envs.kult.actions import CAST, SCENE

if TYPE_CHECKING:
    from tabletop.envs.kult.engine import KultState

SCENE_TOKEN = 0.5
"""A token on a Scene card, as a share of a Hub token: one attraction from the Hub."""
CAST_TOKEN = 0.25
"""A token on a Cast card: two attractions from the Hub."""
SCENE_LANE = 0.2
"""A face-up Scene card that can hold a token: a lane to the Hub."""
CAST_LANE = 0.1
"""A face-up Cast card that can hold a token: a lane from the Pool."""
SHARPNESS = 6.0
"""How sure a lead of one whole Hub target makes a win (the softmax's inverse temperature):
with 2 players, a lead of a sixth of the target is worth about 0.5."""


def standing(state: KultState, seat: int) -> float:
    """``seat``'s progress towards the Hub target: 1.0 is a whole target's worth."""
    cross = state.crosses[seat]
    score = float(state.hub_tokens[seat])
    for stations, token, lane in ((SCENE, SCENE_TOKEN, SCENE_LANE), (CAST, CAST_TOKEN, CAST_LANE)):
        for station in stations:
            base = cross[station]
            if base is not None:
                score += token * base.tokens
                if base.face_up and base.card.holds > 0:
                    score += lane
    return score / state.game.target


def evaluate(state: KultState) -> list[float]:
    """Each seat's expected return if the seats' chances of winning are a softmax of their
    standings; the real returns once the game is over."""
    if state.is_terminal():
        return list(state.returns())
    weights = [math.exp(SHARPNESS * standing(state, seat)) for seat in range(len(state.crosses))]
    total = sum(weights)
    return [2.0 * weight / total - 1.0 for weight in weights]
