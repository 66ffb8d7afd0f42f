"""Rule tests for Regicide; each names the rule id (docs/rules/regicide.md) it checks."""

from __future__ import annotations

import random

import numpy as np
import pytest

from tabletop.envs import regicide_v0
from tabletop.envs.core.protocol import TERMINAL, IllegalActionError
from tabletop.envs.regicide.cards import JESTER, KIND, RANK, VALUE, card_name, parse_card
from tabletop.envs.regicide.encoders import ENCODERS, ZONES, flat_layout
from tabletop.envs.regicide.engine import (
    CHOOSE_NEXT,
    DISCARD,
    PLAY,
    RegicideGame,
    RegicideState,
)


def stacked(num_players: int = 2, **setup) -> RegicideState:
    return RegicideGame(num_players=num_players).stacked_state(**setup)


def act(state: RegicideState, *texts: str) -> None:
    for text in texts:
        state.apply(state.string_to_action(text))


def legal_texts(state: RegicideState) -> set[str]:
    return {state.action_to_string(a) for a in state.legal_actions()}


def cards(*names: str) -> list[int]:
    return [parse_card(n) for n in names]


# ----- RG-1 setup ----------------------------------------------------------------------------


def test_rg_1_2_castle_is_jacks_over_queens_over_kings() -> None:
    state = RegicideGame(2).new_state(seed=5)
    order = [RANK[c] for c in [*state.castle, state.enemy]]  # bottom ... top
    assert order == [13] * 4 + [12] * 4 + [11] * 4


@pytest.mark.parametrize(
    ("players", "hand", "jesters"), [(1, 8, 0), (2, 7, 0), (3, 6, 1), (4, 5, 2)]
)
def test_rg_1_3_hand_sizes_and_jesters_by_player_count(
    players: int, hand: int, jesters: int
) -> None:
    state = RegicideGame(players).new_state(seed=1)
    assert [len(h) for h in state.hands] == [hand] * players
    in_game = state.tavern + [c for h in state.hands for c in h]
    assert sum(c >= JESTER for c in in_game) == jesters
    assert len(state.tavern) == 40 + jesters - players * hand


def test_rg_1_4_first_player_comes_from_the_seed() -> None:
    firsts = {RegicideGame(4).new_state(seed=s).current_player for s in range(40)}
    assert firsts == {0, 1, 2, 3}
    assert RegicideGame(4).new_state(seed=7).render() == RegicideGame(4).new_state(seed=7).render()


def test_rg_1_5_card_values() -> None:
    assert [VALUE[c] for c in cards("AS", "7H", "10D", "JC", "QS", "KH", "jester")] == [
        1, 7, 10, 10, 15, 20, 0,
    ]  # fmt: skip


# ----- RG-2 the turn ------------------------------------------------------------------------


def test_rg_2_1_two_players_cannot_yield_right_after_the_other_yielded() -> None:
    state = stacked(hands=[["9H", "8H"], ["9D", "8D"]], castle=["JC"])
    assert "yield" in legal_texts(state)
    act(state, "yield", "discard 9H")  # the jack attacks for 10: 9, then the 8 (forced)
    assert state.current_player == 1
    assert "yield" not in legal_texts(state)


def test_rg_2_1_three_players_two_yields_in_a_row_block_the_third() -> None:
    state = stacked(3, hands=[["10H"], ["10D"], ["10S", "9S"]], castle=["JC"])
    act(state, "yield")  # player 0 pays 10 with the 10H (forced, automatic)
    act(state, "yield")  # player 1 likewise
    assert state.current_player == 2
    assert "yield" not in legal_texts(state)


def test_rg_2_1_solo_cannot_yield_unless_the_option_allows_it() -> None:
    hands = [["9H", "8H", "7H"]]
    assert "yield" not in legal_texts(stacked(1, hands=hands))
    solo_yield = RegicideGame(1, solo_yield=True).stacked_state(hands=hands)
    assert "yield" in legal_texts(solo_yield)


def test_rg_2_3_damage_accumulates_and_a_kill_lets_the_same_player_go_again() -> None:
    state = stacked(hands=[["10S", "2D"], ["10H", "3C"]], castle=["JC", "JD"])
    act(state, "play 10S")  # 10 damage; the shield of 10 makes the attack 0: turn passes
    assert (state.enemy_damage, state.current_player) == (10, 1)
    act(state, "play 10H")  # 20 in all: defeated
    assert state.enemy == parse_card("JD")
    assert (state.current_player, state.phase) == (1, PLAY)


