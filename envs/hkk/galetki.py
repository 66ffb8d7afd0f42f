"""Galetki (HK-4.5, HK-9.4): eating mutants, +1/+1 counters on your galetki instead of
the components of a mutant or from a mutant of yours sacrificed at instant speed; and body
parts sacrificed to shield their galetki from a card or ability.

**Project decisions**: the counters of one meal are placed one at a time, each on a
galetki its controller picks (so they may be spread, HK-4.5); sacrificing a mutant for its
counters, or a body part for its galetki, is no action on the chain (like paying a cost,
it answers nothing and cannot be answered) and may be done when its controller has
priority in a window (a mutant is fed outside life-saving windows only, HK-6.5). A body
part shields its galetki from a card or ability on the chain that targets it or reaches
it among a group; strikes and direct damage (breath included), which are not on the
chain, cannot be absorbed (HK-9.4).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tabletop.envs.hkk import figures, plays
from tabletop.envs.hkk.actions import CHOOSE_BASE, MAX_TABLE, PASS, SACRIFICE_BASE, own_ref
from tabletop.envs.hkk.cards import BodyPart, Card, Galetki, Mutant
from tabletop.envs.hkk.zones import InPlay

if TYPE_CHECKING:
    from tabletop.envs.hkk.engine import HkkState


def galetki_of(state: HkkState, seat: int) -> list[InPlay]:
    return [e for e in figures.creatures(state, seat) if isinstance(e.card, Galetki)]


def gain_from(state: HkkState, seat: int, card: Card) -> None:
    """``seat`` would gain a creature's components (HK-5.1); a mutant's may be eaten by
    their galetki instead, component by component (HK-4.5)."""
    amount = getattr(card, "components", 0)
    if isinstance(card, Mutant) and amount and galetki_of(state, seat):
        state.pending.offer(EatChoice(seat, amount, True))
    else:
        state.gain_components(seat, amount)


def feed_actions(state: HkkState, seat: int) -> list[int]:
    """Sacrificing an active mutant of ``seat``'s that shows components, while they have
    a galetki in play (HK-4.5); never in a life-saving window, where only what raises
    life may be done (HK-6.5), so never a dying mutant, whose death gives the other player
    its components (HK-5.1)."""
    if state.saving:
        return []
    feeds = [SACRIFICE_BASE + position
             for position, entry in enumerate(state.tables[seat][:MAX_TABLE])
             if isinstance(entry.card, Mutant) and entry.card.components
             and entry.active and plays.alive(state, entry)]  # fmt: skip
    return feeds if feeds and galetki_of(state, seat) else []


def feed(state: HkkState, seat: int, position: int) -> None:
    """The mutant goes to the discard pile (nobody gains its components, HK-5.1) and its
    components become counters on ``seat``'s galetki."""
    entry = state.tables[seat][position]
    state.leave(entry, "discard", gives=False)
    state.pending.offer(EatChoice(seat, entry.card.components, False))
    state.priority_round.acted()


def sacrifice(state: HkkState, seat: int, position: int) -> None:
    """A window's ``sacrifice``: a mutant fed to the galetki, or a body part as a shield."""
    if isinstance(state.tables[seat][position].card, BodyPart):
        shield(state, seat, position)
    else:
        feed(state, seat, position)


def _threats(state: HkkState, seat: int) -> Iterator[tuple[plays.Play, InPlay]]:
    """(chain item, galetki of ``seat``'s carrying a body part) where the item would do
    something to the galetki and is not shielded from it yet, the top of the chain first."""
    if not state.stack:
        return
    carriers = [g for g in galetki_of(state, seat) if _parts(state, seat, g)]
    for item in reversed(state.stack.items):
        play = item.what
        card = state.card(play.iid)
        kinds = figures.kinds_of(card, play.ability >= 0)
        groups = [e.reach for e in plays.effects_of(card, play.ability)
                  if e.reach is not None and e.reach.how == "each"]  # fmt: skip
        for galetki in carriers:
            if (play, galetki.iid) in state.shields:
                continue
            if play.target == galetki.iid or any(
                plays.matches(state, item.controller, reach, galetki, kinds) for reach in groups
            ):
                yield play, galetki


def _parts(state: HkkState, seat: int, galetki: InPlay) -> list[InPlay]:
    return [a for a in figures.attached(state, seat, galetki) if isinstance(a.card, BodyPart)]


def shield_actions(state: HkkState, seat: int) -> list[int]:
    """HK-9.4: a body part of a threatened galetki, sacrificed (none without a chain)."""
    if not state.stack:
        return []
    table = state.tables[seat]
    shown: dict[int, None] = {}
    for _, galetki in _threats(state, seat):
        for part in figures.attached(state, seat, galetki):
            position = table.index(part)
            if isinstance(part.card, BodyPart) and position < MAX_TABLE:
                shown[position] = None
    return [SACRIFICE_BASE + position for position in shown]


def shield(state: HkkState, seat: int, position: int) -> None:
    """The body part goes to the discard pile, and the topmost card or ability that threatens
    its galetki does nothing to it (HK-9.4)."""
    part = state.tables[seat][position]
    play, galetki = next((p, g) for p, g in _threats(state, seat) if g.iid == part.host)
    state.shields.add((play, galetki.iid))
    state.leave(part, "discard")
    state._record("shielded", player=seat, card=galetki.card.index, position=position,
                  part=part.card.index)  # fmt: skip
    state.priority_round.acted()


@dataclass(frozen=True)
class EatChoice(plays.Choice):
    """One component of a meal: a +1/+1 counter on a galetki (``choose``), or, when the
    meal came as components (``may_take``), the component itself (``pass``)."""

    seat: int
    left: int
    may_take: bool

    def legal(self, state: HkkState) -> list[int]:
        table = state.tables[self.seat]
        eaters = [CHOOSE_BASE + own_ref(table.index(e)) for e in galetki_of(state, self.seat)
                  if table.index(e) < MAX_TABLE]  # fmt: skip
        if not eaters:
            return [PASS]
        return [PASS, *eaters] if self.may_take else eaters

    def apply(self, state: HkkState, action: int) -> None:
        if action == PASS:
            if self.may_take:
                state.gain_components(self.seat, 1)
        else:
            state.tables[self.seat][action - CHOOSE_BASE - own_ref(0)].counters += 1
        if self.left > 1:
            state.pending.then(EatChoice(self.seat, self.left - 1, self.may_take))
        else:
            state.pending.done()
