"""Playing cards and using abilities (HK-3.3, HK-7, HK-8, HK-9): what may be played now,
on what, its payment, the chain it waits on, and what it does when it resolves.

Every card played and every activated ability used goes on the chain (the kit's
``Chain``, items ``Play``) and resolves when both players have passed in a row (HK-8.4);
what it does is its effects, run by the kit (``events.resolve``) through the vocabulary's
primitives (``effects``), which reach their cards through ``reached`` and change them
through the functions at the end of this module.

**Project decisions** where the rules are silent:

- a card or ability has one chosen target, which every effect of it that chooses shares,
  chosen as it is played; an optional trigger (HK-7.8) chooses its own as it happens;
- ``self`` on a card attached to a creature is that creature;
- a card's triggers count, for protections (HK-7.7), as that card (``cards`` and its type,
  ``spells`` for the spell types); ``abilities`` are the activated and direct-damage ones;
- a creature brought to 0 life or less dies when a life-saving window closes (HK-4.2):
  after a resolution that leaves one so, only cards and abilities that raise life (and
  regeneration) open the chain, any answer may follow, until both players pass;
- the chain is strictly last in, first out: after a card or ability, the other player has
  the first word, and its controller answers it (HK-8.4's "your own card first") when the
  other passes, before it resolves; after a resolution the player whose turn it is acts;
- copies of one card in a hand are one play (the first slot), copies of one creature card
  in a discard pile one target: the choice between them would show nothing but the
  hidden order of a hand.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tabletop.envs.core.cards.events import Context, resolve
from tabletop.envs.core.cards.pending import Decision
from tabletop.envs.hkk import figures
from tabletop.envs.hkk.actions import (
    CHOOSE_BASE,
    ENEMY_BASE,
    LAYOUT,
    MAX_ABILITIES,
    MAX_HAND,
    MAX_TABLE,
    NO_REF,
    OWN_BASE,
    PASS,
    decode_ref,
    discard_ref,
    own_ref,
)
from tabletop.envs.hkk.cards import (
    Adventurer,
    BodyPart,
    Building,
    Card,
    Creature,
    Enchantment,
    Galetki,
    Instant,
    Item,
    LevelUp,
    Skill,
)
from tabletop.envs.hkk.effects import Reach
from tabletop.envs.hkk.figures import kinds_of
from tabletop.envs.hkk.steps import MAIN_PHASES, SACRIFICE, WINDOWS
from tabletop.envs.hkk.zones import InPlay

if TYPE_CHECKING:
    from tabletop.envs.hkk.engine import HkkState

SAVING = ("heal", "boost", "grow")
"""Primitives that raise a creature's life: what a life-saving window allows (HK-4.2)."""
TARGET_TYPES = {"adventurer": Adventurer, "galetki": Galetki, "building": Building,
                "item": Item, "enchantment": Enchantment}  # fmt: skip
CREATURE_REACHES = frozenset({"creature", "adventurer", "galetki"})
"""Reaches whose cards are creatures in the guard post or the reserve."""
_PLAY, _ACTIVATE = LAYOUT["play"].encode, LAYOUT["activate"].encode
"""``play_action`` and ``activate_action`` with every field given: a call less for every
action offered."""


@dataclass(frozen=True)
class Play:
    """An item on the chain: card ``iid`` played, or its activated ability ``ability``
    (``-1``: the card itself), on chosen ``target`` (an iid, or ``None``)."""

    iid: int
    target: int | None = None
    ability: int = -1


class Choice(Decision):
    """A pending decision outside the order of a phase (builders, an optional trigger, a
    strike-back, an upkeep), one of the kit's ``Decision``: who decides, what is legal,
    what an action does. Frozen subclasses; applying one moves ``state.pending`` on."""


# ----- what a card or ability is, for protections and timing ---------------------------------


def effects_of(card: Card, ability: int) -> tuple[Any, ...]:
    """The effects a card's play (``-1``) or ability runs."""
    if ability < 0:
        return card.triggers.get("played", ())
    return card.activated[ability].effects  # type: ignore[attr-defined]


