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

The entity encoder is a ``CARD_ROWS + TABLE_ROWS + count_rows`` x ``WIDTH`` matrix: one
row per card position, then rows holding the table features flattened and zero-padded,
then rows holding the per-card counts flattened and zero-padded. The flat encoder is the
table features, the same card rows flattened, then the same per-card counts.

Card rows (``CARD_ROWS`` = 72), in order:

=========  ====  ============================================================
first row  rows  what
=========  ====  ============================================================
0          16    the observer's hand slots 0-15 (``actions.MAX_HAND``)
16         24    the observer's table positions 0-23 (``actions.MAX_TABLE``)
40         24    the other player's table positions 0-23
64         8     the chain, from its top down (the first 8 items)
=========  ====  ============================================================

A card row (``WIDTH`` = 143 columns; ``row_layout()`` names them):

======  ====  ====================================================================
offset  size  meaning
======  ====  ====================================================================
0       5     position one-hot: own hand, own table, enemy table, own chain item,
              enemy chain item
5       4     area on the table one-hot: guard post, reserve, beside, attached
9       82    the card's data (``STATIC_FEATURES``): type, colour, figures, printed
              abilities, costs, modifiers, effects per primitive
91      39    in play (``PLAY_FEATURES``): active, damage and life now, damage taken,
              counters, levels, host, combat (the defender's strike-back choice
              included), a fresh wound (HK-7.9), the abilities held now
130     13    on the chain (``CHAIN_FEATURES``): card or ability, depth, target
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

