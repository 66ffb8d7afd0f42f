"""HKK cards at work on stacked positions: galetki eating (HK-4.5), items taken by a killer
(HK-9.2), optional triggers (HK-7.8), play conditions (HK-7.11), skills (HK-9.3), upkeep
effects (HK-3.1) and the primitives that move creatures (HK-1.2, HK-4.2). Each test
names its rule."""

from __future__ import annotations

import tomllib

from hkk_positions import HOLD, act, declare_state, names, on_table, stacked, step, texts

from tabletop.envs.hkk import figures
from tabletop.envs.hkk.cards import data_path, parse_pool
from tabletop.envs.hkk.engine import HkkGame, HkkState


def test_hk_4_5_a_galetki_eats_the_components_of_a_mutant() -> None:
    state = stacked([{"hand": ["Fire Bolt", *HOLD["hand"]], "vp": 3,
                      "reserve": ["Galetki Stalker", "Galetki Shaper"]},
                     {"reserve": ["Twisted Hound"]}])  # fmt: skip
    act(state, "play h0 Fire Bolt on their #0 Twisted Hound")
    assert texts(state) == ["pass", "choose my #0 Galetki Stalker", "choose my #1 Galetki Shaper"]
    act(state, "choose my #1 Galetki Shaper")
    shaper = on_table(state, 0, "Galetki Shaper")
    assert shaper.counters == 1 and figures.damage(state, shaper) == 3
    assert state.components == [0, 0]


def test_hk_4_5_components_may_be_taken_instead() -> None:
    state = stacked([{"hand": ["Fire Bolt", *HOLD["hand"]], "vp": 3,
                      "reserve": ["Galetki Stalker"]},
                     {"reserve": ["Twisted Hound"]}])  # fmt: skip
    act(state, "play h0 Fire Bolt on their #0 Twisted Hound", "pass")
    assert state.components == [1, 0] and on_table(state, 0, "Galetki Stalker").counters == 0


def test_hk_5_1_no_eating_without_a_galetki_and_none_for_a_monster() -> None:
    state = stacked([{"hand": ["Fire Bolt", "Fire Bolt", *HOLD["hand"]], "vp": 5,
                      "reserve": ["Galetki Stalker"]},
                     {"reserve": ["Ash Roc", "Twisted Hound"]}])  # fmt: skip
    act(state, "play h0 Fire Bolt on their #0 Ash Roc", "pass")  # not answering their own
    assert state.components == [1, 0] and step(state) == "main", "a monster: no choice"


def test_hk_4_5_an_own_mutant_sacrificed_for_counters() -> None:
    state = stacked([{"reserve": ["Galetki Stalker", "Many-Mouthed Horror"], **HOLD}, {}])
    assert "sacrifice #1 Many-Mouthed Horror" in texts(state)
    act(state, "sacrifice #1 Many-Mouthed Horror")
    assert on_table(state, 0, "Galetki Stalker").counters == 3, "one galetki: no choice"
    assert state.components == [0, 0] and names(state, "discard", 0) == ["Many-Mouthed Horror"]


def test_hk_9_2_a_killer_that_uses_items_may_take_its_victims() -> None:
    theirs = [{"card": "Sellsword", "attached": ["Longsword"]}]
    state = declare_state(["Knight Errant", "Hill Giant"], theirs)
    state.tables[0][0].levels = 3  # a 6/6 knight
    act(state, "attack #0 Knight Errant at their #0 Sellsword")
    act(state, "attack #1 Hill Giant at their #0 Sellsword", "choose their #1 Hill Giant")
    assert state.player == 0 and texts(state) == ["pass", "choose my #0 Knight Errant"]
    act(state, "choose my #0 Knight Errant")
    knight = on_table(state, 0, "Knight Errant")
    assert [e.card.name for e in figures.attached(state, 0, knight)] == ["Longsword"]
    assert figures.damage(state, knight) == 8
    assert names(state, "discard", 1) == ["Sellsword"]
    assert state.table.owners[on_table(state, 0, "Longsword").iid] == 1, "still its owner's"


