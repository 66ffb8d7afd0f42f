"""Combat (HK-6): declaring attacks, the strike-back choice, direct damage and the strike.

``Fight`` keeps the combat of the turn: who attacks what, which attacker each doubly
attacked defender strikes back, the direct damage declared and whose turn it is to
declare. The windows of HK-6.1, 6.3, 6.5 and 6.7 are ``turns``' windows.

**Project decisions**: attacks are declared one by one, and an attack on the player or a
building is legal once every creature in the opponent's guard post is already attacked
(so attacks on creatures come first; every legal set of attacks can be declared so).
A breath whose card lets life stand in for magic points (the Magma Wyrm) is paid from
magic points first and the rest in life.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tabletop.envs.core.cards.priority import PriorityRound
from tabletop.envs.hkk import figures, plays
from tabletop.envs.hkk.actions import (
    CHOOSE_BASE,
    DIRECT_BASE,
    MAX_BREATH,
    MAX_TABLE,
    PASS,
    PLAYER_TARGET,
    attack_action,
    breath_action,
    enemy_ref,
    own_ref,
)
from tabletop.envs.hkk.cards import Building, Item
from tabletop.envs.hkk.zones import InPlay

if TYPE_CHECKING:
    from tabletop.envs.hkk.engine import HkkState

PLAYER = -1
"""An attack's or breath's target when it is the opponent."""
DIRECT_KINDS = frozenset({"abilities", "cards"})
"""What direct damage counts as for protections (HK-7.7)."""


@dataclass
class Breath:
    """Declared direct damage (HK-6.4): a breath of ``amount`` at ``target`` (an iid or
    ``PLAYER``), or the creature's direct effects (``amount`` 0)."""

    seat: int
    iid: int
    amount: int
    target: int


def _direct_round() -> PriorityRound:
    """Both seats, the first declaring until the step begins (``turns._to_direct``)."""
    return PriorityRound((0, 1))


@dataclass
class Fight:
    """The combat of the turn: ``attacks`` attacker iid -> target iid or ``PLAYER``;
    ``strikes_back`` defender iid -> the attacker it strikes (HK-6.2); ``breaths`` and
    the round of declaring of HK-6.4 (``direct``, the kit's priority round). It begins with
    the swap (HK-3.4)."""

    attacks: dict[int, int] = field(default_factory=dict)
    strikes_back: dict[int, int] = field(default_factory=dict)
    breaths: list[Breath] = field(default_factory=list)
    direct: PriorityRound = field(default_factory=_direct_round)
    """HK-6.4's round of declaring direct damage: the holder declares or passes."""
    moved: set[int] = field(default_factory=set)
    """Creatures moved in the swap (HK-3.4), each at most once."""
    hits: dict[int, list[int]] = field(default_factory=dict)
    """Creature iid -> the creatures that dealt it damage this combat (its killers)."""
    offered: set[int] = field(default_factory=set)
    """Items of dying carriers already offered to their killers (HK-9.2)."""

    def copy(self) -> Fight:
        return Fight(dict(self.attacks), dict(self.strikes_back), list(self.breaths),
                     self.direct.copy(), set(self.moved),
                     {k: v[:] for k, v in self.hits.items()}, set(self.offered))  # fmt: skip

    @property
    def declarer(self) -> int:
        """The seat to declare or pass in the direct-damage step (HK-6.4)."""
        return self.direct.holder

    @property
    def passes(self) -> int:
        """Passes in a row in the direct-damage step."""
        return self.direct.passes

    def attackers_of(self, iid: int) -> list[int]:
        return [a for a, t in self.attacks.items() if t == iid]


# ----- declaring attacks (HK-6.2) ----------------------------------------------------------


def attack_actions(state: HkkState) -> list[int]:
    """The active player's legal attack declarations now, and ``PASS``."""
    seat, fight = state.active, state.combat
    enemy = state.tables[1 - seat]
    guards = figures.guard(state, 1 - seat)
    through = all(fight.attackers_of(g.iid) for g in guards)
    hidden_ok = None  # (looked at once an attacker is invisible)
    legal = [PASS]
    for position, attacker in enumerate(state.tables[seat][:MAX_TABLE]):
        if attacker.area != "guard" or attacker.iid in fight.attacks:
            continue
        if figures.remaining(state, attacker) <= 0:
            continue
        for target, entry in enumerate(enemy[:MAX_TABLE]):
            if entry.area == "guard" and len(fight.attackers_of(entry.iid)) < 2:
                legal.append(attack_action(position, 1 + target))
        if not through:  # past the guard post only unseen (HK-7.4)
            if not figures.held(state, attacker).invisible:
                continue
            if hidden_ok is None:
                hidden_ok = not any(figures.held(state, g).sees_invisible for g in guards)
            if not hidden_ok:
                continue
        legal.append(attack_action(position, PLAYER_TARGET))
        legal += [attack_action(position, 1 + target)
                  for target, entry in enumerate(enemy[:MAX_TABLE])
                  if isinstance(entry.card, Building) and entry.active]  # fmt: skip
    return sorted(legal)


