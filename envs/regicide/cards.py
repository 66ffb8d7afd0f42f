"""Regicide's 54 cards (RG-1.1) and the fixed action space built on them.

A card is an int: ``suit * 13 + rank - 1`` for the 52 standard cards (rank 1 = Ace,
11/12/13 = J/Q/K; suits ♠♥♦♣ = 0..3) and 52, 53 for the two jesters. The two jesters are
indistinguishable in play, so actions and encoders use the card's *kind*: the card id,
except that both jesters are kind 52 (``JESTER``).
"""

from __future__ import annotations

from itertools import combinations

SPADES, HEARTS, DIAMONDS, CLUBS = range(4)
SUIT_LETTERS = "SHDC"
SUIT_SYMBOLS = "♠♥♦♣"
RANK_NAMES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
JACK, QUEEN, KING = 11, 12, 13

NUM_CARDS = 54
JESTER = 52
"""Kind (and id) of the first jester; the second jester is card 53 of the same kind."""
NUM_KINDS = 53

ENEMY_ATTACK = {JACK: 10, QUEEN: 15, KING: 20}  # RG-1.6
ENEMY_HEALTH = {JACK: 20, QUEEN: 30, KING: 40}  # RG-1.6
FACE_VALUE = {JACK: 10, QUEEN: 15, KING: 20}  # RG-1.5 / RG-6.2: captured enemies in hand


def card_id(rank: int, suit: int) -> int:
    return suit * 13 + rank - 1


def _rank(card: int) -> int:
    return 0 if card >= JESTER else card % 13 + 1


def _value(card: int) -> int:
    rank = _rank(card)
    return FACE_VALUE.get(rank, rank)  # RG-1.5: Ace 1, 2-10 face value, jester 0


RANK: tuple[int, ...] = tuple(_rank(c) for c in range(NUM_CARDS))
SUIT: tuple[int, ...] = tuple(-1 if c >= JESTER else c // 13 for c in range(NUM_CARDS))
VALUE: tuple[int, ...] = tuple(_value(c) for c in range(NUM_CARDS))
KIND: tuple[int, ...] = tuple(min(c, JESTER) for c in range(NUM_CARDS))
IS_ACE: tuple[bool, ...] = tuple(RANK[c] == 1 for c in range(NUM_CARDS))


def card_name(card: int) -> str:
    """``"5H"``, ``"10S"``, ``"KC"``; ``"jester"`` for either jester."""
    if card >= JESTER:
        return "jester"
    return RANK_NAMES[RANK[card] - 1] + SUIT_LETTERS[SUIT[card]]


def parse_card(text: str) -> int:
    """The card kind named by ``text`` (``"5H"``, ``"5♥"``, ``"jester"``); ValueError if none."""
    word = text.strip().upper()
    if word in ("JESTER", "JOKER"):
        return JESTER
    rank_text, suit_text = word[:-1], word[-1:]
    suit_index = (SUIT_LETTERS + SUIT_SYMBOLS).find(suit_text)
    if rank_text not in RANK_NAMES or suit_index < 0:
        raise ValueError(f"not a Regicide card: {text!r} (write e.g. 5H, 10S, AC, KD or jester)")
    return card_id(RANK_NAMES.index(rank_text) + 1, suit_index % 4)


def _enumerate_plays() -> tuple[tuple[int, ...], ...]:
    """Every card combination RG-3 allows, as sorted tuples of kinds."""
    singles = [(kind,) for kind in range(NUM_KINDS)]
    aces = [card_id(1, suit) for suit in range(4)]
    # RG-3.1: an Ace with exactly one other non-jester card (another Ace included).
    companions = sorted(
        {tuple(sorted((ace, other))) for ace in aces for other in range(JESTER) if other != ace}
    )
    # RG-3.2: 2-4 cards of one rank (2..10) totalling at most 10; no Ace in a set.
    sets = [
        tuple(card_id(rank, suit) for suit in suits)
        for rank in range(2, 11)
        for size in range(2, 5)
        if rank * size <= 10
        for suits in combinations(range(4), size)
    ]
    return tuple(singles + companions + sets)


PLAYS: tuple[tuple[int, ...], ...] = _enumerate_plays()

# Action ids: yield, every play, every discard kind, done, flip a solo jester, choose next.
MAX_PLAYERS = 4
YIELD = 0
PLAY_BASE = 1
DISCARD_BASE = PLAY_BASE + len(PLAYS)
DONE = DISCARD_BASE + NUM_KINDS
FLIP = DONE + 1
NEXT_BASE = FLIP + 1
NUM_ACTIONS = NEXT_BASE + MAX_PLAYERS


def kinds_mask(kinds: tuple[int, ...] | list[int]) -> int:
    mask = 0
    for kind in kinds:
        mask |= 1 << kind
    return mask


PLAY_ACTION: dict[int, int] = {kinds_mask(p): PLAY_BASE + i for i, p in enumerate(PLAYS)}
"""Bitmask of the kinds in a play -> its action id."""