def test_hk_7_8_an_optional_trigger_is_its_owners_choice() -> None:
    state = stacked([{"hand": ["Galetki Devourer"], "vp": 5, "reserve": ["Galetki Stalker"]},
                     {}])  # fmt: skip
    act(state, "play h0 Galetki Devourer")
    assert texts(state) == ["pass", "choose my #0 Galetki Stalker", "choose my #1 Galetki Devourer"]
    act(state, "choose my #0 Galetki Stalker")
    assert on_table(state, 0, "Galetki Stalker").counters == 1


def test_hk_7_8_a_trigger_happens_by_itself() -> None:
    state = stacked([{"hand": ["Crystal Familiar", *HOLD["hand"]], "deck": ["Ash Roc"], "vp": 3},
                     {}])  # fmt: skip
    act(state, "play h0 Crystal Familiar")
    assert names(state, "hand", 0) == ["Stray Wolf", "Ash Roc"]


def test_hk_7_11_a_play_condition() -> None:
    hand = {"hand": ["Many-Mouthed Horror", *HOLD["hand"]], "vp": 6}
    without = stacked([hand, {}])
    assert texts(without) == ["pass", "play h1 Stray Wolf"]
    state = stacked([{**hand, "reserve": ["Galetki Stalker"]}, {}])
    assert "play h0 Many-Mouthed Horror" in texts(state)


def test_hk_9_3_a_skill_works_better_at_a_higher_level() -> None:
    def herbalism(copies: int) -> HkkState:
        own = {
            "beside": ["Herbalism"] * copies,
            "vp": 1,
            **{"hand": HOLD["hand"]},
            "reserve": [{"card": "Hill Giant", "damage": 3, "poison": 2}],
        }
        state = stacked([own, {}])
        act(state, "use #1 Herbalism 1 on my #0 Hill Giant")
        return state

    once, twice = herbalism(1), herbalism(2)
    assert (
        on_table(once, 0, "Hill Giant").poison == 0 and on_table(once, 0, "Hill Giant").damage == 3
    )
    assert on_table(twice, 0, "Hill Giant").damage == 1, "level 2: it also regains 2 life"


def test_hk_3_1_upkeep_effects_act_in_their_controllers_preparation() -> None:
    own = {"beside": ["Witchwood Circle", "Creeping Rot"], "life": 10, **HOLD}
    state = stacked([{"guard": ["Hill Giant"]}, own], phase="healing", turns_taken=(3, 0))
    assert texts(state) == ["choose my #0 Witchwood Circle", "choose my #1 Creeping Rot"]
    act(state, "choose my #1 Creeping Rot")
    assert state.life[1] == 11, "the last one: nothing left to choose"
    assert on_table(state, 0, "Hill Giant").poison == 1


def test_hk_1_2_a_stolen_creature_moves_to_the_takers_reserve() -> None:
    theirs = {"guard": [{"card": "Sellsword", "attached": ["Longsword"]}]}
    state = stacked([{"hand": ["Soul Theft", *HOLD["hand"]], "vp": 8}, theirs])
    act(state, "play h0 Soul Theft on their #0 Sellsword")
    sellsword = on_table(state, 0, "Sellsword")
    assert sellsword.area == "reserve" and not state.tables[1]
    assert figures.damage(state, sellsword) == 4, "with its sword"
    state.leave(sellsword, "discard")
    assert names(state, "discard", 1) == ["Longsword", "Sellsword"], "to its owner's pile"
    assert state.components == [0, 0], "an adventurer shows no components"


def test_hk_4_2_removal_without_damage_back_to_hand_or_to_the_void() -> None:
    state = stacked([{"hand": ["Sudden Tide", "Banish", *HOLD["hand"]], "vp": 8},
                     {"reserve": ["Hill Giant", "Ash Roc"]}])  # fmt: skip
    act(state, "play h0 Sudden Tide on their #0 Hill Giant")
    assert names(state, "hand", 1) == ["Hill Giant"] and state.components == [0, 0]
    act(state, "play h0 Banish on their #0 Ash Roc")
    assert names(state, "void", 1) == ["Ash Roc"] and state.components == [1, 0], "HK-5.1"


