"""Which Gold & Dust actions each step allows: the action mask's rules (GD-5 to GD-7).

Module-level functions taking the state, one per kind of move; the phase objects of
``turns`` offer them, and ``GoldDustState`` binds ``play_targets`` as a public method.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tabletop.envs.gold_and_dust.actions import (
    ARTIFACT_SLOTS,
    HERO_TARGET,
    NO_TARGET,
    attack_action,
    block_action,
    move_action,
    play_action,
    shoot_action,
    strike_action,
)
from tabletop.envs.gold_and_dust.cards import ARTIFACT, SPELL, UNIT, Aim, Card
from tabletop.envs.gold_and_dust.effects import ALLY, BACK, FRONT

if TYPE_CHECKING:
    from tabletop.envs.gold_and_dust.engine import GoldDustState


def cost_with(card: Card, auras: list[int]) -> tuple[int, int]:
    """(gold, dust) of ``card`` under a player's ``auras`` (``GoldDustState.auras``)."""
    if card.kind == SPELL:
        return card.gold, max(0, card.dust + auras[4])
    if card.kind == ARTIFACT:
        return max(0, card.gold + auras[5]), card.dust
    return card.gold, card.dust


def plays(state: GoldDustState) -> list[int]:
    """Affordable cards with room on the table and a target if they need one; of two
    copies in hand only the first slot is offered (the plays are the same)."""
    player = state.active
    actions: list[int] = []
    seen: set[int] = set()
    free_slot = None in state.boards[player]
    artifacts_full = len(state.artifact_cards[player]) >= ARTIFACT_SLOTS
    gold_left, dust_left = state.gold[player], state.dust[player]
    cards = state.table.cards
    auras = state.auras(player)
    for hand_slot, iid in enumerate(state.hand_cards[player]):
        card = cards[iid]
        if card.index in seen:
            continue
        seen.add(card.index)
        gold, dust = cost_with(card, auras)
        if (
            gold > gold_left
            or dust > dust_left
            or (card.kind == UNIT and not free_slot)
            or (card.persistent and artifacts_full)
        ):
            continue
        if card.aim is None:
            actions.append(play_action(hand_slot, NO_TARGET))
        else:
            actions += [play_action(hand_slot, t) for t in play_targets(state, card.aim)]
    return actions


def play_targets(state: GoldDustState, aim: Aim) -> list[int]:
    """PLAY target codes a card's parsed ``target`` allows now (HERO_TARGET, 2 + slot)."""
    side = state.active if aim.side == ALLY else 1 - state.active
    codes = [HERO_TARGET] if aim.hero else []
    row = aim.row
    for slot, unit in enumerate(state.boards[side]):
        if unit is not None and not unit.dead and (row is None or unit.row == row):
            codes.append(2 + slot)
    return codes


def moves(state: GoldDustState) -> list[int]:
    return [
        move_action(slot)
        for slot, unit in enumerate(state.boards[state.active])
        if unit is not None
        and unit.row == BACK
        and not (unit.dead or unit.moved or unit.card.immobile)
    ]


def shots(state: GoldDustState) -> list[int]:
    """GD-6.1: any enemy unit; GD-6.2: the Hero only under its conditions."""
    player = state.active
    enemies = [s for s, u in enumerate(state.boards[1 - player]) if u is not None and not u.dead]
    actions = []
    for slot, unit in enumerate(state.boards[player]):
        if unit is None or not unit.card.ranged or not unit.may_attack():
            continue
        if state.may_shoot_hero(player, unit):
            actions.append(shoot_action(slot, 0))
        actions += [shoot_action(slot, 1 + s) for s in enemies]
    return actions


def attacks(state: GoldDustState) -> list[int]:
    """GD-7.1: attackers come from the first row; ranged units attack by shooting."""
    return [
        attack_action(slot)
        for slot, unit in enumerate(state.boards[state.active])
        if unit is not None
        and unit.row == FRONT
        and not unit.card.ranged
        and slot not in state.attackers
        and unit.may_attack()
    ]


def blocks(state: GoldDustState) -> list[int]:
    """GD-7.1: each untapped first-row unit of the defender may block one attacker."""
    defender = 1 - state.active
    busy = set(state.blocks.values())
    blockers = [
        slot
        for slot, unit in enumerate(state.boards[defender])
        if unit is not None
        and unit.row == FRONT
        and not (unit.dead or unit.tapped)
        and slot not in busy
    ]
    return [
        block_action(attacker, blocker)
        for attacker in sorted(state.attackers)
        if attacker not in state.blocks
        for blocker in blockers
    ]


def strikes(state: GoldDustState) -> list[int]:
    """GD-7.4: the enemy Hero or any living unit of the enemy's second row."""
    actions = [strike_action(0)]
    for slot, unit in enumerate(state.boards[1 - state.active]):
        if unit is not None and not unit.dead and unit.row == BACK:
            actions.append(strike_action(1 + slot))
    return actions
