"""Kult's public facts for the conformance check (``checks.check_public_facts_encoded``):
variants of a position that differ from it in one fact every player sees (KU-11.1), which
every encoder must tell apart from it.

- a discard pile's contents: its last card is another card of the pool (the size stays);
- the tokens on a card in a cross: one fewer (or one more on a card without tokens);
- a Hub's tokens and the Pool's: one more.

The encoders cache what they read by the kit's stamps, which every change of the table
renews (a card's tokens are a counted mark, a card's identity renews them all), so a
variant needs nothing more than its change.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tabletop.envs.kult.engine import KultState


def variants(state: KultState) -> Iterator[tuple[str, KultState]]:
    """(fact, variant of ``state`` differing in that fact alone) for each fact the position
    makes checkable (a pile must hold a card, a cross a card)."""
    for seat, pile in enumerate(state.discards):
        if pile:
            yield f"discard {seat} contents", _other_card(state, pile[-1])
    for seat, cross in enumerate(state.crosses):
        station = next((s for s, base in enumerate(cross) if base is not None), None)
        if station is not None:
            variant = state.clone()
            base = variant.crosses[seat][station]
            base.tokens += -1 if base.tokens else 1
            yield f"tokens on a card of cross {seat}", variant
        variant = state.clone()
        variant.hub_tokens[seat] += 1
        yield f"hub {seat} tokens", variant
    variant = state.clone()
    variant.pool_tokens += 1
    yield "pool tokens", variant


def _other_card(state: KultState, iid: int) -> KultState:
    """``state`` with instance ``iid`` (of a discard pile) another card of the pool (the next
    by index)."""
    variant = state.clone()
    variant.table.with_next_card(iid, state.game.pool.cards)
    return variant
