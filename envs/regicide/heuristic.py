"""A rule-based Regicide player: kill when it can, otherwise the play that keeps it alive and
hurts or weakens the enemy most, and pay damage with the cheapest set of cards.

It reads only what its player sees (own hand, public zones, hand sizes), which the tests
check by resampling hidden information and asking again.
"""

from __future__ import annotations

import numpy as np

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
from tabletop.envs.regicide.engine import CHOOSE_NEXT, DISCARD, MAX_HAND, RegicideState

AVERAGE_DRAW_VALUE = 5.0
"""Rough value of an unseen tavern card, for weighing diamond draws."""

# Per play (index into PLAYS): its attack value, suits and whether a club is among them,
# worked out once; the heuristic weighs every legal play at every turn of every rollout.
PLAY_ATTACK = tuple(sum(VALUE[c] for c in cards) for cards in PLAYS)
PLAY_SUITS = tuple(frozenset(SUIT[c] for c in cards) for cards in PLAYS)
PLAY_HAS_CLUBS = tuple(CLUBS in suits for suits in PLAY_SUITS)
LARGEST_HAND = max(MAX_HAND.values())
"""The largest hand of any player count (RG-1.3: solo)."""


def _subset_tables(size: int) -> tuple[np.ndarray, np.ndarray]:
    """For a hand of ``size`` cards: which cards each subset (numbered by its bits) holds,
    and a tie-break key per subset that orders fewer cards first, then the lower number."""
    subsets = np.arange(1 << size)
    members = (subsets[:, None] >> np.arange(size)) & 1
    return members, members.sum(axis=1) * (1 << LARGEST_HAND) + subsets


SUBSET_TABLES = tuple(_subset_tables(size) for size in range(LARGEST_HAND + 1))
TOTAL_WEIGHT = 1 << (2 * LARGEST_HAND)
"""Scales a subset's total above any tie-break key, so one integer orders all three."""
NOT_A_COVER = np.iinfo(np.int64).max


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
        jester = PLAY_BASE + JESTER
        plays = [a for a in legal if PLAY_BASE <= a < DISCARD_BASE]
        facts = TurnFacts(state, player)
        kills = [a for a in plays if a != jester and facts.damage(a) >= facts.health_left]
        if kills:
            return min(kills, key=facts.kill_cost)
        scored = [(facts.play_score(a), a) for a in plays if a != jester]
        survivable = [(score, a) for score, a in scored if score is not None]
        if survivable:
            return max(survivable)[1]
        if YIELD in legal and facts.hand_value >= facts.enemy_attack:
            return YIELD
        if jester in legal:
            return jester  # RG-6.1: the enemy does not attack this turn
        if FLIP in legal:
            return FLIP
        return max(plays, key=facts.damage) if plays else legal[0]

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


class TurnFacts:
    """What weighing the plays of one turn reads from the state, read once: search
    rollouts weigh every legal play at every turn."""

    __slots__ = (
        "discard_size",
        "enemy_attack",
        "hand_size",
        "hand_value",
        "health_left",
        "immune",
        "max_hand",
        "players",
        "tavern_size",
    )

    def __init__(self, state: RegicideState, player: int) -> None:
        hand = state.hands[player]
        self.immune = state.immune_suit
        self.enemy_attack = state.enemy_attack
        self.health_left = state.enemy_health - state.enemy_damage
        self.hand_value = sum(VALUE[c] for c in hand)
        self.hand_size = len(hand)
        self.max_hand = state.game.max_hand
        self.players = state.game.num_players
        self.tavern_size = len(state.tavern)
        self.discard_size = len(state.discard)

    def damage(self, action: int) -> int:
        play = action - PLAY_BASE
        doubled = PLAY_HAS_CLUBS[play] and self.immune != CLUBS
        return 2 * PLAY_ATTACK[play] if doubled else PLAY_ATTACK[play]

    def kill_cost(self, action: int) -> tuple[int, int]:
        """Exact kills first (the enemy joins the tavern), then the least card value spent."""
        exact = self.damage(action) == self.health_left
        return (0 if exact else 1, PLAY_ATTACK[action - PLAY_BASE])

    def play_score(self, action: int) -> float | None:
        """How good a non-killing play is, or None if the enemy's reply would kill us."""
        play = action - PLAY_BASE
        attack = PLAY_ATTACK[play]
        suits = PLAY_SUITS[play] - {self.immune}
        shield = attack if SPADES in suits else 0
        hand_after = self.hand_value - attack
        own_draws = 0
        if DIAMONDS in suits:
            room = self.max_hand - (self.hand_size - len(PLAYS[play]))
            share = -(-attack // self.players)
            own_draws = min(room, share, self.tavern_size)
        hand_after += own_draws * AVERAGE_DRAW_VALUE
        incoming = max(0, self.enemy_attack - shield)
        if hand_after < incoming:
            return None
        heal = min(attack, self.discard_size) if HEARTS in suits else 0
        draws = min(attack, self.tavern_size) if DIAMONDS in suits else 0
        return self.damage(action) + 1.5 * shield + 0.8 * draws + 0.3 * heal - 0.6 * attack


def _cheapest_cover(hand: list[int], amount: int) -> tuple[int, ...]:
    """The set of cards worth at least ``amount`` with the least total value, then fewest
    cards, then the lowest subset number (bit i: card i); the whole hand if none covers it.
    Every subset is scored at once with numpy: search rollouts pay damage at every turn."""
    members, tie_break = SUBSET_TABLES[len(hand)]
    totals = members @ np.array([VALUE[c] for c in hand])
    keys = np.where(totals >= amount, totals * TOTAL_WEIGHT + tie_break, NOT_A_COVER)
    best = int(keys.argmin())
    if keys[best] == NOT_A_COVER:
        best = (1 << len(hand)) - 1
    return tuple(card for i, card in enumerate(hand) if best >> i & 1)
