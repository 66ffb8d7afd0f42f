"""How Gold & Dust writes moves: unit and hand labels, ``action_to_string`` (notation for
the player to move, words for an observer who may only know what the move shows) and
``string_to_action``.

Module-level functions taking the state; ``GoldDustState`` binds the public ones as
methods. The move notation is listed in ``actions``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from tabletop.envs.core.protocol import TERMINAL, IllegalActionError
from tabletop.envs.gold_and_dust.actions import (
    HERO_TARGET,
    NO_TARGET,
    NUM_ACTIONS,
    decode,
)
from tabletop.envs.gold_and_dust.effects import ALLY

if TYPE_CHECKING:
    from tabletop.envs.gold_and_dust.engine import GoldDustState


def unit_labels(state: GoldDustState, side: int) -> dict[int, str]:
    """Board slot -> the name notation uses; same-named units of a side are told apart
    by their order on the table: ``Pikeman#1``, ``Pikeman#2``."""
    return _labels((slot, unit.card.name) for slot, unit in enumerate(state.boards[side]) if unit)


def unit_label(state: GoldDustState, side: int, slot: int) -> str:
    """``unit_labels(side)[slot]`` for one unit, cheaply: events name units as they are
    named on the table at that moment."""
    board = state.boards[side]
    unit = board[slot]
    card = unit.card
    same = [other for other in board if other is not None and other.card is card]
    if len(same) == 1:
        return card.name
    return f"{card.name}#{same.index(unit) + 1}"


def hand_labels(state: GoldDustState, player: int) -> dict[int, str]:
    """Hand slot -> name; only the first copy is ever legal to play, so it keeps the
    plain name and later copies read ``Pikeman#2``."""
    cards = state.table.cards
    named = ((slot, cards[iid].name) for slot, iid in enumerate(state.hand_cards[player]))
    return _labels(named, first_plain=True)


def action_to_string(state: GoldDustState, action: int, observer: int | None = None) -> str:
    """``done``, ``play Pikeman``, ``play Firebolt>Hero``, ``move Pikeman up``,
    ``shoot Archer>Wall``, ``attack Pikeman``, ``block Pikeman with Wall``,
    ``strike Pikeman>Hero``; empty slots read ``slot N``.

    For an ``observer`` other than the player to move, the move in words:
    ``Player 1 plays Firebolt on player 0's Hero``. Every card is played face up
    (GD-9.3), so these words name only what the move shows everyone; the hand slot a
    card comes from is never said, and a play that is not legal names no card (its
    card stays hidden in the hand)."""
    if not 0 <= action < NUM_ACTIONS:
        raise IllegalActionError(
            f"gold_and_dust: action id {action!r} is not in 0..{NUM_ACTIONS - 1}"
        )
    mover = state.current_player
    if observer is None or observer == mover or mover == TERMINAL:
        return _notation(state, action)
    return _observed(state, action, mover)


def _notation(state: GoldDustState, action: int) -> str:
    own, foe = unit_labels(state, state.active), unit_labels(state, 1 - state.active)
    match decode(action):
        case "done", ():
            return "done"
        case "play", (hand_slot, target):
            name, aimed = play_parts(state, hand_slot, target)
            return f"play {name}" + (f">{aimed[1]}" if aimed else "")
        case "move", (slot,):
            return f"move {slot_name(own, slot)} up"
        case "shoot", (slot, target):
            return f"shoot {slot_name(own, slot)}>{_target_name(foe, target)}"
        case "attack", (slot,):
            return f"attack {slot_name(own, slot)}"
        case "block", (attacker, blocker):
            return f"block {slot_name(own, attacker)} with {slot_name(foe, blocker)}"
        case _, (target,):  # strike
            striker = slot_name(own, state.strikes[0]) if state.strikes else "nobody"
            return f"strike {striker}>{_target_name(foe, target)}"


