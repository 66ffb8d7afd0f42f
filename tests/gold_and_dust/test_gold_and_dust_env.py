"""Gold & Dust's own invariants in random games, resampling, its encoders' layout, its
options and user card files, the seats' names, and the baselines. The generic checks
(PettingZoo, masks, leaks, peeking agents, options by name, clones, seeds, notation, the
golden playthrough) run in tests/test_conformance.py."""

from __future__ import annotations

import itertools
import random
import shutil
from pathlib import Path

import numpy as np
import pytest

from tabletop.agents import RandomAgent, play_game
from tabletop.envs import gold_and_dust_v0
from tabletop.envs.core.cards.data import CardDataError
from tabletop.envs.core.checks import run_random_games
from tabletop.envs.gold_and_dust.cards import HEROES, data_path
from tabletop.envs.gold_and_dust.encoders import ENCODERS, FLAT_SIZE, flat_layout
from tabletop.envs.gold_and_dust.engine import DRAW, GoldDustGame, GoldDustState
from tabletop.envs.gold_and_dust.heuristic import GoldDustHeuristic

PAIRINGS = [("warrior", "mage"), ("thief", "merchant"), ("assassin", "warrior"),
            ("mage", "thief"), ("merchant", "assassin")]  # fmt: skip
"""Every hero plays both seats once."""


def card_invariants(state: GoldDustState) -> None:
    """GD-1.1: 41 cards per player in some zone; GD-1.3: hands of at most 5; HP never above
    the maximum; dead units never outlive the step they died in on the table. Every card
    instance is in exactly one zone position (the kit's conservation check)."""
    state.table.check_conservation()
    for player in (0, 1):
        assert state.cards_owned(player) == 41, state.render()
        assert len(state.hands[player]) <= 5, state.render()
        assert state.hp[player] <= state.heroes[player].hp, state.render()
        for unit in state.boards[player]:
            if unit is not None:
                assert 0 <= unit.hp <= unit.max_hp, state.render()
                assert unit.dead == (unit.hp == 0), state.render()


@pytest.mark.parametrize("decks", PAIRINGS)
def test_random_games_keep_every_invariant_and_end(decks: tuple[str, str]) -> None:
    summary = run_random_games(
        GoldDustGame(decks), games=200, seed=len(decks[0]), invariant=card_invariants,
        deep_check_fraction=0.02,
    )  # fmt: skip
    assert summary.games == 200  # 5 pairings: 1,000 games
    assert set(summary.outcomes()) <= {(1.0, -1.0), (-1.0, 1.0), (0.0, 0.0)}
    wins = summary.outcomes()
    assert wins[(1.0, -1.0)] > 0 and wins[(-1.0, 1.0)] > 0  # either seat can win
    assert max(stats["turns"] for stats in summary.stats) < 200


def test_resample_keeps_public_zones_and_redeals_hand_and_decks_together() -> None:
    state = GoldDustGame().new_state(seed=4)
    rng = random.Random(0)
    while state.turn < 6:
        state.apply(rng.choice(state.legal_actions()))
    observer = state.current_player
    opponent = 1 - observer
    seen = set()
    for _ in range(20):
        twin = state.resample_hidden(observer, rng)
        assert twin.hands[observer] == state.hands[observer]
        assert sorted(twin.decks[observer]) == sorted(state.decks[observer])
        unseen = sorted(state.hands[opponent] + state.decks[opponent])
        assert sorted(twin.hands[opponent] + twin.decks[opponent]) == unseen
        assert len(twin.hands[opponent]) == len(state.hands[opponent])
        assert twin.graveyards == state.graveyards and twin.hp == state.hp
        seen.add(tuple(sorted(twin.hands[opponent])))
    assert len(seen) > 1


def test_flat_layout_covers_the_vector_and_names_the_hand() -> None:
    layout = flat_layout()
    assert layout[0][1].start == 0
    assert all(a[1].stop == b[1].start for a, b in itertools.pairwise(layout))
    state = GoldDustGame().new_state(seed=2)
    vector = ENCODERS["flat"].encode(state, 1)
    assert vector.shape == ENCODERS["flat"].shape(state.game) == (FLAT_SIZE,)
    hand = vector[dict((name, s) for name, s, _ in layout)["hand"]].reshape(5, -1)
    assert hand[:, 0].sum() == len(state.hands[1])  # the zone column of own hand cards


def test_options_and_metadata() -> None:
    env = gold_and_dust_v0.env(decks=("merchant", "thief"), max_turns=50)
    env.reset(seed=1)
    state = env.unwrapped.game_state
    assert [h.name for h in state.heroes] == ["Merchant", "Thief"]
    assert env.unwrapped.metadata["card_data_version"] == "Starter pool 1.0"
    assert gold_and_dust_v0.SPEC.competitive
    with pytest.raises(ValueError, match="a pair"):
        gold_and_dust_v0.SPEC.new_game(decks="warrior")
    with pytest.raises(ValueError, match="max_turns"):
        gold_and_dust_v0.SPEC.new_game(max_turns=0)


def test_users_point_the_env_at_their_own_pool_and_decks(tmp_path: Path) -> None:
    pool = tmp_path / "my_pool.toml"
    text = data_path("pool.toml").read_text(encoding="utf-8")
    pool.write_text(text.replace('version = "1.0"', 'version = "7.3-home"'), encoding="utf-8")
    deck_a, deck_b = tmp_path / "a.toml", tmp_path / "b.toml"
    shutil.copy(data_path("decks", "warrior.toml"), deck_a)
    shutil.copy(data_path("decks", "assassin.toml"), deck_b)
    env = gold_and_dust_v0.env(decks=(deck_a, str(deck_b)), pool=pool)
    env.reset(seed=0)
    assert env.unwrapped.metadata["card_data_version"] == "Starter pool 7.3-home"
    assert [h.name for h in env.unwrapped.game_state.heroes] == ["Warrior", "Assassin"]


