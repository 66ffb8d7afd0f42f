"""Kult's reference encoders: what ``encoders.FlatEncoder`` and ``encoders.EntityEncoder``
give, read straight from the state with the engine's own figures (holding limits, combat
values, keys, who may play a card), nothing cached, top to bottom in the order of the
layout (docs/games/kult.md, "Observations").

They are the encoders' specification: the fast ones reuse what they made before and write
only what changed, which these never do, and tests/kult/test_kult_reference_encoder.py
holds the two equal at every step of the recorded games for every seat. Slow: for tests
only. The card's data features (``encoders.static_features``) and the names of the row's
columns (``encoders.geometry``) are the encoders' own: they are the layout itself.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

import numpy as np

from tabletop.envs.kult import combat, crosses, plays
from tabletop.envs.kult.actions import CAST, MAX_HAND, SCENE, STATIONS
from tabletop.envs.kult.cards import BEING, Card
from tabletop.envs.kult.encoders import FIGHT_RESULTS, STATIC_NAMES, geometry, static_features
from tabletop.envs.kult.turns import OVER, PHASE_NAMES
from tabletop.envs.kult.zones import Base

if TYPE_CHECKING:
    from tabletop.envs.kult.engine import KultState


def flat(state: KultState, player: int) -> np.ndarray:
    """The flat encoder's vector: the table features, the cross rows and the hand rows,
    the discard counts and the unseen counts."""
    rows = [*_cross_rows(state, player), *_hand_rows(state, player)]
    values = [*table_features(state, player), *(v for row in rows for v in row)]
    return np.concatenate([np.array(values, dtype=np.float32), _counts(state, player)])


def entity(state: KultState, player: int) -> np.ndarray:
    """The entity encoder's matrix: a row per station of each cross and per hand slot,
    then the table features and then the counts, each flattened into zero-padded rows."""
    geo = geometry(state.game.pool, state.game.num_players)
    rows = np.array([*_cross_rows(state, player), *_hand_rows(state, player)], dtype=np.float32)
    table = _padded(np.array(table_features(state, player), dtype=np.float32), geo.width)
    counts = _padded(_counts(state, player), geo.width)
    return np.concatenate([rows, table, counts])


REFERENCES = {"flat": flat, "entity": entity}
"""The reference of each encoder of ``encoders.ENCODERS``, by name."""


def _padded(values: np.ndarray, width: int) -> np.ndarray:
    """``values`` in rows of ``width``, the last one filled up with zeros."""
    rows = -(-len(values) // width)
    padded = np.zeros(rows * width, dtype=np.float32)
    padded[: len(values)] = values
    return padded.reshape(rows, width)


def _one_hot(index: int | None, size: int) -> list[float]:
    return [float(index == i) for i in range(size)]


def _seats(state: KultState, player: int) -> list[int]:
    """The seats as ``player`` sees them: itself first, then in turn order."""
    players = state.game.num_players
    return [(player + k) % players for k in range(players)]


# ----- the table features ---------------------------------------------------------------------


def table_features(state: KultState, player: int) -> list[float]:
    """``pool_tokens`` … ``seats`` of the flat layout."""
    game = state.game
    values = [state.pool_tokens / game.tokens, game.target / 10, state.plies / game.ply_limit]
    values += _one_hot(state.phase, len(PHASE_NAMES))
    values.append(float(state.phase != OVER and state.player == player))
    values += _turn_state(state)
    values += _stepping_out(state, player)
    values += _fight(state, player)
    values += _last_fight(state)
    values += _pool_influences(state)
    for seat in _seats(state, player):
        values += _seat_block(state, seat)
    return values


def _turn_state(state: KultState) -> list[float]:
    """``turn_state`` and ``pending_push``."""
    pending = state.pending_push
    return [
        float(state.attacked),
        float(state.embargo),
        float(pending is not None),
        *(float(station in state.recruited) for station in CAST),
        *(float(station in state.invoked) for station in range(STATIONS)),
        *_one_hot(pending, STATIONS),
    ]


def _stepping_out(state: KultState, player: int) -> list[float]:
    players = state.game.num_players
    if state.pending_token is None:
        return [0.0] * (1 + players)
    seat = state.pending_token[0]
    return [1.0, *_one_hot((seat - player) % players, players)]


def _fight(state: KultState, player: int) -> list[float]:
    players = state.game.num_players
    fight = state.fight
    if fight is None:
        return [0.0] * (2 * players + 2 * len(CAST) + 5)
    values: list[float] = []
    for seat, station in (fight.attacker, fight.defender):
        values += _one_hot((seat - player) % players, players)
        values += [float(station == s) for s in CAST]
    attack, defence = combat.values(state, fight)
    return [*values, fight.bonus[0] / 5, fight.bonus[1] / 5, float(fight.cancelled),
            attack / 5, defence / 5]  # fmt: skip


def _last_fight(state: KultState) -> list[float]:
    last = state.last_fight
    if last is None or last.values is None:
        return [0.0] * (len(FIGHT_RESULTS) + 2)
    attack, defence = last.values
    return [*(float(last.result == r) for r in FIGHT_RESULTS), attack / 5, defence / 5]


def _modifier(card: Card, name: str) -> int:
    """What an Influence's modifier ``name`` (of ``STATIC_NAMES``) amounts to: its combat
    or holding bonus, or the keys it gives."""
    figures = {"combat": card.combat_bonus, "holds": card.holds_bonus, "keys": sum(card.key_bonus)}
    return figures[name]


def _pool_influences(state: KultState) -> list[float]:
    cards = [attachment.card for attachment in state.pool_influences]
    return [len(cards) / 3, *(sum(_modifier(c, name) for c in cards) / 3 for name in STATIC_NAMES)]


def _seat_block(state: KultState, seat: int) -> list[float]:
    """A seat block (``seat_layout``)."""
    cross, arcanum = state.crosses[seat], state.arcana[seat]
    window = state.window
    temp = state.temp_keys[seat]
    hub = crosses.hub_attachments(state, seat)
    return [
        float(state.phase != OVER and state.active == seat),
        float(window is not None and window.responder == seat),
        state.hub_tokens[seat] / state.game.target,
        _tokens(cross[s] for s in SCENE) / 4,
        _tokens(cross[s] for s in CAST) / 4,
        *(n / 4 for n in crosses.keys(state, seat)),
        *(n / 4 for n in temp),
        len(state.hands[seat]) / MAX_HAND,
        len(state.decks[seat]) / 30,
        len(state.discards[seat]) / 30,
        sum(a.card.combat_bonus for a in hub) / 3,
        sum(sum(a.card.key_bonus) for a in state.influences[seat]) / 3,  # Hub Influences give keys
        *(float(a is arcanum) for a in state.game.pool.arcana),
        arcanum.hierarchy / 20,
        arcanum.hand_size / 7,
    ]


def _tokens(bases: Iterable[Base | None]) -> int:
    return sum(base.tokens for base in bases if base is not None)


# ----- card rows ----------------------------------------------------------------------------------


def _row(state: KultState, card: Card | None, marks: dict[str, float]) -> list[float]:
    """A card row: the position and state columns by name (``marks``, the others 0) and
    the card's data (zeros without a card)."""
    geo = geometry(state.game.pool, state.game.num_players)
    unknown = set(marks) - {*geo.position_names, *geo.dynamic_names}
    assert not unknown, f"not in the layout: {unknown}"
    position = [marks.get(name, 0.0) for name in geo.position_names]
    data = static_features(card, geo.allegiances) if card is not None else [0.0] * geo.C
    return [*position, *data, *(marks.get(name, 0.0) for name in geo.dynamic_names)]


