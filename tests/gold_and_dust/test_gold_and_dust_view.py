"""Gold & Dust's structured view (``State.view``): the format of ``core.view`` at every
position of random games, the same hidden information as ``render`` (GD-9.3: the opponent's
hand and both decks stay hidden, whatever ``resample_hidden`` re-deals), and each legal
move naming the pieces it is about."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from tabletop.envs.core.view import check_view
from tabletop.envs.gold_and_dust.engine import GoldDustGame, GoldDustState

GAME = GoldDustGame(("warrior", "mage"))
OBSERVERS = (None, 0, 1)


def stacked(p0: dict | None = None, p1: dict | None = None, **options: Any) -> GoldDustState:
    """Thief Heroes (whose passive acts on a first turn only) and decks of five Militia."""
    base = {"hero": "Thief", "deck": ["Militia"] * 5}
    return GAME.stacked_state([{**base, **(p0 or {})}, {**base, **(p1 or {})}], **options)


def act(state: GoldDustState, *notations: str) -> None:
    for notation in notations:
        state.apply(state.string_to_action(notation))


def positions(decks: tuple[str, str], seed: int) -> Iterator[GoldDustState]:
    """Every position of a random game, the last (terminal) one included."""
    state, rng = GoldDustGame(decks).new_state(seed=seed), random.Random(seed)
    yield state
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
        yield state


def pieces_of(view: dict[str, Any], area_id: str) -> list[dict[str, Any]]:
    (found,) = [shown for shown in view["areas"] if shown["id"] == area_id]
    return found["pieces"]


def moves_by_text(view: dict[str, Any]) -> dict[str, list[str]]:
    return {move["text"]: move["pieces"] for move in view["moves"]}


def piece_by_id(view: dict[str, Any], piece_id: str) -> dict[str, Any]:
    (found,) = [p for shown in view["areas"] for p in shown["pieces"] if p["id"] == piece_id]
    return found


# ----- the format, and the moves only for the player to move -------------------------------------


@pytest.mark.parametrize(
    ("decks", "seed"),
    [(("warrior", "mage"), 1), (("thief", "assassin"), 2), (("merchant",) * 2, 3)],
)
def test_every_view_of_a_random_game_has_the_format_and_moves_only_for_the_mover(
    decks: tuple[str, str], seed: int
) -> None:
    seen = 0
    for state in positions(decks, seed):
        mover = None if state.is_terminal() else state.current_player
        for observer in OBSERVERS:
            view = state.view(observer)
            check_view(view, f"seed {seed}, observer {observer}")
            if mover is not None and observer in (None, mover):
                assert [m["action"] for m in view["moves"]] == state.legal_actions()
                assert [m["text"] for m in view["moves"]] == [
                    state.action_to_string(a, observer) for a in state.legal_actions()
                ]
            else:
                assert view["moves"] == []
            assert view["to_move"] == mover and view["observer"] == observer
        seen += 1
    assert seen > 20


def test_the_view_shows_what_render_shows_of_both_sides() -> None:
    state = stacked(
        {"hero": "Mage", "hand": ["Firebolt", "Catapult"], "dust": 1, "gold": 3,
         "front": ["Pikeman"], "back": ["Archer"], "artifacts": ["War Banner"],
         "graveyard": ["Militia"]},
        {"hand": ["Wall"], "hp": 17},
    )  # fmt: skip
    view = state.view(0)
    assert [p["counters"] for p in view["players"]] == [
        {"HP": 30, "gold": 3, "dust": 1, "hand": 2, "deck": 5, "next fatigue": 1},
        {"HP": 17, "gold": state.gold[1], "dust": state.dust[1], "hand": 1, "deck": 5,
         "next fatigue": 1},
    ]  # fmt: skip
    assert view["players"][0]["name"] == "Mage"
    hero = piece_by_id(view, "hero0")
    assert hero["label"] == "Mage" and "spells cost 1 dust less" in hero["detail"]
    firebolt, catapult = pieces_of(view, "hand0")
    assert firebolt["card"]["cost"] == "2 dust"  # printed; GD-2.4: the Mage's discount
    assert firebolt["marks"] == {"costs now": "1 dust"}
    assert "unaffordable" not in firebolt["tags"] and "unaffordable" in catapult["tags"]
    assert catapult["card"]["stats"]["attack"] == "1+2k6" and catapult["card"]["kind"] == (
        "machine unit"
    )
    assert catapult["marks"] == {} and catapult["detail"].startswith("machine unit")
    assert [p["label"] for p in pieces_of(view, "front0")] == ["Pikeman"]
    assert [p["label"] for p in pieces_of(view, "back0")] == ["Archer"]
    assert "ranged" in piece_by_id(view, "board0/1")["tags"]
    assert [p["label"] for p in pieces_of(view, "artifacts0")] == ["War Banner"]
    assert [p["label"] for p in pieces_of(view, "graveyard0")] == ["Militia"]
    deck = next(shown for shown in view["areas"] if shown["id"] == "deck1")
    assert deck["layout"] == "pile" and deck["count"] == 5 and deck["pieces"] == []


def test_a_units_marks_are_its_figures_now_and_its_flags_tags() -> None:
    state = stacked({"hero": "Warrior", "front": ["Pikeman"], "back": ["Militia"]})
    pikeman = state.boards[0][0]
    pikeman.hp, pikeman.tapped = 2, True
    unit = piece_by_id(state.view(1), "board0/0")
    text = state.render(1)
    attack, armour = state.attack_of(0, pikeman), state.armour_of(0, pikeman)
    assert unit["marks"] == {"attack": f"{attack}+k3", "armour": armour, "HP": "2/5"}
    assert f"Pikeman {attack}+k3 arm {armour} HP 2/5 (tapped)" in text  # the same figures
    assert {"tapped", "damaged", "melee"} <= set(unit["tags"])


def test_the_last_move_and_its_dice_lie_on_the_table() -> None:
    state = stacked({"hand": ["Firebolt", "Militia"], "dust": 5, "gold": 5})
    act(state, "play Firebolt>Hero")
    (roll,) = [e.data for e in state.last_events(1) if e.kind == "dice_rolled"]
    view = state.view(1)
    (last,) = view["last_moves"]
    assert last["seat"] == 0 and last["text"].startswith("Player 0 plays Firebolt on player 1's")
    assert last["pieces"] == ["graveyard0/0", "hero1"]  # the spell is spent (GD-3.3)
    (die,) = pieces_of(view, "dice")
    assert die["label"] == f"k6 {roll['total']}" and die["marks"] == {"total": roll["total"]}
    act(state, "play Militia")
    assert pieces_of(state.view(1), "dice") == []
    (last,) = state.view(1)["last_moves"]
    assert last["pieces"] == ["board0/0"]  # the unit where it stands now
    act(state, "done")
    assert [m["text"] for m in state.view(0)["last_moves"]] == [last["text"]]  # done: no move


def test_each_seats_last_move_is_kept_and_follows_its_unit() -> None:
    state = stacked(
        {"front": ["Pikeman"], "back": ["Archer"]}, {"front": ["Militia"], "back": ["Seer"]}
    )
    act(state, "done", "shoot Archer>Seer", "attack Pikeman")
    assert state.current_player == 1
    act(state, "block Pikeman with Militia")
    shown = {last["seat"]: last for last in state.view(None)["last_moves"]}
    assert shown[1]["text"] == "Player 1 blocks Pikeman with Militia"
    assert all(piece.startswith(("board", "graveyard")) for piece in shown[1]["pieces"])
    assert shown[0]["text"] == "Player 0 attacks with Pikeman"


# ----- hidden information (GD-9.3) ---------------------------------------------------------------


def test_the_opponents_hand_is_face_down_and_named_nowhere() -> None:
    state = stacked({"hand": ["Firebolt", "Catapult"]}, {"hand": ["Ogre Brute", "Iron Helm"]})
    everything, mine = json.dumps(state.view(None)), json.dumps(state.view(0))
    for name in ("Ogre Brute", "Iron Helm"):
        assert name in everything and name not in mine
    assert "Firebolt" in mine and "Catapult" in mine
    hidden = pieces_of(state.view(0), "hand1")
    assert [(p["id"], p["face_down"], p["label"]) for p in hidden] == [
        ("hand1/0", True, "?"),
        ("hand1/1", True, "?"),
    ]
    assert all(p["detail"] == "" and not p["tags"] and not p["marks"] for p in hidden)
    assert "Militia" not in mine  # both decks are all Militia and are never shown


@pytest.mark.parametrize(("decks", "seed"), [(("thief", "mage"), 4), (("assassin", "merchant"), 5)])
def test_a_seats_view_is_unchanged_when_what_it_cannot_see_is_redealt(
    decks: tuple[str, str], seed: int
) -> None:
    rng = random.Random(seed)
    compared = 0
    for state in positions(decks, seed):
        if state.is_terminal() or rng.random() > 0.5:
            continue
        for seat in (0, 1):
            shown = json.dumps(state.view(seat), sort_keys=True)
            for k in range(2):
                twin = state.resample_hidden(seat, random.Random(k))
                assert json.dumps(twin.view(seat), sort_keys=True) == shown, state.render()
                compared += 1
    assert compared > 40


def test_a_redeal_does_change_what_the_seat_cannot_see() -> None:
    """The check above can fail: the omniscient view of a re-deal shows other hand cards."""
    state = GAME.new_state(seed=0)
    seat = state.current_player
    redeals = {
        json.dumps(state.resample_hidden(seat, random.Random(k)).view(None)) for k in range(5)
    }
    assert len(redeals) > 1


# ----- the pieces of each move -------------------------------------------------------------------


def test_each_move_names_the_card_the_unit_and_the_target_it_is_about() -> None:
    state = stacked(
        {"hand": ["Militia", "Firebolt", "Iron Helm"], "dust": 9, "gold": 9,
         "front": ["Pikeman", "Swordsman"], "back": ["Archer", "Militia"]},
        {"front": ["Wall"], "back": ["Seer"]},
    )  # fmt: skip
    moves = moves_by_text(state.view(0))
    assert moves["play Militia"] == ["hand0/0"]
    assert moves["play Firebolt>Hero"] == ["hand0/1", "hero1"]
    assert moves["play Firebolt>Seer"] == ["hand0/1", "board1/1"]
    assert moves["play Iron Helm>Pikeman"] == ["hand0/2", "board0/0"]  # an ally target
    assert moves["move Militia up"] == ["board0/3"]
    assert moves["done"] == []
    assert state.view(1)["moves"] == []
    act(state, "done")
    assert moves_by_text(state.view(None))["shoot Archer>Wall"] == ["board0/2", "board1/0"]
    act(state, "shoot Archer>Wall")
    assert moves_by_text(state.view(0))["attack Swordsman"] == ["board0/1"]
    act(state, "attack Pikeman", "attack Swordsman")
    assert state.current_player == 1 and state.view(0)["moves"] == []
    blocks = moves_by_text(state.view(1))
    assert blocks["block Pikeman with Wall"] == ["board1/0", "board0/0"]  # blocker first
    assert piece_by_id(state.view(1), "board0/1")["marks"]["attack order"] == 2
    act(state, "block Pikeman with Wall")
    view = state.view(0)
    assert moves_by_text(view)["strike Swordsman>Seer"] == ["board0/1", "board1/1"]
    assert moves_by_text(view)["strike Swordsman>Hero"] == ["board0/1", "hero1"]
    wall = piece_by_id(view, "board1/0")
    assert "blocking" in wall["tags"] and wall["marks"]["blocks"] == "Pikeman"


# ----- cards as cards, moves as source and target, phase and outcome ------------------------------


def face_up_pieces(view: dict[str, Any]) -> list[dict[str, Any]]:
    return [p for shown in view["areas"] for p in shown["pieces"] if not p["face_down"]]


def test_every_face_up_card_has_a_face_with_cost_and_text_and_no_back_has_one() -> None:
    cards = 0
    for state in positions(("thief", "assassin"), 6):
        for observer in OBSERVERS:
            for shown in state.view(observer)["areas"]:
                for item in shown["pieces"]:
                    if item["face_down"] or shown["id"] == "dice":
                        assert "card" not in item
                        continue
                    face = item["card"]
                    assert face["text"] and face["name"] and face["kind"], item
                    assert face["cost"] or face["stats"], item
                    cards += 1
    assert cards > 500


def test_a_card_face_is_its_card_data() -> None:
    state = stacked({"hand": ["Duelist", "Firebolt"], "back": ["Hawkeye"]})
    view = state.view(0)
    face = piece_by_id(view, "hand0/0")["card"]
    assert face == {
        "name": "Duelist", "kind": "melee unit", "cost": "4 gold 1 dust",
        "stats": {"attack": "2+k6", "armour": 1, "HP": 6}, "keywords": ["pierce 2"],
        "text": "Ignores 2 points of armour.",
    }  # fmt: skip
    assert piece_by_id(view, "hand0/1")["card"]["kind"] == "spell"
    hawkeye = piece_by_id(view, "board0/0")["card"]
    assert hawkeye["keywords"] == ["ranged", "sniper"] and hawkeye["cost"] == "4 gold 1 dust"
    hero = piece_by_id(view, "hero1")["card"]
    assert hero["kind"] == "hero" and hero["stats"] == {
        "HP": 30,
        "gold": "7 (+3)",
        "dust": "3 (+2)",
    }
    assert hero["text"].startswith("Passive: Draws 1 extra card on its first turn.")


def test_every_moves_source_and_target_are_pieces_of_the_view() -> None:
    checked = 0
    for state in positions(("warrior", "mage"), 8):
        if state.is_terminal():
            continue
        view = state.view(state.current_player)
        ids = {p["id"] for shown in view["areas"] for p in shown["pieces"]}
        for move in view["moves"]:
            ends = [end for end in (move["source"], move["target"]) if end is not None]
            assert set(ends) <= ids and ends == move["pieces"], move
            assert (move["source"] is None) == (move["text"] == "done"), move
            checked += 1
    assert checked > 100


def test_the_phase_names_the_step_and_the_outcome_says_how_it_ended() -> None:
    state = stacked({"front": ["Pikeman"], "hand": ["Militia"], "gold": 5}, {"hp": 1})
    assert state.view(1)["phase"] == "Deploy: player 0 (Thief) plays cards and moves units up"
    act(state, "done")
    assert state.view(1)["phase"].startswith("Attack: player 0 (Thief) declares attackers")
    act(state, "attack Pikeman")
    while not state.is_terminal():
        act(state, state.action_to_string(state.legal_actions()[-1]))
    view = state.view(1)
    assert view["phase"] == "Game over"
    assert view["outcome"] == "Player 0 (Thief) wins: player 1's Hero (Thief) has fallen"