@functools.cache
def chosen_reach(effects: tuple[Any, ...]) -> Reach | None:
    """The selector of the target chosen as the effects are played, if any (worked out once
    per card's effects: effects hash by identity, and every look at the legal actions asks)."""
    return next((e.reach for e in effects if e.reach is not None and e.reach.how == "chosen"),
                None)  # fmt: skip


@functools.cache
def saves(effects: tuple[Any, ...]) -> bool:
    """Whether effects may raise a creature's life (HK-4.2's window)."""
    return any(e.do in SAVING and (e.do != "boost" or e.params.life > 0) for e in effects)


# ----- targets -----------------------------------------------------------------------------


def refs_of(state: HkkState, seat: int, iids: Iterable[int]) -> list[int]:
    """The refs (``actions``) by which ``seat`` names cards ``iids`` on a table or in their
    discard pile, sorted; a card past the space has none. The refs are looked up in one
    pass over the tables and the pile, however many cards are named."""
    refs = _table_refs(state, seat)
    found = []
    pile: dict[int, int] | None = None
    for iid in iids:
        ref = refs.get(iid)
        if ref is None:
            if pile is None:
                pile = _discard_refs(state, seat)
            ref = pile.get(iid)
        if ref is not None:
            found.append(ref)
    return sorted(found)


@figures.remembered_figure
def _table_refs(state: HkkState, seat: int) -> dict[int, int]:
    """iid -> ref of the cards on both tables within the action space, for ``seat``: it
    holds while the tables' cards do (remembered with the figures; read, never changed)."""
    refs: dict[int, int] = {}
    for side, base in ((seat, OWN_BASE), (1 - seat, ENEMY_BASE)):
        for position, entry in enumerate(state.tables[side][:MAX_TABLE]):
            refs[entry.iid] = base + position
    return refs


def _discard_refs(state: HkkState, seat: int) -> dict[int, int]:
    """The refs of the first ``MAX_TABLE`` creature cards of ``seat``'s discard pile."""
    cards = state.table.cards
    creatures = [i for i in state.discards[seat] if isinstance(cards[i], Creature)]
    return {iid: discard_ref(number) for number, iid in enumerate(creatures[:MAX_TABLE])}


def find(state: HkkState, iid: int) -> InPlay | None:
    """The card ``iid`` on either table, or ``None``."""
    for table in state.tables:
        for entry in table:
            if entry.iid == iid:
                return entry
    return None


def matches(state: HkkState, seat: int, reach: Reach, entry: InPlay, kinds: frozenset[str]) -> bool:
    """Whether ``reach`` of an effect of ``seat``'s of ``kinds`` takes in ``entry``."""
    return entry.iid in in_reach(state, seat, reach, kinds)


def in_reach(state: HkkState, seat: int, reach: Reach, kinds: frozenset[str]) -> list[int]:
    """The iids of the cards in play that ``reach`` of an effect of ``seat``'s of ``kinds``
    takes in, table by table: on its ``side``, of its type (a creature in the guard post,
    or in the reserve unless it reaches the guard post only), never one protected from
    such effects (HK-7.7). The one test of cards in play against a selector: for the
    targets offered (``candidates``) as for those reached (``matches``, ``reached``)."""
    sides = (seat,) if reach.side == "own" else (1 - seat,) if reach.side == "enemy" else (0, 1)
    what = reach.what
    if what not in CREATURE_REACHES:
        kind = TARGET_TYPES[what]
        return [e.iid for side in sides for e in state.tables[side] if isinstance(e.card, kind)]
    kind = None if what == "creature" else TARGET_TYPES[what]
    guard_only = reach.area == "guard_post"
    hiding = state.game.facts.untargetable
    found = []
    for side in sides:
        for e in state.tables[side]:
            area = e.area
            if area != "guard" and (guard_only or area != "reserve"):
                continue
            if kind is not None and not isinstance(e.card, kind):
                continue
            # ``untargetable``'s own first test ahead of the call: most cards pass it
            if e.card.index in hiding and figures.untargetable(state, e) & kinds:
                continue
            found.append(e.iid)
    return found


