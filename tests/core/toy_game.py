"""Top Card: a tiny hidden-hand card game that exercises every corner of the protocol.

Cards ``0 .. deck_size-1`` are dealt ``hand_size`` to each player; the rest form a hidden
deck. On a turn the current player plays a card onto the public pile, then may play a
second one or ``end``. Beating the top card of another player moves a point from that
player to the mover (a reward on someone else's move). After each play the mover draws a
random card from the deck (chance), which only the mover sees. The next player is
``(mover + 1 + last card) % n``: not round-robin, and sometimes the same player again. The
game ends when the mover's hand runs out; every other player then loses half a point per
card left (final rewards on another player's move). A first play from a one-card hand is
the only option, so the engine takes it as a forced move.

Only the core tests use it; it knows nothing of PettingZoo.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from tabletop.envs.core.engine import EngineState, copy_generator
from tabletop.envs.core.protocol import TERMINAL, Event, IllegalActionError
from tabletop.envs.core.view import text_view

MAX_PLAYS_PER_TURN = 2
PENALTY_PER_CARD_LEFT = 0.5
HELP = """Top Card: play a card onto the pile, then a second one or end the turn.
Moves: "play 5" plays card 5 from your hand, "end" ends your turn after one card.
Beating another player's top card takes a point from them. After each play you draw a card.
The picture: the pile as (card, player) pairs, the deck size, whose move it is, then each
player's hand (only your own is shown; the others' as a count) and score."""


class ToyGame:
    """Configured Top Card; action ``c < deck_size`` plays card ``c``, ``deck_size`` ends."""

    name = "toy"

    def __init__(self, num_players: int = 2, deck_size: int = 9, hand_size: int = 2) -> None:
        self.num_players = num_players
        self.deck_size = deck_size
        self.hand_size = hand_size
        if not 2 <= self.num_players <= 3:
            raise ValueError(f"toy: num_players must be 2 or 3, got {self.num_players}")
        self.num_actions = self.deck_size + 1
        self.end_action = self.deck_size

    def __repr__(self) -> str:
        return (
            f"ToyGame(num_players={self.num_players}, deck_size={self.deck_size}, "
            f"hand_size={self.hand_size})"
        )

    def new_state(self, seed: int | None = None) -> ToyState:
        return ToyState(self, random.Random(seed))

    def help_text(self) -> str:
        return HELP


class ToyState(EngineState):
    """One position of Top Card; mutated in place by ``apply``."""

    game: ToyGame

    def __init__(self, game: ToyGame, rng: random.Random) -> None:
        self.game = game
        self._rng = rng
        self._events = []
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
        self.settle()

    def _draw_into(self, hand: list[int]) -> int:
        card = self._rng.choice(self.deck)
        self.deck.remove(card)
        hand.append(card)
        hand.sort()
        return card

    def is_terminal(self) -> bool:
        return self.player == TERMINAL

    def _compute_legal(self) -> list[int]:
        hand = self.hands[self.player]
        if 0 < self.plays_this_turn < MAX_PLAYS_PER_TURN:
            return [*hand, self.game.end_action]
        return list(hand)

    def _do(self, action: int) -> None:
        if action == self.game.end_action:
            self._end_turn()
        else:
            self._play(action)

    def _play(self, card: int) -> None:
        mover = self.player
        beaten = None
        if self.pile and self.pile[-1][1] != mover and card > self.pile[-1][0]:
            beaten = self.pile[-1][1]
            self._reward(beaten, -1.0)
            self._reward(mover, 1.0)
        self.hands[mover].remove(card)
        self.pile.append((card, mover))
        self._record("card_played", player=mover, card=card, beaten=beaten)
        if self.deck:
            self._record("card_drawn", player=mover, card=self._draw_into(self.hands[mover]))
        self.plays_this_turn += 1
        if not self.hands[mover]:
            self._finish()
        elif self.plays_this_turn == MAX_PLAYS_PER_TURN:
            self._end_turn()

    def _end_turn(self) -> None:
        mover = self.player
        self.player = (self.player + 1 + self.pile[-1][0]) % self.game.num_players
        self.plays_this_turn = 0
        self._record("turn_ended", player=mover, next=self.player)

    def _finish(self) -> None:
        penalties = {}
        for player, hand in enumerate(self.hands):
            self._reward(player, -PENALTY_PER_CARD_LEFT * len(hand))
            penalties[str(player)] = PENALTY_PER_CARD_LEFT * len(hand)
        self._record("game_over", player=self.player, penalties=penalties)
        self.player = TERMINAL

    def _describe_event(self, kind: str, facts: dict[str, Any], observer: int | None) -> Event:
        player = facts["player"]
        if kind == "card_drawn" and observer not in (None, player):
            return Event(kind, f"player {player} draws a card", {"player": player})
        return Event(kind, self._event_text(kind, facts), dict(facts))

    @staticmethod
    def _event_text(kind: str, facts: dict[str, Any]) -> str:
        """The full text of a recorded event: all of it is public but the drawn card."""
        player = facts["player"]
        if kind == "card_played":
            beaten = facts["beaten"]
            beating = "" if beaten is None else f", beating player {beaten}"
            return f"player {player} plays {facts['card']}{beating}"
        if kind == "card_drawn":
            return f"player {player} draws {facts['card']}"
        if kind == "turn_ended":
            return f"player {player} ends the turn; player {facts['next']} is next"
        return f"player {player} has no card left: the game is over"

    def clone(self) -> ToyState:
        other = object.__new__(type(self))
        other.game = self.game
        other._rng = copy_generator(self._rng)
        other._events = list(self._events)
        other.deck = list(self.deck)
        other.hands = [list(hand) for hand in self.hands]
        other.pile = list(self.pile)
        other.player = self.player
        other.plays_this_turn = self.plays_this_turn
        other._legal = list(self._legal)
        other._rewards = list(self._rewards)
        other._returns = list(self._returns)
        return other

    def action_to_string(self, action: int, observer: int | None = None) -> str:
        if observer in (None, self.player):
            return "end" if action == self.game.end_action else f"play {action}"
        if action == self.game.end_action:
            return f"player {self.player} ends the turn"
        return f"player {self.player} plays {action}"

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

    def view(self, observer: int | None = None) -> dict[str, Any]:
        return text_view(self, observer)

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
        other.settle()
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
