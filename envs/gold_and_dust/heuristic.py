"""A rule-based Gold & Dust player: spend resources on the best card it can afford, move melee
units up, shoot what it can kill (else the Hero), attack unless the own Hero needs guards,
block to protect its Hero, and go for the enemy Hero when ahead or when it is in reach.

It reads only what its player sees (own hand, the table, resources and HP), which the tests
check by resampling hidden information and asking again. Scores use expected dice.
"""

from __future__ import annotations

from tabletop.envs.core.cards.events import Context
from tabletop.envs.core.cards.vocabulary import Effect
from tabletop.envs.gold_and_dust.actions import DONE, HERO_TARGET, NO_TARGET, decode
from tabletop.envs.gold_and_dust.cards import UNIT, Card
from tabletop.envs.gold_and_dust.effects import ALLY, FRONT, VOCAB, affected, mean_roll
from tabletop.envs.gold_and_dust.engine import (
    ATTACK,
    BLOCK,
    MAIN,
    SHOOT,
    GoldDustState,
    Unit,
)

DANGER_MARGIN = 6
"""The Hero needs guards when the enemy's expected attack comes within this of its HP."""
MIN_PLAY_SCORE = 0.5


def card_strength(card: Card) -> float:
    """A unit's worth on the table: damage per turn, toughness, and its keywords."""
    damage = card.attack + mean_roll(card.dice)
    keywords = card.charge + card.sniper + card.death_strike + card.tireless + card.vanguard
    return damage * 1.5 + card.hp * 0.5 + card.armour + card.pierce * 0.5 + keywords