def candidates(state: HkkState, seat: int, reach: Reach, kinds: frozenset[str]) -> list[int]:
    """The iids ``seat`` may choose for ``reach``: ``in_reach``, or in their discard pile
    the first copy of each card that may come back."""
    if reach.area == "discard":  # the first copy of each: copies in a pile are alike
        first = {state.card(i).index: i for i in reversed(state.discards[seat])}
        pile = state.discards[seat]
        return [i for i in pile if first[state.card(i).index] == i
                and may_come_back(state, seat, i)]  # fmt: skip
    return in_reach(state, seat, reach, kinds)


def may_come_back(state: HkkState, seat: int, iid: int) -> bool:
    """Whether a card of ``seat``'s discard pile may be put into play: a creature whose
    play condition holds, as from the hand (HK-7.11), checked when it is chosen and again
    when it comes back."""
    card = state.card(iid)
    if not isinstance(card, Creature):
        return False
    return card.condition is None or card.condition.holds(state, Context(seat, iid))


def attach_candidates(state: HkkState, seat: int, card: Card) -> list[int] | None:
    """Where an attached card may go (``None``: it is not attached): an enchantment on a
    card of its ``attach`` kind (HK-8.1), a creature item on an own creature that uses
    items and has none of that subtype (HK-9.2), a body part on an own galetki within
    its drawback's limit (HK-9.4), a level-up on an own adventurer (HK-4.4)."""
    if isinstance(card, Enchantment) and card.attach is not None:
        reach = Reach("chosen", "any", card.attach)
        return candidates(state, seat, reach, kinds_of(card, False))
    if not ((isinstance(card, Item) and card.carried) or isinstance(card, BodyPart | LevelUp)):
        return None
    own = [e for e in state.tables[seat] if e.area in ("guard", "reserve")]
    if isinstance(card, Item) and card.carried:
        return [e.iid for e in own if e.card.item_use
                and not any(a.card.TYPE == "item" and a.card.subtype == card.subtype
                            for a in figures.attached(state, seat, e))]  # fmt: skip
    if isinstance(card, BodyPart):
        return [e.iid for e in own if isinstance(e.card, Galetki) and _body_room(state, seat, e)]
    return [e.iid for e in own if isinstance(e.card, Adventurer)]  # a level-up


def _body_room(state: HkkState, seat: int, galetki: InPlay) -> bool:
    limits = [d.count for d in galetki.card.drawbacks if d.kind == "body_parts"]
    carried = sum(1 for a in figures.attached(state, seat, galetki) if isinstance(a.card, BodyPart))
    return not limits or carried < min(limits)


# ----- what may be played now --------------------------------------------------------------


def sorcery_speed(state: HkkState, seat: int) -> bool:
    """Cards other than instants: in your own main phases, with nothing on the chain
    (HK-3.3, HK-8.1 … HK-8.3)."""
    return (seat == state.active and state.phase in MAIN_PHASES
            and not state.stack.items and not state.saving)  # fmt: skip


def card_plays(state: HkkState, seat: int) -> Iterator[int]:
    """Actions that play a card of ``seat``'s hand now: copies of one card are the same
    play, so only the first copy in the hand is offered."""
    fast = sorcery_speed(state, seat)
    saving = opening_save(state)
    cards = state.table.cards
    offered: set[int] = set()
    for slot, iid in enumerate(state.hands[seat][:MAX_HAND]):
        card = cards[iid]
        if not (fast or isinstance(card, Instant)) or card.index in offered:
            continue  # too slow now, as its other copies
        offered.add(card.index)
        if not affordable(state, seat, card):
            continue
        if saving and not saves(effects_of(card, -1)):
            continue
        if card.condition is not None and not card.condition.holds(state, Context(seat, iid)):
            continue
        for ref in _refs(state, seat, card):
            yield _PLAY(slot, ref)


def opening_save(state: HkkState) -> bool:
    """In a life-saving window only what raises life opens the chain (HK-4.2); once
    something is on it, every answer is open (a reaction may cancel the saving card)."""
    return state.saving and not state.stack.items