def _cross_rows(state: KultState, player: int) -> list[list[float]]:
    """Stations 1-8 of each seat's cross, the observer's first."""
    return [
        _station_row(state, player, k, seat, station)
        for k, seat in enumerate(_seats(state, player))
        for station in range(STATIONS)
    ]


def _station_row(state: KultState, player: int, k: int, seat: int, station: int) -> list[float]:
    marks = {"in a cross": 1.0, f"controller seat +{k}": 1.0, f"station {station + 1}": 1.0}
    marks["station Influences / 3"] = len(crosses.station_attachments(state, seat, station)) / 3
    base = state.crosses[seat][station]
    if base is None:
        return _row(state, None, marks)
    players = state.game.num_players
    on_card = crosses.attachments_on(state, seat, station)
    fight = state.fight
    attacking = fight is not None and fight.attacker == (seat, station)
    defending = fight is not None and not attacking and fight.defender == (seat, station)
    owner = (state.table.owners[base.iid] - player) % players
    active = seat == state.active
    marks |= {
        "face up": float(base.face_up),
        "tokens / 3": base.tokens / 3,
        "holding limit now / 3": crosses.holding_limit(state, seat, station) / 3,
        "combat value now / 5": (
            crosses.combat_value(state, seat, station) / 5 if base.card.kind == BEING else 0.0
        ),
        f"owner seat +{owner}": 1.0,
        "Influences on it / 3": len(on_card) / 3,
        "their combat / 3": sum(a.card.combat_bonus for a in on_card) / 3,
        "their holds / 3": sum(a.card.holds_bonus for a in on_card) / 3,
        "recruited onto this turn": float(active and station in state.recruited),
        "push ability used this turn": float(active and station in state.invoked),
        "attacking": float(attacking),
        "defending": float(defending),
    }
    return _row(state, base.card, marks)


def _hand_rows(state: KultState, player: int) -> list[list[float]]:
    """The observer's ``MAX_HAND`` hand slots, an empty one all zeros."""
    hand = state.hands[player]
    keys = crosses.keys(state, player)
    rows = []
    for slot in range(MAX_HAND):
        if slot >= len(hand):
            rows.append(_row(state, None, {}))
            continue
        card = state.table.cards[hand[slot]]
        marks = {"in hand": 1.0, "controller seat +0": 1.0, "owner seat +0": 1.0}
        marks["playable now (own hand: allegiance, keys, unique)"] = float(
            plays.may_play(state, player, card, keys)
        )
        rows.append(_row(state, card, marks))
    return rows


# ----- counts -------------------------------------------------------------------------------------


def _counts(state: KultState, player: int) -> np.ndarray:
    """Copies of each pool card / 3 in each seat's discard pile (the observer's first),
    then among the observer's unseen cards: its deck and its Hub card."""
    zones = [state.discards[seat] for seat in _seats(state, player)]
    zones.append([*state.decks[player], *state.hub_cards[player]])
    size = len(state.game.pool.cards)
    counts = np.zeros((len(zones), size), dtype=np.float32)
    for row, zone in enumerate(zones):
        for iid in zone:
            counts[row, state.table.cards[iid].index] += 1
    return (counts / 3).reshape(-1)