def test_rg_2_4_pay_damage_one_discard_at_a_time_then_done_or_more() -> None:
    state = stacked(hands=[["2H", "7S", "5D", "4C"], ["3C"]], castle=["JC"])
    act(state, "play 2H")
    assert state.phase == DISCARD and state.to_cover == 10
    act(state, "discard 7S")
    assert "done" not in legal_texts(state)
    act(state, "discard 5D")  # 12 >= 10: covered, may stop or go on discarding
    assert legal_texts(state) == {"done", "discard 4C"}
    act(state, "done")
    assert state.current_player == 1
    assert sorted(state.discard) == sorted(cards("7S", "5D"))


def test_rg_2_4_a_hand_that_cannot_pay_loses_for_everyone() -> None:
    state = stacked(hands=[["2H", "3S", "4D"], ["9C"]], castle=["JC"])
    act(state, "play 2H")  # 3S + 4D = 7 < 10
    assert state.is_terminal() and state.won is False
    assert state.current_player == TERMINAL
    assert state.rewards() == [-1.0, -1.0] == state.returns()


def test_rg_2_4_full_shield_means_no_discard() -> None:
    state = stacked(hands=[["10S", "2D"], ["3C"]], castle=["JC"])
    act(state, "play 10S")
    assert state.current_player == 1 and state.phase == PLAY


def test_rg_2_5_exact_kill_puts_the_enemy_on_top_of_the_tavern() -> None:
    state = stacked(hands=[["10C", "3D"], ["2S"]], castle=["JH", "JD"], tavern=["9S"])
    act(state, "play 10C")  # 20 damage, exactly the jack's health
    assert state.tavern[-1] == parse_card("JH") and state.tavern_known_top == 1
    assert parse_card("10C") in state.discard and not state.in_play
    assert "top known: JH" in state.render(observer=1)


def test_rg_2_5_overkill_discards_the_enemy_and_the_last_king_wins() -> None:
    overkill = stacked(hands=[["10C", "AC"], ["2S"]], castle=["JH"])
    act(overkill, "play 10C+AC")  # 22 > 20
    assert parse_card("JH") in overkill.discard
    last_king = stacked(hands=[["10C", "AC"], ["2S"]], castle=["KH"])
    last_king.castle.clear()
    last_king.enemy_damage = 30
    act(last_king, "play 10C")
    assert last_king.is_terminal() and last_king.won is True
    assert last_king.returns() == [1.0, 1.0]


def test_rg_2_6_empty_hand_that_cannot_yield_loses() -> None:
    state = stacked(hands=[["10S"], ["2C", "10H"]], castle=["JD"])
    act(state, "play 10S")  # shield 10: no attack; player 0's hand is now empty
    act(state, "yield")  # player 1 yields, so player 0 can neither play nor yield
    assert state.is_terminal() and state.won is False


def solo_yield_state(hand: list[str], jester_powers: int = 0) -> RegicideState:
    state = RegicideGame(1, solo_yield=True).stacked_state(hands=[hand], castle=["JD"])
    state.jester_powers = jester_powers
    state.settle()
    return state


def test_rg_2_1_solo_yield_not_on_two_turns_in_a_row() -> None:
    state = solo_yield_state(["10S", "2C", "3C"])
    act(state, "play 10S")  # shield 10: the jack's attack is 0, the turn passes (to itself)
    assert "yield" in legal_texts(state)
    act(state, "yield")
    assert legal_texts(state) == {"play 2C", "play 3C"}
    can_yield = dict((name, s) for name, s, _ in flat_layout())["can_yield"]
    assert ENCODERS["flat"].encode(state, 0)[can_yield].tolist() == [0.0]
    act(state, "play 2C")
    assert "yield" in legal_texts(state)


def test_rg_2_6_solo_empty_hand_facing_no_attack_loses_after_one_yield() -> None:
    """RG-2.1 + RG-2.6: an empty hand, attack 0 after shields, no jester power left: the
    forced yield is taken once, then the player can neither play nor yield and loses."""
    state = solo_yield_state(["10S"])
    act(state, "play 10S")
    assert state.is_terminal() and state.won is False
    assert state.yielded == [True] and state.enemy_attack == 0 and state.jester_powers == 0