def chain_allows(state: HkkState, card: Card) -> bool:
    """Whether the chain lets ``card`` be played: a reaction needs an item of the kind it
    answers on top (``may_answer``); any other card needs nothing."""
    return not (isinstance(card, Instant) and card.reaction) or may_answer(state, card)


def may_answer(state: HkkState, reaction: Instant) -> bool:
    """Whether ``reaction`` may answer the chain's top item, the one it would answer: one
    of the kind its card ``answers`` (HK-8.4). A spell is a card of a spell type played; a
    reaction, such a card that answers; an ability, an activated ability used."""
    items = state.stack.items
    if not items:
        return False
    kind = reaction.answers
    if kind in (None, "any"):
        return True
    play = items[-1].what
    if kind == "ability" or play.ability >= 0:
        return kind == "ability" and play.ability >= 0
    answered = state.card(play.iid)
    if kind == "spell":
        return answered.is_spell
    return isinstance(answered, Instant) and answered.reaction


def affordable(state: HkkState, seat: int, card: Card) -> bool:
    """Whether ``seat`` can pay ``card``'s cost and has room for it (HK-1.2, HK-9)."""
    if len(state.tables[seat]) >= MAX_TABLE and not (card.is_spell and card.TYPE != "enchantment"):
        return False
    if isinstance(card, Building):
        return len(builders(state, seat)) >= card.builders
    if isinstance(card, Item):
        return state.components[seat] >= card.components
    return state.vp[seat] >= card.cost  # type: ignore[attr-defined]


def builders(state: HkkState, seat: int) -> list[InPlay]:
    """Creatures that may raise a building: active, in the reserve (HK-9.1)."""
    return [e for e in figures.reserve(state, seat) if e.active]


def _refs(state: HkkState, seat: int, card: Card) -> list[int]:
    """The refs a card may be played with: its targets, or ``NO_REF``; empty when it
    needs a target or an answer and has none."""
    if not chain_allows(state, card):
        return []
    hosts = attach_candidates(state, seat, card)
    reach = chosen_reach(effects_of(card, -1))
    if hosts is None and reach is None:
        return [NO_REF]
    iids = hosts if hosts is not None else candidates(state, seat, reach, kinds_of(card, False))
    return refs_of(state, seat, iids)


def ability_uses(
    state: HkkState, seat: int, ready: tuple[tuple[int, int, InPlay, Any], ...] | None = None
) -> Iterator[int]:
    """Actions that use an activated ability of ``seat``'s cards now (HK-7, HK-8.3): of
    the abilities ``ready_abilities`` (``ready`` when the caller has them), those
    ``usable`` now."""
    phase = state.phase
    windows = phase in WINDOWS
    if not windows and phase != SACRIFICE:
        return
    saving = opening_save(state)
    if ready is None:
        ready = ready_abilities(state, seat)
    for position, index, entry, ability in ready:
        if not windows and ability.timing != "preparation":
            continue
        if not may_use(state, seat, entry, ability, saving):
            continue
        reach = chosen_reach(ability.effects)
        if reach is None:
            yield _ACTIVATE(position, index, NO_REF)
            continue
        iids = candidates(state, seat, reach, kinds_of(entry.card, True))
        for ref in refs_of(state, seat, iids):
            yield _ACTIVATE(position, index, ref)


def ready_abilities(state: HkkState, seat: int) -> tuple[tuple[int, int, InPlay, Any], ...]:
    """(table position, ability index, card, ability) of ``seat``'s activated abilities
    within the action space that are ``ready``: it holds as long as the cards in play and
    their figure marks do (so the windows remember it with the figures, ``turns``)."""
    found = []
    for position, entry in enumerate(state.tables[seat][:MAX_TABLE]):
        activated = getattr(entry.card, "activated", ())
        if activated:  # (most cards have none)
            for index, ability in enumerate(activated[:MAX_ABILITIES]):
                if ready(state, entry, ability):
                    found.append((position, index, entry, ability))
    return tuple(found)