class GoldDustHeuristic:
    """Baseline agent (``act(state, player) -> action``); deterministic."""

    def reset(self) -> None:
        """Stateless between games."""

    def act(self, state: GoldDustState, player: int) -> int:
        legal = state.legal_actions()
        if state.phase == MAIN:
            return self._main(state, player, legal)
        if state.phase == SHOOT:
            return self._shoot(state, player, legal)
        if state.phase == ATTACK:
            return self._attack(state, player, legal)
        if state.phase == BLOCK:
            return self._block(state, player, legal)
        return self._strike(state, player, legal)

    # ----- (B) play and move --------------------------------------------------------------

    def _main(self, state: GoldDustState, player: int, legal: list[int]) -> int:
        plays = _of_kind(legal, "play")
        if plays:
            score, action = max((self._play_score(state, player, a), -a) for a in plays)
            if score >= MIN_PLAY_SCORE:
                return -action
        for action in _of_kind(legal, "move"):
            (slot,) = decode(action)[1]
            if not state.boards[player][slot].card.ranged:
                return action
        return DONE

    def _play_score(self, state: GoldDustState, player: int, action: int) -> float:
        hand_slot, code = decode(action)[1]
        card = state.card(state.hand_cards[player][hand_slot])
        gold, dust = state.cost_of(player, card)
        spend = 0.1 * (gold + dust)  # spend resources: among equals, the bigger card
        target = None
        if code != NO_TARGET and card.aim is not None:
            side = player if card.aim.side == ALLY else 1 - player
            target = (side, -1 if code == HERO_TARGET else code - 2)
        value = card_strength(card) if card.kind == UNIT else 0.0
        if card.persistent:
            value += 2.0 * len(card.aura) + 3.0 * len(card.on_turn_start)
            value += sum(self._front_units(state, player)) * 0.5 * len(card.aura)
        context = Context(player, None, target)
        for effect in card.on_play:
            appraise = VOCAB.primitives[effect.do].appraise
            if appraise is not None:
                value += appraise(state, player, effect, affected(state, context, effect.reach))
        return value + spend

    @staticmethod
    def _front_units(state: GoldDustState, player: int) -> list[int]:
        return [1 for u in state.boards[player] if u is not None and u.row == FRONT]

    # ----- (C) shoot ----------------------------------------------------------------------

    def _shoot(self, state: GoldDustState, player: int, legal: list[int]) -> int:
        shots = _of_kind(legal, "shoot")
        if not shots:
            return DONE
        return max(shots, key=lambda a: (self._shot_score(state, player, a), -a))

    def _shot_score(self, state: GoldDustState, player: int, action: int) -> float:
        slot, target = decode(action)[1]
        shooter = state.boards[player][slot]
        return self._hit_score(state, player, shooter, target)

    def _hit_score(self, state: GoldDustState, player: int, unit: Unit, target: int) -> float:
        """How good a hit (base + die) on ``target`` is: 0 the Hero, else 1 + enemy slot."""
        enemy = 1 - player
        damage = state.attack_of(player, unit) + mean_roll(unit.card.dice)
        if target == 0:
            damage += state.hero_damage_bonus(player)
            if damage >= state.hp[enemy]:
                return 100.0
            return damage * (1.2 if _ahead(state, player) else 0.7)
        victim = state.boards[enemy][target - 1]
        dealt = max(0.0, damage - max(0, state.armour_of(enemy, victim) - unit.card.pierce))
        if dealt >= victim.hp:
            return card_strength(victim.card) + 2.0
        return dealt * 0.4 * (1.5 if victim.card.ranged else 1.0)

    # ----- (D) attack ---------------------------------------------------------------------

    def _attack(self, state: GoldDustState, player: int, legal: list[int]) -> int:
        attacks = _of_kind(legal, "attack")
        if not attacks:
            return DONE
        enemy = 1 - player
        threat = _expected_attack(state, enemy)
        attackers = [state.boards[player][decode(a)[1][0]] for a in attacks]
        ours = sum(state.attack_of(player, u) + mean_roll(u.card.dice) for u in attackers)
        lethal = ours >= state.hp[enemy] + 2 * _blockers(state, enemy)
        if lethal or state.hp[player] > threat + DANGER_MARGIN:
            return attacks[0]
        enemy_attackers = sum(
            1 for u in state.boards[enemy] if u is not None and u.row == FRONT and not u.card.ranged
        )
        return attacks[0] if _blockers(state, player) - 1 >= enemy_attackers else DONE

    # ----- (E) block, as the defender -----------------------------------------------------

    def _block(self, state: GoldDustState, player: int, legal: list[int]) -> int:
        blocks = _of_kind(legal, "block")
        attacker_side = 1 - player
        incoming = sum(
            state.attack_of(attacker_side, state.boards[attacker_side][slot])
            + mean_roll(state.boards[attacker_side][slot].card.dice)
            for slot in state.attackers
            if slot not in state.blocks
        )
        in_danger = state.hp[player] <= incoming + DANGER_MARGIN
        best, best_score = DONE, 0.0
        for action in blocks:
            attacker_slot, blocker_slot = decode(action)[1]
            attacker = state.boards[attacker_side][attacker_slot]
            blocker = state.boards[player][blocker_slot]
            hit = max(
                0, state.attack_of(attacker_side, attacker) - state.armour_of(player, blocker)
            )
            saved = state.attack_of(attacker_side, attacker) + mean_roll(attacker.card.dice)
            survives = hit < blocker.hp
            score = saved if survives else (saved - card_strength(blocker.card) * 0.5)
            if in_danger:
                score += saved
            if score > best_score:
                best, best_score = action, score
        return best

    # ----- (F) unblocked attackers' targets -------------------------------------------------

    def _strike(self, state: GoldDustState, player: int, legal: list[int]) -> int:
        striker = state.boards[player][state.strikes[0]]
        return max(
            legal, key=lambda a: (self._hit_score(state, player, striker, *decode(a)[1]), -a)
        )


def _of_kind(legal: list[int], kind: str) -> list[int]:
    """The actions of ``legal`` in the action block ``kind`` (``actions.LAYOUT``), in order."""
    return [action for action in legal if decode(action)[0] == kind]


def _ahead(state: GoldDustState, player: int) -> bool:
    """More Hero HP plus table strength than the enemy."""

    def strength(side: int) -> float:
        units = sum(card_strength(u.card) for u in state.boards[side] if u is not None)
        return state.hp[side] + 0.5 * units

    return strength(player) >= strength(1 - player)


