"""HKK's reference encoders: what ``encoders.FlatEncoder`` and ``encoders.EntityEncoder``
give, read straight from the state with the engine's own figures (damage and life now,
the abilities held, the limits), nothing cached, top to bottom in the order of the layout
(``encoders``' docstring: card rows, table features, counts).

They are the encoders' specification: the fast ones remember views, rows and cells by what
they read and reuse them, which these never do, and
tests/hkk/test_hkk_reference_encoder.py holds the two equal at every step of the recorded
games for every seat. Slow: for tests only. The card's data features
(``encoders.static_features``) and the names, scales and sizes of the layout are the
encoders' own: they are the layout itself.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from tabletop.envs.hkk import figures, plays
from tabletop.envs.hkk.actions import MAX_HAND, MAX_TABLE
from tabletop.envs.hkk.cards import Card, Creature
from tabletop.envs.hkk.combat import PLAYER, StrikeBackChoice
from tabletop.envs.hkk.encoders import (
    AREAS,
    CHAIN_FEATURES,
    CHAIN_ROWS,
    CHOICES,
    FORMS,
    PAIR_SCALES,
    PLAY_FEATURES,
    POSITIONS,
    PRIMITIVES,
    SOURCES,
    TABLE_ROWS,
    WIDTH,
    count_rows,
    static_features,
)
from tabletop.envs.hkk.steps import PHASE_NAMES
from tabletop.envs.hkk.zones import InPlay

if TYPE_CHECKING:
    from tabletop.envs.hkk.engine import HkkState


def flat(state: HkkState, player: int) -> np.ndarray:
    """The flat encoder's vector: the table features, the card rows, the counts."""
    rows = _card_rows(state, player).reshape(-1)
    return np.concatenate([table_features(state, player), rows, _counts(state, player)])


def entity(state: HkkState, player: int) -> np.ndarray:
    """The entity encoder's matrix: the card rows, then the table features and then the
    counts, each flattened into zero-padded rows."""
    table = _padded(table_features(state, player), TABLE_ROWS)
    counts = _padded(_counts(state, player), count_rows(state.game))
    return np.concatenate([_card_rows(state, player), table, counts])


REFERENCES = {"flat": flat, "entity": entity}
"""The reference of each encoder of ``encoders.ENCODERS``, by name."""


def _clipped(values: list[float]) -> np.ndarray:
    """``values`` as float32 within [-1, 1], the encoders' range."""
    return np.clip(np.array(values, dtype=np.float32), -1.0, 1.0)


def _padded(values: np.ndarray, rows: int) -> np.ndarray:
    """``values`` in ``rows`` rows of ``WIDTH``, filled up with zeros."""
    padded = np.zeros(rows * WIDTH, dtype=np.float32)
    padded[: len(values)] = values
    return padded.reshape(rows, WIDTH)


def _one_hot(index: Any, size: int) -> list[float]:
    return [float(index == i) for i in range(size)]


def _named(names: tuple[str, ...], values: dict[str, float]) -> list[float]:
    """``values`` in the order of ``names``, 0 for a name not given."""
    unknown = set(values) - set(names)
    assert not unknown, f"not in the layout: {unknown}"
    return [values.get(name, 0.0) for name in names]


# ----- the table features ---------------------------------------------------------------------


def table_features(state: HkkState, player: int) -> np.ndarray:
    """``TABLE_FEATURES`` in their order."""
    seats = (player, 1 - player)
    live = state.winner is None
    pairs = [
        state.life, state.life_at_start, state.vp,
        [figures.vp_limit(state, seat) for seat in (0, 1)],
        state.components, state.turns_taken,
        [figures.guard_size(state, seat) for seat in (0, 1)],
        *([len(zone) for zone in zones]
          for zones in (state.hands, state.decks, state.discards, state.voids)),
    ]  # fmt: skip
    values = [pair[seat] / scale for pair, scale in zip(pairs, PAIR_SCALES, strict=True)
              for seat in seats]  # fmt: skip
    values += _one_hot(state.phase, len(PHASE_NAMES))
    values += [
        float(state.active == player and live),
        float(state.player == player and live),
        float(state.priority == player),
        state.passes / 2,
        float(bool(state.saving)),
        len(state.stack.items) / CHAIN_ROWS,
    ]
    values += [float(isinstance(state.choice, kind)) for _, kind in CHOICES]
    values.append(len(state.queued) / 4)
    values += _direct_damage(state, player)
    values += [state.quiet_turns / 10, state.turn / 100]
    values += _chain_top(state)
    return _clipped(values)


