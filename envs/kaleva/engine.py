"""Kaleva rules engine (shared/rules/kaleva.md, KV-1 … KV-7); pure Python.

Decisions, in order: Silver then Bronze arrange their six shown cards one column at a time
(KV-2.2); then players alternate turns, each a disc move or a disc return (KV-3, KV-5). A move
from or onto the column of the mover's own Tuuri is followed by the mover's Tuuri decision
(KV-4.7, before any fight); a fight in which a disc leaves the board is followed by its
loser's optional swap of two cards (KV-4.4). Decisions with a single legal action are taken
automatically, so an agent is only asked when it has a real choice.

Card knowledge (KV-7) is tracked per slot: whether the card is face up (revealed by the
opponent's Tuuri), and where it came from: one of the six cards shown at setup (``ORIGINAL``)
or drawn later from its owner's ``g``-th deck (``g`` counts reshuffles). The opponent sees
those origins, so ``resample_hidden`` only permutes cards that share one.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence

from tabletop.envs.core.engine import EngineState, copy_generator
from tabletop.envs.core.protocol import IllegalActionError, check_options
from tabletop.envs.kaleva.board import (
    BRONZE,
    CARD_NAMES,
    COL_OF,
    COLS,
    COLUMN_LETTERS,
    CORNERS,
    DISCS_PER_PLAYER,
    FORWARD,
    FULL_DECK,
    HOME_ROW,
    KEEP_TUURI,
    MOVE_ACTION,
    MOVE_BASE,
    MOVES,
    NO_SWAP,
    NUM_ACTIONS,
    NUM_SQUARES,
    PLACE_BASE,
    PLAYER_NAMES,
    RETURN_ACTION,
    RETURN_BASE,
    ROW_OF,
    ROWS,
    SHIELD_WIN,
    SILVER,
    SWAP_ACTION,
    SWAP_BASE,
    SWAP_PAIRS,
    TERNA,
    TUURI,
    TUURI_BASE,
    parse_card,
    parse_column,
    parse_square,
    place_action,
    square_name,
    tuuri_action,
)

SETUP, MOVE, TUURI_CHOICE, SWAP, OVER = range(5)
PHASE_NAMES = ("arrange cards", "move", "Tuuri decision", "swap two cards", "over")

EMPTY = -1
"""An empty square, or a slot not yet filled during setup."""
ORIGINAL = -1
"""Slot origin: one of the six cards its owner showed at setup (KV-2.1)."""
DEFAULT_TURN_LIMIT = 200
MAX_RESAMPLE_TRIES = 10_000


def _steps(player: int, first_turn: bool) -> tuple[tuple[tuple[int, int, int, int], ...], ...]:
    """Per square, the one-square steps a disc of ``player`` may try: (to, action id, and the
    two squares whose enemy discs block a diagonal (KV-3.5), or -1, -1 for straight steps).

    Steps already obey KV-3.2 (forward only on the first turn) and exception A (KV-3.4:
    the opponent's shield row only straight forward); occupancy is checked per position.
    """
    forward, target_row = FORWARD[player], HOME_ROW[1 - player]
    table = []
    for square in range(NUM_SQUARES):
        row, col = ROW_OF[square], COL_OF[square]
        steps = []
        for frm, to in MOVES:
            if frm != square:
                continue
            dr, dc = ROW_OF[to] - row, COL_OF[to] - col
            if first_turn and dr != forward:
                continue
            if ROW_OF[to] == target_row and (dr != forward or dc != 0):
                continue
            side, ahead = (row * COLS + col + dc, to - dc) if dr and dc else (-1, -1)
            steps.append((to, MOVE_ACTION[(frm, to)], side, ahead))
        table.append(tuple(steps))
    return tuple(table)


STEPS = tuple((_steps(p, first_turn=False), _steps(p, first_turn=True)) for p in (SILVER, BRONZE))
"""STEPS[player][is_first_turn][square]."""


class KalevaGame:
    """Configured Kaleva: two players, the turn limit of KV-6.3."""

    name = "kaleva"
    num_players = 2
    num_actions = NUM_ACTIONS
    OPTIONS = frozenset({"turn_limit"})

    def __init__(self, turn_limit: int = DEFAULT_TURN_LIMIT) -> None:
        if isinstance(turn_limit, bool) or not isinstance(turn_limit, int) or turn_limit < 1:
            raise ValueError(f"kaleva: turn_limit must be a positive int, got {turn_limit!r}")
        self.turn_limit = turn_limit

    @classmethod
    def from_options(cls, **options: object) -> KalevaGame:
        """Build from keyword options, rejecting unknown ones by name."""
        check_options("kaleva", options, set(cls.OPTIONS))
        return cls(**options)  # type: ignore[arg-type]

    def __repr__(self) -> str:
        return f"KalevaGame(turn_limit={self.turn_limit})"

    def new_state(self, seed: int | None = None) -> KalevaState:
        """Shuffled decks, six cards shown each (KV-2.1); Silver arranges first."""
        rng = random.Random(seed)
        decks = []
        for _ in (SILVER, BRONZE):
            deck = list(FULL_DECK)
            rng.shuffle(deck)
            decks.append(deck)
        return KalevaState(self, rng, decks)

    def stacked_state(
        self,
        *,
        silver: Iterable[str],
        bronze: Iterable[str],
        cards: Sequence[Sequence[int | str]],
        decks: Sequence[Sequence[int | str]] = ((), ()),
        discards: Sequence[Sequence[int | str]] = ((), ()),
        revealed: Sequence[Iterable[str]] = ((), ()),
        to_move: int = SILVER,
        first_turns_over: bool = True,
        seed: int = 0,
    ) -> KalevaState:
        """A position after setup, for tests and puzzles.

        ``silver``/``bronze`` list their discs' squares (``"b1"``; discs not placed are lost);
        ``cards[p]`` the six slot cards of player ``p`` by column (names or values);
        ``decks[p]`` the top cards of the deck, first drawn first, with the rest of the 27
        below in ascending order; ``discards[p]`` the discard piles; ``revealed[p]`` the
        columns (``"c"``) whose card ``p``'s opponent sees face up. Slot cards count as the
        six shown at setup. With ``first_turns_over`` false, both players are on their first
        turn (KV-3.2).
        """
        state = KalevaState(self, random.Random(seed), [list(FULL_DECK), list(FULL_DECK)])
        state.board = [EMPTY] * NUM_SQUARES
        for player, squares in ((SILVER, silver), (BRONZE, bronze)):
            state._stack_player(player, squares, cards[player], decks[player], discards[player])
            for letter in revealed[player]:
                state.revealed[player][_column(letter)] = True
        state.phase = MOVE
        state.player = state.mover = to_move
        state.turns_taken = [0, 0] if not first_turns_over else [1, 1]
        state.settle()
        return state


def _column(letter: str) -> int:
    column = parse_column(letter)
    if column is None:
        raise ValueError(f"kaleva: {letter!r} is not a column a-f")
    return column


def _card(card: int | str) -> int:
    value = parse_card(card) if isinstance(card, str) else card
    if value is None or not 0 <= value < len(CARD_NAMES):
        raise ValueError(f"kaleva: {card!r} is not a card name or value 0-9")
    return value


class KalevaState(EngineState):
    """One Kaleva position. Decks keep their top card last."""

    __slots__ = (
        "game",
        "rng",
        "board",
        "lost",
        "slots",
        "origin",
        "revealed",
        "unplaced",
        "shown",
        "decks",
        "deck_generation",
        "discards",
        "turns_taken",
        "plies",
        "fights",
        "phase",
        "player",
        "mover",
        "pending",
        "tuuri_fights",
        "winner",
        "_rewards",
        "_returns",
        "_legal",
    )

    def __init__(self, game: KalevaGame, rng: random.Random, decks: list[list[int]]) -> None:
        self.game = game
        self.rng = rng
        self.board = [EMPTY] * NUM_SQUARES
        for player in (SILVER, BRONZE):
            for col in range(COLS):
                self.board[HOME_ROW[player] * COLS + col] = player
        self.lost = [0, 0]
        self.slots = [[EMPTY] * COLS for _ in range(2)]
        self.origin = [[ORIGINAL] * COLS for _ in range(2)]
        self.revealed = [[False] * COLS for _ in range(2)]
        self.decks = decks
        self.unplaced = [[deck.pop() for _ in range(COLS)] for deck in decks]
        self.shown = [sorted(cards) for cards in self.unplaced]
        self.deck_generation = [0, 0]
        self.discards: list[list[int]] = [[], []]
        self.turns_taken = [0, 0]
        self.plies = 0
        self.fights = 0
        self.phase = SETUP
        self.player = self.mover = SILVER
        self.pending: tuple[int, int] | None = None
        self.tuuri_fights = False
        self.winner: int | None = None
        self._rewards = [0.0, 0.0]
        self._returns = [0.0, 0.0]
        self._legal: list[int] = []
        self.settle()

    def _stack_player(
        self,
        player: int,
        squares: Iterable[str],
        cards: Sequence[int | str],
        deck_top: Sequence[int | str],
        discard: Sequence[int | str],
    ) -> None:
        discs = 0
        for name in squares:
            square = parse_square(name)
            if square is None or self.board[square] != EMPTY:
                raise ValueError(f"kaleva: {name!r} is not a free square")
            self.board[square] = player
            discs += 1
        if discs > DISCS_PER_PLAYER:
            raise ValueError(f"kaleva: {PLAYER_NAMES[player]} has more than 6 discs")
        self.lost[player] = DISCS_PER_PLAYER - discs
        if len(cards) != COLS:
            raise ValueError(f"kaleva: {PLAYER_NAMES[player]} needs 6 slot cards")
        self.slots[player] = [_card(c) for c in cards]
        self.shown[player] = sorted(self.slots[player])
        self.unplaced[player] = []
        self.discards[player] = [_card(c) for c in discard]
        top = [_card(c) for c in deck_top]
        rest = Counter(FULL_DECK)
        rest.subtract([*self.slots[player], *self.discards[player], *top])
        if min(rest.values()) < 0:
            raise ValueError(f"kaleva: {PLAYER_NAMES[player]} uses more copies than the deck has")
        self.decks[player] = sorted(rest.elements(), reverse=True) + top[::-1]

    # ----- the protocol's read side -------------------------------------------------------

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def stats(self) -> dict[str, float]:
        return {
            "won_silver": float(self.winner == SILVER),
            "won_bronze": float(self.winner == BRONZE),
            "draw": float(self.phase == OVER and self.winner is None),
            "plies": float(self.plies),
            "fights": float(self.fights),
        }

    def cards_of(self, player: int) -> list[int]:
        """Every card of ``player``'s deck wherever it is: always the 27 of KV-1.3."""
        slots = [card for card in self.slots[player] if card != EMPTY]
        return [*self.decks[player], *slots, *self.discards[player], *self.unplaced[player]]

    def discs_in_shield(self, player: int) -> int:
        """``player``'s discs on the opponent's shield row (KV-6.1)."""
        start = HOME_ROW[1 - player] * COLS
        return self.board[start : start + COLS].count(player)

    def is_frozen(self, square: int) -> bool:
        """KV-3.6: a disc on the opponent's shield row neither moves nor can be attacked."""
        disc = self.board[square]
        return disc != EMPTY and ROW_OF[square] == HOME_ROW[1 - disc]

    def unseen_shown_cards(self, player: int) -> list[int]:
        """KV-7.2: the cards ``player`` showed at setup that the opponent has not seen since
        (neither in a fight nor revealed), sorted; during setup, all six."""
        slots, origin, revealed = self.slots[player], self.origin[player], self.revealed[player]
        cards = [
            slots[col]
            for col in range(COLS)
            if origin[col] == ORIGINAL and not revealed[col] and slots[col] != EMPTY
        ]
        return sorted(cards + self.unplaced[player])

    # ----- applying actions -----------------------------------------------------------------

    def _do(self, action: int) -> None:
        if action < MOVE_BASE:
            value, col = divmod(action - PLACE_BASE, COLS)
            self._place(value, col)
        elif action < RETURN_BASE:
            self._move(*MOVES[action - MOVE_BASE])
        elif action < TUURI_BASE:
            self._return_disc(CORNERS[action - RETURN_BASE])
        elif action < KEEP_TUURI:
            self._use_tuuri(*divmod(action - TUURI_BASE, COLS))
            self._resolve_move()
        elif action == KEEP_TUURI:
            self._resolve_move()
        elif action < NO_SWAP:
            self._swap_cards(*SWAP_PAIRS[action - SWAP_BASE])
        else:
            self._next_turn()

    def _no_legal_action(self) -> None:
        """KV-6.2: a player with no legal action loses (only a turn can be empty)."""
        self._finish(winner=1 - self.player)

    def _compute_legal(self) -> list[int]:
        if self.phase == MOVE:
            return self._legal_turn()
        if self.phase == SETUP:
            col = COLS - len(self.unplaced[self.player])
            return [place_action(value, col) for value in sorted(set(self.unplaced[self.player]))]
        if self.phase == TUURI_CHOICE:
            return self._legal_tuuri()
        if self.phase == SWAP:
            cards = self.slots[self.player]
            swaps = [SWAP_ACTION[(i, j)] for i, j in SWAP_PAIRS if cards[i] != cards[j]]
            return [*swaps, NO_SWAP]
        return []

    def _legal_turn(self) -> list[int]:
        """KV-3 moves in action-id order, then KV-5 returns."""
        player, board = self.player, self.board
        opponent, own_home = 1 - player, HOME_ROW[player]
        frozen_row = HOME_ROW[opponent]
        steps = STEPS[player][self.turns_taken[player] == 0]
        actions = []
        for square, disc in enumerate(board):
            if disc != player or ROW_OF[square] == frozen_row:
                continue
            for to, action, side, ahead in steps[square]:
                target = board[to]
                if target == player or (target == opponent and ROW_OF[to] == own_home):
                    continue  # KV-3.3; KV-3.6 (an enemy disc on our shield row is untouchable)
                if side >= 0 and board[side] == opponent and board[ahead] == opponent:
                    continue  # KV-3.5, exception B
                actions.append(action)
        if self.lost[player]:
            for corner in CORNERS:
                if ROW_OF[corner] == own_home and board[corner] == EMPTY:
                    actions.append(RETURN_ACTION[corner])
        return actions

    def _legal_tuuri(self) -> list[int]:
        """KV-4.7: a Tuuri on the column moved from or onto may reveal any face-down card
        of the opponent; or keep the Tuuri."""
        assert self.pending is not None
        frm, to = self.pending
        cards, hidden = self.slots[self.player], self.revealed[1 - self.player]
        own_columns = sorted({COL_OF[frm], COL_OF[to]})
        actions = [
            tuuri_action(own, col)
            for own in own_columns
            if cards[own] == TUURI
            for col in range(COLS)
            if not hidden[col]
        ]
        return [*actions, KEEP_TUURI]

    # ----- setup --------------------------------------------------------------------------------

    def _place(self, value: int, col: int) -> None:
        """KV-2.2: one card face down on the next column; Silver, then Bronze."""
        self.unplaced[self.player].remove(value)
        self.slots[self.player][col] = value
        if self.unplaced[self.player]:
            return
        if self.player == SILVER:
            self.player = BRONZE
        else:
            self.phase = MOVE
            self.player = self.mover = SILVER

    # ----- turns -------------------------------------------------------------------------------

    def _move(self, frm: int, to: int) -> None:
        self.pending = (frm, to)
        cards = self.slots[self.player]
        if TUURI in (cards[COL_OF[frm]], cards[COL_OF[to]]):
            self.phase = TUURI_CHOICE  # settled at once if no card is left to reveal
        else:
            self._resolve_move()

    def _use_tuuri(self, own_col: int, opponent_col: int) -> None:
        """KV-4.7 [decision]: the Tuuri is spent at once (discarded, its slot refilled); a
        Tuuri that was about to attack still fights, with value 0."""
        assert self.pending is not None
        frm, to = self.pending
        self.revealed[1 - self.player][opponent_col] = True
        self._discard_slot(self.player, own_col)
        attacking = self.board[to] == 1 - self.player
        self.tuuri_fights = attacking and own_col == COL_OF[frm]

    def _resolve_move(self) -> None:
        assert self.pending is not None
        frm, to = self.pending
        self.pending = None
        self.phase = MOVE
        if self.board[to] == EMPTY:
            self.board[to], self.board[frm] = self.player, EMPTY
            self._end_turn(loser=None)
        else:
            self._fight(frm, to)

    def _fight(self, frm: int, to: int) -> None:
        """KV-4.2 - KV-4.6: source-column card against target-column card."""
        attacker, defender = self.player, 1 - self.player
        src, dst = COL_OF[frm], COL_OF[to]
        attack = TUURI if self.tuuri_fights else self.slots[attacker][src]
        defence = self.slots[defender][dst]
        board = self.board
        self.fights += 1
        if defence == TERNA and attack > TERNA:  # KV-4.6: trickery, the discs swap places
            board[to], board[frm] = attacker, defender
            loser = None
        elif attack >= defence:  # KV-4.3: a tie goes to the attacker
            board[to], board[frm] = attacker, EMPTY
            loser = defender
        else:
            board[frm] = EMPTY
            loser = attacker
        if loser is not None:
            self.lost[loser] += 1
        if not self.tuuri_fights:  # a spent Tuuri is in the discard pile already
            self._discard_slot(attacker, src)
        self.tuuri_fights = False
        self._discard_slot(defender, dst)
        self._end_turn(loser)

    def _discard_slot(self, player: int, col: int) -> None:
        """KV-4.5: the used card to its owner's discard pile, the slot refilled at once."""
        self.discards[player].append(self.slots[player][col])
        deck = self.decks[player]
        if not deck:
            deck.extend(self.discards[player])
            self.discards[player].clear()
            self.rng.shuffle(deck)
            self.deck_generation[player] += 1
        self.slots[player][col] = deck.pop()
        self.origin[player][col] = self.deck_generation[player]
        self.revealed[player][col] = False

    def _return_disc(self, corner: int) -> None:
        """KV-5.1: a lost disc back onto a free corner of the mover's shield row."""
        self.board[corner] = self.player
        self.lost[self.player] -= 1
        self._end_turn(loser=None)

    def _end_turn(self, loser: int | None) -> None:
        """KV-6.1 wins, then the KV-6.3 limit, then the loser's KV-4.4 swap."""
        mover = self.mover
        self.turns_taken[mover] += 1
        self.plies += 1
        if self.discs_in_shield(mover) >= SHIELD_WIN:
            self._finish(winner=mover)
        elif self.discs_in_shield(1 - mover) >= SHIELD_WIN:  # a Terna swap moved it there
            self._finish(winner=1 - mover)
        elif self.plies >= self.game.turn_limit:
            self._finish(winner=None)
        elif loser is not None:
            self.phase = SWAP
            self.player = loser
        else:
            self._next_turn()

    def _swap_cards(self, first: int, second: int) -> None:
        """KV-4.4: the cards change columns with their knowledge (face up, origin)."""
        for row in (self.slots[self.player], self.origin[self.player], self.revealed[self.player]):
            row[first], row[second] = row[second], row[first]
        self._next_turn()

    def _next_turn(self) -> None:
        self.phase = MOVE
        self.mover = self.player = 1 - self.mover

    def _finish(self, *, winner: int | None) -> None:
        """KV-6.4: +1 / -1, or 0 each on a draw."""
        self.winner = winner
        self.phase = OVER
        if winner is not None:
            self._reward(winner, 1.0)
            self._reward(1 - winner, -1.0)

    # ----- copies and determinization -----------------------------------------------------

    def clone(self) -> KalevaState:
        return self._copy(copy_generator(self.rng))

    def _copy(self, rng: random.Random) -> KalevaState:
        """A copy of every zone and counter that draws its chance events from ``rng``."""
        other = KalevaState.__new__(KalevaState)
        other.game = self.game
        other.rng = rng
        other.board = self.board[:]
        other.lost = self.lost[:]
        other.slots = [self.slots[0][:], self.slots[1][:]]
        other.origin = [self.origin[0][:], self.origin[1][:]]
        other.revealed = [self.revealed[0][:], self.revealed[1][:]]
        other.unplaced = [self.unplaced[0][:], self.unplaced[1][:]]
        other.shown = [self.shown[0][:], self.shown[1][:]]
        other.decks = [self.decks[0][:], self.decks[1][:]]
        other.deck_generation = self.deck_generation[:]
        other.discards = [self.discards[0][:], self.discards[1][:]]
        other.turns_taken = self.turns_taken[:]
        other.plies = self.plies
        other.fights = self.fights
        other.phase = self.phase
        other.player = self.player
        other.mover = self.mover
        other.pending = self.pending
        other.tuuri_fights = self.tuuri_fights
        other.winner = self.winner
        other._rewards = self._rewards[:]
        other._returns = self._returns[:]
        other._legal = self._legal[:]
        return other

    def resample_hidden(self, observer: int, rng: random.Random) -> KalevaState:
        """Re-draw what ``observer`` cannot see (KV-7): the order of both decks; the
        opponent's face-down cards, each permuted only among cards of the same origin (the
        unseen shown cards among their slots and the cards not yet arranged; cards drawn from
        one deck among those slots and, for the current deck, the deck itself).

        The observer also knows the player to move has a real choice (else the engine would
        have moved for them), so draws that contradict it are re-drawn. The new state draws
        its future chance events from a fresh generator.
        """
        for _ in range(MAX_RESAMPLE_TRIES):
            other = self._copy(self.rng)  # shares the generator until it gets its own below
            other._redraw_hidden(observer, rng)
            legal = other._compute_legal()
            if self.phase == OVER or len(legal) > 1:
                other._legal = legal
                other.rng = random.Random(rng.getrandbits(64))
                return other
        raise RuntimeError(f"kaleva: no consistent draw found in {MAX_RESAMPLE_TRIES} tries")

    def _redraw_hidden(self, observer: int, rng: random.Random) -> None:
        self.decks[observer].sort()  # hidden order never influences the draw
        rng.shuffle(self.decks[observer])
        opponent = 1 - observer
        slots, origin = self.slots[opponent], self.origin[opponent]
        groups: dict[int, list[int]] = {}
        for col in range(COLS):
            if slots[col] != EMPTY and not self.revealed[opponent][col]:
                groups.setdefault(origin[col], []).append(col)
        groups.setdefault(ORIGINAL, [])
        groups.setdefault(self.deck_generation[opponent], [])
        for source, columns in groups.items():
            extra = self.unplaced[opponent] if source == ORIGINAL else []
            if source == self.deck_generation[opponent]:
                extra = self.decks[opponent]
            pool = sorted([slots[col] for col in columns] + extra)
            rng.shuffle(pool)
            for col, card in zip(columns, pool, strict=False):
                slots[col] = card
            extra[:] = pool[len(columns) :]

    # ----- notation and rendering ----------------------------------------------------------------

    def action_to_string(self, action: int) -> str:
        """``place Ahti c``, ``b1-c2`` (``b1xc2`` when it attacks), ``return a0``,
        ``tuuri b reveal e``, ``keep tuuri``, ``swap b e``, ``no swap``."""
        if not 0 <= action < NUM_ACTIONS:
            return f"<invalid action {action}>"
        if action < MOVE_BASE:
            value, col = divmod(action - PLACE_BASE, COLS)
            return f"place {CARD_NAMES[value]} {COLUMN_LETTERS[col]}"
        if action < RETURN_BASE:
            frm, to = MOVES[action - MOVE_BASE]
            return f"{square_name(frm)}{self._move_separator(frm, to)}{square_name(to)}"
        if action < TUURI_BASE:
            return f"return {square_name(CORNERS[action - RETURN_BASE])}"
        if action < KEEP_TUURI:
            own, other = divmod(action - TUURI_BASE, COLS)
            return f"tuuri {COLUMN_LETTERS[own]} reveal {COLUMN_LETTERS[other]}"
        if action == KEEP_TUURI:
            return "keep tuuri"
        if action < NO_SWAP:
            first, second = SWAP_PAIRS[action - SWAP_BASE]
            return f"swap {COLUMN_LETTERS[first]} {COLUMN_LETTERS[second]}"
        return "no swap"

    def _move_separator(self, frm: int, to: int) -> str:
        """``x`` when the step is an attack: discs of both colours on the two squares."""
        a, b = self.board[frm], self.board[to]
        return "x" if EMPTY not in (a, b) and a != b else "-"

    def string_to_action(self, text: str) -> int:
        words = text.strip().lower().split()
        action = self._parse_words(words)
        if action is None:
            raise IllegalActionError(f"kaleva: no action is written {text!r}")
        return action

    def _parse_words(self, words: list[str]) -> int | None:
        if words == ["keep", "tuuri"]:
            return KEEP_TUURI
        if words == ["no", "swap"]:
            return NO_SWAP
        if len(words) == 1:
            return self._parse_move(words[0])
        if len(words) == 2 and words[0] == "return":
            corner = parse_square(words[1])
            return RETURN_ACTION.get(corner) if corner is not None else None
        if len(words) == 3 and words[0] == "place":
            value, col = parse_card(words[1]), parse_column(words[2])
            return None if value is None or col is None else place_action(value, col)
        if len(words) == 3 and words[0] == "swap":
            first, second = parse_column(words[1]), parse_column(words[2])
            if first is None or second is None:
                return None
            return SWAP_ACTION.get((min(first, second), max(first, second)))
        if len(words) == 4 and words[0] == "tuuri" and words[2] == "reveal":
            own, other = parse_column(words[1]), parse_column(words[3])
            return None if own is None or other is None else tuuri_action(own, other)
        return None

    def _parse_move(self, word: str) -> int | None:
        if len(word) != 5 or word[2] not in "-x":
            return None
        frm, to = parse_square(word[:2]), parse_square(word[3:])
        if frm is None or to is None or (frm, to) not in MOVE_ACTION:
            return None
        expected = self._move_separator(frm, to)
        if word[2] != expected:
            kind = "an attack" if expected == "x" else "not an attack"
            raise IllegalActionError(
                f"kaleva: {word} is {kind} here; write {word[:2]}{expected}{word[3:]}"
            )
        return MOVE_ACTION[(frm, to)]

    def render(self, observer: int | None = None) -> str:
        lines = ["    " + " ".join(COLUMN_LETTERS)]
        for row in range(ROWS - 1, -1, -1):
            cells = [".SB"[self.board[row * COLS + col] + 1] for col in range(COLS)]
            shield = {HOME_ROW[SILVER]: "  Silver shield", HOME_ROW[BRONZE]: "  Bronze shield"}
            lines.append(f" {row}  " + " ".join(cells) + shield.get(row, ""))
        for player in (BRONZE, SILVER):
            lines.append(self._player_line(player, observer))
        lines.append(self._status_line())
        return "\n".join(lines)

    def _player_line(self, player: int, observer: int | None) -> str:
        sees_all = observer in (None, player)
        cells = []
        for col in range(COLS):
            card = self.slots[player][col]
            if card == EMPTY:
                cells.append("--")
                continue
            face_up = "*" if self.revealed[player][col] else ""
            known = sees_all or self.revealed[player][col]
            mark = "o" if self.origin[player][col] == ORIGINAL else "d"
            cells.append(f"{card}{face_up}" if known else f"?{mark}")
        shown = "".join(map(str, self.shown[player]))
        unplaced = ""
        if self.unplaced[player]:
            hidden = "".join(map(str, sorted(self.unplaced[player])))
            unplaced = f", to arrange {hidden if sees_all else len(self.unplaced[player])}"
        return (
            f"{PLAYER_NAMES[player]}: cards {' '.join(cells)} (shown {shown}{unplaced}); "
            f"deck {len(self.decks[player])}, "
            f"discard {''.join(map(str, sorted(self.discards[player]))) or '-'}, "
            f"lost discs {self.lost[player]}"
        )

    def _status_line(self) -> str:
        if self.phase == OVER:
            outcome = "draw" if self.winner is None else f"{PLAYER_NAMES[self.winner]} wins"
            return f"Game over after {self.plies} turns: {outcome}"
        pending = ""
        if self.pending is not None:
            pending = f" ({square_name(self.pending[0])}->{square_name(self.pending[1])})"
        return (
            f"Turn {self.plies}: {PLAYER_NAMES[self.player]} to {PHASE_NAMES[self.phase]}{pending}"
        )