The counts (``COUNT_BLOCKS``), one number per pool card each, / 3: the observer's own deck
(contents, not order), own discard pile, enemy discard pile, own Void, enemy Void (HK-11.1).
With the starter pool (100 cards) the flat vector has 77 + 72 x 143 + 5 x 100 = 10,873
numbers and the entity matrix is (72 + 1 + 4) x 143 = 77 x 143.
"""

from __future__ import annotations

import functools
import operator
import struct
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

from tabletop.envs.core.cards.encoding import magnitude
from tabletop.envs.core.layout import Layout, stack_layout
from tabletop.envs.hkk import figures, plays
from tabletop.envs.hkk.actions import MAX_HAND, MAX_TABLE
from tabletop.envs.hkk.cards import CARD_TYPES, Card, Creature, Pool, load_pool
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
    "strikes back", "struck back by its target", "moved in the swap",
    "subject of the pending decision", "target on the chain", "shielded by a body part",
    "damage fresh enough to regenerate",
    *(f"holds immunity to {f}" for f in FORMS), "holds magic attack", "holds magic defence",
    "holds poison / 3", "holds invisible", "holds sees invisible", "holds flying",
    "holds swimming", "holds untargetable / 7", "holds unaffected / 7",
    "holds regeneration / 5",
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
        sums[effect.do] += magnitude(effect.params, signed=False)
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


def static_rows(pool: Pool) -> np.ndarray:
    """``STATIC_FEATURES`` of every pool card by index, clipped to [-1, 1]."""
    rows = np.array([static_features(card) for card in pool.cards], dtype=np.float32)
    return np.clip(rows.reshape(len(pool.cards), C), -1.0, 1.0)


def row_starts(static: np.ndarray, columns: tuple[int, ...]) -> list[bytes]:
    """The first ``PLAY_AT`` cells of a card row with the one-hot ``columns`` set (its
    position and area), as float32 bytes, for each pool card by index (``static``: the
    pool's ``static_rows``)."""
    starts = np.zeros((len(static), PLAY_AT), dtype=np.float32)
    starts[:, list(columns)] = 1.0
    starts[:, STATIC_AT:] = static
    return [row.tobytes() for row in starts]


# ----- ready bytes ------------------------------------------------------------------------------
# An encoding is the join of float32 byte blocks: the cards' rows as ready bytes, the rest
# packed with ``struct`` (the C cast numpy's conversion makes), and one numpy array made at
# the end. Each numpy call costs as much as dozens of values, so none is made per card.

AREA_COLUMNS = {area: P + column for column, area in enumerate(AREAS)}
ROW_BYTES = 4 * WIDTH
NO_CHAIN = bytes(4 * K)
"""A table row's chain cells (always zero)."""
NO_PLAY = bytes(4 * S)
"""A chain row's in-play cells (always zero)."""
NO_ROWS = tuple(bytes(n * ROW_BYTES) for n in range(max(MAX_HAND, MAX_TABLE, CHAIN_ROWS) + 1))
"""``NO_ROWS[n]``: ``n`` empty rows, the padding of a block."""
TABLE_PADDING = bytes(4 * (TABLE_ROWS * WIDTH - TABLE_SIZE))
CACHE_SIZE = 2048
"""Entries kept in each of ``PoolRows``' caches; a cache is emptied when full (a game makes
a few hundred of each)."""


class PoolRows:
    """What every encoding of one game reuses, made once: each card's row start (its
    position and area one-hots and its data) as float32 bytes, a hand card's whole row,
    which cards are creatures and which have continuous effects, and caches by value: the
    hand and count blocks last made for each zone (a zone changes at few steps), clipped
    cells, table features, both tables' ``View`` per position, creatures' figures and table
    rows (a move changes a few cards: the other rows are found again)."""

    def __init__(self, pool: Pool) -> None:
        self.size = len(pool.cards)
        static = static_rows(pool)
        tail = bytes(4 * (WIDTH - PLAY_AT))
        self.hand = [start + tail for start in row_starts(static, (0,))]
        self.table = {
            (position, area): row_starts(static, (position, column))
            for position in (1, 2)
            for area, column in AREA_COLUMNS.items()
        }
        self.chain = {position: row_starts(static, (position,)) for position in (3, 4)}
        self.still = [None if isinstance(card, Creature) else still_figures(card)
                      for card in pool.cards]  # fmt: skip
        """Each pool card's ``still_figures``, ``None`` for a creature (``figures.is_creature``:
        its figures change)."""
        self.sourcing = [bool(getattr(card, "statics", ())) for card in pool.cards]
        """Whether each pool card has continuous effects (``figures.statics``)."""
        self.hands: dict[int, tuple[list[int], list[Card], list[int], bytes]] = {}
        """Hand blocks by ``id`` of the zone's list, each with the list (so the id is never
        another list's), the ``Table.cards`` list it was read with and the contents it was
        made from: reused while both are the same."""
        self.counts: dict[int, tuple[list[int], list[Card], list[int], bytes]] = {}
        """Count blocks, as ``hands``."""
        self.packed: dict[tuple[float, ...], bytes] = {}
        """``cells``' cache."""
        self.tables: tuple[dict[Any, bytes], ...] = tuple({} for _ in TABLE_PARTS)
        """``table_cells``' caches, one per part of ``TABLE_PARTS``."""
        self.views: dict[tuple[Any, ...], View] = {}
        """``view``'s cache."""
        self.last: tuple[HkkState, tuple[int, int], View] | None = None
        """The state whose view was asked last, its ``_stamp`` then and the view: kept
        alive here, so ``is`` never finds another state at its address."""
        self.limits: dict[tuple[Any, ...], tuple[int, int, int, int]] = {}
        """``View.limits`` by the cards giving continuous effects."""
        self.figures: dict[tuple[Any, ...], Figures] = {}
        """Creatures' ``figure_features`` by everything they read (``View.figure``)."""
        self.rows: dict[tuple[Any, ...], bytes] = {}
        """Table rows by everything they read (``View.row``)."""
        self.chain_rows: dict[tuple[Any, ...], bytes] = {}
        """Chain rows by everything they read (``_chain_block``)."""

    def hand_block(self, cards: list[Card], hand: list[int]) -> bytes:
        """The rows of a hand holding ``hand``'s iids (at most ``MAX_HAND``, unpadded)."""
        return self._block(self.hands, cards, hand, self._hand)

    def count_blocks(self, cards: list[Card], zones: Iterable[list[int]]) -> list[bytes]:
        """For each of ``zones``, copies of each pool card among its iids / 3, at most 1."""
        counts, made = self.counts, self._counts
        return [self._block(counts, cards, zone, made) for zone in zones]

    def cells(self, values: list[float]) -> bytes:
        """``values`` clipped to [-1, 1] as float32 bytes (remembered by value: a card's
        in-play cells repeat from position to position)."""
        key = tuple(values)
        cells = self.packed.get(key)
        if cells is None:
            cells = _kept(self.packed, key, _cells(len(key)).pack(*_clipped(values)))
        return cells

    def table_cells(self, inputs: TableInputs) -> list[bytes]:
        """The table features made of ``inputs`` (``table_inputs``) clipped to [-1, 1] as
        float32 bytes, in the runs of ``TABLE_PARTS``, each remembered by its inputs."""
        found = []
        for cache, part, made in zip(self.tables, inputs, TABLE_PARTS, strict=True):
            cells = cache.get(part)
            if cells is None:
                values = _clipped(made(part))
                cells = _kept(cache, part, _cells(len(values)).pack(*values))
            found.append(cells)
        return found

    @staticmethod
    def _block(cache: dict[int, Any], cards: list[Card], zone: list[int],
               made: Callable[[list[Card], list[int]], bytes]) -> bytes:  # fmt: skip
        """``made(cards, zone)``, remembered in ``cache`` while ``zone`` holds the same."""
        cached = cache.get(id(zone))
        if cached is None or cached[0] is not zone or cached[1] is not cards or cached[2] != zone:
            cached = _kept(cache, id(zone), (zone, cards, zone[:], made(cards, zone)))
        return cached[3]

    def _hand(self, cards: list[Card], hand: list[int]) -> bytes:
        return b"".join([self.hand[cards[iid].index] for iid in hand[:MAX_HAND]])

    def _counts(self, cards: list[Card], zone: list[int]) -> bytes:
        copies = [0] * self.size
        for iid in zone:
            copies[cards[iid].index] += 1
        return _cells(self.size).pack(*[min(n / 3, 1.0) for n in copies])


V = TypeVar("V")


def _kept(cache: dict[Any, V], key: Any, value: V) -> V:
    """``value`` stored in ``cache`` under ``key``, the cache emptied first when full."""
    if len(cache) >= CACHE_SIZE:
        cache.clear()
    cache[key] = value
    return value


POOL_ROWS = "encoder_rows"
"""The key of the encoders' ``PoolRows`` in ``HkkGame.derived``."""


def pool_rows(game: HkkGame) -> PoolRows:
    """The ``PoolRows`` of ``game``, made at its first encoding and kept in its
    ``derived`` (its pool and so its rows never change; they go with the game)."""
    rows: PoolRows | None = game.derived.get(POOL_ROWS)
    if rows is None:
        rows = game.derived[POOL_ROWS] = PoolRows(game.pool)
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


NO_COMBAT = [0.0] * 6


def _combat_marks(fight: Fight, iid: int) -> list[float]:
    """Attacks the player, a card, attacked by, strikes back, struck back by its target
    (the defender's choice of HK-6.2, public), moved in the swap."""
    aim = fight.attacks.get(iid)
    return [
        1.0 if aim == PLAYER else 0.0,
        1.0 if aim is not None and aim != PLAYER else 0.0,
        len(fight.attackers_of(iid)) / 2,
        1.0 if iid in fight.strikes_back else 0.0,
        1.0 if aim is not None and fight.strikes_back.get(aim) == iid else 0.0,
        1.0 if iid in fight.moved else 0.0,
    ]


Figures = tuple[float, int, list[float]]
"""A card's damage now / 10, its life now (a building's structure) and the abilities it
holds now as features (``figure_features``)."""
NO_HELD = [0.0] * 15


def still_figures(card: Card) -> Figures:
    """What ``play_features`` takes from ``figures`` for a card that is no creature: a
    building's structure (``figures.life``), nothing else."""
    return 0.0, card.structure if card.TYPE == "building" else 0, NO_HELD  # type: ignore[attr-defined]


def figure_features(state: HkkState, entry: InPlay) -> Figures:
    """What ``play_features`` takes from ``figures`` for a creature."""
    held = figures.held(state, entry)
    held_features = [*_abilities(held), held.regeneration / 5]
    return figures.damage(state, entry) / 10, figures.life(state, entry), held_features


def play_features(entry: InPlay, figure: Figures, marks: tuple[Any, ...]) -> list[float]:
    """``PLAY_FEATURES`` of a card on a table with its ``figure_features``; ``marks``: the
    chain's targets, the pending decision's subject, the shielded iids, the combat, the
    creatures that may regenerate now (HK-7.9), the table's positions by iid and how many
    cards lie on each card of it (by iid)."""
    targets, subject, shielded, fight, wounds, positions, riders = marks
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
        1.0 if iid in wounds else 0.0,
        *held,
    ]


