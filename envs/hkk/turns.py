"""An HKK turn as the kit's phase objects (HK-3): the seven phases, with combat (HK-6) in
its steps, each a masked decision of one player (``steps`` numbers them).

1. Preparation (HK-3.1): ``begin_turn`` gains magic points; the active player picks the
   order of the cards with upkeep business (``UpkeepOrder``: poison grows, upkeep effects
   act, drawbacks are paid or not, ``UpkeepChoice``); ``Upkeep`` then wakes
   the active player's cards; ``Sacrifice`` offers monsters for their components (HK-5.2).
2. Draw (HK-3.2): ``Sacrifice``'s end draws the card.
3. Main (HK-3.3): a ``Window``, as are 6. main again (HK-3.6) and 7. healing (HK-3.7),
   and the combat windows of HK-6.1, 6.3, 6.5 and 6.7.
4. ``Swap`` (HK-3.4). 5. Combat (HK-3.5): ``Declare``, ``Direct`` and the strike.

In a window the player with priority plays a card, uses an ability, regenerates or passes;
both passing in a row resolves the top of the chain, closes a life-saving window, or ends
the window (HK-8.4). A player with nothing but ``pass`` is not asked (HK-8.5).

**Project decisions**: the upkeep order is picked card by card (a card's poison, upkeep
effects and drawback come together); in the swap each creature moves at most once (so a
swap ends);
regeneration is no action on the chain (it answers nothing and cannot be answered); "right
after taking damage" (HK-7.9) is read as: from the damage until both players next pass in a
row (which resolves the next item of the chain, closes the life-saving window or ends the
window), in the window where the damage was dealt or, for direct damage and the strike, the
life-saving window that follows them (``HkkState.wounds``).
"""

from __future__ import annotations

import operator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tabletop.envs.core.cards.phases import GameOver, Phase
from tabletop.envs.hkk import combat, figures, galetki, plays
from tabletop.envs.hkk.actions import (
    CHOOSE_BASE,
    DECODED,
    GUARD_BASE,
    MAX_HAND,
    MAX_TABLE,
    PASS,
    PAY,
    REGEN_BASE,
    RESERVE_BASE,
    SACRIFICE_BASE,
    own_ref,
)
from tabletop.envs.hkk.cards import BodyPart, Instant, Monster, Mutant
from tabletop.envs.hkk.cards import Upkeep as UpkeepCost
from tabletop.envs.hkk.steps import (
    AFTER_ATTACKS,
    BEFORE_ATTACKS,
    DECLARE,
    DIRECT,
    HEALING,
    MAIN,
    MAIN2,
    OVER,
    SACRIFICE,
    SAVE_BREATH,
    SAVE_STRIKE,
    SWAP,
    UPKEEP,
)
from tabletop.envs.hkk.zones import InPlay

if TYPE_CHECKING:
    from tabletop.envs.hkk.engine import HkkState

QUIET_TURNS = 10
"""HK-2.3's decision: both decks empty and this many turns in a row without a change of
either player's life is a draw."""
REGENERATION_CAP = 4  # HK-7.9: life regained per creature per turn
NO_BOOST = (0, 0)


# ----- preparation and draw (HK-3.1, HK-3.2) ----------------------------------------------


def begin_turn(state: HkkState, seat: int) -> None:
    """HK-3.1 up to the upkeep: magic points, then the cards with upkeep business, in the
    order the active player picks (``UpkeepOrder``)."""
    state.active = seat
    state.priority_round.restart(seat)
    state.turn += 1
    state.turns_taken[seat] += 1
    state.phase = UPKEEP
    state.fight = None
    state.life_at_start = (state.life[0], state.life[1])
    state._record("turn_started", player=seat, turn=state.turn)
    income = min(state.turns_taken[seat], 5) + len(figures.reserve(state, seat)) // 2
    state.gain_vp(seat, income)
    pending = tuple(e.iid for e in state.tables[seat] if _has_upkeep(e))
    if pending:
        state.pending.offer(UpkeepOrder(seat, pending))


def _has_upkeep(entry: InPlay) -> bool:
    """Poison to grow (HK-7.3), an active card's upkeep effects, a drawback to pay."""
    effects = entry.card.triggers.get("upkeep", ())
    return bool(entry.poison or (effects and entry.active) or _upkeeps(entry))


