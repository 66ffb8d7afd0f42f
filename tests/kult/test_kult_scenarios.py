"""Scenario tests for Kult, one or more per rule of the rules of record (KU-1 … KU-11 and
their decisions), each on a stacked position (``kult_positions``) with exact results:
legal action sets, tokens per zone, sides of cards, keys, who decides next, rewards."""

from __future__ import annotations

import random

import pytest
from kult_positions import GAMES, act, other_lantern_deck, stacked, texts

from tabletop.envs.core.cards.data import CardDataError
from tabletop.envs.core.protocol import TERMINAL
from tabletop.envs.kult.actions import NUM_ACTIONS
from tabletop.envs.kult.cards import load_deck, load_pool, parse_pool
from tabletop.envs.kult.engine import DRAW, KultGame
from tabletop.envs.kult.turns import (
    ACTIONS,
    DISCARD,
    FIGHT_WINDOW,
    RECRUIT,
    RECRUIT_WINDOW,
)

POOL = load_pool()
SKULL, EYE, ROSE, CRESCENT, HOURGLASS = range(5)
WARDEN_KEYS = [0, 2, 1, 0, 1]  # The Lantern Warden: Eye, Eye, Hourglass, Rose


def base(state, seat: int, number: int):
    return state.crosses[seat][number - 1]


def names(state, iids) -> list[str]:
    return [state.card(iid).name for iid in iids]


def cast_tokens(state, seat: int) -> list[int]:
    return [0 if b is None else b.tokens for b in state.crosses[seat][4:]]


def scene_tokens(state, seat: int) -> list[int]:
    return [0 if b is None else b.tokens for b in state.crosses[seat][:4]]


def total_tokens(state) -> int:
    return state.pool_tokens + state.tokens_placed()


def starting(texts_: list[str], prefix: str) -> list[str]:
    return [t for t in texts_ if t.startswith(prefix)]


# ----- KU-2 setup ---------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize(("game_type", "per_player"), [("continent", 5), ("world", 10)])
def test_ku_2_4_ku_2_5_pool_size_target_and_two_tokens_in_each_hub(
    players, game_type, per_player
) -> None:
    game = KultGame(num_players=players, game_type=game_type)
    assert game.tokens == per_player * players - 1 and game.target == per_player
    for seed in range(3):
        state = game.new_state(seed)
        assert state.hub_tokens == [2] * players
        assert state.pool_tokens == per_player * players - 1 - 2 * players
        assert state.tokens_placed() == 2 * players  # nothing on any card yet
        assert all(b is None for cross in state.crosses for b in cross)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_ku_2_6_every_player_draws_seven_cards_and_ku_2_3_lays_one_hub_card(players) -> None:
    state = GAMES[players].new_state(7)
    assert [len(hand) for hand in state.hands] == [7] * players  # the Ashen Matron too
    assert [len(cards) for cards in state.hub_cards] == [1] * players
    assert [len(deck) for deck in state.decks] == [30 - 1 - 7] * players
    assert [len(pile) for pile in state.discards] == [0] * players


def test_ku_2_7_lowest_hierarchy_starts_ties_drawn_by_the_rng() -> None:
    # Tide 11, Clockwork 16, Ashen Matron 7: seat 2 starts, every seed.
    game = KultGame(num_players=3, decks=["tide", "clock", "ash"])
    assert {game.new_state(seed).active for seed in range(10)} == {2}
    assert game.new_state(0).current_player == 2
    tie = KultGame(num_players=3, decks=["clock", "tide", "tide"])
    assert {tie.new_state(seed).active for seed in range(30)} == {1, 2}


def _dealt(state, seat: int) -> list[str]:
    """Every card the seat's deck gave: hand, deck and Hub card."""
    return sorted(names(state, state.hands[seat] + state.decks[seat] + state.hub_cards[seat]))


def test_ku_2_1_same_arcanum_swap_option() -> None:
    mine, other = load_deck("lantern", POOL), other_lantern_deck()
    by_name = sorted(POOL.cards[i].name for i in other.cards)
    swapped = KultGame(decks=[mine, other]).new_state(0)
    assert _dealt(swapped, 0) == by_name
    assert _dealt(swapped, 1) == sorted(POOL.cards[i].name for i in mine.cards)
    kept = KultGame(decks=[mine, other], same_arcanum_swap=False).new_state(0)
    assert _dealt(kept, 1) == by_name
    # Different Arcana never swap; with three players only the two of one Arcanum do.
    three = KultGame(num_players=3, decks=[mine, "ash", other]).new_state(0)
    assert _dealt(three, 0) == by_name
    assert _dealt(three, 1) == sorted(POOL.cards[i].name for i in load_deck("ash", POOL).cards)
    assert _dealt(three, 2) == sorted(POOL.cards[i].name for i in mine.cards)


