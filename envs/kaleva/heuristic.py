"""A rule-based Kaleva player that plays like a sensible beginner.

It races its discs to the enemy shield, attacks only when its card is sure not to lose
(its card beats or ties the best card the defender may hold), steps threatened discs out of
reach and avoids squares where a likely stronger enemy card can hit them, blocks an enemy disc
about to enter its shield, spends Tuuri to look at the column it is about to attack, and
after losing a disc moves its strongest card behind its most advanced disc.

It reads only what its player sees (own cards, face-up enemy cards, public origins of the
face-down ones, discard piles, discs), which the tests check by resampling hidden information
and asking again.
"""

from __future__ import annotations

from collections import Counter

from tabletop.envs.kaleva.board import (
    COL_OF,
    COLS,
    CORNERS,
    FORWARD,
    FULL_DECK,
    HOME_ROW,
    KEEP_TUURI,
    MOVE_BASE,
    MOVES,
    NO_SWAP,
    NUM_SQUARES,
    RETURN_BASE,
    ROW_OF,
    SHIELD_WIN,
    SWAP_ACTION,
    TUURI,
    TUURI_BASE,
    place_action,
)
from tabletop.envs.kaleva.engine import ORIGINAL, SETUP, SWAP, TUURI_CHOICE, KalevaState

COLUMN_PRIORITY = (2, 3, 1, 4, 0, 5)
"""Where the strongest cards go at setup: the centre columns see the most fights."""
NEIGHBOURS = tuple(tuple(to for frm, to in MOVES if frm == square) for square in range(NUM_SQUARES))

WIN = 1000.0
ENTER_SHIELD = 60.0
SAFE_ATTACK = 25.0
UNSAFE_ATTACK = -30.0
PROGRESS = 3.0
ESCAPE = 6.0
EXPOSED = -8.0
BLOCK = 12.0
RETURN_DISC = 4.0


class KalevaHeuristic:
    """Baseline agent (``act(state, player) -> action``); deterministic."""

    def reset(self) -> None:
        """Stateless between games."""

    def act(self, state: KalevaState, player: int) -> int:
        legal = state.legal_actions()
        if state.phase == SETUP:
            return _arrange(state, player)
        if state.phase == TUURI_CHOICE:
            return _tuuri(state, player, legal)
        if state.phase == SWAP:
            return _swap(state, player, legal)
        scorer = TurnScorer(state, player)
        return max(legal, key=lambda action: (scorer.score(action), -action))


# ----- what the player knows about the enemy's cards ------------------------------------------


def possible_cards(state: KalevaState, player: int) -> list[list[int]]:
    """Per column, the values the enemy card there may have, as ``player`` knows (KV-7.2).
    Computed for all columns at once: face-down cards drawn later share one candidate list."""
    enemy = 1 - player
    slots, origin, revealed = state.slots[enemy], state.origin[enemy], state.revealed[enemy]
    unseen_shown = state.unseen_shown_cards(enemy)
    drawn_later: list[int] | None = None
    per_column = []
    for col in range(COLS):
        if revealed[col]:
            per_column.append([slots[col]])
        elif origin[col] == ORIGINAL:
            per_column.append(unseen_shown)
        else:
            if drawn_later is None:
                drawn_later = _unknown_rest(state, enemy, unseen_shown)
            per_column.append(drawn_later)
    return per_column


def _unknown_rest(state: KalevaState, enemy: int, unseen_shown: list[int]) -> list[int]:
    """The enemy cards never seen: the deck minus discards, unseen shown and revealed cards."""
    rest = Counter(FULL_DECK)
    rest.subtract(state.discards[enemy])
    rest.subtract(unseen_shown)
    rest.subtract(state.slots[enemy][c] for c in range(COLS) if state.revealed[enemy][c])
    return sorted(rest.elements())


class EnemyEstimate:
    """Per enemy column: the best card it may hold (what a sure attack must beat) and the
    mean of its possible cards (how likely it is to win a fight)."""

    __slots__ = ("best", "likely")

    def __init__(self, state: KalevaState, player: int) -> None:
        columns = possible_cards(state, player)
        self.best = [max(cards, default=9) for cards in columns]
        self.likely = [sum(cards) / len(cards) if cards else 4.5 for cards in columns]


# ----- setup, Tuuri and swaps ----------------------------------------------------------------


def _arrange(state: KalevaState, player: int) -> int:
    """Strongest cards on the centre columns (COLUMN_PRIORITY), filled from column a on."""
    col = COLS - len(state.unplaced[player])
    remaining = sorted(range(col, COLS), key=COLUMN_PRIORITY.index)
    cards = sorted(state.unplaced[player], reverse=True)
    return place_action(cards[remaining.index(col)], col)


