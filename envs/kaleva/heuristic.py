"""A rule-based Kaleva player that plays like a sensible beginner.

It races its discs to the enemy shield, attacks only when its card is sure not to lose
(its card beats or ties the best card the defender may hold), steps threatened discs out of
reach and avoids squares where a likely stronger enemy card can hit them, blocks an enemy disc
about to enter its shield, spends Tuuri to look at the column it is about to attack, and
after losing a disc moves its strongest card behind its most advanced disc (a face-down one
rather than an equal face-up one, which the enemy knows).

It reads only what its player sees (own cards, face-up enemy cards, public origins of the
face-down ones, discard piles, discs), which the tests check by resampling hidden information
and asking again.
"""

from __future__ import annotations

from typing import NamedTuple

from tabletop.envs.kaleva.board import (
    COL_OF,
    COLS,
    COPIES_PER_VALUE,
    CORNERS,
    FORWARD,
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
        return TurnScorer(state, player).best(legal)


# ----- what the player knows about the enemy's cards ------------------------------------------


class EnemyEstimate:
    """Per enemy column, from what ``player`` knows (KV-7.2): the best card it may hold (what
    a sure attack must beat) and the mean of its possible cards (how likely it is to win a
    fight). A face-up card is known; a face-down card shown at setup is one of the shown cards
    not seen since; a card drawn later is one of the cards never seen. Counts per value keep
    it cheap: it is worked out at every decision of every search rollout."""

    __slots__ = ("best", "likely")

    def __init__(self, state: KalevaState, player: int) -> None:
        enemy = 1 - player
        slots, origin, revealed = state.slots[enemy], state.origin[enemy], state.revealed[enemy]
        unseen_shown = state.unseen_shown_cards(enemy)
        shown_best = max(unseen_shown, default=9)
        shown_likely = sum(unseen_shown) / len(unseen_shown) if unseen_shown else 4.5
        drawn_later: tuple[int, float] | None = None
        self.best: list[int] = []
        self.likely: list[float] = []
        for col in range(COLS):
            if revealed[col]:
                best = likely = slots[col]
            elif origin[col] == ORIGINAL:
                best, likely = shown_best, shown_likely
            else:
                if drawn_later is None:
                    drawn_later = _never_seen(state, enemy, unseen_shown)
                best, likely = drawn_later
            self.best.append(best)
            self.likely.append(likely)


def _never_seen(state: KalevaState, enemy: int, unseen_shown: list[int]) -> tuple[int, float]:
    """Best and mean of the enemy cards never seen: the deck minus discards, unseen shown
    and face-up cards."""
    counts = list(COPIES_PER_VALUE)
    for card in state.discards[enemy]:
        counts[card] -= 1
    for card in unseen_shown:
        counts[card] -= 1
    slots, revealed = state.slots[enemy], state.revealed[enemy]
    for col in range(COLS):
        if revealed[col]:
            counts[slots[col]] -= 1
    total = sum(counts)
    if not total:
        return 9, 4.5
    best = max(value for value, count in enumerate(counts) if count)
    return best, sum(value * count for value, count in enumerate(counts)) / total


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
    """The strongest card behind the most advanced disc, if it is not there already; of
    equal cards a face-down one, so that the enemy cannot tell whether its attack is safe
    (KV-4.4: the face-up mark moves with its card)."""
    squares = [sq for sq, disc in enumerate(state.board) if disc == player]
    movable = [sq for sq in squares if not state.is_frozen(sq)]
    if not movable:
        return NO_SWAP
    lead = min(movable, key=lambda sq: (_distance(player, sq), sq))
    cards, face_up = state.slots[player], state.revealed[player]

    def strength(col: int) -> tuple[int, bool]:
        return cards[col], not face_up[col]

    strongest = max(range(COLS), key=lambda col: (*strength(col), -col))
    lead_col = COL_OF[lead]
    if strength(strongest) <= strength(lead_col):
        return NO_SWAP
    action = SWAP_ACTION[(min(strongest, lead_col), max(strongest, lead_col))]
    return action if action in legal else NO_SWAP


# ----- a turn ---------------------------------------------------------------------------------


def _distance(player: int, square: int) -> int:
    """Rows still to go to the enemy shield."""
    return abs(HOME_ROW[1 - player] - ROW_OF[square])


class MoveFacts(NamedTuple):
    """What a move means for its player, whatever the position (built once, per player)."""

    frm: int
    to: int
    enters: bool
    """``to`` is on the enemy shield row."""
    progress: float
    """ENTER_SHIELD when entering, else PROGRESS per row gained."""
    ahead: int
    """When ``to`` is on the own shield row: the square in front of it, from which an enemy
    disc would enter; otherwise -1."""


def _move_facts(player: int) -> tuple[MoveFacts, ...]:
    facts = []
    for frm, to in MOVES:
        enters = ROW_OF[to] == HOME_ROW[1 - player]
        gain = _distance(player, frm) - _distance(player, to)
        ahead = to + FORWARD[player] * COLS if ROW_OF[to] == HOME_ROW[player] else -1
        facts.append(MoveFacts(frm, to, enters, ENTER_SHIELD if enters else PROGRESS * gain, ahead))
    return tuple(facts)


MOVE_FACTS = (_move_facts(0), _move_facts(1))


class TurnScorer:
    """Scores each move and disc return of one turn. What the scores share is worked out
    once per turn: the enemy estimate, whether entering the shield wins, and which squares
    an enemy disc threatens (the heuristic also plays every rollout of a search)."""

    def __init__(self, state: KalevaState, player: int) -> None:
        self.state = state
        self.player = player
        self.opponent = 1 - player
        self.enemy = EnemyEstimate(state, player)
        self.entering_wins = state.discs_in_shield(player) + 1 >= SHIELD_WIN
        self.threatened = self._threatened_squares()

    def best(self, legal: list[int]) -> int:
        """The highest-scoring of ``legal``; ties go to the lowest action id."""
        best_action, best_score = legal[0], self.score(legal[0])
        for action in legal[1:]:
            score = self.score(action)
            if score > best_score or (score == best_score and action < best_action):
                best_action, best_score = action, score
        return best_action

    def score(self, action: int) -> float:
        if action >= RETURN_BASE:
            corner = CORNERS[action - RETURN_BASE]
            return RETURN_DISC + (EXPOSED if self.threatened[corner] else 0.0)
        frm, to, enters, progress, ahead = MOVE_FACTS[self.player][action - MOVE_BASE]
        board = self.state.board
        if board[to] == self.opponent:
            safe = self.state.slots[self.player][COL_OF[frm]] >= self.enemy.best[COL_OF[to]]
            if not safe:
                return UNSAFE_ATTACK
            return WIN if enters and self.entering_wins else SAFE_ATTACK + progress
        if enters and self.entering_wins:
            return WIN
        score = progress
        if not enters and self.threatened[to]:
            score += EXPOSED
        if self.threatened[frm]:
            score += ESCAPE
        if ahead >= 0 and board[ahead] == self.opponent:
            score += BLOCK  # blocks an enemy disc about to enter our shield row
        return score

    def _threatened_squares(self) -> list[bool]:
        """Per square: an enemy disc next to it would likely beat our card on its column.
        Our discs on the enemy shield row cannot be attacked, and enemy discs frozen in our
        shield row never attack."""
        player, opponent, board = self.player, self.opponent, self.state.board
        likely = self.enemy.likely
        strongest = [-1.0] * NUM_SQUARES  # the likeliest-strong enemy card next to a square
        for attacker, disc in enumerate(board):
            if disc != opponent or ROW_OF[attacker] == HOME_ROW[player]:
                continue
            strength = likely[COL_OF[attacker]]
            for square in NEIGHBOURS[attacker]:
                if strength > strongest[square]:
                    strongest[square] = strength
        cards, enemy_row = self.state.slots[player], HOME_ROW[opponent]
        return [
            ROW_OF[square] != enemy_row and strongest[square] > cards[COL_OF[square]]
            for square in range(NUM_SQUARES)
        ]
