"""The main step's own moves in Gold & Dust: playing a card (GD-2.3) and moving a unit up
to the first row (GD-5.2), with the row change's record that card effects share.

Module-level functions taking the state; the card's effects resolve through the kit's
trigger dispatch (the ``played`` event).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tabletop.envs.core.cards.events import Context, dispatch
from tabletop.envs.gold_and_dust.actions import HERO_TARGET, NO_TARGET
from tabletop.envs.gold_and_dust.cards import UNIT, Card
from tabletop.envs.gold_and_dust.combat import bury_dead
from tabletop.envs.gold_and_dust.effects import ALLY, BACK, FRONT, HERO, Target
from tabletop.envs.gold_and_dust.units import Unit

if TYPE_CHECKING:
    from tabletop.envs.gold_and_dust.engine import GoldDustState


def play(state: GoldDustState, hand_slot: int, target_code: int) -> None:
    """GD-2.3: pay, then the card takes effect: a unit enters the second row (GD-5.2)
    unless it has vanguard; spells and one-shot artifacts go to the graveyard after use
    (GD-3.3); lasting artifacts stay on the table."""
    player = state.active
    table = state.table
    iid = table.pop(("hand", player), hand_slot)
    card = table.cards[iid]
    gold, dust = state.cost_of(player, card)
    state.gold[player] -= gold
    state.dust[player] -= dust
    state.counters["cards_played"] += 1
    target = _target_of(state, card, target_code)
    state._record(
        "card_played", player=player, card=card.index, gold=gold, dust=dust,
        target=_target_facts(state, target),
    )  # fmt: skip
    source = -1
    if card.kind == UNIT:
        source = state.boards[player].index(None)
        table.put(Unit(iid, card, FRONT if card.vanguard else BACK), ("board", player), source)
    elif card.persistent:
        table.put(iid, ("artifacts", player))
    if "played" in card.triggers:
        listener = (card.triggers, Context(player, source, target))
        dispatch(state, "played", [listener], state.is_terminal)
    if card.kind != UNIT and not card.persistent:
        table.put(iid, ("graveyard", player))
    bury_dead(state)


def _target_of(state: GoldDustState, card: Card, code: int) -> Target | None:
    if code == NO_TARGET or card.aim is None:
        return None
    side = state.active if card.aim.side == ALLY else 1 - state.active
    return (side, HERO if code == HERO_TARGET else code - 2)


def _target_facts(state: GoldDustState, target: Target | None) -> tuple[int, str] | None:
    """``(side, label)`` of a chosen target, ``label`` "Hero" for a Hero."""
    if target is None:
        return None
    side, slot = target
    return (side, "Hero" if slot == HERO else state.unit_label(side, slot))


def move(state: GoldDustState, slot: int) -> None:
    """GD-5.2: moving up takes the unit's turn."""
    unit = state.boards[state.active][slot]
    unit.row = FRONT
    unit.moved = True
    record_row(state, state.active, slot)


def record_row(state: GoldDustState, side: int, slot: int) -> None:
    """Note that the unit in ``slot`` changed rows (a move, or an effect's)."""
    row = "first" if state.boards[side][slot].row == FRONT else "second"
    state._record("unit_moved", player=side, unit=state.unit_label(side, slot), row=row)