def _expected_attack(state: GoldDustState, side: int) -> float:
    """What ``side``'s units could deal next turn if nothing were blocked."""
    return sum(
        state.attack_of(side, u) + mean_roll(u.card.dice)
        for u in state.boards[side]
        if u is not None and not u.dead and (u.row == FRONT or u.card.ranged)
    )


def _blockers(state: GoldDustState, side: int) -> int:
    return sum(
        1
        for u in state.boards[side]
        if u is not None and not u.dead and u.row == FRONT and not u.tapped and not u.card.ranged
    )


# ----- what each effect primitive is worth to the player who plays it -------------------------

Reached = list[tuple[int, int]]


@VOCAB.appraisal("damage")
def _damage(state: GoldDustState, player: int, effect: Effect, reached: Reached) -> float:
    return sum(_damage_value(state, player, side, slot, effect) for side, slot in reached)


@VOCAB.appraisal("heal")
def _heal(state: GoldDustState, player: int, effect: Effect, reached: Reached) -> float:
    return sum(_heal_value(state, side, slot, effect.params.amount) for side, slot in reached)


@VOCAB.appraisal("buff")
def _buff(state: GoldDustState, player: int, effect: Effect, reached: Reached) -> float:
    params = effect.params
    return sum(params.attack * 2 + params.armour * 1.5 + params.hp * 0.5 for _ in reached)


@VOCAB.appraisal("destroy")
def _destroy(state: GoldDustState, player: int, effect: Effect, reached: Reached) -> float:
    return sum(card_strength(state.boards[s][t].card) for s, t in reached)


@VOCAB.appraisal("draw")
def _draw(state: GoldDustState, player: int, effect: Effect, reached: Reached) -> float:
    return effect.params.cards * (1.5 if len(state.hand_cards[player]) <= 3 else 0.3)


@VOCAB.appraisal("gain")
def _gain(state: GoldDustState, player: int, effect: Effect, reached: Reached) -> float:
    return 0.3 * (effect.params.gold + effect.params.dust)


def _readied_attack(state: GoldDustState, player: int, effect: Effect, reached: Reached) -> float:
    return sum(
        state.attack_of(player, state.boards[s][t]) * 0.5
        for s, t in reached
        if not state.boards[s][t].card.ranged
    )


VOCAB.appraisal("move_up")(_readied_attack)
VOCAB.appraisal("ready")(_readied_attack)


@VOCAB.appraisal("push_back")
def _push_back(state: GoldDustState, player: int, effect: Effect, reached: Reached) -> float:
    return sum(state.attack_of(s, state.boards[s][t]) * 0.5 for s, t in reached)


@VOCAB.appraisal("special")
def _special(state: GoldDustState, player: int, effect: Effect, reached: Reached) -> float:
    return 1.0 if state.hp[player] > 10 else -2.0


def _damage_value(state: GoldDustState, player: int, side: int, slot: int, effect: Effect) -> float:
    params = effect.params
    amount = params.amount + mean_roll(params.dice)
    sign = 1.0 if side != player else -1.0
    if slot == -1:
        lethal = amount >= state.hp[side]
        return sign * (100.0 if lethal else amount * (0.8 if _ahead(state, player) else 0.5))
    unit = state.boards[side][slot]
    armour = 0 if params.pierce else state.armour_of(side, unit)
    dealt = max(0.0, amount - armour)
    if dealt >= unit.hp:
        return sign * (card_strength(unit.card) + 2.0)
    return sign * dealt * 0.4


def _heal_value(state: GoldDustState, side: int, slot: int, amount: int) -> float:
    if slot == -1:
        missing = state.heroes[side].hp - state.hp[side]
        urgency = 1.5 if state.hp[side] < 12 else 0.6
        return min(amount, missing) * urgency
    unit = state.boards[side][slot]
    return min(amount, unit.max_hp - unit.hp) * 0.4