def _tuuri(state: KalevaState, player: int, legal: list[int]) -> int:
    """Reveal the enemy card of the column the moved disc will attack next, if any; a Tuuri
    about to fight anyway is always used."""
    assert state.pending is not None
    frm, to = state.pending
    reveals = [a for a in legal if a != KEEP_TUURI]
    attacking = state.board[to] == 1 - player
    fighting_tuuri = attacking and state.slots[player][COL_OF[frm]] == TUURI
    targets = _next_targets(state, player, to)
    for target_col in targets:
        for action in reveals:
            own, col = divmod(action - TUURI_BASE, COLS)
            if col == target_col and (not fighting_tuuri or own == COL_OF[frm]):
                return action
    if fighting_tuuri:
        return next(a for a in reveals if (a - TUURI_BASE) // COLS == COL_OF[frm])
    return KEEP_TUURI


def _next_targets(state: KalevaState, player: int, square: int) -> list[int]:
    """Columns of enemy discs next to ``square`` (nearest the enemy shield first), then the
    column straight ahead."""
    enemy, shield = 1 - player, HOME_ROW[1 - player]
    near = [to for to in NEIGHBOURS[square] if state.board[to] == enemy]
    near.sort(key=lambda sq: (abs(ROW_OF[sq] - shield), sq))
    return [COL_OF[sq] for sq in near] + [COL_OF[square]]


def _swap(state: KalevaState, player: int, legal: list[int]) -> int:
    """The strongest card behind the most advanced disc, if it is not there already."""
    squares = [sq for sq, disc in enumerate(state.board) if disc == player]
    movable = [sq for sq in squares if not state.is_frozen(sq)]
    if not movable:
        return NO_SWAP
    lead = min(movable, key=lambda sq: (_distance(player, sq), sq))
    cards = state.slots[player]
    strongest = max(range(COLS), key=lambda col: (cards[col], -col))
    lead_col = COL_OF[lead]
    if cards[strongest] <= cards[lead_col]:
        return NO_SWAP
    action = SWAP_ACTION[(min(strongest, lead_col), max(strongest, lead_col))]
    return action if action in legal else NO_SWAP


# ----- a turn ---------------------------------------------------------------------------------


def _distance(player: int, square: int) -> int:
    """Rows still to go to the enemy shield."""
    return abs(HOME_ROW[1 - player] - ROW_OF[square])


class TurnScorer:
    """Scores each move and disc return of one turn. What the scores share is worked out
    once per turn (the enemy estimate, whether entering the shield wins) or once per square
    (whether an enemy disc threatens it): the heuristic also plays every rollout of a search."""

    def __init__(self, state: KalevaState, player: int) -> None:
        self.state = state
        self.player = player
        self.opponent = 1 - player
        self.enemy = EnemyEstimate(state, player)
        self.entering_wins = state.discs_in_shield(player) + 1 >= SHIELD_WIN
        self._threatened: dict[int, bool] = {}

    def score(self, action: int) -> float:
        if action >= RETURN_BASE:
            corner = CORNERS[action - RETURN_BASE]
            return RETURN_DISC + (EXPOSED if self.threatened(corner) else 0.0)
        frm, to = MOVES[action - MOVE_BASE]
        player, board = self.player, self.state.board
        enters = ROW_OF[to] == HOME_ROW[self.opponent]
        attacks = board[to] == self.opponent
        progress = ENTER_SHIELD if enters else PROGRESS * _gain(player, frm, to)
        if attacks:
            safe = self.state.slots[player][COL_OF[frm]] >= self.enemy.best[COL_OF[to]]
            if not safe:
                return UNSAFE_ATTACK
            return WIN if enters and self.entering_wins else SAFE_ATTACK + progress
        if enters and self.entering_wins:
            return WIN
        score = progress
        if not enters and self.threatened(to):
            score += EXPOSED
        if self.threatened(frm):
            score += ESCAPE
        if _blocks_entry(self.state, player, to):
            score += BLOCK
        return score

    def threatened(self, square: int) -> bool:
        """An enemy disc next to ``square`` would likely beat our card on its column."""
        known = self._threatened.get(square)
        if known is None:
            known = self._threatened[square] = self._find_threat(square)
        return known

    def _find_threat(self, square: int) -> bool:
        player, opponent, board = self.player, self.opponent, self.state.board
        if ROW_OF[square] == HOME_ROW[opponent]:
            return False  # our discs on the enemy shield row cannot be attacked
        defence = self.state.slots[player][COL_OF[square]]
        likely = self.enemy.likely
        for attacker in NEIGHBOURS[square]:
            if board[attacker] != opponent or ROW_OF[attacker] == HOME_ROW[player]:
                continue  # not an enemy disc, or one frozen in our shield row (never attacks)
            if likely[COL_OF[attacker]] > defence:
                return True
        return False


def _gain(player: int, frm: int, to: int) -> int:
    return _distance(player, frm) - _distance(player, to)


def _blocks_entry(state: KalevaState, player: int, square: int) -> bool:
    """``square`` is on our shield row, straight in front of an enemy disc about to enter."""
    if ROW_OF[square] != HOME_ROW[player]:
        return False
    ahead = square + FORWARD[player] * COLS
    return state.board[ahead] == 1 - player
