"""Top Card: a tiny hidden-hand card game that exercises every corner of the protocol.

Cards ``0 .. deck_size-1`` are dealt ``hand_size`` to each player; the rest form a hidden
deck. On a turn the current player plays a card onto the public pile, then may play a
second one or ``end``. Beating the top card of another player moves a point from that
player to the mover (a reward on someone else's move). After each play the mover draws a
random card from the deck (chance). The next player is ``(mover + 1 + last card) % n``:
not round-robin, and sometimes the same player again. The game ends when the mover's hand
runs out; every other player then loses half a point per card left (final rewards on
another player's move).

Only the core tests use it; it knows nothing of PettingZoo.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from tabletop.envs.core.protocol import TERMINAL, IllegalActionError, check_options

MAX_PLAYS_PER_TURN = 2
PENALTY_PER_CARD_LEFT = 0.5


class ToyGame:
    """Configured Top Card; action ``c < deck_size`` plays card ``c``, ``deck_size`` ends."""

    name = "toy"

    def __init__(self, **options: Any) -> None:
        check_options("toy", options, {"num_players", "deck_size", "hand_size"})
        self.num_players: int = options.get("num_players", 2)
        self.deck_size: int = options.get("deck_size", 9)
        self.hand_size: int = options.get("hand_size", 2)
        if not 2 <= self.num_players <= 3:
            raise ValueError(f"toy: num_players must be 2 or 3, got {self.num_players}")
        self.num_actions = self.deck_size + 1
        self.end_action = self.deck_size

    def new_state(self, seed: int | None = None) -> ToyState:
        return ToyState(self, random.Random(seed))


class ToyState:
    """One position of Top Card; mutated in place by ``apply``."""

    def __init__(self, game: ToyGame, rng: random.Random) -> None:
        self.game = game
        self._rng = rng
        self.deck = list(range(game.deck_size))
        self.hands: list[list[int]] = [[] for _ in range(game.num_players)]
        for hand in self.hands:
            for _ in range(game.hand_size):
                self._draw_into(hand)
        self.pile: list[tuple[int, int]] = []  # (card, player who played it)
        self.player = 0
        self.plays_this_turn = 0
        self._rewards = [0.0] * game.num_players
        self._returns = [0.0] * game.num_players

    def _draw_into(self, hand: list[int]) -> None:
        card = self._rng.choice(self.deck)
        self.deck.remove(card)
        hand.append(card)
        hand.sort()

    @property
    def current_player(self) -> int:
        return self.player

    def is_terminal(self) -> bool:
        return self.player == TERMINAL

    def legal_actions(self) -> list[int]:
        if self.is_terminal():
            return []
        hand = self.hands[self.player]
        if 0 < self.plays_this_turn < MAX_PLAYS_PER_TURN:
            return [*hand, self.game.end_action]
        return list(hand)

    def apply(self, action: int) -> None:
        if action not in self.legal_actions():
            raise IllegalActionError(f"toy: action {action} is not legal")
        self._rewards = [0.0] * self.game.num_players
        if action == self.game.end_action:
            self._end_turn()
        else:
            self._play(action)
        for player, reward in enumerate(self._rewards):
            self._returns[player] += reward

    def _play(self, card: int) -> None:
        mover = self.player
        if self.pile and self.pile[-1][1] != mover and card > self.pile[-1][0]:
            self._rewards[self.pile[-1][1]] -= 1.0
            self._rewards[mover] += 1.0
        self.hands[mover].remove(card)
        self.pile.append((card, mover))
        if self.deck:
            self._draw_into(self.hands[mover])
        self.plays_this_turn += 1
        if not self.hands[mover]:
            self._finish()
        elif self.plays_this_turn == MAX_PLAYS_PER_TURN:
            self._end_turn()

    def _end_turn(self) -> None:
        self.player = (self.player + 1 + self.pile[-1][0]) % self.game.num_players
        self.plays_this_turn = 0

    def _finish(self) -> None:
        for player, hand in enumerate(self.hands):
            self._rewards[player] -= PENALTY_PER_CARD_LEFT * len(hand)
        self.player = TERMINAL

    def clone(self) -> ToyState:
        other = object.__new__(type(self))
        other.game = self.game
        other._rng = random.Random()
        other._rng.setstate(self._rng.getstate())
        other.deck = list(self.deck)
        other.hands = [list(hand) for hand in self.hands]
        other.pile = list(self.pile)
        other.player = self.player
        other.plays_this_turn = self.plays_this_turn
        other._rewards = list(self._rewards)
        other._returns = list(self._returns)
        return other

    def rewards(self) -> list[float]:
        return list(self._rewards)

    def returns(self) -> list[float]:
        return list(self._returns)

    def action_to_string(self, action: int) -> str:
        return "end" if action == self.game.end_action else f"play {action}"

    def string_to_action(self, text: str) -> int:
        if text == "end":
            return self.game.end_action
        word, _, number = text.partition(" ")
        if word == "play" and number.isdigit() and int(number) < self.game.deck_size:
            return int(number)
        raise IllegalActionError(f"toy: unknown action text {text!r}")

    def render(self, observer: int | None = None) -> str:
        lines = [f"pile: {self.pile}  deck: {len(self.deck)} cards  to move: {self.player}"]
        for player, hand in enumerate(self.hands):
            shown = hand if observer in (None, player) else f"{len(hand)} cards"
            lines.append(f"player {player}: {shown}  score {self._returns[player]:+g}")
        return "\n".join(lines)

    def stats(self) -> dict[str, float]:
        return {"cards_played": float(len(self.pile))}

    def resample_hidden(self, observer: int, rng: random.Random) -> ToyState:
        """Re-deal the deck and the other players' hands from the cards ``observer`` has
        not seen, keeping every hand's size."""
        other = self.clone()
        other._rng = random.Random(rng.getrandbits(64))
        others = [p for p in range(self.game.num_players) if p != observer]
        unseen = list(self.deck) + [card for p in others for card in self.hands[p]]
        rng.shuffle(unseen)
        for player in others:
            size = len(self.hands[player])
            other.hands[player], unseen = sorted(unseen[:size]), unseen[size:]
        other.deck = sorted(unseen)
        return other


class ToyFlatEncoder:
    """Everything a player may see: own hand, pile, top card and its owner, hand sizes,
    deck size, scores, whose move it is, all relative to the observing seat."""

    name = "flat"
    version = 1

    def shape(self, game: ToyGame) -> tuple[int, ...]:
        return (3 * game.deck_size + 3 * game.num_players + 3,)

    def encode(self, state: ToyState, player: int) -> np.ndarray:
        game = state.game
        n, d = game.num_players, game.deck_size
        out = np.zeros(self.shape(game), np.float32)
        out[state.hands[player]] = 1.0
        for card, _ in state.pile:
            out[d + card] = 1.0
        seats = [(player + k) % n for k in range(n)]
        if state.pile:
            top_card, owner = state.pile[-1]
            out[2 * d + top_card] = 1.0
            out[3 * d + seats.index(owner)] = 1.0
        base = 3 * d + n
        out[base : base + n] = [len(state.hands[p]) for p in seats]
        out[base + n : base + 2 * n] = [state.returns()[p] for p in seats]
        out[base + 2 * n : base + 2 * n + 3] = [
            len(state.deck),
            state.plays_this_turn,
            state.player == player,
        ]
        return out
