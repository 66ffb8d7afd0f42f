"""Mini Cards' rules engine, on the card-game kit only (rules MC-1 to MC-4).

- **MC-1** Each player's deck holds the pool's ``copies`` of every card, shuffled face down;
  each player draws 2 and has 6 life. Player 0 starts.
- **MC-2** A turn starts with a draw (none from an empty deck), then each of the player's
  units on the table reacts to ``turn_starts`` in table order. The player plays cards from
  hand one at a time, or passes to end the turn (with an empty hand the turn ends itself).
- **MC-3** A played card goes on the chain; players then have priority in turn, the other
  player first: each may answer with an instant from hand (on top) or pass. When both pass
  in a row the top card resolves: a unit enters its owner's table, any other card goes to
  the discard, and the card's ``played`` effects run. A player holding no instant passes
  without being asked.
- **MC-4** A player at 0 life loses (+1/-1). After 8 turns the higher life wins; equal life
  is a draw.
"""

from __future__ import annotations

import random
from typing import Any

from mini_cards.cards import INSTANT, POOL, SPELL, UNIT, Card, Reach
from tabletop.envs.core.cards.chain import Chain, Pending
from tabletop.envs.core.cards.continuous import Continuous, statics_in
from tabletop.envs.core.cards.events import Context, dispatch
from tabletop.envs.core.cards.hidden import redeal
from tabletop.envs.core.cards.phases import GameOver, Phase, PhasedState, ResponseWindow
from tabletop.envs.core.cards.priority import PriorityRound
from tabletop.envs.core.cards.zones import SHARED, Permanent, Table, Visibility, ZoneSpec
from tabletop.envs.core.engine import copy_generator, resample_consistent, shows_real_choice
from tabletop.envs.core.protocol import Event, IllegalActionError
from tabletop.envs.core.view import text_view

LIFE, HAND, TURNS = 6, 2, 8
PASS = 0
"""Action 0 passes; action ``1 + card.index`` plays that card from hand."""
ZONES = (
    ZoneSpec("deck", Visibility.NOBODY),
    ZoneSpec("hand", Visibility.OWNER),
    ZoneSpec("table", Visibility.PUBLIC, in_play=True, lasting=True),  # boost counts here
    ZoneSpec("stack", Visibility.PUBLIC, shared=True),
    ZoneSpec("discard", Visibility.PUBLIC),
)
STACK = ("stack", SHARED)
MAIN, RESPOND, OVER = 0, 1, 2
HELP = """Mini Cards: bring your opponent from 6 life to 0, or have more life after 8 turns.
Moves: "play Zap" plays a card from your hand, "pass" ends your turn or lets the chain go
on. Played cards go on the chain, and instants may answer them; the top resolves first.
The picture: turn, phase and who decides; per player life, hand, deck, table and discard;
the chain from bottom to top."""


def _playable(state: MiniCardsState, seat: int, kinds: tuple[str, ...]) -> list[int]:
    cards = state.table.cards
    hand = state.table.zone("hand", seat)
    return sorted({1 + cards[i].index for i in hand if cards[i].kind in kinds})


class Main(Phase):
    name = "main"

    def legal(self, state: MiniCardsState) -> list[int]:
        return [PASS, *_playable(state, state.active, (UNIT, SPELL, INSTANT))]

    def apply(self, state: MiniCardsState, action: int) -> None:
        if action == PASS:
            state.end_turn()
        else:
            state.play(state.active, action - 1)


class Respond(ResponseWindow):
    name = "respond"

    def responder(self, state: MiniCardsState) -> int:
        return state.priority.holder

    def answers(self, state: MiniCardsState) -> list[int]:
        return _playable(state, state.priority.holder, (INSTANT,))

    def answer(self, state: MiniCardsState, action: int) -> None:
        state.play(state.priority.holder, action - 1)

    def close(self, state: MiniCardsState) -> None:
        """Both passed in a row: the top resolves, and priority for what is left starts
        again from its controller's left."""
        priority = state.priority
        if priority.passed():
            item = state.chain.pop()
            priority.restart(priority.after(item.controller))
            state.resolve(item)