@dataclass(frozen=True)
class UpkeepOrder(plays.Choice):
    """HK-3.1: the active player picks the next card whose upkeep happens (``choose``)."""

    seat: int
    iids: tuple[int, ...]

    def legal(self, state: HkkState) -> list[int]:
        table = state.tables[self.seat]
        positions = [p for p, e in enumerate(table[:MAX_TABLE]) if e.iid in self.iids]
        return [CHOOSE_BASE + own_ref(p) for p in positions] or [PASS]

    def apply(self, state: HkkState, action: int) -> None:
        if action == PASS:
            state.pending.done()
            return
        position = action - CHOOSE_BASE - own_ref(0)
        entry = state.tables[self.seat][position]
        rest = tuple(i for i in self.iids if i != entry.iid)
        state._record("upkeep", player=self.seat, card=entry.card.index, position=position)
        _upkeep(state, self.seat, entry)
        if plays.find(state, entry.iid) is not None and _upkeeps(entry):
            state.pending.then(UpkeepChoice(self.seat, entry.iid, rest))
        else:
            _continue(state, self.seat, rest)


def _continue(state: HkkState, seat: int, rest: tuple[int, ...]) -> None:
    if any(plays.find(state, iid) is not None for iid in rest):
        state.pending.then(UpkeepOrder(seat, rest))
    else:
        state.pending.done()


def _upkeep(state: HkkState, seat: int, entry: InPlay) -> None:
    """HK-7.3: one more poison counter, and as many as its life or more sends it to the
    discard pile, giving nobody components; then the card's upkeep effects if active."""
    if figures.is_creature(entry) and entry.poison:
        entry.poison += 1
        if entry.poison >= figures.remaining(state, entry):
            state.leave(entry, "discard", gives=False)
            return
    effects = entry.card.triggers.get("upkeep", ())
    if effects and entry.active:
        plays.run(state, seat, plays.Play(entry.iid), effects, True)


@dataclass(frozen=True)
class UpkeepChoice(plays.Choice):
    """HK-7.11: pay card ``iid``'s upkeep (``PAY``) or sacrifice it (``PASS``); it is
    sacrificed without asking when its controller cannot pay. ``rest``: the upkeep order's
    cards still to come."""

    seat: int
    iid: int
    rest: tuple[int, ...]

    def legal(self, state: HkkState) -> list[int]:
        entry = plays.find(state, self.iid)
        return [PASS, PAY] if entry is not None and _can_pay(state, self.seat, entry) else [PASS]

    def apply(self, state: HkkState, action: int) -> None:
        entry = plays.find(state, self.iid)
        if entry is not None:
            for drawback in _upkeeps(entry):
                if action == PAY:
                    state.vp[self.seat] -= drawback.vp
                    state.life[self.seat] -= drawback.life
                    state.components[self.seat] -= drawback.components
                else:
                    state.leave(entry, "discard", gives=False)
                    break
        _continue(state, self.seat, self.rest)


def _upkeeps(entry: InPlay) -> list[UpkeepCost]:
    """The drawbacks of ``entry`` paid in the preparation phase (HK-7.11)."""
    return [d for d in getattr(entry.card, "drawbacks", ()) if d.kind == "upkeep"]


def _can_pay(state: HkkState, seat: int, entry: InPlay) -> bool:
    due = _upkeeps(entry)
    return (state.vp[seat] >= sum(d.vp for d in due)
            and state.life[seat] >= sum(d.life for d in due)
            and state.components[seat] >= sum(d.components for d in due))  # fmt: skip


class Upkeep(Phase):
    """After the drawbacks: all the active player's passive cards wake (HK-3.1)."""

    name = "upkeep"

    def legal(self, state: HkkState) -> list[int]:
        return [PASS]

    def apply(self, state: HkkState, action: int) -> None:
        for entry in state.tables[state.active]:
            if not entry.active:
                entry.active = True
        state.phase = SACRIFICE


