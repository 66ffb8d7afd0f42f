"""HKK's rules on stacked positions, for the rules, card types (HK-1.3) and abilities (HK-7)
that the other rules tests leave out or touch only in passing: every card type played by
its rule, rewards through the registered env, the phases of combat and the main phase
after it, components by control, life-saving after breath and after the strike, both
fighters dying at once, flying and swimming, answering one's own card, timing of
instants and enchantments, passive buildings, table items and adventurers' levels. Each
test names its rule (docs/rules/hkk.md)."""

from __future__ import annotations

import tomllib
from typing import Any

import numpy as np
import pytest
from hkk_positions import (
    HOLD,
    act,
    declare_state,
    names,
    on_table,
    stacked,
    step,
    texts,
)

from tabletop.envs import make
from tabletop.envs.hkk import figures
from tabletop.envs.hkk.cards import data_path, parse_pool
from tabletop.envs.hkk.combat import strike_damage
from tabletop.envs.hkk.encoders import ENCODERS
from tabletop.envs.hkk.engine import HkkGame, HkkState

RICH = {"vp": 10, "components": 5}
"""Enough to pay for any one starter card."""

# ----- HK-1.3: every card type, played by its rule --------------------------------------------

TYPE_PLAYS = {
    # kind: (the card in hand, the own reserve, the move, (its table area or, for a spell,
    # the zone it went to; active))
    "monster": ("Stray Wolf", [], "play h0 Stray Wolf", ("reserve", False)),
    "mutant": ("Twisted Hound", [], "play h0 Twisted Hound", ("reserve", False)),
    "galetki": ("Galetki Stalker", [], "play h0 Galetki Stalker", ("reserve", False)),
    "adventurer": ("Sellsword", [], "play h0 Sellsword", ("reserve", False)),
    "item": ("Longsword", ["Sellsword"], "play h0 Longsword on my #0 Sellsword",
             ("attached", True)),
    "table item": ("War Banner", [], "play h0 War Banner", ("beside", True)),
    "skill": ("Swordsmanship", [], "play h0 Swordsmanship", ("beside", True)),
    "level_up": ("Veteran", ["Sellsword"], "play h0 Veteran on my #0 Sellsword",
                 ("attached", True)),
    "body_part": ("Bone Spurs", ["Galetki Stalker"], "play h0 Bone Spurs on my #0 Galetki Stalker",
                  ("attached", True)),
    "enchantment": ("Dragon's Pact", [], "play h0 Dragon's Pact", ("beside", True)),
    "attached enchantment": ("Binding Chains", ["Sellsword"],
                             "play h0 Binding Chains on my #0 Sellsword", ("attached", True)),
    "sorcery": ("Old Lore", [], "play h0 Old Lore", ("discard", None)),
    "instant": ("Second Wind", [], "play h0 Second Wind", ("discard", None)),
}  # fmt: skip
"""The building, the twelfth type, is raised by creatures: ``test_hk_9_1_...``."""


@pytest.mark.parametrize("kind", sorted(TYPE_PLAYS))
def test_hk_1_3_each_card_type_goes_where_its_rule_puts_it(kind: str) -> None:
    card, reserve, move, (where, active) = TYPE_PLAYS[kind]
    own = {"hand": [card, *HOLD["hand"]], "reserve": reserve, "deck": ["Ash Roc"] * 2, **RICH}
    state = stacked([own, {}])
    act(state, move)
    if where == "discard":
        assert names(state, "discard", 0) == [card], "HK-8.2, HK-8.3: it happens once"
        return
    entry = on_table(state, 0, card)
    assert (entry.area, entry.active) == (where, active)
    if where == "attached":
        assert entry.host == state.tables[0][0].iid, "on the card it was played on"


def test_hk_1_3_a_mutant_is_sacrificed_for_components_as_a_monster() -> None:
    state = stacked([{}, {"reserve": ["Twisted Hound", "Sellsword"]}], phase="healing")
    assert step(state) == "sacrifice"
    assert texts(state) == ["pass", "sacrifice #0 Twisted Hound"], "HK-5.2: mutants included"
    act(state, "sacrifice #0 Twisted Hound")
    assert state.components == [0, 1]


# ----- HK-1.4, HK-2.4 ------------------------------------------------------------------------


