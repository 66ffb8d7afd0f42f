"""HKK observation encoders: one seat's view (HK-11.1) as float32 arrays.

Both read only what the observing seat may see: every card on either table with its marks
(active or passive, damage and life now with the defence bonus of HK-4.3, damage taken,
poison and +1/+1 counters, levels, what it is attached to, the abilities it holds now),
the chain (every card played is public), the combat declared so far, both players' life,
magic points, components, hand, deck, discard and Void sizes, the step and who decides;
of the hands only the observer's own, by card; of the decks only the observer's own
deck's contents as counts (its deck list less the cards it has seen elsewhere: never the
order, never a card of the other deck). ``state.resample_hidden(seat, rng)`` re-draws
exactly the other hand and both decks' order and contents-per-instance, none of which an
encoding reads, so ``seat``'s observation is unchanged by it.

Seats are relative to the observer ("own", then "enemy"). Every card row carries the
card's features from the data (type, colour, cost, damage, life, components, buildings'
and items' figures, the abilities of HK-7 as printed, its modifiers, and its effects
summed per vocabulary primitive), so a new card or primitive needs no new encoder code.
Every value lies in [-1, 1] (figures are divided by the scale named in the layout, then
clipped).

The entity encoder is a ``CARD_ROWS + TABLE_ROWS`` x ``WIDTH`` matrix: one row per card
position, then rows holding the table features flattened and zero-padded. The flat
encoder is the table features, the same card rows flattened, then per-card counts.

Card rows (``CARD_ROWS`` = 72), in order:

=========  ====  ============================================================
first row  rows  what
=========  ====  ============================================================
0          16    the observer's hand slots 0-15 (``actions.MAX_HAND``)
16         24    the observer's table positions 0-23 (``actions.MAX_TABLE``)
40         24    the other player's table positions 0-23
64         8     the chain, from its top down (the first 8 items)
=========  ====  ============================================================

A card row (``WIDTH`` = 141 columns; ``row_layout()`` names them):

======  ====  ====================================================================
offset  size  meaning
======  ====  ====================================================================
0       5     position one-hot: own hand, own table, enemy table, own chain item,
              enemy chain item
5       4     area on the table one-hot: guard post, reserve, beside, attached
9       82    the card's data (``STATIC_FEATURES``): type, colour, figures, printed
              abilities, costs, modifiers, effects per primitive
91      37    in play (``PLAY_FEATURES``): active, damage and life now, damage taken,
              counters, levels, host, combat, the abilities held now
128     13    on the chain (``CHAIN_FEATURES``): card or ability, depth, target
======  ====  ====================================================================

The table features (``TABLE_FEATURES``, ``TABLE_SIZE`` = 77 numbers):

======  ====  ====================================================================
offset  size  meaning
======  ====  ====================================================================
0       2     life / 20: own, enemy (negative once at 0 or below)
2       2     life at the start of the turn / 20: own, enemy
4       2     magic points / 20: own, enemy
6       2     magic point limit / 40: own, enemy
8       2     components / 10: own, enemy
10      2     turns taken / 10 (the income of HK-3.1): own, enemy
12      2     guard post places / 6: own, enemy
14      2     hand size / 16: own, enemy
16      2     deck size / 40: own, enemy
18      2     discard pile size / 40: own, enemy
20      2     Void size / 40: own, enemy
22      13    the step one-hot (``steps.PHASE_NAMES``)
35      1     it is the observer's turn
36      1     the observer decides now
37      1     the observer has priority in the window
38      1     passes in a row in the window / 2
39      1     a life-saving window is open (HK-4.2)
40      1     chain length / 8
41      7     the pending decision's kind one-hot (``CHOICES``)
48      1     decisions queued after it / 4
49      1     1 if the observer declares in the direct-damage step
50      1     passes in a row in the direct-damage step / 2
51      2     direct damage declared / 10: own, enemy
53      2     attacks declared on the player / 3: at the observer, at the enemy
55      1     turns without a card left in any deck and no damage / 10 (HK-2.3)
56      1     turn / 100
57      20    the effect primitives on the chain's top item (``PRIMITIVES``), 1 each
======  ====  ====================================================================

The flat encoder's counts (``COUNT_BLOCKS``), one number per pool card each, / 3: the
observer's own deck (contents, not order), own discard pile, enemy discard pile, own
Void, enemy Void. With the starter pool (100 cards) the flat vector has
77 + 72 x 141 + 5 x 100 = 10,729 numbers and the entity matrix is 73 x 141.
"""

from __future__ import annotations

import functools
import operator
import struct
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import numpy as np

from tabletop.envs.core.layout import Layout, stack_layout
from tabletop.envs.hkk import figures, plays
from tabletop.envs.hkk.actions import MAX_HAND, MAX_TABLE
from tabletop.envs.hkk.cards import CARD_TYPES, Card, Pool, load_pool
from tabletop.envs.hkk.combat import PLAYER, Fight, SpoilsChoice, StrikeBackChoice
from tabletop.envs.hkk.effects import VOCAB, Colour, Group, Immunity, Source
from tabletop.envs.hkk.galetki import EatChoice
from tabletop.envs.hkk.steps import PHASE_NAMES
from tabletop.envs.hkk.turns import UpkeepChoice, UpkeepOrder
from tabletop.envs.hkk.zones import InPlay

