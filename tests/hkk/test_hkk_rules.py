"""HKK's rules on small stacked positions, each test naming the rule (docs/rules/hkk.md)
it checks. Moves are given in the game's notation (``envs/hkk/notation.py``)."""

from __future__ import annotations

import pytest
from hkk_positions import (
    GAME,
    HOLD,
    act,
    declare_state,
    names,
    on_table,
    stacked,
    step,
    texts,
)

from tabletop.envs.core.protocol import IllegalActionError
from tabletop.envs.hkk import figures
from tabletop.envs.hkk.combat import strike_damage
from tabletop.envs.hkk.engine import DRAW, HkkState

# ----- HK-3.1, HK-3.2: preparation and draw ---------------------------------------------------


@pytest.mark.parametrize(("taken", "income"), [(0, 1), (1, 2), (3, 4), (4, 5), (9, 5)])
def test_hk_3_1_magic_points_by_turn_and_two_reserve_creatures(taken: int, income: int) -> None:
    reserve = ["Shieldbearer", "Sellsword", "Mist Walker"]
    state = stacked([{"guard": ["Stray Wolf"]}, {"reserve": reserve, "deck": ["Magma Wyrm"]}],
                    phase="healing", turns_taken=(5, taken))  # fmt: skip
    assert state.active == 1 and step(state) == "swap", "player 1's turn, up to its swap"
    assert state.vp[1] == income + 1, "three reserve creatures give 1 more"
    assert names(state, "hand", 1) == ["Magma Wyrm"], "HK-3.2: the draw"


def test_hk_2_1_magic_points_above_20_are_lost() -> None:
    state = stacked([{}, {"vp": 18, "reserve": ["Shieldbearer"]}], phase="healing")
    assert state.active == 1 and state.vp[1] == 20


def test_hk_3_1_passive_cards_wake_in_their_controllers_preparation() -> None:
    state = stacked([{}, {"reserve": [{"card": "Shieldbearer", "active": False}]}],
                    phase="healing")  # fmt: skip
    assert on_table(state, 1, "Shieldbearer").active


def test_hk_5_2_sacrifice_for_components_in_preparation() -> None:
    state = stacked([{}, {"reserve": ["Hill Giant", "Shieldbearer"]}], phase="healing")
    assert step(state) == "sacrifice"
    assert texts(state) == ["pass", "sacrifice #0 Hill Giant"], "monsters only"
    act(state, "sacrifice #0 Hill Giant")
    assert state.components == [0, 2], "its components to its controller, none to the other"
    assert names(state, "discard", 1) == ["Hill Giant"]


def test_hk_7_3_poison_grows_in_preparation_and_kills_without_components() -> None:
    state = stacked([{}, {"reserve": [{"card": "Hill Giant", "poison": 4},
                                      {"card": "Shieldbearer", "poison": 1}]}],
                    phase="healing")  # fmt: skip
    act(state, "choose my #0 Hill Giant")
    assert names(state, "discard", 1) == ["Hill Giant"], "5 counters on 5 life"
    assert on_table(state, 1, "Shieldbearer").poison == 2
    assert state.components == [0, 0]


def test_hk_7_11_an_upkeep_is_paid_or_the_creature_is_sacrificed() -> None:
    wyrm = {"reserve": ["Magma Wyrm"], "vp": 0}
    state = stacked([{}, wyrm], phase="healing", turns_taken=(3, 0))
    assert texts(state) == ["pass", "pay upkeep"]
    act(state, "pay upkeep")
    assert state.vp[1] == 0 and on_table(state, 1, "Magma Wyrm")
    refused = stacked([{}, wyrm], phase="healing", turns_taken=(3, 0))
    act(refused, "pass")
    assert names(refused, "discard", 1) == ["Magma Wyrm"] and refused.components == [0, 0]


# ----- HK-4, HK-3.3: playing creatures ------------------------------------------------------


def test_hk_4_1_a_creature_enters_passive_and_a_flyer_active() -> None:
    state = stacked([{"hand": ["Stray Wolf", "Ash Roc"], "vp": 5}, {}])
    act(state, "play h0 Stray Wolf")
    wolf = on_table(state, 0, "Stray Wolf")
    assert (wolf.area, wolf.active, state.vp[0]) == ("reserve", False, 4)
    act(state, "play h0 Ash Roc")
    assert on_table(state, 0, "Ash Roc").active, "HK-7.5"


