"""The text picture of an HKK position (``render``): what ``observer`` may see (HK-11.1),
or everything for ``observer=None`` (both hands shown)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tabletop.envs.hkk import figures
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


def _player(state: HkkState, seat: int, observer: int | None) -> list[str]:
    lines = [
        f"Player {seat}{' (to move)' if state.player == seat else ''}: life {state.life[seat]}, "
        f"VP {state.vp[seat]}, components {state.components[seat]}, deck "
        f"{len(state.decks[seat])}, discard {len(state.discards[seat])}, void "
        f"{len(state.voids[seat])}"
    ]
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
        chain = [state.card(item.what.iid).name for item in state.stack.items]
        lines.append("Chain: " + " <- ".join(chain))
    return "\n".join(lines)
