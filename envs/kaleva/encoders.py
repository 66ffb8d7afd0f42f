"""Kaleva observation encoders: one player's view (KV-7) as float32 arrays.

Both read only what the observing player may see, plus what a careful human remembers
(KV-7.2): own cards by column, the opponent's face-up cards by column, where each face-down
card came from (one of the six shown at setup and not seen since, or drawn later), which of
the opponent's shown cards are still unseen, both discard piles, deck sizes, discs and lost
discs. The board stays in absolute coordinates (row 0 is Silver's shield), like the action
ids, with a seat one-hot; discs and cards are split into own and opponent's. During a
Tuuri decision the mover's opponent sees the position before the move (the phase "move", no
pending squares): a kept Tuuri is never shown (KV-4.7).

Versions (both encoders):
- 0: the phase and the pending move of a Tuuri decision were shown to both players.
- 1: they are shown to the mover only (``KalevaState.pause_hidden_from``); same layout.
"""

from __future__ import annotations

import numpy as np

from tabletop.envs.core.layout import stack_layout
from tabletop.envs.kaleva.board import COLS, DECK_SIZE, DISCS_PER_PLAYER, NUM_SQUARES, NUM_VALUES
from tabletop.envs.kaleva.engine import (
    EMPTY,
    MOVE,
    ORIGINAL,
    SETUP,
    SWAP,
    TUURI_CHOICE,
    KalevaGame,
    KalevaState,
)

SLOT_STATUSES = ("empty (setup)", "face up", "shown at setup, unseen since", "drawn later")
"""How a slot's card is known to the opponent (KV-7.2)."""
PHASES = (SETUP, MOVE, TUURI_CHOICE, SWAP)
MAX_COPIES = 3

BOARD_FEATURES = (
    ("own_discs", NUM_SQUARES, "1 on squares (row * 6 + col) holding an own disc"),
    ("opponent_discs", NUM_SQUARES, "1 on squares holding an opponent disc"),
)
SLOT_FEATURES = (
    ("own_cards", COLS * NUM_VALUES, "own card per column: one-hot value at col * 10 + value"),
    ("own_card_status", COLS * 4, "own card per column: one-hot status as the opponent knows it"),
    ("opponent_cards", COLS * NUM_VALUES, "opponent's face-up cards: one-hot col * 10 + value"),
    ("opponent_card_status", COLS * 4, "opponent's card per column: one-hot status"),
)
COUNT_FEATURES = (
    ("own_to_arrange", "own shown cards not yet arranged (setup), count per value / 3"),
    ("own_shown", "own six cards shown at setup, count per value / 3"),
    ("opponent_shown", "opponent's six cards shown at setup, count per value / 3"),
    ("opponent_unseen_shown", "opponent's shown cards not seen since, count per value / 3"),
    ("own_discard", "own discard pile, count per value / 3"),
    ("opponent_discard", "opponent's discard pile, count per value / 3"),
)
TABLE_FEATURES = (
    ("lost_discs", 2, "own, opponent's lost discs / 6"),
    ("deck_sizes", 2, "own, opponent's deck size / 27"),
    ("seat", 2, "one-hot: the observer is Silver, Bronze"),
    ("phase", 4, "one-hot: arrange cards, move, Tuuri decision, swap two cards"),
    ("to_move", 1, "1 if the observer decides now"),
    ("first_turn", 2, "own, opponent's first turn still to come (KV-3.2)"),
    ("turns", 1, "turns played / turn limit"),
)
PENDING_FEATURES = (
    ("pending_from", NUM_SQUARES, "during the own Tuuri decision: one-hot square the disc leaves"),
    ("pending_to", NUM_SQUARES, "during the own Tuuri decision: one-hot square the disc enters"),
)


def flat_layout() -> list[tuple[str, slice, str]]:
    """(feature, slice, meaning) for every part of the flat vector: the table of
    docs/games/kaleva.md."""
    parts = [*BOARD_FEATURES, *SLOT_FEATURES]
    parts += [(name, NUM_VALUES, meaning) for name, meaning in COUNT_FEATURES]
    parts += [*TABLE_FEATURES, *PENDING_FEATURES]
    return stack_layout(parts)