def test_hk_3_3_a_card_that_cannot_be_paid_for_cannot_be_played() -> None:
    state = stacked([{"hand": ["Hill Giant", "Stray Wolf"], "vp": 4}, {}])
    assert texts(state) == ["pass", "play h1 Stray Wolf"]
    with pytest.raises(IllegalActionError):
        state.string_to_action("play h0 Hill Giant")


def test_hk_4_3_the_defence_bonus_is_the_defenders() -> None:
    state = stacked([{"guard": ["Stray Wolf"]}, {"guard": ["Stray Wolf"]}])
    mine, theirs = on_table(state, 0, "Stray Wolf"), on_table(state, 1, "Stray Wolf")
    assert (figures.damage(state, mine), figures.life(state, mine)) == (1, 1)
    assert (figures.damage(state, theirs), figures.life(state, theirs)) == (2, 2)


# ----- HK-3.4: the swap ----------------------------------------------------------------------


def swap_state(*beside: str) -> HkkState:
    reserve = ["Stray Wolf", "Grub Swarm", "Twisted Hound", "Sellsword"]
    return stacked([{"reserve": reserve, "beside": list(beside)}, {}], phase="swap")


def test_hk_1_2_the_guard_post_holds_three() -> None:
    state = swap_state()
    act(state, "guard #0 Stray Wolf", "guard #1 Grub Swarm")
    assert "guard #3 Sellsword" in texts(state)
    act(state, "guard #2 Twisted Hound")
    assert step(state) == "declare", "nothing left to move: the swap ended by itself"
    assert on_table(state, 0, "Sellsword").area == "reserve"


def test_hk_1_2_a_watchtower_gives_a_fourth_place() -> None:
    state = swap_state("Stone Watchtower")
    act(state, "guard #0 Stray Wolf", "guard #1 Grub Swarm", "guard #2 Twisted Hound",
        "guard #3 Sellsword")  # fmt: skip
    assert len(figures.guard(state, 0)) == 4


def test_hk_1_4_a_passive_creature_stays_in_the_reserve() -> None:
    state = stacked([{"reserve": [{"card": "Stray Wolf", "active": False}, "Sellsword"]}, {}],
                    phase="swap")  # fmt: skip
    assert texts(state) == ["pass", "guard #1 Sellsword"]


# ----- HK-6: combat --------------------------------------------------------------------------


def test_hk_6_2_breaking_through_needs_every_guard_attacked() -> None:
    state = declare_state(["Stray Wolf", "Grub Swarm"], ["Twisted Hound"])
    assert "attack #0 Stray Wolf at player" not in texts(state)
    act(state, "attack #0 Stray Wolf at their #0 Twisted Hound")
    assert "attack #1 Grub Swarm at player" in texts(state)


def test_hk_6_2_at_most_two_attackers_and_the_defender_chooses() -> None:
    state = declare_state(["Stray Wolf", "Grub Swarm", "Twisted Hound"], ["Hill Giant"])
    act(state, "attack #0 Stray Wolf at their #0 Hill Giant",
        "attack #1 Grub Swarm at their #0 Hill Giant")  # fmt: skip
    assert "attack #2 Twisted Hound at their #0 Hill Giant" not in texts(state)
    act(state, "pass")
    assert state.player == 1, "the defender's owner chooses whom it strikes"
    act(state, "choose their #1 Grub Swarm")
    assert names(state, "discard", 0) == ["Grub Swarm"], "struck back by a 6/6 giant"
    assert on_table(state, 0, "Stray Wolf").damage == 0
    assert on_table(state, 1, "Hill Giant").damage == 2


def test_hk_6_6_the_strike_is_simultaneous_and_gives_components() -> None:
    state = declare_state(["Hill Giant"], ["Ash Roc"])
    act(state, "attack #0 Hill Giant at their #0 Ash Roc")
    assert names(state, "discard", 1) == ["Ash Roc"]
    assert on_table(state, 0, "Hill Giant").damage == 4, "Ash Roc 3/2 +1/+1 on defence"
    assert state.components == [1, 0], "HK-5.1"
    assert step(state) == "main again"


def test_hk_6_6_an_attack_on_the_player_hurts_their_life() -> None:
    state = declare_state(["Hill Giant"], [])
    act(state, "attack #0 Hill Giant at player")
    assert state.life[1] == 15


