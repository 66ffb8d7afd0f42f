"""Gold & Dust combat: damage and death (GD-3), shooting (GD-6) and the attack step's
attacks, blocks, fights and strikes (GD-7).

Module-level functions taking the state; ``GoldDustState`` binds the public ones
(``hit_unit``, ``hit_hero``, ``kill_unit``, ``bury_dead``) as methods, which card effects
call. When the turn ends after the strikes is the turn structure's call (``turns``). What
happens to a unit (it dies, is damaged and survives, attacks, blocks, shoots) is an event
its card may react to (``effects.VOCAB``); its effects resolve at once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tabletop.envs.core.cards.events import Context, dispatch
from tabletop.envs.gold_and_dust.phases import OVER, STRIKE, finish

if TYPE_CHECKING:
    from tabletop.envs.gold_and_dust.engine import GoldDustState
    from tabletop.envs.gold_and_dust.units import Unit

# ----- damage and death (used by the engine and by effects) ---------------------------------


def hit_unit(state: GoldDustState, side: int, slot: int, amount: int, pierce: int = 0) -> int:
    """GD-3.2: armour (less ``pierce``) absorbs that much of the hit; returns the damage
    taken. A unit at 0 HP or less dies (GD-3.3); it leaves with the step (GD-7.5)."""
    unit = state.boards[side][slot]
    armour = max(0, state.armour_of(side, unit) - pierce)
    taken = max(0, amount - armour)
    unit.hp -= taken
    if unit.hp <= 0:
        unit.hp = 0
        unit.dead = True
        state.dying = True
    state._record(
        "damage_dealt", player=side, target=state.unit_label(side, slot), amount=amount,
        armour=min(armour, amount), taken=taken, hp=unit.hp,
    )  # fmt: skip
    if taken > 0 and not unit.dead and "damaged" in unit.card.triggers:
        unit_event(state, "damaged", side, slot)
    return taken


def unit_event(state: GoldDustState, event: str, side: int, slot: int) -> None:
    """The unit in ``slot`` of ``side`` reacts to ``event`` (callers check first that its
    card does: most cards react to nothing, and this runs in every fight)."""
    triggers = state.boards[side][slot].card.triggers
    dispatch(state, event, [(triggers, Context(side, slot))], state.is_terminal)


def kill_unit(state: GoldDustState, side: int, slot: int) -> None:
    unit = state.boards[side][slot]
    unit.hp = 0
    unit.dead = True
    state.dying = True
    state._record("unit_destroyed", player=side, unit=state.unit_label(side, slot))


def hit_hero(state: GoldDustState, side: int, amount: int) -> None:
    """A Hero at 0 HP loses (GD-2.4, GD-9.1)."""
    state.hp[side] -= amount
    state._record(
        "damage_dealt", player=side, target="Hero", amount=amount, armour=0, taken=amount,
        hp=state.hp[side],
    )  # fmt: skip
    if state.hp[side] <= 0 and state.phase != OVER:
        finish(state, winner=1 - side)


def bury_dead(state: GoldDustState) -> None:
    """GD-3.3 / GD-7.5: dead units go to the graveyard, then their on_death effects
    resolve (which may kill more). ``state.dying`` says whether a unit died since the last
    burial, so the many calls with nobody to bury cost nothing."""
    while state.dying and state.phase != OVER:
        state.dying = False
        dead = [
            (side, slot, unit)
            for side in (state.active, 1 - state.active)
            for slot, unit in enumerate(state.boards[side])
            if unit is not None and unit.dead
        ]
        if not dead:
            return
        labels = [state.unit_label(side, slot) for side, slot, _ in dead]
        for (side, _, unit), label in zip(dead, labels, strict=True):
            state.table.remove(unit, ("board", side))
            state.table.put(unit.iid, ("graveyard", side))
            state.counters["units_died"] += 1
            state._record("unit_died", player=side, unit=label)
        listeners = [
            (unit.card.triggers, Context(side, -1))
            for side, _, unit in dead
            if "dies" in unit.card.triggers
        ]
        if listeners:
            dispatch(state, "dies", listeners, state.is_terminal)


# ----- the active player's shots and attacks --------------------------------------------------


def shoot(state: GoldDustState, slot: int, target: int) -> None:
    """GD-6: base attack + die, armour absorbs; no return damage (GD-6.3)."""
    player = state.active
    unit = state.boards[player][slot]
    unit.tapped = True
    state._record(
        "unit_shot", player=player, unit=state.unit_label(player, slot),
        target=_target_facts(state, target),
    )  # fmt: skip
    if "shoots" in unit.card.triggers:
        unit_event(state, "shoots", player, slot)
    if state.phase != OVER and not unit.dead:
        _hit_target(state, unit, target)


def declare_attacker(state: GoldDustState, slot: int) -> None:
    """GD-7.1; the attacker is tapped (GD-4.2 F) and cannot block until its owner's turn."""
    state.attackers.append(slot)
    state.boards[state.active][slot].tapped = True
    state._record("attack_declared", player=state.active, unit=state.unit_label(state.active, slot))
    if "attacks" in state.boards[state.active][slot].card.triggers:
        unit_event(state, "attacks", state.active, slot)


