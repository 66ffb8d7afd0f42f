"""Rules tests for Kult; each names the rule id (docs/rules/kult.md) it checks. Positions
are stacked by hand (``kult_positions``) and results asserted exactly; effect primitives
and statics are tested through the starter pool's cards."""

from __future__ import annotations

import random

import pytest
from kult_positions import GAMES, act, other_lantern_deck, stacked, texts

from tabletop.envs.core.cards.data import CardDataError
from tabletop.envs.core.protocol import TERMINAL, IllegalActionError
from tabletop.envs.kult.cards import load_deck, load_pool
from tabletop.envs.kult.engine import DRAW, KultGame
from tabletop.envs.kult.turns import ACTIONS, ATTRACT, RECRUIT

POOL = load_pool()
SKULL, EYE, ROSE, CRESCENT, HOURGLASS = range(5)


def names(state, iids) -> list[str]:
    return [state.card(iid).name for iid in iids]


def base(state, seat: int, number: int):
    """The card on station ``number`` (1-8) of ``seat``'s cross."""
    return state.crosses[seat][number - 1]


# ----- KU-1 the Mystic Cross ----------------------------------------------------------------


def test_ku_1_1_eight_stations_scene_1_to_4_and_cast_5_to_8() -> None:
    state = stacked({"hand": ["Lamplighter"]})
    assert len(state.crosses[0]) == 8
    plays = [t for t in texts(state) if t.startswith("play Lamplighter")]
    assert plays == [f"play Lamplighter>Scene{n}" for n in range(1, 5)] + [
        f"play Lamplighter>Cast{n}" for n in range(5, 9)
    ]


def test_ku_1_2_tokens_move_from_any_cast_card_to_any_scene_card() -> None:
    state = stacked(
        {
            "cross": {
                5: {"card": "Street Prophet", "tokens": 1},
                1: "Old Cemetery",
                3: "Rose Garden",
            }
        },
        phase="attract",
    )
    assert texts(state) == ["done", "attract Cast5>Scene1", "attract Cast5>Scene3"]


def test_ku_1_3_a_card_goes_only_where_its_indicators_allow() -> None:
    state = stacked({"hand": ["Grave Hound"], "temp_keys": ["skull", "skull"]})
    plays = [t for t in texts(state) if t.startswith("play")]
    assert plays == [f"play Grave Hound>Cast{n}" for n in range(5, 9)]
    with pytest.raises(IllegalActionError):
        act(state, "play Grave Hound>Scene1")


def test_ku_1_4_the_pool_is_shared() -> None:
    state = stacked(
        {"cross": {5: "Street Prophet"}}, {"cross": {5: "Street Prophet"}}, phase="recruit"
    )
    before = state.pool_tokens
    act(state, "recruit Cast5")
    assert state.pool_tokens == before - 1
    assert base(state, 0, 5).tokens == 1


# ----- KU-2 setup ---------------------------------------------------------------------------


def test_ku_2_1_players_of_the_same_arcanum_swap_decks_unless_waived() -> None:
    mine, other = load_deck("lantern", POOL), other_lantern_deck()
    swapped = KultGame(decks=[mine, other]).deck_cards()
    assert swapped == [list(other.cards), list(mine.cards)]
    kept = KultGame(decks=[mine, other], same_arcanum_swap=False).deck_cards()
    assert kept == [list(mine.cards), list(other.cards)]
    state = KultGame(decks=[mine, other]).new_state(0)
    owned = [state.table.cards[i] for i in state.table.where() if state.table.owners[i] == 0]
    assert any(card.name == "Omen" and card.index >= 0 for card in owned[1:])


def test_ku_2_2_decks_are_shuffled_by_the_seed() -> None:
    game = GAMES[2]
    orders = {
        tuple(names(game.new_state(seed), game.new_state(seed).decks[0])) for seed in range(5)
    }
    assert len(orders) > 1
    again = game.new_state(3)
    assert names(again, again.decks[0]) == names(game.new_state(3), game.new_state(3).decks[0])


def test_ku_2_3_the_hub_card_is_out_of_play_unseen_and_never_turned() -> None:
    state = GAMES[2].new_state(1)
    for seat in (0, 1):
        (iid,) = state.hub_cards[seat]
        assert state.table.seen[iid] == 0  # nobody, not even its owner, knows it
        assert state.card(iid).name not in state.render(seat).split("hand:")[0]
    assert "Hub card" not in state.render(0)
    assert len(state.decks[0]) + len(state.hands[0]) + 1 == 30