def test_hk_7_2_magic_defence_stops_strikes_without_magic_attack() -> None:
    state = declare_state(["Hill Giant", "Storm Harrier"], ["Iron Golem"])
    act(state, "attack #0 Hill Giant at their #0 Iron Golem",
        "attack #1 Storm Harrier at their #0 Iron Golem", "choose their #0 Hill Giant")  # fmt: skip
    assert on_table(state, 1, "Iron Golem").damage == 2, "only the Harrier's magic attack"


def test_hk_7_3_a_poisonous_creature_poisons_what_it_strikes() -> None:
    state = declare_state(["Blight Spider"], ["Iron Golem"])
    act(state, "attack #0 Blight Spider at their #0 Iron Golem")
    assert on_table(state, 1, "Iron Golem").poison == 2, "even through magic defence"


def test_hk_7_4_an_invisible_creature_ignores_the_guard_unless_seen() -> None:
    state = declare_state(["Mist Walker"], ["Hill Giant"])
    assert "attack #0 Mist Walker at player" in texts(state)
    seen = declare_state(["Mist Walker"], ["Watchful Owl"])
    assert "attack #0 Mist Walker at player" not in texts(seen)


def test_hk_7_11_weak_against_flying_deals_less() -> None:
    state = declare_state(["Hill Giant"], ["Ash Roc"])
    giant, roc = on_table(state, 0, "Hill Giant"), on_table(state, 1, "Ash Roc")
    assert strike_damage(state, giant, roc) == 3, "HK-7.11: 5 less 2 against a flyer"


def test_hk_6_4_a_breath_costs_a_magic_point_a_point() -> None:
    state = stacked([{"guard": ["Ember Drake"], "vp": 2}, {"guard": ["Hill Giant"]}],
                    phase="after attacks")  # fmt: skip
    assert step(state) == "direct damage"
    legal = texts(state)
    assert "breathe #0 Ember Drake 2 at their #0 Hill Giant" in legal
    assert "breathe #0 Ember Drake 3 at their #0 Hill Giant" not in legal, "2 magic points"
    act(state, "breathe #0 Ember Drake 2 at player")
    assert state.vp[0] == 0 and state.life[1] == 18


def test_hk_6_8_a_building_broken_through_to_falls() -> None:
    state = declare_state(["Hill Giant", "Ash Roc"], [], beside=["Eyrie"])
    act(state, "attack #0 Hill Giant at their #0 Eyrie", "attack #1 Ash Roc at their #0 Eyrie")
    assert names(state, "discard", 1) == ["Eyrie"], "8 damage on 5 structure"
    assert state.life[1] == 20


# ----- HK-7.9: regeneration, HK-4.2: life-saving ----------------------------------------------


def test_hk_7_9_regeneration_saves_a_creature_for_magic_points() -> None:
    state = declare_state(["Hill Giant"], ["Mossback Troll"], vp=3)
    act(state, "attack #0 Hill Giant at their #0 Mossback Troll")
    troll = on_table(state, 1, "Mossback Troll")
    assert figures.remaining(state, troll) == 0 and state.player == 1, "the saving window"
    act(state, "regenerate #0 Mossback Troll")
    assert figures.remaining(state, troll) == 1 and state.vp[1] == 2
    assert step(state) == "saving after strike"


def test_hk_7_9_regeneration_only_right_after_the_damage() -> None:
    """The Mossback Troll, struck to 0, regenerates a point in the saving window after the
    strike; once both players have passed there, its damage is old: in "main again" its
    controller is not even asked (HK-8.5) when the other player plays a card."""
    state = declare_state(["Hill Giant"], ["Mossback Troll"], vp=3)
    act(state, "attack #0 Hill Giant at their #0 Mossback Troll", "regenerate #0 Mossback Troll")
    assert "regenerate #0 Mossback Troll" in texts(state), "still right after the strike"
    act(state, "pass")
    assert step(state) == "main again" and state.tables[1][0].damage == 4
    assert state.vp[1] == 2
    act(state, "play h0 Stray Wolf")
    assert state.active == 1, "no regeneration offered: the turn ended"


