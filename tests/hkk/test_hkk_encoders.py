"""HKK's observation encoders: shapes and bounds along random games of every deck, the
layout tables of the module docstring, HK-11.1's hidden information (nothing changes when
``resample_hidden`` re-draws what the observer cannot see), and exact features of stacked
positions (HK-4.2's damage and life with HK-4.3's defence bonus, counters, levels, items,
the chain)."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest
from hkk_positions import act, declare_state, stacked

from tabletop.envs.core import checks
from tabletop.envs.core.layout import stack_layout
from tabletop.envs.hkk import encoders
from tabletop.envs.hkk.cards import PACKAGED_DECKS
from tabletop.envs.hkk.encoders import (
    CARD_ROWS,
    CHAIN_AT,
    CHAIN_ROW,
    CHAIN_ROWS,
    ENCODERS,
    ENEMY_ROW,
    HAND_ROW,
    OWN_ROW,
    PLAY_AT,
    PLAY_FEATURES,
    STATIC_AT,
    STATIC_FEATURES,
    TABLE_FEATURES,
    TABLE_ROWS,
    TABLE_SIZE,
    WIDTH,
    flat_layout,
    row_layout,
)
from tabletop.envs.hkk.engine import HkkGame, HkkState
from tabletop.envs.hkk.steps import PHASE_NAMES

FLAT, ENTITY = ENCODERS["flat"], ENCODERS["entity"]
TABLE = {name: part for name, part, _ in stack_layout(TABLE_FEATURES)}


def play_feature(row: np.ndarray, name: str) -> float:
    return float(row[PLAY_AT + PLAY_FEATURES.index(name)])


def static_feature(row: np.ndarray, name: str) -> float:
    return float(row[STATIC_AT + STATIC_FEATURES.index(name)])


def both_views(state: HkkState, player: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(table features, card rows, counts) of the flat encoding, after checking that the
    entity encoding holds the same card rows and table features."""
    flat = FLAT.encode(state, player)
    entity = ENTITY.encode(state, player)
    rows_end = TABLE_SIZE + CARD_ROWS * WIDTH
    rows = flat[TABLE_SIZE:rows_end].reshape(CARD_ROWS, WIDTH)
    assert np.array_equal(entity[:CARD_ROWS], rows)
    table = entity[CARD_ROWS : CARD_ROWS + TABLE_ROWS].reshape(-1)
    assert np.array_equal(table[:TABLE_SIZE], flat[:TABLE_SIZE])
    assert not table[TABLE_SIZE:].any()
    counts = entity[CARD_ROWS + TABLE_ROWS :].reshape(-1)
    assert np.array_equal(counts[: flat.size - rows_end], flat[rows_end:]), "HK-11.1"
    assert not counts[flat.size - rows_end :].any()
    return flat[:TABLE_SIZE], rows, flat[rows_end:]


@pytest.mark.parametrize(("first", "second"), list(itertools.product(PACKAGED_DECKS, repeat=2)))
def test_shapes_and_bounds_along_random_games(first: str, second: str) -> None:
    game = HkkGame(decks=(first, second))
    state = game.new_state(7)
    rng = random.Random(7)
    while True:
        for player in (0, 1):
            for encoder in (FLAT, ENTITY):
                encoding = encoder.encode(state, player)
                assert encoding.shape == encoder.shape(game)
                assert encoding.dtype == np.float32
                assert np.all(encoding >= -1.0) and np.all(encoding <= 1.0)
        table = both_views(state, 0)[0]
        assert table[TABLE["step"]].sum() == 1.0
        if state.is_terminal():
            break
        state.apply(rng.choice(state.legal_actions()))


