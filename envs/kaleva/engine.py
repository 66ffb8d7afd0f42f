"""Kaleva rules engine (docs/rules/kaleva.md, KV-1 … KV-7); pure Python.

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

A Tuuri kept is never shown (KV-4.7), so the pause for the Tuuri decision is the mover's
secret: the opponent's view (``render``, the encoders, ``resample_hidden``) shows the
position before the move until it is resolved, and a move's text for the opponent names no
squares; the events of the ``apply`` that completes the move say where it went.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from tabletop.envs.core.engine import (
    EngineState,
    copy_generator,
    resample_consistent,
    shows_real_choice,
)
from tabletop.envs.core.protocol import Event, IllegalActionError
from tabletop.envs.kaleva import view as view_module
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
    card_text,
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
END_REASONS = {
    "shield": "three discs in the enemy shield row (KV-6.1)",
    "no_legal_action": "the player to move had no legal action (KV-6.2)",
    "turn_limit": "the turn limit was reached (KV-6.3)",
}
"""Why a game ended, as the game-over event and the picture say it."""


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

    def __init__(self, turn_limit: int = DEFAULT_TURN_LIMIT) -> None:
        if isinstance(turn_limit, bool) or not isinstance(turn_limit, int) or turn_limit < 1:
            raise ValueError(f"kaleva: turn_limit must be a positive int, got {turn_limit!r}")
        self.turn_limit = turn_limit

    def __repr__(self) -> str:
        return f"KalevaGame(turn_limit={self.turn_limit})"

    def player_name(self, seat: int) -> str:
        """The colour of ``seat`` (KV-1.1), for tables and logs: 0 Silver, 1 Bronze."""
        if seat not in (SILVER, BRONZE):
            raise ValueError(f"kaleva: seat must be 0 (Silver) or 1 (Bronze), got {seat!r}")
        return PLAYER_NAMES[seat]

    def help_text(self) -> str:
        """The notation, the picture's codes and what each player is told (``HELP``)."""
        return HELP

    def public_fact_variants(self, state: KalevaState) -> Iterator[tuple[str, KalevaState]]:
        """The protocol's optional hook: a discard pile (public, KV-7.1) with its last card
        another value."""
        for seat, pile in enumerate(state.discards):
            if pile:
                variant = state.clone()
                variant.discards[seat][-1] = (pile[-1] + 1) % len(CARD_NAMES)
                yield f"discard {seat} contents", variant

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
        state._events = []  # a position built by hand has no last apply
        return state