def _direct_damage(state: HkkState, player: int) -> list[float]:
    """The combat's figures: the observer declares, passes, direct damage declared (own,
    enemy), attacks on a player (on the observer, on the enemy)."""
    fight = state.fight
    if fight is None:
        return [0.0] * 6
    declared = [0, 0]
    for breath in fight.breaths:
        declared[breath.seat] += breath.amount
    on_player = sum(1 for aim in fight.attacks.values() if aim == PLAYER)
    attacked = [0, 0]  # the active player's creatures attack the other player (HK-6.2)
    attacked[1 - state.active] = on_player
    return [
        float(fight.declarer == player),
        fight.passes / 2,
        declared[player] / 10,
        declared[1 - player] / 10,
        attacked[player] / 3,
        attacked[1 - player] / 3,
    ]


def _chain_top(state: HkkState) -> list[float]:
    """1 for each primitive among the effects of the chain's top item."""
    if not state.stack:
        return [0.0] * len(PRIMITIVES)
    play = state.stack.top.what
    used = {effect.do for effect in plays.effects_of(state.card(play.iid), play.ability)}
    return [float(primitive in used) for primitive in PRIMITIVES]


# ----- card rows ----------------------------------------------------------------------------------


def _card_rows(state: HkkState, player: int) -> np.ndarray:
    """The own hand slots, the own and the enemy table's positions, the chain from its
    top: ``CARD_ROWS`` x ``WIDTH``, an empty position all zeros."""
    rows = np.zeros((0, WIDTH), dtype=np.float32)
    hand = [state.table.cards[iid] for iid in state.hands[player][:MAX_HAND]]
    blocks = [
        ([_hand_row(card) for card in hand], MAX_HAND),
        (_table_rows(state, player, "own table"), MAX_TABLE),
        (_table_rows(state, 1 - player, "enemy table"), MAX_TABLE),
        (_chain_rows(state, player), CHAIN_ROWS),
    ]
    for block, size in blocks:
        filled = np.array(block, dtype=np.float32).reshape(len(block), WIDTH)
        rows = np.concatenate([rows, filled, np.zeros((size - len(block), WIDTH), np.float32)])
    return rows


def _row(
    position: str, area: str | None, card: Card, play: np.ndarray, chain: np.ndarray
) -> list[float]:
    """A card row: its position and area one-hots, the card's data, its marks in play and
    its chain item (each clipped)."""
    return [
        *(float(p == position) for p in POSITIONS),
        *(float(a == area) for a in AREAS),
        *_clipped(static_features(card)),
        *play,
        *chain,
    ]


def _hand_row(card: Card) -> list[float]:
    return _row("own hand", None, card, np.zeros(len(PLAY_FEATURES)), np.zeros(len(CHAIN_FEATURES)))


def _table_rows(state: HkkState, seat: int, position: str) -> list[list[float]]:
    """The rows of the first ``MAX_TABLE`` cards on ``seat``'s table."""
    table = state.tables[seat]
    return [
        _row(position, entry.area, entry.card, _in_play(state, table, entry),
             np.zeros(len(CHAIN_FEATURES)))
        for entry in table[:MAX_TABLE]
    ]  # fmt: skip


def _in_play(state: HkkState, table: list[InPlay], entry: InPlay) -> np.ndarray:
    """``PLAY_FEATURES`` of ``entry``, a card of ``table``."""
    iid = entry.iid
    card = entry.card
    if isinstance(card, Creature):
        damage = figures.damage(state, entry)
        life = figures.life(state, entry)
        held = figures.held(state, entry)
    else:  # a card without figures of its own: a building has its structure
        damage, life, held = 0, card.structure if card.TYPE == "building" else 0, None
    hosts = [i for i, other in enumerate(table) if other.iid == entry.host]
    boost_damage, boost_life = entry.boost
    values = {
        "active": float(entry.active),
        "damage now / 10": damage / 10,
        "life now / 20": life / 20,
        "life left / 20": (life - entry.damage) / 20 if life else 0.0,
        "damage taken / 20": entry.damage / 20,
        "poison counters / 5": entry.poison / 5,
        "+1/+1 counters / 5": entry.counters / 5,
        "levels / 5": entry.levels / 5,
        "regenerated / 5": entry.regenerated / 5,
        "boost damage / 5": boost_damage / 5,
        "boost life / 5": boost_life / 5,
        "breathed": float(entry.breathed),
        "host position + 1 / 24": (hosts[0] + 1) / MAX_TABLE if hosts else 0.0,
        "cards attached / 5": sum(1 for other in table if other.host == iid) / 5,
        "subject of the pending decision": float(iid == _choice_subject(state)),
        "target on the chain": float(any(i.what.target == iid for i in state.stack.items)),
        "shielded by a body part": float(any(shielded == iid for _, shielded in state.shields)),
        "damage fresh enough to regenerate": float(iid in state.wounds),
        **_combat(state, iid),
        **(_held(held) if held is not None else {}),
    }
    return _clipped(_named(PLAY_FEATURES, values))