LAYOUT = {name: part for name, part, _ in flat_layout()}
FLAT_SIZE = flat_layout()[-1][1].stop
COUNTS_START = LAYOUT["own_to_arrange"].start
TABLE_START = LAYOUT["lost_discs"].start
TABLE_SIZE = sum(size for _, size, _ in TABLE_FEATURES)
FACE_UP, UNSEEN_SHOWN, DRAWN = 1, 2, 3
OPPONENT_DISCS = LAYOUT["opponent_discs"].start
OWN_CARDS, OWN_STATUS = LAYOUT["own_cards"].start, LAYOUT["own_card_status"].start
OPPONENT_CARDS = LAYOUT["opponent_cards"].start
OPPONENT_STATUS = LAYOUT["opponent_card_status"].start
COUNT_OFFSETS = tuple(LAYOUT[name].start for name, _ in COUNT_FEATURES)
PENDING_FROM, PENDING_TO = LAYOUT["pending_from"].start, LAYOUT["pending_to"].start
SCALE = np.ones(FLAT_SIZE, np.float32)
SCALE[COUNTS_START:TABLE_START] = 1 / MAX_COPIES
"""Card counts are scaled to [0, 1]; flags stay 1."""
PHASE_ONE_HOT = {phase: [float(phase == p) for p in PHASES] for phase in PHASES}


def slot_status(state: KalevaState, player: int, col: int) -> int:
    """Index into SLOT_STATUSES of ``player``'s card on ``col``."""
    if state.slots[player][col] == EMPTY:
        return 0
    return _status(state.revealed[player][col], state.origin[player][col])


def _status(face_up: bool, origin: int) -> int:
    """SLOT_STATUSES index of a filled slot."""
    if face_up:
        return FACE_UP
    return UNSEEN_SHOWN if origin == ORIGINAL else DRAWN


def count_lists(state: KalevaState, player: int) -> tuple[list[int], ...]:
    """The card lists behind COUNT_FEATURES, in order."""
    opponent = 1 - player
    return (
        state.unplaced[player],
        state.shown[player],
        state.shown[opponent],
        state.unseen_shown_cards(opponent),
        state.discards[player],
        state.discards[opponent],
    )


def table_features(state: KalevaState, player: int) -> list[float]:
    """TABLE_FEATURES of ``player``'s view, in order."""
    opponent = 1 - player
    shown_phase = MOVE if state.pause_hidden_from(player) else state.phase
    phase = PHASE_ONE_HOT.get(shown_phase, [0.0] * len(PHASES))
    deciding = state.phase in PHASES and state.player == player
    return [
        state.lost[player] / DISCS_PER_PLAYER,
        state.lost[opponent] / DISCS_PER_PLAYER,
        len(state.decks[player]) / DECK_SIZE,
        len(state.decks[opponent]) / DECK_SIZE,
        float(player == 0),
        float(player == 1),
        *phase,
        float(deciding),
        float(state.turns_taken[player] == 0),
        float(state.turns_taken[opponent] == 0),
        state.plies / state.game.turn_limit,
    ]


class FlatEncoder:
    """One float32 vector of ``FLAT_SIZE``; slices documented by ``flat_layout()``."""

    name = "flat"
    version = 1

    def shape(self, game: KalevaGame) -> tuple[int, ...]:
        return (FLAT_SIZE,)

    def encode(self, state: KalevaState, player: int) -> np.ndarray:
        """One bincount over the indices of every set flag and counted card (kept lean:
        it runs on every env step), then the counts scaled and the table written."""
        opponent = 1 - player
        hot = [
            square if disc == player else OPPONENT_DISCS + square
            for square, disc in enumerate(state.board)
            if disc != EMPTY
        ]
        own, opp = state.slots[player], state.slots[opponent]
        own_seen, opp_seen = state.revealed[player], state.revealed[opponent]
        own_origin, opp_origin = state.origin[player], state.origin[opponent]
        for col in range(COLS):  # _status inlined: this loop runs on every env step
            status = OWN_STATUS + col * 4
            if own[col] == EMPTY:
                hot.append(status)
            else:
                hot.append(OWN_CARDS + col * NUM_VALUES + own[col])
                if own_seen[col]:
                    hot.append(status + FACE_UP)
                else:
                    hot.append(status + (UNSEEN_SHOWN if own_origin[col] == ORIGINAL else DRAWN))
            status = OPPONENT_STATUS + col * 4
            if opp[col] == EMPTY:
                hot.append(status)
            elif opp_seen[col]:
                hot.append(status + FACE_UP)
                hot.append(OPPONENT_CARDS + col * NUM_VALUES + opp[col])
            else:
                hot.append(status + (UNSEEN_SHOWN if opp_origin[col] == ORIGINAL else DRAWN))
        for offset, cards in zip(COUNT_OFFSETS, count_lists(state, player), strict=True):
            hot.extend(map(offset.__add__, cards))
        if state.pending is not None and not state.pause_hidden_from(player):
            hot.append(PENDING_FROM + state.pending[0])
            hot.append(PENDING_TO + state.pending[1])
        indices = np.fromiter(hot, np.intp, len(hot))
        out = np.multiply(np.bincount(indices, minlength=FLAT_SIZE), SCALE, dtype=np.float32)
        out[TABLE_START : TABLE_START + TABLE_SIZE] = table_features(state, player)
        return out


