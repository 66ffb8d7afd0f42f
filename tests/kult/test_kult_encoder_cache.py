"""Kult's encoder caches: a seat's view is cached by the card kit's stamp of its cross
(renewed by the table with every change of its cards, their marks and the Influences on
them), the marks of the turn are read from the position, the hand rows and counts by the
instances they are read from, and each position keeps its observers' last encodings to
rewrite only what changed. Every cached view must equal the view computed afresh, along
random and heuristic games, for clones and determinizations that diverge from the position
they came from, and for positions edited by hand."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np
import pytest
from kult_positions import stacked

from tabletop.envs.kult import encoders
from tabletop.envs.kult.combat import Fight
from tabletop.envs.kult.encoders import ENCODERS
from tabletop.envs.kult.engine import KultGame, KultState
from tabletop.envs.kult.heuristic import KultHeuristic

PLAYERS = (2, 3, 4)


@contextmanager
def afresh() -> Iterator[None]:
    """Every encoding inside is computed without any cache or working copy."""
    encoders.CACHE_SEATS = False
    try:
        yield
    finally:
        encoders.CACHE_SEATS = True


def assert_views_fresh(state: KultState) -> None:
    """Every seat's view in both encoders, cached, equals the one computed afresh."""
    seats = range(state.game.num_players)
    cached = [ENCODERS[name].encode(state, seat) for name in ENCODERS for seat in seats]
    with afresh():
        fresh = [ENCODERS[name].encode(state, seat) for name in ENCODERS for seat in seats]
    for a, b in zip(cached, fresh, strict=True):
        assert a.dtype == b.dtype and np.array_equal(a, b)


def play(state: KultState, rng: random.Random, plies: int, smart: int | None = None) -> None:
    """``plies`` moves (or to the end): the heuristic at seat ``smart``, random elsewhere,
    checking every view after each."""
    heuristic = KultHeuristic()
    for _ in range(plies):
        if state.is_terminal():
            return
        player = state.current_player
        if player == smart:
            state.apply(heuristic.act(state, player))
        else:
            state.apply(rng.choice(state.legal_actions()))
        assert_views_fresh(state)


@pytest.mark.parametrize("players", PLAYERS)
def test_cached_views_equal_fresh_views_along_games(players: int) -> None:
    """Random games and games of the heuristic against random (fights, Influences, Hub
    targets reached), both game types, with and without the same-Arcanum swap."""
    rng = random.Random(players)
    for index, options in enumerate(({}, {"game_type": "world", "same_arcanum_swap": False})):
        game = KultGame(num_players=players, **options)
        state = game.new_state(seed=players * 10 + index)
        assert_views_fresh(state)
        play(state, rng, 400, smart=index % players)


@pytest.mark.parametrize("players", PLAYERS)
def test_a_diverging_clone_never_reads_the_originals_cache(players: int) -> None:
    """Clones share their position's stamps until one of them moves; from then on each
    one's views are its own, for both."""
    rng = random.Random(100 + players)
    state = KultGame(num_players=players).new_state(seed=players)
    for _ in range(12):
        play(state, rng, 17)
        clone = state.clone()
        assert clone.seat_stamps == state.seat_stamps
        assert_views_fresh(clone)
        play(clone, rng, 5)
        assert_views_fresh(state)
        play(state, rng, 3)
        assert_views_fresh(clone)


@pytest.mark.parametrize("players", PLAYERS)
def test_determinizations_are_encoded_afresh(players: int) -> None:
    """``resample_hidden`` gives new stamps: its views, and those of the original after
    it, equal views computed afresh, also once both have moved on."""
    rng = random.Random(200 + players)
    state = KultGame(num_players=players).new_state(seed=players + 7)
    for _ in range(10):
        play(state, rng, 23)
        if state.is_terminal():
            break
        for observer in range(players):
            other = state.resample_hidden(observer, random.Random(rng.getrandbits(32)))
            assert not set(other.seat_stamps) & set(state.seat_stamps)
            assert_views_fresh(other)
            play(other, rng, 4)
            assert_views_fresh(state)