class Sacrifice(Phase):
    """HK-5.2: active monsters of the reserve showing components, for those components;
    and the abilities whose card allows them in the preparation phase (HK-8.3).

    **Project decision**: nobody may answer in a preparation phase (no instant may be
    played, HK-3.1), so such an ability takes effect at once, and a creature it brings to
    0 life or less dies at once (no life-saving window without instants)."""

    name = "sacrifice"

    def legal(self, state: HkkState) -> list[int]:
        seat = state.active
        sacrifices = [SACRIFICE_BASE + p for p, e in enumerate(state.tables[seat][:MAX_TABLE])
                      if e.area == "reserve" and e.active and isinstance(e.card, Monster)
                      and e.card.components]  # fmt: skip
        return sorted([PASS, *sacrifices, *plays.ability_uses(state, seat)])

    def apply(self, state: HkkState, action: int) -> None:
        seat = state.active
        kind, fields = DECODED[action]  # legal: the core checked it
        if kind == "pass":
            state.draw(seat)  # HK-3.2
            open_window(state, MAIN)
            return
        if kind == "activate":
            target = plays.iid_of_ref(state, seat, fields[2])
            plays.use_ability(state, seat, fields[0], fields[1], target)
            item = state.stack.pop()
            plays.resolve_play(state, item.controller, item.what)
            plays.kill_dying(state)
            return
        entry = state.tables[seat][action - SACRIFICE_BASE]
        state.leave(entry, "discard", gives=False)
        state.gain_components(seat, entry.card.components)


# ----- windows (HK-8.4) --------------------------------------------------------------------


def open_window(state: HkkState, phase: int) -> None:
    """A window begins: the active player has priority; one is a life-saving window while
    a creature is at 0 life or less (HK-4.2)."""
    state.phase = phase
    state.priority_round.restart(state.active)
    state.saving = bool(plays.dying(state))
    if phase not in (SAVE_BREATH, SAVE_STRIKE):
        state.wounds.clear()  # only these follow damage dealt outside a window (HK-7.9)


class Window(Phase):
    """Instants, abilities and (in a main phase, for the active player) every other card,
    taking turns until both pass (HK-8.4)."""

    def __init__(self, name: str, then: int) -> None:
        self.name = name  # type: ignore[misc]
        self.then = then

    def decider(self, state: HkkState) -> int:
        return state.priority_round.holder

    def legal(self, state: HkkState) -> list[int]:
        seat = state.priority_round.holder
        if not _may_act(state, seat):
            return [PASS]
        abilities, feeds, parts = _answers(state, seat)
        legal = [PASS, *plays.card_plays(state, seat), *plays.ability_uses(state, seat, abilities)]
        legal += [REGEN_BASE + p for p, e in enumerate(state.tables[seat][:MAX_TABLE])
                  if e.damage and _can_regenerate(state, seat, e)]  # fmt: skip
        if feeds or parts:  # (neither without its cards)
            legal += {*galetki.feed_actions(state, seat), *galetki.shield_actions(state, seat)}
        return sorted(legal)

    def apply(self, state: HkkState, action: int) -> None:
        if action == PASS:  # most actions in a window (no decoding needed)
            self._pass(state)
            return
        seat = state.priority_round.holder
        kind, fields = DECODED[action]  # legal: the core checked it
        if kind == "play":
            plays.play_card(state, seat, fields[0], plays.iid_of_ref(state, seat, fields[1]))
        elif kind == "activate":
            target = plays.iid_of_ref(state, seat, fields[2])
            plays.use_ability(state, seat, fields[0], fields[1], target)
        elif kind == "sacrifice":
            galetki.sacrifice(state, seat, fields[0])
        else:
            _regenerate(state, seat, state.tables[seat][fields[0]])

    def _pass(self, state: HkkState) -> None:
        """The player with priority passes; once both have in a row, the round closes and
        a new one starts with the active player."""
        if not state.priority_round.passed(state.active):
            return
        state.wounds.clear()  # the chance to regenerate passed with them (HK-7.9)
        chain = state.stack.items
        if chain:
            item = chain.pop()
            plays.resolve_play(state, item.controller, item.what)
            if not chain:
                state.shields.clear()
        elif state.saving:
            if not combat.offer_spoils(state):
                plays.kill_dying(state)
        else:
            self.close(state)

    def close(self, state: HkkState) -> None:
        CLOSERS[self.then](state)


