"""Gold & Dust's public facts for the conformance check (``checks.check_public_facts_encoded``):
variants of a position that differ from it in one fact both players see (GD-9.3: the
table, both graveyards, both players' gold and dust), which every encoder must tell apart
from it.

- a graveyard's contents: its last card is another card of the pool (the size stays);
- a lasting artifact on the table: another card of the pool;
- a Hero's hit points, gold and dust: one more;
- a unit's hit points: one fewer.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tabletop.envs.gold_and_dust.engine import GoldDustState


def variants(state: GoldDustState) -> Iterator[tuple[str, GoldDustState]]:
    """(fact, variant of ``state`` differing in that fact alone) for each fact the position
    makes checkable (a graveyard or artifact zone must hold a card, a unit must stand)."""
    for seat in (0, 1):
        for zone, iids in (("graveyard", state.grave_cards), ("artifacts", state.artifact_cards)):
            if iids[seat]:
                yield f"{zone} {seat} contents", _other_card(state, iids[seat][-1])
        for figure in ("hp", "gold", "dust"):
            variant = state.clone()
            getattr(variant, figure)[seat] += 1
            yield f"{figure} {seat}", variant
        slot = next((s for s, unit in enumerate(state.boards[seat]) if unit is not None), None)
        if slot is not None and state.boards[seat][slot].hp > 1:
            variant = state.clone()
            variant.boards[seat][slot].hp -= 1
            yield f"unit hp {seat}", variant


def _other_card(state: GoldDustState, iid: int) -> GoldDustState:
    """``state`` with instance ``iid`` another card of the pool (the next by index)."""
    variant = state.clone()
    variant.table.with_next_card(iid, state.game.pool.cards)
    return variant