SHOWN_MARKS = operator.attrgetter(
    "iid", "card.index", "active", "area", "host", "counters", "levels", "boost"
)
"""What a ``View`` is made of per card in play: its card by pool index (an iid may be
another card in another game of the same setup) and the marks the engine counts changes
of (``zones.FIGURE_MARKS``), which the figures and the tables' layout read."""
IID, CARD, ACTIVE, AREA, HOST = range(5)
FIGURE_INPUTS = operator.itemgetter(IID, CARD, AREA, 5, 6, 7)
"""What a creature's figures read of its own ``SHOWN_MARKS``: iid (cards attached to it),
card, area (groups), counters, levels and boost (``active`` and ``host`` are read of the
cards giving effects only)."""
PASSING_MARKS = operator.attrgetter("damage", "poison", "regenerated", "breathed")
"""The other marks of a card in play (no figure reads them, the engine counts no change of
them): read at every encoding."""
NO_IIDS: frozenset[int] = frozenset()
UNMARKED = (NO_IIDS, None, NO_IIDS, None, NO_IIDS)
"""No card has a mark of the chain, the pending decision, a shield, the combat or a fresh
wound."""


def _marks_of(iid: int, marks: tuple[Any, ...]) -> tuple[Any, ...] | None:
    """What card ``iid``'s row reads of ``marks`` (``_marked``), as a key."""
    if marks is UNMARKED:
        return None
    targets, subject, shielded, fight, wounds = marks
    combat = None if fight is None else tuple(_combat_marks(fight, iid))
    return iid in targets, iid == subject, iid in shielded, combat, iid in wounds


