"""Three Cards' observation encoder: what one player sees, as one flat vector."""

from __future__ import annotations

import numpy as np

from tabletop.envs.core.layout import stack_layout
from three_cards.engine import NUM_ACTIONS, TRICKS, ThreeCardsGame, ThreeCardsState

PARTS = (
    ("hand", NUM_ACTIONS, "one-hot cards in the observer's hand"),
    ("own_played", NUM_ACTIONS, "one-hot cards the observer has played"),
    ("opponent_played", NUM_ACTIONS, "one-hot cards the opponent has played"),
    ("led", NUM_ACTIONS, "one-hot card led in the trick under way"),
    ("tricks", 2, "tricks won by the observer, by the opponent / 3"),
    ("to_move", 1, "1 if the observer decides now"),
)
LAYOUT = dict((name, part) for name, part, _meaning in stack_layout(PARTS))
FLAT_SIZE = LAYOUT["to_move"].stop


class FlatEncoder:
    """Only the observer's own hand and public facts: the opponent's hand and the unused
    cards never enter the vector."""

    name = "flat"
    version = 0

    def shape(self, game: ThreeCardsGame) -> tuple[int, ...]:
        return (FLAT_SIZE,)

    def encode(self, state: ThreeCardsState, player: int) -> np.ndarray:
        out = np.zeros(FLAT_SIZE, np.float32)
        opponent = 1 - player
        for name, cards in (
            ("hand", state.hands[player]),
            ("own_played", state.played[player]),
            ("opponent_played", state.played[opponent]),
            ("led", [] if state.led is None else [state.led]),
        ):
            for card in cards:
                out[LAYOUT[name].start + card - 1] = 1.0
        tricks = LAYOUT["tricks"].start
        out[tricks : tricks + 2] = [state.tricks[player] / TRICKS, state.tricks[opponent] / TRICKS]
        out[LAYOUT["to_move"].start] = float(state.current_player == player)
        return out


ENCODERS = {"flat": FlatEncoder()}
