"""A rule-based HKK player: grow the reserve for magic points, hold the guard post with
the strongest creatures, break through to the player when the attacks allow it, and
answer with instants when that saves a creature or turns a fight.

- Main phases (HK-3.3, HK-3.6): play the card or use the ability that scores best while
  one scores enough: a creature for its figures and abilities and for the reserve's
  magic points (HK-3.1: one a turn per two reserve creatures); a building, an item, an
  enchantment, a skill, a body part or a level-up for what its modifiers give (a bonus
  on its best own creature, a malus on the other player's best); a spell or an ability
  for what its effects do where they reach: damage that kills the most valuable creature
  it can, removal, poison and maluses on the other player's cards, healing, counters,
  levels and cures on its own, magic points, life, cards and components for itself.
- Swap (HK-3.4): the guard post holds the active creatures of the highest value, the
  rest stays in the reserve (where it brings magic points).
- Attacks (HK-6.2): every way to assign its guard post's attackers (to an enemy guard,
  to the player or a building once every enemy guard is attacked, or to nothing) is
  scored: creatures killed and lost in the strike, each defender striking back the
  attacker it hurts most, the damage that breaks through to the player (the game when it
  is lethal). The first attack of the best assignment is declared, one at a time.
- Direct damage (HK-6.4): a breath that kills the most valuable enemy creature it can,
  or at the player when it is lethal; direct effects that hurt only the other side.
- Answers (HK-8.4): a reaction cancels a card or ability of the other player that would
  cost it a creature or more; in the window before the strike, an instant or ability
  that changes the fight's result in its favour (a boost, a malus, damage on a fighter);
  in a life-saving window (HK-4.2), healing, a boost or regeneration for its creature
  at 0 life or less.
- Decisions: upkeep drawbacks paid when it can (HK-7.11), the weakest creatures raise a
  building (HK-9.1), an optional trigger taken on its best target (HK-7.8), a defender
  strikes back the attacker it kills or hurts most, items taken from the killed, meals
  eaten as counters.

It reads only what its seat may see: its own hand, both tables, the chain, the combat,
both players' public figures and its legal actions; never the other hand or a deck, and
it simulates nothing, so it needs no determinization. What a card does is read from its
data (its type's figures and modifiers, and its effects through the appraisal each
primitive has registered on the vocabulary, ``effects.VOCAB``), so a new card needs no new
rule.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

from tabletop.envs.core.cards.vocabulary import Effect
from tabletop.envs.hkk import combat, figures, plays
from tabletop.envs.hkk.actions import (
    CHOOSE_BASE,
    PASS,
    PAY,
    PLAYER_TARGET,
    decode,
    decode_ref,
)
from tabletop.envs.hkk.cards import Building, Card, Creature, Instant
from tabletop.envs.hkk.effects import VOCAB
from tabletop.envs.hkk.steps import (
    AFTER_ATTACKS,
    DECLARE,
    DIRECT,
    MAIN_PHASES,
    SAVE_BREATH,
    SWAP,
)
from tabletop.envs.hkk.zones import InPlay

if TYPE_CHECKING:
    from tabletop.envs.hkk.engine import HkkState

RESERVE_VALUE = 2.0
"""A creature's worth beyond its figures: it brings magic points from the reserve."""
PLAY_THRESHOLD = 0.5
"""The least score for which a card or ability is worth its cost in a main phase."""
ANSWER_THRESHOLD = 2.5
"""The least a cancel or a fight's answer must save or win."""
PLAYER_WEIGHT = 0.6
"""Value of a point of damage to the other player, next to a creature's figures."""


class HkkHeuristic:
    """Baseline agent (``act(state, player) -> action``); deterministic."""

    def reset(self) -> None:
        """Stateless between games."""

    def act(self, state: HkkState, player: int) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        if state.choice is not None:
            return _choice(state, player, legal)
        if state.phase == SWAP:
            return _swap(state, player, legal)
        if state.phase == DECLARE:
            return _declare(state, player, legal)
        if state.phase == DIRECT:
            return _direct(state, player, legal)
        return _window(state, player, legal)


