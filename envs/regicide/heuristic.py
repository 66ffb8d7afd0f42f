"""A rule-based Regicide player: kill when it can (the kill that costs least once its draws,
heals and an exact kill's card are counted), otherwise the play that keeps it alive for the
best value after the enemy's attack is paid, and pay damage with the cheapest set of cards.

It reads only what its player may know (own hand, public zones, hand sizes, and the cards it
has not seen as a whole: the tavern and the other hands together, whose contents are public
and only their order and split hidden), which the tests check by resampling hidden
information and asking again.
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

DAMAGE_WEIGHT = 1.0
SHIELD_WEIGHT = 0.7
"""A shield's worth beyond the attack it saves this turn: it lasts until the enemy falls."""
DRAW_WEIGHT = 0.4
"""A drawn card's worth per point of its expected value: cards drawn are not yet the right ones."""
HEAL_WEIGHT = 0.8
"""A card healed back under the tavern: it comes back only once the tavern runs down to it."""
EXACT_KILL_WEIGHT = 0.5
"""Per point of the enemy's card, which an exact kill puts on top of the tavern (RG-2.5)."""
FLIP_SHARE = 0.85
"""Solo: flip the jester rather than pay with more than this share of the hand's value."""

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
            return max(kills, key=lambda a: (facts.kill_score(a), -a))
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
        if FLIP in legal and sum(VALUE[c] for c in best) > FLIP_SHARE * sum(VALUE[c] for c in hand):
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
        "draw_value",
        "enemy_attack",
        "enemy_value",
        "hand_size",
        "hand_value",
        "health_left",
        "immune",
        "max_hand",
        "players",
        "room",
        "tavern_size",
    )

    def __init__(self, state: RegicideState, player: int) -> None:
        hand = state.hands[player]
        self.immune = state.immune_suit
        self.enemy_attack = state.enemy_attack
        self.enemy_value = VALUE[state.enemy]
        self.health_left = state.enemy_health - state.enemy_damage
        self.hand_value = sum(VALUE[c] for c in hand)
        self.hand_size = len(hand)
        self.max_hand = state.game.max_hand
        self.players = state.game.num_players
        self.tavern_size = len(state.tavern)
        self.discard_size = len(state.discard)
        others = [hand for seat, hand in enumerate(state.hands) if seat != player]
        self.room = sum(self.max_hand - len(other) for other in others)
        self.draw_value = _mean_unseen_value(state.tavern, others)

    def damage(self, action: int) -> int:
        play = action - PLAY_BASE
        doubled = PLAY_HAS_CLUBS[play] and self.immune != CLUBS
        return 2 * PLAY_ATTACK[play] if doubled else PLAY_ATTACK[play]

    def kill_score(self, action: int) -> float:
        """A kill's worth: the cards spent, less what its heal and draws bring back, plus the
        enemy's card on top of the tavern for an exact kill."""
        play = action - PLAY_BASE
        heal, _, draws = self._powers(play)
        exact = self.damage(action) == self.health_left
        bonus = EXACT_KILL_WEIGHT * self.enemy_value if exact else 0.0
        return self._refills(heal, draws) + bonus - PLAY_ATTACK[play]

    def play_score(self, action: int) -> float | None:
        """How good a non-killing play is once the enemy's attack is paid, or None if the
        hand left (and the own draws' expected value) cannot pay it."""
        play = action - PLAY_BASE
        attack = PLAY_ATTACK[play]
        shield = attack if SPADES in PLAY_SUITS[play] and self.immune != SPADES else 0
        heal, own_draws, draws = self._powers(play)
        incoming = max(0, self.enemy_attack - shield)
        if self.hand_value - attack + own_draws * self.draw_value < incoming:
            return None
        return (
            DAMAGE_WEIGHT * self.damage(action)
            + SHIELD_WEIGHT * shield
            + self._refills(heal, draws)
            - attack
            - incoming
        )

    def _powers(self, play: int) -> tuple[int, int, int]:
        """Cards a play heals (RG-4.1) and draws for its player and for everyone (RG-4.2;
        hearts first, so healed cards can be drawn)."""
        attack = PLAY_ATTACK[play]
        suits = PLAY_SUITS[play]
        heal = min(attack, self.discard_size) if HEARTS in suits and self.immune != HEARTS else 0
        if DIAMONDS not in suits or self.immune == DIAMONDS:
            return heal, 0, 0
        own_room = self.max_hand - self.hand_size + len(PLAYS[play])
        draws = min(attack, self.tavern_size + heal, own_room + self.room)
        own_draws = min(own_room, -(-attack // self.players), draws)
        return heal, own_draws, draws

    def _refills(self, heal: int, draws: int) -> float:
        return DRAW_WEIGHT * draws * self.draw_value + HEAL_WEIGHT * heal


def _mean_unseen_value(tavern: list[int], other_hands: list[list[int]]) -> float:
    """The mean value of a card the player has not seen: the tavern and the other hands hold
    every card not in sight, a public set, in an order and split nobody sees."""
    values = [VALUE[c] for c in tavern] + [VALUE[c] for hand in other_hands for c in hand]
    return sum(values) / len(values) if values else 0.0


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