def test_rg_7_2_solo_empty_hand_facing_no_attack_flips_a_jester_left() -> None:
    state = solo_yield_state(["10S"], jester_powers=1)
    act(state, "play 10S")
    assert legal_texts(state) == {"yield", "flip jester"}
    act(state, "yield")  # next turn: no yield twice in a row, so the flip is forced
    assert state.won is None and state.jester_powers == 0 and len(state.hands[0]) == 8


def test_rg_2_6_an_empty_hand_yields_when_yielding_is_allowed() -> None:
    state = stacked(hands=[["10S"], ["2C", "10H", "9H"]], castle=["JD"])
    act(state, "play 10S", "play 2C")  # player 0 must yield: taken automatically
    assert state.yielded[0] and state.current_player == 1 and state.won is None


# ----- RG-3 combinations ----------------------------------------------------------------------


def test_rg_3_1_animal_companion_pairs_with_any_card_but_a_jester() -> None:
    state = stacked(3, hands=[["AS", "AH", "KD", "jester", "5C"], ["2C"], ["3C"]], castle=["JC"])
    texts = legal_texts(state)
    assert {"play AS+AH", "play AS+KD", "play AH+5C", "play AS+5C"} <= texts
    assert not any("jester+" in t or "+jester" in t for t in texts)
    act(state, "play AS+KD")  # attack 1 + 20 = 21 >= 20 defeats the JC
    assert state.enemies_defeated == 1
    assert {parse_card("AS"), parse_card("KD"), parse_card("JC")} <= set(state.discard)


@pytest.mark.parametrize(
    ("hand", "allowed", "refused"),
    [
        (["5H", "5D"], "play 5H+5D", None),
        (["6H", "6D"], None, "play 6H+6D"),
        (["2H", "2D", "2S", "2C"], "play 2S+2H+2D+2C", None),
        (["3H", "3D", "3S", "3C"], "play 3S+3H+3D", "play 3S+3H+3D+3C"),
        (["AH", "2D", "2C"], "play AH+2D", "play AH+2D+2C"),
    ],
)
def test_rg_3_2_sets_of_one_rank_totalling_at_most_ten(hand, allowed, refused) -> None:
    state = stacked(hands=[hand, ["9C"]], castle=["KS"])
    texts = legal_texts(state)
    if allowed:
        assert allowed in texts
    if refused:
        with pytest.raises(IllegalActionError):
            state.apply(state.string_to_action(refused))


def test_rg_3_2_captured_faces_cannot_form_sets() -> None:
    state = stacked(hands=[["JH", "JD"], ["9C"]], castle=["KS"])
    assert legal_texts(state) == {"yield", "play JH", "play JD"}


def test_rg_3_4_each_suit_once_with_the_whole_play_value() -> None:
    state = stacked(hands=[["AC", "5C", "9S", "9H"], ["2D"]], castle=["KH"])
    act(state, "play AC+5C")  # two clubs: damage doubled once, 2 * 6
    assert state.enemy_damage == 12
    shields = stacked(hands=[["4S", "4D", "9H", "9C"], ["2D"]], castle=["KH"], tavern=["2H"])
    act(shields, "play 4S+4D")  # spades and diamonds both work with magnitude 8
    assert shields.shields == 8
    assert [len(hand) for hand in shields.hands] == [2 + 4, 1 + 4]  # 8 draws, in turn


def test_rg_3_5_hearts_resolve_before_diamonds() -> None:
    state = stacked(hands=[["5H", "5D", "9C", "8C"], ["2C"]], castle=["KS"], tavern=[])
    state.discard.extend(state.tavern)  # an empty tavern and a full discard pile
    state.tavern.clear()
    act(state, "play 5H+5D")  # heal 10 into the tavern, then draw those 10 round the table
    assert [len(hand) for hand in state.hands] == [2 + 5, 1 + 5]
    assert state.tavern == []


# ----- RG-4 suit powers -----------------------------------------------------------------------