class View:
    """Both tables as a position shows them, made once for each distinct key (``view``:
    the cards on each table with their ``SHOWN_MARKS``, and whose turn it is): each card's
    figures, the tables' positions and riders, the players' limits, and each table's rows
    without marks of the chain, the pending decision, shields and combat, per position
    column, made again when the ``PASSING_MARKS`` they were made with changed. Any state
    with the same key shows the same, so it serves them all."""

    __slots__ = ("marks", "positions", "riders", "contexts", "limits", "_blocks")

    def __init__(self, state: HkkState, pool: PoolRows, marks: tuple[tuple[Any, ...], ...]) -> None:
        self.marks = marks
        """Each table's ``SHOWN_MARKS`` per card (the whole table)."""
        self.positions = tuple({m[IID]: i for i, m in enumerate(table)} for table in marks)
        """Each table's positions by iid."""
        self.riders = tuple(_riders(table) for table in marks)
        """How many cards lie on each card (by iid), per table."""
        sources = tuple((side, m[IID], m[CARD], m[HOST], m[AREA])
                        for side, table in enumerate(marks) for m in table
                        if m[ACTIVE] and pool.sourcing[m[CARD]])  # fmt: skip
        self.contexts = tuple((seat, seat == state.active, sources) for seat in (0, 1))
        """What each table's creatures' figures read beyond their own marks: their seat,
        whether it moves (HK-4.3) and the active cards giving continuous effects."""
        self.limits = pool.limits.get(sources)
        """Magic point limits and guard post places of seats 0 and 1 (they read the
        sources only, so they are remembered by them)."""
        if self.limits is None:
            self.limits = _kept(pool.limits, sources, (
                figures.vp_limit(state, 0), figures.vp_limit(state, 1),
                figures.guard_size(state, 0), figures.guard_size(state, 1),
            ))  # fmt: skip
        self._blocks: dict[tuple[int, int], tuple[tuple[Any, ...], list[bytes], bytes]] = {}

    def figure(self, state: HkkState, pool: PoolRows, seat: int, entry: InPlay,
               shown: tuple[Any, ...]) -> Figures:  # fmt: skip
        """``figure_features`` of ``entry`` (``shown``: its ``SHOWN_MARKS``) on ``seat``'s
        table in ``state``: a creature's remembered by what they read (its
        ``FIGURE_INPUTS`` and its table's context), asked of the engine only when new
        (asked only for a row not made before)."""
        still = pool.still[shown[CARD]]
        if still is not None:
            return still
        key = (self.contexts[seat], FIGURE_INPUTS(shown))
        found = pool.figures.get(key)
        if found is None:
            found = _kept(pool.figures, key, figure_features(state, entry))
        return found

    def rows(self, state: HkkState, seat: int, position: int, pool: PoolRows,
             entries: list[InPlay]) -> tuple[list[bytes], bytes]:  # fmt: skip
        """Each encoded card's row on ``seat``'s table with position column ``position``
        (1 own, 2 enemy) and no marks, and the rows joined with the padding to
        ``MAX_TABLE`` rows; ``entries``: the table of ``state``, encoded now (those of the
        state the view was made from may have changed since)."""
        passing = tuple(map(PASSING_MARKS, entries))
        found = self._blocks.get((seat, position))
        if found is None or found[0] != passing:
            rows = [self.row(state, seat, position, i, pool, entry, passing[i])
                    for i, entry in enumerate(entries)]  # fmt: skip
            block = b"".join((*rows, NO_ROWS[MAX_TABLE - len(rows)]))
            found = self._blocks[seat, position] = (passing, rows, block)
        return found[1], found[2]

    def row(self, state: HkkState, seat: int, position: int, i: int, pool: PoolRows,
            entry: InPlay, passing: tuple[Any, ...], marks: tuple[Any, ...] = UNMARKED,
            ) -> bytes:  # fmt: skip
        """The row of card ``i`` (``entry``, with ``passing``: its ``PASSING_MARKS``) of
        ``seat``'s table with ``marks`` (``_marked``), remembered by what it reads: its
        ``SHOWN_MARKS`` and ``PASSING_MARKS``, its host's position, its riders, its
        figures' context and its marks of the chain, the pending decision, shields and
        combat."""
        own = self.marks[seat][i]
        host = self.positions[seat].get(own[HOST])
        riders = self.riders[seat].get(own[IID], 0)
        context = None if pool.still[own[CARD]] is not None else self.contexts[seat]
        key = (position, own, passing, host, riders, context, _marks_of(own[IID], marks))
        row = pool.rows.get(key)
        if row is None:
            figure = self.figure(state, pool, seat, entry, own)
            row = _kept(pool.rows, key, self._made_row(seat, position, pool, entry, figure, marks))
        return row

    def _made_row(self, seat: int, position: int, pool: PoolRows, entry: InPlay,
                  figure: Figures, marks: tuple[Any, ...]) -> bytes:  # fmt: skip
        marks = (*marks, self.positions[seat], self.riders[seat])
        cells = pool.cells(play_features(entry, figure, marks))
        return pool.table[position, entry.area][entry.card.index] + cells + NO_CHAIN