def test_hk_1_4_a_guard_post_creature_never_becomes_passive() -> None:
    theirs = {"guard": ["Hill Giant"], "reserve": ["Stray Wolf"]}
    state = stacked([{"hand": ["Slumber", "Slumber", *HOLD["hand"]], "vp": 3}, theirs])
    act(state, "play h0 Slumber on their #0 Hill Giant")
    assert on_table(state, 1, "Hill Giant").active, "the effect does nothing to it"
    act(state, "play h0 Slumber on their #1 Stray Wolf")
    assert not on_table(state, 1, "Stray Wolf").active


@pytest.mark.parametrize(("own_life", "rewards"), [(20, (1.0, -1.0)), (-2, (0.0, 0.0))])
def test_hk_2_4_rewards_through_the_registered_env(own_life: int, rewards: tuple) -> None:
    """The last strike ends the turn; the check of HK-2.3 pays +1 and -1, or 0 on a draw."""
    state = declare_state(["Hill Giant"], [], life=3)
    state.life[0] = own_life
    state.hands[0].clear()  # nothing left to play: the turn runs to its end
    env = make("hkk")
    env.reset(options={"state": state})
    env.step(state.string_to_action("attack #0 Hill Giant at player"))
    assert env.unwrapped.game_state.is_terminal()
    assert (env.rewards["player_0"], env.rewards["player_1"]) == rewards
    assert all(env.terminations.values())


# ----- HK-3.5, HK-3.6: combat and the main phase after it -------------------------------------


def test_hk_3_5_only_guard_post_creatures_attack() -> None:
    state = stacked([{"guard": ["Stray Wolf"], "reserve": ["Hill Giant"], **HOLD}, {}],
                    phase="declare")  # fmt: skip
    attacks = [text for text in texts(state) if text.startswith("attack")]
    assert attacks == ["attack #0 Stray Wolf at player"]


def test_hk_3_6_the_main_phase_continues_after_combat_and_may_be_answered() -> None:
    theirs = {"hand": ["Fire Bolt"], "vp": 2}
    state = declare_state(["Stray Wolf"], [], **theirs)
    state.vp[0] = 4
    act(state, "attack #0 Stray Wolf at player")
    for window in ("after attacks", "saving after breath", "saving after strike"):
        assert (step(state), state.player) == (window, 1), "HK-6.3, HK-6.5, HK-6.7: windows"
        act(state, "pass")
    assert step(state) == "main again" and state.player == 0 and state.life[1] == 19
    act(state, "play h0 Stray Wolf")
    assert state.player == 1 and state.stack, "the opponent may answer the card played"
    assert "play h0 Fire Bolt on their #0 Stray Wolf" in texts(state)


# ----- HK-5.1, HK-5.3: components -------------------------------------------------------------


def test_hk_5_1_an_own_creature_destroyed_gives_the_other_player_its_components() -> None:
    state = stacked([{"hand": ["Fire Bolt", *HOLD["hand"]], "vp": 3, "reserve": ["Hill Giant"]},
                     {}])  # fmt: skip
    state.tables[0][0].damage = 3
    act(state, "play h0 Fire Bolt on my #0 Hill Giant")
    assert names(state, "discard", 0) == ["Fire Bolt", "Hill Giant"]
    assert state.components == [0, 2]


def test_hk_5_1_components_go_by_control_and_the_card_to_its_owner() -> None:
    own = {"hand": ["Soul Theft", "Fire Bolt", *HOLD["hand"]], "vp": 10}
    state = stacked([own, {"reserve": ["Ash Roc"]}])
    act(state, "play h0 Soul Theft on their #0 Ash Roc", "pass")
    act(state, "play h0 Fire Bolt on my #0 Ash Roc", "pass")
    assert not state.tables[0] and names(state, "discard", 1) == ["Ash Roc"]
    assert state.components == [0, 1], "player 0 controlled it: player 1 gains"


def test_hk_5_3_components_of_both_players_are_public() -> None:
    state = stacked([{"components": 4, **HOLD}, {"components": 2, "hand": ["Longsword"]}])
    seen = ENCODERS["flat"].encode(state, 1)
    assert np.allclose(seen[8:10], [0.2, 0.4]), "own 2, enemy 4, over 10"
    assert "components 4" in state.render(observer=1)


# ----- HK-6: life-saving after breath and after the strike; both fighters die ---------------


def breath_state(**theirs: Any) -> HkkState:
    """Player 0's Ember Drake may breathe 2 at player 1's Stray Wolf (2 life on defence)."""
    own = {"guard": ["Ember Drake"], "vp": 2, **{"hand": HOLD["hand"]}}
    return stacked([own, {"guard": ["Stray Wolf"], **theirs}], phase="after attacks")