def usable(state: HkkState, seat: int, entry: InPlay, ability: Any) -> bool:
    """HK-1.4, HK-4.2, HK-4.4, HK-7.10, HK-8.3: who may pay and use ``ability`` now."""
    if state.phase not in WINDOWS and not (
        ability.timing == "preparation" and state.phase == SACRIFICE
    ):
        return False
    return ready(state, entry, ability) and payable(state, seat, entry, ability)


def ready(state: HkkState, entry: InPlay, ability: Any) -> bool:
    """The part of ``usable`` that holds as long as the cards in play and their figure
    marks stay as they are: an active card (a creature may be passive), on a carrier still
    in play, in the reserve to pay with passivation, at the ability's level."""
    creature = isinstance(entry.card, Creature)
    if not creature and (
        not entry.active or (entry.area == "attached" and not _host_alive(state, entry))
    ):
        return False
    if ability.passivate and (not entry.active or (creature and entry.area != "reserve")):
        return False
    return not (ability.level and entry.levels < ability.level)


def may_use(state: HkkState, seat: int, entry: InPlay, ability: Any, saving: bool) -> bool:
    """Whether ``seat`` may use its ``ready`` ability now, but for its target: it can pay
    (``payable``), and with ``saving`` (``opening_save``) it raises life. The windows ask
    it for every ready ability, so ``payable`` is this with ``saving`` off, not a call."""
    if not (state.vp[seat] >= ability.vp and state.life[seat] >= ability.life
            and state.components[seat] >= ability.components):  # fmt: skip
        return False
    return alive(state, entry) and (not saving or saves(ability.effects))


def payable(state: HkkState, seat: int, entry: InPlay, ability: Any) -> bool:
    """The rest of ``usable``: ``seat`` can pay the costs, and a creature is alive."""
    return may_use(state, seat, entry, ability, False)


def alive(state: HkkState, entry: InPlay) -> bool:
    """Whether ``entry`` is not a creature at 0 life or less (HK-4.2)."""
    return not isinstance(entry.card, Creature) or figures.remaining(state, entry) > 0


def _host_alive(state: HkkState, entry: InPlay) -> bool:
    return entry.host is None or find(state, entry.host) is not None


# ----- playing and paying ------------------------------------------------------------------


def play_card(state: HkkState, seat: int, slot: int, target: int | None) -> None:
    """Pay for the card in hand ``slot`` and put it on the chain (HK-8.4); a building's
    builders are chosen first (``BuildersChoice``)."""
    iid = state.hands[seat][slot]
    card = state.card(iid)
    state.table.move(iid, ("hand", seat), ("chain", seat))
    state.counters["cards_played"] += 1
    state._record("card_played", player=seat, card=card.index, target=_index(state, target))
    if isinstance(card, Building):
        helpers = builders(state, seat)
        if len(helpers) == card.builders:
            for helper in helpers:
                helper.active = False
        else:
            state.pending.offer(BuildersChoice(seat, iid, card.builders))
            return
    elif isinstance(card, Item):
        state.components[seat] -= card.components
    else:
        state.vp[seat] -= card.cost  # type: ignore[attr-defined]
    push(state, seat, Play(iid, target))


def use_ability(state: HkkState, seat: int, position: int, index: int, target: int | None) -> None:
    """Pay for an activated ability and put it on the chain (HK-7, HK-8.4)."""
    entry = state.tables[seat][position]
    ability = entry.card.activated[index]
    state.vp[seat] -= ability.vp
    state.life[seat] -= ability.life
    state.components[seat] -= ability.components
    state.counters["abilities_used"] += 1
    state._record("ability_used", player=seat, card=entry.card.index, position=position,
                  ability=index, target=_index(state, target))  # fmt: skip
    if ability.passivate:
        entry.active = False
    if ability.sacrifice:
        state.leave(entry, "discard", gives=False)
    push(state, seat, Play(entry.iid, target, index))