def test_ku_2_3_the_hub_card_stays_out_of_play_unturned_and_hidden_all_game() -> None:
    game = GAMES[3]
    state = game.new_state(11)
    hub_cards = [list(cards) for cards in state.hub_cards]
    rng = random.Random(11)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
        assert [list(cards) for cards in state.hub_cards] == hub_cards
        for seat in range(3):
            (iid,) = state.hub_cards[seat]
            assert state.table.seen[iid] == 0  # nobody knows it, not even its owner
            assert all(b is None or b.iid != iid for b in state.crosses[seat])
    for observer in range(3):
        assert "Hub card" not in state.render(observer)


# ----- KU-3 card kinds ----------------------------------------------------------------------


def test_ku_3_4_holding_limits_by_kind_and_text() -> None:
    state = stacked(
        {
            "cross": {
                1: "Old Cemetery",
                2: "Circle of Salt",
                5: "Street Prophet",
                6: "Hollow Saint",
                7: "Changeling",
            },
            "hub": 4,
        }
    )
    assert [state.holding_limit(0, s) for s in (0, 1, 4, 5, 6)] == [1, 0, 1, 2, 0]
    act(state, "push Hub>Scene1 Skull")
    assert state.hub_tokens[0] == 3 and scene_tokens(state, 0) == [1, 0, 0, 0]
    # Scene1 is full, Scene2 a Spell: the Scene ring can take no more, pushes skip it.
    assert {t.rsplit(" ", 1)[0] for t in starting(texts(state), "push Hub")} == {
        "push Hub>Cast5",
        "push Hub>Cast6",
    }


def test_ku_3_2_influence_on_a_face_down_card_attaches_but_modifies_only_face_up() -> None:
    state = stacked(
        {
            "hand": ["Deep Roots", "Blessing"],
            "temp_keys": ["rose", "crescent"],
            "cross": {
                1: {"card": "Old Cemetery", "face_up": False},
                5: {"card": "Tin Soldier", "face_up": False},
            },
            "hub": 2,
        }
    )
    legal = texts(state)
    assert "attach Deep Roots>Scene1" in legal and "attach Blessing>Cast5" in legal
    act(state, "attach Deep Roots>Scene1", "attach Blessing>Cast5")
    assert state.holding_limit(0, 0) == 1  # face down: Deep Roots does nothing
    assert state.combat_value(0, 4) == 2  # nor does Blessing
    act(state, "push Hub>Scene1 Eye")
    assert base(state, 0, 1).tokens == 1 and not state.can_take(0, 0)
    base(state, 0, 1).face_up = base(state, 0, 5).face_up = True
    assert state.holding_limit(0, 0) == 2 and state.combat_value(0, 4) == 4


def test_ku_3_2_attached_cards_hold_no_tokens() -> None:
    state = stacked({"cross": {5: {"card": "Tin Soldier", "influences": ["Blessing"]}}})
    assert [a.card.holds for a in state.influences[0]] == [0]
    assert POOL.card_named("Hex").holds == 0 and POOL.card_named("Omen").holds == 0


def test_ku_3_5_unique_across_all_players_until_it_leaves_play() -> None:
    state = stacked(
        {"hand": ["Hollow Saint", "Stray Cat"], "temp_keys": ["rose", "hourglass"]},
        {"cross": {5: "Hollow Saint"}},
    )
    assert starting(texts(state), "play Hollow Saint") == []  # p1's copy is in play
    state.discard_from_cross(1, 4)  # it leaves play (as a fight's loser would)
    state.settle()
    assert starting(texts(state), "play Hollow Saint") == [
        f"play Hollow Saint>Cast{n}" for n in range(5, 9)
    ]
    act(state, "play Hollow Saint>Cast5")
    assert starting(texts(state), "play Hollow Saint") == []


# ----- KU-4 colours -------------------------------------------------------------------------


def test_ku_4_1_multiplicity_counts_keys_of_every_source_at_once() -> None:
    # Two Skulls for Grave Hound: one from Old Cemetery (permanent), one from a push.
    state = stacked({"hand": ["Grave Hound"], "cross": {1: "Old Cemetery"}, "hub": 1})
    assert state.keys(0) == [1, 2, 1, 0, 1]
    assert not starting(texts(state), "play Grave Hound")
    act(state, "push Hub>Scene1 Skull")
    assert state.keys(0) == [2, 2, 1, 0, 1]
    assert starting(texts(state), "play Grave Hound") == [
        f"play Grave Hound>Cast{n}" for n in range(5, 9)
    ]


