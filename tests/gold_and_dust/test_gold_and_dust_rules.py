"""Rule tests for Gold & Dust; each names the rule id (docs/rules/gold_and_dust.md) it checks.
Ability primitives and keywords are tested through the starter pool's cards (GD-0: the card
wins over the rules). Dice are predicted by rolling a clone, whose generator is the same."""

from __future__ import annotations

from collections import Counter

import pytest

from tabletop.envs.core.protocol import TERMINAL, IllegalActionError
from tabletop.envs.gold_and_dust.actions import NUM_ACTIONS
from tabletop.envs.gold_and_dust.cards import load_pool
from tabletop.envs.gold_and_dust.effects import BACK, FRONT
from tabletop.envs.gold_and_dust.engine import (
    ATTACK,
    BLOCK,
    DRAW,
    MAIN,
    OVER,
    SHOOT,
    STRIKE,
    GoldDustGame,
    GoldDustState,
)

GAME = GoldDustGame(("warrior", "mage"))
POOL = load_pool()
K3, K6, TWO_K6 = (1, 3), (1, 6), (2, 6)


def stacked(p0: dict | None = None, p1: dict | None = None, **options) -> GoldDustState:
    """Thief Heroes (its passive only acts on a first turn) and decks of five Militia (no
    fatigue) unless given."""
    base = {"hero": "Thief", "deck": ["Militia"] * 5}
    setups = [{**base, **(p0 or {})}, {**base, **(p1 or {})}]
    return GAME.stacked_state(setups, **options)


def act(state: GoldDustState, *texts: str) -> None:
    for text in texts:
        state.apply(state.string_to_action(text))


def legal(state: GoldDustState) -> set[str]:
    return {state.action_to_string(a) for a in state.legal_actions()}


def next_rolls(state: GoldDustState, *dice: tuple[int, int]) -> list[int]:
    """The rolls the engine will make next, in order, read off a clone."""
    twin = state.clone()
    return [twin.roll(d) for d in dice]


def reach(state: GoldDustState, phase: int) -> None:
    """Say ``done`` until the current turn gets to ``phase``; steps where the player has no
    choice pass by themselves."""
    active = state.active
    while state.phase != phase:
        assert state.active == active and not state.is_terminal(), state.render()
        act(state, "done")


def unit(state: GoldDustState, side: int, name: str):
    (found,) = [u for u in state.boards[side] if u is not None and u.card.name == name]
    return found


def names(state: GoldDustState, zone: list[int]) -> list[str]:
    return [state.game.cards[i].name for i in zone]


# ----- GD-1 deck and hand -------------------------------------------------------------------------


def test_gd_1_1_and_gd_4_1_a_game_starts_with_41_cards_each_and_five_in_hand() -> None:
    state = GAME.new_state(seed=3)
    assert [state.cards_owned(p) for p in (0, 1)] == [41, 41]
    assert [len(h) for h in state.hands] == [5, 5]
    assert sorted(len(d) for d in state.decks) == [35, 35]


def test_gd_1_3_overflow_shuffles_a_random_hand_card_back_before_the_draw() -> None:
    hand = ["Pikeman", "Swordsman", "Axeman", "Archer", "Wall"]
    returned = set()
    for seed in range(12):
        state = stacked({"hand": hand, "deck": ["Militia"]}, seed=seed, start_turn=True)
        assert len(state.hands[0]) == 5 and len(state.decks[0]) == 1
        assert sorted(names(state, state.hands[0] + state.decks[0])) == sorted([*hand, "Militia"])
        returned.add(names(state, state.decks[0])[0])
    assert len(returned) >= 3  # the pick is random, and the drawn card is from the shuffle


def test_gd_1_3_a_full_hand_never_meets_an_empty_deck() -> None:
    """The overflow card goes back first, so the draw finds it: no fatigue (GD-9.1)."""
    hand = ["Pikeman", "Swordsman", "Axeman", "Archer", "Wall"]
    state = stacked({"hand": hand, "deck": []}, start_turn=True)
    assert state.hp[0] == 30 and state.fatigue[0] == 1
    assert sorted(names(state, state.hands[0])) == sorted(hand)


