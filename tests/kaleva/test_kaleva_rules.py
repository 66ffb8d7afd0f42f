"""Rule tests for Kaleva; each names the rule id (docs/rules/kaleva.md) it checks."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest
from kaleva_positions import PLAIN, stacked

from tabletop.envs import kaleva_v0
from tabletop.envs.core.protocol import TERMINAL, IllegalActionError
from tabletop.envs.kaleva.board import (
    BRONZE,
    COPIES_PER_VALUE,
    FULL_DECK,
    NUM_ACTIONS,
    SILVER,
    TUURI,
)
from tabletop.envs.kaleva.encoders import ENCODERS
from tabletop.envs.kaleva.engine import (
    MOVE,
    ORIGINAL,
    SETUP,
    SWAP,
    TUURI_CHOICE,
    KalevaGame,
    KalevaState,
)


def act(state: KalevaState, *texts: str) -> None:
    for text in texts:
        state.apply(state.string_to_action(text))


def legal_texts(state: KalevaState) -> set[str]:
    return {state.action_to_string(a) for a in state.legal_actions()}


def moves_from(state: KalevaState, square: str) -> set[str]:
    return {text for text in legal_texts(state) if text.startswith(square)}


def after_setup(seed: int = 3) -> KalevaState:
    """A new game with both arrangements made (first legal card each time)."""
    state = KalevaGame().new_state(seed=seed)
    while state.phase == SETUP:
        state.apply(state.legal_actions()[0])
    return state


# ----- KV-1 board, pieces, cards ---------------------------------------------------------------


def test_kv_1_3_each_deck_has_27_cards_with_the_decided_copies() -> None:
    assert sum(COPIES_PER_VALUE) == 27
    assert [COPIES_PER_VALUE[v] for v in (0, 1, 9)] == [2, 2, 2]
    assert set(COPIES_PER_VALUE[2:9]) == {3}
    state = KalevaGame().new_state(seed=1)
    for player in (SILVER, BRONZE):
        assert sorted(state.cards_of(player)) == sorted(FULL_DECK)


def test_kv_1_2_six_discs_each_on_their_own_shield_row_and_silver_starts() -> None:
    state = KalevaGame().new_state(seed=1)
    assert state.board[:6] == [SILVER] * 6 and state.board[24:] == [BRONZE] * 6
    assert state.board[6:24] == [-1] * 18
    assert state.current_player == SILVER


# ----- KV-2 setup ---------------------------------------------------------------------------------


def test_kv_2_1_both_players_see_all_twelve_shown_cards() -> None:
    state = KalevaGame().new_state(seed=5)
    assert [len(state.shown[p]) for p in (SILVER, BRONZE)] == [6, 6]
    for observer in (SILVER, BRONZE):
        view = state.render(observer)
        for player, name in ((SILVER, "Silver"), (BRONZE, "Bronze")):
            shown = "".join(map(str, state.shown[player]))
            assert f"{name}: cards -- -- -- -- -- -- (shown {shown}" in view


def test_kv_2_2_silver_then_bronze_arrange_one_column_at_a_time() -> None:
    state = KalevaGame().new_state(seed=5)
    for player in (SILVER, BRONZE):
        for col in "abcde":
            if state.current_player != player:
                break  # the rest was forced: one kind of card left
            cards = set(state.unplaced[player])
            assert legal_texts(state) == {f"place {value} {col}" for value in cards}
            state.apply(state.legal_actions()[-1])
        assert sorted(state.slots[player]) == state.shown[player]
        if player == SILVER:
            assert state.current_player == BRONZE and state.phase == SETUP
            assert "Silver: cards ?o ?o ?o ?o ?o ?o" in state.render(BRONZE)
    assert state.phase == MOVE and state.current_player == SILVER


def test_kv_2_2_the_last_card_is_placed_without_asking() -> None:
    state = KalevaGame().new_state(seed=8)
    while state.current_player == SILVER:
        assert len(state.unplaced[SILVER]) >= 2
        state.apply(state.legal_actions()[0])
    assert -1 not in state.slots[SILVER]


# ----- KV-3 moving ----------------------------------------------------------------------------


def test_kv_3_2_first_turn_only_forward_then_eight_directions() -> None:
    state = after_setup()
    assert moves_from(state, "a0") == {"a0-a1", "a0-b1"}
    assert moves_from(state, "c0") == {"c0-b1", "c0-c1", "c0-d1"}
    assert len(legal_texts(state)) == 16
    act(state, "c0-c1")
    assert moves_from(state, "c4") == {"c4-b3", "c4-c3", "c4-d3"}  # Bronze's first turn
    act(state, "c4-c3")
    assert moves_from(state, "c1") == {"c1-c2", "c1-b2", "c1-d2", "c1-b1", "c1-d1", "c1-c0"}


def test_kv_3_3_no_step_onto_an_own_disc_nor_off_the_board() -> None:
    state = stacked(["a1", "b1", "a2"], ["f3"])
    assert moves_from(state, "a1") == {"a1-a0", "a1-b0", "a1-b2"}


def test_kv_3_4_exception_a_the_enemy_shield_only_straight_forward() -> None:
    state = stacked(["c3"], ["c4", "b2"])
    assert moves_from(state, "c3") == {"c3xc4", "c3-b3", "c3-d3", "c3-c2", "c3-d2", "c3xb2"}
    empty_shield = stacked(["c3"], ["a2"])
    assert {"c3-c4"} == moves_from(empty_shield, "c3") & {"c3-c4", "c3-b4", "c3-d4"}
    bronze = stacked(["a3"], ["d1"], to_move=BRONZE)
    assert {"d1-d0"} == moves_from(bronze, "d1") & {"d1-c0", "d1-d0", "d1-e0"}


def test_kv_3_5_exception_b_no_diagonal_between_two_enemy_discs() -> None:
    state = stacked(["c2"], ["d2", "c3"])
    assert "c2-d3" not in legal_texts(state)
    assert {"c2-b3", "c2-b1", "c2-d1"} <= legal_texts(state)
    one_side = stacked(["c2"], ["d2", "a4"])
    assert "c2-d3" in legal_texts(one_side)
    backwards = stacked(["c2"], ["d2", "c1"])
    assert "c2-d1" not in legal_texts(backwards) and "c2-d3" in legal_texts(backwards)


def test_kv_3_6_a_disc_in_the_enemy_shield_never_moves_and_cannot_be_attacked() -> None:
    state = stacked(["c4", "a1"], ["c3", "b4"], to_move=SILVER)
    assert moves_from(state, "c4") == set()
    act(state, "a1-a2")
    assert "c3xc4" not in legal_texts(state) and "b4xc4" not in legal_texts(state)
    assert moves_from(state, "b4") == {"b4-a3", "b4-b3", "b4-a4"}


# ----- KV-4 attack ----------------------------------------------------------------------------


def test_kv_4_2_strength_is_the_source_column_card_against_the_target_column_card() -> None:
    # Silver's column b holds 7, its column c only 2; Bronze's column c holds 6.
    state = stacked(
        ["b1"], ["c2"], silver_cards=(5, 7, 2, 3, 4, 6), bronze_cards=(2, 3, 6, 4, 5, 7)
    )
    act(state, "b1xc2")
    assert state.board[2 * 6 + 2] == SILVER and state.lost == [5, 6]
    assert state.discards == [[7], [6]]


def test_kv_4_3_a_tie_goes_to_the_attacker_and_the_loser_may_swap() -> None:
    state = stacked(
        ["b1"], ["c2"], silver_cards=(2, 5, 3, 4, 6, 7), bronze_cards=(2, 3, 5, 4, 6, 7)
    )
    act(state, "b1xc2")
    assert state.board[14] == SILVER and state.board[7] == -1 and state.lost[BRONZE] == 6
    assert state.phase == SWAP and state.current_player == BRONZE  # KV-4.4: the loser decides
    assert "no swap" in legal_texts(state) and "swap a b" in legal_texts(state)
    act(state, "no swap")
    assert state.phase == MOVE and state.current_player == BRONZE


def test_kv_4_3_a_weaker_attacker_leaves_the_board_then_swaps_two_cards() -> None:
    state = stacked(["b1", "e0"], ["c2"], silver_cards=(2, 3, 4, 5, 6, 7), bronze_cards=PLAIN)
    act(state, "b1xc2")  # Silver's 3 against Bronze's 4
    assert state.board[7] == -1 and state.board[14] == BRONZE and state.lost[SILVER] == 5
    assert state.current_player == SILVER and state.phase == SWAP
    before = state.slots[SILVER][:]
    act(state, "swap a f")
    assert state.slots[SILVER] == [before[5], *before[1:5], before[0]]
    assert state.current_player == BRONZE and state.phase == MOVE


def test_kv_4_4_swapped_cards_keep_their_face_up_and_origin_marks() -> None:
    state = stacked(["b1", "e0"], ["c2"], bronze_cards=PLAIN, revealed=(("a",), ()))
    act(state, "b1xc2")
    assert state.origin[SILVER][1] != ORIGINAL  # the refilled slot
    act(state, "swap a b")
    assert state.revealed[SILVER][:2] == [False, True]
    assert state.origin[SILVER][0] != ORIGINAL and state.origin[SILVER][1] == ORIGINAL


def test_kv_4_4_equal_cards_with_different_marks_may_be_swapped() -> None:
    """KV-4.4 regression: swapping two cards of equal value changes what the opponent knows
    when their marks differ (here a 3 shown at setup and a 3 drawn later), so it is offered;
    a swap of two cards alike in value and marks changes nothing and is not."""
    state = stacked(["b1", "e0"], ["c2"], silver_cards=(3, 3, 5, 5, 6, 7), decks=(("Aino",), ()))
    act(state, "b1xc2")  # Silver's 3 loses to Bronze's 4; b gets the drawn 3
    assert state.slots[SILVER] == [3, 3, 5, 5, 6, 7] and state.phase == SWAP
    assert "swap a b" in legal_texts(state) and "swap c d" not in legal_texts(state)
    before = ENCODERS["flat"].encode(state, BRONZE)
    act(state, "swap a b")
    assert state.slots[SILVER] == [3, 3, 5, 5, 6, 7]
    assert "Silver: cards ?d ?o ?o ?o ?o ?o" in state.render(BRONZE)
    assert not np.array_equal(ENCODERS["flat"].encode(state, BRONZE), before)


def test_kv_4_4_a_face_up_card_may_be_swapped_with_an_equal_face_down_one() -> None:
    state = stacked(["b1", "e0"], ["c2"], silver_cards=(5, 3, 5, 4, 6, 7), revealed=(("a",), ()))
    act(state, "b1xc2")
    assert "swap a c" in legal_texts(state)
    act(state, "swap a c")
    assert "Silver: cards ?o ?d 5* ?o ?o ?o" in state.render(BRONZE)


def test_kv_4_5_used_cards_are_discarded_and_refilled_from_the_deck_top() -> None:
    state = stacked(["b1"], ["c2"], decks=(("Ukko",), ("Aino", "Kauko")))
    act(state, "b1xc2")  # 3 against 4: Silver loses
    assert state.discards == [[3], [4]]
    assert state.slots[SILVER][1] == 9 and state.slots[BRONZE][2] == 3
    assert state.origin[SILVER][1] == 0 and not state.revealed[SILVER][1]
    assert "Silver: cards ?o ?d ?o" in state.render(BRONZE)
    assert "Silver: cards 2 9 4" in state.render(SILVER)


def test_kv_4_5_an_empty_deck_is_reshuffled_from_the_discard_pile() -> None:
    rest = Counter(FULL_DECK)
    rest.subtract(PLAIN)
    discard = list(rest.elements())  # every other card: the deck is empty
    state = stacked(["b1"], ["c2"], discards=(discard, ()))
    assert state.decks[SILVER] == []
    act(state, "b1xc2")
    assert state.discards[SILVER] == [] and len(state.decks[SILVER]) == 21
    assert state.deck_generation[SILVER] == 1 and state.origin[SILVER][1] == 1
    assert sorted(state.cards_of(SILVER)) == sorted(FULL_DECK)


def test_kv_4_6_terna_attacked_by_a_higher_card_swaps_the_discs() -> None:
    state = stacked(["b1"], ["c2"], bronze_cards=(2, 3, "Terna", 4, 5, 6))
    act(state, "b1xc2")
    assert state.board[14] == SILVER and state.board[7] == BRONZE
    assert state.lost == [5, 5]
    assert state.phase == MOVE and state.current_player == BRONZE  # [decision]: no swap
    assert state.discards == [[3], [1]]


def test_kv_4_6_terna_against_terna_the_attacker_wins() -> None:
    state = stacked(
        ["b1"], ["c2"], silver_cards=(2, 1, 3, 4, 5, 6), bronze_cards=(2, 3, 1, 4, 5, 6)
    )
    act(state, "b1xc2")
    assert state.board[14] == SILVER and state.board[7] == -1 and state.lost[BRONZE] == 6


def test_kv_4_6_terna_attacking_a_higher_card_loses() -> None:
    state = stacked(["b1"], ["c2"], silver_cards=(2, 1, 3, 4, 5, 6))
    act(state, "b1xc2")
    assert state.board[14] == BRONZE and state.board[7] == -1 and state.lost[SILVER] == 6


def test_kv_4_6_a_terna_swap_can_put_the_attacker_into_the_enemy_shield_and_win() -> None:
    state = stacked(
        ["a4", "b4", "c3"], ["c4", "f2"], bronze_cards=(2, 3, 1, 4, 5, 6), silver_cards=PLAIN
    )
    act(state, "c3xc4")
    assert state.board[4 * 6 + 2] == SILVER and state.board[3 * 6 + 2] == BRONZE
    assert state.is_terminal() and state.returns() == [1.0, -1.0]


def test_kv_4_7_moving_from_the_tuuri_column_offers_a_reveal_before_the_move() -> None:
    state = stacked(["b1", "e0"], ["f3"], silver_cards=(2, TUURI, 3, 4, 5, 6))
    act(state, "b1-b2")
    assert state.phase == TUURI_CHOICE and state.current_player == SILVER
    assert legal_texts(state) == {f"tuuri b reveal {c}" for c in "abcdef"} | {"keep tuuri"}
    assert state.board[7] == SILVER  # the move waits for the decision
    act(state, "tuuri b reveal e")
    assert state.board[13] == SILVER and state.revealed[BRONZE][4]
    assert state.discards[SILVER] == [TUURI] and state.slots[SILVER][1] != -1
    assert "Bronze: cards ?o ?o ?o ?o 6* ?o" in state.render(SILVER)
    assert state.current_player == BRONZE


def test_kv_4_7_moving_onto_the_tuuri_column_offers_it_too_and_it_may_be_kept() -> None:
    state = stacked(["b1", "e0"], ["f3"], silver_cards=(2, 3, TUURI, 4, 5, 6))
    act(state, "b1-c2")
    assert "tuuri c reveal a" in legal_texts(state)
    act(state, "keep tuuri")
    assert state.slots[SILVER][2] == TUURI and not any(state.revealed[BRONZE])
    assert state.current_player == BRONZE
    act(state, "f3-f2")
    act(state, "e0-e1")  # neither column holds the Tuuri: no decision
    assert state.current_player == BRONZE and state.phase == MOVE


def test_kv_4_7_an_attacking_tuuri_may_reveal_first_then_fights_with_value_0() -> None:
    state = stacked(["b1", "e0"], ["c2"], silver_cards=(2, TUURI, 3, 4, 5, 6),
                    bronze_cards=(2, 3, TUURI, 4, 5, 6), decks=(("Ukko",), ()))  # fmt: skip
    act(state, "b1xc2", "tuuri b reveal d")
    # 0 against Bronze's Tuuri 0: a tie, won by the attacker (KV-4.3).
    assert state.board[14] == SILVER and state.lost[BRONZE] == 6
    assert state.discards == [[TUURI], [TUURI]]  # the spent Tuuri is discarded once
    assert state.slots[SILVER][1] == 9 and state.revealed[BRONZE][3]


def test_kv_4_7_tuuri_attacking_terna_loses_without_trickery() -> None:
    state = stacked(["b1", "e0"], ["c2"], silver_cards=(2, TUURI, 3, 4, 5, 6),
                    bronze_cards=(2, 3, 1, 4, 5, 6))  # fmt: skip
    act(state, "b1xc2", "keep tuuri")
    assert state.board[7] == -1 and state.board[14] == BRONZE and state.lost[SILVER] == 5


def test_kv_4_7_a_revealed_card_stays_face_up_until_used_in_a_fight() -> None:
    state = stacked(["b1", "a1"], ["c2", "f3"], revealed=((), ("c", "f")))
    act(state, "a1-a2")
    act(state, "f3-f2")
    assert state.revealed[BRONZE] == [False, False, True, False, False, True]
    act(state, "b1xc2")  # 3 against the face-up 4
    assert state.revealed[BRONZE] == [False] * 5 + [True]


def test_kv_4_7_no_reveal_decision_when_every_enemy_card_is_face_up() -> None:
    state = stacked(["b1", "e0"], ["f3"], silver_cards=(2, TUURI, 3, 4, 5, 6),
                    revealed=((), tuple("abcdef")))  # fmt: skip
    act(state, "b1-b2")
    assert state.current_player == BRONZE and state.slots[SILVER][1] == TUURI


# ----- KV-5 returning a lost disc ----------------------------------------------------------


def test_kv_5_1_a_lost_disc_returns_to_a_free_own_corner() -> None:
    state = stacked(["a0", "c1"], ["f3"])
    assert {t for t in legal_texts(state) if t.startswith("return")} == {"return f0"}
    act(state, "return f0")
    assert state.board[5] == SILVER and state.lost[SILVER] == 3
    assert state.current_player == BRONZE


def test_kv_5_1_no_return_when_both_corners_are_occupied_by_any_disc() -> None:
    state = stacked(["a0", "c1"], ["f0", "d3"])
    assert not any(t.startswith("return") for t in legal_texts(state))
    no_lost = after_setup()
    assert not any(t.startswith("return") for t in legal_texts(no_lost))


# ----- KV-6 winning and limits -----------------------------------------------------------------


def test_kv_6_1_three_discs_in_the_enemy_shield_win() -> None:
    state = stacked(["a4", "b4", "c3"], ["f2"])
    assert "c3-d4" not in legal_texts(state)
    act(state, "c3-c4")
    assert state.is_terminal() and state.current_player == TERMINAL
    assert state.rewards() == [1.0, -1.0] and state.returns() == [1.0, -1.0]
    assert state.stats()["won_silver"] == 1.0


def test_kv_6_2_a_player_without_a_legal_action_loses() -> None:
    state = stacked(["b4", "c4"], ["a0", "f0", "d2"])
    assert state.is_terminal() and state.winner == BRONZE
    assert state.returns() == [-1.0, 1.0]


def test_kv_6_3_the_turn_limit_ends_in_a_draw() -> None:
    state = KalevaGame(turn_limit=3).new_state(seed=2)
    while state.phase == SETUP:
        state.apply(state.legal_actions()[0])
    while not state.is_terminal():
        assert state.plies < 3
        state.apply(state.legal_actions()[0])  # moves, and a Tuuri decision if one comes
    assert state.plies == 3 and state.returns() == [0.0, 0.0]
    assert state.stats()["draw"] == 1.0 and state.stats()["plies"] == 3.0


def test_kv_6_3_the_turn_limit_is_an_option_with_clear_errors() -> None:
    with pytest.raises(ValueError, match="turn_limit"):
        KalevaGame(turn_limit=0)
    with pytest.raises(TypeError, match="unknown option"):
        kaleva_v0.SPEC.new_game(turns=3)


# ----- KV-7 information ------------------------------------------------------------------------


def test_kv_7_2_resampling_permutes_only_the_unseen_shown_cards_among_their_slots() -> None:
    state = after_setup(seed=11)
    rng = random.Random(0)
    seen = ENCODERS["flat"].encode(state, BRONZE)
    layouts = set()
    for _ in range(30):
        twin = state.resample_hidden(BRONZE, rng)
        assert twin.slots[BRONZE] == state.slots[BRONZE]
        assert sorted(twin.slots[SILVER]) == state.shown[SILVER]
        assert sorted(twin.decks[SILVER]) == sorted(state.decks[SILVER])
        assert np.array_equal(ENCODERS["flat"].encode(twin, BRONZE), seen)
        layouts.add(tuple(twin.slots[SILVER]))
    assert len(layouts) > 5


def test_kv_7_2_a_card_seen_in_a_fight_leaves_the_unseen_shown_cards() -> None:
    state = stacked(["b1"], ["c2"], decks=(("Ukko",), ()))
    assert state.unseen_shown_cards(SILVER) == sorted(PLAIN)
    act(state, "b1xc2")
    assert state.unseen_shown_cards(SILVER) == [2, 4, 5, 6, 7]
    rng = random.Random(1)
    for _ in range(20):
        twin = state.resample_hidden(BRONZE, rng)
        originals = [twin.slots[SILVER][c] for c in (0, 2, 3, 4, 5)]
        assert sorted(originals) == [2, 4, 5, 6, 7]
        drawn_pool = sorted([twin.slots[SILVER][1], *twin.decks[SILVER]])
        assert drawn_pool == sorted([9, *state.decks[SILVER]])


def test_kv_7_1_a_revealed_card_is_never_resampled() -> None:
    state = stacked(["b1"], ["f3"], revealed=(("d",), ()))
    rng = random.Random(2)
    assert all(state.resample_hidden(BRONZE, rng).slots[SILVER][3] == 5 for _ in range(20))


# ----- notation --------------------------------------------------------------------------------


def test_notation_round_trips_and_rejects_wrong_or_unknown_text() -> None:
    state = stacked(["b1", "a1"], ["c2"])
    for action in range(NUM_ACTIONS):
        assert state.string_to_action(state.action_to_string(action)) == action
    assert state.action_to_string(state.string_to_action("B1xC2")) == "b1xc2"
    with pytest.raises(IllegalActionError, match="write b1xc2"):
        state.string_to_action("b1-c2")
    with pytest.raises(IllegalActionError, match="write a1-a2"):
        state.string_to_action("a1xa2")
    assert state.string_to_action("place vaino a") == state.string_to_action("place Väinö a")
    assert state.string_to_action("place 6 a") == state.string_to_action("place Väinö a")
    assert state.string_to_action("swap e b") == state.string_to_action("swap b e")
    for text in ("a1-a3", "place Zeus a", "swap b b", "return b0", "tuuri g reveal a", ""):
        with pytest.raises(IllegalActionError):
            state.string_to_action(text)


def test_an_illegal_action_names_itself_and_the_legal_ones() -> None:
    state = stacked(["b1"], ["c2"])
    with pytest.raises(IllegalActionError, match=r"illegal action .*\(a1-a2\); legal: .*b1xc2"):
        state.apply(state.string_to_action("a1-a2"))


def test_clone_is_independent_including_the_random_generator() -> None:
    state = after_setup(seed=4)
    twin = state.clone()
    rng = random.Random(3)
    while not state.is_terminal():
        action = rng.choice(state.legal_actions())
        state.apply(action)
        twin.apply(action)
    assert twin.render() == state.render() and twin.returns() == state.returns()
    assert after_setup(seed=4).render() != state.render()