def _riders(marks: tuple[tuple[Any, ...], ...]) -> dict[int, int]:
    """How many cards lie on each card of a table (by iid)."""
    riders: dict[int, int] = {}
    for m in marks:
        host = m[HOST]
        if host is not None:
            riders[host] = riders.get(host, 0) + 1
    return riders


def view(state: HkkState, pool: PoolRows) -> View:
    """The ``View`` of ``state``'s tables, made when no state with the same cards, shown
    marks and turn was encoded since the cache was last emptied. The state encoded last
    finds its view by the engine's counts alone while they stay (``_stamp``)."""
    stamp = _stamp(state)
    last = pool.last
    if last is not None and last[0] is state and last[1] == stamp:
        return last[2]
    marks = (tuple(map(SHOWN_MARKS, state.tables[0])), tuple(map(SHOWN_MARKS, state.tables[1])))
    key = (state.active, marks)
    found = pool.views.get(key)
    if found is None:
        found = _kept(pool.views, key, View(state, pool, marks))
    pool.last = (state, stamp, found)
    return found


def _stamp(state: HkkState) -> tuple[int, int]:
    """What changes whenever the key of ``state``'s ``View`` may have: the comings and
    goings on the tables and the changes of the marks of ``zones.FIGURE_MARKS``
    (``Table.version``), and whose turn it is. The version only grows while the state
    lives, so an equal stamp of the same state is the same key."""
    return state.table.version, state.active


