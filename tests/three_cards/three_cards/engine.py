"""Three Cards' rules engine (rules TC-1 to TC-3 of docs/adding-a-game.md).

Nine cards valued 1-9 are shuffled; each of the two players gets three, face down, and the
other three stay face down, unused (TC-1). Three tricks follow: the leader plays a card
face up, the other player answers with one; the higher card wins the trick and its winner
leads the next (TC-2). A player's last card is played for them. Whoever wins more tricks
wins the game: +1, the other -1 (TC-3).
"""

from __future__ import annotations

import random
from typing import Any

from tabletop.envs.core.engine import EngineState, copy_generator
from tabletop.envs.core.protocol import Event, IllegalActionError
from tabletop.envs.core.view import text_view

CARDS = range(1, 10)
"""TC-1.1: the nine cards, by value."""
HAND_SIZE = 3
TRICKS = 3
NUM_ACTIONS = len(CARDS)
"""Action ``a`` plays the card of value ``a + 1``."""
HELP = """Three Cards: win more of the three tricks than your opponent.
Moves: "play 7" plays your 7. The leader plays first; the higher card wins the trick and
leads the next. Your last card is played for you.
The picture: the tricks won, the card led in this trick, your hand ("?" for each of the
opponent's cards) and the cards each player has played."""


class ThreeCardsGame:
    """Three Cards for two players; it has no options."""

    name = "three_cards"
    num_players = 2
    num_actions = NUM_ACTIONS

    def __repr__(self) -> str:
        return "ThreeCardsGame()"

    def new_state(self, seed: int | None = None) -> ThreeCardsState:
        """TC-1.2: a shuffled deal; player 0 leads the first trick."""
        rng = random.Random(seed)
        cards = list(CARDS)
        rng.shuffle(cards)
        hands = [sorted(cards[:HAND_SIZE]), sorted(cards[HAND_SIZE : 2 * HAND_SIZE])]
        return ThreeCardsState(self, rng, hands, unused=sorted(cards[2 * HAND_SIZE :]))

    def help_text(self) -> str:
        return HELP


class ThreeCardsState(EngineState):
    """A position: hands, the trick on the table, the cards played and the tricks won."""

    __slots__ = ("_legal", "_returns", "_rewards", "_rng", "game", "hands", "led", "player")
    __slots__ += ("played", "tricks", "unused")

    game: ThreeCardsGame

    def __init__(
        self, game: ThreeCardsGame, rng: random.Random, hands: list[list[int]], unused: list[int]
    ) -> None:
        self.game = game
        self._rng = rng
        self._events = []
        self.hands = hands
        self.unused = unused
        self.led: int | None = None  # the leader's card in the trick under way
        self.played: list[list[int]] = [[], []]
        self.tricks = [0, 0]
        self.player = 0
        self._rewards = [0.0, 0.0]
        self._returns = [0.0, 0.0]
        self.settle()

    # ----- rules ---------------------------------------------------------------------------

    def is_terminal(self) -> bool:
        return sum(self.tricks) == TRICKS

    def _compute_legal(self) -> list[int]:
        return [card - 1 for card in self.hands[self.player]]

    def _do(self, action: int) -> None:
        card, mover = action + 1, self.player
        self.hands[mover].remove(card)
        self.played[mover].append(card)
        self._record("card_played", player=mover, card=card)
        if self.led is None:
            self.led = card
            self.player = 1 - mover
        else:
            self._finish_trick(leader=1 - mover, answer=card)

    def _finish_trick(self, leader: int, answer: int) -> None:
        """TC-2.2: the higher card wins; its player leads next. TC-3.1 after the third."""
        winner = leader if self.led > answer else 1 - leader
        self.tricks[winner] += 1
        self._record("trick_won", player=winner, cards=[self.led, answer])
        self.led = None
        self.player = winner
        if self.is_terminal():
            leader_of_tricks = 0 if self.tricks[0] > self.tricks[1] else 1
            self._reward(leader_of_tricks, 1.0)
            self._reward(1 - leader_of_tricks, -1.0)

    # ----- notation and narration ------------------------------------------------------------

    def action_to_string(self, action: int, observer: int | None = None) -> str:
        """Every card is played face up, so every observer is told the same."""
        if observer is None or observer == self.player:
            return f"play {action + 1}"
        return f"player {self.player} plays {action + 1}"

    def string_to_action(self, text: str) -> int:
        for action in self.legal_actions():
            if self.action_to_string(action) == text.strip():
                return action
        raise IllegalActionError(f"three_cards: {text!r} is not a legal move")

    def _describe_event(self, kind: str, facts: dict[str, Any], observer: int | None) -> Event:
        if kind == "card_played":
            return Event(kind, f"player {facts['player']} plays {facts['card']}", dict(facts))
        return Event(kind, f"player {facts['player']} wins the trick {facts['cards']}", dict(facts))

    def view(self, observer: int | None = None) -> dict[str, Any]:
        return text_view(self, observer)

    def render(self, observer: int | None = None) -> str:
        lines = [f"Tricks: player 0 {self.tricks[0]}, player 1 {self.tricks[1]}"]
        lines.append(f"Led: {self.led if self.led is not None else '-'}")
        for seat in (0, 1):
            shown = observer is None or observer == seat
            hand = " ".join(str(c) if shown else "?" for c in self.hands[seat]) or "-"
            played = " ".join(map(str, self.played[seat])) or "-"
            lines.append(f"player {seat}: hand {hand}; played {played}")
        if observer is None:
            lines.append(f"Unused: {' '.join(map(str, self.unused))}")
        if not self.is_terminal():
            lines.append(f"To move: player {self.player}")
        return "\n".join(lines)

    def stats(self) -> dict[str, float]:
        return {"tricks_player_0": float(self.tricks[0]), "tricks_player_1": float(self.tricks[1])}

    # ----- copies and determinizations -------------------------------------------------------

    def clone(self) -> ThreeCardsState:
        twin = object.__new__(ThreeCardsState)
        twin.game, twin._rng = self.game, copy_generator(self._rng)
        twin._events = list(self._events)
        twin.hands = [list(hand) for hand in self.hands]
        twin.unused, twin.led = list(self.unused), self.led
        twin.played = [list(cards) for cards in self.played]
        twin.tricks, twin.player = list(self.tricks), self.player
        twin._legal, twin._rewards = list(self._legal), list(self._rewards)
        twin._returns = list(self._returns)
        return twin

    def resample_hidden(self, observer: int, rng: random.Random) -> ThreeCardsState:
        """The opponent's hand and the unused cards, re-dealt from the cards ``observer``
        has not seen (TC-1.2: both are face down)."""
        twin = self.clone()
        opponent = 1 - observer
        unseen = twin.hands[opponent] + twin.unused
        rng.shuffle(unseen)
        size = len(twin.hands[opponent])
        twin.hands[opponent] = sorted(unseen[:size])
        twin.unused = sorted(unseen[size:])
        twin._rng = random.Random(rng.random())
        if not twin.is_terminal():
            twin._legal = twin._compute_legal()  # the opponent's, if they are to move
        return twin
