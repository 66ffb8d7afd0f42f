"""Kult's structured view (``KultState.view``): well formed at every state of random games
for 2, 3 and 4 players, blind to what a seat may not see (``resample_hidden`` leaves a
seat's view unchanged, the other hands' and Hub cards' names never appear in it), and each
listed move naming the pieces it is about."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from kult_positions import GAMES, stacked

from tabletop.envs.core.protocol import TERMINAL
from tabletop.envs.core.view import check_view
from tabletop.envs.kult.engine import KultState

PLAYERS = (2, 3, 4)


def random_states(players: int, seed: int, plies: int = 400) -> Iterator[KultState]:
    """Every state of a seeded random game (cut at ``plies``), the terminal one included."""
    state = GAMES[players].new_state(seed)
    rng = random.Random(seed)
    yield state
    for _ in range(plies):
        if state.is_terminal():
            return
        state.apply(rng.choice(state.legal_actions()))
        yield state


def dumped(view: dict[str, Any]) -> str:
    return json.dumps(view, sort_keys=True)


def pieces_by_id(view: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {p["id"]: p for shown in view["areas"] for p in shown["pieces"]}


def area_of(view: dict[str, Any], area_id: str) -> dict[str, Any]:
    return next(shown for shown in view["areas"] if shown["id"] == area_id)


def moves_of(view: dict[str, Any]) -> dict[str, list[str]]:
    """Move text -> the pieces it names."""
    return {move["text"]: move["pieces"] for move in view["moves"]}


@pytest.mark.parametrize(("players", "plies"), [(2, 400), (3, 150), (4, 100)])
def test_every_view_is_well_formed_and_lists_the_movers_moves(players: int, plies: int) -> None:
    for state in random_states(players, seed=players, plies=plies):
        mover = state.current_player
        for observer in (None, *range(players)):
            view = state.view(observer)
            check_view(view, f"ply {state.plies}, observer {observer}")
            assert view["to_move"] == (None if mover == TERMINAL else mover)
            if mover == TERMINAL or observer not in (None, mover):
                assert view["moves"] == []
                continue
            legal = state.legal_actions()
            assert [m["action"] for m in view["moves"]] == legal
            assert [m["text"] for m in view["moves"]] == [
                state.action_to_string(a, observer) for a in legal
            ]
            for move in view["moves"]:
                button = move["text"] in ("done", "pass")
                assert (move["pieces"] == []) == button, move


@pytest.mark.parametrize("players", PLAYERS)
def test_a_seats_view_is_unchanged_by_resampling_what_it_cannot_see(players: int) -> None:
    redealt = 0
    for state in random_states(players, seed=10 + players, plies=200):
        if state.plies % 4:
            continue
        everything = dumped(state.view(None))
        for seat in range(players):
            seen = dumped(state.view(seat))
            for k in range(3):
                other = state.resample_hidden(seat, random.Random(k))
                assert dumped(other.view(seat)) == seen, (state.plies, seat, k)
                redealt += dumped(other.view(None)) != everything
    assert redealt > 0  # the resamples did change what the seats could not see


def hidden_cards_position() -> KultState:
    """p1's hand, Hub card and deck hold cards nobody else in the game holds."""
    return stacked(
        {"hand": ["Raven", "Stray Cat"], "hub_card": "Pilgrim"},
        {"hand": ["Grave Hound", "Gutter King"], "hub_card": "Tin Soldier",
         "deck": ["Iron Warden"]},
    )  # fmt: skip