@pytest.mark.parametrize(
    ("players", "game_type", "tokens"),
    [(2, "continent", 9), (3, "continent", 14), (2, "world", 19), (4, "world", 39)],
)
def test_ku_2_4_the_pool_holds_n_times_players_less_one(players, game_type, tokens) -> None:
    game = KultGame(num_players=players, game_type=game_type)
    state = game.new_state(0)
    assert game.tokens == tokens
    assert game.target == (5 if game_type == "continent" else 10)
    assert state.pool_tokens + sum(state.hub_tokens) == tokens


def test_ku_2_5_two_tokens_from_the_pool_in_each_hub() -> None:
    state = GAMES[3].new_state(0)
    assert state.hub_tokens == [2, 2, 2]
    assert state.pool_tokens == 14 - 6


def test_ku_2_6_each_player_draws_a_hand() -> None:
    state = GAMES[3].new_state(0)
    assert [len(h) for h in state.hands] == [7, 7, 7]  # 7 each, the Ashen Matron too (KU-2.6)


def test_ku_2_7_the_lowest_hierarchy_starts_a_tie_by_the_seed() -> None:
    assert GAMES[2].new_state(0).active == 0  # Lantern Warden, Hierarchy 3
    assert KultGame(decks=["ash", "lantern"]).new_state(0).active == 1
    mirror = KultGame(decks=["tide", "tide"])
    assert {mirror.new_state(seed).active for seed in range(20)} == {0, 1}


# ----- KU-3 card kinds ----------------------------------------------------------------------


def test_ku_3_1_a_spell_occupies_a_station_and_holds_no_token() -> None:
    state = stacked({"hand": ["Circle of Salt"], "temp_keys": ["rose"], "hub": 1})
    act(state, "play Circle of Salt>Scene1")
    assert base(state, 0, 1).card.name == "Circle of Salt"
    assert state.holding_limit(0, 0) == 0
    assert not any(t.startswith("push Hub>Scene1") for t in texts(state))


def test_ku_3_2_an_influence_modifies_its_card_while_it_lies_face_up() -> None:
    state = stacked({"hand": ["Blessing"], "temp_keys": ["rose"], "cross": {5: "Tin Soldier"}})
    act(state, "attach Blessing>Cast5")
    assert state.combat_value(0, 4) == 4
    assert [a.card.name for a in state.influences[0]] == ["Blessing"]
    base(state, 0, 5).face_up = False  # turned: its Influences turn with it (KU-5.1)
    assert state.combat_value(0, 4) == 2


def test_ku_3_3_a_command_is_one_shot() -> None:
    state = stacked({"hand": ["Open Eye"], "hub": 1, "cross": {1: "Old Cemetery"}})
    act(state, "play Open Eye")
    assert state.temp_keys[0][EYE] == 1
    assert names(state, state.discards[0]) == ["Open Eye"]
    assert state.hands[0] == []


def test_ku_3_4_holding_limits_places_and_beings_one_hub_any_card_text_more() -> None:
    state = stacked(
        {
            "cross": {
                5: {"card": "Street Prophet", "tokens": 1},
                6: "Hollow Saint",
                1: {"card": "Old Cemetery", "influences": ["Deep Roots"]},
            },
            "hub": 4,
        }
    )
    assert state.holding_limit(0, 4) == 1 and not state.can_take(0, 4)
    assert state.holding_limit(0, 5) == 2  # Hollow Saint: "holds 2 tokens"
    assert state.holding_limit(0, 0) == 2  # Deep Roots: one more
    assert state.hub_tokens[0] == 4


def test_ku_3_5_a_unique_card_in_play_anywhere_cannot_be_played_again() -> None:
    state = stacked(
        {"hand": ["Hollow Saint"], "temp_keys": ["rose", "hourglass"]},
        {"cross": {5: "Hollow Saint"}},
    )
    assert not any(t.startswith("play Hollow Saint") for t in texts(state))
    free = stacked({"hand": ["Hollow Saint"], "temp_keys": ["rose", "hourglass"]})
    assert "play Hollow Saint>Cast5" in texts(free)


def test_ku_3_6_beings_have_a_combat_value() -> None:
    state = stacked({"cross": {5: "Grave Hound", 6: "Changeling", 7: "Stray Cat"}})
    assert [state.combat_value(0, s) for s in (4, 5, 6)] == [3, -2, 0]


def test_ku_3_7_a_card_of_another_arcanums_allegiance_cannot_be_played() -> None:
    state = stacked(
        {"hand": ["Ash Widow", "Tin Soldier"], "temp_keys": ["skull", "skull", "hourglass"]}
    )
    plays = {t.split(">")[0] for t in texts(state) if t.startswith("play")}
    assert plays == {"play Tin Soldier"}


# ----- KU-4 colours -------------------------------------------------------------------------


def test_ku_4_1_two_symbols_of_a_colour_need_two_keys_at_once() -> None:
    one = stacked({"hand": ["Grave Hound"], "temp_keys": ["skull"]})
    assert not any(t.startswith("play Grave Hound") for t in texts(one))
    two = stacked({"hand": ["Grave Hound"], "temp_keys": ["skull", "skull"]})
    assert "play Grave Hound>Cast5" in texts(two)