# ----- values ----------------------------------------------------------------------------------


def card_value(card: Card) -> float:
    """What a creature card is worth from its data: figures and abilities."""
    if not isinstance(card, Creature):
        return 0.0
    abilities = card.abilities
    extras = len(abilities.names()) * 0.5 + (1.0 if card.direct is not None else 0.0)
    return card.damage + card.life + extras + card.components * 0.3


def entry_value(state: HkkState, entry: InPlay) -> float:
    """A card on the table: a creature's figures now and abilities held, a building's
    structure; other cards a little."""
    if figures.is_creature(entry):
        held = figures.held(state, entry)
        extras = 0.5 * sum(1 for name in ("flying", "magic_attack", "magic_defence",
                                          "invisible", "poison", "regeneration")
                           if getattr(held, name))  # fmt: skip
        return figures.damage(state, entry) + figures.life(state, entry) + extras
    if isinstance(entry.card, Building):
        return 2.0 + modifier_value(entry.card)
    return 1.0 + max(0.0, modifier_value(entry.card))


def modifier_value(card: Card) -> float:
    """What a card's continuous effects give the creatures they reach (negative: a
    malus), before choosing whose."""
    total = 0.0
    for kind, params in getattr(card, "statics", ()):
        if kind == "bonus":
            total += params.damage + params.life
        elif kind == "grant":
            total += len(params.names())
        elif kind == "guard_size":
            total += 2.0 * params.places
        elif kind == "vp_limit":
            total += 0.5
    return total


# ----- effects' worth: appraisals registered on the vocabulary by primitive ------------------
#
# An appraisal ``(state, player, effect, reached) -> float`` is the good an effect does the
# player whose card it is. On the table it is worked out card by card for the card's
# controller (``_on_table``): harm to the other side is good.

Reached = Sequence[InPlay]
"""The table cards an effect reaches (none when it reaches a player or the discard pile)."""
OnCard = Callable[["HkkState", InPlay, Effect], float]
"""The good an effect does a card's controller: ``(state, entry, effect) -> float``."""


def _side(state: HkkState, entry: InPlay, player: int) -> int:
    """+1 for ``player``'s card, -1 for the other player's."""
    return 1 if figures.controller(state, entry) == player else -1


def _reached(state: HkkState, player: int, effect: Effect, target: InPlay | None,
             source: InPlay | None) -> Reached:  # fmt: skip
    """The cards ``effect`` would reach, played by ``player``."""
    reach = effect.reach
    if reach is None or reach.how == "player":
        return ()
    if reach.how == "chosen":
        return () if target is None else (target,)
    if reach.how == "self":
        return () if source is None else (source,)
    if reach.how != "each":
        return ()
    seats = {"own": (player,), "enemy": (1 - player,)}.get(reach.side, (0, 1))
    areas = ("guard",) if reach.area == "guard_post" else ("guard", "reserve")
    return [e for s in seats for e in state.tables[s] if e.area in areas]


def effects_score(state: HkkState, player: int, effects: Sequence[Effect],
                  target: InPlay | None, source: InPlay | None = None) -> float:  # fmt: skip
    """What ``effects`` would do for ``player`` with ``target`` chosen: each effect's
    appraisal (registered on the vocabulary by primitive) of the cards it reaches. The
    appraisal is looked up by the primitive's name: an effect loaded before this module
    registered the appraisals holds its primitive as it was declared, without them."""
    total = 0.0
    for effect in effects:
        appraise = VOCAB.primitives[effect.do].appraise
        if appraise is not None:
            total += appraise(
                state, player, effect, _reached(state, player, effect, target, source)
            )
    return total


def _on_table(state: HkkState, player: int, effect: Effect, reached: Reached,
              creature: OnCard, other: OnCard) -> float:  # fmt: skip
    """The good ``effect`` does ``player`` on the cards it reaches: ``creature`` rates it on
    a creature, ``other`` on any other card, both for the card's controller."""

    def rated(entry: InPlay) -> float:
        rate = creature if figures.is_creature(entry) else other
        return _side(state, entry, player) * rate(state, entry, effect)

    return sum(rated(e) for e in reached)