def test_gd_1_3_stacked_hands_above_five_are_refused() -> None:
    with pytest.raises(ValueError, match=r"GD-1\.3"):
        stacked({"hand": ["Militia"] * 6})


# ----- GD-2 heroes and resources ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hero", "gold", "dust"),
    [("warrior", 10, 2), ("mage", 2, 10), ("thief", 7, 3), ("merchant", 12, 1), ("assassin", 3, 7)],
)
def test_gd_2_1_starting_resources(hero: str, gold: int, dust: int) -> None:
    state = GoldDustGame((hero, hero)).new_state(seed=1)
    assert state.gold == [gold, gold] and state.dust == [dust, dust]
    assert state.hp == [30, 30]  # GD-2.4


def test_gd_2_2_regeneration_from_the_second_turn_on_and_no_cap() -> None:
    militia = {"hand": ["Militia"], "deck": ["Militia"] * 3}
    state = stacked({**militia, "gold": 500}, militia, first_turns=True, start_turn=True)
    assert (state.gold[0], state.dust[0]) == (500, 3)  # first turn: no regeneration
    act(state, "done")  # player 1's first turn: no regeneration either
    assert (state.active, state.gold[1], state.dust[1]) == (1, 7, 3)
    act(state, "done")
    assert (state.active, state.gold[0], state.dust[0]) == (0, 503, 5)  # Thief: +3 gold, +2 dust


def test_gd_2_3_cards_cost_what_they_say_and_unaffordable_ones_are_not_offered() -> None:
    state = stacked({"hand": ["Axeman", "Swordsman", "Firebolt"], "gold": 3, "dust": 0})
    assert legal(state) == {"done", "play Swordsman"}
    act(state, "play Swordsman")
    assert (state.gold[0], state.dust[0]) == (0, 0)
    assert unit(state, 0, "Swordsman").row == BACK  # GD-5.2


def test_gd_2_4_warrior_first_row_units_have_plus_one_attack() -> None:
    state = stacked({"hero": "Warrior", "front": ["Pikeman"], "back": ["Archer"]})
    assert state.attack_of(0, unit(state, 0, "Pikeman")) == 2
    assert state.attack_of(0, unit(state, 0, "Archer")) == 1


def test_gd_2_4_mage_spells_cost_one_dust_less() -> None:
    state = stacked({"hero": "Mage", "hand": ["Firebolt"], "dust": 1, "back": ["Militia"]})
    act(state, "play Firebolt>Hero")
    assert state.dust[0] == 0


def test_gd_2_4_thief_draws_one_extra_card_on_its_first_turn_only() -> None:
    deck = ["Militia", "Pikeman", "Wall", "Archer"]
    thief = stacked({"deck": deck}, first_turns=True, start_turn=True)
    warrior = stacked({"hero": "Warrior", "deck": deck}, first_turns=True, start_turn=True)
    assert (len(thief.hands[0]), len(warrior.hands[0])) == (2, 1)
    later = stacked({"deck": deck}, start_turn=True)
    assert len(later.hands[0]) == 1


def test_gd_2_4_merchant_artifacts_cost_one_gold_less() -> None:
    state = stacked({"hero": "Merchant", "hand": ["Iron Helm"], "front": ["Pikeman"], "gold": 1})
    act(state, "play Iron Helm>Pikeman")
    assert state.gold[0] == 0 and state.armour_of(0, unit(state, 0, "Pikeman")) == 3


def test_gd_2_4_assassin_units_deal_one_more_to_heroes() -> None:
    state = stacked({"hero": "Assassin", "front": ["Skirmisher"]}, {"front": ["Pikeman"]})
    (roll,) = next_rolls(state, K6)
    reach(state, SHOOT)
    attack = state.attack_of(0, unit(state, 0, "Skirmisher"))
    act(state, "shoot Skirmisher>Hero")
    assert state.hp[1] == 30 - (attack + roll + 1)


