"""What Gold & Dust tells people: the other player's moves in words, the events of each
``apply`` per observer, the text picture of ``render`` and ``help_text``. Hidden
information (GD-9.3: the opponent's hand, both decks' order) must never show in any of them,
and every fact an event states must be visible in the observer's picture or encodings."""

from __future__ import annotations

import json
import random
import re
from collections import defaultdict
from typing import Any

import pytest

from tabletop.envs.gold_and_dust.actions import NO_TARGET, play_action
from tabletop.envs.gold_and_dust.encoders import ENCODERS
from tabletop.envs.gold_and_dust.engine import GoldDustGame, GoldDustState

GAME = GoldDustGame(("warrior", "mage"))


def stacked(p0: dict | None = None, p1: dict | None = None, **options: Any) -> GoldDustState:
    """Thief Heroes (whose passive acts on a first turn only) and decks of five Militia."""
    base = {"hero": "Thief", "deck": ["Militia"] * 5}
    return GAME.stacked_state([{**base, **(p0 or {})}, {**base, **(p1 or {})}], **options)


def texts(state: GoldDustState, notation: str) -> tuple[str, str, str]:
    """The move's text for a spectator (None), player 0 and player 1."""
    action = state.string_to_action(notation)
    return tuple(state.action_to_string(action, o) for o in (None, 0, 1))  # type: ignore[return-value]


def act(state: GoldDustState, *notations: str) -> None:
    for notation in notations:
        state.apply(state.string_to_action(notation))


def events(state: GoldDustState, observer: int | None, kind: str) -> list[dict[str, Any]]:
    return [e.data for e in state.last_events(observer) if e.kind == kind]


# ----- the other player's moves in words ------------------------------------------------------


def test_every_move_kind_reads_as_notation_to_its_mover_and_as_words_to_the_other() -> None:
    state = stacked(
        {"hand": ["Firebolt", "Iron Helm"], "dust": 9, "gold": 9,
         "front": ["Pikeman", "Swordsman"], "back": ["Archer", "Militia"]},
        {"front": ["Wall"], "back": ["Seer"]},
    )  # fmt: skip
    assert texts(state, "play Firebolt>Hero") == (
        "play Firebolt>Hero", "play Firebolt>Hero", "Player 0 plays Firebolt on player 1's Hero"
    )  # fmt: skip
    assert texts(state, "play Iron Helm>Pikeman")[2] == (
        "Player 0 plays Iron Helm on player 0's Pikeman"
    )
    assert texts(state, "move Militia up")[2] == "Player 0 moves Militia up to the first row"
    assert texts(state, "done")[2] == "Player 0 ends the main step"
    act(state, "done")
    assert texts(state, "shoot Archer>Wall") == (
        "shoot Archer>Wall", "shoot Archer>Wall", "Player 0's Archer shoots player 1's Wall"
    )  # fmt: skip
    act(state, "shoot Archer>Wall")
    assert texts(state, "attack Pikeman")[2] == "Player 0 attacks with Pikeman"
    act(state, "attack Pikeman", "attack Swordsman")
    assert state.current_player == 1  # the defender decides blocks (GD-7.1)
    assert texts(state, "block Pikeman with Wall") == (
        "block Pikeman with Wall", "Player 1 blocks player 0's Pikeman with Wall",
        "block Pikeman with Wall",
    )  # fmt: skip
    assert texts(state, "done")[0] == "done"
    act(state, "block Pikeman with Wall")
    assert (
        texts(state, "strike Swordsman>Seer")[2] == "Player 0's Swordsman strikes player 1's Seer"
    )


def test_gd_9_3_a_play_that_is_not_legal_names_no_card_to_the_other_player() -> None:
    """Its card stays in the hand, hidden: only a legal play shows its card to everyone."""
    state = stacked({"hand": ["Catapult", "Militia"], "gold": 1})
    catapult = play_action(0, NO_TARGET)
    assert catapult not in state.legal_actions()
    assert (
        state.action_to_string(catapult) == state.action_to_string(catapult, 0) == ("play Catapult")
    )
    assert state.action_to_string(catapult, 1) == "Player 0 plays a card from their hand"
    assert state.action_to_string(play_action(1, NO_TARGET), 1) == "Player 0 plays Militia"


# ----- events ---------------------------------------------------------------------------------