def test_rg_4_1_hearts_move_cards_from_discard_under_the_tavern() -> None:
    state = stacked(hands=[["7H", "9S", "9D", "9C"], ["2C"]], castle=["KS"], tavern=["2S"])
    moved = cards("3S", "3D", "3C")
    for card in moved:
        state.tavern.remove(card)
    state.discard.extend(moved)
    act(state, "play 7H")  # heal 7, only 3 in the discard pile: all move
    assert state.discard == []
    assert sorted(state.tavern[:3]) == sorted(moved)  # at the bottom
    assert state.tavern[-1] == parse_card("2S")  # the top is untouched


@pytest.mark.parametrize(
    ("discarded", "heart", "moved"),
    [
        (3, "5H", 3),  # D < N < 2D: all D move
        (7, "10H", 7),  # D < N < 2D
        (2, "5H", 2),  # N >= 2D
        (8, "5H", 5),  # N <= D
        (5, "5H", 5),  # N == D
        (0, "5H", 0),  # nothing to heal
    ],
)
def test_rg_4_1_heal_takes_n_cards_or_all_if_fewer(discarded: int, heart: str, moved: int) -> None:
    state = stacked(hands=[[heart, "9S", "9D", "9C"], ["2C"]], castle=["KS"])
    pile = state.tavern[:discarded]  # bottom cards, never drawn here
    del state.tavern[:discarded]
    state.discard.extend(pile)
    tavern_before = state.tavern[:]
    act(state, f"play {heart}")
    assert len(state.discard) == discarded - moved
    assert sorted(state.tavern[:moved]) == sorted(set(pile) - set(state.discard))
    assert state.tavern[moved:] == tavern_before


def test_rg_4_2_diamonds_draw_round_the_table_skipping_full_hands() -> None:
    state = stacked(
        3,
        hands=[["4D", "9S"], ["2C", "3C", "4C", "5C", "6C", "7C"], ["2H"]],
        castle=["KS"],
        tavern=["10S", "10H", "10C", "9H"],
    )
    act(state, "play 4D")  # draws: player 0, (1 full), 2, 0, 2
    assert sorted(state.hands[0]) == sorted(cards("9S", "10S", "10C"))
    assert sorted(state.hands[2]) == sorted(cards("2H", "10H", "9H"))


def test_rg_4_2_drawing_stops_when_the_tavern_is_empty() -> None:
    state = stacked(hands=[["9D", "9S"], ["2C"]], castle=["KS"], tavern=["10S"])
    state.discard.extend(state.tavern[:-1])
    del state.tavern[:-1]
    act(state, "play 9D")
    assert state.tavern == [] and len(state.hands[0]) + len(state.hands[1]) == 3


def test_rg_4_3_clubs_double_damage() -> None:
    state = stacked(hands=[["8C", "9S"], ["2D"]], castle=["KS"])
    act(state, "play 8C")
    assert state.enemy_damage == 16


def test_rg_4_4_spade_shields_add_up_until_the_enemy_dies() -> None:
    state = stacked(hands=[["3S", "9D", "9H"], ["4S", "9C", "8C"]], castle=["KH", "JD"])
    act(state, "play 3S", "discard 9D")  # attack 17: 9, then the 9H (forced)
    act(state, "play 4S")
    assert state.shields == 7 and state.enemy_attack == 13


# ----- RG-5 immunity --------------------------------------------------------------------------


def test_rg_5_1_an_enemy_ignores_its_own_suit_but_takes_the_damage() -> None:
    clubs = stacked(hands=[["8C", "9S"], ["2D"]], castle=["KC"])
    act(clubs, "play 8C")
    assert clubs.enemy_damage == 8
    spades = stacked(hands=[["8S", "9D", "9H", "5C"], ["2D"]], castle=["KS"])
    act(spades, "play 8S")
    assert spades.shields == 0 and spades.to_cover == 20


def test_rg_5_2_jester_makes_earlier_spades_shield_retroactively() -> None:
    hands = [["6S", "10D", "10H"], ["jester", "2C"], ["5C", "10S"]]
    state = stacked(3, hands=hands, castle=["KS"])
    act(state, "play 6S", "discard 10D")  # immune: no shield; pays 20 with both tens
    assert state.shields == 0 and state.held_spade_shields == 6
    act(state, "play jester")
    assert state.shields == 6 and state.enemy_attack == 14