def declare(state: HkkState, position: int, target: int) -> None:
    attacker = state.tables[state.active][position]
    aim = PLAYER if target == PLAYER_TARGET else state.tables[1 - state.active][target - 1].iid
    state.combat.attacks[attacker.iid] = aim
    state.counters["attacks"] += 1
    defender = None if aim == PLAYER else [target - 1, state.card(aim).index]
    state._record("attack_declared", player=state.active, card=attacker.card.index,
                  position=position, defender=defender)  # fmt: skip


def close_declarations(state: HkkState) -> None:
    """HK-6.2: a defender attacked once strikes that attacker; attacked twice, its
    owner chooses which (``StrikeBackChoice``, one defender at a time)."""
    fight = state.combat
    defenders = sorted(e.iid for e in figures.guard(state, 1 - state.active)
                       if fight.attackers_of(e.iid))  # fmt: skip
    for defender in defenders:
        attackers = fight.attackers_of(defender)
        if len(attackers) == 1:
            fight.strikes_back[defender] = attackers[0]
    doubled = tuple(d for d in defenders if len(fight.attackers_of(d)) == 2)
    if doubled:
        state.pending.offer(StrikeBackChoice(1 - state.active, doubled))


@dataclass(frozen=True)
class StrikeBackChoice(plays.Choice):
    """The defender's owner chooses which of its two attackers ``defenders[0]`` strikes
    back (HK-6.2); the rest of ``defenders`` follow."""

    seat: int
    defenders: tuple[int, ...]

    def legal(self, state: HkkState) -> list[int]:
        attackers = state.combat.attackers_of(self.defenders[0])
        return sorted(CHOOSE_BASE + enemy_ref(_position(state, 1 - self.seat, a))
                      for a in attackers)  # fmt: skip

    def apply(self, state: HkkState, action: int) -> None:
        attacker = action - CHOOSE_BASE - enemy_ref(0)
        chosen = state.tables[1 - self.seat][attacker]
        defender = self.defenders[0]
        state.combat.strikes_back[defender] = chosen.iid
        state._record("strike_back_chosen", player=self.seat, card=state.card(defender).index,
                      position=_position(state, self.seat, defender),
                      attacker=[attacker, chosen.card.index])  # fmt: skip
        rest = self.defenders[1:]
        if rest:
            state.pending.then(StrikeBackChoice(self.seat, rest))
        else:
            state.pending.done()


def _position(state: HkkState, seat: int, iid: int) -> int:
    return next(i for i, e in enumerate(state.tables[seat]) if e.iid == iid)


# ----- direct damage (HK-6.4) --------------------------------------------------------------


def breathers(state: HkkState, seat: int) -> list[tuple[int, InPlay]]:
    """(position, creature) of ``seat``'s guard-post creatures that may still use direct
    damage this combat (**Project decision**: once each, attacking or not)."""
    return [(p, e) for p, e in enumerate(state.tables[seat][:MAX_TABLE])
            if e.area == "guard" and e.card.direct is not None and not e.breathed
            and figures.remaining(state, e) > 0]  # fmt: skip


def direct_actions(state: HkkState) -> list[int]:
    """The declaring player's direct-damage declarations, and ``PASS``."""
    seat = state.combat.declarer
    legal = [PASS]
    targets = None  # (looked at once a breath may be declared)
    for position, entry in breathers(state, seat):
        direct = entry.card.direct
        if direct.breath is None:
            if state.vp[seat] >= direct.vp:
                legal.append(DIRECT_BASE + position)
            continue
        if targets is None:
            targets = _breath_targets(state, seat)
        budget = state.vp[seat] + (max(0, state.life[seat] - 1) if direct.life_payable else 0)
        for amount in range(1, min(direct.breath, budget, MAX_BREATH) + 1):
            legal += [breath_action(position, amount, t) for t in targets]
    return sorted(legal)