def test_no_events_before_the_first_apply_and_each_apply_has_its_own() -> None:
    state = GAME.new_state(seed=3)
    assert state.last_events() == [] and state.last_events(0) == []
    assert stacked(start_turn=True).last_events() == []
    state.apply(state.legal_actions()[-1])
    first = state.last_events()
    assert first
    twin = state.clone()
    twin.apply(twin.legal_actions()[0])
    assert state.last_events() == first  # a clone's records are its own
    state.apply(state.legal_actions()[0])
    assert state.last_events() != first


def test_every_event_is_one_line_of_text_and_json_safe_data() -> None:
    rng, kinds = random.Random(2), set()
    for seed, decks in enumerate([("warrior", "mage"), ("thief", "assassin"), ("merchant",) * 2]):
        state = GoldDustGame(decks).new_state(seed=seed)
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_actions()))
            for observer in (None, 0, 1):
                for event in state.last_events(observer):
                    assert json.loads(json.dumps(event.data)) == event.data
                    assert event.text and "\n" not in event.text and event.kind.islower()
                    kinds.add(event.kind)
    assert kinds >= {"card_played", "cards_drawn", "dice_rolled", "damage_dealt", "unit_died",
                     "turn_started", "resources_gained", "game_won"}  # fmt: skip


def test_gd_2_3_a_played_card_says_what_it_cost_and_gd_3_1_the_dice_their_faces() -> None:
    state = stacked({"hand": ["Firebolt"], "dust": 5, "back": ["Militia"]})
    act(state, "play Firebolt>Hero")
    kinds = [e.kind for e in state.last_events(1)]
    assert kinds == ["card_played", "dice_rolled", "damage_dealt"]
    (played,) = events(state, 1, "card_played")
    assert played == {"player": 0, "card": "Firebolt", "gold": 0, "dust": 2,
                      "target_player": 1, "target": "Hero"}  # fmt: skip
    (dice,) = events(state, 1, "dice_rolled")
    assert dice["dice"] == "k6" and dice["total"] == dice["faces"][0]
    (damage,) = events(state, 1, "damage_dealt")
    assert damage["taken"] == 1 + dice["total"] and damage["hp"] == state.hp[1]
    assert state.last_events(1)[0].text == (
        "Player 0 plays Firebolt on player 1's Hero, paying 2 dust"
    )


def test_gd_3_1_a_k3_shows_the_d6_face_it_halved_and_gd_3_2_armour_in_the_damage() -> None:
    state = stacked({"front": ["Pikeman"]}, {"back": ["Troll"]})
    act(state, "attack Pikeman")  # no blocker: the strike target is asked at once
    act(state, "strike Pikeman>Troll")
    (dice,) = events(state, 0, "dice_rolled")
    assert dice["dice"] == "k3" and dice["total"] == (dice["faces"][0] + 1) // 2
    assert f"(face {dice['faces'][0]})" in state.last_events(0)[1].text
    (damage,) = events(state, 0, "damage_dealt")
    assert damage["amount"] == 1 + dice["total"] and damage["armour"] == 1  # Troll's armour
    assert damage["taken"] == damage["amount"] - 1 and damage["target"] == "Troll"


def test_gd_9_3_drawn_cards_are_named_to_the_drawer_and_counted_for_the_other() -> None:
    state = stacked({"hand": ["Arcane Insight"], "dust": 5, "deck": ["Wall", "Seer", "Gale"]})
    act(state, "play Arcane Insight")
    (mine,) = events(state, 0, "cards_drawn")
    (theirs,) = events(state, 1, "cards_drawn")
    assert mine == {"player": 0, "count": 2, "cards": ["Wall", "Seer"]}
    assert theirs == {"player": 0, "count": 2}
    assert events(state, None, "cards_drawn") == [mine]
    texts_for_1 = " ".join(e.text for e in state.last_events(1))
    assert "Player 0 draws 2 cards" in texts_for_1 and "Wall" not in texts_for_1


