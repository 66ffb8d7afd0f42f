"""The text picture of a Kult position (``render``): what ``observer`` may see (KU-11.1),
or everything for ``observer=None`` (the hands and the Hub cards shown too)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from tabletop.envs.kult import crosses
from tabletop.envs.kult.actions import CAST, SCENE
from tabletop.envs.kult.notation import colour_name, move_text, station_name
from tabletop.envs.kult.turns import PHASE_NAMES

if TYPE_CHECKING:
    from tabletop.envs.kult.cards import Arcanum, Card
    from tabletop.envs.kult.combat import Fight
    from tabletop.envs.kult.engine import KultState, Move


def keys_text(counts: list[int]) -> str:
    shown = [
        f"{colour_name(c)}x{n}" if n > 1 else colour_name(c) for c, n in enumerate(counts) if n
    ]
    return " ".join(shown) or "-"


def _station(state: KultState, seat: int, station: int) -> str:
    base = state.crosses[seat][station]
    marks = [a.card.name for a in crosses.station_attachments(state, seat, station)]
    if base is None:
        card = "-"
    else:
        card = ("" if base.face_up else "~") + base.card.name
        card += f" *{base.tokens}" if base.tokens else ""
        if base.card.kind == "being":
            card += f" ({crosses.combat_value(state, seat, station)})"
        marks = [a.card.name for a in crosses.attachments_on(state, seat, station)] + marks
    on = f" [{', '.join(marks)}]" if marks else ""
    return f"{station_name(station)}: {card}{on}"


def _player(state: KultState, seat: int, observer: int | None) -> list[str]:
    arcanum = state.arcana[seat]
    hub = [a.card.name for a in crosses.hub_attachments(state, seat)]
    lines = [
        f"p{seat} {arcanum.name} (Hierarchy {arcanum.hierarchy}): Hub *{state.hub_tokens[seat]}"
        + (f" [{', '.join(hub)}]" if hub else ""),
        f"  keys {keys_text(crosses.permanent_keys(state, seat))}"
        f" + temporary {keys_text(state.temp_keys[seat])}",
        f"  hand {len(state.hands[seat])}, deck {len(state.decks[seat])}, "
        f"discard {len(state.discards[seat])}",
    ]
    cards = state.table.cards
    if observer is None or observer == seat:
        lines.append(f"  hand: {', '.join(cards[i].name for i in state.hands[seat]) or '-'}")
    if observer is None:
        lines.append(f"  Hub card: {', '.join(cards[i].name for i in state.hub_cards[seat])}")
    lines.append("  " + " | ".join(_station(state, seat, s) for s in SCENE))
    lines.append("  " + " | ".join(_station(state, seat, s) for s in CAST))
    if state.discards[seat]:
        lines.append(f"  discard: {', '.join(cards[i].name for i in state.discards[seat])}")
    return lines


def _fight(fight: Fight) -> str:
    (seat, attacker), (target, defender) = fight.attacker, fight.defender
    text = f"p{seat}.{station_name(attacker)} against p{target}.{station_name(defender)}"
    text += f", bonus {fight.bonus[0]:+d}/{fight.bonus[1]:+d}"
    text += " (cancelled)" if fight.cancelled else ""
    if fight.result is not None:
        text += f": {fight.values[0]} against {fight.values[1]}, {fight.result}"
    return text


def _move(state: KultState, move: Move) -> str:
    name = None if move.card is None else state.game.cards[move.card].name
    text = move_text(state.game.num_players, move.seat, move.action, name, move.window)
    return f"p{move.seat} {text}"


def render(state: KultState, observer: int | None = None) -> str:
    """Turn, phase and who decides; every player's cross; the Pool; the fight if any."""
    who = "over" if state.is_terminal() else f"p{state.player} decides"
    lines = [f"Turn {state.turn}, p{state.active}'s {PHASE_NAMES[state.phase]} phase, {who}"]
    for seat in range(state.game.num_players):
        lines += _player(state, seat, observer)
    pool = [a.card.name for a in state.pool_influences]
    lines.append(f"Pool *{state.pool_tokens}" + (f" [{', '.join(pool)}]" if pool else ""))
    for label, fight in (("Fight", state.fight), ("Last fight", state.last_fight)):
        if fight is not None:
            lines.append(f"{label}: {_fight(fight)}")
    if state.moves and state.plies:  # the deal's forced moves are nobody's moves yet
        lines.append(f"Last moves: {'; '.join(_move(state, move) for move in state.moves)}")
    if state.pending_push is not None:
        lines.append(f"Push owed for {station_name(state.pending_push)}'s ability")
    return "\n".join(lines)


def card_line(card: Card) -> str:
    """One card of the pool as a player reads it: allegiance and kind, its key cost, a
    Being's combat value, what a card holds, its stations, then its text."""
    cost = keys_text(list(card.cost))
    facts = [f"{card.allegiance} {card.kind}", "costs nothing" if cost == "-" else f"costs {cost}"]
    if card.kind == "being":
        facts.append(f"combat {card.combat}")
    if card.holds:
        facts.append(f"holds {card.holds}")
    if card.stations:
        facts.append("stations " + ", ".join(str(s + 1) for s in sorted(card.stations)))
    return f"{card.name}: {'; '.join(facts)}. {card.text}"


def arcanum_line(arcanum: Arcanum) -> str:
    """An Arcanum as a player reads it: Hierarchy, keys, hand size and text."""
    keys = keys_text(list(arcanum.keys))
    return (f"{arcanum.name}: Arcanum; Hierarchy {arcanum.hierarchy}; keys {keys}; "
            f"hand size {arcanum.hand_size}. {arcanum.text}")  # fmt: skip


def card_descriptions(cards: Sequence[Card], arcana: Sequence[Arcanum]) -> dict[str, str]:
    """Name -> ``card_line`` or ``arcanum_line``, for every card and Arcanum of the pool
    (the pool is public)."""
    lines = {arcanum.name: arcanum_line(arcanum) for arcanum in arcana}
    return lines | {card.name: card_line(card) for card in cards}
