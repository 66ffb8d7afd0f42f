"""HKK's encoders reuse what they made before (both tables' views by their cards and marks,
each table row, chain row and creature's figures by what it reads, hand and count blocks
by zone contents, clipped cells and table features by value): every encoding must equal
one made from nothing, whatever changed in between, and each must be a new writable
array."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hkk_positions import on_table, stacked

from tabletop.envs.hkk import encoders
from tabletop.envs.hkk.encoders import ENCODERS, OWN_ROW, PLAY_AT, PLAY_FEATURES
from tabletop.envs.hkk.engine import HkkGame, HkkState
from tabletop.envs.hkk.zones import InPlay


def fresh(state: HkkState, player: int, name: str) -> np.ndarray:
    """``player``'s encoding of a copy of ``state`` (nothing remembered with it) by
    encoders with nothing cached; the game's caches are put back after."""
    game = state.game
    kept = encoders.pool_rows(game)
    del game.derived[encoders.POOL_ROWS]
    try:
        return ENCODERS[name].encode(state.clone(), player)
    finally:
        game.derived[encoders.POOL_ROWS] = kept


def assert_same(state: HkkState, player: int, name: str) -> None:
    encoding = ENCODERS[name].encode(state, player)
    assert encoding.tobytes() == fresh(state, player, name).tobytes()


@pytest.mark.parametrize(
    ("decks", "seed"),
    [(("skyfire", "venom"), 1), (("stronghold", "devourers"), 2), (("devourers", "skyfire"), 3)],
)
def test_encodings_equal_fresh_ones_along_random_games(decks: tuple[str, str], seed: int) -> None:
    game = HkkGame(decks=decks)
    state = game.new_state(seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        for player in (0, 1):
            for name in ENCODERS:
                ENCODERS[name].encode(state, player)  # remembered, then asked again
                assert_same(state, player, name)
        if rng.random() < 0.1:
            observer = rng.randrange(2)
            other = state.resample_hidden(observer, random.Random(rng.random()))
            assert_same(other, 1 - observer, "flat")
        state.apply(rng.choice(state.legal_actions()))


def knight_position() -> HkkState:
    knight = {"card": "Knight Errant", "counters": 1, "attached": ["Longsword"]}
    mine = {"guard": [knight, "Stray Wolf"], "hand": ["Fire Bolt"], "vp": 6}
    theirs = {"guard": ["Iron Golem"], "reserve": [{"card": "Mossback Troll", "active": False}]}
    return stacked([mine, theirs])


@pytest.mark.parametrize(
    ("mark", "value", "feature", "expected"),
    [
        ("damage", 2, "damage taken / 20", 0.1),
        ("poison", 1, "poison counters / 5", 0.2),
        ("regenerated", 1, "regenerated / 5", 0.2),
        ("breathed", True, "breathed", 1.0),
    ],
)
def test_marks_that_leave_figures_alone_are_read_anew(
    mark: str, value: object, feature: str, expected: float
) -> None:
    """Damage taken, poison, regeneration and breath change no figure, so the figures stay
    remembered: the rows made with them must still be made anew."""
    state = knight_position()
    for name in ENCODERS:
        ENCODERS[name].encode(state, 0)
        ENCODERS[name].encode(state, 1)
    setattr(on_table(state, 0, "Knight Errant"), mark, value)
    for player in (0, 1):
        for name in ENCODERS:
            assert_same(state, player, name)
    rows = ENCODERS["entity"].encode(state, 0)
    assert rows[OWN_ROW, PLAY_AT + PLAY_FEATURES.index(feature)] == np.float32(expected)


def test_each_encoding_is_a_new_writable_array() -> None:
    state = knight_position()
    for name, encoder in ENCODERS.items():
        first = encoder.encode(state, 0)
        assert first.flags.writeable
        first[...] = 7.0
        assert encoder.encode(state, 0).tobytes() == fresh(state, 0, name).tobytes()


NEW_MARKS = {
    "active": False, "area": "reserve", "host": None, "damage": 2, "poison": 1, "counters": 3,
    "levels": 1, "regenerated": 1, "boost": (1, 2), "breathed": True,
}  # fmt: skip
"""A new value for every mark of a card in play: a mark added to ``zones.InPlay`` must be
added here, and to what the encoders' caches are keyed by."""


@pytest.mark.parametrize("card", ["Knight Errant", "Longsword"])
@pytest.mark.parametrize("mark", sorted(set(InPlay.__slots__) - {"writes"}))
def test_a_change_of_any_mark_is_read_anew(card: str, mark: str) -> None:
    """Each mark, changed by hand, shows in both seats' encodings; the sword's change the
    knight's figures too (it gives them while active and attached)."""
    state = knight_position()
    for player in (0, 1):
        for name in ENCODERS:
            ENCODERS[name].encode(state, player)
    setattr(on_table(state, 0, card), mark, NEW_MARKS[mark])
    for player in (0, 1):
        for name in ENCODERS:
            assert_same(state, player, name)


def test_an_iid_holding_another_card_in_another_game_of_the_setup() -> None:
    """Stacked positions of one game give iid 0 to different cards: no row is reused."""
    wolf = stacked([{"guard": ["Stray Wolf"]}, {}])
    golem = stacked([{"guard": ["Iron Golem"]}, {}])
    assert wolf.tables[0][0].iid == golem.tables[0][0].iid
    for state in (wolf, golem, wolf):
        for player in (0, 1):
            for name in ENCODERS:
                assert_same(state, player, name)
    rows = [ENCODERS["entity"].encode(state, 0)[OWN_ROW] for state in (wolf, golem)]
    assert not np.array_equal(rows[0], rows[1])


def test_a_copy_left_behind_is_encoded_as_it_stands() -> None:
    """A copy made before moves, encoded between and after the original's encodings (the
    last state encoded finds its view by the engine's counts; the copy may not)."""
    game = HkkGame(decks=("stronghold", "venom"))
    state = game.new_state(5)
    rng = random.Random(5)
    copies = []
    for _ in range(150):
        if state.is_terminal():
            break
        if rng.random() < 0.1:
            copies.append(state.clone())
        for seen in (state, *copies[-2:]):
            for name in ENCODERS:
                assert_same(seen, rng.randrange(2), name)
        state.apply(rng.choice(state.legal_actions()))
