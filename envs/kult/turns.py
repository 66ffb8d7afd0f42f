"""A Kult turn as the kit's phase objects (KU-7): the seven phases every turn has.

1. Draw (KU-7.1) and 7. Refresh (KU-7.7) involve no choice and are played by
   ``begin_turn`` and ``end_turn``; the phases with decisions are ``PHASES``:
2. ``Attract`` (KU-7.2), 3. ``RecruitWindow`` (the other players' Commands, KU-7's
   decision) then ``Recruit`` (KU-7.3), 4. ``Actions`` (KU-7.4, with pushes, KU-6, and
   push abilities, KU-6.5), 5. ``Attack`` then ``FightWindow`` (KU-7.5), 6. ``Discard``
   (KU-7.6). A card can be turned for its ability (KU-5.2) in every one of these phases
   but the windows. ``GameOver`` holds once someone has won (KU-9.1), the ply limit is
   reached or the game stalls (KU-9.3).

Every phase ends with ``done`` (``pass`` in a window); a phase whose only legal action is
``done`` is passed by the engine without asking (a window with nobody able to answer
closes the same way).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tabletop.envs.core.cards.phases import GameOver, Phase, ResponseWindow, phase_names
from tabletop.envs.core.cards.priority import PriorityRound
from tabletop.envs.kult import combat, crosses, plays
from tabletop.envs.kult.actions import (
    DECODED,
    DISCARD_BASE,
    DONE,
    NO_COLOUR,
    attract_action,
    recruit_action,
)
from tabletop.envs.kult.effects import ANY, BEFORE_RECRUIT, FIGHT

if TYPE_CHECKING:
    from tabletop.envs.kult.engine import KultState

ATTRACT, RECRUIT_WINDOW, RECRUIT, ACTIONS, ATTACK, FIGHT_WINDOW, DISCARD, OVER = range(8)


class Window(PriorityRound):
    """A Commands window: the kit's round of priority among the ``seats`` that may answer,
    in the order they answer; it closes when every seat has passed in a row (KU-7's
    decision)."""

    __slots__ = ()

    @property
    def responder(self) -> int:
        """The seat answering now (the round's holder)."""
        return self.holder


def seats_from(state: KultState, first: int, include_first: bool) -> tuple[int, ...]:
    """Seats in turn order starting at ``first`` (or just after it)."""
    players = state.game.num_players
    start = 0 if include_first else 1
    return tuple((first + k) % players for k in range(start, players))


class TurnPhase(Phase):
    """A phase of the active seat: ``done`` ends it (``done``), a card may be turned for
    its ability in it (KU-5.2), and ``act`` plays any other of its actions."""

    def apply(self, state: KultState, action: int) -> None:
        if action == DONE:
            self.done(state)
            return
        kind, fields = DECODED[action]  # legal: the core checked it
        if kind == "turn":
            plays.turn_for_ability(state, state.active, fields[0])
        else:
            self.act(state, kind, fields)

    def done(self, state: KultState) -> None:
        raise NotImplementedError

    def act(self, state: KultState, kind: str, fields: tuple[int, ...]) -> None:
        raise NotImplementedError


class Attract(TurnPhase):
    """KU-7.2: attract tokens inward, any number of times."""

    name = "attract"

    def legal(self, state: KultState) -> list[int]:
        moves = crosses.attractions(state, state.active)
        return [
            DONE, *sorted(attract_action(s, t) for s, t in moves),
            *plays.turn_abilities(state, state.active),
        ]  # fmt: skip

    def done(self, state: KultState) -> None:
        state.window = Window(seats_from(state, state.active, include_first=False))
        state.phase = RECRUIT_WINDOW

    def act(self, state: KultState, kind: str, fields: tuple[int, ...]) -> None:
        crosses.attract(state, state.active, *fields)


class CommandWindow(ResponseWindow):
    """A window in which the seats of ``state.window`` may play Commands (KU-7): each
    answers in turn, passing when they hold no Command they can pay for now."""

    pass_action = DONE
    timings: tuple[float, ...] = (ANY,)

    def responder(self, state: KultState) -> int:
        return state.window.responder

    def answers(self, state: KultState) -> list[int]:
        return plays.commands(state, state.window.responder, self.timings)

    def answer(self, state: KultState, action: int) -> None:
        seat = state.window.responder
        plays.play_command(state, seat, DECODED[action][1][0])
        if not state.is_terminal():
            state.window.answered(seat)

    def close(self, state: KultState) -> None:
        if state.window.passed():
            state.window = None
            self.closed(state)

    def closed(self, state: KultState) -> None:
        raise NotImplementedError


class RecruitWindow(CommandWindow):
    """At the start of the recruit phase the other players, in seat order, may play
    Commands (the seed's "even if you recruit no token"), e.g. an embargo."""

    name = "recruit window"
    timings = (ANY, BEFORE_RECRUIT)

    def closed(self, state: KultState) -> None:
        state.phase = RECRUIT


class Recruit(TurnPhase):
    """KU-7.3: one token from the Pool onto each chosen face-up Cast card."""

    name = "recruit"

    def legal(self, state: KultState) -> list[int]:
        seat = state.active
        return [
            DONE, *(recruit_action(s) for s in crosses.recruits(state, seat)),
            *plays.turn_abilities(state, seat),
        ]  # fmt: skip

    def done(self, state: KultState) -> None:
        state.phase = ACTIONS

    def act(self, state: KultState, kind: str, fields: tuple[int, ...]) -> None:
        crosses.recruit(state, state.active, fields[0])


class Actions(TurnPhase):
    """KU-7.4: play base cards and Influences, Commands, push for keys (KU-6), use
    abilities (KU-5.2, KU-6.5); after an ability that costs a push, only that push."""

    name = "actions"

    def legal(self, state: KultState) -> list[int]:
        seat = state.active
        if state.pending_push is not None:
            return plays.pushes(state, seat, paying=True)
        return plays.actions_phase(state, seat)

    def done(self, state: KultState) -> None:
        state.phase = ATTACK

    def act(self, state: KultState, kind: str, fields: tuple[int, ...]) -> None:
        seat = state.active
        if kind == "push":
            source, target, colour = fields
            if colour == NO_COLOUR:
                plays.pay_push(state, seat, source, target)
            else:
                crosses.push(state, seat, source, target, colour)
        elif kind == "play":
            plays.play_base(state, seat, *fields)
        elif kind == "attach":
            plays.play_influence(state, seat, *fields)
        elif kind == "command":
            plays.play_command(state, seat, fields[0])
        else:
            plays.invoke(state, seat, fields[0])


class Attack(TurnPhase):
    """KU-7.5: declare at most one attack, or none."""

    name = "attack"

    def legal(self, state: KultState) -> list[int]:
        seat = state.active
        return [DONE, *plays.turn_abilities(state, seat), *combat.attacks(state, seat)]

    def done(self, state: KultState) -> None:
        state.phase = DISCARD

    def act(self, state: KultState, kind: str, fields: tuple[int, ...]) -> None:
        combat.declare(state, state.active, *fields)
        state.window = Window(seats_from(state, state.active, include_first=True))
        state.phase = FIGHT_WINDOW


class FightWindow(CommandWindow):
    """After attacker and target are named: the attacker, then the others in seat order,
    may play Commands until all pass in a row; then the values are compared."""

    name = "fight window"
    timings = (ANY, FIGHT)

    def closed(self, state: KultState) -> None:
        combat.resolve_fight(state)
        state.phase = DISCARD


class Discard(TurnPhase):
    """KU-7.6: discard one card from hand, or none; then the turn ends."""

    name = "discard"

    def legal(self, state: KultState) -> list[int]:
        seat = state.active
        return [
            DONE, *plays.turn_abilities(state, seat),
            *(DISCARD_BASE + slot for slot, _ in plays.distinct_hand(state, seat)),
        ]  # fmt: skip

    def done(self, state: KultState) -> None:
        end_turn(state)

    def act(self, state: KultState, kind: str, fields: tuple[int, ...]) -> None:
        seat = state.active
        iid = state.table.take(("hand", seat), fields[0], ("discard", seat))
        state._record("card_discarded", seat=seat, card=state.table.cards[iid].index,
                      owner=seat, from_hand=True)  # fmt: skip
        end_turn(state)


PHASES = (Attract(), RecruitWindow(), Recruit(), Actions(), Attack(), FightWindow(), Discard(),
          GameOver())  # fmt: skip
PHASE_NAMES = phase_names(PHASES)
"""Each phase's name as rendering and ``stats`` give it."""


def begin_turn(state: KultState, seat: int) -> None:
    """Phase 1, draw (KU-7.1): fill the hand to the Arcanum's size; then attract."""
    state.active = seat
    state.turn += 1
    state._record("turn_started", player=seat, turn=state.turn)
    missing = state.arcana[seat].hand_size - len(state.hands[seat])
    if missing > 0:
        state.draw(seat, missing)
    state.phase = ATTRACT


def end_turn(state: KultState) -> None:
    """Phase 7, refresh (KU-7.7); every temporary key breaks (KU-4.3); the next seat's
    turn begins, unless the game has stalled (KU-9.3: a draw)."""
    crosses.refresh_cross(state, state.active)
    for keys in state.temp_keys:
        keys[:] = [0] * len(keys)
    state.recruited.clear()
    state.invoked.clear()
    state.embargo = False
    state.attacked = False
    if not state.end_if_stalled():
        begin_turn(state, (state.active + 1) % state.game.num_players)