def _breath_targets(state: HkkState, seat: int) -> list[int]:
    """Any creature of the other player, an active building of theirs, or the player
    (**Project decision**, HK-6.4), never one protected from abilities (HK-7.7)."""
    targets = [PLAYER_TARGET]
    for position, entry in enumerate(state.tables[1 - seat][:MAX_TABLE]):
        if figures.is_creature(entry):
            if not figures.untargetable(state, entry) & DIRECT_KINDS:
                targets.append(1 + position)
        elif isinstance(entry.card, Building) and entry.active:
            targets.append(1 + position)
    return targets


def _unaffected(state: HkkState, target: InPlay) -> bool:
    """HK-7.7: a creature that abilities have no effect on takes no breath."""
    return figures.is_creature(target) and bool(figures.unaffected(state, target) & DIRECT_KINDS)


def declare_direct(state: HkkState, position: int, amount: int, target: int) -> None:
    """Pay for and note a declaration; the other player declares next."""
    fight = state.combat
    seat = fight.declarer
    entry = state.tables[seat][position]
    entry.breathed = True
    direct = entry.card.direct
    if direct.breath is None:
        state.vp[seat] -= direct.vp
        aim = PLAYER
    else:
        paid = min(amount, state.vp[seat])
        state.vp[seat] -= paid
        state.life[seat] -= amount - paid
        aim = PLAYER if target == PLAYER_TARGET else state.tables[1 - seat][target - 1].iid
    fight.breaths.append(Breath(seat, entry.iid, amount, aim))
    state._record("direct_declared", player=seat, card=entry.card.index, position=position,
                  amount=amount, target=target)  # fmt: skip
    fight.direct.answered(seat)


def pass_direct(state: HkkState) -> bool:
    """The declarer passes; ``True`` once both have passed in a row."""
    round_ = state.combat.direct
    if round_.passed():
        # The closing pass hands the step on too: what the encoders show of the declarer
        # once the step is over has always been the seat after the last to pass.
        round_.holder = round_.after(round_.holder)
        return True
    return False


def resolve_direct(state: HkkState) -> None:
    """All declared direct damage takes effect at once (HK-6.4); the excess is lost."""
    fight = state.combat
    for breath in fight.breaths:
        card = state.card(breath.iid)
        if breath.amount == 0:
            plays.run(state, breath.seat, plays.Play(breath.iid), card.direct.effects, True)
        elif breath.target == PLAYER:
            record_damage(state, breath.iid, 1 - breath.seat, breath.amount)
            state.hurt_player(1 - breath.seat, breath.amount)
        else:
            target = plays.find(state, breath.target)
            if target is not None and not _unaffected(state, target):
                before = target.damage
                plays.hurt(state, target, breath.amount, card.direct.form)
                record_damage(state, breath.iid, target, target.damage - before)
                if target.damage > before:
                    fight.hits.setdefault(target.iid, []).append(breath.iid)
    fight.breaths = []
    plays.settle_damage(state)


# ----- the strike (HK-6.6) -----------------------------------------------------------------


def record_damage(state: HkkState, striker: int, struck: InPlay | int, amount: int) -> None:
    """A ``damage_dealt`` event: what card ``striker`` dealt to the card ``struck`` or, given
    a seat, to that player (public, HK-11.1); noted before the dying leave the table."""
    on_card = isinstance(struck, InPlay)
    state._record("damage_dealt", card=state.card(striker).index, amount=amount,
                  striker=_spot(state, striker),
                  target=_spot(state, struck.iid) if on_card else None,
                  seat=None if on_card else struck)  # fmt: skip


def _spot(state: HkkState, iid: int) -> list[int] | None:
    """``[seat, table position, pool index]`` of a card on a table; ``None`` once it has
    left (a breath resolves after its breather died)."""
    for seat, table in enumerate(state.tables):
        for position, entry in enumerate(table):
            if entry.iid == iid:
                return [seat, position, entry.card.index]
    return None


def strike_damage(state: HkkState, striker: InPlay, struck: InPlay) -> int:
    """What ``striker`` deals ``struck`` in the strike: its damage, less a drawback against
    ``struck``'s abilities (HK-7.11); 0 through magic defence without magic attack
    (HK-7.2)."""
    held = figures.held(state, struck)
    if held.magic_defence and not figures.held(state, striker).magic_attack:
        return 0
    amount = figures.damage(state, striker)
    for drawback in striker.card.drawbacks:
        if drawback.kind == "weak_against" and getattr(held, drawback.ability):
            amount -= drawback.amount
    return max(0, amount)