def _at_player(effect: Effect) -> bool:
    return effect.reach is None or effect.reach.how == "player"


def _helped(state: HkkState, entry: InPlay, effect: Effect) -> float:
    """A card other than a creature that an effect helps: what the card is worth."""
    return entry_value(state, entry)


def _lost(state: HkkState, entry: InPlay, effect: Effect) -> float:
    """A card an effect removes (or a card other than a creature that it hurts): its
    controller loses what it is worth."""
    return -entry_value(state, entry)


def _strengthens(effect: Effect) -> bool:
    """A boost that adds more than it takes (a negative one is a malus)."""
    return effect.params.damage + effect.params.life >= 0


@VOCAB.appraisal("damage")
def _damage(state: HkkState, player: int, effect: Effect, reached: Reached) -> float:
    if _at_player(effect):
        return PLAYER_WEIGHT * effect.amount
    return _on_table(state, player, effect, reached, _damaged, _damaged_card)


def _damaged(state: HkkState, entry: InPlay, effect: Effect) -> float:
    """A kill costs the creature's worth; a wound a little."""
    if effect.params.form in figures.held(state, entry).immunity:
        return 0.0
    if effect.amount >= figures.remaining(state, entry):
        return -entry_value(state, entry)
    return -0.1 * effect.amount


def _damaged_card(state: HkkState, entry: InPlay, effect: Effect) -> float:
    """A building loses its worth in proportion to the structure the damage takes."""
    worth = entry_value(state, entry)
    if isinstance(entry.card, Building):
        worth *= min(1.0, effect.amount / max(1, entry.card.structure - entry.damage))
    return -worth


def _poisoned(state: HkkState, entry: InPlay, effect: Effect) -> float:
    """Counters that will kill (HK-7.3) cost the creature's worth."""
    if effect.counters + entry.poison >= figures.remaining(state, entry):
        return -entry_value(state, entry)
    return -0.5 * effect.counters


def _stolen(state: HkkState, entry: InPlay, effect: Effect) -> float:
    """Lost by its controller and won by the taker: twice its worth."""
    return -2.0 * entry_value(state, entry)


def _bounced(state: HkkState, entry: InPlay, effect: Effect) -> float:
    """Back to the hand: it may be played again, at a cost."""
    return -0.6 * entry_value(state, entry)


def _passivated(state: HkkState, entry: InPlay, effect: Effect) -> float:
    """An active creature of the reserve cannot move to the guard post (HK-1.4)."""
    return -1.0 if entry.active and entry.area != "guard" else 0.0


def _healed(state: HkkState, entry: InPlay, effect: Effect) -> float:
    """Healing that raises a dying creature above 0 life saves its worth (HK-4.2)."""
    remaining = figures.remaining(state, entry)
    healed = min(effect.amount, entry.damage)
    return entry_value(state, entry) if remaining <= 0 < remaining + healed else 0.4 * healed


def _cured(state: HkkState, entry: InPlay, effect: Effect) -> float:
    return 0.8 * entry.poison


def _boosted(state: HkkState, entry: InPlay, effect: Effect) -> float:
    return 0.4 * (effect.params.damage + effect.params.life)


def _boosted_card(state: HkkState, entry: InPlay, effect: Effect) -> float:
    worth = entry_value(state, entry)
    return worth if _strengthens(effect) else -worth


def _grown(state: HkkState, entry: InPlay, effect: Effect) -> float:
    return 1.5 * effect.counters


def _levelled(state: HkkState, entry: InPlay, effect: Effect) -> float:
    return 1.5 * effect.levels


def _activated(state: HkkState, entry: InPlay, effect: Effect) -> float:
    return 1.0 if not entry.active else 0.0