def test_the_layouts_add_up_and_the_docstring_tables_say_so() -> None:
    assert row_layout()[-1][1].stop == WIDTH
    assert flat_layout()[-1][1].stop == FLAT.shape(HkkGame())[0]
    assert ENTITY.shape(HkkGame()) == (CARD_ROWS + 1 + 4, WIDTH), "4 rows of 500 counts"
    doc = encoders.__doc__ or ""
    lines = {line.split()[0] + " " + line.split()[1] for line in doc.splitlines()
             if line[:1].isdigit() and len(line.split()) > 2}  # fmt: skip
    for _, part, _ in stack_layout(TABLE_FEATURES):
        assert f"{part.start} {part.stop - part.start}" in lines
    for _, part, _ in row_layout():
        assert f"{part.start} {part.stop - part.start}" in lines
    for start, rows in ((HAND_ROW, 16), (OWN_ROW, 24), (ENEMY_ROW, 24), (CHAIN_ROW, CHAIN_ROWS)):
        assert f"{start} {rows}" in lines
    assert f"{FLAT.shape(HkkGame())[0]:,}" in doc


@pytest.mark.parametrize("name", ["flat", "entity"])
def test_hk_11_1_resample_hidden_changes_no_observation(name: str) -> None:
    """The opponent's hand and both decks' order are re-drawn; each seat sees the same
    (and the encoding does change when the other seat's view is re-drawn: it reads the
    own hand)."""
    game = HkkGame(decks=("devourers", "skyfire"))
    report = checks.check_no_leak(
        game, ENCODERS[name], games=2, seed=4, samples_per_state=1, playout_fraction=0.01
    )
    assert report.states > 50


def knight_position() -> HkkState:
    """Player 0's turn: a levelled, hurt, poisoned Knight Errant with a Longsword in the
    guard post; player 1 defends with an Iron Golem and keeps a passive Mossback Troll."""
    knight = {"card": "Knight Errant", "damage": 1, "poison": 2, "counters": 1, "levels": 2,
              "attached": ["Longsword"]}  # fmt: skip
    mine = {"guard": [knight], "hand": ["Fire Bolt", "Stray Wolf"], "vp": 6, "components": 3,
            "deck": ["Stray Wolf", "Old Lore"], "discard": ["Fire Bolt"]}  # fmt: skip
    troll = {"card": "Mossback Troll", "active": False}
    theirs = {"guard": ["Iron Golem"], "reserve": [troll], "hand": ["Frost Ray"], "vp": 2,
              "life": 14}  # fmt: skip
    return stacked([mine, theirs])


def test_hk_4_2_figures_of_a_creature_with_counters_levels_and_an_item() -> None:
    rows = both_views(knight_position(), 0)[1]
    knight, sword = rows[OWN_ROW], rows[OWN_ROW + 1]
    assert knight[1] == 1.0 and knight[5] == 1.0  # own table, guard post
    assert static_feature(knight, "type adventurer") == 1.0
    assert static_feature(knight, "damage / 10") == pytest.approx(0.3)
    # 3 printed + 1 counter + 2 levels + 2 from the sword; life 3 + 1 + 2 (HK-4.4, HK-4.5)
    assert play_feature(knight, "damage now / 10") == pytest.approx(0.8)
    assert play_feature(knight, "life now / 20") == pytest.approx(0.3)
    assert play_feature(knight, "life left / 20") == pytest.approx(0.25)
    assert play_feature(knight, "poison counters / 5") == pytest.approx(0.4)
    assert play_feature(knight, "+1/+1 counters / 5") == pytest.approx(0.2)
    assert play_feature(knight, "levels / 5") == pytest.approx(0.4)
    assert play_feature(knight, "cards attached / 5") == pytest.approx(0.2)
    assert play_feature(knight, "holds magic attack") == 1.0  # from level 2
    assert sword[8] == 1.0 and static_feature(sword, "type item") == 1.0  # attached
    assert play_feature(sword, "host position + 1 / 24") == pytest.approx(1 / 24)