def test_gd_9_3_a_redeal_does_not_know_the_cards_the_other_player_drew() -> None:
    """A determinization for player 1 re-deals player 0's hand: its records no longer name
    the cards player 0 drew, even to a spectator, and player 1 is told the same as before."""
    state = stacked({"hand": ["Arcane Insight"], "dust": 5, "deck": ["Wall", "Seer", "Gale"],
                     "back": ["Militia"]})  # fmt: skip
    act(state, "play Arcane Insight")
    twin = state.resample_hidden(1, random.Random(0))
    assert events(twin, None, "cards_drawn") == [{"player": 0, "count": 2}]
    assert twin.last_events(1) == state.last_events(1)
    assert state.resample_hidden(0, random.Random(0)).last_events(None) == state.last_events()


def test_gd_1_3_overflow_names_the_card_shuffled_back_to_its_owner_only() -> None:
    hand = ["Wall", "Seer", "Gale", "Pikeman", "Archer"]
    state = stacked({"back": ["Militia"]}, {"hand": hand})
    act(state, "done")  # player 1's turn starts with a full hand (GD-1.3)
    (owner,) = events(state, 1, "hand_overflow")
    (other,) = events(state, 0, "hand_overflow")
    assert owner["card"] in hand and other == {"player": 1}
    assert not any(name in e.text for e in state.last_events(0) for name in hand)


def test_turn_passes_with_regeneration_and_gd_9_1_fatigue() -> None:
    state = stacked({"back": ["Militia"]}, {"deck": [], "back": ["Militia"]})
    act(state, "done")
    kinds = [e.kind for e in state.last_events(0)]
    assert kinds == ["turn_started", "resources_gained", "fatigue", "damage_dealt"]
    assert events(state, 0, "turn_started") == [{"player": 1, "turn": 1}]
    assert events(state, 0, "resources_gained") == [
        {"player": 1, "gold": 3, "dust": 2, "source": "regeneration"}  # the Thief's (GD-2.2)
    ]
    assert events(state, 0, "fatigue") == [{"player": 1, "damage": 1}]
    assert state.last_events(0)[0].text == "Turn 1: player 1's turn"


def test_gd_3_3_a_destroyed_unit_dies_and_its_ability_heals() -> None:
    state = stacked({"hand": ["Unmaking"], "dust": 10, "back": ["Militia"]},
                    {"front": ["Martyr"], "hp": 20})  # fmt: skip
    act(state, "play Unmaking>Martyr")
    kinds = [e.kind for e in state.last_events(0)]
    assert kinds == ["card_played", "unit_destroyed", "unit_died", "healed"]
    assert events(state, 0, "unit_died") == [{"player": 1, "unit": "Martyr"}]
    assert events(state, 0, "healed") == [{"player": 1, "target": "Hero", "amount": 4, "hp": 24}]


def test_gd_9_2_the_game_is_won_or_drawn() -> None:
    state = stacked({"hand": ["Firebolt"], "dust": 2}, {"hp": 1})
    act(state, "play Firebolt>Hero")
    assert events(state, 1, "game_won") == [{"player": 0, "loser": 1}]
    assert state.last_events(1)[-1].text == "Player 0 wins: player 1's Hero has fallen"
    game = GoldDustGame(max_turns=1)
    state = game.new_state(seed=1)
    while not state.is_terminal():
        state.apply(0)
    assert events(state, 0, "game_drawn") == [{"turns": 1}]


# ----- the picture ------------------------------------------------------------------------------


def test_gd_2_3_the_hand_shows_cost_and_text_and_marks_what_cannot_be_paid() -> None:
    state = stacked({"hero": "Mage", "hand": ["Firebolt", "Catapult"], "dust": 1, "gold": 3})
    mine = state.render(0)
    assert "  hand (2 cards):" in mine
    assert (
        "    - Firebolt (1 dust, 1 off): spell. Deal 1 + k6 damage to an enemy unit or the "
        "enemy Hero." in mine
    )  # GD-2.4: the Mage's spells cost 1 dust less
    assert "    x Catapult (8 gold, cannot afford): machine unit 1+2k6 arm 1 HP 10" in mine
    theirs = state.render(1)
    assert "  hand: 2 cards" in theirs and "Catapult" not in theirs  # GD-9.3


def test_the_dice_of_the_last_move_lie_on_the_table() -> None:
    state = stacked({"hand": ["Firebolt", "Militia"], "dust": 5, "gold": 5})
    act(state, "play Firebolt>Hero")
    (dice,) = events(state, None, "dice_rolled")
    assert state.render(1).splitlines()[-1] == f"Dice: k6 {dice['total']}"
    act(state, "play Militia")
    assert "Dice:" not in state.render(1)