ON_TABLE: dict[str, tuple[OnCard, OnCard]] = {
    "poison": (_poisoned, _lost),
    "destroy": (_lost, _lost),
    "exile": (_lost, _lost),
    "steal": (_stolen, _lost),
    "bounce": (_bounced, _lost),
    "passivate": (_passivated, _lost),
    "heal": (_healed, _helped),
    "cure": (_cured, _helped),
    "boost": (_boosted, _boosted_card),
    "grow": (_grown, _helped),
    "level_up": (_levelled, _helped),
    "activate": (_activated, _helped),
}
"""The primitives whose good is rated card by card on the table (``_on_table``): how on a
creature, how on any other card."""


for _primitive, (_creature, _other) in ON_TABLE.items():
    # a partial of module functions: effects hold their appraisal, and states pickle
    VOCAB.appraisal(_primitive)(functools.partial(_on_table, creature=_creature, other=_other))


@VOCAB.appraisal("reanimate")
def _reanimate(state: HkkState, player: int, effect: Effect, reached: Reached) -> float:
    """A creature back from the discard pile, whichever it is."""
    return 3.0


@VOCAB.appraisal("cancel")
def _cancel(state: HkkState, player: int, effect: Effect, reached: Reached) -> float:
    return 0.0  # an answer is weighed by what it answers (``_answer``)


# Life and magic points over their limits are lost (HK-2.1).


@VOCAB.appraisal("drain_vp")
def _drain_vp(state: HkkState, player: int, effect: Effect, reached: Reached) -> float:
    return 0.3 * min(effect.amount, state.vp[1 - player])


@VOCAB.appraisal("gain_life")
def _gain_life(state: HkkState, player: int, effect: Effect, reached: Reached) -> float:
    return 0.3 * min(effect.amount, figures.LIMIT - state.life[player])


@VOCAB.appraisal("gain_vp")
def _gain_vp(state: HkkState, player: int, effect: Effect, reached: Reached) -> float:
    return 0.4 * min(effect.amount, figures.vp_limit(state, player) - state.vp[player])


@VOCAB.appraisal("draw")
def _draw(state: HkkState, player: int, effect: Effect, reached: Reached) -> float:
    return 1.5 * effect.cards


@VOCAB.appraisal("gain_components")
def _gain_components(state: HkkState, player: int, effect: Effect, reached: Reached) -> float:
    return 0.7 * effect.amount


# ----- effects in a fight: what they change of the fighters, by primitive --------------------


def _boost_change(effect: Effect) -> tuple[int, int]:
    return effect.params.damage, effect.params.life


def _damage_change(effect: Effect) -> tuple[int, int]:
    return 0, -effect.amount  # damage taken: life lost for the strike


FIGHT_CHANGES: dict[str, Callable[[Effect], tuple[int, int]]] = {
    "boost": _boost_change,
    "damage": _damage_change,
}
"""Primitive name -> the (damage, life) an effect adds to each fighter it reaches."""


def _always(effect: Effect) -> bool:
    return True


def _never(effect: Effect) -> bool:
    return False


KEPT_FOR_FIGHTS: dict[str, Callable[[Effect], bool]] = {
    "heal": _always,
    "boost": _strengthens,
}
"""Primitive name -> whether an instant with such an effect is better kept for a fight or a
life-saving window than played in a main phase (a boost lasts one turn at most, HK-4.2)."""


# ----- cards and abilities -------------------------------------------------------------------


def _target(state: HkkState, player: int, ref: int) -> InPlay | None:
    where, index = decode_ref(ref)
    if where == "own":
        return state.tables[player][index]
    if where == "enemy":
        return state.tables[1 - player][index]
    return None


def _permanent_score(state: HkkState, player: int, card: Card, target: InPlay | None) -> float:
    """A permanent's worth where it would lie (``target``: its host)."""
    if isinstance(card, Creature):
        return card_value(card) + RESERVE_VALUE
    bonus = modifier_value(card) + getattr(card, "levels", 0) * 1.5
    if target is not None:
        return _side(state, target, player) * bonus + 0.1 * entry_value(state, target)
    group = getattr(card, "group", None)
    if group is not None:
        own = len(figures.creatures(state, player))
        return 0.5 + bonus * max(1, own) / 2 * (-1 if group.startswith("enemy") else 1)
    return 1.5 + (2.0 if isinstance(card, Building) else bonus)