def test_hk_6_5_a_creature_breathed_to_0_life_may_be_saved() -> None:
    state = breath_state(hand=["Wild Growth"], vp=2)
    act(state, "pass", "breathe #0 Ember Drake 2 at their #0 Stray Wolf")
    assert step(state) == "saving after breath" and state.player == 1 and state.saving
    act(state, "play h0 Wild Growth on my #0 Stray Wolf")
    assert on_table(state, 1, "Stray Wolf").damage == 0
    assert state.components == [0, 0]


def test_hk_6_5_a_creature_not_saved_dies_and_gives_its_components() -> None:
    state = breath_state()
    act(state, "breathe #0 Ember Drake 2 at their #0 Stray Wolf")
    assert names(state, "discard", 1) == ["Stray Wolf"] and state.components == [1, 0]


def test_hk_6_7_a_creature_struck_to_0_life_may_be_saved_by_an_instant() -> None:
    state = declare_state(["Ash Roc"], ["Stray Wolf"], hand=["Wild Growth"], vp=2)
    act(state, "attack #0 Ash Roc at their #0 Stray Wolf", "pass", "pass")
    assert step(state) == "saving after strike" and state.player == 1
    roc, wolf = on_table(state, 0, "Ash Roc"), on_table(state, 1, "Stray Wolf")
    assert figures.remaining(state, roc) <= 0 and figures.remaining(state, wolf) <= 0
    act(state, "play h0 Wild Growth on my #0 Stray Wolf")
    assert wolf.damage == 0, "3 damage, 3 regained"
    assert names(state, "discard", 0) == ["Ash Roc"], "not saved: it died as the window closed"
    assert state.components == [0, 1]


def test_hk_6_6_both_fighters_die_at_once_and_each_side_gains() -> None:
    state = declare_state(["Ash Roc"], ["Ash Roc"])
    act(state, "attack #0 Ash Roc at their #0 Ash Roc")
    assert names(state, "discard", 0) == ["Ash Roc"] and names(state, "discard", 1) == ["Ash Roc"]
    assert state.components == [1, 1], "3 on a 4/3 defender, 4 on a 3/2 attacker"


def test_hk_6_8_breath_and_strike_add_up_on_a_building() -> None:
    own = {"guard": ["Ember Drake"], "vp": 2, **{"hand": HOLD["hand"]}}
    state = stacked([own, {"beside": ["Eyrie"]}], phase="declare")
    act(state, "attack #0 Ember Drake at their #0 Eyrie")
    assert step(state) == "direct damage"
    act(state, "breathe #0 Ember Drake 2 at their #0 Eyrie")
    assert names(state, "discard", 1) == ["Eyrie"], "2 breathed and 3 struck on 5 structure"


# ----- HK-7.5, HK-7.6: flying and swimming ---------------------------------------------------


def test_hk_7_5_a_flyer_guards_in_the_turn_it_is_played_and_cards_refer_to_flyers() -> None:
    state = stacked([{"hand": ["Ash Roc", "Stray Wolf", "Old Lore"], "vp": 8,
                      "beside": ["Eyrie"]}, {}])  # fmt: skip
    act(state, "play h0 Ash Roc", "play h0 Stray Wolf", "pass")
    assert step(state) == "swap" and texts(state) == ["pass", "guard #1 Ash Roc"]
    roc, wolf = on_table(state, 0, "Ash Roc"), on_table(state, 0, "Stray Wolf")
    assert figures.life(state, roc) == 3 and figures.life(state, wolf) == 1, "the Eyrie: flyers"


def weak_against_swimming() -> HkkGame:
    data = tomllib.loads(data_path("pool.toml").read_text(encoding="utf-8"))
    weak = {"kind": "weak_against", "ability": "swimming", "amount": 1}
    crab = {"name": "Shore Crab", "type": "monster", "text": "1 less against swimmers.",
            "cost": 2, "damage": 3, "life": 2, "drawbacks": [weak]}  # fmt: skip
    return HkkGame(pool=parse_pool({**data, "card": [*data["card"], crab]}, "pool.toml"))


def test_hk_7_6_swimming_does_nothing_by_itself_but_cards_may_refer_to_it() -> None:
    game = weak_against_swimming()
    setups = [{"guard": ["Shore Crab", "Hill Giant"], **HOLD},
              {"guard": ["Marsh Adder", "Stray Wolf"]}]  # fmt: skip
    state = game.stacked_state(setups, phase="declare")
    crab, giant = on_table(state, 0, "Shore Crab"), on_table(state, 0, "Hill Giant")
    adder, wolf = on_table(state, 1, "Marsh Adder"), on_table(state, 1, "Stray Wolf")
    assert strike_damage(state, giant, adder) == strike_damage(state, giant, wolf) == 5
    assert strike_damage(state, crab, adder) == 2 and strike_damage(state, crab, wolf) == 3


