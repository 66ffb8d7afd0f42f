"""A rule-based Regicide player: kill when it can, otherwise the play that keeps it alive and
hurts or weakens the enemy most, and pay damage with the cheapest set of cards.

It reads only what its player sees (own hand, public zones, hand sizes), which the tests
check by resampling hidden information and asking again.
"""

from __future__ import annotations

from tabletop.envs.regicide.cards import (
    CLUBS,
    DIAMONDS,
    DISCARD_BASE,
    DONE,
    FLIP,
    HEARTS,
    JESTER,
    NEXT_BASE,
    PLAY_BASE,
    PLAYS,
    SPADES,
    SUIT,
    VALUE,
    YIELD,
)
from tabletop.envs.regicide.engine import CHOOSE_NEXT, DISCARD, RegicideState

AVERAGE_DRAW_VALUE = 5.0
"""Rough value of an unseen tavern card, for weighing diamond draws."""


class RegicideHeuristic:
    """Baseline agent (``act(state, player) -> action``); deterministic."""

    def reset(self) -> None:
        """Stateless between games."""

    def act(self, state: RegicideState, player: int) -> int:
        legal = state.legal_actions()
        if state.phase == DISCARD:
            return self._pay(state, player, legal)
        if state.phase == CHOOSE_NEXT:
            return self._choose_next(state, legal)
        return self._turn(state, player, legal)

    # ----- step 1 -----------------------------------------------------------------------------

    def _turn(self, state: RegicideState, player: int, legal: list[int]) -> int:
        plays = [a for a in legal if PLAY_BASE <= a < DISCARD_BASE]
        jester = PLAY_BASE + JESTER
        kills = [a for a in plays if a != jester and self._damage(state, a) >= _health_left(state)]
        if kills:
            return min(kills, key=lambda a: self._kill_cost(state, a))
        scored = [(self._play_score(state, player, a), a) for a in plays if a != jester]
        survivable = [(score, a) for score, a in scored if score is not None]
        if survivable:
            return max(survivable)[1]
        hand_value = sum(VALUE[c] for c in state.hands[player])
        if YIELD in legal and hand_value >= state.enemy_attack:
            return YIELD
        if jester in legal:
            return jester  # RG-6.1: the enemy does not attack this turn
        if FLIP in legal:
            return FLIP
        return max(plays, key=lambda a: self._damage(state, a)) if plays else legal[0]

    def _damage(self, state: RegicideState, action: int) -> int:
        cards = PLAYS[action - PLAY_BASE]
        attack = sum(VALUE[c] for c in cards)
        doubled = any(SUIT[c] == CLUBS for c in cards) and state.immune_suit != CLUBS
        return 2 * attack if doubled else attack

    def _kill_cost(self, state: RegicideState, action: int) -> tuple[int, int]:
        """Exact kills first (the enemy joins the tavern), then the least card value spent."""
        exact = self._damage(state, action) == _health_left(state)
        return (0 if exact else 1, sum(VALUE[c] for c in PLAYS[action - PLAY_BASE]))

    def _play_score(self, state: RegicideState, player: int, action: int) -> float | None:
        """How good a non-killing play is, or None if the enemy's reply would kill us."""
        cards = PLAYS[action - PLAY_BASE]
        attack = sum(VALUE[c] for c in cards)
        suits = {SUIT[c] for c in cards} - {state.immune_suit}
        shield = attack if SPADES in suits else 0
        hand_after = sum(VALUE[c] for c in state.hands[player]) - attack
        own_draws = 0
        if DIAMONDS in suits:
            room = state.game.max_hand - (len(state.hands[player]) - len(cards))
            share = -(-attack // state.game.num_players)
            own_draws = min(room, share, len(state.tavern))
        hand_after += own_draws * AVERAGE_DRAW_VALUE
        incoming = max(0, state.enemy_attack - shield)
        if hand_after < incoming:
            return None
        heal = min(attack, len(state.discard)) if HEARTS in suits else 0
        damage = self._damage(state, action)
        draws = min(attack, len(state.tavern)) if DIAMONDS in suits else 0
        return damage + 1.5 * shield + 0.8 * draws + 0.3 * heal - 0.6 * attack

    # ----- step 4 -----------------------------------------------------------------------------

    def _pay(self, state: RegicideState, player: int, legal: list[int]) -> int:
        if state.to_cover <= 0:
            return DONE
        hand = state.hands[player]
        best = _cheapest_cover(hand, state.to_cover)
        if FLIP in legal and sum(VALUE[c] for c in best) > 0.7 * sum(VALUE[c] for c in hand):
            return FLIP  # solo: a fresh hand beats losing most of this one
        card = max(best, key=lambda c: VALUE[c])
        return DISCARD_BASE + min(card, JESTER)

    # ----- after a jester -------------------------------------------------------------------

    @staticmethod
    def _choose_next(state: RegicideState, legal: list[int]) -> int:
        """The player with the most cards (hand sizes are public)."""
        return max(legal, key=lambda a: (len(state.hands[a - NEXT_BASE]), -a))


def _health_left(state: RegicideState) -> int:
    return state.enemy_health - state.enemy_damage


def _cheapest_cover(hand: list[int], amount: int) -> tuple[int, ...]:
    """The set of cards worth at least ``amount`` with the least total value, then fewest
    cards. Every subset of the (at most 8-card) hand is tried, each subset's total built
    from a smaller one's, since search rollouts call this at every payment."""
    values = [VALUE[c] for c in hand]
    full = (1 << len(hand)) - 1
    totals, sizes = [0] * (full + 1), [0] * (full + 1)
    best, best_key = full, (sum(values), len(hand))
    for subset in range(1, full + 1):
        lowest = subset & -subset
        rest = subset ^ lowest
        total = totals[rest] + values[lowest.bit_length() - 1]
        size = sizes[rest] + 1
        totals[subset], sizes[subset] = total, size
        if total >= amount and (total, size) < best_key:
            best, best_key = subset, (total, size)
    return tuple(card for i, card in enumerate(hand) if best >> i & 1)