def test_a_position_edited_by_hand_and_settled_is_encoded_afresh() -> None:
    """``settle`` after an edit the rules did not make renews every stamp."""
    state = stacked(
        {"cross": {5: {"card": "Street Prophet", "tokens": 1}, 2: "Old Cemetery"}},
        {"cross": {6: "Changeling"}},
        phase="actions",
    )  # fmt: skip
    assert_views_fresh(state)
    stamps = list(state.seat_stamps)
    state.crosses[0][4].tokens = 0
    state.crosses[0][1].face_up = False
    state.settle()
    assert not set(stamps) & set(state.seat_stamps)
    assert_views_fresh(state)


def test_marks_edited_by_hand_are_seen_without_settling() -> None:
    """A card's tokens and face are marks the kit counts (``zones.Base``): an edit by hand,
    with nothing said of it, renews its station's stamp alone, and every cached view
    shows it."""
    state = stacked(
        {"cross": {5: {"card": "Street Prophet", "tokens": 1}, 2: "Old Cemetery"}},
        {"cross": {6: "Changeling"}},
        phase="actions",
    )  # fmt: skip
    before = {name: [e.encode(state, seat) for seat in (0, 1)] for name, e in ENCODERS.items()}
    stamps = state.station_stamps
    state.crosses[0][4].tokens = 0
    state.crosses[1][5].face_up = False
    moved = {
        (seat, station)
        for seat in (0, 1)
        for station in range(8)
        if state.station_stamps[seat][station] != stamps[seat][station]
    }
    assert moved == {(0, 4), (1, 5)}
    assert_views_fresh(state)
    for name, encoder in ENCODERS.items():
        for seat in (0, 1):
            assert not np.array_equal(before[name][seat], encoder.encode(state, seat))


def test_the_marks_of_the_turn_are_read_from_the_position_itself() -> None:
    """Whether a station was recruited onto, used its push ability, attacks or defends is
    read from the position at every encoding (``KultState.station_marks``): set by hand,
    it shows in every cached view, and so does its clearing."""
    state = stacked(
        {"cross": {5: {"card": "Street Prophet", "tokens": 1}}},
        {"cross": {6: "Changeling"}},
        phase="actions",
    )  # fmt: skip
    edits = (
        lambda: state.invoked.add(4),
        lambda: state.recruited.add(4),
        lambda: setattr(state, "fight", Fight((0, 4), (1, 5))),
        lambda: setattr(state, "fight", None),
        state.recruited.clear,
        state.invoked.clear,
    )
    seen = [ENCODERS["flat"].encode(state, 1)]
    for edit in edits:
        edit()
        assert_views_fresh(state)
        seen.append(ENCODERS["flat"].encode(state, 1))
    assert all(not np.array_equal(a, b) for a, b in itertools.pairwise(seen))
    assert np.array_equal(seen[0], seen[-1])


def test_ku_11_1_declared_public_facts_show_though_the_position_is_cached() -> None:
    """Each public fact the game declares (a discard pile's contents, the tokens on a card,
    a Hub's and the Pool's tokens) changes every seat's view in both encoders, though the
    position's views were cached first: the kit renews a variant's stamps where it changed,
    and the entity encoder holds the discard piles (its v0 did not)."""
    state = stacked(
        {"cross": {5: {"card": "Street Prophet", "tokens": 1}, 2: "Old Cemetery"},
         "discard": ["Stray Cat"]},
        {"cross": {6: "Changeling"}, "discard": ["Stray Cat", "Changeling"]},
        phase="actions",
    )  # fmt: skip
    assert_views_fresh(state)
    variants = dict(state.game.public_fact_variants(state))
    assert set(variants) == {
        "discard 0 contents", "discard 1 contents", "tokens on a card of cross 0",
        "tokens on a card of cross 1", "hub 0 tokens", "hub 1 tokens", "pool tokens",
    }  # fmt: skip
    for fact, variant in variants.items():
        assert_views_fresh(variant)
        for name, encoder in ENCODERS.items():
            for seat in (0, 1):
                before, after = encoder.encode(state, seat), encoder.encode(variant, seat)
                assert not np.array_equal(before, after), (fact, name, seat)