def block(state: GoldDustState, attacker: int, blocker: int) -> None:
    """GD-7.1: the defender assigns one blocker to one attacker."""
    state.blocks[attacker] = blocker
    defender = 1 - state.active
    state._record(
        "block_declared", player=defender, unit=state.unit_label(defender, blocker),
        attacker=state.unit_label(state.active, attacker),
    )  # fmt: skip
    if "blocks" in state.boards[defender][blocker].card.triggers:
        unit_event(state, "blocks", defender, blocker)


def resolve_blocks(state: GoldDustState) -> None:
    """GD-7.2 for each blocked attacker, in declaration order; then the strike step, where
    the attacker picks targets for the unblocked ones (GD-7.4)."""
    player, defender = state.active, 1 - state.active
    for attacker_slot in state.attackers:
        blocker_slot = state.blocks.get(attacker_slot)
        if blocker_slot is None:
            continue
        attacker = state.boards[player][attacker_slot]
        blocker = state.boards[defender][blocker_slot]
        state._record(
            "fight", player=player, unit=state.unit_label(player, attacker_slot),
            blocker=state.unit_label(defender, blocker_slot),
        )  # fmt: skip
        taken = hit_unit(
            state, defender, blocker_slot, state.attack_of(player, attacker), attacker.card.pierce
        )
        if taken > 0 and (not blocker.dead or blocker.card.death_strike):
            hit_unit(
                state, player, attacker_slot, state.roll(blocker.card.dice), blocker.card.pierce
            )
        if not blocker.card.tireless:
            blocker.resting = True
    state.strikes = [slot for slot in state.attackers if slot not in state.blocks]
    state.phase = STRIKE


def strike(state: GoldDustState, target: int) -> None:
    """GD-7.4: the next unblocked attacker hits the enemy Hero or a second-row unit."""
    player = state.active
    slot = state.strikes.pop(0)
    unit = state.boards[player][slot]
    state._record(
        "unit_struck", player=player, unit=state.unit_label(player, slot),
        target=_target_facts(state, target),
    )  # fmt: skip
    _hit_target(state, unit, target)


def _hit_target(state: GoldDustState, unit: Unit, target: int) -> None:
    """A shot or strike: base attack + die minus armour; the Assassin adds to Hero hits
    (GD-2.4). ``target``: 0 the enemy Hero, 1 + enemy slot."""
    player = state.active
    damage = state.attack_of(player, unit) + state.roll(unit.card.dice)
    if target == 0:
        hit_hero(state, 1 - player, damage + state.hero_damage_bonus(player))
    else:
        hit_unit(state, 1 - player, target - 1, damage, unit.card.pierce)


def _target_facts(state: GoldDustState, target: int) -> tuple[int, str]:
    """Facts of a shot's or strike's target code (0 the enemy Hero, 1 + enemy slot)."""
    enemy = 1 - state.active
    return (enemy, "Hero" if target == 0 else state.unit_label(enemy, target - 1))