def test_ku_4_2_permanent_keys_arcanum_and_face_up_places_only() -> None:
    state = stacked(
        {
            "cross": {
                1: "Old Cemetery",
                2: {"card": "Night Market", "face_up": False},
                5: "Rose Garden",
            },
            "hand": ["Omen"],
        }
    )
    assert state.phase == DISCARD and state.active == 0  # still p0's turn: nothing refreshed
    assert state.keys(0) == [1, 2, 2, 0, 1]  # Warden + Cemetery + Rose Garden; not the Market
    assert state.temp_keys[0] == [0] * 5


def test_ku_4_3_temporary_keys_pay_for_many_cards_then_break() -> None:
    state = stacked(
        {"hand": ["Raven", "Raven", "Raven"], "cross": {1: "Old Cemetery"}, "hub": 1},
        {"hand": ["Stray Cat"] * 7},
    )
    act(state, "push Hub>Scene1 Crescent")
    act(state, "play Raven>Cast5", "play Raven>Cast6", "play Raven>Cast7")
    assert state.temp_keys[0] == [0, 0, 0, 1, 0] and state.hands[0] == []
    act(state, "done")
    while state.active == 0:
        act(state, "done")
    assert state.temp_keys == [[0] * 5, [0] * 5]


def test_ku_4_4_allegiance_indicators_and_colours() -> None:
    state = stacked(
        {
            "hand": ["Ash Widow", "Pilgrim", "Grave Hound", "Street Prophet"],
            "temp_keys": ["skull", "skull"],
        }
    )
    plays = starting(texts(state), "play")
    assert plays == [
        *(f"play Pilgrim>Cast{n}" for n in range(5, 9)),  # the Warden's own allegiance
        *(f"play Grave Hound>Cast{n}" for n in range(5, 9)),  # Neutral
        *(f"play Street Prophet>Cast{n}" for n in range(5, 9)),
    ]
    assert not any(t.startswith("play Ash Widow") for t in plays)  # the Matron's allegiance
    assert not any("Scene" in t for t in plays)  # every one of these lists Cast 5-8 only


# ----- KU-5 face up, face down --------------------------------------------------------------


def test_ku_5_1_face_down_cards_give_no_colour_cannot_be_recruited_attacked_or_attract() -> None:
    state = stacked(
        {
            "cross": {
                1: {"card": "Old Cemetery", "face_up": False, "tokens": 1},
                2: "Rose Garden",
                5: {"card": "Street Prophet", "face_up": False, "tokens": 1},
                6: {"card": "Tin Soldier", "face_up": False},
                7: "Grave Hound",
            }
        },
        {"cross": {5: {"card": "Raven", "face_up": False}, 6: "Stray Cat"}},
        phase="attract",
    )
    assert state.keys(0)[SKULL] == 0
    # nothing to attract: the face-down Scene1 and Cast5 cannot take part
    assert state.phase == RECRUIT and texts(state) == ["done", "recruit Cast7"]
    act(state, "done")
    assert state.phase == ACTIONS
    act(state, "done")
    assert texts(state) == ["done", "attack Cast7>p1.Cast6"]
    assert base(state, 0, 1).tokens == 1 and base(state, 0, 5).tokens == 1  # still held


def test_ku_5_1_attached_cards_turn_with_their_base() -> None:
    state = stacked(
        {
            "cross": {
                5: {"card": "Street Prophet", "tokens": 1, "influences": ["Blessing"]},
                1: "Rose Garden",
            }
        },
        phase="attract",
    )
    assert state.combat_value(0, 4) == 3
    act(state, "attract Cast5>Scene1")
    assert not base(state, 0, 5).face_up and state.combat_value(0, 4) == 1


def test_ku_5_2_a_card_can_be_turned_for_its_ability_in_every_phase_of_its_turn() -> None:
    for phase in ("attract", "recruit", "actions", "attack", "discard"):
        state = stacked(
            {"cross": {5: "Wandering Medium"}, "hand": ["Raven"]},
            {"cross": {5: "Stray Cat"}},
            phase=phase,
        )
        assert state.phase != RECRUIT_WINDOW
        assert "turn Cast5" in texts(state), phase
        act(state, "turn Cast5")
        assert state.temp_keys[0][EYE] == 2 and not base(state, 0, 5).face_up
        assert "turn Cast5" not in texts(state)