def test_gd_2_4_a_hero_at_zero_loses() -> None:
    state = stacked({"front": ["Longbowman"]}, {"hp": 3, "back": ["Militia"]})
    reach(state, SHOOT)
    act(state, "shoot Longbowman>Hero")  # 2 + k6 >= 3
    assert state.is_terminal() and state.winner == 0 and state.current_player == TERMINAL
    assert state.returns() == [1.0, -1.0]  # GD-9.2


# ----- GD-3 dice and damage -----------------------------------------------------------------------


def test_gd_3_1_dice_ranges() -> None:
    state = stacked()
    assert Counter(state.roll(K3) for _ in range(600)).keys() == {1, 2, 3}
    assert Counter(state.roll(K6) for _ in range(600)).keys() == set(range(1, 7))
    two = [state.roll(TWO_K6) for _ in range(2000)]
    assert min(two) == 2 and max(two) == 12 and 6.5 < sum(two) / len(two) < 7.5
    assert state.roll((0, 0)) == 0


def test_gd_3_1_damage_is_base_attack_plus_die() -> None:
    state = stacked({"front": ["Longbowman"]}, {"back": ["Militia"]})
    (roll,) = next_rolls(state, K6)
    reach(state, SHOOT)
    act(state, "shoot Longbowman>Hero")
    assert state.hp[1] == 30 - (2 + roll)


def test_gd_3_2_armour_absorbs_that_much_of_each_hit() -> None:
    state = stacked(p1={"front": ["Dust Golem"]})  # armour 3, 10 HP: the rules' example
    assert state.hit_unit(1, 0, 5) == 2 and unit(state, 1, "Dust Golem").hp == 8
    assert state.hit_unit(1, 0, 2) == 0 and unit(state, 1, "Dust Golem").hp == 8


def test_gd_3_3_dead_units_and_used_one_shot_cards_go_to_the_graveyard() -> None:
    state = stacked(
        {"hand": ["Frost Lance", "War Banner"], "dust": 3, "gold": 5}, {"front": ["Militia"]}
    )
    act(state, "play Frost Lance>Militia")  # 3 + k3 ignoring armour kills a 3 HP unit
    assert names(state, state.graveyards[1]) == ["Militia"] and state.boards[1][0] is None
    assert names(state, state.graveyards[0]) == ["Frost Lance"]
    act(state, "play War Banner")  # lasting artifacts stay on the table
    assert names(state, state.artifacts[0]) == ["War Banner"]
    assert [state.cards_owned(p) for p in (0, 1)] == [1 + 2 + 5, 1 + 1 + 5]


def test_gd_3_4_the_same_seed_gives_the_same_game() -> None:
    def play(seed: int) -> list[str]:
        state = GAME.new_state(seed=seed)
        pictures = []
        while not state.is_terminal() and len(pictures) < 150:
            state.apply(state.legal_actions()[len(pictures) % len(state.legal_actions())])
            pictures.append(state.render())
        return pictures

    assert play(11) == play(11)
    assert play(11) != play(12)


# ----- GD-4 turn structure ------------------------------------------------------------------------


def test_gd_4_1_one_card_drawn_each_turn() -> None:
    state = stacked({"hand": ["Militia"], "deck": ["Pikeman", "Wall"]}, start_turn=True)
    assert names(state, state.hands[0]) == ["Militia", "Pikeman"]


def test_gd_4_2_steps_come_in_order_and_the_defender_blocks_inside_the_turn() -> None:
    state = stacked(
        {"hand": ["Militia"], "front": ["Swordsman"], "back": ["Archer"]},
        {"front": ["Pikeman"], "deck": ["Militia"] * 3},
    )
    assert state.phase == MAIN and "play Militia" in legal(state)
    act(state, "done")
    assert state.phase == SHOOT and "shoot Archer>Pikeman" in legal(state)
    act(state, "done")
    assert state.phase == ATTACK and legal(state) == {"done", "attack Swordsman"}
    act(state, "attack Swordsman")  # no other attacker: declaring ends itself
    assert state.phase == BLOCK and state.current_player == 1 and state.active == 0
    assert legal(state) == {"done", "block Swordsman with Pikeman"}
    (roll,) = next_rolls(state, K6)
    act(state, "done")  # unblocked; the Hero is its only target (no second row), so it hits
    assert state.hp[1] == 30 - (2 + roll) and state.active == 1
    assert unit(state, 0, "Swordsman").tapped  # GD-4.2 (F)