def _observed(state: GoldDustState, action: int, mover: int) -> str:
    """The move in words for the player who does not make it (``action_to_string``)."""
    active, enemy = state.active, 1 - state.active
    own, foe = unit_labels(state, active), unit_labels(state, enemy)
    who = f"Player {mover}"
    match decode(action):
        case "done", ():
            return f"{who} ends the {state.phase_name} step"
        case "play", (hand_slot, target):
            if action not in state._legal:
                return f"{who} plays a card from their hand"
            name, aimed = play_parts(state, hand_slot, target)
            return f"{who} plays {name}" + (f" on player {aimed[0]}'s {aimed[1]}" if aimed else "")
        case "move", (slot,):
            return f"{who} moves {slot_name(own, slot)} up to the first row"
        case "shoot", (slot, target):
            shot = f"player {enemy}'s {_target_name(foe, target)}"
            return f"{who}'s {slot_name(own, slot)} shoots {shot}"
        case "attack", (slot,):
            return f"{who} attacks with {slot_name(own, slot)}"
        case "block", (attacker, blocker):
            blocked = f"player {active}'s {slot_name(own, attacker)}"
            return f"{who} blocks {blocked} with {slot_name(foe, blocker)}"
        case _, (target,):  # strike
            striker = slot_name(own, state.strikes[0]) if state.strikes else "nobody"
            hit = f"player {enemy}'s {_target_name(foe, target)}"
            return f"{who}'s {striker} strikes {hit}"


def play_parts(
    state: GoldDustState, hand_slot: int, target: int
) -> tuple[str, tuple[int, str] | None]:
    """A play's card label and its target as ``(side, "Hero" or unit label)``."""
    hand = state.hand_cards[state.active]
    if hand_slot >= len(hand):
        name, aim = f"hand slot {hand_slot + 1}", None
    else:
        name = hand_labels(state, state.active)[hand_slot]
        aim = state.card(hand[hand_slot]).aim
    if target == NO_TARGET:
        return name, None
    side = state.active if aim is not None and aim.side == ALLY else 1 - state.active
    labels = unit_labels(state, side)
    return name, (side, "Hero" if target == HERO_TARGET else slot_name(labels, target - 2))


def string_to_action(state: GoldDustState, text: str) -> int:
    """The action whose ``action_to_string`` is ``text`` (case and spacing free); legal
    actions are matched first."""
    wanted = " ".join(text.replace(">", " > ").split()).lower()
    for candidates in (state._legal, range(NUM_ACTIONS)):
        for action in candidates:
            shown = action_to_string(state, action).replace(">", " > ")
            if " ".join(shown.split()).lower() == wanted:
                return action
    raise IllegalActionError(
        f"gold_and_dust: cannot read action {text!r}; legal now: "
        + ", ".join(action_to_string(state, a) for a in state._legal)
    )


def _labels(named: Iterable[tuple[int, str]], *, first_plain: bool = False) -> dict[int, str]:
    """Names numbered ``#1``, ``#2`` … in slot order where a name occurs more than once;
    with ``first_plain`` the first keeps its plain name."""
    named = list(named)
    totals: dict[str, int] = {}
    for _, name in named:
        totals[name] = totals.get(name, 0) + 1
    seen: dict[str, int] = {}
    labels = {}
    for slot, name in named:
        seen[name] = seen.get(name, 0) + 1
        plain = totals[name] == 1 or (first_plain and seen[name] == 1)
        labels[slot] = name if plain else f"{name}#{seen[name]}"
    return labels


def slot_name(labels: dict[int, str], slot: int) -> str:
    """A unit's label, or ``slot N`` for an empty slot."""
    return labels.get(slot, f"slot {slot + 1}")


def _target_name(labels: dict[int, str], target: int) -> str:
    """Shot and strike targets: 0 the Hero, 1 + unit slot."""
    return "Hero" if target == 0 else slot_name(labels, target - 1)