def _index(state: HkkState, iid: int | None) -> list[int] | None:
    """A chosen target for the record: ``[seat, table position, pool index]``, the seat
    ``-1`` for a card in a discard pile (``None``: no target)."""
    if iid is None:
        return None
    entry = find(state, iid)
    if entry is None:
        return [-1, -1, state.card(iid).index]
    seat = figures.controller(state, entry)
    return [seat, state.tables[seat].index(entry), state.card(iid).index]


def push(state: HkkState, seat: int, play: Play) -> None:
    """Put ``play`` on the chain; the other player has the next word (HK-8.4)."""
    state.stack.push(seat, play)
    state.priority_round.answered(seat)


@dataclass(frozen=True)
class BuildersChoice(Choice):
    """HK-9.1: the building's controller picks the creatures that raise it, one by one."""

    seat: int
    iid: int
    needed: int

    def legal(self, state: HkkState) -> list[int]:
        return sorted(CHOOSE_BASE + own_ref(state.tables[self.seat].index(e))
                      for e in builders(state, self.seat)
                      if state.tables[self.seat].index(e) < MAX_TABLE)  # fmt: skip

    def apply(self, state: HkkState, action: int) -> None:
        state.tables[self.seat][action - CHOOSE_BASE - own_ref(0)].active = False
        if self.needed > 1:
            state.pending.then(BuildersChoice(self.seat, self.iid, self.needed - 1))
            return
        state.pending.done()
        push(state, self.seat, Play(self.iid))


# ----- resolving ---------------------------------------------------------------------------


def resolve_play(state: HkkState, seat: int, play: Play) -> None:
    """What a card or ability does as it leaves the chain (HK-7.8, HK-8, HK-9)."""
    if play.ability >= 0:
        card = state.card(play.iid)
        run(state, seat, play, card.activated[play.ability].effects, True)  # type: ignore[attr-defined]
        return
    card = state.card(play.iid)
    if isinstance(card, Creature):
        entry = state.enter(seat, play.iid, ("chain", seat), "reserve",
                            active=card.abilities.flying)  # fmt: skip
        if entry is None:
            state.table.move(play.iid, ("chain", seat), ("discard", state.owner(play.iid)))
            return
    elif card.is_spell and not isinstance(card, Enchantment):
        run(state, seat, play, effects_of(card, -1), False)
        state.table.move(play.iid, ("chain", seat), ("discard", state.owner(play.iid)))
        _offer_optional(state, seat, play)
        return
    elif not _put_permanent(state, seat, play, card):
        state.table.move(play.iid, ("chain", seat), ("discard", state.owner(play.iid)))
        return
    run(state, seat, play, effects_of(card, -1), False)
    _offer_optional(state, seat, play)


def _put_permanent(state: HkkState, seat: int, play: Play, card: Card) -> bool:
    """A permanent other than a creature comes into play; ``False`` when it had a host
    that has gone (it then goes to the discard pile)."""
    hosts = attach_candidates(state, seat, card)
    if hosts is not None:
        if play.target not in hosts or (state.shields and (play, play.target) in state.shields):
            return False
        host = find(state, play.target)
        assert host is not None
        side = figures.controller(state, host)
        entered = state.enter(side, play.iid, ("chain", seat), "attached", active=True,
                              host=play.target)  # fmt: skip
        if entered is not None and isinstance(card, LevelUp):
            host.levels += card.levels  # HK-4.4
        return entered is not None
    active = not isinstance(card, Building)  # HK-9.1; enchantments, items, skills: HK-8.1
    return state.enter(seat, play.iid, ("chain", seat), "beside", active=active) is not None


def run(state: HkkState, seat: int, play: Play, effects: tuple[Any, ...], ability: bool) -> None:
    """Run ``effects`` of ``play`` for ``seat`` (the kit's ``resolve``)."""
    card = state.card(play.iid)
    facts = {"kinds": kinds_of(card, ability), "play": play}
    context = Context(seat, play.iid, play.target, facts)
    resolve(state, context, effects, lambda: state.winner is not None)
    settle_damage(state)


def _offer_optional(state: HkkState, seat: int, play: Play) -> None:
    """HK-7.8: a "you may" effect is its owner's decision as it would happen."""
    effects = state.card(play.iid).triggers.get("played_optional", ())
    if effects:
        choice = OptionalChoice(seat, play.iid, effects)
        if len(choice.legal(state)) > 1:
            state.pending.offer(choice)