# ----- HK-8: answering one's own card, timing -------------------------------------------------


def test_hk_8_4_a_player_answers_their_own_card_after_the_other_passes() -> None:
    own = {"hand": ["Fire Bolt", "Fire Bolt", *HOLD["hand"]], "vp": 4}
    state = stacked([own, {"hand": ["Shield Ward"], "vp": 1, "reserve": ["Hill Giant"]}])
    giant = on_table(state, 1, "Hill Giant")
    act(state, "play h0 Fire Bolt on their #0 Hill Giant")
    assert state.player == 1, "the other player has the first word"
    act(state, "pass")
    assert state.player == 0 and len(state.stack.items) == 1, (
        "then its controller, before it resolves"
    )
    act(state, "play h0 Fire Bolt on their #0 Hill Giant")
    assert len(state.stack.items) == 2 and state.player == 1
    act(state, "pass")
    assert giant.damage == 3 and len(state.stack.items) == 1, "the last one played resolved first"


def test_hk_8_3_no_instant_in_the_swap() -> None:
    own = {"reserve": ["Stray Wolf"], "hand": ["Fire Bolt", "Second Wind"], "vp": 5}
    state = stacked([own, {"hand": ["Fire Bolt"], "vp": 2, "reserve": ["Hill Giant"]}],
                    phase="swap")  # fmt: skip
    assert texts(state) == ["pass", "guard #0 Stray Wolf"]
    act(state, "guard #0 Stray Wolf")
    assert step(state) == "before attacks", "nobody was asked in the swap"


def test_hk_8_1_an_enchantment_only_in_your_own_main_phase() -> None:
    own = {"hand": ["Dragon's Pact", "Fire Bolt"], "vp": 5, "guard": ["Ash Roc"]}
    state = stacked([own, {"reserve": ["Stray Wolf"]}], phase="swap")
    act(state, "pass")
    assert step(state) == "before attacks"
    assert not [t for t in texts(state) if "Dragon's Pact" in t], "not in a combat window"
    main = stacked([own, {"reserve": ["Stray Wolf"]}])
    act(main, "play h0 Dragon's Pact", "pass")
    assert figures.damage(main, on_table(main, 0, "Ash Roc")) == 4, "it affects its group"


# ----- HK-9: passive buildings, table items; HK-4.4: an adventurer's levels --------------------


def test_hk_9_1_a_passive_building_cannot_be_attacked_but_spells_reach_it() -> None:
    passive = {"beside": [{"card": "Eyrie", "active": False}]}
    state = declare_state(["Hill Giant"], [], **passive)
    assert "attack #0 Hill Giant at their #0 Eyrie" not in texts(state)
    assert "attack #0 Hill Giant at player" in texts(state)
    spell = stacked([{"hand": ["Scorched Earth", *HOLD["hand"]], "vp": 4}, passive])
    act(spell, "play h0 Scorched Earth on their #0 Eyrie")
    assert names(spell, "discard", 1) == ["Eyrie"]


def test_hk_9_2_a_table_item_is_paid_in_components_and_works_like_an_enchantment() -> None:
    own = {"hand": ["War Banner", *HOLD["hand"]], "components": 3,
           "guard": ["Stray Wolf"], "reserve": ["Sellsword"]}  # fmt: skip
    state = stacked([own, {}])
    act(state, "play h0 War Banner")
    assert state.components[0] == 0 and on_table(state, 0, "War Banner").active
    assert figures.damage(state, on_table(state, 0, "Stray Wolf")) == 2, "its group: the guard"
    assert figures.damage(state, on_table(state, 0, "Sellsword")) == 2, "not the reserve"


def test_hk_4_4_an_adventurers_ability_from_its_level() -> None:
    state = declare_state(["Knight Errant"], ["Iron Golem"])
    knight, golem = on_table(state, 0, "Knight Errant"), on_table(state, 1, "Iron Golem")
    knight.levels = 1
    assert strike_damage(state, knight, golem) == 0, "HK-7.2: no magic attack at level 1"
    knight.levels = 2
    assert strike_damage(state, knight, golem) == 5, "magic attack from level 2, 3 + 2 levels"


# ----- HK-4.2, HK-7.9 --------------------------------------------------------------------------