def test_command_line_option_values_build_the_game(tmp_path: Path) -> None:
    """``--option decks=warrior,mage`` arrives as a tuple of strings, names and paths mixed;
    ``--option pool=<path>`` as a string. A single deck stays an error: it must be a pair."""
    deck = tmp_path / "my deck.toml"
    shutil.copy(data_path("decks", "thief.toml"), deck)
    pool = tmp_path / "pool.toml"
    shutil.copy(data_path("pool.toml"), pool)
    game = gold_and_dust_v0.SPEC.new_game(decks=(str(deck), "mage"), pool=str(pool))
    assert [d.hero.name for d in game.decks] == ["Thief", "Mage"]
    assert game.pool.source == "pool.toml"
    game = gold_and_dust_v0.SPEC.new_game(decks=("warrior", "mage"))
    assert [d.hero.name for d in game.decks] == ["Warrior", "Mage"]
    for single in ("warrior", "warrior,mage", ("warrior",), ("warrior", "mage", "thief")):
        with pytest.raises(ValueError, match=r"decks must be a pair .* decks=warrior,mage"):
            gold_and_dust_v0.SPEC.new_game(decks=single)
    seat_1 = r"option decks: decks\[1\] \(seat 1's deck\) must be a packaged deck's name"
    with pytest.raises(ValueError, match=seat_1 + r" \(warrior, mage, .*\) .* got int 3"):
        gold_and_dust_v0.SPEC.new_game(decks=("warrior", 3))
    with pytest.raises(ValueError, match="pool must be a path"):
        gold_and_dust_v0.SPEC.new_game(pool=7)
    with pytest.raises(ValueError, match="max_turns"):
        gold_and_dust_v0.SPEC.new_game(max_turns=True)


def test_bad_files_given_as_options_are_card_data_errors(tmp_path: Path) -> None:
    """GD-8.2: a directory or a non-UTF-8 file as ``pool=`` or in ``decks=`` names the file."""
    folder = tmp_path / "decks"
    folder.mkdir()
    latin = tmp_path / "latin.toml"
    latin.write_bytes(b'name = "D\xe9ck"\n')
    for options in (
        {"pool": str(folder)},
        {"pool": str(latin)},
        {"decks": (str(folder), "mage")},
        {"decks": ("warrior", str(latin))},
    ):
        with pytest.raises(CardDataError, match=r"^\S*(decks|latin\.toml): "):
            gold_and_dust_v0.SPEC.new_game(**options)


@pytest.mark.parametrize("hero", HEROES)
def test_heuristic_beats_random_from_both_seats(hero: str) -> None:
    game = GoldDustGame((hero, hero))
    wins = {0: 0, 1: 0}
    for seed in range(40):
        seat = seed % 2
        agents = [RandomAgent(seed), RandomAgent(seed)]
        agents[seat] = GoldDustHeuristic()
        state = play_game(game.new_state(seed=seed), agents)
        wins[seat] += state.returns()[seat] > 0 and state.winner != DRAW
    assert wins[0] >= 16 and wins[1] >= 16, wins  # at least 80% from each seat


def test_encoders_see_the_table_from_each_side() -> None:
    """The same state looks different to the two players (own vs enemy rows)."""
    state = GoldDustGame().new_state(seed=8)
    rng = random.Random(1)
    while sum(u is not None for board in state.boards for u in board) < 2:
        state.apply(rng.choice(state.legal_actions()))
    for encoder in ENCODERS.values():
        assert not np.array_equal(encoder.encode(state, 0), encoder.encode(state, 1))


def test_each_seat_is_named_by_its_public_hero() -> None:
    game = GoldDustGame(("warrior", "mage"))
    heroes = [deck.hero.name for deck in game.decks]
    assert [game.player_name(seat) for seat in (0, 1)] == heroes
    assert heroes[0] != heroes[1]
    with pytest.raises(ValueError, match="seat must be 0 or 1"):
        game.player_name(2)


def test_gd_9_3_a_gold_and_a_dust_artifact_encode_apart() -> None:
    """Counting House (gains gold) and Alchemist's Still (gains dust) lie on the table in
    view of both players (GD-9.3): neither encoder may show them as the same card."""
    game = GoldDustGame()
    tables = [
        game.stacked_state([{"artifacts": [name]}, {}])
        for name in ("Counting House", "Alchemist's Still")
    ]
    for encoder in ENCODERS.values():
        for player in (0, 1):
            first, second = (encoder.encode(state, player) for state in tables)
            assert not np.array_equal(first, second), (encoder.name, player)


def test_gd_9_3_the_declared_public_facts_show_in_both_encoders() -> None:
    """Both graveyards are public (GD-9.3): each encoder tells a graveyard from one whose
    last card is another, for both players; so for every fact the game declares."""
    game = GoldDustGame()
    state = game.stacked_state(
        [{"graveyard": ["Archer"], "artifacts": ["Counting House"], "front": ["Wall"]},
         {"graveyard": ["Wall", "Archer"]}]
    )  # fmt: skip
    variants = dict(game.public_fact_variants(state))
    assert {"graveyard 0 contents", "graveyard 1 contents", "artifacts 0 contents"} <= set(variants)
    assert {"hp 1", "gold 0", "dust 1", "unit hp 0"} <= set(variants)
    for fact, variant in variants.items():
        for encoder in ENCODERS.values():
            for player in (0, 1):
                before, after = (encoder.encode(s, player) for s in (state, variant))
                assert not np.array_equal(before, after), (fact, encoder.name, player)
