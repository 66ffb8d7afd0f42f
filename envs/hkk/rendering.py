"""The text picture of an HKK position (``render``): what ``observer`` may see (HK-11.1),
or everything for ``observer=None`` (both hands shown). Every card played is public, so
the picture ends with what happened in the last decision, as ``observer`` may know it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from tabletop.envs.hkk import figures
from tabletop.envs.hkk.cards import Building, Card, Creature, Item
from tabletop.envs.hkk.combat import PLAYER, Fight
from tabletop.envs.hkk.plays import Play
from tabletop.envs.hkk.steps import PHASE_NAMES
from tabletop.envs.hkk.zones import InPlay

if TYPE_CHECKING:
    from tabletop.envs.hkk.engine import HkkState


def _entry(state: HkkState, seat: int, position: int, entry: InPlay) -> str:
    text = f"#{position} {entry.card.name}"
    if figures.is_creature(entry):
        text += f" {figures.damage(state, entry)}/{figures.life(state, entry)}"
        text += " G" if entry.area == "guard" else " R"
    text += " A" if entry.active else " P"
    marks = {"dmg": entry.damage, "psn": entry.poison, "+": entry.counters, "Lv": entry.levels}
    text += "".join(f" {mark}{value}" for mark, value in marks.items() if value)
    if entry.host is not None:
        hosts = [i for i, e in enumerate(state.tables[seat]) if e.iid == entry.host]
        text += f" on #{hosts[0]}" if hosts else ""
    return text


def _where(state: HkkState, iid: int) -> str:
    """A card by its seat and table position now (``?`` once it has left)."""
    for seat, table in enumerate(state.tables):
        for position, entry in enumerate(table):
            if entry.iid == iid:
                return f"player {seat}'s #{position} {entry.card.name}"
    return f"{state.card(iid).name} (gone)"


def _fight(state: HkkState, fight: Fight) -> list[str]:
    """The combat so far: attacks, strike-back choices, direct damage declared."""
    lines = []
    for attacker, aim in fight.attacks.items():
        target = "the player" if aim == PLAYER else _where(state, aim)
        back = " (struck back)" if aim != PLAYER and fight.strikes_back.get(aim) == attacker else ""
        lines.append(f"Attack: {_where(state, attacker)} -> {target}{back}")
    for breath in fight.breaths:
        target = "the player" if breath.target == PLAYER else _where(state, breath.target)
        lines.append(f"Direct: {_where(state, breath.iid)} {breath.amount} -> {target}")
    return lines


def _item(state: HkkState, play: Play) -> str:
    """A chain item: the card or ability and its target where it lies now."""
    text = state.card(play.iid).name
    text += f" ability {play.ability + 1}" if play.ability >= 0 else ""
    if play.target is None:
        return text
    for seat, table in enumerate(state.tables):
        for position, entry in enumerate(table):
            if entry.iid == play.target:
                return f"{text} on player {seat}'s #{position} {entry.card.name}"
    return f"{text} on {state.card(play.target).name}"


def _player(state: HkkState, seat: int, observer: int | None) -> list[str]:
    lines = [
        f"Player {seat}{' (to move)' if state.player == seat else ''}: life {state.life[seat]}, "
        f"VP {state.vp[seat]}, components {state.components[seat]}, deck "
        f"{len(state.decks[seat])}, discard {len(state.discards[seat])}, void "
        f"{len(state.voids[seat])}"
    ]
    pile = state.discards[seat]
    lines.append("  discard: " + (", ".join(state.card(i).name for i in pile) or "-"))
    hand = state.hands[seat]
    if observer is None or observer == seat:
        lines.append("  hand: " + (", ".join(state.card(i).name for i in hand) or "-"))
    else:
        lines.append(f"  hand: {len(hand)} cards")
    lines += [f"  {_entry(state, seat, p, e)}" for p, e in enumerate(state.tables[seat])]
    return lines


def render(state: HkkState, observer: int | None = None) -> str:
    """The position as text: the step, both players, the chain."""
    lines = [f"Turn {state.turn}, player {state.active}'s {PHASE_NAMES[state.phase]}"]
    if state.winner is not None:
        lines.append(
            "Game over: " + ("a draw" if state.winner < 0 else f"player {state.winner} wins")
        )
    for seat in (0, 1):
        lines += _player(state, seat, observer)
    if state.stack:
        lines.append("Chain: " + " <- ".join(_item(state, item.what) for item in state.stack.items))
    if state.fight is not None:
        lines += _fight(state, state.fight)
    lines += [f"Last: {event.text}" for event in state.last_events(observer)]
    return "\n".join(lines)


def card_line(card: Card) -> str:
    """One card of the pool as a player reads it: colour and type, what it costs, a
    creature's damage/life and components, then its text."""
    kind = card.TYPE.replace("_", " ")
    facts = [kind if card.colour == "colourless" else f"{card.colour} {kind}"]
    if isinstance(card, Building):
        facts.append(f"raised by {card.builders} creatures, structure {card.structure}")
    elif isinstance(card, Item):
        facts.append(f"costs {_components(card.components)}")
    elif hasattr(card, "cost"):
        facts.append(f"costs {card.cost} VP")
    if isinstance(card, Creature):
        subtypes = f" ({', '.join(card.subtypes)})" if card.subtypes else ""
        facts[0] += subtypes
        facts.append(f"{card.damage}/{card.life} (damage/life)")
        facts.append(_components(card.components))
    return f"{card.name}: {'; '.join(facts)}. {card.text}"


def _components(count: int) -> str:
    return f"{count} component{'' if count == 1 else 's'}"


def card_descriptions(cards: Sequence[Card]) -> dict[str, str]:
    """Card name -> ``card_line``, for every card of the pool (the pool is public)."""
    return {card.name: card_line(card) for card in cards}