def test_encodings_are_new_arrays_each_call() -> None:
    """The working copy stays the encoder's: what ``encode`` returns may be modified."""
    state = KultGame(num_players=2).new_state(seed=3)
    for name, encoder in ENCODERS.items():
        first = encoder.encode(state, 0)
        first[...] = -1.0
        second = encoder.encode(state, 0)
        assert not np.shares_memory(first, second), name
        with afresh():
            assert np.array_equal(second, encoder.encode(state, 0))


def cross_rows(state: KultState) -> np.ndarray:
    """Seat 0's entity view of every station, computed afresh (row ``seat * 8 + station``)."""
    geo = encoders.geometry(state.game.pool, state.game.num_players)
    with afresh():
        return ENCODERS["entity"].encode(state, 0)[: geo.cross_rows]


@pytest.mark.parametrize("players", PLAYERS)
def test_a_station_whose_stamp_stays_keeps_its_row(players: int) -> None:
    """A station's stamp (the kit's, with its marks of the turn) changes only where its
    row may (a card leaving renews its station's, a turn's end drops the marks of the
    stations that recruited or used a push ability): every station whose stamp a move
    leaves as it was shows the same row after the move."""
    rng = random.Random(300 + players)
    heuristic = KultHeuristic()
    kept = 0
    for seed in range(2):
        state = KultGame(num_players=players).new_state(seed=seed)
        while not state.is_terminal() and state.plies < 300:
            before, stamps = cross_rows(state), [s[:] for s in state.station_stamps]
            player = state.current_player
            smart = player == seed % players
            state.apply(
                heuristic.act(state, player) if smart else rng.choice(state.legal_actions())
            )
            after = cross_rows(state)
            for seat in range(players):
                for station in range(8):
                    if state.station_stamps[seat][station] == stamps[seat][station]:
                        row = seat * 8 + station
                        assert np.array_equal(before[row], after[row]), (seat, station)
                        kept += 1
    assert kept > 1_000


def test_shared_rows_stay_as_made() -> None:
    """Hand slot rows and empty station rows are shared by every view and position: they
    are immutable bytes, equal after a game to those of a geometry made afresh."""
    state = KultGame(num_players=3).new_state(seed=5)
    play(state, random.Random(5), 120)
    geo = encoders.geometry(state.game.pool, 3)
    fresh = encoders.Geometry(state.game.pool, 3)
    assert geo.hand_slot_rows == fresh.hand_slot_rows
    assert all(isinstance(row, bytes) for rows in geo.hand_slot_rows for row in rows)
    assert geo.no_hand_slot == bytes(len(geo.no_hand_slot))
    for count in range(3):
        assert geo.empty_row(count) == fresh.empty_row(count)


@pytest.mark.parametrize("players", PLAYERS)
def test_each_part_of_the_table_features_shows_the_position_now(players: int) -> None:
    """The table features are written in parts, each only when it is another object than
    at the last encoding (constants while nothing is on, the last fight's part cached by
    its result and values, shared by positions and games): at every step the plies and
    the last fight read as the position has them, for every observer."""
    rng = random.Random(400 + players)
    heuristic = KultHeuristic()
    fights = 0
    for seed in range(2):
        state = KultGame(num_players=players).new_state(seed=seed)
        layout = {name: where for name, where, _ in encoders.flat_layout(state.game.pool, players)}
        while not state.is_terminal():
            player = state.current_player
            smart = player == seed % players
            state.apply(
                heuristic.act(state, player) if smart else rng.choice(state.legal_actions())
            )
            last = state.last_fight
            expected = np.zeros(len(encoders.FIGHT_RESULTS) + 2, dtype=np.float32)
            if last is not None and last.values is not None:
                expected[encoders.FIGHT_RESULTS.index(last.result)] = 1.0
                expected[-2:] = [last.values[0] / 5, last.values[1] / 5]
                fights += 1
            for seat in range(players):
                flat = ENCODERS["flat"].encode(state, seat)
                assert np.array_equal(flat[layout["last_fight"]], expected)
                plies = np.float32(state.plies / state.game.ply_limit)
                assert flat[layout["game"]][1] == plies
    assert fights > 50