def test_hk_6_5_and_5_1_a_dying_mutant_cannot_be_fed_to_a_galetki() -> None:
    """A Bog Horror struck to -3 beside its owner's galetki: the life-saving window offers
    nothing that raises its life, so it dies, and the attacker gains its 2 components."""
    state = declare_state(["Hill Giant"], ["Bog Horror"], reserve=["Galetki Stalker"])
    act(state, "attack #0 Hill Giant at their #0 Bog Horror", "pass")
    assert "sacrifice #0 Bog Horror" in texts(state), "alive, it may still be fed"
    act(state, "pass")
    assert step(state) == "main again" and names(state, "discard", 1) == ["Bog Horror"]
    assert state.components == [2, 0] and on_table(state, 1, "Galetki Stalker").counters == 0


# ----- HK-8: spells and the chain ------------------------------------------------------------


def test_hk_7_1_an_immune_creature_takes_nothing_of_its_form() -> None:
    state = stacked([{"hand": ["Fire Bolt", "Frost Ray"], "vp": 4},
                     {"reserve": ["Kiln Salamander"]}])  # fmt: skip
    act(state, "play h0 Fire Bolt on their #0 Kiln Salamander")
    assert on_table(state, 1, "Kiln Salamander").damage == 0
    act(state, "play h0 Frost Ray on their #0 Kiln Salamander")
    assert names(state, "discard", 1) == ["Kiln Salamander"]


def test_hk_7_7_protections() -> None:
    state = stacked([{"hand": ["Fire Bolt", "Banish"], "vp": 10},
                     {"reserve": ["Grave Wraith", "Spellward Sentinel"]}])  # fmt: skip
    legal = texts(state)
    assert "play h0 Fire Bolt on their #0 Grave Wraith" not in legal, "cannot be the target"
    assert "play h0 Fire Bolt on their #1 Spellward Sentinel" in legal, "no effect, but may"
    act(state, "play h0 Fire Bolt on their #1 Spellward Sentinel")
    assert on_table(state, 1, "Spellward Sentinel").damage == 0 and state.vp[0] == 8


def test_hk_8_4_a_reaction_cancels_the_card_it_answers() -> None:
    state = stacked([{"hand": ["Fire Bolt", "Stray Wolf"], "vp": 3},
                     {"hand": ["Unweave"], "vp": 3, "reserve": ["Hill Giant"]}])  # fmt: skip
    act(state, "play h0 Fire Bolt on their #0 Hill Giant")
    assert state.player == 1 and texts(state) == ["pass", "play h0 Unweave"]
    act(state, "play h0 Unweave")
    assert on_table(state, 1, "Hill Giant").damage == 0
    assert names(state, "discard", 0) == ["Fire Bolt"] and names(state, "discard", 1) == ["Unweave"]
    assert (state.vp, not state.stack, state.player) == ([1, 0], True, 0)


def test_hk_8_4_answers_resolve_last_first() -> None:
    state = stacked([{"hand": ["Fire Bolt"], "vp": 2},
                     {"hand": ["Wild Growth", "Shield Ward"], "vp": 3,
                      "reserve": ["Hill Giant"]}])  # fmt: skip
    giant = on_table(state, 1, "Hill Giant")
    act(
        state, "play h0 Fire Bolt on their #0 Hill Giant", "play h1 Shield Ward on my #0 Hill Giant"
    )
    assert [state.card(i.what.iid).name for i in state.stack.items] == ["Fire Bolt", "Shield Ward"]
    act(state, "pass")  # player 0 does not answer: Shield Ward resolves first
    assert giant.boost == (0, 3) and giant.damage == 0
    assert state.player == 1, "player 0 had no answer, so nobody asked them"


def test_hk_8_5_a_player_without_an_answer_is_not_asked() -> None:
    state = stacked([{"hand": ["Stray Wolf", "Grub Swarm"], "vp": 5}, {"hand": ["Fire Bolt"]}])
    act(state, "play h0 Stray Wolf")
    assert state.player == 0 and not state.stack, "player 1 cannot pay for Fire Bolt"


def test_hk_8_3_sorceries_only_in_your_main_phase_with_an_empty_chain() -> None:
    theirs = {"hand": ["Old Lore", "Fire Bolt"], "vp": 5, "reserve": ["Hill Giant"]}
    state = stacked([{"hand": ["Fire Bolt"], "vp": 2}, theirs])
    act(state, "play h0 Fire Bolt on their #0 Hill Giant")
    assert texts(state) == ["pass", "play h1 Fire Bolt on my #0 Hill Giant"]