def _counts(state: KalevaState, player: int) -> np.ndarray:
    counts = [np.bincount(cards, minlength=NUM_VALUES) for cards in count_lists(state, player)]
    return np.concatenate(counts) / MAX_COPIES


# Entity encoder: a row per square, a row per card slot, then table rows.
ROW_TYPES = ("square", "card slot", "table")
SQUARE_WIDTH = 2 + 5 + COLS + 2  # own/opponent disc, row and column one-hot, pending from/to
SLOT_WIDTH = 1 + COLS + NUM_VALUES + len(SLOT_STATUSES)  # is own, column, value, status
ENTITY_WIDTH = len(ROW_TYPES) + max(SQUARE_WIDTH, SLOT_WIDTH)
ENTITY_TABLE_SIZE = len(COUNT_FEATURES) * NUM_VALUES + TABLE_SIZE
TABLE_ROWS = -(-ENTITY_TABLE_SIZE // ENTITY_WIDTH)
SLOT_ROWS = 2 * COLS
ENTITY_ROWS = NUM_SQUARES + SLOT_ROWS + TABLE_ROWS


def _static_rows() -> np.ndarray:
    rows = np.zeros((ENTITY_ROWS, ENTITY_WIDTH), dtype=np.float32)
    types = len(ROW_TYPES)
    for square in range(NUM_SQUARES):
        rows[square, 0] = 1.0
        rows[square, types + 2 + square // COLS] = 1.0
        rows[square, types + 7 + square % COLS] = 1.0
    for index in range(SLOT_ROWS):
        rows[NUM_SQUARES + index, 1] = 1.0
        rows[NUM_SQUARES + index, types] = float(index < COLS)
        rows[NUM_SQUARES + index, types + 1 + index % COLS] = 1.0
    rows[NUM_SQUARES + SLOT_ROWS :, 2] = 1.0
    return rows


STATIC_ROWS = _static_rows()
TABLE_WIDTH = ENTITY_WIDTH - len(ROW_TYPES)


class EntityEncoder:
    """Rows 0-29: squares (type one-hot, own disc, opponent disc, row and column one-hot,
    pending from/to); rows 30-41: card slots, own columns a-f then the opponent's (type,
    is own, column one-hot, value one-hot if known to the observer, status one-hot); the last
    rows: COUNT_FEATURES then TABLE_FEATURES flattened after the type one-hot, zero-padded."""

    name = "entity"
    version = 1

    def shape(self, game: KalevaGame) -> tuple[int, ...]:
        return (ENTITY_ROWS, ENTITY_WIDTH)

    def encode(self, state: KalevaState, player: int) -> np.ndarray:
        out = STATIC_ROWS.copy()
        types, opponent = len(ROW_TYPES), 1 - player
        for square, disc in enumerate(state.board):
            if disc != EMPTY:
                out[square, types + (disc != player)] = 1.0
        if state.pending is not None and not state.pause_hidden_from(player):
            out[state.pending[0], types + 13] = 1.0
            out[state.pending[1], types + 14] = 1.0
        value_at, status_at = types + 1 + COLS, types + 1 + COLS + NUM_VALUES
        for index in range(SLOT_ROWS):
            owner, col = (player, index) if index < COLS else (opponent, index - COLS)
            row = NUM_SQUARES + index
            status = slot_status(state, owner, col)
            out[row, status_at + status] = 1.0
            if status and (owner == player or status == FACE_UP):
                out[row, value_at + state.slots[owner][col]] = 1.0
        table = np.zeros(TABLE_ROWS * TABLE_WIDTH, dtype=np.float32)
        counts = len(COUNT_FEATURES) * NUM_VALUES
        table[:counts] = _counts(state, player)
        table[counts:ENTITY_TABLE_SIZE] = table_features(state, player)
        out[NUM_SQUARES + SLOT_ROWS :, types:] = table.reshape(TABLE_ROWS, TABLE_WIDTH)
        return out


ENCODERS = {"flat": FlatEncoder(), "entity": EntityEncoder()}