def test_ku_4_2_permanent_keys_are_never_used_up() -> None:
    # The Lantern Warden shows Eye, Eye, Hourglass, Rose; Mirror Hall adds an Eye.
    state = stacked(
        {"hand": ["Lantern Keeper", "Lantern Keeper", "Mirror Hall"], "cross": {1: "Mirror Hall"}}
    )
    assert state.keys(0) == [0, 3, 1, 0, 1]
    act(state, "play Lantern Keeper>Cast5", "play Lantern Keeper>Cast6", "play Mirror Hall>Scene2")
    assert state.keys(0) == [0, 4, 1, 0, 1]


def test_ku_4_2_the_arcanum_shows_four_colour_symbols() -> None:
    assert all(len(a.colours) == 4 for a in POOL.arcana)
    assert POOL.arcanum_named("The Ashen Matron").keys == (2, 1, 0, 1, 0)


def test_ku_4_3_temporary_keys_pay_again_and_again_then_break_at_the_turn_end() -> None:
    state = stacked({"hand": ["Raven", "Raven", "Moon Dream"], "deck": ["Stray Cat"] * 9})
    act(state, "play Moon Dream", "play Raven>Cast5")
    assert state.temp_keys[0][CRESCENT] == 1
    act(state, "play Raven>Cast6")
    act(state, "done", "done")  # actions, attack; the discard phase has no card left
    assert state.active == 1
    assert state.temp_keys == [[0] * 5, [0] * 5]


def test_ku_4_4_allegiance_station_and_colours_together() -> None:
    state = stacked({"hand": ["The Glass Watcher"]})  # Eye Eye Hourglass: the Warden has them
    assert [t for t in texts(state) if t.startswith("play")] == [
        f"play The Glass Watcher>Cast{n}" for n in range(5, 9)
    ]
    other = stacked(
        {}, {"hand": ["The Glass Watcher"], "temp_keys": ["eye", "hourglass"]}, active=1
    )
    assert not any(t.startswith("play") for t in texts(other))


# ----- KU-5 face up, face down --------------------------------------------------------------


def test_ku_5_1_face_down_no_colour_no_recruit_no_attack_no_attract() -> None:
    state = stacked(
        {
            "cross": {
                1: {"card": "Old Cemetery", "face_up": False},
                5: {"card": "Street Prophet", "face_up": False, "tokens": 1},
                6: "Grave Hound",
            }
        },
        {"cross": {5: {"card": "Raven", "face_up": False}}},
        phase="attract",
    )
    assert state.keys(0)[SKULL] == 0
    assert state.phase == RECRUIT  # nothing to attract, nothing to recruit onto... but Cast6
    state = stacked(
        {"cross": {5: {"card": "Street Prophet", "face_up": False}, 6: "Grave Hound"}},
        {"cross": {5: {"card": "Raven", "face_up": False}, 6: "Raven"}},
        phase="recruit",
    )
    assert texts(state) == ["done", "recruit Cast6"]
    act(state, "done")  # nothing to do in the actions phase: on to the attack
    assert texts(state) == ["done", "attack Cast6>p1.Cast6"]


def test_ku_5_1_a_face_down_card_still_holds_and_receives_tokens() -> None:
    state = stacked({"cross": {1: {"card": "Old Cemetery", "face_up": False}}, "hub": 1})
    assert "push Hub>Scene1 Rose" in texts(state)
    act(state, "push Hub>Scene1 Rose")
    assert base(state, 0, 1).tokens == 1 and not base(state, 0, 1).face_up


def test_ku_5_2_a_card_turned_for_its_ability() -> None:
    state = stacked({"cross": {5: "Wandering Medium"}, "hub": 1})
    act(state, "turn Cast5")
    assert not base(state, 0, 5).face_up
    assert state.temp_keys[0][EYE] == 2
    assert "turn Cast5" not in texts(state)


def test_ku_5_3_cards_turn_face_up_only_in_phase_7() -> None:
    state = stacked(
        {"cross": {5: {"card": "Street Prophet", "tokens": 1}, 1: "Old Cemetery"}, "hub": 1},
        {"hand": ["Stray Cat"] * 6},
        phase="attract",
    )
    act(state, "attract Cast5>Scene1")
    assert not base(state, 0, 5).face_up and not base(state, 0, 1).face_up
    assert state.phase == ACTIONS  # a face-down Cast card cannot recruit: on to actions
    act(state, "done")
    assert state.active == 1
    assert base(state, 0, 5).face_up and base(state, 0, 1).face_up


# ----- KU-6 pushing -------------------------------------------------------------------------