def play_score(state: HkkState, player: int, action: int) -> float:
    """What playing a card of the hand or using an ability would do for ``player``."""
    kind, fields = decode(action)
    if kind == "play":
        card = state.card(state.hands[player][fields[0]])
        target = _target(state, player, fields[1])
        score = effects_score(state, player, plays.effects_of(card, -1), target)
        if not card.is_spell or card.TYPE == "enchantment":
            score += _permanent_score(state, player, card, target)
        return score - 0.05 * getattr(card, "cost", 0)
    entry = state.tables[player][fields[0]]
    ability = entry.card.activated[fields[1]]
    target = _target(state, player, fields[2])
    score = effects_score(state, player, ability.effects, target, entry)
    cost = 0.3 * ability.vp + ability.life + ability.components
    cost += entry_value(state, entry) if ability.sacrifice else 0.0
    return score - cost - (0.5 if ability.passivate else 0.0)


def _uses(legal: Iterable[int]) -> list[int]:
    return [a for a in legal if decode(a)[0] in ("play", "activate")]


# ----- windows ---------------------------------------------------------------------------------


def _window(state: HkkState, player: int, legal: list[int]) -> int:
    if state.saving:
        return _save(state, player, legal)
    if state.stack:
        return _answer(state, player, legal)
    if state.phase in (AFTER_ATTACKS, SAVE_BREATH) and state.fight is not None:
        return _fight_answer(state, player, legal)
    if player == state.active and state.phase in MAIN_PHASES:
        kept = [a for a in _uses(legal) if not _answer_card(state, player, a)]
        return _best(state, player, kept, PLAY_THRESHOLD)
    instants = [a for a in _uses(legal) if not _is_card(state, player, a, Instant)
                or _kills(state, player, a)]  # fmt: skip
    return _best(state, player, instants, ANSWER_THRESHOLD)


def _answer_card(state: HkkState, player: int, action: int) -> bool:
    """An instant that heals or boosts its own: kept for a fight or a life-saving window
    (its effect lasts one turn at most, HK-4.2)."""
    if not _is_card(state, player, action, Instant):
        return False
    card = state.card(state.hands[player][decode(action)[1][0]])
    return any(KEPT_FOR_FIGHTS.get(e.do, _never)(e) for e in plays.effects_of(card, -1))


def _is_card(state: HkkState, player: int, action: int, kind: type) -> bool:
    how, fields = decode(action)
    return how == "play" and isinstance(state.card(state.hands[player][fields[0]]), kind)


def _kills(state: HkkState, player: int, action: int) -> bool:
    """Whether an instant's chosen target is an enemy creature it would kill."""
    target = _target(state, player, decode(action)[1][1])
    if target is None or _side(state, target, player) > 0:
        return False
    return play_score(state, player, action) >= entry_value(state, target) - 1


def _best(state: HkkState, player: int, options: list[int], threshold: float) -> int:
    """The best scoring option when it scores ``threshold`` or more, else ``PASS``."""
    scored = [(play_score(state, player, a), -a) for a in options]
    if not scored:
        return PASS
    score, action = max(scored)
    return -action if score >= threshold else PASS


def _answer(state: HkkState, player: int, legal: list[int]) -> int:
    """A reaction cancels the other player's card or ability when it would cost enough."""
    top = state.stack.top
    if top.controller == player:
        return PASS
    play = top.what
    card = state.card(play.iid)
    target = plays.find(state, play.target) if play.target is not None else None
    source = plays.find(state, play.iid)
    effects = plays.effects_of(card, play.ability)
    threat = effects_score(state, top.controller, effects, target, source)
    if play.ability < 0 and isinstance(card, Creature):
        threat += card_value(card)
    cancels = [a for a in _uses(legal) if _answers(state, player, a)]
    return cancels[0] if cancels and threat >= ANSWER_THRESHOLD else PASS