class MiniCardsGame:
    """Mini Cards for two players; no options."""

    name = "mini_cards"
    num_players = 2
    num_actions = 1 + len(POOL)
    pool = POOL

    def __repr__(self) -> str:
        return "MiniCardsGame()"

    def new_state(self, seed: int | None = None) -> MiniCardsState:
        rng = random.Random(seed)
        table = Table(self.num_players, ZONES)
        for seat in range(self.num_players):
            for card in self.pool:
                for _ in range(card.copies):
                    table.create(card, seat, "deck")
            rng.shuffle(table.zone("deck", seat))
        return MiniCardsState(self, rng, table)

    def help_text(self) -> str:
        return HELP


class MiniCardsState(PhasedState):
    __slots__ = ("game", "_rng", "_legal", "_rewards", "_returns", "table", "chain", "priority")
    __slots__ += ("figures",)
    __slots__ += ("life", "turn", "phase", "active")

    PHASES = (Main(), Respond(), GameOver())
    game: MiniCardsGame

    def __init__(self, game: MiniCardsGame, rng: random.Random, table: Table) -> None:
        self.game, self._rng, self.table = game, rng, table
        self.chain, self.priority, self.figures = Chain(), PriorityRound((0, 1)), Continuous()
        self.life, self.turn, self.phase, self.active = [LIFE, LIFE], 0, MAIN, 0
        self._rewards, self._returns, self._events = [0.0, 0.0], [0.0, 0.0], []
        for seat in (0, 1):
            self.draw(seat, HAND)
        self.start_turn()
        self.settle()
        self._events = []

    # ----- rules (the phases call these; the vocabulary's primitives too) ------------------

    def play(self, seat: int, index: int) -> None:
        """MC-3: the first copy of card ``index`` in ``seat``'s hand goes on the chain."""
        hand = self.table.zone("hand", seat)
        iid = next(i for i in hand if self.table.cards[i].index == index)
        self.table.move(iid, ("hand", seat), STACK)
        self.chain.push(seat, iid)
        self.priority.answered(seat)
        self.phase = RESPOND
        self._record("card_played", player=seat, card=self.table.cards[iid].name)

    def resolve(self, item: Pending) -> None:
        iid, owner = item.what, item.controller
        card: Card = self.table.cards[iid]
        self.table.remove(iid, STACK)
        if card.kind == UNIT:
            self.table.put(Permanent(iid, card), ("table", owner))
        else:
            self.table.put(iid, ("discard", owner))
        self._record("card_resolved", player=owner, card=card.name)
        dispatch(self, "played", [(card.triggers, Context(owner, source=iid))], self.is_terminal)
        if self.phase != OVER and not self.chain:
            self.phase = MAIN

    def end_turn(self) -> None:
        if self.turn == TURNS:
            better = self.life[0] - self.life[1]
            self.finish(None if better == 0 else int(better < 0))
            return
        self.active = 1 - self.active
        self.start_turn()

    def start_turn(self) -> None:
        """MC-2: a draw, then the active player's units react in table order."""
        seat = self.active
        self.turn += 1
        self._record("turn_started", player=seat, turn=self.turn)
        self.draw(seat, 1)
        units = self.table.zone("table", seat)
        listeners = [(unit.card.triggers, Context(seat, source=unit.iid)) for unit in units]
        dispatch(self, "turn_starts", listeners, self.is_terminal)

    def draw(self, seat: int, count: int) -> None:
        deck = self.table.zone("deck", seat)
        drawn = min(count, len(deck))
        for _ in range(drawn):
            self.table.move(deck[-1], ("deck", seat), ("hand", seat))
        if drawn:
            self._record("cards_drawn", player=seat, count=drawn)

    def boost(self, seat: int) -> int:
        """The continuous effect ``boost`` of the cards on ``seat``'s table."""

        def total() -> int:
            statics = statics_in(self.table, [("table", seat)])
            return sum(modifier.amount for name, modifier in statics if name == "boost")

        return self.figures.get(self.table, ("boost", seat), total)

    def hurt(self, seat: int, reach: Reach, amount: int) -> None:
        victim = seat if reach is Reach.OWNER else 1 - seat
        amount += self.boost(seat)
        self.life[victim] = max(0, self.life[victim] - amount)
        self._record("damaged", player=victim, amount=amount)
        if self.life[victim] == 0:
            self.finish(1 - victim)

    def heal(self, seat: int, amount: int) -> None:
        self.life[seat] += amount
        self._record("healed", player=seat, amount=amount)

    def finish(self, winner: int | None) -> None:
        self.phase = OVER
        self._record("game_over", winner=winner)
        if winner is not None:
            self._reward(winner, 1.0)
            self._reward(1 - winner, -1.0)

    # ----- notation, narration, picture ------------------------------------------------------

    def action_to_string(self, action: int, observer: int | None = None) -> str:
        full = "pass" if action == PASS else f"play {self.game.pool[action - 1].name}"
        mover = self.current_player
        if observer is None or observer == mover:
            return full
        return f"player {mover} {'passes' if action == PASS else full.replace('play', 'plays')}"

    def string_to_action(self, text: str) -> int:
        for action in self._legal:
            if self.action_to_string(action) == text.strip():
                return action
        raise IllegalActionError(f"mini_cards: {text!r} is not a legal move")

    def _describe_event(self, kind: str, facts: dict[str, Any], observer: int | None) -> Event:
        who = f"player {facts.get('player')}"
        text = {
            "card_played": f"{who} plays {facts.get('card')}",
            "card_resolved": f"{facts.get('card')} of {who} resolves",
            "turn_started": f"turn {facts.get('turn')}: {who}",
            "cards_drawn": f"{who} draws {facts.get('count')}",
            "damaged": f"{who} takes {facts.get('amount')} damage",
            "healed": f"{who} heals {facts.get('amount')}",
            "game_over": f"game over, winner {facts.get('winner')}",
        }[kind]
        return Event(kind, text, dict(facts))

    def view(self, observer: int | None = None) -> dict[str, Any]:
        return text_view(self, observer)

    def render(self, observer: int | None = None) -> str:
        table = self.table
        decider = "-" if self.is_terminal() else f"player {self.current_player} decides"
        phase = self.PHASES[self.phase].name
        lines = [f"Turn {self.turn}/{TURNS}, player {self.active} active, {phase}: {decider}"]
        for seat in (0, 1):
            hand, deck = table.definitions("hand", seat), table.definitions("deck", seat)
            shown = observer is None or observer == seat
            lines.append(
                f"player {seat}: life {self.life[seat]}; "
                f"hand {_names(sorted(hand, key=_key)) if shown else len(hand)}; "
                f"deck {_names(deck) if observer is None else len(deck)}; "
                f"table {_names(table.definitions('table', seat))}; "
                f"discard {_names(table.definitions('discard', seat))}"
            )
        lines.append(f"chain: {_names(table.definitions(*STACK))}")
        return "\n".join(lines)

    def stats(self) -> dict[str, float]:
        return {
            "life_0": float(self.life[0]),
            "life_1": float(self.life[1]),
            "turns": float(self.turn),
        }

    # ----- copies and determinizations -----------------------------------------------------

    def clone(self) -> MiniCardsState:
        twin = object.__new__(MiniCardsState)
        twin.game, twin._rng, twin._events = self.game, copy_generator(self._rng), self._events[:]
        twin.table, twin.chain = self.table.copy(), self.chain.copy()
        twin.priority = self.priority.copy()
        twin.figures, twin.life, twin.turn = self.figures.copy(), self.life[:], self.turn
        twin.phase, twin.active, twin._legal = self.phase, self.active, self._legal[:]
        twin._rewards, twin._returns = self._rewards[:], self._returns[:]
        return twin

    def resample_hidden(self, observer: int, rng: random.Random) -> MiniCardsState:
        """Re-deal what ``observer`` cannot identify (``hidden.redeal``), again until the
        player to move has a real choice, as they had here."""

        def deal() -> MiniCardsState:
            twin = self.clone()
            redeal(twin.table, observer, rng)
            twin._rng = random.Random(rng.random())
            return twin

        return resample_consistent(deal, shows_real_choice(self), self.game.name)


def _key(card: Card) -> int:
    return card.index


def _names(cards: list[Card]) -> str:
    return " ".join(card.name for card in cards) or "-"
