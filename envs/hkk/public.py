"""HKK's public facts for the conformance check (``checks.check_public_facts_encoded``):
variants of a position that differ from it in one fact both players see (HK-11.1), which
every encoder must tell apart from it.

- a discard pile's or a Void's contents: its top card is another card of the pool (the
  pile's size stays);
- the defender's choice of which of its two attackers it strikes back (HK-6.2);
- whether a damaged creature's damage is fresh enough to regenerate (HK-7.9).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tabletop.envs.hkk.engine import HkkState


def variants(state: HkkState) -> Iterator[tuple[str, HkkState]]:
    """(fact, variant of ``state`` differing in that fact alone) for each fact that the
    position makes checkable (a pile must hold a card, a defender must have two attackers)."""
    for zone in ("discard", "void"):
        for seat, pile in enumerate(state.table.zones[zone]):
            if pile:
                yield f"{zone} {seat} contents", _other_card(state, pile[-1])
    fight = state.fight
    if fight is not None:
        for defender, attacker in sorted(fight.strikes_back.items()):
            others = [a for a in fight.attackers_of(defender) if a != attacker]
            if others:
                variant = state.clone()
                variant.combat.strikes_back[defender] = others[0]
                yield "strike-back choice", variant
    for table in state.tables:
        for entry in table:
            if entry.damage and entry.area in ("guard", "reserve"):
                variant = state.clone()
                variant.wounds ^= {entry.iid}
                yield "fresh wound", variant
                return  # (one creature shows the fact)


def _other_card(state: HkkState, iid: int) -> HkkState:
    """``state`` with instance ``iid`` another card of the pool (the next by index)."""
    variant = state.clone()
    variant.table.with_next_card(iid, state.game.pool.cards)
    return variant