def test_hk_7_11_a_creature_comes_back_from_the_discard_pile() -> None:
    state = stacked([{"hand": ["Raise the Fallen", *HOLD["hand"]], "vp": 5,
                      "discard": ["Fire Bolt", "Hill Giant"]}, {}])  # fmt: skip
    act(state, "play h0 Raise the Fallen on grave #0 Hill Giant")
    giant = on_table(state, 0, "Hill Giant")
    assert giant.area == "reserve" and not giant.active and names(state, "discard", 0) == [
        "Fire Bolt", "Raise the Fallen"]  # fmt: skip


def test_hk_7_11_a_play_condition_holds_for_a_creature_from_the_discard_pile() -> None:
    """Many-Mouthed Horror needs a galetki of yours in play, from the hand or the pile."""
    own = {"hand": ["Raise the Fallen", *HOLD["hand"]], "vp": 5,
           "discard": ["Many-Mouthed Horror", "Hill Giant"]}  # fmt: skip
    legal = texts(stacked([own, {}]))
    assert "play h0 Raise the Fallen on grave #1 Hill Giant" in legal
    assert "play h0 Raise the Fallen on grave #0 Many-Mouthed Horror" not in legal
    with_galetki = stacked([{**own, "reserve": ["Galetki Shaper"]}, {}])
    act(with_galetki, "play h0 Raise the Fallen on grave #0 Many-Mouthed Horror")
    assert on_table(with_galetki, 0, "Many-Mouthed Horror").area == "reserve"


def test_hk_11_1_events_name_their_cards() -> None:
    """Event data reads as the texts do: cards by name, a target as seat, place and name."""
    state = stacked([{"hand": ["Raise the Fallen", *HOLD["hand"]], "vp": 5,
                      "discard": ["Hill Giant"]}, {}])  # fmt: skip
    act(state, "play h0 Raise the Fallen on grave #0 Hill Giant")
    played = [e.data for e in state.last_events(1) if e.kind == "card_played"]
    assert played == [{"player": 0, "card": "Raise the Fallen", "target": [-1, -1, "Hill Giant"]}]


def test_hk_9_4_a_body_part_shields_its_galetki() -> None:
    theirs = {"reserve": [{"card": "Galetki Stalker", "attached": ["Bone Spurs", "Chitin Plates"]}]}
    state = stacked([{"hand": ["Fire Bolt", *HOLD["hand"]], "vp": 3}, theirs])
    act(state, "play h0 Fire Bolt on their #0 Galetki Stalker")
    assert state.player == 1
    assert texts(state) == ["pass", "sacrifice #1 Bone Spurs", "sacrifice #2 Chitin Plates"]
    act(state, "sacrifice #1 Bone Spurs")
    stalker = on_table(state, 1, "Galetki Stalker")
    assert stalker.damage == 0, "Fire Bolt did nothing to it"
    assert names(state, "discard", 1) == ["Bone Spurs"] and names(state, "discard", 0) == [
        "Fire Bolt"]  # fmt: skip
    assert not state.shields, "the shield lasts while the card is on the chain"


def test_hk_9_4_a_body_part_is_not_offered_against_what_does_not_reach_it() -> None:
    theirs = {"reserve": [{"card": "Galetki Stalker", "attached": ["Bone Spurs"]}, "Hill Giant"]}
    state = stacked([{"hand": ["Fire Bolt", *HOLD["hand"]], "vp": 3}, theirs])
    act(state, "play h0 Fire Bolt on their #2 Hill Giant")
    assert state.player == 0, "player 1 had nothing to answer with: not asked (HK-8.5)"