def test_ku_6_1_a_push_moves_a_token_one_step_out_for_a_colour() -> None:
    state = stacked({"cross": {1: "Old Cemetery", 5: "Stray Cat"}, "hub": 2})
    act(state, "push Hub>Scene1 Skull")
    assert state.hub_tokens[0] == 1 and base(state, 0, 1).tokens == 1
    act(state, "push Scene1>Cast5 Eye")
    act(state, "push Cast5>Pool Rose")
    assert state.temp_keys[0] == [1, 1, 1, 0, 0]
    assert state.pool_tokens == GAMES[2].tokens - 1
    assert state.keys(0) == [2, 3, 2, 0, 1]  # the Warden's and Old Cemetery's too


def test_ku_6_2_holding_limits_apply_to_pushed_tokens() -> None:
    state = stacked(
        {"cross": {1: {"card": "Old Cemetery", "tokens": 1}, 2: "Rose Garden"}, "hub": 1}
    )
    pushes = {t.rsplit(" ", 1)[0] for t in texts(state) if t.startswith("push Hub")}
    assert pushes == {"push Hub>Scene2"}


def test_ku_6_3_a_ring_that_cannot_take_the_token_is_skipped_for_one_colour() -> None:
    state = stacked({"cross": {5: "Stray Cat", 1: {"card": "Old Cemetery", "tokens": 1}}, "hub": 1})
    moves = {t.rsplit(" ", 1)[0] for t in texts(state) if t.startswith("push")}
    assert moves == {"push Hub>Cast5", "push Scene1>Cast5"}  # the full Scene ring is skipped
    act(state, "push Hub>Cast5 Skull")
    assert state.temp_keys[0] == [1, 0, 0, 0, 0]
    moves = {t.rsplit(" ", 1)[0] for t in texts(state) if t.startswith("push")}
    assert moves == {"push Scene1>Pool", "push Cast5>Pool"}  # now the Cast ring is full


def test_ku_6_4_any_number_of_pushes_while_tokens_last() -> None:
    state = stacked({"cross": {1: {"card": "Rose Garden", "influences": ["Deep Roots"]}}, "hub": 2})
    act(state, "push Hub>Scene1 Skull", "push Hub>Scene1 Skull")
    assert state.temp_keys[0][SKULL] == 2 and state.hub_tokens[0] == 0
    act(state, "push Scene1>Pool Eye", "push Scene1>Pool Eye")
    assert not any(t.startswith("push") for t in texts(state))


def test_ku_6_5_a_push_that_pays_for_an_effect_gives_no_colour() -> None:
    state = stacked(
        {
            "cross": {5: "Crossroads", 1: "Rose Garden", 2: "Old Cemetery"},
            "hub": 2,
            "deck": ["Raven", "Stray Cat"],
        }
    )
    act(state, "invoke Cast5")
    assert texts(state) == ["push Hub>Scene1", "push Hub>Scene2"]  # only the paying pushes
    act(state, "push Hub>Scene2")
    assert state.temp_keys[0] == [0] * 5 and base(state, 0, 2).tokens == 1
    assert names(state, state.hands[0]) == ["Raven"]
    assert "invoke Cast5" not in texts(state)  # once per turn


def test_ku_6_5_gutter_king_recruits_for_a_push() -> None:
    state = stacked({"cross": {5: {"card": "Gutter King", "tokens": 1}, 6: "Stray Cat"}, "hub": 1})
    pool = state.pool_tokens
    act(state, "invoke Cast5")
    assert texts(state) == ["push Hub>Cast6", "push Cast5>Pool"]  # the Scene ring skipped
    act(state, "push Cast5>Pool")
    assert base(state, 0, 5).tokens == 1  # the first Cast card that can take one
    assert state.pool_tokens == pool


# ----- KU-7 the turn ------------------------------------------------------------------------


def test_ku_7_a_player_without_a_payable_command_is_never_asked() -> None:
    state = stacked(
        {"cross": {5: "Street Prophet"}}, {"hand": ["Stand Firm", "Raven"]}, phase="attract"
    )
    assert state.phase == RECRUIT  # p1's Stand Firm needs an Eye it lacks... and a fight
    assert state.current_player == 0


def test_ku_7_other_players_may_play_commands_in_your_recruit_phase() -> None:
    state = stacked(
        {"cross": {5: "Street Prophet"}},
        {"hand": ["Closed Gates"], "temp_keys": ["hourglass"]},
        phase="attract",
    )
    assert state.current_player == 1
    assert texts(state) == ["pass", "play Closed Gates"]
    act(state, "play Closed Gates")
    assert state.phase == ACTIONS  # the embargo leaves p0 nothing to recruit
    assert base(state, 0, 5).tokens == 0