def _answers(state: HkkState, player: int, action: int) -> bool:
    kind, fields = decode(action)
    if kind != "play":
        return False
    card = state.card(state.hands[player][fields[0]])
    return any(
        e.reach is not None and e.reach.how == "answered" for e in plays.effects_of(card, -1)
    )


def _save(state: HkkState, player: int, legal: list[int]) -> int:
    """HK-4.2: raise an own creature at 0 life or less above it, if anything does."""
    mine = [e for e in plays.dying(state) if figures.controller(state, e) == player]
    if not mine:
        return PASS
    regen = [a for a in legal if decode(a)[0] == "regenerate"
             and state.tables[player][decode(a)[1][0]] in mine]  # fmt: skip
    if regen:
        return regen[0]
    return _best(state, player, _uses(legal), 1.0)


# ----- the fight (HK-6) ------------------------------------------------------------------------


def _hit(state: HkkState, striker: InPlay, struck: InPlay, tweak: dict[int, list[int]]) -> int:
    amount = combat.strike_damage(state, striker, struck)
    return max(0, amount + tweak.get(striker.iid, [0, 0])[0]) if amount else 0


def fight_value(state: HkkState, player: int, tweak: dict[int, list[int]]) -> float:
    """The declared attacks' result for ``player``: creatures killed less creatures lost,
    and damage to a player; ``tweak`` adds (damage, life) to creatures by iid."""
    fight = state.fight
    assert fight is not None
    taken: dict[int, int] = {}
    total = 0.0
    for attacker_iid, aim in fight.attacks.items():
        attacker = plays.find(state, attacker_iid)
        if attacker is None:
            continue
        if aim == combat.PLAYER:
            sign = 1 if figures.controller(state, attacker) == player else -1
            total += sign * PLAYER_WEIGHT * (figures.damage(state, attacker)
                                             + tweak.get(attacker_iid, [0, 0])[0])  # fmt: skip
            continue
        target = plays.find(state, aim)
        if target is None or not figures.is_creature(target):
            continue
        taken[aim] = taken.get(aim, 0) + _hit(state, attacker, target, tweak)
        if fight.strikes_back.get(aim) == attacker_iid:
            taken[attacker_iid] = taken.get(attacker_iid, 0) + _hit(state, target, attacker, tweak)
    for iid, amount in taken.items():
        entry = plays.find(state, iid)
        if entry is None:
            continue
        if amount >= figures.remaining(state, entry) + tweak.get(iid, [0, 0])[1]:
            total -= _side(state, entry, player) * entry_value(state, entry)
    return total


def _tweak(state: HkkState, player: int, action: int) -> dict[int, list[int]]:
    """What a card or ability would change in the fight: boosts, and damage as lost life."""
    kind, fields = decode(action)
    if kind == "play":
        effects = plays.effects_of(state.card(state.hands[player][fields[0]]), -1)
        target, source = _target(state, player, fields[1]), None
    else:
        source = state.tables[player][fields[0]]
        effects = source.card.activated[fields[1]].effects
        target = _target(state, player, fields[2])
    tweak: dict[int, list[int]] = {}
    for effect in effects:
        change_of = FIGHT_CHANGES.get(effect.do)
        if change_of is None:
            continue
        damage, life = change_of(effect)
        for entry in _reached(state, player, effect, target, source):
            change = tweak.setdefault(entry.iid, [0, 0])
            change[0] += damage
            change[1] += life
    return tweak


def _fight_answer(state: HkkState, player: int, legal: list[int]) -> int:
    """Before the strike: the card or ability that turns the fight most, if by enough."""
    base = fight_value(state, player, {})
    scored = [(fight_value(state, player, _tweak(state, player, a)) - base, -a)
              for a in _uses(legal)]  # fmt: skip
    if not scored:
        return PASS
    gain, action = max(scored)
    return -action if gain >= ANSWER_THRESHOLD else PASS


