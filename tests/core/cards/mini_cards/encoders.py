"""Mini Cards' observation encoder, from the kit's encoder pieces: zones as counts per card
(``zone_counts``), the chain as rows of per-card features (``zone_rows``)."""

from __future__ import annotations

import numpy as np

from mini_cards.engine import LIFE, OVER, RESPOND, STACK, TURNS, MiniCardsGame, MiniCardsState
from tabletop.envs.core.cards.encoding import zone_counts, zone_rows
from tabletop.envs.core.layout import stack_layout

CARDS = len(MiniCardsGame.pool)
CHAIN_ROWS = 6
PARTS = (
    ("zones", 5 * CARDS, "copies of each card: own hand, own/other table, own/other discard"),
    ("chain", CHAIN_ROWS * (CARDS + 1), "the chain from the bottom: one-hot card, 1 if own"),
    ("counts", 3, "cards in own deck, in the opponent's deck, in the opponent's hand / 10"),
    ("life", 2, "own life, the opponent's / 6"),
    ("turn", 1, "turns played / 8"),
    ("phase", 2, "1 in the response window, 1 once the game is over"),
    ("to_move", 1, "1 if the observer decides now"),
)
LAYOUT = {name: part for name, part, _meaning in stack_layout(PARTS)}
FLAT_SIZE = LAYOUT["to_move"].stop


class FlatEncoder:
    """The observer's hand, public zones and counts: never the opponent's hand or a deck."""

    name = "flat"
    version = 0

    def shape(self, game: MiniCardsGame) -> tuple[int, ...]:
        return (FLAT_SIZE,)

    def encode(self, state: MiniCardsState, player: int) -> np.ndarray:
        table, other = state.table, 1 - player
        out = np.zeros(FLAT_SIZE, np.float32)
        zones = [("hand", player), ("table", player), ("table", other)]
        zones += [("discard", player), ("discard", other)]
        out[LAYOUT["zones"]] = zone_counts(table, zones, CARDS)

        def row(card: object, iid: object) -> list[float]:
            features = [0.0] * (CARDS + 1)
            features[card.index] = 1.0  # type: ignore[attr-defined]
            features[CARDS] = float(table.owners[iid] == player)  # type: ignore[index]
            return features

        out[LAYOUT["chain"]] = zone_rows(table, STACK, row, CHAIN_ROWS, CARDS + 1).reshape(-1)
        sizes = (len(table.zone(*zone)) for zone in (("deck", player), ("deck", other)))
        out[LAYOUT["counts"]] = [*sizes, len(table.zone("hand", other))]
        out[LAYOUT["counts"]] /= 10
        out[LAYOUT["life"]] = [state.life[player] / LIFE, state.life[other] / LIFE]
        out[LAYOUT["turn"]] = state.turn / TURNS
        out[LAYOUT["phase"]] = [state.phase == RESPOND, state.phase == OVER]
        out[LAYOUT["to_move"]] = float(state.current_player == player)
        return out


ENCODERS = {"flat": FlatEncoder()}