def test_gd_4_2_cards_untap_at_the_start_of_their_owners_turn() -> None:
    state = stacked({"front": ["Swordsman"]}, {"back": ["Militia"]})
    reach(state, ATTACK)
    act(state, "attack Swordsman", "strike Swordsman>Hero")  # no first row: no blockers
    assert state.active == 1 and unit(state, 0, "Swordsman").tapped
    act(state, "done")
    assert state.active == 0 and not unit(state, 0, "Swordsman").tapped


# ----- GD-5 battle lines --------------------------------------------------------------------------


def test_gd_5_2_new_units_enter_the_second_row_and_moving_up_takes_the_turn() -> None:
    state = stacked({"hand": ["Swordsman"]}, {"hand": ["Pikeman"]})
    act(state, "play Swordsman")
    assert unit(state, 0, "Swordsman").row == BACK
    act(state, "move Swordsman up")  # moved: no attack this turn, so the turn ends
    assert unit(state, 0, "Swordsman").row == FRONT and state.active == 1
    act(state, "done")
    reach(state, ATTACK)
    assert state.active == 0 and "attack Swordsman" in legal(state)


def test_gd_5_2_vanguard_enters_the_first_row_and_charge_attacks_after_moving() -> None:
    state = stacked({"hand": ["Wall", "Outrider"], "gold": 7}, {"hand": ["Pikeman"]})
    act(state, "play Wall")
    assert unit(state, 0, "Wall").row == FRONT
    act(state, "play Outrider", "move Outrider up")  # nothing else to do: on to the attack
    assert state.phase == ATTACK and "attack Outrider" in legal(state)


def test_gd_5_2_immobile_machines_never_move_up() -> None:
    state = stacked({"back": ["Ballista", "Swordsman"]})
    assert "move Swordsman up" in legal(state) and "move Ballista up" not in legal(state)


# ----- GD-6 ranged attack -------------------------------------------------------------------------


def test_gd_6_1_archers_shoot_any_unit_in_either_row() -> None:
    state = stacked({"back": ["Archer"]}, {"front": ["Pikeman"], "back": ["Seer"]})
    act(state, "done")
    assert legal(state) == {"done", "shoot Archer>Pikeman", "shoot Archer>Seer"}


def test_gd_6_2_the_hero_only_from_the_first_row_past_an_empty_row_or_by_ability() -> None:
    both_rows = {"front": ["Pikeman"], "back": ["Seer"]}
    back = stacked({"back": ["Archer"]}, both_rows)
    reach(back, SHOOT)
    assert "shoot Archer>Hero" not in legal(back)
    front = stacked({"front": ["Archer"]}, both_rows)
    reach(front, SHOOT)
    assert "shoot Archer>Hero" in legal(front)
    sniper = stacked({"back": ["Hawkeye"]}, both_rows)
    reach(sniper, SHOOT)
    assert "shoot Hawkeye>Hero" in legal(sniper)
    empty_row = stacked({"back": ["Archer"]}, {"front": ["Pikeman"]})
    reach(empty_row, SHOOT)
    assert "shoot Archer>Hero" in legal(empty_row)


def test_gd_6_3_ranged_attackers_take_no_return_damage() -> None:
    state = stacked({"front": ["Archer"]}, {"front": ["Ogre Brute"], "back": ["Seer"]})
    reach(state, SHOOT)
    act(state, "shoot Archer>Ogre Brute")
    assert unit(state, 0, "Archer").hp == 4 and unit(state, 0, "Archer").tapped


# ----- GD-7 melee ---------------------------------------------------------------------------------