def test_a_seat_sees_its_own_hand_and_only_the_backs_of_the_others() -> None:
    state = hidden_cards_position()
    seat0, seat1, everything = state.view(0), state.view(1), state.view(None)
    for name in ("Grave Hound", "Gutter King", "Tin Soldier", "Pilgrim", "Iron Warden"):
        assert name not in dumped(seat0), name
    assert "Raven" in dumped(seat0) and "Grave Hound" in dumped(seat1)
    assert "Raven" not in dumped(seat1) and "Tin Soldier" not in dumped(seat1)
    for name in ("Grave Hound", "Gutter King", "Tin Soldier", "Pilgrim"):
        assert name in dumped(everything), name
    assert "Iron Warden" not in dumped(everything)  # a deck is never looked into
    backs = area_of(seat0, "hand1")["pieces"]
    assert [(p["id"], p["face_down"], p["label"]) for p in backs] == [
        ("hand1/0", True, "?"),
        ("hand1/1", True, "?"),
    ]
    assert seat0["players"][1]["counters"]["hand"] == 2
    for seat in (0, 1):  # nobody sees a Hub card, not even its owner
        hub_card = area_of(seat0, f"hubcard{seat}")
        assert (hub_card["layout"], hub_card["pieces"], hub_card["count"]) == ("pile", [], 1)
    assert [p["label"] for p in area_of(everything, "hubcard1")["pieces"]] == ["Tin Soldier"]
    assert area_of(everything, "deck1") == {
        "id": "deck1", "title": "p1 deck", "owner": 1, "layout": "pile", "pieces": [], "count": 1,
    }  # fmt: skip


def test_the_cross_shows_cards_tokens_combat_and_influences() -> None:
    state = stacked(
        {"cross": {1: {"card": "Old Cemetery", "tokens": 2},
                   5: {"card": "Stray Cat", "influences": ["Hex"]},
                   6: {"card": "Raven", "face_up": False}}},
        {},
    )  # fmt: skip
    shown = pieces_by_id(state.view(1))
    assert shown["cross0/Scene1"]["label"] == "Old Cemetery"
    assert shown["cross0/Scene1"]["marks"] == {"tokens": 2}
    assert shown["cross0/Scene1"]["cell"] == [0, 0]
    cat = shown["cross0/Cast5"]
    assert cat["cell"] == [1, 0] and cat["marks"]["influences"] == "Hex"
    assert cat["marks"]["combat"] == state.combat_value(0, 4)
    assert "turned" in shown["cross0/Cast6"]["tags"] and not shown["cross0/Cast6"]["face_down"]
    assert shown["cross0/Scene2"]["tags"] == ["empty"]
    assert shown["influences0/0"]["label"] == "Hex"
    assert shown["influences0/0"]["marks"] == {"on": "Cast5"}
    assert shown["pool"]["marks"] == {"tokens": state.pool_tokens}


def test_moves_name_the_hand_card_and_the_stations_they_are_about() -> None:
    state = stacked(
        {"hand": ["Hex", "Raven", "Stray Cat", "Changeling"], "temp_keys": ["crescent", "skull"],
         "hub": 2, "cross": {1: "Old Cemetery", 5: "Stray Cat"}},
        {"cross": {6: "Stray Cat"}},
        players=3,
    )  # fmt: skip
    moves = moves_of(state.view(0))
    assert moves["done"] == []
    assert moves["play Stray Cat>Cast6"] == ["hand0/2", "cross0/Cast6"]
    assert moves["play Changeling>Cast5@p2"] == ["hand0/3", "cross2/Cast5"]
    assert moves["attach Hex>Cast6@p1"] == ["hand0/0", "cross1/Cast6"]
    assert moves["push Hub>Scene1 Skull"] == ["hub0", "cross0/Scene1"]
    assert moves_of(state.view(None)) == moves
    assert state.view(1)["moves"] == [] and state.view(2)["moves"] == []


def test_an_attack_names_the_attacker_and_its_target() -> None:
    state = stacked({"cross": {5: "Stray Cat"}}, {"cross": {6: "Stray Cat"}}, phase="attack")
    assert moves_of(state.view(0)) == {
        "done": [],
        "attack Cast5>p1.Cast6": ["cross0/Cast5", "cross1/Cast6"],
    }