def test_hk_4_3_the_defence_bonus_shows_on_the_side_not_moving() -> None:
    state = knight_position()
    _, rows, _ = both_views(state, 0)
    golem, troll = rows[ENEMY_ROW], rows[ENEMY_ROW + 1]
    assert golem[2] == 1.0 and golem[5] == 1.0
    assert play_feature(golem, "damage now / 10") == pytest.approx(0.4)  # 3 + 1
    assert play_feature(golem, "life now / 20") == pytest.approx(0.3)  # 5 + 1
    assert play_feature(golem, "holds magic defence") == 1.0
    assert troll[6] == 1.0 and play_feature(troll, "active") == 0.0
    _, theirs, _ = both_views(state, 1)
    assert np.array_equal(theirs[OWN_ROW, PLAY_AT:], golem[PLAY_AT:])
    assert np.array_equal(theirs[ENEMY_ROW, PLAY_AT:], rows[OWN_ROW, PLAY_AT:])


def test_table_figures_hands_and_counts_seen_by_each_seat() -> None:
    state = knight_position()
    pool = state.game.pool
    table, rows, counts = both_views(state, 0)
    assert table[TABLE["life"]].tolist() == pytest.approx([1.0, 0.7])
    assert table[TABLE["vp"]].tolist() == pytest.approx([0.3, 0.1])
    assert table[TABLE["components"]].tolist() == pytest.approx([0.3, 0.0])
    assert table[TABLE["hand_sizes"]].tolist() == pytest.approx([2 / 16, 1 / 16])
    assert table[TABLE["deck_sizes"]].tolist() == pytest.approx([2 / 40, 0.0])
    assert table[TABLE["step"]][PHASE_NAMES.index("main")] == 1.0
    assert table[TABLE["my_turn"]][0] == 1.0 and table[TABLE["my_decision"]][0] == 1.0
    assert static_feature(rows[HAND_ROW], "type instant") == 1.0
    count = len(pool.cards)
    wolf, lore, bolt = (pool.card_named(n).index for n in ("Stray Wolf", "Old Lore", "Fire Bolt"))
    assert counts[wolf] == pytest.approx(1 / 3) and counts[lore] == pytest.approx(1 / 3)
    assert counts[count + bolt] == pytest.approx(1 / 3)  # own discard pile
    other_table, other_rows, other_counts = both_views(state, 1)
    assert other_table[TABLE["hand_sizes"]].tolist() == pytest.approx([1 / 16, 2 / 16])
    assert other_table[TABLE["my_turn"]][0] == 0.0
    assert other_rows[HAND_ROW][0] == 1.0 and not other_rows[HAND_ROW + 1].any()
    assert not other_counts[:count].any()  # its own deck is empty: nothing of player 0's
    assert other_counts[2 * count + bolt] == pytest.approx(1 / 3)  # the enemy's discard


def test_hk_8_4_the_chain_and_its_target() -> None:
    state = knight_position()
    act(state, "play h0 Fire Bolt on their #0 Iron Golem")
    table, rows, _ = both_views(state, 1)
    item = rows[CHAIN_ROW]
    assert item[4] == 1.0  # the enemy's chain item, seen by player 1
    assert static_feature(item, "type instant") == 1.0
    assert static_feature(item, "effect damage / 5") == pytest.approx(3 / 5)
    assert item[CHAIN_AT + encoders.CHAIN_FEATURES.index("targets an own table card")] == 1.0
    assert table[TABLE["chain_length"]][0] == pytest.approx(1 / 8)
    damage = encoders.PRIMITIVES.index("damage")
    assert table[TABLE["chain_top"]][damage] == 1.0
    assert play_feature(rows[OWN_ROW], "target on the chain") == 1.0
    assert table[TABLE["my_decision"]][0] == 1.0  # player 1 may answer