Marked = tuple[frozenset[int], tuple[Any, ...]]
"""What ``_marked`` finds."""
NOTHING_MARKED: Marked = (NO_IIDS, UNMARKED)


def _marked(state: HkkState) -> Marked:
    """The iids with a mark of the chain, the pending decision, a shield, the combat or a
    fresh wound (their rows are made anew), and those marks as ``play_features`` takes
    them."""
    fight, wounds = state.fight, state.wounds
    if (fight is None and state.choice is None and not state.stack.items and not state.shields
            and not wounds):  # fmt: skip
        return NOTHING_MARKED
    targets, subject = _chain_targets(state), _choice_subject(state)
    shielded = {iid for _, iid in state.shields}
    marked = targets | shielded | wounds
    if subject is not None:
        marked.add(subject)
    if fight is not None:
        # attackers_of(iid) is empty unless iid is aimed at: no combat mark otherwise.
        marked.update(fight.attacks, fight.attacks.values(), fight.strikes_back, fight.moved)
    return frozenset(marked), (targets, subject, shielded, fight, frozenset(wounds))


def _table_block(state: HkkState, now: View, seat: int, position: int, pool: PoolRows,
                 found: Marked, out: list[bytes]) -> None:  # fmt: skip
    """Append ``seat``'s ``MAX_TABLE`` table rows to ``out``: ``now``'s rows (``state``'s
    view), made anew for a card that ``found`` (``_marked``) names."""
    marked, marks = found
    entries = state.tables[seat][:MAX_TABLE]
    rows, block = now.rows(state, seat, position, pool, entries)
    if not marked or marked.isdisjoint(now.positions[seat]):
        out.append(block)
        return
    for i, entry in enumerate(entries):
        if entry.iid in marked:
            out.append(now.row(state, seat, position, i, pool, entry, PASSING_MARKS(entry), marks))
        else:
            out.append(rows[i])
    out.append(NO_ROWS[MAX_TABLE - len(rows)])


def _where(iid: int, sides: tuple[dict[int, int], dict[int, int]]) -> tuple[str, int]:
    """("own" | "enemy", table position) of a card on a table, else ("", -1); ``sides``:
    the observer's and the other table's positions by iid."""
    for side, positions in zip(("own", "enemy"), sides, strict=True):
        position = positions.get(iid)
        if position is not None:
            return side, position
    return "", -1