if TYPE_CHECKING:
    from tabletop.envs.hkk.engine import HkkGame, HkkState

CHAIN_ROWS = 8
"""Chain items encoded, from the top: deeper ones are counted in the chain length only."""
POSITIONS = ("own hand", "own table", "enemy table", "own chain item", "enemy chain item")
AREAS = ("guard", "reserve", "beside", "attached")
COLOURS: tuple[str, ...] = Colour.__args__  # type: ignore[attr-defined]
FORMS: tuple[str, ...] = Immunity.__args__  # type: ignore[attr-defined]
SOURCES: tuple[str, ...] = Source.__args__  # type: ignore[attr-defined]
GROUPS: tuple[str, ...] = Group.__args__  # type: ignore[attr-defined]
PRIMITIVES = tuple(VOCAB.primitives)
ATTACH_KINDS = ("creature", "item", "building", "enchantment")
CHOICES = (
    ("builders", plays.BuildersChoice), ("optional trigger", plays.OptionalChoice),
    ("strike back", StrikeBackChoice), ("spoils", SpoilsChoice), ("eat", EatChoice),
    ("upkeep order", UpkeepOrder), ("upkeep", UpkeepChoice),
)  # fmt: skip
"""The kinds of pending decision (``state.choice``), one column each."""

STATIC_FEATURES = (
    *(f"type {t}" for t in CARD_TYPES), *(f"colour {c}" for c in COLOURS), "cost / 10",
    "damage / 10", "life / 20", "components / 5", "item use", "builders / 5",
    "structure / 20", "carried item", "levels given / 3",
    *(f"attaches to {a}" for a in ATTACH_KINDS), "has a play condition",
    *(f"immune to {f}" for f in FORMS), "magic attack", "magic defence", "poison / 3",
    "invisible", "sees invisible", "flying", "swimming", "untargetable by / 7",
    "unaffected by / 7", "regeneration cost / 5", "breath / 10", "direct effects",
    "direct cost / 10", "activated abilities / 3", "activated vp cost / 10",
    "upkeep drawback", "drawbacks / 3", "levels with abilities / 3", "bonus damage / 5",
    "bonus life / 5", "grants abilities", "guard places / 3", "vp limit / 10",
    "group", "group is the enemy's", *(f"effect {p} / 5" for p in PRIMITIVES),
)  # fmt: skip
PLAY_FEATURES = (
    "active", "damage now / 10", "life now / 20", "life left / 20", "damage taken / 20",
    "poison counters / 5", "+1/+1 counters / 5", "levels / 5", "regenerated / 5",
    "boost damage / 5", "boost life / 5", "breathed", "host position + 1 / 24",
    "cards attached / 5", "attacks the player", "attacks a card", "attacked by / 2",
    "strikes back", "moved in the swap", "subject of the pending decision",
    "target on the chain", "shielded by a body part",
    *(f"holds immunity to {f}" for f in FORMS), "holds magic attack", "holds magic defence",
    "holds poison / 3", "holds invisible", "holds sees invisible", "holds flying",
    "holds swimming", "holds regeneration / 5", "holds untargetable / 7",
    "holds unaffected / 7",
)  # fmt: skip
CHAIN_FEATURES = (
    "a card played", "an ability", "ability number / 3", "depth from the top / 8",
    "targets an own table card", "targets an enemy table card", "targets a discarded card",
    "target position + 1 / 24", "the card is not on a table", "answered by the item above",
    "controller decides now", "has no target", "shielded",
)  # fmt: skip
P, A, C = len(POSITIONS), len(AREAS), len(STATIC_FEATURES)
S, K = len(PLAY_FEATURES), len(CHAIN_FEATURES)
STATIC_AT, PLAY_AT, CHAIN_AT = P + A, P + A + C, P + A + C + S
WIDTH = CHAIN_AT + K
ROW_BLOCKS = (
    ("hand", MAX_HAND, "own hand slots"),
    ("own_table", MAX_TABLE, "own table positions"),
    ("enemy_table", MAX_TABLE, "enemy table positions"),
    ("chain", CHAIN_ROWS, "chain items, top first"),
)
CARD_ROWS = sum(rows for _, rows, _ in ROW_BLOCKS)
HAND_ROW, OWN_ROW, ENEMY_ROW, CHAIN_ROW = (
    sum(rows for _, rows, _ in ROW_BLOCKS[:i]) for i in range(len(ROW_BLOCKS))
)
TABLE_FEATURES = (
    ("life", 2, "life / 20: own, enemy"),
    ("life_at_start", 2, "life at the start of the turn / 20: own, enemy"),
    ("vp", 2, "magic points / 20: own, enemy"),
    ("vp_limit", 2, "magic point limit / 40: own, enemy"),
    ("components", 2, "components / 10: own, enemy"),
    ("turns_taken", 2, "turns taken / 10: own, enemy"),
    ("guard_places", 2, "guard post places / 6: own, enemy"),
    ("hand_sizes", 2, "hand size / 16: own, enemy"),
    ("deck_sizes", 2, "deck size / 40: own, enemy"),
    ("discard_sizes", 2, "discard pile size / 40: own, enemy"),
    ("void_sizes", 2, "Void size / 40: own, enemy"),
    ("step", len(PHASE_NAMES), "one-hot: " + ", ".join(PHASE_NAMES)),
    ("my_turn", 1, "1 if it is the observer's turn"),
    ("my_decision", 1, "1 if the observer decides now"),
    ("my_priority", 1, "1 if the observer has priority in the window"),
    ("passes", 1, "passes in a row in the window / 2"),
    ("saving", 1, "1 while a life-saving window is open"),
    ("chain_length", 1, "chain length / 8"),
    ("choice", len(CHOICES), "the pending decision one-hot: " + ", ".join(n for n, _ in CHOICES)),
    ("queued", 1, "decisions queued after the pending one / 4"),
    ("declarer", 1, "1 if the observer declares in the direct-damage step"),
    ("direct_passes", 1, "passes in a row in the direct-damage step / 2"),
    ("direct_declared", 2, "direct damage declared / 10: own, enemy"),
    ("player_attacks", 2, "attacks declared on a player / 3: on the observer, on the enemy"),
    ("quiet_turns", 1, "turns with both decks empty and nothing changing / 10 (HK-2.3)"),
    ("turn", 1, "turn / 100"),
    ("chain_top", len(PRIMITIVES), "effect primitives of the chain's top item, 1 each"),
)  # fmt: skip
TABLE_SIZE = sum(size for _, size, _ in TABLE_FEATURES)
TABLE_ROWS = -(-TABLE_SIZE // WIDTH)
COUNT_BLOCKS = ("own deck", "own discard pile", "enemy discard pile", "own Void", "enemy Void")


def row_layout() -> Layout:
    """(part, columns, features) of a card row, shared by both encoders."""
    return stack_layout(
        [
            ("position", P, "one-hot: " + ", ".join(POSITIONS)),
            ("area", A, "one-hot: " + ", ".join(AREAS)),
            ("card", C, ", ".join(STATIC_FEATURES)),
            ("in_play", S, ", ".join(PLAY_FEATURES)),
            ("chain", K, ", ".join(CHAIN_FEATURES)),
        ]
    )


def flat_layout(pool: Pool | None = None) -> Layout:
    """(feature, slice, meaning) of every part of the flat vector for ``pool`` (default
    the starter pool: each count block has one entry per pool card)."""
    pool = pool if pool is not None else load_pool()
    parts = list(TABLE_FEATURES)
    parts += [(name, rows * WIDTH, f"{what}: {rows} rows of {WIDTH} (row_layout)")
              for name, rows, what in ROW_BLOCKS]  # fmt: skip
    parts += [
        (f"{block} counts".replace(" ", "_"), len(pool.cards), f"copies in the {block} / 3")
        for block in COUNT_BLOCKS
    ]
    return stack_layout(parts)


# ----- a card's data ---------------------------------------------------------------------------


def _magnitude(effect: Any) -> float:
    """An effect's size: the sum of its numeric parameters (an amount, counters, cards,
    a boost's damage and life), or 1 for one without any."""
    numbers = [v for _, v in effect.params if isinstance(v, int) and not isinstance(v, bool)]
    return float(sum(abs(v) for v in numbers)) if numbers else 1.0


def card_effects(card: Card) -> list[Any]:
    """Every effect the card can run: on play (taken or optional), in upkeep, through its
    activated abilities and its direct damage."""
    effects = [e for group in card.triggers.values() for e in group]
    effects += [e for ability in getattr(card, "activated", ()) for e in ability.effects]
    direct = getattr(card, "direct", None)
    if direct is not None:
        effects += direct.effects
    return effects


def _primitive_sums(effects: Iterable[Any]) -> list[float]:
    sums = dict.fromkeys(PRIMITIVES, 0.0)
    for effect in effects:
        sums[effect.do] += _magnitude(effect)
    return [sums[p] / 5 for p in PRIMITIVES]


def _abilities(abilities: Any) -> list[float]:
    """HK-7's abilities, printed or held, in the order of the feature names."""
    immunity = abilities.immunity
    return [
        *[1.0 if f in immunity else 0.0 for f in FORMS],
        float(abilities.magic_attack),
        float(abilities.magic_defence),
        abilities.poison / 3,
        float(abilities.invisible),
        float(abilities.sees_invisible),
        float(abilities.flying),
        float(abilities.swimming),
        len(abilities.untargetable) / len(SOURCES),
        len(abilities.unaffected) / len(SOURCES),
    ]


def _statics(card: Card) -> dict[str, list[Any]]:
    found: dict[str, list[Any]] = {}
    for kind, params in getattr(card, "statics", ()):
        found.setdefault(kind, []).append(params)
    return found


def _modifier_features(card: Card) -> list[float]:
    statics = _statics(card)
    group = getattr(card, "group", None)
    return [
        sum(p.damage for p in statics.get("bonus", ())) / 5,
        sum(p.life for p in statics.get("bonus", ())) / 5,
        float("grant" in statics),
        sum(p.places for p in statics.get("guard_size", ())) / 3,
        sum(p.amount for p in statics.get("vp_limit", ())) / 10,
        float(group is not None),
        float(group is not None and group.startswith("enemy")),
    ]


def _creature_features(card: Card) -> list[float]:
    abilities = getattr(card, "abilities", None)
    direct = getattr(card, "direct", None)
    drawbacks = getattr(card, "drawbacks", ())
    activated = getattr(card, "activated", ())
    printed = _abilities(abilities) if abilities is not None else [0.0] * 14
    return [
        *printed,
        (abilities.regeneration if abilities is not None else 0) / 5,
        (direct.breath or 0) / 10 if direct is not None else 0.0,
        float(direct is not None and bool(direct.effects)),
        (direct.vp if direct is not None else 0) / 10,
        len(activated) / 3,
        sum(a.vp for a in activated) / 10,
        float(any(d.kind == "upkeep" for d in drawbacks)),
        len(drawbacks) / 3,
        len(getattr(card, "at_level", ())) / 3,
    ]


def static_features(card: Card) -> list[float]:
    """The card's features from the data, in ``STATIC_FEATURES`` order."""
    attach = getattr(card, "attach", None)
    return [
        *(float(t == card.TYPE) for t in CARD_TYPES),
        *(float(card.colour == c) for c in COLOURS),
        getattr(card, "cost", 0) / 10,
        getattr(card, "damage", 0) / 10,
        getattr(card, "life", 0) / 20,
        getattr(card, "components", 0) / 5,
        float(getattr(card, "item_use", False)),
        getattr(card, "builders", 0) / 5,
        getattr(card, "structure", 0) / 20,
        float(getattr(card, "carried", False)),
        getattr(card, "levels", 0) / 3,
        *(float(attach == a) for a in ATTACH_KINDS),
        float(card.condition is not None),
        *_creature_features(card),
        *_modifier_features(card),
        *_primitive_sums(card_effects(card)),
    ]


_STATIC_ROWS: dict[int, tuple[Pool, np.ndarray]] = {}


def static_rows(pool: Pool) -> np.ndarray:
    """``STATIC_FEATURES`` of every pool card by index, clipped to [-1, 1], cached per pool
    (they never change)."""
    cached = _STATIC_ROWS.get(id(pool))
    if cached is None or cached[0] is not pool:
        rows = np.array([static_features(card) for card in pool.cards], dtype=np.float32)
        rows = np.clip(rows.reshape(len(pool.cards), C), -1.0, 1.0)
        cached = _STATIC_ROWS[id(pool)] = (pool, rows)
    return cached[1]


def row_starts(pool: Pool, columns: tuple[int, ...]) -> list[bytes]:
    """The first ``PLAY_AT`` cells of a card row with the one-hot ``columns`` set (its
    position and area), as float32 bytes, for each pool card by index."""
    starts = np.zeros((len(pool.cards), PLAY_AT), dtype=np.float32)
    starts[:, list(columns)] = 1.0
    starts[:, STATIC_AT:] = static_rows(pool)
    return [row.tobytes() for row in starts]


# ----- ready bytes ------------------------------------------------------------------------------
# An encoding is the join of float32 byte blocks: the cards' rows as ready bytes, the rest
# packed with ``struct`` (the C cast numpy's conversion makes), and one numpy array made at
# the end. Each numpy call costs as much as dozens of values, so none is made per card.

AREA_COLUMNS = {area: P + column for column, area in enumerate(AREAS)}
ROW_BYTES = 4 * WIDTH
NO_CHAIN = bytes(4 * K)
"""A table row's chain cells (always zero)."""
TABLE_CELLS = struct.Struct(f"{TABLE_SIZE}f")
NO_PLAY = bytes(4 * S)
"""A chain row's in-play cells (always zero)."""
NO_ROWS = tuple(bytes(n * ROW_BYTES) for n in range(max(MAX_HAND, MAX_TABLE, CHAIN_ROWS) + 1))
"""``NO_ROWS[n]``: ``n`` empty rows, the padding of a block."""
TABLE_PADDING = bytes(4 * (TABLE_ROWS * WIDTH - TABLE_SIZE))
CACHE_SIZE = 2048
"""Hand and count blocks kept per pool; the cache is emptied when full (a game makes a few
hundred)."""


class PoolRows:
    """What every encoding with ``pool`` reuses, made once: each card's row start (its
    position and area one-hots and its data) as float32 bytes, a hand card's whole row,
    the hand and count blocks last made for each zone (a zone changes at few steps) and
    clipped cells by value."""

    def __init__(self, pool: Pool) -> None:
        self.pool = pool
        self.size = len(pool.cards)
        tail = bytes(4 * (WIDTH - PLAY_AT))
        self.hand = [start + tail for start in row_starts(pool, (0,))]
        self.table = {
            (position, area): row_starts(pool, (position, column))
            for position in (1, 2)
            for area, column in AREA_COLUMNS.items()
        }
        self.chain = {position: row_starts(pool, (position,)) for position in (3, 4)}
        self.blocks: dict[tuple[bool, int], tuple[list[int], list[Card], list[int], bytes]] = {}
        """Hand and count blocks by kind (hand or not) and ``id`` of the zone's list, each
        with the list (so the id is never another list's), the ``Table.cards`` list it was
        read with and the contents it was made from: reused while both are the same."""
        self.packed: dict[tuple[float, ...], bytes] = {}
        """``cells``' cache."""
        self.tables: dict[tuple[Any, ...], bytes] = {}
        """``table_cells``' cache."""

    def hand_block(self, cards: list[Card], hand: list[int]) -> bytes:
        """The rows of a hand holding ``hand``'s iids (at most ``MAX_HAND``, unpadded)."""
        return self._block(True, cards, hand)

    def count_block(self, cards: list[Card], zone: list[int]) -> bytes:
        """Copies of each pool card among ``zone``'s iids / 3, at most 1."""
        return self._block(False, cards, zone)

    def cells(self, values: list[float]) -> bytes:
        """``values`` clipped to [-1, 1] as float32 bytes (remembered by value: a card's
        in-play cells repeat from position to position)."""
        key = tuple(values)
        cells = self.packed.get(key)
        if cells is None:
            cells = _cells(len(key)).pack(*_clipped(values))
            if len(self.packed) >= CACHE_SIZE:
                self.packed.clear()
            self.packed[key] = cells
        return cells

    def table_cells(self, inputs: tuple[Any, ...]) -> bytes:
        """The table features made of ``inputs`` (``table_inputs``) clipped to [-1, 1] as
        float32 bytes, remembered by their inputs."""
        cells = self.tables.get(inputs)
        if cells is None:
            cells = TABLE_CELLS.pack(*_clipped(table_features(inputs)))
            if len(self.tables) >= CACHE_SIZE:
                self.tables.clear()
            self.tables[inputs] = cells
        return cells

    def _block(self, hand: bool, cards: list[Card], zone: list[int]) -> bytes:
        key = (hand, id(zone))
        cached = self.blocks.get(key)
        if cached is None or cached[0] is not zone or cached[1] is not cards or cached[2] != zone:
            block = self._hand(cards, zone) if hand else self._counts(cards, zone)
            if len(self.blocks) >= CACHE_SIZE:
                self.blocks.clear()
            cached = self.blocks[key] = (zone, cards, zone[:], block)
        return cached[3]

    def _hand(self, cards: list[Card], hand: list[int]) -> bytes:
        return b"".join([self.hand[cards[iid].index] for iid in hand[:MAX_HAND]])

    def _counts(self, cards: list[Card], zone: list[int]) -> bytes:
        copies = [0] * self.size
        for iid in zone:
            copies[cards[iid].index] += 1
        return _cells(self.size).pack(*[min(n / 3, 1.0) for n in copies])


_POOL_ROWS: dict[int, PoolRows] = {}


def pool_rows(pool: Pool) -> PoolRows:
    """The ``PoolRows`` of ``pool``, made at its first encoding."""
    rows = _POOL_ROWS.get(id(pool))
    if rows is None or rows.pool is not pool:
        rows = _POOL_ROWS[id(pool)] = PoolRows(pool)
    return rows


def _clipped(values: list[float]) -> list[float]:
    """Every value within [-1, 1], the encoders' range (the cards' data is clipped once,
    in ``static_rows``)."""
    return [-1.0 if v < -1.0 else 1.0 if v > 1.0 else v for v in values]


@functools.cache
def _cells(count: int) -> struct.Struct:
    return struct.Struct(f"{count}f")


# ----- the table and the chain ------------------------------------------------------------------


def _chain_targets(state: HkkState) -> set[int]:
    return {item.what.target for item in state.stack.items if item.what.target is not None}


def _choice_subject(state: HkkState) -> int | None:
    """The card a pending decision is about (a building, a trigger's card, an item, an
    upkeep), if it names one."""
    choice = state.choice
    if choice is None:
        return None
    if isinstance(choice, StrikeBackChoice):
        return choice.defenders[0]
    return getattr(choice, "iid", None)


NO_COMBAT = [0.0] * 5


def _combat_marks(fight: Fight, iid: int) -> list[float]:
    aim = fight.attacks.get(iid)
    return [
        1.0 if aim == PLAYER else 0.0,
        1.0 if aim is not None and aim != PLAYER else 0.0,
        len(fight.attackers_of(iid)) / 2,
        1.0 if iid in fight.strikes_back else 0.0,
        1.0 if iid in fight.moved else 0.0,
    ]


Figures = tuple[float, int, list[float]]
"""A card's damage now / 10, its life now (a building's structure) and the abilities it
holds now as features (``figure_features``)."""
NO_HELD = [0.0] * 15


def figure_features(state: HkkState, entry: InPlay) -> Figures:
    """What ``play_features`` takes from ``figures``."""
    if not figures.is_creature(entry):
        return 0.0, figures.life(state, entry) if entry.card.TYPE == "building" else 0, NO_HELD
    held = figures.held(state, entry)
    held_features = [*_abilities(held), held.regeneration / 5]
    return figures.damage(state, entry) / 10, figures.life(state, entry), held_features


def play_features(entry: InPlay, figure: Figures, marks: tuple[Any, ...]) -> list[float]:
    """``PLAY_FEATURES`` of a card on a table with its ``figure_features``; ``marks``: the
    chain's targets, the pending decision's subject, the shielded iids, the combat, the
    table's positions by iid and how many cards lie on each card of it (by iid)."""
    targets, subject, shielded, fight, positions, riders = marks
    iid = entry.iid
    damage, life, held = figure
    host = positions.get(entry.host)
    boost_damage, boost_life = entry.boost
    return [
        1.0 if entry.active else 0.0,
        damage,
        life / 20,
        (life - entry.damage) / 20 if life else 0.0,
        entry.damage / 20,
        entry.poison / 5,
        entry.counters / 5,
        entry.levels / 5,
        entry.regenerated / 5,
        boost_damage / 5,
        boost_life / 5,
        1.0 if entry.breathed else 0.0,
        (host + 1) / MAX_TABLE if host is not None else 0.0,
        riders.get(iid, 0) / 5,
        *(NO_COMBAT if fight is None else _combat_marks(fight, iid)),
        1.0 if iid == subject else 0.0,
        1.0 if iid in targets else 0.0,
        1.0 if iid in shielded else 0.0,
        *held,
    ]


PASSING_MARKS = operator.attrgetter("damage", "poison", "regenerated", "breathed")
"""The marks of a card in play that change while figures stay remembered (damage taken,
poison, regeneration, direct damage used: none is in ``zones.FIGURE_MARKS``)."""
NO_IIDS: frozenset[int] = frozenset()


class TableNow:
    """One table as it stays while its figures are remembered (``_table_now``): each
    card's in-play cells, made without marks of the chain, the pending decision, shields
    and combat, and its rows with either position column once asked."""

    __slots__ = ("entries", "passing", "iids", "positions", "riders", "figures", "cells", "_rows")

    def __init__(self, state: HkkState, seat: int, pool: PoolRows) -> None:
        table = state.tables[seat]
        self.positions = {entry.iid: i for i, entry in enumerate(table)}
        """The table's positions by iid."""
        self.riders: dict[int, int] = {}
        """How many cards lie on each card (by iid)."""
        for entry in table:
            if entry.host is not None:
                self.riders[entry.host] = self.riders.get(entry.host, 0) + 1
        self.entries = tuple(table[:MAX_TABLE])
        """The cards encoded (the first ``MAX_TABLE``)."""
        self.passing = list(map(PASSING_MARKS, self.entries))
        """Each card's ``PASSING_MARKS`` when its cells were made."""
        self.iids = frozenset(entry.iid for entry in self.entries)
        self.figures = [figure_features(state, entry) for entry in self.entries]
        """Each card's ``figure_features``."""
        marks = (NO_IIDS, None, NO_IIDS, None, self.positions, self.riders)
        pairs = zip(self.entries, self.figures, strict=True)
        self.cells = [pool.cells(play_features(entry, figure, marks)) for entry, figure in pairs]
        self._rows: dict[int, tuple[list[bytes], bytes]] = {}

    def rows(self, position: int, pool: PoolRows) -> tuple[list[bytes], bytes]:
        """Each card's row with position column ``position`` (1 own, 2 enemy), and the rows
        joined with the padding to ``MAX_TABLE`` rows."""
        found = self._rows.get(position)
        if found is None:
            starts = pool.table
            rows = [starts[position, entry.area][entry.card.index] + cells + NO_CHAIN
                    for entry, cells in zip(self.entries, self.cells, strict=True)]  # fmt: skip
            found = self._rows[position] = (rows, b"".join((*rows, NO_ROWS[MAX_TABLE - len(rows)])))
        return found


@figures.remembered_figure
def _table_now(state: HkkState, seat: int) -> TableNow:
    """``seat``'s ``TableNow``, made once while its figures are remembered
    (``figures.remembered``: the same cards on the tables in the same order, the same marks
    of ``zones.FIGURE_MARKS``, the same turn)."""
    return TableNow(state, seat, pool_rows(state.game.pool))


Marked = tuple[frozenset[int], tuple[Any, ...]]
"""What ``_marked`` finds."""


def _marked(state: HkkState) -> Marked:
    """The iids with a mark of the chain, the pending decision, a shield or the combat
    (their rows are made anew), and those marks as ``play_features`` takes them."""
    targets, subject = _chain_targets(state), _choice_subject(state)
    shielded = {iid for _, iid in state.shields}
    fight = state.fight
    marked = targets | shielded
    if subject is not None:
        marked.add(subject)
    if fight is not None:
        # attackers_of(iid) is empty unless iid is aimed at: no combat mark otherwise.
        marked.update(fight.attacks, fight.attacks.values(), fight.strikes_back, fight.moved)
    return frozenset(marked), (targets, subject, shielded, fight)


def _table_block(state: HkkState, seat: int, position: int, pool: PoolRows, found: Marked,
                 out: list[bytes]) -> None:  # fmt: skip
    """Append ``seat``'s ``MAX_TABLE`` table rows to ``out``: the remembered rows, made
    anew for a card whose passing marks changed since or that ``found`` (``_marked``)
    names."""
    now = _table_now(state, seat)
    marked, marks = found
    rows, block = now.rows(position, pool)
    passing = list(map(PASSING_MARKS, now.entries))
    if passing == now.passing and marked.isdisjoint(now.iids):
        out.append(block)
        return
    marks = (*marks, now.positions, now.riders)
    for i, entry in enumerate(now.entries):
        row = rows[i]
        if now.passing[i] != passing[i] or entry.iid in marked:
            cells = pool.cells(play_features(entry, now.figures[i], marks))
            row = row[: 4 * PLAY_AT] + cells + NO_CHAIN
        out.append(row)
    out.append(NO_ROWS[MAX_TABLE - len(rows)])


def _where(iid: int, sides: tuple[dict[int, int], dict[int, int]]) -> tuple[str, int]:
    """("own" | "enemy", table position) of a card on a table, else ("", -1); ``sides``:
    the observer's and the other table's positions by iid."""
    for side, positions in zip(("own", "enemy"), sides, strict=True):
        position = positions.get(iid)
        if position is not None:
            return side, position
    return "", -1


def chain_features(state: HkkState, player: int, depth: int, item: Any,
                   sides: tuple[dict[int, int], dict[int, int]]) -> list[float]:  # fmt: skip
    """``CHAIN_FEATURES`` of the chain item ``depth`` places below the top; ``sides``: the
    observer's and the other table's positions by iid."""
    play = item.what
    side, position = _where(play.target, sides) if play.target is not None else ("", -1)
    discarded = play.target is not None and not side
    source_side, _ = _where(play.iid, sides)
    shielded = any(shield[0] == play for shield in state.shields)
    return [
        float(play.ability < 0),
        float(play.ability >= 0),
        max(play.ability + 1, 0) / 3,
        depth / CHAIN_ROWS,
        float(side == "own"),
        float(side == "enemy"),
        float(discarded),
        (position + 1) / MAX_TABLE,
        float(not source_side),
        float(depth > 0),
        float(state.player == item.controller),
        float(play.target is None),
        float(shielded),
    ]


def _chain_block(state: HkkState, player: int, rows: PoolRows, out: list[bytes]) -> None:
    """Append the ``CHAIN_ROWS`` chain rows, top first, to ``out``."""
    items = state.stack.items[::-1][:CHAIN_ROWS]
    if items:
        cards = state.table.cards
        sides = (_table_now(state, player).positions, _table_now(state, 1 - player).positions)
        for depth, item in enumerate(items):
            start = rows.chain[3 if item.controller == player else 4][cards[item.what.iid].index]
            cells = rows.cells(chain_features(state, player, depth, item, sides))
            out.append(start + NO_PLAY + cells)
    out.append(NO_ROWS[CHAIN_ROWS - len(items)])


def card_blocks(state: HkkState, player: int, rows: PoolRows, out: list[bytes]) -> None:
    """Append the ``CARD_ROWS`` x ``WIDTH`` card rows of ``player``'s view to ``out`` as
    float32 bytes."""
    hand = state.hands[player]
    out += (rows.hand_block(state.table.cards, hand), NO_ROWS[MAX_HAND - min(len(hand), MAX_HAND)])
    marked = _marked(state)
    _table_block(state, player, 1, rows, marked, out)
    _table_block(state, 1 - player, 2, rows, marked, out)
    _chain_block(state, player, rows, out)


def _fight_inputs(state: HkkState, player: int) -> tuple[Any, ...] | None:
    """What the combat's table features are made of: the observer declares, passes, direct
    damage declared (own, enemy) and attacks on a player (on the observer, the enemy)."""
    fight = state.fight
    if fight is None:
        return None
    declared = [0, 0]
    for breath in fight.breaths:
        declared[breath.seat] += breath.amount
    at_player = [0, 0]  # the active player's creatures attack (HK-6.2)
    at_player[1 - state.active] = sum(1 for aim in fight.attacks.values() if aim == PLAYER)
    return (fight.declarer == player, fight.passes, declared[player], declared[1 - player],
            at_player[player], at_player[1 - player])  # fmt: skip


def _fight_features(fight: tuple[Any, ...] | None) -> list[float]:
    if fight is None:
        return NO_FIGHT
    declarer, passes, declared, declared_enemy, at_player, at_enemy = fight
    return [float(declarer), passes / 2, declared / 10, declared_enemy / 10, at_player / 3,
            at_enemy / 3]  # fmt: skip


NO_FIGHT = [0.0] * 6
NO_CHAIN_TOP = [0.0] * len(PRIMITIVES)


def _chain_top(effects: tuple[Any, ...] | None) -> list[float]:
    if effects is None:
        return NO_CHAIN_TOP
    used = {e.do for e in effects}
    return [float(p in used) for p in PRIMITIVES]


PHASE_COLUMNS = [[float(step == p) for p in range(len(PHASE_NAMES))]
                 for step in range(len(PHASE_NAMES))]  # fmt: skip


@functools.cache
def _choice_columns(kind: type) -> list[float]:
    """The pending decision's one-hot for a choice of class ``kind`` (``NoneType``: none)."""
    return [float(issubclass(kind, choice)) for _, choice in CHOICES]


@figures.remembered_figure
def _limits(state: HkkState) -> tuple[int, int, int, int]:
    """Magic point limits and guard post places of seats 0 and 1, asked once."""
    return (figures.vp_limit(state, 0), figures.vp_limit(state, 1),
            figures.guard_size(state, 0), figures.guard_size(state, 1))  # fmt: skip


PAIR_SCALES = (20, 20, 20, 40, 10, 10, 6, MAX_HAND, 40, 40, 40)
"""The scales of the (own, enemy) pairs that open ``TABLE_FEATURES``, in order."""
PAIRS = 2 * len(PAIR_SCALES)


def table_inputs(state: HkkState, player: int) -> tuple[Any, ...]:
    """What ``player``'s ``TABLE_FEATURES`` are made of (``table_features``), as plain
    numbers, flags, the pending decision's class and the chain top's effects (which hash
    by identity): the key their cells are remembered by."""
    enemy = 1 - player
    live = state.winner is None
    limits = _limits(state)
    stack = state.stack
    top = None
    if stack:
        play = stack.top.what
        top = plays.effects_of(state.card(play.iid), play.ability)
    return (
        state.life[player], state.life[enemy],
        state.life_at_start[player], state.life_at_start[enemy],
        state.vp[player], state.vp[enemy],
        limits[player], limits[enemy],
        state.components[player], state.components[enemy],
        state.turns_taken[player], state.turns_taken[enemy],
        limits[2 + player], limits[2 + enemy],
        len(state.hands[player]), len(state.hands[enemy]),
        len(state.decks[player]), len(state.decks[enemy]),
        len(state.discards[player]), len(state.discards[enemy]),
        len(state.voids[player]), len(state.voids[enemy]),
        state.phase,
        state.active == player and live,
        state.player == player and live,
        state.priority == player,
        state.passes,
        bool(state.saving),
        len(stack.items),
        type(state.choice),
        len(state.queued),
        _fight_inputs(state, player),
        state.quiet_turns,
        state.turn,
        top,
    )  # fmt: skip


def table_features(inputs: tuple[Any, ...]) -> list[float]:
    """The ``TABLE_FEATURES`` made of ``table_inputs``, in order."""
    (phase, my_turn, my_decision, my_priority, passes, saving, chain, choice, queued, fight,
     quiet_turns, turn, top) = inputs[PAIRS:]  # fmt: skip
    return [
        *[value / PAIR_SCALES[i // 2] for i, value in enumerate(inputs[:PAIRS])],
        *PHASE_COLUMNS[phase],
        1.0 if my_turn else 0.0,
        1.0 if my_decision else 0.0,
        1.0 if my_priority else 0.0,
        passes / 2,
        1.0 if saving else 0.0,
        chain / CHAIN_ROWS,
        *_choice_columns(choice),
        queued / 4,
        *_fight_features(fight),
        quiet_turns / 10,
        turn / 100,
        *_chain_top(top),
    ]


def _table_bytes(state: HkkState, player: int, rows: PoolRows) -> bytes:
    return rows.table_cells(table_inputs(state, player))


def _counted_zones(state: HkkState, player: int) -> tuple[list[int], ...]:
    """The zones counted per card: the own deck (its contents are known, not its order),
    both discard piles and both Voids."""
    enemy = 1 - player
    return (state.decks[player], state.discards[player], state.discards[enemy],
            state.voids[player], state.voids[enemy])  # fmt: skip


class FlatEncoder:
    """One float32 vector; ``flat_layout(pool)`` documents its slices."""

    name = "flat"
    version = 0

    def shape(self, game: HkkGame) -> tuple[int, ...]:
        return (TABLE_SIZE + CARD_ROWS * WIDTH + len(COUNT_BLOCKS) * len(game.pool.cards),)

    def encode(self, state: HkkState, player: int) -> np.ndarray:
        rows = pool_rows(state.game.pool)
        out = [_table_bytes(state, player, rows)]
        card_blocks(state, player, rows, out)
        cards = state.table.cards
        out += [rows.count_block(cards, zone) for zone in _counted_zones(state, player)]
        return np.frombuffer(bytearray().join(out), dtype=np.float32)


class EntityEncoder:
    """Rows 0-71: card positions (``ROW_BLOCKS``), each a position one-hot, an area
    one-hot, the card's data, its marks in play and its chain item; the last
    ``TABLE_ROWS`` rows hold ``TABLE_FEATURES`` flattened and zero-padded. Empty positions
    are all zeros."""

    name = "entity"
    version = 0

    def shape(self, game: HkkGame) -> tuple[int, ...]:
        return (CARD_ROWS + TABLE_ROWS, WIDTH)

    def encode(self, state: HkkState, player: int) -> np.ndarray:
        rows = pool_rows(state.game.pool)
        out: list[bytes] = []
        card_blocks(state, player, rows, out)
        out += [_table_bytes(state, player, rows), TABLE_PADDING]
        encoding = np.frombuffer(bytearray().join(out), dtype=np.float32)
        return encoding.reshape(CARD_ROWS + TABLE_ROWS, WIDTH)


ENCODERS = {"flat": FlatEncoder(), "entity": EntityEncoder()}
