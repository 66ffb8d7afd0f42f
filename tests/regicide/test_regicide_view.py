"""Regicide's structured view (``State.view``): the format in every position, no hidden card
in a seat's view, what each area shows, and the pieces each move names."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from tabletop.agents import RandomAgent
from tabletop.envs.core.view import check_view
from tabletop.envs.regicide.cards import card_name
from tabletop.envs.regicide.engine import RegicideGame, RegicideState
from tabletop.envs.regicide.heuristic import RegicideHeuristic

PLAYER_COUNTS = (1, 2, 4)


def stacked(num_players: int = 2, **setup) -> RegicideState:
    return RegicideGame(num_players=num_players).stacked_state(**setup)


def act(state: RegicideState, *texts: str) -> None:
    for text in texts:
        state.apply(state.string_to_action(text))


def every_state(players: int, games: int = 4) -> Iterator[RegicideState]:
    """Each position of seeded games, random and heuristic (the latter heal, kill exactly
    and win, so known tavern tops, heal batches and known hand cards show up)."""
    for seed in range(games):
        agent = RegicideHeuristic() if seed % 2 else RandomAgent(seed=seed)
        state = RegicideGame(players).new_state(seed=seed)
        yield state
        while not state.is_terminal():
            state.apply(agent.act(state, state.current_player))
            yield state


def dumped(view: dict[str, Any]) -> str:
    return json.dumps(view, sort_keys=True, ensure_ascii=False)


def area(view: dict[str, Any], area_id: str) -> dict[str, Any]:
    (found,) = [shown for shown in view["areas"] if shown["id"] == area_id]
    return found


def labels(view: dict[str, Any], area_id: str) -> list[str]:
    return [item["label"] for item in area(view, area_id)["pieces"]]


def move_pieces(view: dict[str, Any]) -> dict[str, list[str]]:
    return {move["text"]: move["pieces"] for move in view["moves"]}


def move_ends(view: dict[str, Any]) -> dict[str, tuple[str | None, str | None]]:
    return {move["text"]: (move["source"], move["target"]) for move in view["moves"]}


# ----- every position ------------------------------------------------------------------------


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_every_view_keeps_the_format_and_lists_moves_only_for_the_mover(players: int) -> None:
    for state in every_state(players):
        mover = None if state.is_terminal() else state.current_player
        for observer in (None, *range(players)):
            view = state.view(observer)
            check_view(view, f"{players} players, observer {observer}\n{state.render()}")
            assert view["to_move"] == mover
            if mover is None or observer not in (None, mover):
                assert view["moves"] == []
                continue
            assert [move["action"] for move in view["moves"]] == state.legal_actions()
            texts = [state.action_to_string(a, observer) for a in state.legal_actions()]
            assert [move["text"] for move in view["moves"]] == texts


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_a_seats_view_is_unchanged_when_what_it_cannot_see_is_redrawn(players: int) -> None:
    covered = {"heal batch": False, "known tavern top": False, "known card held": False}
    for index, state in enumerate(every_state(players, games=2)):
        covered["heal batch"] |= bool(state.heal_cards)
        covered["known tavern top"] |= bool(state.tavern_known_top)
        covered["known card held"] |= any(state.known_held)
        if state.is_terminal() or index % 3:
            continue
        for seat in range(players):
            seen = dumped(state.view(seat))
            for k in range(2):
                other = state.resample_hidden(seat, random.Random(k))
                assert dumped(other.view(seat)) == seen, state.render()
    if players > 1:  # solo games hold no other hand, so they need no known card held
        assert all(covered.values()), covered
    else:
        assert covered["heal batch"] and covered["known tavern top"], covered


# ----- hidden cards --------------------------------------------------------------------------


def test_another_players_hand_cards_are_face_down_and_named_nowhere() -> None:
    state = stacked(hands=[["5H", "AC", "9S"], ["7D", "8C", "6S"]], castle=["KS"])
    seat0, everything = dumped(state.view(0)), dumped(state.view())
    for name in ("7D", "8C", "6S"):
        assert name not in seat0 and name in everything
    hand1 = area(state.view(0), "hand1")
    assert [(p["id"], p["label"], p["face_down"]) for p in hand1["pieces"]] == [
        ("hand1/0", "?", True), ("hand1/1", "?", True), ("hand1/2", "?", True),
    ]  # fmt: skip
    assert labels(state.view(1), "hand1") == ["6S", "7D", "8C"]  # own hand, sorted, face up
    assert labels(state.view(), "hand0") == ["9S", "5H", "AC"]


def test_a_card_everyone_saw_drawn_stays_face_up_in_the_other_players_view() -> None:
    state = stacked(hands=[["10C", "3D", "10S", "9S"], ["2S", "4C"]], castle=["JH", "JC"])
    act(state, "play 10C")  # an exact kill: the JH goes face down on top of the tavern
    tavern = area(state.view(1), "tavern")
    assert tavern["count"] == len(state.tavern)
    assert [(p["id"], p["label"], p["tags"]) for p in tavern["pieces"]] == [
        ("tavern/0", "JH", ["hearts", "known"])
    ]
    act(state, "play 3D")  # player 0 draws the JH and an unseen card
    view = state.view(1)
    assert labels(view, "hand0") == ["JH", "?", "?", "?"]
    unseen = [card_name(c) for c in state.hands[0] if c not in state.known_held[0]]
    assert len(unseen) == 3
    assert not any(name in dumped(view) for name in unseen)
    assert area(view, "tavern")["pieces"] == []


# ----- what the areas show -------------------------------------------------------------------


def test_the_enemy_castle_in_play_discard_and_counters() -> None:
    state = stacked(hands=[["2H", "7S", "5D", "4C"], ["3C"]], castle=["JC"])
    act(state, "play 2H")  # the JC attacks player 0 for 10
    act(state, "discard 7S")
    view = state.view(1)
    (enemy,) = area(view, "enemy")["pieces"]
    assert enemy["label"] == "JC" and "damaged" in enemy["tags"]
    assert enemy["marks"] == {"damage": "2/20", "attack": 10, "shields": 0, "immune": "♣"}
    assert area(view, "castle") == {
        "id": "castle", "title": "Castle", "owner": None, "layout": "pile", "pieces": [],
        "count": 11,
    }  # fmt: skip
    assert labels(view, "in_play") == ["2H"]
    assert labels(view, "discard") == ["7S"] and area(view, "discard")["count"] == 1
    assert view["players"][0]["counters"] == {
        "cards": 2, "yielded": "no", "moves": "play 2H, discard 7S",
    }  # fmt: skip
    assert view["status"] == "Player 0 must discard 3 more"


def test_a_heal_batch_shows_how_many_cards_are_left_and_which_they_may_be() -> None:
    state = stacked(hands=[["10H", "9S", "9D", "9C"], ["2C"]], castle=["KS"])
    moved = state.tavern[:7]
    state.discard.extend(moved)
    del state.tavern[:7]
    act(state, "play 10H")
    (batch,) = area(state.view(1), "healed")["pieces"]
    assert batch["label"] == "7 left" and batch["marks"] == {"left": 7}
    assert batch["detail"] == "among " + " ".join(card_name(c) for c in sorted(moved))


def test_solo_shows_the_jester_powers_and_a_won_game_no_enemy() -> None:
    state = stacked(1, hands=[["10C", "AC"]], castle=["KH"])
    assert state.view(0)["players"][0]["counters"]["jester powers"] == 2
    state.castle.clear()
    state.enemy_damage = 30
    act(state, "play 10C")
    view = state.view(0)
    assert area(view, "enemy")["pieces"] == []
    assert view["to_move"] is None and view["moves"] == []
    assert view["status"] == "Game over: won, enemies defeated 1"


def test_an_observer_outside_the_table_is_an_error() -> None:
    with pytest.raises(ValueError, match="observer must be None or a seat 0-1"):
        stacked().view(2)


# ----- moves and their pieces ----------------------------------------------------------------


def test_a_play_names_the_hand_cards_it_plays_and_yield_names_none() -> None:
    state = stacked(hands=[["5H", "AC", "9S"], ["2C"]], castle=["KS"])  # sorted: 9S 5H AC
    pieces = move_pieces(state.view(0))
    assert pieces["play 9S"] == ["hand0/0", "enemy/0"]
    assert pieces["play AC"] == ["hand0/2", "enemy/0"]
    assert pieces["play 5H+AC"] == ["hand0/1", "hand0/2", "enemy/0"]
    assert pieces["yield"] == []
    assert move_pieces(state.view()) == pieces
    assert state.view(1)["moves"] == []
    ends = move_ends(state.view(0))
    assert ends["play 9S"] == ("hand0/0", "enemy/0")
    assert ends["play 5H+AC"] == ("hand0/2", "hand0/1")  # RG-3.1: the companion, then its pair
    assert ends["yield"] == (None, None)


def test_a_discard_names_its_card_and_done_names_none() -> None:
    state = stacked(hands=[["5H", "AC", "9S", "10D"], ["2C"]], castle=["JC"])
    act(state, "play 5H")  # the JC attacks for 10; the hand is 9S AC 10D
    assert move_pieces(state.view(0)) == {
        "discard 9S": ["hand0/0"], "discard AC": ["hand0/2"], "discard 10D": ["hand0/1"],
    }  # fmt: skip
    act(state, "discard 10D")
    assert move_pieces(state.view(0)) == {
        "discard 9S": ["hand0/0"], "discard AC": ["hand0/1"], "done": [],
    }  # fmt: skip


def test_play_jester_names_the_first_of_two_jesters_and_next_names_none() -> None:
    hands = [["5C", "jester", "jester"], ["2C"], ["3C"], ["4C"]]
    state = stacked(4, hands=hands, castle=["KS"])  # sorted: 5C jester jester
    assert move_pieces(state.view(0))["play jester"] == ["hand0/1", "enemy/0"]
    act(state, "play jester")
    assert move_pieces(state.view(0)) == {f"next {p}": [] for p in range(4)}


def test_a_discard_is_its_card_alone_and_sets_of_three_go_to_the_enemy() -> None:
    """RG-2.4: a discard is one click on the card; RG-3.2: a set of three is its first card
    then the enemy, beside the single card (the page lists both as choices)."""
    state = stacked(hands=[["2S", "2H", "2D", "9C", "10D"], ["3C"]], castle=["JC"])
    ends = move_ends(state.view(0))
    assert ends["play 2S"] == ends["play 2S+2H+2D"] == ("hand0/0", "enemy/0")
    assert ends["play 2S+2H"] == ("hand0/0", "hand0/1")
    act(state, "play 9C")  # the JC is immune to clubs: 9 damage, it attacks for 10
    assert move_ends(state.view(0))["discard 2S"] == ("hand0/0", None)


def test_solo_jester_powers_are_face_up_cards_a_flip_clicks() -> None:
    """RG-7.1, RG-7.2: the two jesters set aside face up; a flip uses one."""
    state = stacked(1, hands=[["10C", "AC"]], castle=["KH"])
    powers = area(state.view(0), "powers")
    assert [p["id"] for p in powers["pieces"]] == ["power/0", "power/1"]
    assert powers["pieces"][0]["card"]["kind"] == "jester power"
    assert move_ends(state.view(0))["flip jester"] == ("power/0", None)


# ----- cards as cards, piles, last moves and the outcome ----------------------------------------


def test_the_enemy_is_a_card_with_health_left_attack_after_shields_and_its_immunity() -> None:
    """RG-1.6, RG-4.4, RG-5.1: a Jack of clubs with 20 health and attack 10, immune to clubs."""
    state = stacked(hands=[["4S", "8D", "9H"], ["3C"]], castle=["JC"])
    act(state, "play 4S")
    (enemy,) = area(state.view(1), "enemy")["pieces"]
    face = enemy["card"]
    assert (face["name"], face["kind"]) == ("Jack ♣", "enemy")
    assert face["stats"] == {"health": 16, "attack": 6, "shield": 4}
    assert face["keywords"] == ["immune to ♣"] and "jester" in face["text"]


def test_every_face_up_card_has_its_value_suit_power_and_rule_text() -> None:
    """RG-1.5, RG-4: each card the page shows face up says what it is worth and does."""
    for state in every_state(2, games=2):
        for observer in (None, 0, 1):
            for shown in state.view(observer)["areas"]:
                for item in shown["pieces"]:
                    assert ("card" in item) == (
                        item["id"].split("/")[0] not in ("healed",) and not item["face_down"]
                    ), item
                    if "card" in item:
                        assert item["card"]["stats"] and item["card"]["text"], item
    state = stacked(hands=[["AC", "5H", "jester"], ["3C"]], castle=["KS"])
    faces = {p["label"]: p["card"] for p in area(state.view(0), "hand0")["pieces"]}
    assert faces["AC"]["kind"] == "animal companion" and faces["AC"]["keywords"] == ["♣ double"]
    assert faces["5H"]["stats"] == {"value": 5} and "discard pile" in faces["5H"]["text"]
    assert (
        faces["jester"]["kind"] == "jester" and "chooses who goes next" in faces["jester"]["text"]
    )


def test_last_moves_are_each_players_turn_with_the_cards_still_face_up() -> None:
    state = stacked(hands=[["2H", "7S", "5D", "4C"], ["3C"]], castle=["JC"])
    act(state, "play 2H", "discard 7S")
    assert state.view(1)["last_moves"] == [
        {"seat": 0, "text": "play 2H, discard 7S", "pieces": ["in_play/0", "discard/0"]}
    ]
    assert state.view(1)["phase"] == "suffer damage: discard cards worth 3 more"


def test_the_outcome_in_words() -> None:
    """RG-8.1: all win or all lose; RG-2.4: a hand that cannot pay loses; RG-7.3: grade."""
    state = stacked(1, hands=[["10C", "AC"]], castle=["KH"])
    state.castle.clear()
    state.enemy_damage = 30
    act(state, "play 10C")
    assert state.view(0)["outcome"] == "The player wins: all twelve royals defeated (gold victory)"
    state = stacked(hands=[["2H", "3S"], ["3C"]], castle=["KC"])
    act(state, "play 2H")  # the King attacks for 20; the hand holds 3
    view = state.view(1)
    assert (
        view["outcome"]
        == "The players lose: Player 0 cannot pay the 20 damage left (0 of 12 royals defeated)"
    )
    assert view["phase"] == "game over"