def test_ku_7_fight_window_attacker_first_then_seat_order_until_all_pass() -> None:
    state = stacked(
        {"cross": {5: "Tin Soldier"}, "hand": ["Sudden Strength"], "temp_keys": ["skull"]},
        {"cross": {5: "Raven"}, "hand": ["Grip of Death"]},
        {"hand": ["Cold Feet"], "temp_keys": ["crescent"]},
        phase="attack",
    )
    act(state, "attack Cast5>p1.Cast5")
    assert state.current_player == 0
    act(state, "play Sudden Strength")
    assert state.current_player == 1
    act(state, "pass")
    assert state.current_player == 2
    act(state, "play Cold Feet")
    assert state.fight.bonus == [2 - 2, 0]
    assert state.current_player == 1  # p0 has nothing left to play: passed for
    act(state, "pass")  # and p2 has nothing left either: all passed in a row
    assert state.last_fight.values == (2, 2) and state.last_fight.result == "tie"


def test_ku_7_1_draw_up_to_the_hand_size_reshuffling_the_discard_pile() -> None:
    state = stacked(
        {"hand": ["Raven"]},
        {"hand": ["Stray Cat"], "deck": ["Raven"], "discard": ["Tin Soldier"] * 5},
        phase="discard",
    )
    act(state, "done")
    assert state.active == 1
    assert len(state.hands[1]) == 6  # the Ashen Matron's hand size
    assert state.discards[1] == [] and len(state.decks[1]) == 1


def test_ku_7_1_a_reshuffled_pile_stays_the_decks_cards_in_every_determinization() -> None:
    """KU-7.1 with KU-11.1: the discard pile is public, so once it is shuffled into a new
    deck everyone knows that deck's cards, not their order, and the cards drawn from it
    since are among them: ``resample_hidden`` never exchanges them with the owner's other
    unseen cards (the hand drawn before, the Hub card)."""
    pile = ["Tin Soldier", "Hex", "Omen", "Grave Hound", "Open Eye"]
    state = stacked(
        {"hand": ["Raven"]},
        {"hand": ["Stray Cat"], "deck": ["Raven"], "discard": pile, "hub_card": "Lamplighter"},
        phase="discard",
    )
    act(state, "done")
    earlier, since = state.hands[1][:2], state.hands[1][2:]
    assert names(state, earlier) == ["Stray Cat", "Raven"] and len(since) == 4
    rng = random.Random(0)
    dealt = set()
    for _ in range(20):
        for observer in (0, 1):
            other = state.resample_hidden(observer, rng)
            assert sorted(names(other, since + other.decks[1])) == sorted(pile)
            unseen = earlier + other.hub_cards[1]
            assert sorted(names(other, unseen)) == ["Lamplighter", "Raven", "Stray Cat"]
            dealt.add(tuple(names(other, other.decks[1])))
    assert len(dealt) > 1, "the pile's cards are dealt again among the deck and the hand"


def test_ku_7_1_a_full_hand_draws_nothing() -> None:
    state = stacked({"hand": ["Raven"]}, {"hand": ["Stray Cat"] * 7}, phase="discard")
    act(state, "done")
    assert len(state.hands[1]) == 7 and len(state.decks[1]) == 5


def test_ku_7_2_attracting_turns_both_cards_or_only_the_scene_card_into_the_hub() -> None:
    state = stacked(
        {
            "cross": {
                5: {"card": "Street Prophet", "tokens": 1},
                1: {"card": "Old Cemetery", "tokens": 1},
                2: "Rose Garden",
            }
        },
        phase="attract",
    )
    act(state, "attract Scene1>Hub")
    assert state.hub_tokens[0] == 1 and not base(state, 0, 1).face_up
    act(state, "attract Cast5>Scene2")
    assert base(state, 0, 2).tokens == 1
    assert not base(state, 0, 5).face_up and not base(state, 0, 2).face_up
    assert state.phase != ATTRACT  # nothing face up is left to attract with


def test_ku_7_3_recruiting_is_a_choice_per_card_and_turns_nothing() -> None:
    state = stacked(
        {"cross": {5: "Street Prophet", 6: "Raven", 7: "Circle of Salt"}}, phase="recruit"
    )
    # Circle of Salt can be turned at any time (KU-5.2), the recruit phase too
    assert texts(state) == ["done", "recruit Cast5", "recruit Cast6", "turn Cast7"]
    act(state, "recruit Cast6")
    assert texts(state) == ["done", "recruit Cast5", "turn Cast7"]
    assert base(state, 0, 6).face_up and base(state, 0, 6).tokens == 1


def test_ku_7_3_no_recruiting_from_an_empty_pool() -> None:
    state = stacked(
        {
            "cross": {
                5: "Street Prophet",
                1: {"card": "Rose Garden", "tokens": 2, "influences": ["Deep Roots"]},
            },
            "hub": 4,
        },
        {"hub": 3},
        phase="recruit",
    )
    assert state.pool_tokens == 0
    assert state.phase == ACTIONS