def chain_inputs(state: HkkState, depth: int, item: Any, sides: tuple[dict[int, int], ...],
                 decider: int | None) -> tuple[Any, ...]:  # fmt: skip
    """What the ``CHAIN_FEATURES`` of the chain item ``depth`` places below the top are made
    of (the key its row is remembered by); ``sides``: the observer's and the other table's
    positions by iid; ``decider``: the seat deciding now."""
    play = item.what
    side, position = _where(play.target, sides) if play.target is not None else ("", -1)
    source_side, _ = _where(play.iid, sides)
    shielded = any(shield[0] == play for shield in state.shields)
    return (play.ability, depth, side, position, play.target is None, not source_side,
            decider == item.controller, shielded)  # fmt: skip


def chain_features(inputs: tuple[Any, ...]) -> list[float]:
    """``CHAIN_FEATURES`` made of ``chain_inputs``."""
    ability, depth, side, position, no_target, off_table, decides, shielded = inputs
    return [
        float(ability < 0),
        float(ability >= 0),
        max(ability + 1, 0) / 3,
        depth / CHAIN_ROWS,
        float(side == "own"),
        float(side == "enemy"),
        float(not no_target and not side),
        (position + 1) / MAX_TABLE,
        float(off_table),
        float(depth > 0),
        float(decides),
        float(no_target),
        float(shielded),
    ]


def _chain_block(state: HkkState, player: int, now: View, rows: PoolRows,
                 out: list[bytes]) -> None:  # fmt: skip
    """Append the ``CHAIN_ROWS`` chain rows, top first, to ``out`` (``now``: ``state``'s
    view), each remembered by its card, its position column and ``chain_inputs``."""
    items = state.stack.items[::-1][:CHAIN_ROWS]
    if items:
        cards, decider = state.table.cards, state.player
        sides = (now.positions[player], now.positions[1 - player])
        for depth, item in enumerate(items):
            position = 3 if item.controller == player else 4
            card = cards[item.what.iid].index
            key = (position, card, chain_inputs(state, depth, item, sides, decider))
            row = rows.chain_rows.get(key)
            if row is None:
                cells = rows.cells(chain_features(key[2]))
                row = _kept(rows.chain_rows, key, rows.chain[position][card] + NO_PLAY + cells)
            out.append(row)
    out.append(NO_ROWS[CHAIN_ROWS - len(items)])


def card_blocks(state: HkkState, player: int, now: View, rows: PoolRows,
                out: list[bytes]) -> None:  # fmt: skip
    """Append the ``CARD_ROWS`` x ``WIDTH`` card rows of ``player``'s view to ``out`` as
    float32 bytes (``now``: ``state``'s ``View``)."""
    hand = state.hands[player]
    out += (rows.hand_block(state.table.cards, hand), NO_ROWS[MAX_HAND - min(len(hand), MAX_HAND)])
    marked = _marked(state)
    _table_block(state, now, player, 1, rows, marked, out)
    _table_block(state, now, 1 - player, 2, rows, marked, out)
    _chain_block(state, player, now, rows, out)


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


PAIR_SCALES = (20, 20, 20, 40, 10, 10, 6, MAX_HAND, 40, 40, 40)
"""The scales of the (own, enemy) pairs that open ``TABLE_FEATURES``, in order."""
PAIRS = 2 * len(PAIR_SCALES)


TableInputs = tuple[tuple[Any, ...], tuple[Any, ...], tuple[int, int], tuple[Any, ...] | None]
"""``table_inputs``: what each of ``TABLE_PARTS`` is made of."""


def table_inputs(state: HkkState, player: int, limits: tuple[int, ...]) -> TableInputs:
    """What ``player``'s ``TABLE_FEATURES`` are made of, as plain numbers, flags, the
    pending decision's class and the chain top's effects (which hash by identity), in the
    four parts of ``TABLE_PARTS``: the keys their cells are remembered by, apart because a
    step changes one or two (the flags' few values recur; the turn would make a key of
    all of them new at every turn). ``limits``: the magic point limits and guard post
    places of seats 0 and 1 (``View.limits``)."""
    enemy = 1 - player
    live = state.winner is None
    stack = state.stack
    top = None
    if stack:
        play = stack.top.what
        top = plays.effects_of(state.card(play.iid), play.ability)
    pairs = (
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
    )  # fmt: skip
    flags = (
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
    )  # fmt: skip
    return pairs, flags, (state.quiet_turns, state.turn), top