HELP = f"""Kaleva: Silver (moves first) against Bronze. Three discs in the enemy shield row win.

Board: columns a-f, rows 0-4; a square is its column then its row: a0 ... f4. Row 0 is
Silver's shield, row 4 Bronze's. S = a Silver disc, B = a Bronze disc, . = an empty square.

Cards are written as their value, the number a fight compares (the higher wins, a tie goes to
the attacker):
  {", ".join(f"{value} {name}" for value, name in enumerate(CARD_NAMES))}.
0 Tuuri may reveal an enemy card; 1 Terna, attacked by a higher card, swaps the two discs
instead of losing. You may type a card's name instead of its value.

Each player has a card slot per column; the card on a column fights for every disc moving
from that column (attack) or standing on it (defence). A player line reads
  Silver: cards 7 ?o 3* ?d -- 5 (shown 012447, to arrange 2); deck 17, discard 36, lost discs 1
with the slots of columns a-f in order:
  7    a card you can see: your own, or any face-up card
  3*   a face-up card: revealed by the opponent's Tuuri, both players see it
  ?o   face down, one of the six cards its owner showed at setup (the opponent knows those six)
  ?d   face down, drawn from the deck later (only its owner knows it)
  --   an empty slot while the cards are being laid at setup
  shown       the six cards the player showed at setup
  to arrange  cards still to lay at setup (their values to the owner, a count to the opponent)
  deck        cards left in the deck; discard: the discard pile's values, - when empty
  lost discs  discs off the board, which may return to a free corner of their shield row
"Last fight: b1xc2, Silver 3 against Bronze 4: Bronze wins" recalls the latest fight.
The last line says whose decision it is: "Turn 5: Silver to move"; the other decisions are
"arrange cards", "Tuuri decision (b1->c2)" (the move waiting for it) and "swap two cards";
at the end "Game over after 60 turns: draw, ..." with the reason.

Moves (type the text, or the number in the list):
  place 7 c         setup: lay your card 7 face down on column c (columns a-f in order)
  b1-c2             move your disc on b1 one square to c2
  b1xc2             the same step onto an enemy disc: an attack
  return a0         put a lost disc back on a free corner of your shield (Silver a0 f0,
                    Bronze a4 f4) instead of moving
  tuuri b reveal e  after a move from or onto the column of your Tuuri: spend the Tuuri on
                    b to turn the enemy card on e face up (before any fight)
  keep tuuri        keep the Tuuri hidden and finish the move
  swap b e          after losing a disc: swap your cards on b and e; each keeps its marks
                    (face up, ?o, ?d), so the opponent sees marks move
  no swap           after losing a disc: leave your cards as they are

What you are told of the opponent's decisions: "Silver places a card on c" (not which);
"Silver moves a disc", followed by what happened once the move is complete (a kept Tuuri
is never shown, so you do not see the pause for it); a Tuuri spent, with the card it turns
up; "Silver swaps the cards on b and e" when that moves marks you can see, else "Silver
swaps no cards, or two that look alike".
"""


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
        "end_reason",
        "last_fight",
        "last_turns",
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
        self.end_reason = ""
        self.last_fight: dict[str, Any] | None = None
        """The facts of the latest fight (as recorded for its event): public, both cards
        were turned face up (KV-4.2), and the picture shows it."""
        self.last_turns: list[tuple[Any, ...] | None] = [None, None]
        """Each player's latest completed card placement, disc move or return, as its public
        facts: ``("place", column, card)`` (the card is its owner's secret), ``("move", frm,
        to, separator)`` recorded once the move is resolved (a move waiting for its Tuuri
        decision is the mover's secret, KV-4.7), ``("return", corner)``. The page shows them."""
        self._rewards = [0.0, 0.0]
        self._returns = [0.0, 0.0]
        self._legal: list[int] = []
        self._events = []
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
            self._keep_tuuri()
        elif action < NO_SWAP:
            self._swap_cards(*SWAP_PAIRS[action - SWAP_BASE])
        else:
            self._record("no_swap", player=self.player)
            self._next_turn()

    def _no_legal_action(self) -> None:
        """KV-6.2: a player with no legal action loses (only a turn can be empty)."""
        self._finish(winner=1 - self.player, reason="no_legal_action")

    def _compute_legal(self) -> list[int]:
        if self.phase == MOVE:
            return self._legal_turn()
        if self.phase == SETUP:
            col = COLS - len(self.unplaced[self.player])
            return [place_action(value, col) for value in sorted(set(self.unplaced[self.player]))]
        if self.phase == TUURI_CHOICE:
            return self._legal_tuuri()
        if self.phase == SWAP:
            keys = [self.card_key(self.player, col) for col in range(COLS)]
            swaps = [SWAP_ACTION[(i, j)] for i, j in SWAP_PAIRS if keys[i] != keys[j]]
            return [*swaps, NO_SWAP]
        return []

    def card_key(self, player: int, col: int) -> tuple[int, bool, int]:
        """Everything a swap moves with ``player``'s card on ``col`` (KV-4.4): its value,
        whether it is face up, and its origin. Two cards with equal keys swap to the same
        position, so that swap is not offered; every other swap changes the position. A
        face-up card's origin no longer matters (it stays face up until discarded), so it
        does not count."""
        face_up = self.revealed[player][col]
        return self.slots[player][col], face_up, ORIGINAL if face_up else self.origin[player][col]

    def public_mark(self, player: int, col: int) -> str:
        """How ``player``'s card on ``col`` looks to the opponent (the picture's cell, and
        what the encoders' slot status says): ``5*`` face up, ``?o`` face down and one of
        the six shown at setup, ``?d`` face down and drawn later, ``--`` empty (setup)."""
        card = self.slots[player][col]
        if card == EMPTY:
            return "--"
        if self.revealed[player][col]:
            return f"{card_text(card)}*"
        return "?o" if self.origin[player][col] == ORIGINAL else "?d"

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
        self._record("card_placed", player=self.player, column=col, card=value)
        self.last_turns[self.player] = ("place", col, value)
        if self.unplaced[self.player]:
            return
        if self.player == SILVER:
            self.player = BRONZE
        else:
            self.phase = MOVE
            self.player = self.mover = SILVER
            self._record("turn_passed", player=SILVER, turn=self.plies)

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
        opponent = 1 - self.player
        self.revealed[opponent][opponent_col] = True
        self._record(
            "tuuri_revealed",
            player=self.player,
            tuuri_column=own_col,
            column=opponent_col,
            card=self.slots[opponent][opponent_col],
        )
        self._discard_slot(self.player, own_col)
        attacking = self.board[to] == 1 - self.player
        self.tuuri_fights = attacking and own_col == COL_OF[frm]

    def _keep_tuuri(self) -> None:
        """KV-4.7: the Tuuri stays hidden; only its owner is told they kept it."""
        assert self.pending is not None
        cards = self.slots[self.player]
        columns = sorted({COL_OF[sq] for sq in self.pending if cards[COL_OF[sq]] == TUURI})
        self._record("tuuri_kept", player=self.player, columns=columns)
        self._resolve_move()

    def _resolve_move(self) -> None:
        assert self.pending is not None
        frm, to = self.pending
        self.pending = None
        self.phase = MOVE
        self.last_turns[self.mover] = ("move", frm, to, self._move_separator(frm, to))
        if self.board[to] == EMPTY:
            self.board[to], self.board[frm] = self.player, EMPTY
            self._record("disc_moved", player=self.player, frm=frm, to=to)
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
        self.last_fight = {
            "attacker": attacker, "frm": frm, "to": to, "attack": attack, "defence": defence,
            "loser": loser,
        }  # fmt: skip
        self._record("fight", **self.last_fight)
        if loser is not None:
            self.lost[loser] += 1
            self._record("disc_lost", player=loser, square=frm if loser == attacker else to)
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
            self._record("deck_reshuffled", player=player, size=len(deck))
        card = self.slots[player][col] = deck.pop()
        self.origin[player][col] = self.deck_generation[player]
        self.revealed[player][col] = False
        self._record("card_drawn", player=player, column=col, card=card)

    def _return_disc(self, corner: int) -> None:
        """KV-5.1: a lost disc back onto a free corner of the mover's shield row."""
        self.board[corner] = self.player
        self.lost[self.player] -= 1
        self.last_turns[self.player] = ("return", corner)
        self._record("disc_returned", player=self.player, square=corner)
        self._end_turn(loser=None)

    def _end_turn(self, loser: int | None) -> None:
        """KV-6.1 wins, then the KV-6.3 limit, then the loser's KV-4.4 swap."""
        mover = self.mover
        self.turns_taken[mover] += 1
        self.plies += 1
        if self.discs_in_shield(mover) >= SHIELD_WIN:
            self._finish(winner=mover, reason="shield")
        elif self.discs_in_shield(1 - mover) >= SHIELD_WIN:  # a Terna swap moved it there
            self._finish(winner=1 - mover, reason="shield")
        elif self.plies >= self.game.turn_limit:
            self._finish(winner=None, reason="turn_limit")
        elif loser is not None:
            self.phase = SWAP
            self.player = loser
        else:
            self._next_turn()

    def _swap_cards(self, first: int, second: int) -> None:
        """KV-4.4: the cards change columns with their knowledge (face up, origin)."""
        player = self.player
        looks_alike = self.public_mark(player, first) == self.public_mark(player, second)
        for row in (self.slots[player], self.origin[player], self.revealed[player]):
            row[first], row[second] = row[second], row[first]
        self._record(
            "cards_swapped", player=player, columns=[first, second], looks_alike=looks_alike
        )
        self._next_turn()

    def _next_turn(self) -> None:
        self.phase = MOVE
        self.mover = self.player = 1 - self.mover
        self._record("turn_passed", player=self.player, turn=self.plies)

    def _finish(self, *, winner: int | None, reason: str) -> None:
        """KV-6.4: +1 / -1, or 0 each on a draw."""
        self.winner = winner
        self.end_reason = reason
        self._record("game_over", winner=winner, reason=reason)
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
        other.end_reason = self.end_reason
        other.last_fight = self.last_fight
        other.last_turns = self.last_turns[:]
        other._events = list(self._events)
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
        have moved for them), so draws that contradict it are re-drawn. During the opponent's
        Tuuri decision the observer sees the position before the move (KV-4.7: a kept Tuuri is
        never shown), so the pending move is taken back, unless it was the mover's only
        legal move (then the pause itself shows). The new state draws its future chance
        events from a fresh generator.
        """
        base = self._copy(self.rng)  # shares the generator until a draw gets its own below
        if self.pause_hidden_from(observer):
            base.pending, base.phase = None, MOVE

        def draw() -> KalevaState:
            other = base._copy(self.rng)
            other._redraw_hidden(observer, rng)
            return other

        other = resample_consistent(draw, shows_real_choice(self), "kaleva", MAX_RESAMPLE_TRIES)
        other.rng = random.Random(rng.getrandbits(64))
        return other

    def pause_hidden_from(self, observer: int | None) -> bool:
        """Whether ``observer`` sees the position as it was before the move awaiting the
        mover's Tuuri decision (KV-4.7: a kept Tuuri is never shown): true for the mover's
        opponent, unless the move was the mover's only legal one, which would have been
        played without asking, so the pause itself shows. (The legal moves depend only on
        the board, which the pause leaves as it was.)"""
        if observer is None or observer == self.player or self.phase != TUURI_CHOICE:
            return False
        return len(self._legal_turn()) > 1

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

    def action_to_string(self, action: int, observer: int | None = None) -> str:
        """``place 7 c``, ``b1-c2`` (``b1xc2`` when it attacks), ``return a0``,
        ``tuuri b reveal e``, ``keep tuuri``, ``swap b e``, ``no swap``; for an ``observer``
        other than the player to decide, only what the rules let them know of it."""
        if observer is not None and observer not in (SILVER, BRONZE):
            raise ValueError(f"kaleva: observer must be 0, 1 or None, got {observer!r}")
        if not 0 <= action < NUM_ACTIONS:
            return f"<invalid action {action}>"
        if observer is not None and observer != self.player:
            return self._observed_text(action, observer)
        return self._notation(action)

    def _observed_text(self, action: int, observer: int) -> str:
        """What the mover's opponent ``observer`` may know of ``action``. Cards laid face
        down are unnamed (KV-2.2). A move names no squares: it may pause for a Tuuri
        decision whose very existence would show the Tuuri (KV-4.7), so a kept Tuuri reads
        like a move too; the events of the completed move say where it went. A swap names
        its columns only when it moves marks the observer can see."""
        name = PLAYER_NAMES[self.player]
        if action < MOVE_BASE:
            return f"{name} places a card on {COLUMN_LETTERS[(action - PLACE_BASE) % COLS]}"
        if RETURN_BASE <= action < TUURI_BASE:
            return f"{name} returns a disc to {square_name(CORNERS[action - RETURN_BASE])}"
        if action < RETURN_BASE or action == KEEP_TUURI:
            return f"{name} moves a disc"
        if action < KEEP_TUURI:
            own, other = divmod(action - TUURI_BASE, COLS)
            return (
                f"{name} moves a disc and spends the Tuuri on {COLUMN_LETTERS[own]} to reveal "
                f"{PLAYER_NAMES[observer]}'s card on {COLUMN_LETTERS[other]}"
            )
        if action < NO_SWAP:
            first, second = SWAP_PAIRS[action - SWAP_BASE]
            if self.public_mark(self.player, first) != self.public_mark(self.player, second):
                columns = f"{COLUMN_LETTERS[first]} and {COLUMN_LETTERS[second]}"
                return f"{name} swaps the cards on {columns}"
        return f"{name} swaps no cards, or two that look alike"

    def _notation(self, action: int) -> str:
        """The full text of ``action``, which ``string_to_action`` reads back."""
        if action < MOVE_BASE:
            value, col = divmod(action - PLACE_BASE, COLS)
            return f"place {card_text(value)} {COLUMN_LETTERS[col]}"
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
        """The board (``S``/``B`` discs, ``.`` empty), both players' card slots as
        ``observer`` sees them (``public_mark``), the latest fight, and whose decision it is;
        the codes are explained by ``KalevaGame.help_text``."""
        lines = ["    " + " ".join(COLUMN_LETTERS)]
        for row in range(ROWS - 1, -1, -1):
            cells = [".SB"[self.board[row * COLS + col] + 1] for col in range(COLS)]
            shield = {HOME_ROW[SILVER]: "  Silver shield", HOME_ROW[BRONZE]: "  Bronze shield"}
            lines.append(f" {row}  " + " ".join(cells) + shield.get(row, ""))
        for player in (BRONZE, SILVER):
            lines.append(self._player_line(player, observer))
        if self.last_fight is not None:
            lines.append(f"Last fight: {_fight_text(self.last_fight)}")
        lines.append(self.status_line(observer))
        return "\n".join(lines)

    def view(self, observer: int | None = None) -> dict[str, Any]:
        """The same information as ``render(observer)`` as data for a page (``kaleva.view``)."""
        return view_module.view(self, observer)

    def _player_line(self, player: int, observer: int | None) -> str:
        sees_all = observer in (None, player)
        cells = []
        for col in range(COLS):
            card, mark = self.slots[player][col], self.public_mark(player, col)
            cells.append(card_text(card) if sees_all and mark[0] == "?" else mark)
        shown = _cards_text(self.shown[player])
        unplaced = ""
        if self.unplaced[player]:
            hidden = _cards_text(self.unplaced[player])
            unplaced = f", to arrange {hidden if sees_all else len(self.unplaced[player])}"
        return (
            f"{PLAYER_NAMES[player]}: cards {' '.join(cells)} (shown {shown}{unplaced}); "
            f"deck {len(self.decks[player])}, discard {_cards_text(self.discards[player])}, "
            f"lost discs {self.lost[player]}"
        )

    def status_line(self, observer: int | None) -> str:
        if self.phase == OVER:
            outcome = "draw" if self.winner is None else f"{PLAYER_NAMES[self.winner]} wins"
            return f"Game over after {self.plies} turns: {outcome}, {END_REASONS[self.end_reason]}"
        phase, pending = self.phase, ""
        if self.pause_hidden_from(observer):
            phase = MOVE
        elif self.pending is not None:
            pending = f" ({square_name(self.pending[0])}->{square_name(self.pending[1])})"
        return f"Turn {self.plies}: {PLAYER_NAMES[self.player]} to {PHASE_NAMES[phase]}{pending}"

    # ----- events ---------------------------------------------------------------------------------

    def last_events(self, observer: int | None = None) -> list[Event]:
        """As ``EngineState.last_events``, without the events ``observer`` must not know
        happened at all: a Tuuri kept is told to its owner only (KV-4.7)."""
        return [
            self._describe_event(kind, facts, observer)
            for kind, facts in self._events
            if kind != "tuuri_kept" or observer in (None, facts["player"])
        ]

    def _describe_event(self, kind: str, facts: dict[str, Any], observer: int | None) -> Event:
        """The record as ``observer`` may know it: a card laid or drawn is named only to its
        owner (KV-2.2, KV-4.5); a swap names its columns to the opponent only when it moves
        marks they can see (``public_mark``), else it reads like no swap; all else is public."""
        player = facts.get("player", facts.get("attacker"))
        owner_sees = observer is None or observer == player
        if kind in ("card_placed", "card_drawn"):
            return _card_event(kind, facts, owner_sees)
        unseen_swap = kind == "no_swap" or (kind == "cards_swapped" and facts["looks_alike"])
        if unseen_swap and not owner_sees:
            text = f"{PLAYER_NAMES[player]} swaps no cards, or two that look alike"
            return Event("swap_unseen", text, {"player": player})
        return _public_event(kind, facts)


def _cards_text(cards: Iterable[int]) -> str:
    """A pile or hand as its sorted values, ``-`` when empty."""
    return "".join(card_text(card) for card in sorted(cards)) or "-"


def _fight_text(facts: dict[str, Any]) -> str:
    """``b1xc2, Silver 3 against Bronze 4: Bronze wins`` (KV-4.3, KV-4.6)."""
    attacker, loser = facts["attacker"], facts["loser"]
    if loser is None:
        outcome = "Terna's trickery swaps the discs"
    else:
        outcome = f"{PLAYER_NAMES[1 - loser]} wins"
    return (
        f"{square_name(facts['frm'])}x{square_name(facts['to'])}, {PLAYER_NAMES[attacker]} "
        f"{card_text(facts['attack'])} against {PLAYER_NAMES[1 - attacker]} "
        f"{card_text(facts['defence'])}: {outcome}"
    )


def _card_event(kind: str, facts: dict[str, Any], named: bool) -> Event:
    """A card laid face down at setup or drawn into a slot; its value only if ``named``."""
    player, column = facts["player"], COLUMN_LETTERS[facts["column"]]
    card = card_text(facts["card"]) if named else "a card"
    verb = "places" if kind == "card_placed" else "draws"
    data: dict[str, Any] = {"player": player, "column": column}
    if named:
        data["card"] = facts["card"]
    return Event(kind, f"{PLAYER_NAMES[player]} {verb} {card} on {column}", data)


def _public_event(kind: str, facts: dict[str, Any]) -> Event:
    """A record every observer sees alike: squares and columns written out."""
    name = PLAYER_NAMES[facts.get("player", facts.get("attacker", 0))]
    data = dict(facts)
    for key in ("frm", "to", "square"):
        if key in data:
            data[key] = square_name(data[key])
    for key in ("column", "tuuri_column"):
        if key in data:
            data[key] = COLUMN_LETTERS[data[key]]
    if "columns" in data:
        data["columns"] = [COLUMN_LETTERS[col] for col in data["columns"]]
        data.pop("looks_alike", None)
    match kind:
        case "turn_passed":
            text = f"Turn {facts['turn']}: {name} to move"
        case "disc_moved":
            text = f"{name} moves {data['frm']}-{data['to']}"
        case "fight":
            text = f"Fight {_fight_text(facts)}"
        case "disc_lost":
            text = f"{name} loses the disc on {data['square']}"
        case "disc_returned":
            text = f"{name} returns a disc to {data['square']}"
        case "tuuri_revealed":
            text = (
                f"{name} spends the Tuuri on {data['tuuri_column']}: "
                f"{PLAYER_NAMES[1 - facts['player']]}'s card on {data['column']} turns face up, "
                f"{card_text(facts['card'])}"
            )
        case "deck_reshuffled":
            text = f"{name}'s discard pile is shuffled into a new deck of {facts['size']} cards"
        case "cards_swapped":
            text = f"{name} swaps the cards on {data['columns'][0]} and {data['columns'][1]}"
        case "no_swap":
            text = f"{name} swaps no cards"
        case "tuuri_kept":
            text = f"{name} keeps the Tuuri on {' and '.join(data['columns'])}"
        case "game_over":
            winner = facts["winner"]
            outcome = "Draw" if winner is None else f"{PLAYER_NAMES[winner]} wins"
            text = f"{outcome}: {END_REASONS[facts['reason']]}"
        case _:
            raise ValueError(f"kaleva: no event is called {kind!r}")
    return Event(kind, text, data)