def test_ku_7_4_a_card_played_into_an_opponents_cross_passes_under_their_control() -> None:
    state = stacked({"hand": ["Changeling"], "temp_keys": ["crescent"]})
    plays = [t for t in texts(state) if t.startswith("play")]
    assert plays == [f"play Changeling>Cast{n}@p1" for n in range(5, 9)]
    act(state, "play Changeling>Cast6@p1")
    changeling = base(state, 1, 6)
    assert changeling.card.name == "Changeling"
    assert state.table.owners[changeling.iid] == 0  # still p0's card: its discard pile
    assert state.holding_limit(1, 5) == 0


def test_ku_7_4_influences_on_other_players_cards_stations_hub_and_pool() -> None:
    state = stacked(
        {
            "hand": ["Hex", "Squatters", "Plague Year", "Silver Crown"],
            "temp_keys": ["skull", "skull", "crescent"],
        },
        {"cross": {7: "Grave Hound"}},
    )
    legal = texts(state)
    assert "attach Hex>Cast7@p1" in legal
    assert [t for t in legal if t.startswith("attach Squatters")] == [
        f"attach Squatters>{s}@p1"
        for s in ["Scene1", "Scene2", "Scene3", "Scene4", "Cast5", "Cast6", "Cast7", "Cast8"]
    ]
    assert "attach Silver Crown>Hub" in legal and "attach Plague Year>Pool" in legal
    act(state, "attach Hex>Cast7@p1", "attach Plague Year>Pool")
    assert state.combat_value(1, 6) == 3 - 2 - 1


def test_ku_7_4_station_hub_and_pool_influences_modify_what_they_name() -> None:
    state = stacked(
        {
            "cross": {5: "Tin Soldier", 6: "Raven", 1: "Raven"},
            "hub_influences": ["Silver Crown"],
            "stations": {6: ["Sanctuary Ward", "Ley Line"]},
        },
        pool_influences=["Fertile Age"],
    )
    assert state.combat_value(0, 4) == 2 + 1  # Silver Crown: Beings in your Cast
    assert state.combat_value(0, 5) == 2 + 1 + 1  # and Sanctuary Ward on station 6
    assert state.combat_value(0, 0) == 2  # a Scene Being is not in the Cast
    assert state.holding_limit(0, 5) == 1 + 1 + 1  # Ley Line and Fertile Age


def test_ku_7_4_crown_of_thorns_gives_a_permanent_key() -> None:
    state = stacked({"hub_influences": ["Crown of Thorns"]})
    assert state.keys(0) == [0, 2, 2, 0, 1]


def test_ku_7_5_the_higher_combat_value_wins_and_takes_the_token() -> None:
    state = stacked(
        {"cross": {5: "Grave Hound"}},
        {
            "cross": {6: {"card": "Raven", "tokens": 1, "influences": ["Hex"]}},
            "hand": ["Stray Cat"] * 6,
        },
        phase="attack",
    )
    act(state, "attack Cast5>p1.Cast6")
    assert state.last_fight.values == (3, 0) and state.last_fight.result == "attacker"
    assert base(state, 1, 6) is None
    assert sorted(names(state, state.discards[1])) == ["Hex", "Raven"]
    assert base(state, 0, 5).tokens == 1 and base(state, 0, 5).face_up  # not turned


def test_ku_7_5_a_winner_that_cannot_hold_the_token_sends_it_to_the_pool() -> None:
    state = stacked(
        {"cross": {5: {"card": "Grave Hound", "tokens": 1}}},
        {"cross": {6: {"card": "Raven", "tokens": 1}}},
        phase="attack",
    )
    pool = state.pool_tokens
    act(state, "attack Cast5>p1.Cast6")
    assert state.pool_tokens == pool + 1 and base(state, 0, 5).tokens == 1


def test_ku_7_5_negative_values_and_ties() -> None:
    state = stacked(
        {"cross": {5: {"card": "Stray Cat", "influences": ["Hex"]}, 6: "Changeling"}},
        phase="attack",
    )
    assert texts(state) == ["done", "attack Cast5>p0.Cast6", "attack Cast6>p0.Cast5"]
    act(state, "attack Cast5>p0.Cast6")  # -2 against -2: your own Being may be attacked
    assert state.last_fight.result == "tie"
    assert base(state, 0, 5) is not None and base(state, 0, 6) is not None
    state = stacked(
        {"cross": {5: "Changeling"}},
        {"cross": {5: {"card": "Stray Cat", "influences": ["Withering Curse"]}}},
        phase="attack",
    )
    act(state, "attack Cast5>p1.Cast5")  # -2 beats -3
    assert state.last_fight.values == (-2, -3) and base(state, 1, 5) is None