def _may_act(state: HkkState, seat: int) -> bool:
    """Whether ``seat`` may have more than ``pass`` in a window: a quick look that rules
    out most windows (most of them find a player with nothing to answer with) before the
    full list is built. It never says no when ``Window.legal`` would offer something: it
    asks ``plays``' own tests, but not for targets or play conditions, for a card that may
    be played now (``sorcery_speed``, or an ``affordable`` instant the chain allows), an
    ability ``may_use``, a card that may regenerate, an active mutant showing components
    (feeding) or, with a chain, a body part (shielding). The hand and the table are first
    scanned for an instant and damage without a Python loop (most have neither)."""
    hand = state.hands[seat]
    if hand:
        if plays.sorcery_speed(state, seat):
            return True
        cards = state.table.cards
        if "instant" in map(_TYPE, map(cards.__getitem__, hand)):
            for iid in hand[:MAX_HAND]:
                card = cards[iid]
                if (isinstance(card, Instant) and plays.affordable(state, seat, card)
                        and plays.chain_allows(state, card)):  # fmt: skip
                    return True
    if state.wounds and any(map(_DAMAGE, state.tables[seat])):
        for entry in state.tables[seat][:MAX_TABLE]:
            if entry.damage and _can_regenerate(state, seat, entry):
                return True
    abilities, feeds, parts = _answers(state, seat)
    if feeds or (parts and state.stack.items):
        return True
    if abilities:
        saving = plays.opening_save(state)
        for _, _, entry, ability in abilities:
            if plays.may_use(state, seat, entry, ability, saving):
                return True
    return False


_TYPE = operator.attrgetter("TYPE")
_DAMAGE = operator.attrgetter("damage")


@figures.remembered_figure
def _answers(
    state: HkkState, seat: int
) -> tuple[tuple[tuple[int, int, InPlay, Any], ...], bool, bool]:
    """What of ``seat``'s cards in play (within the action space) may give them something
    to do in a window, as far as the cards and their figure marks tell (so it is
    remembered with the figures): the abilities ``plays.ready_abilities`` (paying is
    looked at each time), whether an active mutant shows components (feeding a galetki),
    whether a body part lies on the table (shielding one from a chain's item)."""
    feeds = parts = False
    for entry in state.tables[seat][:MAX_TABLE]:
        card = entry.card
        if isinstance(card, Mutant):
            feeds = feeds or bool(card.components and entry.active)
        elif isinstance(card, BodyPart):
            parts = True
    return plays.ready_abilities(state, seat), feeds, parts


def _can_regenerate(state: HkkState, seat: int, entry: InPlay) -> bool:
    """HK-7.9: damaged right now (``HkkState.wounds``), under this turn's cap, and the
    magic points to pay."""
    if not entry.damage or entry.iid not in state.wounds or not figures.is_creature(entry):
        return False
    cost = figures.held(state, entry).regeneration
    return bool(cost) and entry.regenerated < REGENERATION_CAP and state.vp[seat] >= cost


def _regenerate(state: HkkState, seat: int, entry: InPlay) -> None:
    """One point of life back (HK-7.9), told in a public event: the end of the turn wipes
    the damage and the count of life regenerated, so only the event shows it was done."""
    state.vp[seat] -= figures.held(state, entry).regeneration
    entry.damage -= 1
    entry.regenerated += 1
    state._record("regenerated", player=seat, card=entry.card.index,
                  position=state.tables[seat].index(entry))  # fmt: skip
    state.priority_round.acted()
    if not plays.dying(state):
        state.saving = False


# ----- swap and combat (HK-3.4, HK-6) -------------------------------------------------------


