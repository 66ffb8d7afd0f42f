"""Regicide observation encoders: one player's view (RG-8.2) as float32 arrays.

Both read only what the observing player may see: their own hand, the public zones, the
other players' hand sizes, the cards on top of the tavern that everyone saw put there
(exact kills, RG-2.5), the cards each heal moved under the tavern (RG-4.1: the discard
pile is public) and how deep that batch lies, and which player holds a card everyone knows
they hold (draws are public), until it is played or discarded. The flat encoder is one
vector; the entity encoder is a row per card plus rows of table-wide figures, for
attention or set-based networks.

Versions (``name`` v``version``; a trained network needs the version it was trained on):

- flat v0, entity v0: the first layouts, ``float32[271]`` and ``float32[56, 27]``.
- flat v1, entity v1: the known cards in the other players' hands (flat block
  ``known_in_other_hands``; entity zones "known in the hand of relative seat 1-3"),
  ``float32[307]`` and ``float32[56, 30]``; after a win no card is the current enemy.
- flat v2, entity v2: the heal batches under the tavern and their depth (flat blocks
  ``healed_in_tavern`` and ``healed_drawn``, feature ``tavern_unknown``; entity zones
  "healed: tavern bottom or drawn by others" and "healed: drawn by others", and a depth
  column); ``known_in_other_hands`` covers every card kind, since the last card of a heal
  batch can become known to be held. ``float32[537]`` and ``float32[56, 33]``.
"""

from __future__ import annotations

import numpy as np

from tabletop.envs.core.layout import stack_layout
from tabletop.envs.regicide.cards import (
    JACK,
    KIND,
    MAX_PLAYERS,
    NUM_CARDS,
    NUM_KINDS,
    RANK,
    SUIT,
    VALUE,
)
from tabletop.envs.regicide.engine import (
    CHOOSE_NEXT,
    DISCARD,
    OVER,
    PLAY,
    RegicideGame,
    RegicideState,
)

CARD_BLOCKS = (
    ("hand", "own hand: count of each card kind (52 cards, then jesters 0-2)"),
    ("in_play", "cards played against the current enemy"),
    ("discard", "discard pile contents"),
    ("tavern_known_top", "cards known to lie on top of the tavern deck (exact kills)"),
)
HEALED_BLOCKS = (
    (
        "healed_in_tavern",
        "cards of a heal batch with cards left in the tavern, not in the own hand (in the "
        "tavern or drawn by others): 1 - (tavern cards above the batch) / 54",
    ),
    ("healed_drawn", "cards of a heal batch drawn out of the tavern, now in other hands"),
)
ENEMY_SLOTS = 12  # J, Q, K in each suit: index (rank - 11) * 4 + suit
OTHER_SEATS = MAX_PLAYERS - 1  # relative seats 1-3 of the other players

TABLE_FEATURES = (
    ("enemy_damage", 1, "damage on the enemy / 40"),
    ("enemy_health_left", 1, "health left / 40"),
    ("enemy_attack", 1, "attack after shields / 20"),
    ("shields", 1, "active shields / 20"),
    ("immune_suit", 4, "one-hot ♠♥♦♣ suit the enemy is immune to (zeros once cancelled)"),
    ("immunity_cancelled", 1, "1 after a jester was played against this enemy"),
    ("tavern_size", 1, "cards in the tavern deck / 54"),
    ("tavern_unknown", 1, "tavern cards below the known top and above the heal batches / 54"),
    ("castle_size", 1, "face-down castle cards left / 12"),
    ("hand_sizes", MAX_PLAYERS, "hand size / max hand, by seat relative to the observer"),
    ("yielded", MAX_PLAYERS, "yielded on their last turn, by relative seat"),
    ("can_yield", 1, "the player to move may yield (RG-2.1)"),
    ("phase", 3, "one-hot: play, discard (paying damage), choose next player"),
    ("to_move", MAX_PLAYERS, "one-hot relative seat of the player to move"),
    ("to_cover", 1, "damage still to cover by discarding / 20"),
    ("covered", 1, "1 once the damage is covered (discarding more is optional)"),
    ("jester_powers", 1, "solo jester powers left / 2"),
    ("num_players", MAX_PLAYERS, "one-hot player count"),
    ("enemies_defeated", 1, "/ 12"),
)
TABLE_SIZE = sum(size for _, size, _ in TABLE_FEATURES)


def flat_layout() -> list[tuple[str, slice, str]]:
    """(feature, slice, meaning) for every part of the flat vector: the table of
    docs/games/regicide.md."""
    parts = [(name, NUM_KINDS, meaning) for name, meaning in CARD_BLOCKS + HEALED_BLOCKS]
    parts.append(("enemy", ENEMY_SLOTS, "one-hot current enemy: (rank J/Q/K) * 4 + suit"))
    parts.append(("castle_left", ENEMY_SLOTS, "enemies still face down in the castle"))
    parts.append(
        (
            "known_in_other_hands",
            OTHER_SEATS * NUM_KINDS,
            "cards everyone knows another player holds (drawn from the known tavern top, or "
            "the last unseen card of a heal batch), (relative seat - 1) * 53 + card kind",
        )
    )
    parts += [(name, size, meaning) for name, size, meaning in TABLE_FEATURES]
    return stack_layout(parts)