def test_gd_7_1_attackers_come_from_the_first_row_and_ranged_units_only_shoot() -> None:
    state = stacked({"front": ["Swordsman", "Crossbowman"], "back": ["Axeman"]})
    act(state, "done", "done")
    assert legal(state) == {"done", "attack Swordsman"}


def test_gd_7_1_each_blocker_blocks_one_attacker_and_each_attacker_one_blocker() -> None:
    state = stacked({"front": ["Swordsman", "Axeman"]}, {"front": ["Pikeman", "Wall"]})
    reach(state, ATTACK)
    act(state, "attack Swordsman", "attack Axeman")
    assert len(legal(state)) == 5
    act(state, "block Swordsman with Wall")
    assert legal(state) == {"done", "block Axeman with Pikeman"}


def test_gd_7_1_tapped_units_cannot_block() -> None:
    state = stacked({"front": ["Swordsman"]}, {"front": ["Pikeman"]})
    state.boards[1][0].tapped = True  # it attacked in its owner's last turn
    state.settle()
    reach(state, ATTACK)
    act(state, "attack Swordsman")  # nobody can block, the Hero is the only target
    assert state.active == 1 and state.hp[1] < 30


def blocked_fight(attacker: str, blocker: str, *, block_dice=K6) -> tuple[GoldDustState, int]:
    """``attacker`` (player 0) blocked by ``blocker`` (player 1); returns the state after the
    fight and the die the blocker would roll back."""
    state = stacked({"front": [attacker]}, {"front": [blocker]})
    reach(state, ATTACK)
    act(state, f"attack {attacker}")
    (roll,) = next_rolls(state, block_dice)
    act(state, f"block {attacker} with {blocker}")  # nothing else to decide: it resolves
    return state, roll


def test_gd_7_2_blocked_attacker_deals_base_only_and_blocker_returns_a_die_only() -> None:
    state, roll = blocked_fight("Swordsman", "Pikeman", block_dice=K3)
    assert unit(state, 1, "Pikeman").hp == 5 - (2 - 1)  # base 2 minus armour 1, no die
    assert unit(state, 0, "Swordsman").hp == 6 - max(0, roll - 1)  # the die minus armour 1


def test_gd_7_2_no_return_when_armour_absorbed_the_blow() -> None:
    state, _ = blocked_fight("Swordsman", "Wall", block_dice=K3)  # 2 against armour 3
    assert unit(state, 1, "Wall").hp == 8 and unit(state, 0, "Swordsman").hp == 6


def test_gd_7_2_a_dying_blocker_does_not_strike_back() -> None:
    state, _ = blocked_fight("Ogre Brute", "Militia")
    assert names(state, state.graveyards[1]) == ["Militia"]
    assert unit(state, 0, "Ogre Brute").hp == 14


def test_gd_7_2_death_strike_strikes_back_when_dying() -> None:
    state, roll = blocked_fight("Ogre Brute", "Wraith")  # 5 against 5 HP
    assert names(state, state.graveyards[1]) == ["Wraith"]
    assert unit(state, 0, "Ogre Brute").hp == 14 - max(0, roll - 1)
    assert state.hp[0] == 30 - 2  # and its on_death damage to the enemy Hero (GD-0)


def test_gd_7_3_blockers_rest_through_their_owners_next_turn_unless_tireless() -> None:
    state = stacked({"front": ["Swordsman", "Axeman"]}, {"front": ["Pikeman", "Sentinel"]})
    reach(state, ATTACK)
    act(state, "attack Swordsman", "attack Axeman")
    act(state, "block Swordsman with Pikeman", "block Axeman with Sentinel")
    assert state.active == 1 and unit(state, 1, "Pikeman").resting
    reach(state, ATTACK)
    assert legal(state) == {"done", "attack Sentinel"}
    act(state, "done")
    assert state.active == 0 and not unit(state, 1, "Pikeman").resting