def test_ku_7_5_one_attack_a_turn_from_the_cast_only() -> None:
    state = stacked(
        {"cross": {5: "Grave Hound", 6: "Tin Soldier", 1: "Raven"}},
        {"cross": {5: "Stray Cat", 2: "Raven"}},
        phase="attack",
    )
    assert texts(state) == [
        "done",
        "attack Cast5>p0.Cast6",
        "attack Cast5>p1.Cast5",
        "attack Cast6>p0.Cast5",
        "attack Cast6>p1.Cast5",
    ]
    act(state, "attack Cast6>p1.Cast5")
    assert state.active == 1 and state.last_fight.attacker == (0, 5)


def test_ku_7_5_commands_change_or_cancel_a_fight() -> None:
    state = stacked(
        {"cross": {5: "Stray Cat"}, "hand": ["Truce"], "temp_keys": ["hourglass"]},
        {"cross": {5: "Grave Hound"}},
        phase="attack",
    )
    act(state, "attack Cast5>p1.Cast5", "play Truce")
    assert state.last_fight.result == "cancelled" and base(state, 0, 5) is not None


def test_ku_7_6_discard_one_card_or_none() -> None:
    state = stacked({"hand": ["Raven", "Raven", "Omen"]}, phase="discard")
    assert texts(state) == ["done", "discard Raven", "discard Omen"]
    act(state, "discard Omen")
    assert names(state, state.discards[0]) == ["Omen"] and state.active == 1


def test_ku_7_7_refresh_turns_every_face_down_card_face_up() -> None:
    state = stacked(
        {
            "cross": {
                1: {"card": "Old Cemetery", "face_up": False},
                5: {"card": "Raven", "face_up": False},
            },
            "hub_card": "Omen",
            "hand": ["Stray Cat"],
        },
        phase="discard",
    )
    act(state, "done")
    assert base(state, 0, 1).face_up and base(state, 0, 5).face_up
    assert names(state, state.hub_cards[0]) == ["Omen"]


# ----- KU-8 leaving play with a token -------------------------------------------------------


def test_ku_8_1_a_scene_cards_token_steps_out_to_a_cast_card() -> None:
    state = stacked(
        {
            "cross": {
                1: {"card": "Burning Archive", "tokens": 1},
                5: {"card": "Raven", "tokens": 1},
                6: "Stray Cat",
            },
            "deck": ["Omen", "Raven"],
        }
    )
    act(state, "turn Scene1")
    assert base(state, 0, 1) is None
    assert base(state, 0, 6).tokens == 1  # Cast5 is full: the first that can take it
    assert names(state, state.hands[0]) == ["Omen", "Raven"]
    assert names(state, state.discards[0]) == ["Burning Archive"]


def test_ku_8_1_with_no_cast_card_to_take_it_the_token_goes_to_the_pool() -> None:
    state = stacked({"cross": {1: {"card": "Burning Archive", "tokens": 1}}})
    pool = state.pool_tokens
    act(state, "turn Scene1")
    assert state.pool_tokens == pool + 1


# ----- KU-9 winning -------------------------------------------------------------------------


def test_ku_9_1_reaching_the_hub_target_wins_at_once() -> None:
    state = stacked(
        {"cross": {1: {"card": "Old Cemetery", "tokens": 1}}, "hub": 4}, phase="attract"
    )
    act(state, "attract Scene1>Hub")
    assert state.is_terminal() and state.winner == 0 and state.current_player == TERMINAL
    assert state.returns() == [1.0, -1.0]


def test_ku_9_1_the_ply_limit_is_a_draw() -> None:
    game = KultGame(ply_limit=10)
    state = game.new_state(0)
    rng = random.Random(0)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    assert state.plies == 10 and state.winner == DRAW and state.returns() == [0.0, 0.0]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_ku_9_3_a_game_in_which_nobody_can_ever_act_is_a_draw(players: int) -> None:
    """Empty crosses, hands, decks and piles: every move is forced. After two rounds of
    turns without a decision the game ends as a draw, instead of cycling for ever."""
    state = GAMES[players].stacked_state([{}] * players)
    assert state.is_terminal() and state.winner == DRAW and state.plies == 0
    assert state.turn == 2 * players and state.returns() == [0.0] * players
    assert state.stats()["draw"] == 1.0


def test_ku_9_3_the_rounds_without_a_decision_count_from_the_last_one() -> None:
    """The push sends the last token out of play: from then on nobody has a choice, and
    two rounds after the turn of that decision the game is a draw."""
    state = GAMES[2].stacked_state([{"cross": {1: {"card": "Rose Garden", "tokens": 1}}}, {}])
    assert not state.is_terminal() and state.turn == 1
    act(state, "push Scene1>Pool Skull")
    assert state.is_terminal() and state.winner == DRAW
    assert state.turn == 1 + 2 * 2 and state.plies == 1 and state.returns() == [0.0, 0.0]
    assert state.last_events()[-1].text == (
        "The game ends in a draw: nobody can act any more (KU-9.3)"
    )