@dataclass(frozen=True)
class OptionalChoice(Choice):
    """A "may" trigger (HK-7.8): take it (with its target) or let the chance go."""

    seat: int
    iid: int
    effects: tuple[Any, ...]

    def legal(self, state: HkkState) -> list[int]:
        reach = chosen_reach(self.effects)
        if reach is None:
            return [PASS, CHOOSE_BASE + NO_REF]
        kinds = kinds_of(state.card(self.iid), False)
        refs = refs_of(state, self.seat, candidates(state, self.seat, reach, kinds))
        return [PASS, *(CHOOSE_BASE + r for r in refs)]

    def apply(self, state: HkkState, action: int) -> None:
        """The choice is told in a public event (``trigger_used`` or ``trigger_declined``):
        what the trigger does may leave nothing to see by the end of the turn."""
        state.pending.done()
        card = state.card(self.iid).index
        if action == PASS:
            state._record("trigger_declined", player=self.seat, card=card)
            return
        target = iid_of_ref(state, self.seat, action - CHOOSE_BASE)
        state._record("trigger_used", player=self.seat, card=card, target=_index(state, target))
        run(state, self.seat, Play(self.iid, target), self.effects, False)


def iid_of_ref(state: HkkState, seat: int, ref: int) -> int | None:
    """The card a ref names for ``seat`` (``None`` for ``NO_REF``)."""
    where, index = decode_ref(ref)
    if where == "own":
        return state.tables[seat][index].iid
    if where == "enemy":
        return state.tables[1 - seat][index].iid
    if where == "discard":
        return [i for i in state.discards[seat] if isinstance(state.card(i), Creature)][index]
    return None


# ----- what effects reach and do (the primitives' run functions call these) --------------------


def reached(state: HkkState, context: Context, effect: Any) -> list[Any]:
    """What ``effect`` reaches: table cards (``InPlay``), a seat (an int, a player), a card
    in a discard pile (``("discard", iid)``) or the chain item answered (``Play``)."""
    reach: Reach = effect.reach
    seat = context.owner
    kinds = context.facts["kinds"]  # type: ignore[index]
    if reach.how == "player":
        return [1 - seat]
    if reach.how == "answered":  # the item under the reaction, now the chain's top
        return state.stack.items[-1:]
    if reach.how == "self":  # a creature: the card itself, or the one it lies on
        entry = find(state, context.source)
        if entry is not None and entry.host is not None:
            entry = find(state, entry.host)
        return [entry] if entry is not None and figures.is_creature(entry) else []
    if reach.how == "each":
        taken = in_reach(state, seat, reach, kinds)
        return [e for table in state.tables for e in table if e.iid in taken]
    if context.target is None:
        return []
    if reach.area == "discard":
        back = context.target in state.discards[seat] and may_come_back(state, seat, context.target)
        return [("discard", context.target)] if back else []
    entry = find(state, context.target)
    return [entry] if entry is not None and matches(state, seat, reach, entry, kinds) else []


def affects(state: HkkState, context: Context, entry: InPlay) -> bool:
    """HK-7.7: "X has no effect on it"; HK-9.4: a body part shielded it from X."""
    if not figures.is_creature(entry):
        return True
    shields = state.shields  # (mostly none: a play's hash is worked out in Python)
    if shields and (context.facts["play"], entry.iid) in shields:  # type: ignore[index]
        return False
    return not figures.unaffected(state, entry) & context.facts["kinds"]  # type: ignore[index]


def hurt(state: HkkState, entry: InPlay, amount: int, form: str | None) -> None:
    """Damage to a creature or building (HK-4.2, HK-6.8); an immune creature takes none
    (HK-7.1). A creature that took some has a fresh wound (``HkkState.wounds``)."""
    if (
        figures.is_creature(entry)
        and form is not None
        and form in figures.held(state, entry).immunity
    ):
        return
    entry.damage += amount
    if amount and figures.is_creature(entry):
        state.wounds.add(entry.iid)  # HK-7.9: it may regenerate until both players pass