def test_gd_7_4_unblocked_attackers_hit_the_hero_or_a_second_row_unit() -> None:
    state = stacked({"front": ["Axeman"]}, {"front": ["Wall"], "back": ["Dust Golem"]})
    reach(state, ATTACK)
    act(state, "attack Axeman", "done")  # the defender does not block
    assert legal(state) == {"strike Axeman>Hero", "strike Axeman>Dust Golem"}
    (roll,) = next_rolls(state, K6)
    act(state, "strike Axeman>Dust Golem")
    assert unit(state, 1, "Dust Golem").hp == 10 - max(0, 3 + roll - 3)


def test_gd_7_5_the_dead_leave_after_the_combat_step() -> None:
    state = stacked({"front": ["Ogre Brute", "Axeman"]}, {"front": ["Militia"], "back": ["Seer"]})
    reach(state, ATTACK)
    act(state, "attack Ogre Brute", "attack Axeman", "block Ogre Brute with Militia")
    assert state.phase == STRIKE and unit(state, 1, "Militia").dead  # still on the table
    assert "strike Axeman>Militia" not in legal(state)
    act(state, "strike Axeman>Hero")
    assert names(state, state.graveyards[1]) == ["Militia"]


# ----- GD-9 end -----------------------------------------------------------------------------------


def test_gd_9_1_fatigue_deals_one_then_two_then_three() -> None:
    state = stacked({"back": ["Militia"], "deck": []}, {"back": ["Militia"], "deck": []},
                    start_turn=True)  # fmt: skip
    assert state.hp[0] == 29
    act(state, "done")
    assert state.hp[1] == 29
    act(state, "done")
    assert state.hp[0] == 27
    act(state, "done")
    assert state.hp[1] == 27
    act(state, "done")
    assert state.hp[0] == 24 and state.stats()["fatigue_damage"] == 1 + 1 + 2 + 2 + 3


def test_gd_9_1_the_turn_limit_ends_the_game_as_a_draw() -> None:
    game = GoldDustGame(("warrior", "mage"), max_turns=3)
    state = game.stacked_state(
        (
            {"back": ["Pikeman"], "deck": ["Militia"] * 5},
            {"back": ["Pikeman"], "deck": ["Militia"] * 5},
        ),
        start_turn=True,
    )
    act(state, "done", "done")
    assert state.turn == 3 and not state.is_terminal()
    act(state, "done")
    assert state.phase == OVER and state.winner == DRAW
    assert state.returns() == [0.0, 0.0] and state.stats()["draw"] == 1.0  # GD-9.2


def test_gd_9_3_the_opponents_hand_is_hidden_and_deck_order_never_shown() -> None:
    state = stacked({"hand": ["Axeman"], "deck": ["Wall"]}, {"hand": ["Seer", "Gale"]})
    mine = state.render(0)
    assert "Axeman" in mine and "2 cards" in mine and "Seer" not in mine and "Wall" not in mine
    assert "Seer" in state.render() and "Axeman" in state.render(None)


# ----- ability primitives and keywords (GD-0: the card wins) --------------------------------------


def test_gd_0_damage_primitive_to_hero_unit_and_groups() -> None:
    state = stacked({"hand": ["Firebolt", "Chain Lightning", "Powder Keg"], "dust": 20, "gold": 9},
                    {"front": ["Wall", "Pikeman"], "back": ["Dust Golem"]})  # fmt: skip
    (roll,) = next_rolls(state, K6)
    act(state, "play Firebolt>Hero")
    assert state.hp[1] == 30 - (1 + roll)
    rolls = next_rolls(state, K6, K6, K6)
    act(state, "play Chain Lightning")
    for name, armour, hp, r in zip(("Wall", "Pikeman", "Dust Golem"), (3, 1, 3), (8, 5, 10), rolls,
                                   strict=True):  # fmt: skip
        assert (
            unit(state, 1, name).hp == max(0, hp - max(0, r - armour)) or unit(state, 1, name).dead
        )
    back_hp = unit(state, 1, "Dust Golem").hp
    act(state, "play Powder Keg")  # only the first row
    assert unit(state, 1, "Dust Golem").hp == back_hp


def test_gd_0_damage_primitive_pierce_ignores_armour() -> None:
    state = stacked({"hand": ["Frost Lance"], "dust": 3}, {"front": ["Iron Knight"]})
    (roll,) = next_rolls(state, K3)
    act(state, "play Frost Lance>Iron Knight")
    assert unit(state, 1, "Iron Knight").hp == 12 - (3 + roll)