FLAT_SIZE = flat_layout()[-1][1].stop


ENEMY_SLOT: dict[int, int] = {
    card: (RANK[card] - JACK) * 4 + SUIT[card] for card in range(NUM_CARDS) if RANK[card] >= JACK
}
ONE_HOT = tuple(tuple(float(i == j) for j in range(MAX_PLAYERS)) for i in range(MAX_PLAYERS))
NO_SUIT = (0.0,) * 4
PHASE_ONE_HOT = {
    PLAY: (1.0, 0.0, 0.0),
    DISCARD: (0.0, 1.0, 0.0),
    CHOOSE_NEXT: (0.0, 0.0, 1.0),
    OVER: (0.0, 0.0, 0.0),
}


SEATS_FROM = {
    (n, player): tuple((player + k) % n for k in range(n))
    for n in range(1, MAX_PLAYERS + 1)
    for player in range(n)
}
"""(player count, observer) -> the seats in order from the observer's: the relative seats."""
NO_PLAYER = (0.0,) * MAX_PLAYERS


def table_features(state: RegicideState, player: int) -> list[float]:
    """The TABLE_FEATURES of ``player``'s view, in order (on every step: kept lean)."""
    game = state.game
    n = game.num_players
    seats = SEATS_FROM[n, player]
    pad = NO_PLAYER[n:]
    hands, yielded, phase, max_hand = state.hands, state.yielded, state.phase, game.max_hand
    return [
        state.enemy_damage / 40,
        (state.enemy_health - state.enemy_damage) / 40,
        state.enemy_attack / 20,
        state.shields / 20,
        *(NO_SUIT if state.immune_suit < 0 else ONE_HOT[state.immune_suit]),
        float(state.immunity_cancelled),
        len(state.tavern) / 54,
        (len(state.tavern) - state.tavern_known_top - state.tavern_healed) / 54,
        len(state.castle) / 12,
        *[len(hands[p]) / max_hand for p in seats],
        *pad,
        *[float(yielded[p]) for p in seats],
        *pad,
        float(state.can_yield()),
        *PHASE_ONE_HOT[phase],
        *(NO_PLAYER if phase == OVER else ONE_HOT[(state.player - player) % n]),
        max(state.to_cover, 0) / 20,
        float(phase == DISCARD and state.to_cover <= 0),
        state.jester_powers / 2,
        *ONE_HOT[n - 1],
        state.enemies_defeated / 12,
    ]


def _known_top(state: RegicideState) -> list[int]:
    return state.tavern[len(state.tavern) - state.tavern_known_top :]


def healed_depths(state: RegicideState, player: int) -> list[tuple[int, float]]:
    """(card, depth) for each unseen card of a heal batch that ``player`` does not hold:
    depth 1 - (tavern cards above the batch) / 54 while the batch has cards in the tavern,
    0 once it was drawn out (its cards are then in other players' hands)."""
    hand, tavern_size = state.hands[player], len(state.tavern)
    out, top = [], 0
    for size, cards in zip(state.heal_sizes, state.heal_cards, strict=True):
        top += size
        depth = 1 - (tavern_size - top) / 54 if size else 0.0
        out += [(card, depth) for card in cards if card not in hand]
    return out


HEALED_OFFSET = len(CARD_BLOCKS) * NUM_KINDS
DRAWN_OFFSET = HEALED_OFFSET + NUM_KINDS
CASTLE_OFFSET = DRAWN_OFFSET + NUM_KINDS
KNOWN_OFFSET = CASTLE_OFFSET + 2 * ENEMY_SLOTS
TABLE_OFFSET = KNOWN_OFFSET + OTHER_SEATS * NUM_KINDS
BLOCK_INDEX = tuple(
    tuple(block * NUM_KINDS + KIND[card] for card in range(NUM_CARDS))
    for block in range(len(CARD_BLOCKS))
)
"""BLOCK_INDEX[block][card]: the card's position in that card block of the flat vector."""


class FlatEncoder:
    """One float32 vector of ``FLAT_SIZE``; slices documented by ``flat_layout()``."""

    name = "flat"
    version = 2

    def shape(self, game: RegicideGame) -> tuple[int, ...]:
        return (FLAT_SIZE,)

    def encode(self, state: RegicideState, player: int) -> np.ndarray:
        hand, in_play, discard, known_top = BLOCK_INDEX
        hot = [hand[c] for c in state.hands[player]]
        hot += [in_play[c] for c in state.in_play]
        hot += [discard[c] for c in state.discard]
        hot += [known_top[c] for c in _known_top(state)]
        hot += [CASTLE_OFFSET + ENEMY_SLOT[c] for c in state.enemy_cards()]
        hot += [CASTLE_OFFSET + ENEMY_SLOTS + ENEMY_SLOT[c] for c in state.castle]
        if any(state.known_held):
            for seat, other in enumerate(SEATS_FROM[state.game.num_players, player][1:]):
                start = KNOWN_OFFSET + seat * NUM_KINDS
                hot += [start + KIND[c] for c in state.known_held[other]]
        out = np.bincount(hot, minlength=FLAT_SIZE).astype(np.float32)  # counts: two jesters
        if state.heal_cards:
            for card, depth in healed_depths(state, player):
                out[DRAWN_OFFSET + KIND[card] if depth == 0 else HEALED_OFFSET + KIND[card]] = (
                    depth or 1.0
                )
        out[TABLE_OFFSET:] = table_features(state, player)
        return out


