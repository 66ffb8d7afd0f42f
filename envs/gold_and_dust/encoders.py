"""Gold & Dust observation encoders: one player's view (GD-9.3) as float32 arrays.

Both read only what the observing player may see: the own hand, the table (units, lasting
artifacts, both graveyards), both players' resources and Hero HP, the opponent's hand size
and both deck sizes, and the own deck's contents (the player knows their deck list, not its
order). Every card row carries the card's features from the data (costs, attack, die,
armour, HP, role, keywords, effects), so a new card needs no new encoder.

The entity encoder is a matrix: one row per card position (hand slots, both boards' unit
slots, both artifact zones), rows of table-wide figures, then rows of per-card counts of the
own deck and of both graveyards. The flat encoder is the same card rows flattened, after the
table-wide figures, followed by the same per-card counts.
"""

from __future__ import annotations

import numpy as np

from tabletop.envs.core.cards.encoding import zone_counts
from tabletop.envs.core.layout import stack_layout
from tabletop.envs.gold_and_dust.actions import ARTIFACT_SLOTS, BOARD_SLOTS, MAX_HAND
from tabletop.envs.gold_and_dust.cards import (
    ARTIFACT,
    ROLES,
    SPELL,
    UNIT,
    Card,
    Hero,
    Pool,
    load_pool,
)
from tabletop.envs.gold_and_dust.effects import ENEMY, FRONT
from tabletop.envs.gold_and_dust.engine import (
    ATTACK,
    BLOCK,
    MAIN,
    SHOOT,
    STRIKE,
    GoldDustGame,
    GoldDustState,
)