def test_ku_9_2_plus_one_to_the_winner_minus_one_to_every_other() -> None:
    state = stacked(
        {},
        {"cross": {1: {"card": "Old Cemetery", "tokens": 1}}, "hub": 4},
        {},
        {},
        active=1,
        phase="attract",
    )
    act(state, "attract Scene1>Hub")
    assert state.returns() == [-1.0, 1.0, -1.0, -1.0]


# ----- KU-10 cards, KU-11 information -------------------------------------------------------


def test_ku_10_1_the_pool_exercises_every_rule() -> None:
    cards = POOL.cards
    assert len(POOL.arcana) >= 4 and len(cards) >= 60
    assert any(a.hand_size < 7 for a in POOL.arcana)
    kinds = {c.kind for c in cards}
    assert kinds == {"place", "being", "spell", "influence", "command"}
    assert {c.attach for c in cards if c.kind == "influence"} >= {"being", "station", "hub", "pool"}
    assert any(c.unique for c in cards) and any(c.into == "opponent" for c in cards)
    assert any(c.on_turn for c in cards) and any(c.on_push for c in cards)
    used = {e.do for c in cards for e in (*c.on_play, *c.on_turn, *c.on_push)}
    assert used == {
        "gain_keys",
        "draw",
        "recruit",
        "fight_bonus",
        "cancel_fight",
        "embargo",
        "discard_self",
        "special",
    }


def test_ku_10_1_primitive_draw_recruit_gain_keys_and_tithe() -> None:
    state = stacked(
        {
            "hand": ["Omen", "Rally", "Dream Walk", "Tithe"],
            "temp_keys": ["crescent", "rose", "hourglass", "crescent"],
            "cross": {5: "Raven", 1: {"card": "Old Cemetery", "face_up": False}},
        },
        {"hub": 3},
    )
    act(state, "play Omen")
    assert len(state.hands[0]) == 5  # 3 left, 2 drawn
    act(state, "play Rally")
    assert base(state, 0, 5).tokens == 1
    before = len(state.hands[0])
    act(state, "play Dream Walk")  # draw 1, a temporary Crescent; nothing turns (KU-5.3)
    assert not base(state, 0, 1).face_up
    assert len(state.hands[0]) == before - 1 + 1 and state.temp_keys[0][CRESCENT] == 3
    before = len(state.hands[0])
    act(state, "play Tithe")  # one player's Hub holds more than yours
    assert len(state.hands[0]) == before - 1 + 1


def test_ku_10_2_a_bad_pool_names_file_card_and_field(tmp_path) -> None:
    bad = tmp_path / "pool.toml"
    bad.write_text(
        'format = 1\nname = "x"\nversion = "1"\n[[arcanum]]\nname = "Aa"\n'
        'hierarchy = 1\nallegiance = "a"\ncolours = ["eye","eye","eye","eye"]\n'
        '[[card]]\nname = "Bad Being"\nkind = "being"\ntext = "t"\nstations = [5]\n'
    )
    with pytest.raises(CardDataError, match=r"pool.toml: card 'Bad Being': field 'combat'"):
        KultGame(pool=bad)


def test_ku_11_1_other_hands_and_hub_cards_are_hidden_crosses_public() -> None:
    state = stacked(
        {
            "hand": ["Omen"],
            "hub_card": "Raven",
            "cross": {5: {"card": "Tin Soldier", "face_up": False}},
        },
        {"hand": ["Hex"], "hub_card": "Tin Soldier"},
    )
    view = state.render(1)
    assert "Omen" not in view and "hand: Hex" in view and "Raven" not in view
    assert "~Tin Soldier" in view
    resampled = state.resample_hidden(1, random.Random(0))
    assert base(resampled, 0, 5).card.name == "Tin Soldier"
    assert resampled.render(1) == view


def test_illegal_actions_and_bad_options_are_refused() -> None:
    state = stacked({"hand": ["Raven"]})
    with pytest.raises(IllegalActionError):
        act(state, "play Raven>Hub")
    with pytest.raises(IllegalActionError):
        state.apply(state.string_to_action("recruit Cast5"))
    with pytest.raises(ValueError, match="num_players"):
        KultGame(num_players=5)
    with pytest.raises(ValueError, match="game_type"):
        KultGame(game_type="galaxy")
    with pytest.raises(ValueError, match="one deck per player"):
        KultGame(num_players=3, decks=["ash", "tide"])