def test_hk_4_2_removal_without_damage_opens_no_life_saving_window() -> None:
    theirs = {"hand": ["Wild Growth"], "vp": 2, "reserve": ["Hill Giant"]}
    state = stacked([{"hand": ["Banish", *HOLD["hand"]], "vp": 5}, theirs])
    act(state, "play h0 Banish on their #0 Hill Giant", "pass")
    assert names(state, "void", 1) == ["Hill Giant"] and not state.saving
    assert state.player == 0 and names(state, "hand", 1) == ["Wild Growth"]


def test_hk_7_9_regeneration_never_regains_more_than_was_lost() -> None:
    state = stacked([{"reserve": [{"card": "Mossback Troll", "damage": 1,
                                  "wounded": True}], "vp": 5, **{
        "hand": HOLD["hand"]}}, {}])  # fmt: skip
    act(state, "regenerate #0 Mossback Troll")
    assert state.tables[0][0].damage == 0 and state.vp[0] == 4
    assert "regenerate #0 Mossback Troll" not in texts(state)


# ----- the preparation phase: no components, no shields (HK-5.1, HK-9.4) ----------------------


def with_sling_tower() -> HkkGame:
    """The starter pool and a building whose ability deals 2 damage in the preparation
    phase (HK-8.3: its card allows it there)."""
    data = tomllib.loads(data_path("pool.toml").read_text(encoding="utf-8"))
    hit = {"do": "damage", "amount": 2, "to": "target_enemy_creature"}
    sling = {"passivate": True, "timing": "preparation", "effects": [hit]}
    tower = {"name": "Sling Tower", "type": "building", "text": "Preparation: 2 damage.",
             "builders": 1, "structure": 3, "activated": [sling]}  # fmt: skip
    return HkkGame(pool=parse_pool({**data, "card": [*data["card"], tower]}, "pool.toml"))


def preparation_state() -> HkkState:
    """Player 1's preparation, their Sling Tower ready; player 0 has a Stray Wolf (2/2 in
    player 1's turn) and a galetki carrying a body part."""
    galetki = {"card": "Galetki Stalker", "attached": ["Bone Spurs"]}
    own = {"reserve": ["Stray Wolf", galetki]}
    state = with_sling_tower().stacked_state(
        [own, {"beside": ["Sling Tower"], "hand": ["Stray Wolf"]}], phase="healing"
    )
    act(state, "pass")  # player 0's healing ends
    assert state.active == 1 and step(state) == "sacrifice"
    return state


def test_hk_5_1_a_creature_leaving_play_in_a_preparation_phase_gives_no_components() -> None:
    state = preparation_state()
    act(state, "use #0 Sling Tower 1 on their #0 Stray Wolf")
    assert names(state, "discard", 0) == ["Stray Wolf"] and state.components == [0, 0]


def test_hk_9_4_a_body_part_cannot_shield_in_a_preparation_phase() -> None:
    state = preparation_state()
    act(state, "use #0 Sling Tower 1 on their #1 Galetki Stalker")
    assert on_table(state, 0, "Galetki Stalker").damage == 2, "player 0 was not asked"
    assert on_table(state, 0, "Bone Spurs")


# ----- HK-2.1, HK-4.4, HK-8.4 ------------------------------------------------------------------


def test_hk_2_1_life_gained_above_20_is_lost() -> None:
    state = stacked([{"hand": ["Second Wind", *HOLD["hand"]], "vp": 2, "life": 19}, {}])
    act(state, "play h0 Second Wind")
    assert state.life[0] == 20


def test_hk_4_4_an_adventurer_leaving_play_loses_its_levels_and_level_ups() -> None:
    sellsword = {"card": "Sellsword", "levels": 1, "attached": ["Veteran"]}
    state = stacked([{"hand": ["Sudden Tide"], "vp": 5, "reserve": [sellsword]}, {}])
    act(state, "play h0 Sudden Tide on my #0 Sellsword")
    assert names(state, "discard", 0) == ["Veteran", "Sudden Tide"]
    assert names(state, "hand", 0) == ["Sellsword"] and not state.tables[0]
    act(state, "play h0 Sellsword")
    assert on_table(state, 0, "Sellsword").levels == 0, "back at level 0"


def test_hk_8_4_a_reaction_needs_something_not_yet_taken_effect() -> None:
    state = stacked([{"hand": ["Unweave", *HOLD["hand"]], "vp": 3}, {}])
    assert texts(state) == ["pass", "play h1 Stray Wolf"], "nothing on the chain to answer"
