"""Kaleva's board, cards and the fixed action space built on them (KV-1).

Squares are ints ``row * 6 + col``; rows count from Silver's side (row 0 is Silver's shield,
row 4 Bronze's, KV-1.2) and are written like chess squares, column letter then row digit:
``a0`` … ``f4``. Columns on their own (card slots) are the letters ``a`` … ``f``. A card is
its value 0-9: copies of a value are indistinguishable, so nothing needs a card id.
"""

from __future__ import annotations

SILVER, BRONZE = 0, 1
PLAYER_NAMES = ("Silver", "Bronze")
ROWS, COLS = 5, 6
NUM_SQUARES = ROWS * COLS
DISCS_PER_PLAYER = 6
SHIELD_WIN = 3
"""Discs a player needs on the opponent's shield row to win (KV-6.1)."""

HOME_ROW = (0, ROWS - 1)
"""Each player's own shield row, the one the opponent attacks (KV-1.2)."""
FORWARD = (1, -1)
"""Row step of a forward move for each player."""

CARD_NAMES = (
    "Tuuri",
    "Terna",
    "Kullervo",
    "Aino",
    "Louhi",
    "Kauko",
    "Väinö",
    "Ahti",
    "Kokko",
    "Ukko",
)
"""Card name by value (KV-1.3)."""
TUURI, TERNA = 0, 1
NUM_VALUES = len(CARD_NAMES)
COPIES_PER_VALUE = (2, 2, 3, 3, 3, 3, 3, 3, 3, 2)
"""KV-1.3 [decision]: copies of each value 0-9 in each player's 27-card deck."""
DECK_SIZE = sum(COPIES_PER_VALUE)
FULL_DECK = tuple(value for value, copies in enumerate(COPIES_PER_VALUE) for _ in range(copies))

COLUMN_LETTERS = "abcdef"
ROW_OF = tuple(square // COLS for square in range(NUM_SQUARES))
COL_OF = tuple(square % COLS for square in range(NUM_SQUARES))


SQUARE_NAMES = tuple(f"{COLUMN_LETTERS[COL_OF[sq]]}{ROW_OF[sq]}" for sq in range(NUM_SQUARES))
SQUARE_BY_NAME = {name: square for square, name in enumerate(SQUARE_NAMES)}


def square_name(square: int) -> str:
    return SQUARE_NAMES[square]


def parse_square(text: str) -> int | None:
    """``"b1"`` -> its square, or None if ``text`` names no square."""
    return SQUARE_BY_NAME.get(text)


def parse_column(text: str) -> int | None:
    return COLUMN_LETTERS.index(text) if len(text) == 1 and text in COLUMN_LETTERS else None


def card_text(value: int) -> str:
    """How moves, events and the board write a card: its value, the number fights compare
    (the names are in ``CARD_NAMES`` and the help text)."""
    return str(value)


def parse_card(text: str) -> int | None:
    """A card value from its value ``"7"`` or its name, case-insensitive (``Vaino`` also
    names Väinö)."""
    word = text.strip().lower().replace("ä", "a").replace("ö", "o")
    if len(word) == 1 and word.isascii() and word.isdigit():  # "²" is a digit to isdigit()
        return int(word)
    for value, name in enumerate(CARD_NAMES):
        if word == name.lower().replace("ä", "a").replace("ö", "o"):
            return value
    return None


# ----- the action space: 295 ids, the same for both players -----------------------------------


def _adjacent_pairs() -> list[tuple[int, int]]:
    pairs = []
    for square in range(NUM_SQUARES):
        row, col = ROW_OF[square], COL_OF[square]
        for target in range(NUM_SQUARES):
            near = max(abs(ROW_OF[target] - row), abs(COL_OF[target] - col)) == 1
            if near:
                pairs.append((square, target))
    return pairs


PLACE_BASE = 0
"""Setup (KV-2.2): ``PLACE_BASE + value * 6 + column`` lays card ``value`` on ``column``."""
MOVE_BASE = PLACE_BASE + NUM_VALUES * COLS
MOVES: tuple[tuple[int, int], ...] = tuple(_adjacent_pairs())
"""(from, to) of each one-square move, sorted; ``MOVE_BASE + index`` is its action id."""
MOVE_ACTION: dict[tuple[int, int], int] = {pair: MOVE_BASE + i for i, pair in enumerate(MOVES)}
RETURN_BASE = MOVE_BASE + len(MOVES)
CORNERS = (0, COLS - 1, NUM_SQUARES - COLS, NUM_SQUARES - 1)
"""Squares a lost disc may return to (KV-5.1): a0, f0 (Silver's), a4, f4 (Bronze's)."""
RETURN_ACTION = {corner: RETURN_BASE + i for i, corner in enumerate(CORNERS)}
TUURI_BASE = RETURN_BASE + len(CORNERS)
"""KV-4.7: ``TUURI_BASE + own_column * 6 + opponent_column`` spends the Tuuri lying on
``own_column`` to reveal the opponent's card on ``opponent_column``."""
KEEP_TUURI = TUURI_BASE + COLS * COLS
SWAP_PAIRS: tuple[tuple[int, int], ...] = tuple(
    (i, j) for i in range(COLS) for j in range(i + 1, COLS)
)
SWAP_BASE = KEEP_TUURI + 1
"""KV-4.4: ``SWAP_BASE + index`` swaps the cards of the columns ``SWAP_PAIRS[index]``."""
SWAP_ACTION = {pair: SWAP_BASE + i for i, pair in enumerate(SWAP_PAIRS)}
NO_SWAP = SWAP_BASE + len(SWAP_PAIRS)
NUM_ACTIONS = NO_SWAP + 1


def place_action(value: int, column: int) -> int:
    return PLACE_BASE + value * COLS + column


def tuuri_action(own_column: int, opponent_column: int) -> int:
    return TUURI_BASE + own_column * COLS + opponent_column