def test_hk_3_1_the_active_player_orders_the_upkeep() -> None:
    own = {"guard": ["Magma Wyrm", "Magma Wyrm"], "beside": ["Treasury"]}
    state = stacked([{}, own], phase="healing", turns_taken=(3, 0))
    assert state.vp[1] == 1, "the first turn's income"
    act(state, "choose my #2 Treasury", "choose my #0 Magma Wyrm", "pay upkeep", "pay upkeep")
    assert state.vp[1] == 0 and len(state.tables[1]) == 3, "both wyrms paid for"
    late = stacked([{}, own], phase="healing", turns_taken=(3, 0))
    act(late, "choose my #0 Magma Wyrm", "pay upkeep", "choose my #1 Magma Wyrm")
    assert late.legal_actions() != [] and names(late, "discard", 1) == ["Magma Wyrm"], (
        "0 magic points left: the second is sacrificed without asking"
    )


def test_hk_8_4_a_chain_of_three_answers() -> None:
    state = stacked([{"hand": ["Fire Bolt", "Unweave", *HOLD["hand"]], "vp": 6},
                     {"hand": ["Unweave"], "vp": 3, "reserve": ["Hill Giant"]}])  # fmt: skip
    act(state, "play h0 Fire Bolt on their #0 Hill Giant", "play h0 Unweave")
    assert [state.card(i.what.iid).name for i in state.stack.items] == ["Fire Bolt", "Unweave"]
    assert state.player == 0, "the chain's turn back to the first player"
    act(state, "play h0 Unweave")
    assert on_table(state, 1, "Hill Giant").damage == 3, "the last Unweave cancelled the first"
    assert names(state, "discard", 1) == ["Unweave"]
    assert names(state, "discard", 0) == ["Unweave", "Fire Bolt"]


def test_hk_7_10_a_passivation_ability_only_from_the_reserve_while_active() -> None:
    state = stacked([{"guard": ["Bog Witch"], "reserve": ["Bog Witch", {"card": "Bog Witch",
                      "active": False}], **HOLD}, {"reserve": ["Hill Giant"]}])  # fmt: skip
    used = {text.split(" on ")[0] for text in texts(state) if text.startswith("use")}
    assert used == {"use #1 Bog Witch 1"}
    act(state, "use #1 Bog Witch 1 on their #0 Hill Giant")
    assert on_table(state, 1, "Hill Giant").poison == 1
    assert not state.tables[0][1].active


def test_hk_6_4_a_breath_paid_in_life_where_the_card_allows() -> None:
    state = stacked([{"guard": ["Magma Wyrm"], "vp": 1, **{"hand": HOLD["hand"]}}, {}],
                    phase="after attacks")  # fmt: skip
    assert "breathe #0 Magma Wyrm 4 at player" in texts(state)
    act(state, "breathe #0 Magma Wyrm 3 at player")
    assert state.vp[0] == 0 and state.life == [18, 17]


def test_hk_6_4_direct_damage_effects_and_simultaneous_resolution() -> None:
    own = {"guard": ["Thunder Kite", "Ember Drake"], "vp": 5, **{"hand": HOLD["hand"]}}
    state = stacked([own, {"guard": ["Stray Wolf", "Kiln Salamander"]}], phase="after attacks")
    act(state, "direct #0 Thunder Kite", "breathe #1 Ember Drake 2 at their #1 Kiln Salamander")
    assert on_table(state, 1, "Stray Wolf").damage == 1, "2 life on defence"
    salamander = on_table(state, 1, "Kiln Salamander")
    assert salamander.damage == 1, "immune to the fire breath, not to the lightning"
    assert state.vp[0] == 1


def test_hk_7_1_poison_immunity() -> None:
    state = declare_state(["Blight Spider"], ["Thornhide Boar"])
    act(state, "attack #0 Blight Spider at their #0 Thornhide Boar")
    assert on_table(state, 1, "Thornhide Boar").poison == 0


def test_hk_1_2_a_guard_post_that_loses_a_place_sends_a_creature_back() -> None:
    theirs = {"guard": ["Stray Wolf", "Grub Swarm", "Twisted Hound", "Sellsword"],
              "beside": ["Stone Watchtower"]}  # fmt: skip
    state = stacked([{"hand": ["Scorched Earth", *HOLD["hand"]], "vp": 5}, theirs])
    act(state, "play h0 Scorched Earth on their #4 Stone Watchtower")
    assert [e.area for e in figures.creatures(state, 1)] == ["guard"] * 3 + ["reserve"]