ZONES = ("own hand", "own unit", "enemy unit", "own artifact", "enemy artifact")
STATIC_FEATURES = (
    "unit", "spell", "artifact", *(f"role {r}" for r in ROLES), "gold cost / 10",
    "dust cost / 10", "attack / 10", "die mean / 10", "armour / 5", "hp / 15", "ranged",
    "pierce / 3", "charge", "vanguard", "sniper", "death strike", "tireless", "immobile",
    "lasting (artifact)", "needs a target", "targets the enemy", "damage / 10", "heal / 10",
    "buff attack / 3", "buff armour / 3", "draws / 3", "gains gold / 5", "gains dust / 5",
    "destroys", "moves units", "aura attack", "aura armour", "has on_death",
    "has on_turn_start",
)  # fmt: skip
UNIT_FEATURES = (
    "hp / 15", "max hp / 15", "attack now / 10", "armour now / 5", "first row",
    "second row", "tapped", "resting", "moved up", "dead", "may attack", "attacking",
    "blocked or blocking", "strikes next",
)  # fmt: skip
Z, C, U = len(ZONES), len(STATIC_FEATURES), len(UNIT_FEATURES)
WIDTH = Z + C + U
ROW_BLOCKS = (
    ("hand", MAX_HAND, 0, "own hand slots"),
    ("own_units", BOARD_SLOTS, 1, "own board slots"),
    ("enemy_units", BOARD_SLOTS, 2, "enemy board slots"),
    ("own_artifacts", ARTIFACT_SLOTS, 3, "own lasting artifacts"),
    ("enemy_artifacts", ARTIFACT_SLOTS, 4, "enemy lasting artifacts"),
)
CARD_ROWS = sum(rows for _, rows, _, _ in ROW_BLOCKS)
HAND_ROW, OWN_ROW, ENEMY_ROW, OWN_ART_ROW, ENEMY_ART_ROW = (
    sum(rows for _, rows, _, _ in ROW_BLOCKS[:i]) for i in range(len(ROW_BLOCKS))
)
PHASES = (MAIN, SHOOT, ATTACK, BLOCK, STRIKE)
TABLE_FEATURES = (
    ("hero_hp", 2, "Hero HP / 30: own, enemy"),
    ("gold", 2, "gold / 20: own, enemy"),
    ("dust", 2, "dust / 20: own, enemy"),
    ("regen", 4, "gold and dust regeneration / 5: own, enemy"),
    ("passives", 10, "aura attack, spell discount, artifact discount, first-turn draws, "
     "Hero damage bonus: own, enemy"),
    ("hand_sizes", 2, "hand size / 5: own, enemy"),
    ("deck_sizes", 2, "deck size / 40: own, enemy"),
    ("graveyard_sizes", 2, "graveyard size / 40: own, enemy"),
    ("fatigue", 2, "next empty-deck damage / 10: own, enemy"),
    ("turn", 1, "turns played / turn limit"),
    ("step", 5, "one-hot: main, shoot, attack, block, strike"),
    ("my_turn", 1, "1 if it is the observer's turn (the defender blocks in the other's)"),
    ("first_turn", 1, "1 during the observer's first turn (no regeneration yet)"),
)  # fmt: skip
TABLE_SIZE = sum(size for _, size, _ in TABLE_FEATURES)
TABLE_ROWS = -(-TABLE_SIZE // WIDTH)
COUNT_BLOCKS = ("own deck", "own graveyard", "enemy graveyard")
"""The zones counted per pool card (``_counted_zones``), in order."""


def count_rows(game: GoldDustGame) -> int:
    """Rows of the entity matrix holding the ``COUNT_BLOCKS``, one number per pool card each."""
    return -(-len(COUNT_BLOCKS) * len(game.pool.cards) // WIDTH)


def flat_layout(pool: Pool | None = None) -> list[tuple[str, slice, str]]:
    """(feature, slice, meaning) of every part of the flat vector for ``pool`` (default the
    starter pool; the three count blocks have one entry per pool card): the table of
    docs/games/gold_and_dust.md."""
    pool = pool if pool is not None else load_pool()
    parts = [(name, size, meaning) for name, size, meaning in TABLE_FEATURES]
    parts += [
        (name, rows * WIDTH, f"{meaning}: {rows} rows of {WIDTH} (card row layout)")
        for name, rows, _, meaning in ROW_BLOCKS
    ]
    count = len(pool.cards)
    parts += [
        ("own_deck_counts", count, "copies of each pool card left in the own deck / 2"),
        ("own_graveyard_counts", count, "copies of each pool card in the own graveyard / 2"),
        ("enemy_graveyard_counts", count, "copies of each pool card in the enemy graveyard / 2"),
    ]
    return stack_layout(parts)


FLAT_SIZE = flat_layout()[-1][1].stop
"""Length of the flat vector with the starter pool; ``FlatEncoder.shape`` gives any pool's."""


def row_layout() -> list[tuple[str, slice, str]]:
    """(part, columns, features) of a card row, shared by both encoders."""
    return [
        ("zone", slice(0, Z), "one-hot: " + ", ".join(ZONES)),
        ("card", slice(Z, Z + C), ", ".join(STATIC_FEATURES)),
        ("unit", slice(Z + C, WIDTH), ", ".join(UNIT_FEATURES)),
    ]


def _effect_summary(card: Card) -> list[float]:
    """What the card's effects amount to, from each primitive's declared traits: no
    if-chain over primitive names, so a new primitive needs no new encoder code."""
    effects = card.effects()

    def total(trait: str) -> float:
        return sum(e.trait(trait) for e in effects)

    return [
        total("damage") / 10,
        total("heal") / 10,
        total("buff_attack") / 3,
        total("buff_armour") / 3,
        total("draws") / 3,
        total("gains_gold") / 5,
        total("gains_dust") / 5,
        float(any(e.trait("destroys") for e in effects)),
        float(any(e.trait("moves_units") for e in effects)),
        float(sum(a.attack for a in card.aura)),
        float(sum(a.armour for a in card.aura)),
        float(bool(card.on_death)),
        float(bool(card.on_turn_start)),
    ]


def static_features(card: Card) -> list[float]:
    """The card's features from the data, in ``STATIC_FEATURES`` order."""
    count, sides = card.dice
    die_mean = count * (3.5 if sides == 6 else 2.0)
    return [
        float(card.kind == UNIT),
        float(card.kind == SPELL),
        float(card.kind == ARTIFACT),
        *(float(card.role == role) for role in ROLES),
        card.gold / 10,
        card.dust / 10,
        card.attack / 10,
        die_mean / 10,
        card.armour / 5,
        card.hp / 15,
        float(card.ranged),
        card.pierce / 3,
        float(card.charge),
        float(card.vanguard),
        float(card.sniper),
        float(card.death_strike),
        float(card.tireless),
        float(card.immobile),
        float(card.persistent),
        float(card.aim is not None),
        float(card.aim is not None and card.aim.side == ENEMY),
        *_effect_summary(card),
    ]


_STATIC_ROWS: dict[int, tuple[Pool, np.ndarray]] = {}


def static_rows(pool: Pool) -> np.ndarray:
    """Card rows without unit state for every zone and pool card, cached per pool: row
    ``zone * len(pool.cards) + card`` has the zone's one-hot and the card's features."""
    cached = _STATIC_ROWS.get(id(pool))
    if cached is None or cached[0] is not pool:
        count = len(pool.cards)
        rows = np.zeros((Z * count, WIDTH), dtype=np.float32)
        for zone in range(Z):
            for card in pool.cards:
                rows[zone * count + card.index, zone] = 1.0
                rows[zone * count + card.index, Z : Z + C] = static_features(card)
        cached = _STATIC_ROWS[id(pool)] = (pool, rows)
    return cached[1]


_PASSIVES: dict[int, tuple[Hero, list[float]]] = {}


def _passive(hero: Hero) -> list[float]:
    """The Hero's passive as five figures (cached: it runs on every step)."""
    cached = _PASSIVES.get(id(hero))
    if cached is None or cached[0] is not hero:
        auras = [aura for _, aura in hero.statics]
        figures = [
            float(sum(a.attack for a in auras)),
            float(-sum(a.dust for a in auras)),
            float(-sum(a.gold for a in auras)),
            float(sum(a.first_turn_draws for a in auras)),
            float(sum(a.hero_damage for a in auras)),
        ]
        cached = _PASSIVES[id(hero)] = (hero, figures)
    return cached[1]


def table_features(state: GoldDustState, player: int) -> list[float]:
    """The ``TABLE_FEATURES`` of ``player``'s view, in order."""
    enemy = 1 - player
    own_hero, enemy_hero = state.heroes[player], state.heroes[enemy]
    step = [float(state.phase == phase) for phase in PHASES]
    return [
        state.hp[player] / 30,
        state.hp[enemy] / 30,
        state.gold[player] / 20,
        state.gold[enemy] / 20,
        state.dust[player] / 20,
        state.dust[enemy] / 20,
        own_hero.gold_regen / 5,
        own_hero.dust_regen / 5,
        enemy_hero.gold_regen / 5,
        enemy_hero.dust_regen / 5,
        *_passive(own_hero),
        *_passive(enemy_hero),
        len(state.hand_cards[player]) / MAX_HAND,
        len(state.hand_cards[enemy]) / MAX_HAND,
        len(state.deck_cards[player]) / 40,
        len(state.deck_cards[enemy]) / 40,
        len(state.grave_cards[player]) / 40,
        len(state.grave_cards[enemy]) / 40,
        state.fatigue[player] / 10,
        state.fatigue[enemy] / 10,
        state.turn / state.game.max_turns,
        *step,
        float(state.active == player and not state.is_terminal()),
        float(state.turns_started[player] == 1 and state.active == player),
    ]


def fill_card_rows(state: GoldDustState, player: int, rows: np.ndarray) -> None:
    """Write the ``CARD_ROWS`` x ``WIDTH`` card rows of ``player``'s view into ``rows``
    (all zero). Positions are gathered first and written with two numpy calls,
    since this runs on every env step."""
    count = len(state.game.pool.cards)
    cards = state.table.cards
    positions: list[int] = []
    sources: list[int] = []
    for start, zone, iids in (
        (HAND_ROW, 0, state.hand_cards[player]),
        (OWN_ART_ROW, 3, state.artifact_cards[player]),
        (ENEMY_ART_ROW, 4, state.artifact_cards[1 - player]),
    ):
        positions += range(start, start + len(iids))
        sources += [zone * count + cards[iid].index for iid in iids]
    unit_positions: list[int] = []
    values: list[float] = []
    for side, start, zone in ((player, OWN_ROW, 1), (1 - player, ENEMY_ROW, 2)):
        for slot, card in _unit_features(state, side, values):
            positions.append(start + slot)
            sources.append(zone * count + card)
            unit_positions.append(start + slot)
    if positions:
        rows[positions] = static_rows(state.game.pool)[sources]
    if values:
        unit_rows = np.array(values, dtype=np.float32).reshape(len(unit_positions), U)
        rows[unit_positions, Z + C :] = unit_rows


def _unit_features(state: GoldDustState, side: int, values: list[float]) -> list[tuple[int, int]]:
    """Append the ``UNIT_FEATURES`` of each unit of ``side`` to ``values``; return their
    (slot, card index) pairs."""
    mine = side == state.active
    attacking = state.attackers if mine else ()
    engaged = set(state.blocks) if mine else set(state.blocks.values())
    next_striker = state.strikes[0] if state.strikes and mine else -1
    auras = state.auras(side)
    units = []
    for slot, unit in enumerate(state.boards[side]):
        if unit is None:
            continue
        card, row = unit.card, unit.row
        values += (
            unit.hp / 15,
            unit.max_hp / 15,
            max(0, card.attack + unit.attack_bonus + auras[row]) / 10,
            max(0, card.armour + unit.armour_bonus + auras[2 + row]) / 5,
            float(row == FRONT),
            float(row != FRONT),
            float(unit.tapped),
            float(unit.resting),
            float(unit.moved),
            float(unit.dead),
            float(unit.may_attack()),
            float(slot in attacking),
            float(slot in engaged),
            float(slot == next_striker),
        )
        units.append((slot, card.index))
    return units


def _counted_zones(player: int) -> tuple[tuple[str, int], ...]:
    """The zones counted per card: the own deck (its contents are known, not its order)
    and both graveyards."""
    return (("deck", player), ("graveyard", player), ("graveyard", 1 - player))


class FlatEncoder:
    """One float32 vector; ``flat_layout(pool)`` documents its slices."""

    name = "flat"
    version = 1

    def shape(self, game: GoldDustGame) -> tuple[int, ...]:
        return (TABLE_SIZE + CARD_ROWS * WIDTH + 3 * len(game.pool.cards),)

    def encode(self, state: GoldDustState, player: int) -> np.ndarray:
        count = len(state.game.pool.cards)
        rows_end = TABLE_SIZE + CARD_ROWS * WIDTH
        out = np.zeros(rows_end + 3 * count, dtype=np.float32)
        out[:TABLE_SIZE] = table_features(state, player)
        fill_card_rows(state, player, out[TABLE_SIZE:rows_end].reshape(CARD_ROWS, WIDTH))
        out[rows_end:] = zone_counts(state.table, _counted_zones(player), count) / 2
        return out


class EntityEncoder:
    """Rows 0-28: card positions (see ``ROW_BLOCKS``), each a zone one-hot, the card's data
    features and its unit state; then ``TABLE_ROWS`` rows holding ``TABLE_FEATURES``
    flattened and zero-padded; then ``count_rows`` rows holding the counts of
    ``COUNT_BLOCKS`` (the own deck's contents and both graveyards, public by GD-9.3) / 2,
    flattened and zero-padded. Empty positions are all zeros."""

    name = "entity"
    version = 1

    def shape(self, game: GoldDustGame) -> tuple[int, ...]:
        return (CARD_ROWS + TABLE_ROWS + count_rows(game), WIDTH)

    def encode(self, state: GoldDustState, player: int) -> np.ndarray:
        out = np.zeros(self.shape(state.game), dtype=np.float32)
        fill_card_rows(state, player, out[:CARD_ROWS])
        cells = out.reshape(-1)
        start = CARD_ROWS * WIDTH
        cells[start : start + TABLE_SIZE] = table_features(state, player)
        count = len(state.game.pool.cards)
        start = (CARD_ROWS + TABLE_ROWS) * WIDTH
        counts = zone_counts(state.table, _counted_zones(player), count) / 2
        cells[start : start + len(COUNT_BLOCKS) * count] = counts
        return out


ENCODERS = {"flat": FlatEncoder(), "entity": EntityEncoder()}