def test_ku_5_3_only_phase_7_turns_cards_face_up_and_not_the_hub_card() -> None:
    state = stacked(
        {
            "cross": {5: {"card": "Street Prophet", "tokens": 1}, 1: "Old Cemetery"},
            "hub_card": "Raven",
            "hand": ["Stray Cat"] * 7,
        },
        {"cross": {5: {"card": "Raven", "face_up": False}}, "hand": ["Stray Cat"] * 7},
        phase="attract",
    )
    act(state, "attract Cast5>Scene1")
    assert not base(state, 0, 1).face_up and not base(state, 0, 5).face_up
    assert state.phase == ACTIONS
    act(state, "done")  # attack: no face-up Being; discard phase
    assert state.phase == DISCARD and not base(state, 0, 1).face_up
    act(state, "done")  # phase 7: p0's cards turn face up, p1's stay down
    assert state.active == 1
    assert base(state, 0, 1).face_up and base(state, 0, 5).face_up
    assert not base(state, 1, 5).face_up
    assert names(state, state.hub_cards[0]) == ["Raven"]


def test_ku_5_3_card_data_cannot_turn_cards_face_up() -> None:
    data = {
        "format": 1,
        "name": "x",
        "version": "1",
        "arcanum": [{"name": "Aa", "hierarchy": 1, "allegiance": "a", "colours": ["eye"] * 4}],
        "card": [
            {"name": "Wake Up", "kind": "command", "text": "t", "on_play": [{"do": "refresh"}]}
        ],
    }
    with pytest.raises(CardDataError, match=r"KU-5\.3"):
        parse_pool(data, "x.toml")
    assert not any(e.do == "refresh" for c in POOL.cards for e in c.on_play)


# ----- KU-6 pushing -------------------------------------------------------------------------


def test_ku_6_1_a_push_moves_one_token_one_step_out_for_a_chosen_colour() -> None:
    state = stacked({"cross": {2: "Old Cemetery", 6: "Stray Cat"}, "hub": 1, "hand": ["Omen"]})
    pushes = starting(texts(state), "push")
    assert pushes == [
        f"push Hub>Scene2 {c}" for c in ("Skull", "Eye", "Rose", "Crescent", "Hourglass")
    ]
    act(state, "push Hub>Scene2 Rose")
    assert (state.hub_tokens[0], scene_tokens(state, 0)) == (0, [0, 1, 0, 0])
    assert state.temp_keys[0] == [0, 0, 1, 0, 0]
    act(state, "push Scene2>Cast6 Rose")
    assert cast_tokens(state, 0) == [0, 1, 0, 0] and state.temp_keys[0] == [0, 0, 2, 0, 0]
    pool = state.pool_tokens
    act(state, "push Cast6>Pool Skull")
    assert state.pool_tokens == pool + 1 and state.temp_keys[0] == [1, 0, 2, 0, 0]
    assert state.keys(0) == [1 + 1, 2, 1 + 2, 0, 1]  # Warden + Cemetery + the pushes
    assert total_tokens(state) == GAMES[2].tokens


def test_ku_6_2_face_down_cards_receive_pushed_tokens_within_their_limit() -> None:
    state = stacked(
        {
            "cross": {
                1: {"card": "Old Cemetery", "face_up": False},
                2: {"card": "Rose Garden", "face_up": False, "tokens": 1},
            },
            "hub": 2,
        }
    )
    assert {t.rsplit(" ", 1)[0] for t in starting(texts(state), "push")} == {
        "push Hub>Scene1",
        "push Scene2>Pool",
    }
    act(state, "push Hub>Scene1 Eye")
    assert base(state, 0, 1).tokens == 1 and not base(state, 0, 1).face_up


def test_ku_6_3_skipping_an_empty_or_full_ring_gives_one_colour_per_push() -> None:
    # No Scene card: Hub -> Cast (one colour); no Cast card can take: Scene -> Pool.
    state = stacked({"cross": {5: "Stray Cat"}, "hub": 2})
    assert {t.rsplit(" ", 1)[0] for t in starting(texts(state), "push")} == {"push Hub>Cast5"}
    act(state, "push Hub>Cast5 Skull")
    assert state.temp_keys[0] == [1, 0, 0, 0, 0] and cast_tokens(state, 0) == [1, 0, 0, 0]
    # the Hub has a token but neither ring can take it: no Hub -> Pool across two rings
    assert {t.rsplit(" ", 1)[0] for t in starting(texts(state), "push")} == {"push Cast5>Pool"}
    state = stacked({"cross": {1: {"card": "Old Cemetery", "tokens": 1}, 5: "Circle of Salt"}})
    assert {t.rsplit(" ", 1)[0] for t in starting(texts(state), "push")} == {"push Scene1>Pool"}
    act(state, "push Scene1>Pool Eye")
    assert state.temp_keys[0] == [0, 1, 0, 0, 0]