# Entity encoder: one row per card, then table rows.
ZONES = (
    "own hand",
    "in play",
    "discard",
    "tavern top (known)",
    "current enemy",
    "castle (face down)",
    "unseen (tavern or other hands)",
    "out of the game / solo jester",
    "known in the hand of relative seat 1",
    "known in the hand of relative seat 2",
    "known in the hand of relative seat 3",
    "healed: tavern bottom or drawn by others",
    "healed: drawn by others",
)
UNSEEN_ZONE = ZONES.index("unseen (tavern or other hands)")
SET_ASIDE_ZONE = ZONES.index("out of the game / solo jester")
KNOWN_HELD_ZONE = ZONES.index("known in the hand of relative seat 1")
HEALED_ZONE = ZONES.index("healed: tavern bottom or drawn by others")
DRAWN_ZONE = ZONES.index("healed: drawn by others")
CARD_STATIC = 13 + 4 + 2  # rank one-hot, suit one-hot, value / 20, is jester
DEPTH_COLUMN = CARD_STATIC  # a healed card's batch depth, as in the flat healed_in_tavern
ZONE_OFFSET = CARD_STATIC + 1
ENTITY_WIDTH = ZONE_OFFSET + len(ZONES)
TABLE_ROWS = -(-TABLE_SIZE // ENTITY_WIDTH)


def _static_card_features() -> np.ndarray:
    rows = np.zeros((NUM_CARDS, CARD_STATIC), dtype=np.float32)
    for card in range(NUM_CARDS):
        if SUIT[card] >= 0:
            rows[card, RANK[card] - 1] = 1.0
            rows[card, 13 + SUIT[card]] = 1.0
        rows[card, 17] = VALUE[card] / 20
        rows[card, 18] = float(SUIT[card] < 0)
    return rows


STATIC_CARD_FEATURES = _static_card_features()


class EntityEncoder:
    """Rows 0-53: a card each (static features, its heal batch depth, then its zone one-hot as
    ``player`` sees it);
    the last ``TABLE_ROWS`` rows hold ``TABLE_FEATURES`` flattened, zero-padded.
    The two jester rows are ordered by zone, since jesters are indistinguishable."""

    name = "entity"
    version = 2

    def shape(self, game: RegicideGame) -> tuple[int, ...]:
        return (NUM_CARDS + TABLE_ROWS, ENTITY_WIDTH)

    def encode(self, state: RegicideState, player: int) -> np.ndarray:
        out = np.zeros((NUM_CARDS + TABLE_ROWS, ENTITY_WIDTH), dtype=np.float32)
        out[:NUM_CARDS, :CARD_STATIC] = STATIC_CARD_FEATURES
        zone, depth = self._zones(state, player)
        jesters = sorted(zip(zone[NUM_CARDS - 2 :], depth[NUM_CARDS - 2 :], strict=True))
        zone[NUM_CARDS - 2 :] = [z for z, _ in jesters]
        depth[NUM_CARDS - 2 :] = [d for _, d in jesters]
        out[np.arange(NUM_CARDS), ZONE_OFFSET + np.asarray(zone)] = 1.0
        out[:NUM_CARDS, DEPTH_COLUMN] = depth
        table = np.zeros(TABLE_ROWS * ENTITY_WIDTH, dtype=np.float32)
        table[:TABLE_SIZE] = table_features(state, player)
        out[NUM_CARDS:] = table.reshape(TABLE_ROWS, ENTITY_WIDTH)
        return out

    @staticmethod
    def _zones(state: RegicideState, player: int) -> tuple[list[int], list[float]]:
        """Each card's zone index and heal batch depth (0 outside a batch in the tavern)."""
        zone = [UNSEEN_ZONE] * NUM_CARDS
        depth = [0.0] * NUM_CARDS
        for index, cards in enumerate(
            (
                state.hands[player],
                state.in_play,
                state.discard,
                _known_top(state),
                state.enemy_cards(),
                state.castle,
            )
        ):
            for card in cards:
                zone[card] = index
        for card in state.set_aside:
            zone[card] = SET_ASIDE_ZONE
        for seat, other in enumerate(SEATS_FROM[state.game.num_players, player][1:]):
            for card in state.known_held[other]:
                zone[card] = KNOWN_HELD_ZONE + seat
        if state.heal_cards:
            for card, card_depth in healed_depths(state, player):
                zone[card] = HEALED_ZONE if card_depth else DRAWN_ZONE
                depth[card] = card_depth
        return zone, depth


ENCODERS = {"flat": FlatEncoder(), "entity": EntityEncoder()}