def test_rg_5_2_jester_does_not_double_earlier_clubs() -> None:
    hands = [["6C", "10D", "10H"], ["jester", "2H"], ["5C", "10S"]]
    state = stacked(3, hands=hands, castle=["KC"])
    act(state, "play 6C", "discard 10D")  # immune: 6 damage, not 12
    act(state, "play jester")
    assert state.enemy_damage == 6
    act(state, "next 2", "play 5C")  # clubs double from now on
    assert state.enemy_damage == 6 + 10


# ----- RG-6 jester and captured enemies --------------------------------------------------------


def test_rg_6_1_jester_skips_the_attack_and_its_player_picks_who_goes_next() -> None:
    state = stacked(3, hands=[["jester", "9C"], ["2C"], ["3C"]], castle=["KH"])
    act(state, "play jester")
    assert state.phase == CHOOSE_NEXT and state.enemy_damage == 0
    assert legal_texts(state) == {"next 0", "next 1", "next 2"}
    act(state, "next 0")
    assert (state.current_player, state.phase) == (0, PLAY)


def test_rg_6_2_captured_king_is_worth_20_with_its_suit_power() -> None:
    state = stacked(hands=[["KC", "AD", "9S"], ["2H"]], castle=["KS"])
    assert "play AD+KC" in legal_texts(state)
    act(state, "play KC")  # clubs double: 40 kills the king exactly
    assert state.enemies_defeated == 1 and state.tavern[-1] == parse_card("KS")


# ----- RG-7 solo ------------------------------------------------------------------------------


def test_rg_7_1_solo_setup() -> None:
    state = RegicideGame(1).new_state(seed=3)
    assert len(state.hands[0]) == 8 and state.jester_powers == 2
    assert sorted(state.set_aside) == [JESTER, JESTER + 1]


def test_rg_7_2_flip_at_the_start_of_step_1_refills_to_eight() -> None:
    state = stacked(1, hands=[["2H", "3H"]], castle=["KS"])
    assert "flip jester" in legal_texts(state)
    act(state, "flip jester")
    assert len(state.hands[0]) == 8 and state.jester_powers == 1
    assert sorted(state.discard) == sorted(cards("2H", "3H"))


def test_rg_7_2_both_jesters_flip_at_the_start_of_the_same_step() -> None:
    state = stacked(1, hands=[["2H", "3H"]], castle=["KS"])
    act(state, "flip jester")
    first_draw = state.hands[0][:]
    assert "flip jester" in legal_texts(state)
    act(state, "flip jester")
    assert state.jester_powers == 0 and len(state.hands[0]) == 8
    assert sorted(state.discard) == sorted(cards("2H", "3H") + first_draw)


def test_rg_7_2_flip_at_step_4_only_before_any_discard() -> None:
    state = stacked(1, hands=[["2H", "10S", "9D", "9C"]], castle=["KH"])
    act(state, "play 2H")
    assert "flip jester" in legal_texts(state)
    act(state, "discard 10S")
    assert "flip jester" not in legal_texts(state)


def test_rg_7_2_forced_flip_when_the_hand_cannot_pay() -> None:
    state = stacked(1, hands=[["2H", "3S"]], castle=["KH"], tavern=["10S", "10D", "10C"])
    act(state, "play 2H")  # must pay 20 with a 3: the flip is the only way, taken for the player
    assert state.jester_powers == 1 and state.phase == DISCARD
    assert state.won is None


def test_rg_7_3_grade_follows_jester_powers_used() -> None:
    state = stacked(1, hands=[["10C", "AC"]], castle=["KH"])
    state.castle.clear()
    state.enemy_damage = 30
    state.jester_powers = 1
    act(state, "play 10C")
    assert state.grade() == "silver" and state.stats()["grade"] == 1.0


# ----- RG-8 what each player sees --------------------------------------------------------------


def known_jack_drawn(num_players: int = 2, pay: str = "10S") -> RegicideState:
    """Player 0 kills the JH exactly (on top of the tavern, seen by all), then draws it with a
    diamond and pays the JC's attack with ``pay``: everyone saw player 0 draw the JH."""
    hands = [["10C", "3D", "10S", "9S"], ["2S", "4C"], ["2H"], ["2D"]][:num_players]
    state = stacked(num_players, hands=hands, castle=["JH", "JC"])
    act(state, "play 10C")
    assert state.tavern_known_top == 1
    act(state, "play 3D", f"discard {pay}", "done")
    assert state.current_player == 1
    return state