# ----- swap and attacks ------------------------------------------------------------------------


def _swap(state: HkkState, player: int, legal: list[int]) -> int:
    """The guard post holds the strongest active creatures (HK-3.4)."""
    moved = state.fight.moved if state.fight is not None else set()
    table = state.tables[player]
    pool = [e for e in figures.creatures(state, player) if e.active]
    pool.sort(key=lambda e: (-entry_value(state, e), e.iid))
    wanted = {e.iid for e in pool[: figures.guard_size(state, player)]}
    for action in legal:
        kind, fields = decode(action)
        entry = table[fields[0]] if kind in ("guard", "reserve") else None
        if entry is None or entry.iid in moved:
            continue
        if (kind == "guard") == (entry.iid in wanted):
            return action
    return PASS


def _declare(state: HkkState, player: int, legal: list[int]) -> int:
    """The first attack of the best assignment of the remaining attackers."""
    options: dict[int, list[tuple[int, int]]] = {}
    for action in legal:
        kind, fields = decode(action)
        if kind == "attack":
            options.setdefault(fields[0], []).append((fields[1], action))
    if not options:
        return PASS
    attackers = sorted(options)
    best, best_plan = _plan_value(state, player, {}), {}
    choices = [[(None, PASS), *options[a]] for a in attackers]
    for plan in itertools.product(*choices):
        chosen = {a: t for a, (t, _) in zip(attackers, plan, strict=True) if t is not None}
        if not chosen or not _allowed(state, player, chosen):
            continue
        value = _plan_value(state, player, chosen)
        if value > best:
            best, best_plan = value, dict(zip(attackers, plan, strict=True))
    return _first_attack(best_plan)


def _first_attack(plan: dict[int, tuple[int | None, int]]) -> int:
    """Attacks on guards first: the player opens only once every guard is attacked."""
    attacks = [(t == PLAYER_TARGET, action) for t, action in plan.values() if t is not None]
    return min(attacks)[1] if attacks else PASS


def _allowed(state: HkkState, player: int, chosen: dict[int, int]) -> bool:
    """HK-6.2: past the guard post only once all its creatures are attacked (invisible
    attackers aside), at most two attackers on one defender."""
    fight = state.fight
    enemy = state.tables[1 - player]
    aims = list(fight.attacks.values()) if fight is not None else []
    aims += [enemy[t - 1].iid for t in chosen.values() if t != PLAYER_TARGET]
    guards = figures.guard(state, 1 - player)
    if any(aims.count(g.iid) > 2 for g in guards):
        return False
    through = all(g.iid in aims for g in guards)
    past = [a for a, t in chosen.items() if t == PLAYER_TARGET or enemy[t - 1].area != "guard"]
    table = state.tables[player]
    return through or all(figures.held(state, table[a]).invisible for a in past)


def _plan_value(state: HkkState, player: int, chosen: dict[int, int]) -> float:
    """Creatures killed less creatures lost in the strike, each defender striking back
    the attacker it hurts most, and the damage broken through to the player."""
    fight = state.fight
    table, enemy = state.tables[player], state.tables[1 - player]
    attacks = dict(fight.attacks) if fight is not None else {}
    attacks.update({table[a].iid: (combat.PLAYER if t == PLAYER_TARGET else enemy[t - 1].iid)
                    for a, t in chosen.items()})  # fmt: skip
    through = sum(figures.damage(state, plays.find(state, a)) for a, t in attacks.items()
                  if t == combat.PLAYER)  # fmt: skip
    value = PLAYER_WEIGHT * through + (100.0 if through >= state.life[1 - player] else 0.0)
    for defender in enemy:
        attackers = [plays.find(state, a) for a, t in attacks.items() if t == defender.iid]
        if attackers:
            value += _duel(state, defender, attackers)
    return value