# ----- HK-9: buildings, items, level-ups ------------------------------------------------------


def test_hk_9_1_a_building_passivates_its_builders_and_enters_passive() -> None:
    state = stacked([{"hand": ["Eyrie"], "reserve": ["Stray Wolf", "Grub Swarm", "Sellsword"]},
                     {}])  # fmt: skip
    act(state, "play h0 Eyrie")
    assert state.player == 0 and texts(state) == ["choose my #0 Stray Wolf",
                                                  "choose my #1 Grub Swarm",
                                                  "choose my #2 Sellsword"]  # fmt: skip
    act(state, "choose my #0 Stray Wolf", "choose my #2 Sellsword")
    assert [e.active for e in state.tables[0]] == [False, True, False, False]
    assert state.tables[0][3].card.name == "Eyrie" and not state.tables[0][3].active


def test_hk_9_2_items_cost_components_one_of_a_subtype() -> None:
    state = stacked([{"hand": ["Longsword", "Longsword"], "components": 4,
                      "reserve": ["Sellsword", "Stray Wolf"]}, {}])  # fmt: skip
    assert texts(state) == ["pass", "play h0 Longsword on my #0 Sellsword"], (
        "only item users; two copies in hand are one play"
    )
    act(state, "play h0 Longsword on my #0 Sellsword")
    sellsword = on_table(state, 0, "Sellsword")
    assert state.components[0] == 2 and figures.damage(state, sellsword) == 4
    assert step(state) == "swap", "the second sword has no bearer: nothing more to play"
    assert names(state, "hand", 0) == ["Longsword"]


def test_hk_4_4_a_level_up_raises_an_adventurer() -> None:
    state = stacked([{"hand": ["Veteran"], "vp": 2, "reserve": ["Sellsword"]}, {}])
    act(state, "play h0 Veteran on my #0 Sellsword")
    sellsword = on_table(state, 0, "Sellsword")
    assert sellsword.levels == 1 and figures.damage(state, sellsword) == 3
    state.leave(sellsword, "discard")
    assert names(state, "discard", 0) == ["Veteran", "Sellsword"], "it leaves with its adventurer"


# ----- HK-2.3: the end -----------------------------------------------------------------------


def test_hk_2_3_a_player_at_0_life_at_the_end_of_a_turn_loses() -> None:
    state = stacked([{}, {"life": 0}], phase="healing")
    assert state.is_terminal() and state.winner == 0 and state.returns() == [1.0, -1.0]


def test_hk_2_3_both_at_0_life_is_a_draw() -> None:
    state = stacked([{"life": -1}, {"life": 0}], phase="healing")
    assert state.winner == DRAW and state.returns() == [0.0, 0.0]


def test_hk_2_3_life_saved_before_the_end_of_the_turn_counts() -> None:
    state = stacked([{"hand": ["Second Wind"], "vp": 2, "life": -1}, {"hand": ["Stray Wolf"]}],
                    phase="healing")  # fmt: skip
    act(state, "play h0 Second Wind")
    assert not state.is_terminal() and state.life[0] == 2
    assert state.active == 1 and step(state) == "main"


def test_hk_2_3_empty_decks_and_ten_quiet_turns_are_a_draw() -> None:
    state = stacked([{}, {}], phase="healing")
    assert state.winner == DRAW and state.quiet_turns == 10


# ----- more of HK-2, HK-6, HK-8, HK-9 --------------------------------------------------------


def test_hk_2_2_five_cards_each_and_the_first_player_by_the_seed() -> None:
    firsts = set()
    for seed in range(12):
        state = GAME.new_state(seed)
        for seat in (0, 1):  # before anyone's first decision, only the draws took cards
            drawn = len(GAME.decks[seat].cards) - len(state.decks[seat])
            assert drawn == 5 + state.turns_taken[seat], "the first player draws too"
        first = state.active if state.turn % 2 else 1 - state.active
        firsts.add(first)
    assert firsts == {0, 1}