class Swap(Phase):
    """HK-3.4: reserve creatures to the guard post (active ones, up to its size) and back."""

    name = "swap"

    def legal(self, state: HkkState) -> list[int]:
        seat, moved = state.active, state.combat.moved
        room = None  # (looked at once a creature could use it)
        legal = [PASS]
        for position, entry in enumerate(state.tables[seat][:MAX_TABLE]):
            if entry.iid in moved:
                continue
            if entry.area == "reserve" and entry.active:
                if room is None:
                    room = len(figures.guard(state, seat)) < figures.guard_size(state, seat)
                if room:
                    legal.append(GUARD_BASE + position)
            elif entry.area == "guard":
                legal.append(RESERVE_BASE + position)
        return sorted(legal)

    def apply(self, state: HkkState, action: int) -> None:
        kind, fields = DECODED[action]  # legal: the core checked it
        if kind == "pass":
            open_window(state, BEFORE_ATTACKS)
            return
        entry = state.tables[state.active][fields[0]]
        entry.area = "guard" if kind == "guard" else "reserve"
        state.combat.moved.add(entry.iid)


class Declare(Phase):
    """HK-6.2: the active player's attacks, one by one, then ``pass``."""

    name = "declare"

    def legal(self, state: HkkState) -> list[int]:
        return combat.attack_actions(state)

    def apply(self, state: HkkState, action: int) -> None:
        kind, fields = DECODED[action]  # legal: the core checked it
        if kind == "attack":
            combat.declare(state, *fields)
            return
        combat.close_declarations(state)
        open_window(state, AFTER_ATTACKS)


class Direct(Phase):
    """HK-6.4: direct damage declared in turns, attacker first, then all at once."""

    name = "direct damage"

    def decider(self, state: HkkState) -> int:
        return state.combat.declarer

    def legal(self, state: HkkState) -> list[int]:
        return combat.direct_actions(state)

    def apply(self, state: HkkState, action: int) -> None:
        kind, fields = DECODED[action]  # legal: the core checked it
        if kind == "breath":
            combat.declare_direct(state, *fields)
        elif kind == "direct":
            combat.declare_direct(state, fields[0], 0, 0)
        elif combat.pass_direct(state):
            combat.resolve_direct(state)
            open_window(state, SAVE_BREATH)


# ----- what closing each window leads to ---------------------------------------------------


def _to_swap(state: HkkState) -> None:
    state.phase = SWAP
    state.fight = combat.Fight()


def _to_direct(state: HkkState) -> None:
    state.phase = DIRECT
    state.combat.direct.restart(state.active)


def _to_strike(state: HkkState) -> None:
    combat.strike(state)
    open_window(state, SAVE_STRIKE)


def _to_main2(state: HkkState) -> None:
    state.fight = None
    open_window(state, MAIN2)


def end_turn(state: HkkState) -> None:
    """HK-3.7 after the window: damage and boosts go; HK-2.3's check; the next turn."""
    for table in state.tables:
        for entry in table:  # (a mark is written only where it changes: most stay as they are)
            if entry.damage or entry.regenerated:
                entry.damage = entry.regenerated = 0
            if entry.boost != NO_BOOST:
                entry.boost = NO_BOOST
            if entry.breathed:
                entry.breathed = False
    state.wounds.clear()
    losers = [seat for seat in (0, 1) if state.life[seat] <= 0]
    if losers:
        state.finish(1 - losers[0] if len(losers) == 1 else -1)
        return
    if state.decks[0] or state.decks[1]:
        state.quiet_turns = 0
    elif (state.life[0], state.life[1]) == state.life_at_start:
        state.quiet_turns += 1
    else:
        state.quiet_turns = 0
    if state.quiet_turns >= QUIET_TURNS:
        state.finish(-1)
        return
    begin_turn(state, 1 - state.active)


CLOSERS = {
    SWAP: _to_swap,
    DECLARE: lambda state: setattr(state, "phase", DECLARE),
    DIRECT: _to_direct,
    SAVE_STRIKE: _to_strike,
    MAIN2: _to_main2,
    HEALING: lambda state: open_window(state, HEALING),
    OVER: end_turn,
}
"""What each window leads to when it closes, by the step it goes on to."""

PHASES: tuple[Phase, ...] = (
    Upkeep(),
    Sacrifice(),
    Window("main", SWAP),
    Swap(),
    Window("before attacks", DECLARE),
    Declare(),
    Window("after attacks", DIRECT),
    Direct(),
    Window("saving after breath", SAVE_STRIKE),
    Window("saving after strike", MAIN2),
    Window("main again", HEALING),
    Window("healing", OVER),
    GameOver(),
)
