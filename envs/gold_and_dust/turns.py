"""The structure of a Gold & Dust turn: what each action does to the step (GD-4.2's order
B, C, D, E, F), the turn's start (turn limit, untap, regeneration, start-of-turn abilities,
the draw) and its end (burial, the next player's turn).

Module-level functions taking the state; ``GoldDustState`` binds ``do_action`` as its
``_do`` and the public ``begin_turn``, ``draw`` and ``gain`` as methods. The moves
themselves are in ``plays`` (cards, moving up) and ``combat`` (shots, attacks, blocks).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tabletop.envs.gold_and_dust import combat, plays
from tabletop.envs.gold_and_dust.actions import (
    ATTACK_BASE,
    BLOCK_BASE,
    BOARD_SLOTS,
    DONE,
    MAX_HAND,
    MOVE_BASE,
    PLAY_BASE,
    PLAY_TARGETS,
    SHOOT_BASE,
    SHOT_TARGETS,
    STRIKE_BASE,
)
from tabletop.envs.gold_and_dust.effects import run_effects
from tabletop.envs.gold_and_dust.phases import ATTACK, BLOCK, DRAW, MAIN, OVER, SHOOT, finish

if TYPE_CHECKING:
    from tabletop.envs.gold_and_dust.engine import GoldDustState


def do_action(state: GoldDustState, action: int) -> None:
    """Play one legal ``action`` of the player to move (``EngineState._do``)."""
    if action == DONE:
        _done(state)
    elif action < MOVE_BASE:
        hand_slot, target = divmod(action - PLAY_BASE, PLAY_TARGETS)
        plays.play(state, hand_slot, target)
    elif action < SHOOT_BASE:
        plays.move(state, action - MOVE_BASE)
    elif action < ATTACK_BASE:
        combat.shoot(state, *divmod(action - SHOOT_BASE, SHOT_TARGETS))
    elif action < BLOCK_BASE:
        combat.declare_attacker(state, action - ATTACK_BASE)
    elif action < STRIKE_BASE:
        combat.block(state, *divmod(action - BLOCK_BASE, BOARD_SLOTS))
    else:
        combat.strike(state, action - STRIKE_BASE)
        _end_turn_after_strikes(state)


def _done(state: GoldDustState) -> None:
    """End the current step (GD-4.2's order B, C, D, E, F)."""
    if state.phase == MAIN:
        state.phase = SHOOT
    elif state.phase == SHOOT:
        combat.bury_dead(state)  # on_death effects may end the game
        if state.phase != OVER:
            state.phase = ATTACK
    elif state.phase == ATTACK:
        if state.attackers:
            state.phase = BLOCK
        else:
            _end_turn(state)
    elif state.phase == BLOCK:
        combat.resolve_blocks(state)
        _end_turn_after_strikes(state)


def _end_turn_after_strikes(state: GoldDustState) -> None:
    """The turn ends once no unblocked attacker is left to strike (GD-7.4), unless a
    strike ended the game."""
    if not state.strikes and state.phase != OVER:
        _end_turn(state)


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
    draws = 1 + (hero.passive.first_turn_extra_draws if first else 0)
    for _ in range(draws):
        if state.phase == OVER:
            return
        draw(state, player)


def _turn_start_abilities(state: GoldDustState, player: int) -> None:
    for slot, unit in enumerate(state.boards[player]):
        if unit is not None and unit.card.on_turn_start:
            run_effects(state, player, unit.card.on_turn_start, slot)
    for index in list(state.artifacts[player]):
        run_effects(state, player, state.game.cards[index].on_turn_start)
    combat.bury_dead(state)


def _end_turn(state: GoldDustState) -> None:
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
    hand, deck = state.hands[player], state.decks[player]
    if len(hand) >= MAX_HAND:
        card = hand.pop(state.rng.randrange(len(hand)))
        deck.append(card)
        state.rng.shuffle(deck)
        state._record("hand_overflow", player=player, card=card)
    if deck:
        card = deck.pop()
        hand.append(card)
        _record_draw(state, player, card)
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