def test_the_last_move_is_on_the_table_even_when_it_changed_nothing_else() -> None:
    """A heal at full health: the picture still shows which target was chosen, as the
    event does (else the event would state a fact the observer cannot see)."""
    state = stacked({"hand": ["Healing Light"], "dust": 5, "back": ["Militia"]})
    before = state.render(1)
    act(state, "play Healing Light>Militia")
    assert state.render(1).splitlines()[-1] == (
        "Last move: Player 0 plays Healing Light on player 0's Militia, paying 2 dust"
    )
    assert events(state, 1, "healed") == [] and "Last move" not in before
    act(state, "done")
    assert "Last move" not in state.render(1)  # "done" chooses nothing to show


def test_help_text_explains_every_code_the_picture_prints() -> None:
    """Every line heading, unit flag and keyword of many pictures appears in the help."""
    help_text = GAME.help_text()
    seen: set[str] = set()
    rng = random.Random(0)
    for seed, decks in enumerate([("warrior", "mage"), ("thief", "assassin"), ("merchant",) * 2]):
        state = GoldDustGame(decks).new_state(seed=seed)
        while not state.is_terminal():
            for line in state.render(state.current_player).splitlines():
                seen.add(line.strip().split(":")[0].split(" (")[0].split(" ")[0])
                for flags in re.findall(r"HP \d+/\d+ \(([^)]*)\)", line):  # a unit's flags
                    seen.update(flag.split(" ")[0] for flag in flags.split(", "))
                for traits in re.findall(r"HP \d+((?:, [a-z_]+(?: \d+)?)+)\.", line):  # in hand
                    seen.update(trait.split(" ")[0] for trait in traits.split(", "))
                seen.update(re.findall(r"\b(?:arm|HP|deck|next fatigue|off|cannot afford)\b", line))
            state.apply(rng.choice(state.legal_actions()))
    missing = sorted(word for word in seen if word and word not in help_text)
    assert not missing
    assert {"tapped", "resting", "moved", "ranged", "Dice", "Attack", "x"} <= seen


# ----- hidden information: texts and events stay equal where the observer cannot tell ------------


def _view(state: GoldDustState, observer: int) -> tuple[Any, ...]:
    encodings = tuple(e.encode(state, observer).tobytes() for e in ENCODERS.values())
    return (state.render(observer), encodings)


def _told(state: GoldDustState, action: int, observer: int) -> tuple[Any, Any]:
    """(the observer's view after the move, what the observer is told of it)."""
    after = state.clone()
    text = after.action_to_string(action, observer)
    after.apply(action)
    return _view(after, observer), (text, repr(after.last_events(observer)))


def _told_by_view(state: GoldDustState, observer: int) -> dict[Any, set[Any]]:
    told = defaultdict(set)
    for action in state.legal_actions():
        view, said = _told(state, action, observer)
        told[view].add(said)
    return told


@pytest.mark.parametrize("decks", [("thief", "mage"), ("assassin", "merchant")])
def test_what_an_observer_is_told_depends_only_on_what_it_can_see(decks: tuple[str, str]) -> None:
    """GD-9.3 for narration: in a state and in re-deals of what the observer cannot see,
    any two moves that leave the observer's picture and encodings equal are told to it in
    equal words and events (so every fact an event states is in the picture or encodings:
    a heal at full health is seen on the "Last move" line, a die's face on "Dice")."""
    game, rng = GoldDustGame(decks), random.Random(5)
    compared = 0
    for seed in range(3):
        state = game.new_state(seed=seed)
        while not state.is_terminal():
            for observer in (0, 1):
                if rng.random() < 0.3:
                    compared += _compare_with_redeals(state, observer, rng)
            state.apply(rng.choice(state.legal_actions()))
    assert compared > 300


def _compare_with_redeals(state: GoldDustState, observer: int, rng: random.Random) -> int:
    told = _told_by_view(state, observer)
    assert all(len(said) == 1 for said in told.values()), state.render()
    compared = 0
    for _ in range(2):
        twin = state.resample_hidden(observer, rng)
        assert _view(twin, observer) == _view(state, observer)
        for view, said in _told_by_view(twin, observer).items():
            assert len(said) == 1, twin.render()
            if view in told:
                assert said == told[view], (state.render(), view[0])
                compared += 1
    return compared