def test_hk_6_2_the_declared_attacks_seen_by_the_defender() -> None:
    state = declare_state(["Hill Giant", "Ash Roc"], ["Stray Wolf"], hand=["Frost Ray"], vp=5)
    act(state, "attack #0 Hill Giant at their #0 Stray Wolf", "attack #1 Ash Roc at player")
    assert state.current_player == 1  # the window before the strike: Frost Ray may answer
    table, rows, _ = both_views(state, 1)
    wolf, giant, roc = rows[OWN_ROW], rows[ENEMY_ROW], rows[ENEMY_ROW + 1]
    assert play_feature(wolf, "attacked by / 2") == 0.5
    assert play_feature(wolf, "strikes back") == 1.0
    assert play_feature(giant, "attacks a card") == 1.0
    assert play_feature(roc, "attacks the player") == 1.0
    assert play_feature(roc, "attacks a card") == 0.0
    assert table[TABLE["player_attacks"]].tolist() == pytest.approx([1 / 3, 0.0])
    assert table[TABLE["my_priority"]][0] == 1.0 and table[TABLE["my_turn"]][0] == 0.0


@pytest.mark.parametrize("chosen", [0, 1])
def test_hk_6_2_the_defenders_strike_back_choice_is_seen_by_both(chosen: int) -> None:
    """The Hill Giant, attacked by the Stray Wolf and the Ash Roc, strikes back the one its
    owner chooses: both players' encodings (flat and entity) mark that attacker."""
    state = declare_state(["Stray Wolf", "Ash Roc"], ["Hill Giant"], hand=["Frost Ray"], vp=5)
    act(state, "attack #0 Stray Wolf at their #0 Hill Giant",
        "attack #1 Ash Roc at their #0 Hill Giant")  # fmt: skip
    assert state.player == 1 and state.choice is not None
    act(state, ["choose their #0 Stray Wolf", "choose their #1 Ash Roc"][chosen])
    name = ["Stray Wolf", "Ash Roc"][chosen]
    for observer in (0, 1):
        [event] = [e for e in state.last_events(observer) if e.kind == "strike_back_chosen"]
        assert event.text == f"Player 1's #0 Hill Giant strikes back #{chosen} {name}"
    for player, attackers in ((0, OWN_ROW), (1, ENEMY_ROW)):
        _, rows, _ = both_views(state, player)
        marks = [play_feature(rows[attackers + i], "struck back by its target") for i in (0, 1)]
        assert marks == [float(i == chosen) for i in (0, 1)], player


def test_hk_7_9_a_fresh_wound_is_seen_by_both() -> None:
    """The Mossback Troll struck by the Hill Giant may regenerate in the saving window after
    the strike (both players see it), no longer once both players have passed there."""
    state = declare_state(["Hill Giant"], ["Mossback Troll"], vp=3)
    act(state, "attack #0 Hill Giant at their #0 Mossback Troll")
    for player, troll in ((0, ENEMY_ROW), (1, OWN_ROW)):
        _, rows, _ = both_views(state, player)
        assert play_feature(rows[troll], "damage fresh enough to regenerate") == 1.0
    act(state, "regenerate #0 Mossback Troll", "pass")
    _, rows, _ = both_views(state, 0)
    assert play_feature(rows[ENEMY_ROW], "damage taken / 20") > 0
    assert play_feature(rows[ENEMY_ROW], "damage fresh enough to regenerate") == 0.0


def test_hk_11_1_the_declared_public_facts_show_in_both_encoders() -> None:
    """``public.variants`` of a position with a discarded card and a strike-back choice
    (the random games of the conformance check seldom reach one): each variant encodes
    differently from the position for both players, in both encoders."""
    state = declare_state(["Stray Wolf", "Ash Roc"], ["Hill Giant"], discard=["Fire Bolt"],
                          hand=["Frost Ray"], vp=5)  # fmt: skip
    act(state, "attack #0 Stray Wolf at their #0 Hill Giant",
        "attack #1 Ash Roc at their #0 Hill Giant", "choose their #1 Ash Roc")  # fmt: skip
    assert state.fight is not None, "the window before the strike: Frost Ray may answer"
    variants = dict(state.game.public_fact_variants(state))
    assert {"discard 1 contents", "strike-back choice"} <= set(variants)
    for fact, variant in variants.items():
        for encoder, player in itertools.product(ENCODERS.values(), (0, 1)):
            same = np.array_equal(encoder.encode(state, player), encoder.encode(variant, player))
            assert not same, (fact, encoder.name, player)