def test_gd_0_pierce_keyword_reduces_armour_on_hits() -> None:
    state = stacked({"front": ["Crossbowman"]}, {"front": ["Wall"], "back": ["Seer"]})
    (roll,) = next_rolls(state, K3)
    reach(state, SHOOT)
    act(state, "shoot Crossbowman>Wall")
    assert unit(state, 1, "Wall").hp == 8 - max(0, 2 + roll - (3 - 2))


def test_gd_0_heal_primitive_never_above_maximum() -> None:
    state = stacked({"hand": ["Healing Light", "Healing Draught"], "hp": 27, "dust": 2, "gold": 2,
                     "front": ["Halberdier"]})  # fmt: skip
    act(state, "play Healing Light>Hero")
    assert state.hp[0] == 30
    state.boards[0][0].hp = 2
    act(state, "play Healing Draught>Halberdier")
    assert unit(state, 0, "Halberdier").hp == 7


def test_gd_0_turn_start_heals_of_units_and_artifacts() -> None:
    state = stacked({"back": ["Hedge Witch", "Troll"], "artifacts": ["Healing Spring"], "hp": 20,
                     "deck": ["Militia"]}, start_turn=True)  # fmt: skip
    assert state.hp[0] == 20 + 1 + 2
    troll = stacked({"back": ["Troll"], "deck": ["Militia"]})
    troll.boards[0][0].hp = 5
    troll.begin_turn(0)
    assert unit(troll, 0, "Troll").hp == 7  # to = "self"


def test_gd_0_buff_primitive_attack_armour_and_every_ally() -> None:
    state = stacked({"hand": ["Battle Cry", "Whetstone", "Veil of Dust"], "dust": 9, "gold": 1,
                     "front": ["Pikeman"], "back": ["Archer"]})  # fmt: skip
    act(state, "play Battle Cry>Pikeman", "play Whetstone>Archer", "play Veil of Dust")
    assert state.attack_of(0, unit(state, 0, "Pikeman")) == 1 + 2
    assert state.attack_of(0, unit(state, 0, "Archer")) == 1 + 1
    assert state.armour_of(0, unit(state, 0, "Pikeman")) == 2
    assert state.armour_of(0, unit(state, 0, "Archer")) == 1


def test_gd_0_draw_primitive_obeys_overflow() -> None:
    state = stacked({"hand": ["Arcane Insight", "Wall", "Wall", "Axeman", "Pikeman"], "dust": 3,
                     "deck": ["Militia", "Seer", "Archer"]})  # fmt: skip
    act(state, "play Arcane Insight")
    assert len(state.hands[0]) == 5 and state.cards_owned(0) == 1 + 8
    assert names(state, state.graveyards[0]) == ["Arcane Insight"]


def test_gd_0_gain_primitive_on_play_and_at_turn_start() -> None:
    state = stacked({"hand": ["Transmute", "Cutpurse"], "dust": 2, "gold": 3})
    act(state, "play Transmute")
    assert state.gold[0] == 6
    act(state, "play Cutpurse")
    assert state.gold[0] == 6 - 3 + 2
    house = stacked({"artifacts": ["Counting House"], "deck": ["Militia"]}, start_turn=True)
    assert house.gold[0] == 7 + 3 + 1


def test_gd_0_destroy_primitive() -> None:
    state = stacked({"hand": ["Unmaking"], "dust": 10}, {"front": ["Ogre Brute"]})
    act(state, "play Unmaking>Ogre Brute")
    assert names(state, state.graveyards[1]) == ["Ogre Brute"]