def strike(state: HkkState) -> None:
    """Every attacker and what it attacks hit each other at once (HK-6.6); poison counters
    go on every creature a poisonous creature strikes (HK-7.3)."""
    fight = state.combat
    hits: list[tuple[InPlay, InPlay | int, int]] = []
    for attacker_iid, aim in fight.attacks.items():
        attacker = plays.find(state, attacker_iid)
        if attacker is None or attacker.area != "guard":
            continue
        if aim == PLAYER:
            hits.append((attacker, 1 - state.active, figures.damage(state, attacker)))
            continue
        target = plays.find(state, aim)
        if target is None or (figures.is_creature(target) and target.area != "guard"):
            continue  # HK-6.6: its target left; it picks no other
        if isinstance(target.card, Building):
            hits.append((attacker, target, figures.damage(state, attacker)))
            continue
        hits.append((attacker, target, strike_damage(state, attacker, target)))
        if fight.strikes_back.get(aim) == attacker_iid:
            hits.append((target, attacker, strike_damage(state, target, attacker)))
    poisons = [(t, figures.held(state, s).poison) for s, t, _ in hits if not isinstance(t, int)]
    for striker, struck, amount in hits:
        record_damage(state, striker.iid, struck, amount)
        if isinstance(struck, int):
            state.hurt_player(struck, amount)
        else:
            struck.damage += amount
            if amount:
                fight.hits.setdefault(struck.iid, []).append(striker.iid)
                if figures.is_creature(struck):
                    state.wounds.add(struck.iid)  # HK-7.9
    for struck, amount in poisons:
        if amount and figures.is_creature(struck):  # type: ignore[arg-type]
            plays.poison(state, struck, amount)  # type: ignore[arg-type]
    plays.settle_damage(state)


# ----- spoils: items of a creature killed in combat (HK-9.2) -------------------------------


def offer_spoils(state: HkkState) -> bool:
    """Before the dying die in a combat window: each item on one of them that a killer of
    it may carry is offered to the killer's controller (``SpoilsChoice``). ``True`` when
    something was offered (the deaths wait for the choices)."""
    fight = state.fight
    if fight is None:
        return False
    offered = False
    for dying in plays.dying(state):
        seat = figures.controller(state, dying)
        for item in list(figures.attached(state, seat, dying)):
            if not isinstance(item.card, Item) or item.iid in fight.offered:
                continue
            fight.offered.add(item.iid)
            takers = _takers(state, fight.hits.get(dying.iid, ()), item)
            if takers:
                state.pending.offer(SpoilsChoice(figures.controller(state, takers[0]), item.iid))
                offered = True
    return offered


def _takers(state: HkkState, killers: Any, item: InPlay) -> list[InPlay]:
    """The killers still in play and alive (not dying with their victim) that use items
    and carry none of the item's subtype."""
    takers = []
    for iid in killers:
        killer = plays.find(state, iid)
        if killer is None or not killer.card.item_use or killer in takers:
            continue
        if figures.remaining(state, killer) <= 0:
            continue
        seat = figures.controller(state, killer)
        if not any(getattr(a.card, "subtype", None) == item.card.subtype
                   for a in figures.attached(state, seat, killer)):  # fmt: skip
            takers.append(killer)
    return takers


@dataclass(frozen=True)
class SpoilsChoice(plays.Choice):
    """HK-9.2: move item ``iid`` onto one of its carrier's killers (``choose``) or let it
    go to the discard pile with its carrier (``pass``)."""

    seat: int
    iid: int

    def legal(self, state: HkkState) -> list[int]:
        item = plays.find(state, self.iid)
        carrier = None if item is None else plays.find(state, item.host)  # type: ignore[arg-type]
        if item is None or carrier is None:
            return [PASS]
        killers = state.fight.hits.get(carrier.iid, ()) if state.fight else ()
        table = state.tables[self.seat]
        return [PASS, *sorted(CHOOSE_BASE + own_ref(table.index(k))
                              for k in _takers(state, killers, item)
                              if k in table and table.index(k) < MAX_TABLE)]  # fmt: skip

    def apply(self, state: HkkState, action: int) -> None:
        if action != PASS:
            killer = state.tables[self.seat][action - CHOOSE_BASE - own_ref(0)]
            item = plays.find(state, self.iid)
            assert item is not None
            side = figures.controller(state, item)
            state.table.move(item, ("table", side), ("table", self.seat))
            item.host = killer.iid
            state._record("item_taken", player=self.seat, card=item.card.index)
        state.pending.done()