def _pair_features(pairs: tuple[int, ...]) -> list[float]:
    return [value / PAIR_SCALES[i // 2] for i, value in enumerate(pairs)]


def _flag_features(flags: tuple[Any, ...]) -> list[float]:
    phase, my_turn, my_decision, my_priority, passes, saving, chain, choice, queued, fight = flags
    return [
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
    ]


def _clock_features(clock: tuple[int, int]) -> list[float]:
    quiet_turns, turn = clock
    return [quiet_turns / 10, turn / 100]


TABLE_PARTS: tuple[Callable[[Any], list[float]], ...] = (
    _pair_features, _flag_features, _clock_features, _chain_top,
)  # fmt: skip
"""The ``TABLE_FEATURES`` in four runs, each made of its part of ``table_inputs``."""


def _table_cells(state: HkkState, player: int, now: View, rows: PoolRows) -> list[bytes]:
    return rows.table_cells(table_inputs(state, player, now.limits))


def _counted_zones(state: HkkState, player: int) -> tuple[list[int], ...]:
    """The zones counted per card: the own deck (its contents are known, not its order),
    both discard piles and both Voids."""
    enemy = 1 - player
    return (state.decks[player], state.discards[player], state.discards[enemy],
            state.voids[player], state.voids[enemy])  # fmt: skip


class FlatEncoder:
    """One float32 vector; ``flat_layout(pool)`` documents its slices."""

    name = "flat"
    version = 1

    def shape(self, game: HkkGame) -> tuple[int, ...]:
        return (TABLE_SIZE + CARD_ROWS * WIDTH + len(COUNT_BLOCKS) * len(game.pool.cards),)

    def encode(self, state: HkkState, player: int) -> np.ndarray:
        rows = pool_rows(state.game)
        now = view(state, rows)
        out = _table_cells(state, player, now, rows)
        card_blocks(state, player, now, rows, out)
        cards = state.table.cards
        out += rows.count_blocks(cards, _counted_zones(state, player))
        return np.frombuffer(bytearray().join(out), dtype=np.float32)


def count_rows(game: HkkGame) -> int:
    """Rows of the entity encoder holding the flat encoder's counts (``COUNT_BLOCKS``)."""
    return -(-len(COUNT_BLOCKS) * len(game.pool.cards) // WIDTH)


class EntityEncoder:
    """Rows 0-71: card positions (``ROW_BLOCKS``), each a position one-hot, an area
    one-hot, the card's data, its marks in play and its chain item; then ``TABLE_ROWS``
    rows holding ``TABLE_FEATURES`` flattened and zero-padded; then ``count_rows`` rows
    holding the counts of ``COUNT_BLOCKS`` (the own deck's contents, both discard piles
    and both Voids, public by HK-11.1) flattened and zero-padded. Empty positions are all
    zeros."""

    name = "entity"
    version = 1

    def shape(self, game: HkkGame) -> tuple[int, ...]:
        return (CARD_ROWS + TABLE_ROWS + count_rows(game), WIDTH)

    def encode(self, state: HkkState, player: int) -> np.ndarray:
        rows = pool_rows(state.game)
        now = view(state, rows)
        out: list[bytes] = []
        card_blocks(state, player, now, rows, out)
        out += _table_cells(state, player, now, rows)
        out.append(TABLE_PADDING)
        out += rows.count_blocks(state.table.cards, _counted_zones(state, player))
        counts = len(COUNT_BLOCKS) * rows.size
        out.append(bytes(4 * (count_rows(state.game) * WIDTH - counts)))
        encoding = np.frombuffer(bytearray().join(out), dtype=np.float32)
        return encoding.reshape(self.shape(state.game))


ENCODERS = {"flat": FlatEncoder(), "entity": EntityEncoder()}