def test_ku_6_4_any_number_of_pushes_and_ku_6_5_a_paying_push_gives_no_colour() -> None:
    state = stacked(
        {
            "cross": {5: "Crossroads", 1: "Old Cemetery", 2: "Rose Garden"},
            "hub": 3,
            "deck": ["Raven", "Stray Cat"],
        }
    )
    act(state, "push Hub>Scene1 Eye", "push Hub>Scene2 Eye")
    assert state.temp_keys[0][EYE] == 2 and state.hub_tokens[0] == 1
    act(state, "invoke Cast5")
    assert texts(state) == ["push Hub>Cast5", "push Scene1>Cast5", "push Scene2>Cast5"]
    act(state, "push Hub>Cast5")
    assert state.temp_keys[0] == [0, 2, 0, 0, 0]  # no colour for the paying push
    assert names(state, state.hands[0]) == ["Raven"]
    assert state.hub_tokens[0] == 0 and cast_tokens(state, 0) == [1, 0, 0, 0]


# ----- KU-7 the turn ------------------------------------------------------------------------


def test_ku_7_all_seven_phases_every_turn_even_when_nothing_happens() -> None:
    state = stacked({"hand": ["Stray Cat"] * 7}, {"hand": ["Stray Cat"] * 7}, phase="discard")
    act(state, "done")
    events = [e.kind for e in state.last_events()]
    assert events[:1] == ["turn_started"] and state.active == 1 and state.turn == 2
    assert state.phase == ACTIONS  # draw (full hand), attract, recruit passed: nothing to do
    act(state, "done")  # attack: nothing; discard phase asks
    assert state.phase == DISCARD and state.current_player == 1


def test_ku_7_recruit_window_other_players_in_seat_order_until_all_pass() -> None:
    gates = {"hand": ["Closed Gates"], "temp_keys": ["hourglass", "skull"]}
    state = stacked(
        {"cross": {5: "Street Prophet"}},
        {"hand": ["Open Eye"]},
        gates,
        gates,
        active=1,
        phase="attract",
    )
    # p1's turn: p2, p3, then p0; p0 holds no Command, so it is never asked
    assert state.phase == RECRUIT_WINDOW and state.current_player == 2
    assert texts(state) == ["pass", "play Closed Gates"]
    act(state, "pass")
    assert state.current_player == 3
    act(state, "play Closed Gates")
    assert state.embargo and state.current_player == 2  # p0 passed for; p2 again
    act(state, "pass")
    # p3 and p0 have nothing left: the window closes; p1 recruits nothing (the embargo)
    assert state.phase == ACTIONS and state.current_player == 1
    assert cast_tokens(state, 1) == [0, 0, 0, 0]


def test_ku_7_fight_window_attacker_first_then_seat_order_round_and_round() -> None:
    state = stacked(
        {"cross": {5: "Tin Soldier"}, "hand": ["Sudden Strength", "Grip of Death"]},
        {"cross": {5: "Raven"}, "hand": ["Stand Firm"], "temp_keys": ["eye"]},
        {"hand": ["Cold Feet"], "temp_keys": ["crescent"]},
        phase="attack",
    )
    act(state, "attack Cast5>p1.Cast5")
    assert state.phase == FIGHT_WINDOW and state.current_player == 0
    assert texts(state) == ["pass", "play Grip of Death"]  # Sudden Strength needs a Skull
    act(state, "play Grip of Death")
    assert state.current_player == 1
    act(state, "play Stand Firm")
    assert state.current_player == 2
    act(state, "pass")
    assert state.current_player == 0 and texts(state) == ["pass", "play Sudden Strength"]
    act(state, "play Sudden Strength")
    assert state.fight.bonus == [2, 2]
    assert state.current_player == 2  # p1 has nothing left: passed for
    act(state, "play Cold Feet")  # then p0 and p1 have nothing: all passed in a row
    assert state.fight is None
    assert state.last_fight.values == (2 + 2 - 2, 2 + 2) and state.last_fight.result == "defender"
    assert base(state, 0, 5) is None and base(state, 1, 5).tokens == 0