def _combat(state: HkkState, iid: int) -> dict[str, float]:
    """The card's part in the combat declared so far (HK-6.2) and the swap (HK-3.4)."""
    fight = state.fight
    if fight is None:
        return {}
    aim = fight.attacks.get(iid)
    return {
        "attacks the player": float(aim == PLAYER),
        "attacks a card": float(aim is not None and aim != PLAYER),
        "attacked by / 2": len(fight.attackers_of(iid)) / 2,
        "strikes back": float(iid in fight.strikes_back),
        "struck back by its target": float(aim is not None and fight.strikes_back.get(aim) == iid),
        "moved in the swap": float(iid in fight.moved),
    }


def _held(held: Any) -> dict[str, float]:
    """The abilities of HK-7 a creature holds now."""
    return {
        **{f"holds immunity to {form}": float(form in held.immunity) for form in FORMS},
        "holds magic attack": float(held.magic_attack),
        "holds magic defence": float(held.magic_defence),
        "holds poison / 3": held.poison / 3,
        "holds invisible": float(held.invisible),
        "holds sees invisible": float(held.sees_invisible),
        "holds flying": float(held.flying),
        "holds swimming": float(held.swimming),
        "holds regeneration / 5": held.regeneration / 5,
        "holds untargetable / 7": len(held.untargetable) / len(SOURCES),
        "holds unaffected / 7": len(held.unaffected) / len(SOURCES),
    }


def _choice_subject(state: HkkState) -> int | None:
    """The card the pending decision is about (a defender striking back, a building, a
    trigger's card, an item, an upkeep), if it names one."""
    choice = state.choice
    if isinstance(choice, StrikeBackChoice):
        return choice.defenders[0]
    return getattr(choice, "iid", None)


def _chain_rows(state: HkkState, player: int) -> list[list[float]]:
    """The first ``CHAIN_ROWS`` chain items from the top."""
    rows = []
    for depth, item in enumerate(reversed(state.stack.items)):
        if depth == CHAIN_ROWS:
            break
        position = "own chain item" if item.controller == player else "enemy chain item"
        card = state.card(item.what.iid)
        chain = _chain_item(state, player, depth, item)
        rows.append(_row(position, None, card, np.zeros(len(PLAY_FEATURES)), chain))
    return rows


def _chain_item(state: HkkState, player: int, depth: int, item: Any) -> np.ndarray:
    """``CHAIN_FEATURES`` of the chain item ``depth`` places below the top."""
    play = item.what
    side, position = _on_table(state, player, play.target)
    source_side, _ = _on_table(state, player, play.iid)
    ability = play.ability
    no_target = play.target is None
    values = {
        "a card played": float(ability < 0),
        "an ability": float(ability >= 0),
        "ability number / 3": max(ability + 1, 0) / 3,
        "depth from the top / 8": depth / CHAIN_ROWS,
        "targets an own table card": float(side == "own"),
        "targets an enemy table card": float(side == "enemy"),
        "targets a discarded card": float(not no_target and side is None),
        "target position + 1 / 24": (position + 1) / MAX_TABLE if side else 0.0,
        "the card is not on a table": float(source_side is None),
        "answered by the item above": float(depth > 0),
        "controller decides now": float(state.player == item.controller),
        "has no target": float(no_target),
        "shielded": float(any(shield[0] == play for shield in state.shields)),
    }
    return _clipped(_named(CHAIN_FEATURES, values))


def _on_table(state: HkkState, player: int, iid: int | None) -> tuple[str | None, int]:
    """("own" | "enemy", position) of card ``iid`` on a table as ``player`` sees them,
    (None, -1) elsewhere."""
    for side, seat in (("own", player), ("enemy", 1 - player)):
        for position, entry in enumerate(state.tables[seat]):
            if iid is not None and entry.iid == iid:
                return side, position
    return None, -1


# ----- counts -------------------------------------------------------------------------------------


def _counts(state: HkkState, player: int) -> np.ndarray:
    """Copies of each pool card / 3 (at most 1) in the own deck (its contents), the own
    and the enemy discard pile, the own and the enemy Void."""
    enemy = 1 - player
    zones = (state.decks[player], state.discards[player], state.discards[enemy],
             state.voids[player], state.voids[enemy])  # fmt: skip
    counts = np.zeros((len(zones), len(state.game.pool.cards)))
    for row, zone in enumerate(zones):
        for iid in zone:
            counts[row, state.card(iid).index] += 1
    return np.minimum(counts / 3, 1.0).astype(np.float32).reshape(-1)