def test_hk_6_6_an_attacker_whose_target_left_hits_nothing() -> None:
    theirs = {"hand": ["Sudden Tide"], "vp": 2}
    state = declare_state(["Hill Giant", "Ash Roc"], ["Stray Wolf"], **theirs)
    act(state, "attack #0 Hill Giant at their #0 Stray Wolf", "attack #1 Ash Roc at player")
    assert state.player == 1 and step(state) == "after attacks"
    act(state, "play h0 Sudden Tide on my #0 Stray Wolf")
    assert state.life[1] == 17 and names(state, "hand", 1) == ["Stray Wolf"]
    assert on_table(state, 0, "Hill Giant").damage == 0, "struck by nobody, struck nothing"


def test_hk_9_4_a_galetki_with_a_drawback_carries_one_body_part() -> None:
    shaper = {"card": "Galetki Shaper", "attached": ["Leather Wings"]}
    own = {"hand": ["Bone Spurs", "Chitin Plates"], "vp": 5,
           "reserve": [shaper, "Galetki Stalker"]}  # fmt: skip
    state = stacked([own, {}])
    assert texts(state) == ["pass", "play h0 Bone Spurs on my #2 Galetki Stalker",
                            "play h1 Chitin Plates on my #2 Galetki Stalker"]  # fmt: skip


def test_hk_8_1_an_attached_enchantment_leaves_with_its_creature() -> None:
    theirs = {"reserve": [{"card": "Hill Giant", "attached": ["Binding Chains"]}]}
    state = stacked([{"hand": ["Banish", *HOLD["hand"]], "vp": 6}, theirs])
    giant = on_table(state, 1, "Hill Giant")
    assert figures.damage(state, giant) == 4, "5, less 2 bound, +1 on defence"
    act(state, "play h0 Banish on their #0 Hill Giant")
    assert names(state, "void", 1) == ["Hill Giant"] and names(state, "discard", 1) == [
        "Binding Chains"]  # fmt: skip


def test_hk_3_7_damage_goes_in_the_healing_phase_poison_stays() -> None:
    own = {"reserve": [{"card": "Hill Giant", "damage": 3, "poison": 1}],
           "beside": [{"card": "Eyrie", "damage": 2}]}  # fmt: skip
    state = stacked([own, {"hand": ["Stray Wolf"]}], phase="healing")
    assert state.active == 1 and step(state) == "main"
    assert [e.damage for e in state.tables[0]] == [0, 0] and state.tables[0][0].poison == 1


def test_hk_7_9_regeneration_restores_at_most_4_a_turn() -> None:
    troll = {"card": "Mossback Troll", "damage": 6, "wounded": True}
    state = stacked([{"reserve": [troll], "vp": 10, **{"hand": HOLD["hand"]}}, {}])
    for _ in range(4):
        act(state, "regenerate #0 Mossback Troll")
    assert state.tables[0][0].damage == 2 and state.vp[0] == 6
    assert "regenerate #0 Mossback Troll" not in texts(state)


def test_hk_3_2_an_empty_deck_draws_nothing_and_nothing_else_happens() -> None:
    state = stacked([{}, {"hand": ["Stray Wolf"], "deck": []}], phase="healing")
    assert state.active == 1 and step(state) == "main" and not state.is_terminal()
    assert names(state, "hand", 1) == ["Stray Wolf"]


def test_hk_6_1_and_6_3_instants_before_and_after_the_attacks() -> None:
    theirs = {"hand": ["Fire Bolt"], "vp": 2, "guard": ["Hill Giant"]}
    state = stacked([{"guard": ["Stray Wolf"], **HOLD}, theirs], phase="swap")
    act(state, "pass")
    assert step(state) == "before attacks" and state.player == 1
    act(state, "pass")
    assert step(state) == "declare"
    act(state, "attack #0 Stray Wolf at their #0 Hill Giant")
    assert step(state) == "after attacks" and state.player == 1
    assert "play h0 Fire Bolt on their #0 Stray Wolf" in texts(state)


def test_hk_8_2_a_sorcery_happens_once_and_goes_to_the_discard_pile() -> None:
    state = stacked([{"hand": ["Old Lore", *HOLD["hand"]], "deck": ["Ash Roc", "Hill Giant"],
                      "vp": 4}, {}])  # fmt: skip
    act(state, "play h0 Old Lore")
    assert names(state, "hand", 0) == ["Stray Wolf", "Ash Roc", "Hill Giant"]
    assert names(state, "discard", 0) == ["Old Lore"] and state.tables[0] == []