def test_ku_7_1_draw_to_seven_or_the_smaller_hand_reshuffling_only_when_owed() -> None:
    # p1 (the Ashen Matron, hand 6) holds 4: draws 2; the deck has exactly 2: no reshuffle.
    state = stacked(
        {"hand": ["Stray Cat"]},
        {"hand": ["Raven"] * 4, "deck": ["Omen", "Hex"], "discard": ["Tin Soldier"] * 3},
        phase="discard",
    )
    act(state, "done")
    assert state.active == 1 and len(state.hands[1]) == 6
    assert state.decks[1] == [] and names(state, state.discards[1]) == ["Tin Soldier"] * 3
    # p0 (7) holds 1 with a deck of 2: draws 2, reshuffles its pile of 5, draws 4 more.
    state = stacked(
        {"hand": ["Stray Cat"], "deck": ["Omen", "Hex"], "discard": ["Raven"] * 5},
        {"hand": ["Stray Cat"]},
        active=1,
        phase="discard",
    )
    act(state, "done")
    assert state.active == 0 and len(state.hands[0]) == 7
    assert len(state.decks[0]) == 1 and state.discards[0] == []
    assert "deck_reshuffled" in [e.kind for e in state.last_events()]


def test_ku_7_2_attract_cast_to_scene_and_scene_to_hub_turning_cards() -> None:
    state = stacked(
        {
            "cross": {
                5: {"card": "Street Prophet", "tokens": 1},
                6: {"card": "Tin Soldier", "tokens": 1},
                1: {"card": "Old Cemetery", "tokens": 1},
                2: "Rose Garden",
                3: {"card": "Raven", "tokens": 1, "face_up": False},
                4: "Circle of Salt",
            },
            "hub": 2,
        },
        phase="attract",
    )
    assert texts(state) == [
        "done",
        "attract Scene1>Hub",
        "attract Cast5>Scene2",
        "attract Cast6>Scene2",
        "turn Scene4",
    ]
    act(state, "attract Scene1>Hub")
    assert state.hub_tokens[0] == 3 and not base(state, 0, 1).face_up
    act(state, "attract Cast6>Scene2")
    assert not base(state, 0, 6).face_up and not base(state, 0, 2).face_up
    assert scene_tokens(state, 0) == [0, 1, 1, 0] and cast_tokens(state, 0) == [1, 0, 0, 0]
    # Cast5 is face up but no face-up Scene card can take its token any more
    assert texts(state) == ["done", "turn Scene4"]
    assert total_tokens(state) == GAMES[2].tokens


def test_ku_7_3_recruit_one_token_onto_each_chosen_face_up_cast_card() -> None:
    state = stacked(
        {
            "cross": {
                5: "Street Prophet",
                6: {"card": "Raven", "tokens": 1},
                7: {"card": "Tin Soldier", "face_up": False},
                8: "Hollow Saint",
            }
        },
        {"hub": 2},
        phase="recruit",
    )
    assert state.pool_tokens == 9 - 1 - 2
    assert texts(state) == ["done", "recruit Cast5", "recruit Cast8"]
    act(state, "recruit Cast8")
    assert texts(state) == ["done", "recruit Cast5"]  # one per card, though it holds 2
    assert base(state, 0, 8).face_up and cast_tokens(state, 0) == [0, 1, 0, 1]
    act(state, "done")
    assert state.phase == ACTIONS and state.pool_tokens == 5


def test_ku_7_3_no_recruiting_when_the_pool_is_empty() -> None:
    state = stacked(
        {"cross": {5: "Street Prophet", 6: "Raven"}, "hub": 4}, {"hub": 4}, phase="recruit"
    )
    assert state.pool_tokens == 1
    act(state, "recruit Cast6")
    assert state.pool_tokens == 0 and state.phase == ACTIONS  # no choice left: passed


def test_ku_7_4_play_base_cards_onto_empty_stations_and_into_another_cross() -> None:
    state = stacked(
        {
            "hand": ["Changeling", "Stray Cat"],
            "temp_keys": ["crescent"],
            "cross": {n: "Rose Garden" for n in (1, 2, 3, 5, 6, 7)},
        },
        {"cross": {5: "Raven"}},
    )
    legal = texts(state)
    assert starting(legal, "play Stray Cat") == ["play Stray Cat>Scene4", "play Stray Cat>Cast8"]
    assert starting(legal, "play Changeling") == [f"play Changeling>Cast{n}@p1" for n in (6, 7, 8)]
    act(state, "play Changeling>Cast7@p1")
    assert base(state, 1, 7).card.name == "Changeling"
    assert state.table.owners[base(state, 1, 7).iid] == 0