def test_rg_8_2_a_known_card_drawn_stays_with_its_holder_in_every_resample() -> None:
    state = known_jack_drawn()
    jack = parse_card("JH")
    assert state.known_held == [[jack], []]
    rng = random.Random(0)
    for _ in range(200):
        twin = state.resample_hidden(1, rng)
        assert jack in twin.hands[0] and twin.known_held == [[jack], []]
        assert len(twin.hands[0]) == len(state.hands[0])


@pytest.mark.parametrize("num_players", [2, 3])
def test_rg_8_2_the_others_see_who_holds_a_known_card(num_players: int) -> None:
    state = known_jack_drawn(num_players)
    observer = num_players - 1  # player 0 sits one seat after the last player
    flat = ENCODERS["flat"].encode(state, observer)
    block = dict((name, s) for name, s, _ in flat_layout())["known_in_other_hands"]
    assert np.flatnonzero(flat[block]).tolist() == [KIND[parse_card("JH")]]
    entity = ENCODERS["entity"].encode(state, observer)
    zone = ZONES[int(np.argmax(entity[parse_card("JH"), -len(ZONES) :]))]
    assert zone == "known in the hand of relative seat 1"
    assert f"Player 0: {len(state.hands[0])} cards (known: JH)" in state.render(observer)


def test_rg_8_2_a_known_card_discarded_is_no_longer_held() -> None:
    state = known_jack_drawn(pay="JH")
    assert state.known_held == [[], []] and parse_card("JH") in state.discard
    assert "known" not in state.render(1)


def healed_state(room_for_player_1: int = 0) -> tuple[RegicideState, list[int]]:
    """RG-4.1 then RG-4.2: the tavern holds only a heal batch of 3S 3D 3C (all other tavern
    cards are set in play), player 0 plays 5H+5D: heal 10 moves the 3 discarded threes under
    the empty tavern, then draw 10 takes them round the table (player 1 has
    ``room_for_player_1`` free places). Returns the state and the batch."""
    hand_1 = ["2S", "2H", "2D", "2C", "4S", "4H", "4D"][: 7 - room_for_player_1]
    state = stacked(hands=[["5H", "5D", "9S", "9C"], hand_1], castle=["KS"])
    batch = cards("3S", "3D", "3C")
    state.in_play.extend(c for c in state.tavern if c not in batch)
    state.tavern.clear()
    state.discard.extend(batch)
    return state, batch


def _healed_three_under_the_tavern() -> tuple[RegicideState, list[int]]:
    """Player 0's 7H heals 3S 3D 3C, the whole discard pile, under the tavern (RG-4.1)."""
    state = stacked(hands=[["7H", "9S", "9D", "9C"], ["2C"]], castle=["KS"], tavern=["2S"])
    moved = cards("3S", "3D", "3C")
    for card in moved:
        state.tavern.remove(card)
    state.discard.extend(moved)
    act(state, "play 7H")
    return state, moved


def test_rg_4_1_healed_cards_stay_in_their_batch_at_the_bottom_in_every_resample() -> None:
    """RG-4.1 / RG-8.2: the discard pile is public, so everyone knows which cards a heal put
    under the tavern; a determinization may shuffle them only among themselves."""
    state, moved = _healed_three_under_the_tavern()
    rng = random.Random(0)
    orders = set()
    for _ in range(200):
        for observer in (0, 1):
            twin = state.resample_hidden(observer, rng)
            assert sorted(twin.tavern[:3]) == sorted(moved)
            orders.add(tuple(twin.tavern[:3]))
    assert len(orders) == 6  # the batch's order is hidden: every order occurs


def test_rg_4_1_a_batch_drawn_out_by_one_player_is_known_to_be_held() -> None:
    """RG-4.1 / RG-8.2: player 0 drew the whole heal batch, so everyone knows its cards."""
    state, batch = healed_state()
    act(state, "play 5H+5D")
    assert sorted(state.known_held[0]) == sorted(batch) and state.heal_cards == []
    assert "Player 0: 5 cards (known: 3S 3D 3C)" in state.render(1)
    flat = ENCODERS["flat"].encode(state, 1)
    block = dict((name, s) for name, s, _ in flat_layout())["known_in_other_hands"]
    assert np.flatnonzero(flat[block]).tolist() == sorted(KIND[c] for c in batch)
    (drawn,) = [e for e in state.last_events(1) if e.kind == "cards_drawn"]
    assert drawn.data["cards"] == ["3S", "3D", "3C"]