def _duel(state: HkkState, defender: InPlay, attackers: list[Any]) -> float:
    """The attackers' gain in one defender's fight (a building only takes damage)."""
    if isinstance(defender.card, Building):
        dealt = sum(figures.damage(state, a) for a in attackers)
        left = defender.card.structure - defender.damage
        return entry_value(state, defender) * min(1.0, dealt / max(1, left))
    dealt = sum(combat.strike_damage(state, a, defender) for a in attackers)
    value = entry_value(state, defender) if dealt >= figures.remaining(state, defender) else 0.0
    back = [a for a in attackers
            if combat.strike_damage(state, defender, a) >= figures.remaining(state, a)]  # fmt: skip
    losses = [entry_value(state, a) for a in back]
    return value - max(losses, default=0.0) + 0.1 * dealt


# ----- direct damage and decisions ---------------------------------------------------------------


def _direct(state: HkkState, player: int, legal: list[int]) -> int:
    """HK-6.4: a breath that kills the most valuable creature, or a lethal one at the
    player; direct effects that only hurt the other side."""
    scored = [(_direct_value(state, player, a), -a) for a in legal if a != PASS]
    best, action = max(scored, default=(0.0, -PASS))
    return -action if best > 0 else PASS


def _direct_value(state: HkkState, player: int, action: int) -> float:
    kind, fields = decode(action)
    source = state.tables[player][fields[0]]
    direct = source.card.direct
    if kind == "direct":
        return effects_score(state, player, direct.effects, None, source) - 0.3 * direct.vp
    _, amount, target = fields
    aim = None if target == PLAYER_TARGET else state.tables[1 - player][target - 1]
    return _breath_value(state, player, amount, aim)


def _breath_value(state: HkkState, player: int, amount: int, target: InPlay | None) -> float:
    cost = 0.3 * amount
    if target is None:
        return 100.0 if amount >= state.life[1 - player] else PLAYER_WEIGHT * amount - 2 * cost
    if figures.is_creature(target) and amount >= figures.remaining(state, target):
        return entry_value(state, target) - cost - 0.01 * amount
    return -cost


def _choice(state: HkkState, player: int, legal: list[int]) -> int:
    """Pending decisions (``plays.Choice``): pay upkeep, pick builders, take a trigger,
    strike back, take spoils, eat."""
    kind = type(state.choice).__name__
    if kind == "UpkeepChoice":
        return PAY if PAY in legal else PASS
    if kind == "BuildersChoice":
        return min(legal, key=lambda a: (_chosen_value(state, player, a), a))
    if kind == "StrikeBackChoice":
        return _strike_back(state, player, legal)
    if kind == "OptionalChoice":
        return _optional(state, player, legal)
    return next((a for a in legal if a != PASS), PASS)


def _chosen_value(state: HkkState, player: int, action: int) -> float:
    entry = _target(state, player, action - CHOOSE_BASE)
    return entry_value(state, entry) if entry is not None else 0.0


def _strike_back(state: HkkState, player: int, legal: list[int]) -> int:
    """The attacker the defender kills (the most valuable), else the one it hurts most."""
    defender = plays.find(state, state.choice.defenders[0])  # type: ignore[union-attr]

    def gain(action: int) -> tuple[float, int]:
        attacker = _target(state, player, action - CHOOSE_BASE)
        if defender is None or attacker is None:
            return 0.0, -action
        hit = combat.strike_damage(state, defender, attacker)
        kills = hit >= figures.remaining(state, attacker)
        return (entry_value(state, attacker) if kills else 0.1 * hit), -action

    return max(legal, key=gain)


def _optional(state: HkkState, player: int, legal: list[int]) -> int:
    """HK-7.8: take a "may" trigger on its best target when that does good."""
    effects = state.choice.effects  # type: ignore[union-attr]
    best, choice = 0.0, PASS
    for action in legal:
        if action == PASS:
            continue
        target = _target(state, player, action - CHOOSE_BASE)
        value = effects_score(state, player, effects, target)
        if value > best or (choice == PASS and target is None and value >= 0):
            best, choice = value, action
    return choice