def test_ku_7_5_attack_targets_combat_values_and_token_to_the_winner() -> None:
    state = stacked(
        {
            "cross": {
                5: "Grave Hound",
                6: {"card": "Tin Soldier", "face_up": False},
                1: "Raven",
                7: "Stray Cat",
            }
        },
        {
            "cross": {
                5: {"card": "Raven", "tokens": 1, "influences": ["Hex"]},
                6: {"card": "Stray Cat", "face_up": False},
                2: "Raven",
            },
            "hand": ["Stray Cat"] * 6,
        },
        phase="attack",
    )
    assert texts(state) == [
        "done",
        "attack Cast5>p0.Cast7",
        "attack Cast5>p1.Cast5",
        "attack Cast7>p0.Cast5",
        "attack Cast7>p1.Cast5",
    ]
    act(state, "attack Cast5>p1.Cast5")
    assert state.last_fight.values == (3, 0) and state.last_fight.result == "attacker"
    assert base(state, 1, 5) is None and sorted(names(state, state.discards[1])) == ["Hex", "Raven"]
    assert base(state, 0, 5).tokens == 1 and base(state, 0, 5).face_up  # not turned
    assert state.phase == DISCARD or state.active == 1  # one attack a turn


def test_ku_7_5_tie_no_result_and_full_winner_sends_the_token_to_the_pool() -> None:
    state = stacked(
        {"cross": {5: "Raven"}},
        {"cross": {5: {"card": "Tin Soldier", "tokens": 1}}},
        phase="attack",
    )
    act(state, "attack Cast5>p1.Cast5")
    assert state.last_fight.result == "tie"
    assert base(state, 0, 5) is not None and base(state, 1, 5).tokens == 1
    state = stacked(
        {"cross": {5: {"card": "Grave Hound", "tokens": 1}}},
        {"cross": {5: {"card": "Tin Soldier", "tokens": 1}}},
        phase="attack",
    )
    pool = state.pool_tokens
    act(state, "attack Cast5>p1.Cast5")
    assert state.pool_tokens == pool + 1 and cast_tokens(state, 0) == [1, 0, 0, 0]


def test_ku_7_6_discard_at_most_one_card() -> None:
    state = stacked({"hand": ["Raven", "Omen", "Raven"]}, phase="discard")
    assert texts(state) == ["done", "discard Raven", "discard Omen"]
    act(state, "discard Raven")
    assert state.active == 1 and names(state, state.discards[0]) == ["Raven"]
    assert names(state, state.hands[0]) == ["Omen", "Raven"]
    assert state.phase != DISCARD or state.active != 0


# ----- KU-8 leaving play with a token -------------------------------------------------------


def test_ku_8_1_a_scene_token_steps_onto_a_cast_card_of_the_controllers_choice() -> None:
    state = stacked(
        {
            "cross": {
                1: {"card": "Burning Archive", "tokens": 1},
                5: {"card": "Raven", "tokens": 1},
                6: "Stray Cat",
                8: "Tin Soldier",
            },
            "deck": ["Omen", "Raven"],
        }
    )
    act(state, "turn Scene1")
    assert state.pending_token == (0, 0) and state.current_player == 0
    assert texts(state) == ["push Scene1>Cast6", "push Scene1>Cast8"]
    assert total_tokens(state) == GAMES[2].tokens  # the token waits on the leaving card
    act(state, "push Scene1>Cast8")
    assert state.pending_token is None and base(state, 0, 1) is None
    assert cast_tokens(state, 0) == [1, 0, 0, 1] and state.temp_keys[0] == [0] * 5
    assert names(state, state.discards[0]) == ["Burning Archive"]
    assert state.phase == ACTIONS


def test_ku_8_1_one_cast_card_takes_it_without_asking_none_sends_it_to_the_pool() -> None:
    state = stacked(
        {
            "cross": {
                1: {"card": "Burning Archive", "tokens": 1},
                5: "Raven",
                6: {"card": "Stray Cat", "tokens": 1},
            }
        }
    )
    act(state, "turn Scene1")
    assert state.pending_token is None and cast_tokens(state, 0) == [1, 1, 0, 0]
    state = stacked({"cross": {1: {"card": "Burning Archive", "tokens": 1}, 5: "Circle of Salt"}})
    pool = state.pool_tokens
    act(state, "turn Scene1")
    assert state.pool_tokens == pool + 1 and base(state, 0, 1) is None


