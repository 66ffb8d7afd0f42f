"""Kult's env: the registered module's options and metadata, the observation shapes per
player count, the encoders' layout and what they read (seats relative to the observer, the
own hand, never another hand or a Hub card), and the engine figures the flat rows repeat.
The generic checks (PettingZoo, masks, leaks against ``resample_hidden``, peeking agents,
options by name, clones, seeds, notation, golden playthroughs for 2, 3 and 4 players) run
in tests/test_conformance.py."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest
from kult_positions import stacked

from tabletop import envs
from tabletop.envs import kult_v0
from tabletop.envs.core.protocol import UnknownOptionError
from tabletop.envs.core.spec import Payoff
from tabletop.envs.kult import crosses, encoders
from tabletop.envs.kult.actions import MAX_HAND, NUM_ACTIONS, STATIONS
from tabletop.envs.kult.encoders import (
    ENCODERS,
    FLAT_SIZE,
    flat_layout,
    geometry,
    row_layout,
    seat_layout,
)
from tabletop.envs.kult.engine import DRAW, KultGame, KultState

PLAYERS = (2, 3, 4)


def random_states(players: int, games: int, seed: int, every: int = 7) -> list[KultState]:
    """Positions of random games, one every ``every`` plies (and each game's last)."""
    game, rng, states = KultGame(num_players=players), random.Random(seed), []
    for _ in range(games):
        state = game.new_state(seed=rng.getrandbits(32))
        while not state.is_terminal():
            if state.plies % every == 0:
                states.append(state.clone())
            state.apply(rng.choice(state.legal_actions()))
        states.append(state)
    return states


def part(name: str, players: int = 2) -> slice:
    return {feature: where for feature, where, _ in flat_layout(players=players)}[name]


# ----- the env module -------------------------------------------------------------------------


def test_spec_declares_a_general_sum_game_of_two_to_four_players() -> None:
    spec = envs.spec("kult")
    assert spec is kult_v0.SPEC and spec.env_name == "kult_v0"
    assert (spec.min_players, spec.max_players, spec.default_players) == (2, 4, 2)
    assert spec.payoff is Payoff.GENERAL_SUM and spec.competitive  # +1 -1 -1 sums to -1
    assert [o["num_players"] for o in spec.bench_options] == [2, 3, 4]
    assert spec.decks == ("lantern", "ash", "tide", "clock")
    assert set(spec.options) == {"num_players", "game_type", "same_arcanum_swap", "ply_limit",
                                 "pool", "decks", "shaped_reward"}  # fmt: skip


@pytest.mark.parametrize("players", PLAYERS)
def test_observation_and_action_spaces_per_player_count(players: int) -> None:
    expected = {2: ((3534,), (29, 123)), 3: ((4688,), (39, 125)), 4: ((5874,), (47, 127))}
    for encoder, shape in zip(("flat", "entity"), expected[players], strict=True):
        env = kult_v0.env(num_players=players, encoder=encoder)
        env.reset(seed=players)
        assert env.possible_agents == [f"player_{i}" for i in range(players)]
        for agent in env.possible_agents:
            assert env.observation_space(agent)["observation"].shape == shape
            assert env.action_space(agent).n == NUM_ACTIONS == 1321
        observation = env.observe(env.agent_selection)
        assert observation["observation"].shape == shape
        mask = observation["action_mask"]
        legal = env.unwrapped.game_state.legal_actions()
        assert np.flatnonzero(mask).tolist() == legal


def test_env_options_metadata_and_errors() -> None:
    env = kult_v0.env(num_players=3, decks=("clock", "ash", "tide"), game_type="world")
    env.reset(seed=1)
    state = env.unwrapped.game_state
    assert [a.name for a in state.arcana] == ["The Clockwork Saint", "The Ashen Matron",
                                              "The Dreaming Tide"]  # fmt: skip
    assert state.game.target == 10 and state.game.tokens == 29
    assert env.unwrapped.metadata["card_data_version"] == "Starter pool 1.1"
    assert env.unwrapped.metadata["name"] == "kult_v0"
    with pytest.raises(UnknownOptionError, match="players"):
        kult_v0.env(players=3)
    for bad, message in (
        ({"num_players": 5}, "num_players must be 2, 3 or 4"),
        ({"num_players": True}, "num_players"),
        ({"game_type": "galaxy"}, r"game_type must be one of \['continent', 'world'\]"),
        ({"same_arcanum_swap": "yes"}, "same_arcanum_swap"),
        ({"ply_limit": 0}, "ply_limit"),
        ({"shaped_reward": 1}, "shaped_reward must be a bool"),
        ({"decks": ("ash",)}, "one deck per player"),
        ({"decks": "ash,tide"}, "sequence of deck specs"),
    ):
        with pytest.raises(ValueError, match=message):
            kult_v0.SPEC.new_game(**bad)


def test_ku_9_1_the_ply_limit_reaches_the_game_through_the_env() -> None:
    """``ply_limit`` is the game's draw; ``max_plies`` stays the env's own truncation."""
    env = kult_v0.env(ply_limit=7, max_plies=50)
    env.reset(seed=3)
    assert env.unwrapped.game.ply_limit == 7 and env.unwrapped.max_plies == 50
    while env.agents:
        observation, _, termination, truncation, _ = env.last()
        assert not truncation
        env.step(None if termination else int(observation["action_mask"].nonzero()[0][0]))
    assert env.unwrapped.game_state.plies == 7 and env.unwrapped.game_state.winner == DRAW


def test_command_line_deck_values_build_the_game() -> None:
    """``--option decks=tide,ash`` arrives as a tuple of strings."""
    game = kult_v0.SPEC.new_game(decks=("tide", "ash"))
    assert [game.player_name(seat) for seat in (0, 1)] == ["The Dreaming Tide",
                                                           "The Ashen Matron"]  # fmt: skip


@pytest.mark.parametrize("players", PLAYERS)
def test_returns_are_plus_one_to_the_winner_and_minus_one_to_every_other(players: int) -> None:
    state = stacked({"hub": 4, "cross": {1: {"card": "Old Cemetery", "tokens": 1}}},
                    players=players, phase="attract")  # fmt: skip
    state.apply(state.string_to_action("attract Scene1>Hub"))
    assert state.is_terminal() and state.returns() == [1.0] + [-1.0] * (players - 1)


# ----- the encoders' layout -------------------------------------------------------------------


@pytest.mark.parametrize("players", PLAYERS)
def test_flat_layout_covers_the_vector_end_to_end(players: int) -> None:
    layout = flat_layout(players=players)
    assert layout[0][1].start == 0
    assert all(a[1].stop == b[1].start for a, b in itertools.pairwise(layout))
    game = KultGame(num_players=players)
    assert layout[-1][1].stop == ENCODERS["flat"].shape(game)[0]
    geo = geometry(game.pool, players)
    assert part("seats", players).stop - part("seats", players).start == players * (
        seat_layout()[-1][1].stop
    )
    assert row_layout(players=players)[-1][1].stop == geo.width
    assert part("cross_rows", players).stop - part("cross_rows", players).start == (
        players * STATIONS * geo.width
    )
    assert ENCODERS["flat"].shape(KultGame())[0] == FLAT_SIZE


def test_entity_rows_are_the_flat_rows_the_table_features_and_the_counts() -> None:
    """The entity matrix holds all the flat vector holds: the discard piles' contents are
    public (KU-11.1), and the entity encoder v0 had only their sizes."""
    for state in random_states(3, games=2, seed=5, every=23):
        for player in range(3):
            flat = ENCODERS["flat"].encode(state, player)
            entity = ENCODERS["entity"].encode(state, player)
            geo = geometry(state.game.pool, 3)
            rows = flat[part("cross_rows", 3).start : part("hand_rows", 3).stop]
            assert np.array_equal(entity[: geo.card_rows].reshape(-1), rows)
            table = entity[geo.card_rows :].reshape(-1)[: geo.table_size]
            assert np.array_equal(table, flat[: geo.table_size])
            counts = entity[geo.card_rows + geo.table_rows :].reshape(-1)
            flat_counts = flat[part("discard_counts", 3).start :]
            assert np.array_equal(counts[: len(flat_counts)], flat_counts)
            assert not counts[len(flat_counts) :].any()


def test_seats_are_relative_to_the_observer() -> None:
    state = stacked({"hub": 1}, {"hub": 2}, {"hub": 3}, phase="actions")
    seat = seat_layout()
    size = seat[-1][1].stop
    hub = {name: where for name, where, _ in seat}["hub"].start
    seats = part("seats", 3).start
    for observer in range(3):
        vector = ENCODERS["flat"].encode(state, observer)
        hubs = [vector[seats + k * size + hub] * state.game.target for k in range(3)]
        assert np.allclose(hubs, [(observer + k) % 3 + 1 for k in range(3)])


def test_card_rows_show_station_tokens_face_and_owner() -> None:
    state = stacked(
        {"cross": {5: {"card": "Street Prophet", "tokens": 1}, 2: {"card": "Old Cemetery",
                                                                   "face_up": False}}},
        {"cross": {6: "Changeling"}},
        phase="actions",
    )  # fmt: skip
    geo = geometry(state.game.pool, 2)
    rows = ENCODERS["entity"].encode(state, 1)[: geo.card_rows]
    dyn = geo.P + geo.C
    own_cast6, their_cast5, their_scene2 = rows[5], rows[STATIONS + 4], rows[STATIONS + 1]
    assert own_cast6[2] == 1 and own_cast6[2 + 2 + 5] == 1  # own cross, station 6
    assert their_cast5[3] == 1 and their_cast5[dyn] == 1 and their_cast5[dyn + 1] == 1 / 3
    assert their_scene2[dyn] == 0  # face down
    assert own_cast6[dyn + 4] == 1  # the Changeling: seat 1 owns it (and controls it)
    assert own_cast6[dyn + 3] == pytest.approx(-2 / 5)


# ----- what the encoders read -----------------------------------------------------------------


def _swap(state: KultState, zone_a: tuple[str, int], zone_b: tuple[str, int]) -> None:
    """Exchange the first card of two zones (a re-deal the observer cannot see)."""
    a, b = state.table.zones[zone_a[0]][zone_a[1]], state.table.zones[zone_b[0]][zone_b[1]]
    a[0], b[0] = b[0], a[0]


@pytest.mark.parametrize("encoder", sorted(ENCODERS))
@pytest.mark.parametrize("players", PLAYERS)
def test_views_ignore_other_hands_every_deck_order_and_every_hub_card(
    encoder: str, players: int
) -> None:
    """Other players' hands and Hub cards exchanged with their deck cards, and the own Hub
    card with an own deck card: nobody's view changes; the own hand changed: it does."""
    encoding = ENCODERS[encoder]
    changed = 0
    for state in random_states(players, games=2, seed=players, every=31):
        for observer in range(players):
            before = encoding.encode(state, observer)
            other = state.clone()
            for seat in range(players):
                if other.decks[seat]:
                    _swap(other, ("hub_card", seat), ("deck", seat))
                    other.decks[seat].reverse()
                if seat != observer and other.hands[seat] and other.decks[seat]:
                    _swap(other, ("hand", seat), ("deck", seat))
            assert np.array_equal(encoding.encode(other, observer), before)
            mine = state.clone()
            if mine.hands[observer] and mine.decks[observer]:
                _swap(mine, ("hand", observer), ("deck", observer))
                changed += not np.array_equal(encoding.encode(mine, observer), before)
    assert changed > 0


def test_unseen_counts_are_the_own_deck_and_hub_card_together() -> None:
    for state in random_states(2, games=2, seed=9, every=17):
        for player in (0, 1):
            counts = ENCODERS["flat"].encode(state, player)[part("unseen_counts")] * 3
            unseen = [state.card(i).index for i in state.decks[player] + state.hub_cards[player]]
            expected = np.bincount(unseen, minlength=len(state.game.cards))
            assert np.allclose(counts, expected)


def test_rows_and_seat_blocks_repeat_the_engines_figures() -> None:
    """Holding limits and combat values in the card rows, and the keys of every seat block
    (gathered in one pass over each cross), are the engine's figures."""
    keys = {name: where for name, where, _ in seat_layout()}["keys"]
    size = seat_layout()[-1][1].stop
    checked = 0
    for players in PLAYERS:
        seats = part("seats", players).start
        for state in random_states(players, games=2, seed=11, every=3):
            geo = geometry(state.game.pool, players)
            dyn = geo.P + geo.C
            rows = ENCODERS["entity"].encode(state, 0)
            flat = ENCODERS["flat"].encode(state, 0)
            for seat in range(players):
                block = flat[seats + seat * size :][keys] * 4
                assert np.allclose(block, crosses.keys(state, seat))
            for seat, station in itertools.product(range(players), range(STATIONS)):
                row, base = rows[seat * STATIONS + station], state.crosses[seat][station]
                if base is None:
                    continue
                limit = crosses.holding_limit(state, seat, station)
                assert row[dyn + 2] == np.float32(limit / 3)
                if base.card.kind == "being":
                    value = crosses.combat_value(state, seat, station)
                    assert row[dyn + 3] == np.float32(value / 5)
                checked += 1
    assert checked > 1_000


@pytest.mark.parametrize("players", PLAYERS)
def test_cached_seat_views_equal_views_computed_afresh(
    players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A seat's rows are reused while what they are read from is unchanged: every view of
    random games, ply by ply (so the cache is hit), equals the one computed without it."""
    states = random_states(players, games=3, seed=20 + players, every=1)
    cached = [[ENCODERS[e].encode(s, p) for e in ENCODERS for p in range(players)] for s in states]
    monkeypatch.setattr(encoders, "CACHE_SEATS", False)
    for state, views in zip(states, cached, strict=True):
        fresh = [ENCODERS[e].encode(state, p) for e in ENCODERS for p in range(players)]
        assert all(np.array_equal(a, b) for a, b in zip(views, fresh, strict=True))
    assert geometry(states[0].game.pool, players).seat_cache


def test_hand_rows_mark_the_cards_the_player_may_pay_for() -> None:
    state = stacked({"hand": ["Grave Hound", "Stray Cat", "Old Cemetery"]}, phase="actions")
    geo = geometry(state.game.pool, 2)
    rows = ENCODERS["entity"].encode(state, 0)[geo.cross_rows : geo.cross_rows + MAX_HAND]
    playable = rows[:3, geo.width - 1].tolist()
    assert playable == [0.0, 1.0, 1.0]  # Grave Hound needs two Skulls; the Lantern has none
    assert rows[3:].sum() == 0