def test_hk_8_3_an_ability_allowed_in_the_preparation_phase() -> None:
    data = tomllib.loads(data_path("pool.toml").read_text(encoding="utf-8"))
    shrine = {"name": "Dawn Shrine", "type": "building", "text": "Preparation: +2 life.",
              "builders": 1, "structure": 3,
              "activated": [{"passivate": True, "timing": "preparation",
                             "effects": [{"do": "gain_life", "amount": 2}]}]}  # fmt: skip
    game = HkkGame(pool=parse_pool({**data, "card": [*data["card"], shrine]}, "pool.toml"))
    own = {"beside": ["Dawn Shrine", "Forge"], "life": 10}
    state = game.stacked_state([{}, own], phase="healing")
    assert texts(state) == ["pass", "use #0 Dawn Shrine 1", "use #1 Forge 1"], "instant speed"
    act(state, "pass")
    assert step(state) == "sacrifice" and texts(state) == ["pass", "use #0 Dawn Shrine 1"]
    act(state, "use #0 Dawn Shrine 1")
    assert state.life[1] == 12 and not state.tables[1][0].active


def test_hk_4_2_a_saving_card_may_be_answered() -> None:
    state = stacked([{"hand": ["Fire Bolt", "Unweave", *HOLD["hand"]], "vp": 6},
                     {"hand": ["Wild Growth"], "vp": 2, "reserve": ["Hill Giant"]}])  # fmt: skip
    state.tables[1][0].damage = 3
    act(state, "play h0 Fire Bolt on their #0 Hill Giant", "pass", "pass")  # nobody answers
    assert state.saving and state.player == 1, "the giant is at 0 life: a life-saving window"
    act(state, "play h0 Wild Growth on my #0 Hill Giant")
    assert texts(state) == ["pass", "play h0 Unweave"], "only an answer opens no chain"
    act(state, "play h0 Unweave")
    assert names(state, "discard", 1) == ["Wild Growth", "Hill Giant"]


def test_hk_9_2_a_killer_dying_in_the_same_strike_takes_nothing() -> None:
    theirs = [{"card": "Sellsword", "attached": ["Longsword"]}]
    state = declare_state(["Knight Errant"], theirs)
    state.tables[0][0].levels = 1
    act(state, "attack #0 Knight Errant at their #0 Sellsword")
    assert names(state, "discard", 1) == ["Longsword", "Sellsword"], "4/4 and 5/4: both fall"
    assert names(state, "discard", 0) == ["Knight Errant"]


def test_hk_7_7_an_effect_on_each_creature_passes_over_the_protected() -> None:
    state = stacked([{"hand": ["Plague Cloud", *HOLD["hand"]], "vp": 5},
                     {"reserve": ["Tide Serpent", "Hill Giant"]}])  # fmt: skip
    act(state, "play h0 Plague Cloud")
    assert [e.poison for e in state.tables[1]] == [0, 1], "sorceries cannot touch the serpent"


def test_hk_6_4_declarations_alternate_and_take_effect_together() -> None:
    mine = {"guard": ["Cinder Whelp"], "vp": 2, **{"hand": HOLD["hand"]}}
    state = stacked([mine, {"guard": ["Cinder Whelp"], "vp": 1}], phase="after attacks")
    assert step(state) == "direct damage" and state.player == 0, "the attacking player first"
    act(state, "breathe #0 Cinder Whelp 1 at their #0 Cinder Whelp")
    assert state.player == 1 and state.tables[1][0].damage == 0, "declared, not yet dealt"
    act(state, "breathe #0 Cinder Whelp 1 at their #0 Cinder Whelp")
    assert names(state, "discard", 0) == ["Cinder Whelp"], "1 life: the breath kills it"
    assert state.tables[1][0].damage == 1, "its own breath was dealt all the same"
    assert state.vp == [1, 0]