# ----- KU-9 winning -------------------------------------------------------------------------


def test_ku_9_1_win_at_once_when_the_hub_reaches_the_target() -> None:
    state = stacked(
        {
            "cross": {
                1: {"card": "Old Cemetery", "tokens": 1},
                2: {"card": "Rose Garden", "tokens": 1},
            },
            "hub": 4,
        },
        phase="attract",
    )
    act(state, "attract Scene1>Hub")
    assert state.is_terminal() and state.winner == 0 and state.hub_tokens[0] == 5
    assert state.legal_actions() == [] and state.current_player == TERMINAL
    assert state.returns() == [1.0, -1.0]
    world = KultGame(game_type="world").stacked_state(
        [{"cross": {1: {"card": "Old Cemetery", "tokens": 1}}, "hub": 8}, {}], phase="attract"
    )
    act(world, "attract Scene1>Hub")
    assert not world.is_terminal() and world.hub_tokens[0] == 9


def test_ku_9_1_ply_limit_is_a_draw_and_ku_9_2_rewards() -> None:
    game = KultGame(num_players=3, ply_limit=25)
    state = game.new_state(4)
    rng = random.Random(4)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    assert state.plies == 25 and state.winner == DRAW and state.returns() == [0.0] * 3
    state = stacked(
        {},
        {},
        {"cross": {1: {"card": "Old Cemetery", "tokens": 1}}, "hub": 4},
        active=2,
        phase="attract",
    )
    act(state, "attract Scene1>Hub")
    assert state.returns() == [-1.0, -1.0, 1.0]


# ----- KU-11 information, notation ----------------------------------------------------------


def test_ku_11_1_face_down_identity_public_hands_decks_hub_cards_hidden() -> None:
    state = stacked(
        {
            "hand": ["Omen"],
            "hub_card": "Hex",
            "deck": ["Raven", "Tin Soldier", "Pilgrim"],
            "cross": {5: {"card": "Grave Hound", "face_up": False}},
        },
        {"hand": ["Blessing"], "hub_card": "Truce"},
    )
    view = state.render(1)
    assert "~Grave Hound" in view and "Omen" not in view and "Hex" not in view
    assert "Truce" not in view and "Truce" not in state.render(0)  # not even its owner
    orders = set()
    for seed in range(20):
        other = state.resample_hidden(1, random.Random(seed))
        assert base(other, 0, 5).card.name == "Grave Hound"
        assert names(other, other.hands[1]) == ["Blessing"]
        orders.add(tuple(names(other, other.decks[0] + other.hands[0] + other.hub_cards[0])))
    assert len(orders) > 1


ISSUE_FORMS = [
    (
        {"cross": {5: {"card": "Stray Cat", "tokens": 1}, 1: "Rose Garden"}},
        "attract",
        "attract Cast5>Scene1",
    ),
    ({"cross": {2: "Rose Garden"}, "hub": 1}, "actions", "push Hub>Scene2 Skull"),
    ({"hand": ["Raven"], "temp_keys": ["crescent"]}, "actions", "play Raven>Scene4"),
    ({"cross": {5: "Grave Hound"}}, "attack", "attack Cast5>p3.Cast7"),
    ({"hand": ["Hex"], "temp_keys": ["skull"]}, "actions", "attach Hex>Cast6@p2"),
    ({"hand": ["Raven", "Stray Cat"]}, "discard", "discard Raven"),
    ({"hand": ["Raven", "Stray Cat"]}, "discard", "done"),
]


@pytest.mark.parametrize(("setup", "phase", "text"), ISSUE_FORMS)
def test_notation_reads_and_writes_the_issues_forms(setup, phase, text) -> None:
    others = [{}, {}, {"cross": {6: "Raven"}}, {"cross": {7: "Raven"}}]
    state = stacked(setup, *others[1:], phase=phase)
    action = state.string_to_action(text)
    assert action in state.legal_actions()
    assert state.action_to_string(action) == text
    assert 0 <= action < NUM_ACTIONS


def test_notation_round_trips_every_legal_action_of_random_games() -> None:
    for players in (2, 3, 4):
        state = GAMES[players].new_state(players)
        rng = random.Random(players)
        while not state.is_terminal():
            legal = state.legal_actions()
            shown = [state.action_to_string(a) for a in legal]
            assert len(set(shown)) == len(shown)
            assert [state.string_to_action(t) for t in shown] == legal
            state.apply(rng.choice(legal))
