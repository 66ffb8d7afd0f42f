"""The structure of a Gold & Dust turn as the kit's phase objects (GD-4.2's order B, C, D,
E, F): each step knows its legal actions and what applying one does; then the turn's start
(turn limit, untap, regeneration, start-of-turn abilities, the draw) and its end (burial,
the next player's turn).

``PHASES`` is indexed by the state's ``phase`` (``phases.MAIN`` … ``phases.OVER``);
``GoldDustState`` runs it and binds the public ``begin_turn``, ``draw`` and ``gain`` as
methods. The moves themselves are in ``plays`` (cards, moving up) and ``combat`` (shots,
attacks, blocks).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tabletop.envs.core.cards.events import Context, dispatch
from tabletop.envs.core.cards.phases import GameOver, Phase, ResponseWindow
from tabletop.envs.gold_and_dust import combat, legal, plays
from tabletop.envs.gold_and_dust.actions import DECODED, DONE, MAX_HAND
from tabletop.envs.gold_and_dust.phases import ATTACK, BLOCK, DRAW, MAIN, OVER, SHOOT, finish

if TYPE_CHECKING:
    from tabletop.envs.gold_and_dust.engine import GoldDustState


class Main(Phase):
    """(B) play cards (GD-2.3) and move units up (GD-5.2), then ``done``."""

    name = "main"

    def legal(self, state: GoldDustState) -> list[int]:
        return [DONE, *legal.plays(state), *legal.moves(state)]

    def apply(self, state: GoldDustState, action: int) -> None:
        if action == DONE:
            state.phase = SHOOT
            return
        kind, fields = DECODED[action]  # legal: the core checked it
        if kind == "play":
            plays.play(state, *fields)
        else:
            plays.move(state, *fields)


class Shoot(Phase):
    """(C) ranged units shoot (GD-6); the dead are buried when the step ends."""

    name = "shoot"

    def legal(self, state: GoldDustState) -> list[int]:
        return [DONE, *legal.shots(state)]

    def apply(self, state: GoldDustState, action: int) -> None:
        if action != DONE:
            combat.shoot(state, *DECODED[action][1])
            return
        combat.bury_dead(state)  # on_death effects may end the game
        if state.phase != OVER:
            state.phase = ATTACK


class Attack(Phase):
    """(D) declare attackers from the first row (GD-7.1); none ends the turn."""

    name = "attack"

    def legal(self, state: GoldDustState) -> list[int]:
        return [DONE, *legal.attacks(state)]

    def apply(self, state: GoldDustState, action: int) -> None:
        if action != DONE:
            combat.declare_attacker(state, *DECODED[action][1])
        elif state.attackers:
            state.phase = BLOCK
        else:
            end_turn(state)


class Block(ResponseWindow):
    """(E) the defender answers the declared attack inside the attacker's turn: a block
    per answer (GD-7.1), ``done`` to let the fights happen (GD-7.2)."""

    name = "block"
    pass_action = DONE

    def responder(self, state: GoldDustState) -> int:
        return 1 - state.active

    def answers(self, state: GoldDustState) -> list[int]:
        return legal.blocks(state)

    def answer(self, state: GoldDustState, action: int) -> None:
        combat.block(state, *DECODED[action][1])

    def close(self, state: GoldDustState) -> None:
        combat.resolve_blocks(state)
        end_turn_after_strikes(state)


class Strike(Phase):
    """(F) the attacker picks the target of each unblocked attacker in turn (GD-7.4)."""

    name = "strike"

    def legal(self, state: GoldDustState) -> list[int]:
        return legal.strikes(state)

    def apply(self, state: GoldDustState, action: int) -> None:
        combat.strike(state, *DECODED[action][1])
        end_turn_after_strikes(state)


PHASES = (Main(), Shoot(), Attack(), Block(), Strike(), GameOver())
"""The steps of a turn, indexed by ``phases.MAIN`` … ``phases.OVER``."""


def end_turn_after_strikes(state: GoldDustState) -> None:
    """The turn ends once no unblocked attacker is left to strike (GD-7.4), unless a
    strike ended the game."""
    if not state.strikes and state.phase != OVER:
        end_turn(state)


def begin_turn(state: GoldDustState, player: int) -> None:
    """Turn limit (GD-9.1), untap (GD-4.2), regeneration except on the first turn
    (GD-2.2), start-of-turn abilities, then the draw (GD-4.1, GD-1.3, GD-9.1)."""
    if state.turn >= state.game.max_turns:
        finish(state, winner=DRAW)
        return
    state.turn += 1
    state.active = player
    state.phase = MAIN
    state._record("turn_started", player=player, turn=state.turn)
    first = state.turns_started[player] == 0
    state.turns_started[player] += 1
    hero = state.heroes[player]
    for unit in state.boards[player]:
        if unit is not None:
            unit.tapped = unit.moved = False
    if not first:
        gain(state, player, hero.gold_regen, hero.dust_regen, "regeneration")
    _turn_start_abilities(state, player)
    draws = 1 + (state.first_turn_draws(player) if first else 0)
    for _ in range(draws):
        if state.phase == OVER:
            return
        draw(state, player)


def _turn_start_abilities(state: GoldDustState, player: int) -> None:
    """The ``turn_starts`` event: the player's units by slot, then lasting artifacts
    (only cards that react to it are listed)."""
    event = "turn_starts"
    listeners = [
        (unit.card.triggers, Context(player, slot))
        for slot, unit in enumerate(state.boards[player])
        if unit is not None and event in unit.card.triggers
    ]
    cards = state.table.cards
    listeners += [
        (cards[iid].triggers, Context(player, -1))
        for iid in state.artifact_cards[player]
        if event in cards[iid].triggers
    ]
    if listeners:
        dispatch(state, event, listeners, state.is_terminal)
    combat.bury_dead(state)


def end_turn(state: GoldDustState) -> None:
    """GD-7.5 burial; units that rested this turn may attack again next turn."""
    combat.bury_dead(state)
    if state.phase == OVER:
        return
    for unit in state.boards[state.active]:
        if unit is not None:
            unit.resting = unit.moved = False
    state.attackers = []
    state.blocks = {}
    state.strikes = []
    begin_turn(state, 1 - state.active)


def draw(state: GoldDustState, player: int) -> None:
    """GD-1.3 overflow, then a draw, or GD-9.1 fatigue from an empty deck."""
    table = state.table
    hand, deck = state.hand_cards[player], state.deck_cards[player]
    if len(hand) >= MAX_HAND:
        iid = table.take(("hand", player), state.rng.randrange(len(hand)), ("deck", player))
        table.shuffle(("deck", player), state.rng)
        state._record("hand_overflow", player=player, card=table.cards[iid].index)
    if deck:
        iid = table.take(("deck", player), -1, ("hand", player))
        _record_draw(state, player, table.cards[iid].index)
        return
    damage = state.fatigue[player]
    state.fatigue[player] += 1
    state.counters["fatigue_damage"] += damage
    state._record("fatigue", player=player, damage=damage)
    combat.hit_hero(state, player, damage)


def _record_draw(state: GoldDustState, player: int, card: int) -> None:
    """One ``cards_drawn`` record for a run of draws by one player (a turn's draws, a
    card's "draw 2"). The record is replaced, not edited: clones share the old one."""
    events = state._events
    if events and events[-1][0] == "cards_drawn" and events[-1][1]["player"] == player:
        events[-1] = (
            "cards_drawn",
            {"player": player, "cards": [*events[-1][1]["cards"], card]},
        )
    else:
        state._record("cards_drawn", player=player, cards=[card])


def gain(state: GoldDustState, player: int, gold: int, dust: int, source: str) -> None:
    """Resources come in (GD-2.2 regeneration, or a card); none are lost or capped."""
    state.gold[player] += gold
    state.dust[player] += dust
    if gold or dust:
        state._record("resources_gained", player=player, gold=gold, dust=dust, source=source)