def test_rg_4_1_a_card_drawn_from_a_batch_is_one_of_its_cards_until_the_others_show() -> None:
    """RG-4.1 / RG-8.2: player 0 draws two cards of the batch and player 1 one: each is one
    of the batch's cards, not a known card; once player 0 discarded both of theirs, player 1's
    is the batch's last unseen card and known to be held."""
    state, batch = healed_state(room_for_player_1=1)
    act(state, "play 5H+5D")
    assert state.known_held == [[], []] and state.heal_sizes == [0]
    mine = [c for c in state.hands[0] if c in batch]
    (theirs,) = [c for c in state.hands[1] if c in batch]
    rng = random.Random(1)
    for _ in range(50):  # each player's share of the batch is public; which card, not
        assert [c for c in state.resample_hidden(0, rng).hands[1] if c in batch] == [theirs]
        assert sorted(c for c in state.resample_hidden(1, rng).hands[0] if c in batch) == (
            sorted(mine)
        )
    entity = ENCODERS["entity"].encode(state, 1)
    for card in mine:
        assert ZONES[int(np.argmax(entity[card, -len(ZONES) :]))] == "healed: drawn by others"
    act(state, f"discard {card_name(mine[0])}")
    assert state.known_held == [[], []]
    act(state, f"discard {card_name(mine[1])}")
    assert state.known_held == [[], [theirs]] and state.heal_cards == []


def test_rg_8_2_the_encodings_show_the_healed_batch_and_its_depth() -> None:
    """RG-8.2 / RG-4.1: which cards lie in the tavern's healed bottom is public; the flat
    block gives 1 - (tavern cards above the batch) / 54, the entity a zone and the depth."""
    state, moved = _healed_three_under_the_tavern()
    depth = 1 - (len(state.tavern) - 3) / 54
    layout = {name: s for name, s, _ in flat_layout()}
    flat = ENCODERS["flat"].encode(state, 1)
    healed = flat[layout["healed_in_tavern"]]
    assert np.flatnonzero(healed).tolist() == sorted(KIND[c] for c in moved)
    assert healed[KIND[moved[0]]] == pytest.approx(depth)
    assert flat[layout["tavern_unknown"]] == pytest.approx((len(state.tavern) - 3) / 54)
    entity = ENCODERS["entity"].encode(state, 1)
    for card in moved:
        zone = ZONES[int(np.argmax(entity[card, -len(ZONES) :]))]
        assert zone == "healed: tavern bottom or drawn by others"
        assert entity[card, -len(ZONES) - 1] == pytest.approx(depth)
    assert "healed, next first: 3 of 3S 3D 3C" in state.render(1)


# ----- RG-8 rewards and notation ---------------------------------------------------------------


def test_rg_8_1_shaped_reward_pays_per_enemy_on_top_of_the_outcome() -> None:
    game = RegicideGame(2, shaped_reward=True)
    state = game.stacked_state(hands=[["10C", "3D"], ["2S"]], castle=["JH"])
    act(state, "play 10C")
    assert state.rewards() == pytest.approx([1 / 12, 1 / 12])
    plain = stacked(hands=[["10C", "3D"], ["2S"]], castle=["JH"])
    act(plain, "play 10C")
    assert plain.rewards() == [0.0, 0.0]


def test_notation_round_trips_for_every_action() -> None:
    state = stacked()
    for action in range(RegicideGame.num_actions):
        assert state.string_to_action(state.action_to_string(action)) == action
    assert state.string_to_action("PLAY ac+5h") == state.string_to_action("play 5H+AC")
    with pytest.raises(IllegalActionError, match="cannot read"):
        state.string_to_action("play 6H+6D")


def test_illegal_action_names_the_action_and_the_legal_ones() -> None:
    state = stacked(hands=[["5H", "9S"], ["2C"]], castle=["KS"])
    with pytest.raises(IllegalActionError, match=r"play 7D.*legal: yield, play 9S"):
        state.apply(state.string_to_action("play 7D"))


def test_unknown_option_is_an_error() -> None:
    with pytest.raises(TypeError, match="unknown option"):
        regicide_v0.SPEC.new_game(num_players=2, jesters=3)