def poison(state: HkkState, entry: InPlay, counters: int) -> None:
    """HK-7.3: never on a creature immune to poison (HK-7.1)."""
    if "poison" not in figures.held(state, entry).immunity:
        entry.poison += counters


def passivate(state: HkkState, entry: InPlay) -> None:
    """HK-1.4: guard-post creatures, creature items and body parts never become passive."""
    card = entry.card
    if (
        entry.area == "guard"
        or isinstance(card, BodyPart)
        or (isinstance(card, Item) and card.carried)
    ):
        return
    entry.active = False


def dying(state: HkkState) -> list[InPlay]:
    """Creatures at 0 life or less (HK-4.2). Only one with damage or a life boost below
    0 can be, unless some card lowers life (then every creature is looked at)."""
    lowered = figures.lowers_life(state)
    found = []
    for table in state.tables:
        if not lowered and list(map(_HURT, table)).count(UNHURT) == len(table):
            continue  # nobody damaged or boosted here (scanned without a Python loop)
        for e in table:
            if ((e.damage > 0 or lowered or e.boost[1] < 0) and e.area in figures.CREATURE_AREAS
                    and figures.remaining(state, e) <= 0):  # fmt: skip
                found.append(e)
    return found


_HURT = operator.attrgetter("damage", "boost")
UNHURT = (0, (0, 0))
"""``_HURT`` of a card with no damage and no boost: most cards, most of the time."""
_DAMAGE = operator.attrgetter("damage")
_POISON = operator.attrgetter("poison")
_AREA = operator.attrgetter("area")


def settle_damage(state: HkkState) -> None:
    """After a resolution: buildings dealt their structure fall (HK-6.8); limits that
    shrank hold again (the guard post's places, magic points above a lost higher limit,
    HK-2.1); poison counters fall off the immune (HK-7.1); a creature at 0 life or less
    opens a life-saving window (HK-4.2)."""
    for seat in (0, 1):
        table = state.tables[seat]
        if not any(map(_DAMAGE, table)):
            continue  # (a structure is at least 1: an undamaged building stands)
        falling = [e for e in table if e.damage and isinstance(e.card, Building)
                   and e.damage >= e.card.structure]  # fmt: skip
        for entry in falling:
            state.leave(entry, "discard")
    fit_guard_posts(state)
    for seat in (0, 1):
        if state.vp[seat] > figures.LIMIT:  # a limit is never below that (cards add to it)
            state.vp[seat] = min(state.vp[seat], figures.vp_limit(state, seat))  # HK-2.1
        table = state.tables[seat]
        if not any(map(_POISON, table)):
            continue  # (nobody poisoned here: scanned without a Python loop)
        for entry in table:
            if (entry.poison and entry.area in figures.CREATURE_AREAS
                    and "poison" in figures.held(state, entry).immunity):  # fmt: skip
                entry.poison = 0  # HK-7.1: counters fall off once it is immune
    if dying(state):
        state.saving = True


def fit_guard_posts(state: HkkState) -> None:
    """A guard post that lost places (a watchtower gone or passive) sends its last
    creatures back to the reserve (**Project decision**: HK-1.2's limit always holds)."""
    for seat in (0, 1):
        if list(map(_AREA, state.tables[seat])).count("guard") > figures.GUARD_POST:
            # (never fewer places than that: counted without a Python loop)
            for entry in figures.guard(state, seat)[figures.guard_size(state, seat) :]:
                entry.area = "reserve"


def kill_dying(state: HkkState) -> None:
    """The life-saving window closes: creatures still at 0 or less die (HK-4.2, HK-6.5)."""
    for entry in dying(state):
        state.leave(entry, "discard")
    state.saving = False


def skill_count(state: HkkState, seat: int, iid: int) -> int:
    """``seat``'s level in the skill whose card is ``iid`` (HK-9.3)."""
    card = state.card(iid)
    return figures.skill_level(state, seat, card.name) if isinstance(card, Skill) else 0