def test_gd_0_move_up_and_ready_primitives_let_a_unit_attack_at_once() -> None:
    state = stacked({"hand": ["Forced March"], "dust": 1, "back": ["Axeman", "Scorpion"]},
                    {"back": ["Seer"]})  # fmt: skip
    assert legal(state) >= {"play Forced March>Axeman", "play Forced March>Scorpion"}
    act(state, "play Forced March>Axeman")
    assert unit(state, 0, "Axeman").row == FRONT
    reach(state, ATTACK)
    assert "attack Axeman" in legal(state)
    frozen = stacked({"hand": ["Forced March"], "dust": 1, "back": ["Scorpion", "Axeman"]})
    act(frozen, "play Forced March>Scorpion")
    assert unit(frozen, 0, "Scorpion").row == BACK  # immobile stays


def test_gd_0_push_back_primitive_opens_the_hero_to_archers() -> None:
    state = stacked({"hand": ["Gale"], "dust": 2, "back": ["Archer"]},
                    {"front": ["Pikeman"], "back": ["Seer"]})  # fmt: skip
    act(state, "play Gale>Pikeman")
    assert unit(state, 1, "Pikeman").row == BACK
    act(state, "done")
    assert "shoot Archer>Hero" in legal(state)  # GD-6.2: the first row is empty now


def test_gd_0_special_wager_is_registered_code_with_both_outcomes() -> None:
    outcomes = set()
    for seed in range(12):
        state = stacked({"hand": ["Fortune's Die", "Militia"], "dust": 1, "deck": ["Wall"] * 4},
                        seed=seed)  # fmt: skip
        (roll,) = next_rolls(state, K6)
        act(state, "play Fortune's Die")
        won = roll >= 4
        assert len(state.hands[0]) == (3 if won else 1)
        assert state.hp[0] == (30 if won else 28)
        outcomes.add(won)
    assert outcomes == {True, False}


def test_gd_0_artifact_auras_strengthen_the_first_row() -> None:
    state = stacked({"hand": ["War Banner", "Bulwark Standard"], "gold": 9,
                     "front": ["Pikeman"], "back": ["Archer"]})  # fmt: skip
    act(state, "play War Banner", "play Bulwark Standard")
    pikeman, archer = unit(state, 0, "Pikeman"), unit(state, 0, "Archer")
    assert (state.attack_of(0, pikeman), state.armour_of(0, pikeman)) == (2, 2)
    assert (state.attack_of(0, archer), state.armour_of(0, archer)) == (1, 0)


def test_gd_0_on_death_heals_its_owner() -> None:
    state = stacked({"hand": ["Unmaking"], "dust": 10}, {"front": ["Martyr"], "hp": 20})
    act(state, "play Unmaking>Martyr")
    assert state.hp[1] == 24


def test_gd_0_on_play_with_a_target_on_a_unit_card() -> None:
    state = stacked({"hand": ["Battle Mage"], "dust": 5}, {"front": ["Militia"], "back": ["Seer"]})
    act(state, "play Battle Mage>Seer")
    assert unit(state, 1, "Seer").hp == 1 and unit(state, 0, "Battle Mage").row == BACK


# ----- notation and the action space --------------------------------------------------------------


def test_action_space_size_and_readable_notation_both_ways() -> None:
    assert GAME.num_actions == NUM_ACTIONS == 212
    state = stacked({"front": ["Pikeman", "Pikeman"], "hand": ["Wall", "Wall"], "gold": 9},
                    {"front": ["Wall"]})  # fmt: skip
    assert legal(state) == {"done", "play Wall"}  # the second copy would be the same play
    act(state, "PLAY   wall", "done")
    assert legal(state) == {"done", "attack Wall", "attack Pikeman#1", "attack Pikeman#2"}
    act(state, "attack Pikeman#2", "attack Pikeman#1", "done")
    assert "block Pikeman#1 with Wall" in legal(state)
    for action in range(NUM_ACTIONS):
        assert state.action_to_string(action)
    with pytest.raises(IllegalActionError, match="cannot read"):
        state.string_to_action("fly away")


def test_illegal_actions_are_rejected_without_change() -> None:
    state = stacked({"hand": ["Axeman", "Militia"], "gold": 1})
    before = state.render()
    with pytest.raises(IllegalActionError, match="illegal action"):
        act(state, "play Axeman")
    assert state.render() == before and state.phase == MAIN
