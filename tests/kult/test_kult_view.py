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
from kult_positions import GAMES, act, stacked, texts

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
    assert shown["cross0/Scene1"]["cell"] == [0, 1]  # north of the Hub (KU-1.1)
    cat = shown["cross0/Cast5"]
    assert cat["cell"] == [0, 3] and cat["marks"]["influences"] == "Hex"
    assert cat["marks"]["combat"] == state.combat_value(0, 4)
    assert "turned" in shown["cross0/Cast6"]["tags"] and not shown["cross0/Cast6"]["face_down"]
    assert shown["cross0/Cast6"]["card"]["name"] == "Raven"  # a turned card stays known
    assert shown["cross0/Scene2"]["tags"] == ["empty"] and "card" not in shown["cross0/Scene2"]
    hex_card = shown["influences0/0"]
    assert hex_card["label"] == "Hex" and hex_card["on"] == "cross0/Cast5"
    assert hex_card["marks"] == {"on": "Cast5"}
    assert shown["pool"]["marks"] == {"tokens": state.pool_tokens}


def test_the_cross_is_drawn_as_a_cross_around_the_hub_with_the_cast_beside() -> None:
    """KU-1.1: Scene 1-4 north, east, south and west of the Hub, Cast 5-8 a column."""
    state = stacked({"cross": {1: "Old Cemetery"}}, {}, players=3)
    for seat in range(3):
        cross = area_of(state.view(seat), "cross1")
        assert (cross["layout"], cross["rows"], cross["cols"]) == ("grid", 4, 4)
        cells = {p["id"].split("/")[-1] if "/" in p["id"] else "Hub": tuple(p["cell"])
                 for p in cross["pieces"]}  # fmt: skip
        hub = cells.pop("Hub")
        assert hub == (1, 1)
        north, east, south, west = (cells[f"Scene{s}"] for s in range(1, 5))
        assert north == (0, 1) and south == (2, 1) and west == (1, 0) and east == (1, 2)
        assert [cells[f"Cast{s}"] for s in range(5, 9)] == [(row, 3) for row in range(4)]
    hub = pieces_by_id(state.view(0))["hub0"]
    assert hub["card"]["kind"] == "arcanum" and hub["marks"]["tokens"] == state.hub_tokens[0]
    assert hub["card"]["name"] == state.arcana[0].name


def test_moves_name_the_hand_card_and_the_stations_they_are_about() -> None:
    state = stacked(
        {"hand": ["Hex", "Raven", "Stray Cat", "Changeling"], "temp_keys": ["crescent", "skull"],
         "hub": 2, "cross": {1: "Old Cemetery", 5: "Stray Cat"}},
        {"cross": {6: "Stray Cat"}},
        players=3,
    )  # fmt: skip
    moves = moves_of(state.view(0))
    assert moves["done"] == []
    ends = {m["text"]: (m["source"], m["target"]) for m in state.view(0)["moves"]}
    assert ends["play Stray Cat>Cast6"] == ("hand0/2", "cross0/Cast6")
    assert ends["push Hub>Scene1 Skull"] == ("hub0", "cross0/Scene1")
    assert ends["done"] == (None, None)
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


# ----- card faces, moves' ends, last moves, phase and outcome -----------------------------------


def test_every_face_up_card_has_a_face_with_cost_or_stats_and_text() -> None:
    cards = 0
    for state in random_states(3, seed=21, plies=150):
        for observer in (None, 0, 1, 2):
            for shown in state.view(observer)["areas"]:
                for item in shown["pieces"]:
                    if "card" not in item:  # a back, an empty station, the Pool, a fight
                        assert (
                            item["face_down"]
                            or "empty" in item["tags"]
                            or item["id"] in ("pool", "fight", "last_fight")
                        ), item
                        continue
                    face = item["card"]
                    assert face["text"] and (face["cost"] or face["stats"]), item
                    cards += 1
    assert cards > 1000


def test_a_card_face_is_its_card_data() -> None:
    state = stacked({"hand": ["Raven", "Old Cemetery", "Hex"]}, {})
    for i, shown in enumerate(area_of(state.view(0), "hand0")["pieces"]):
        card = state.table.cards[state.hands[0][i]]
        face = shown["card"]
        assert face["name"] == card.name and face["kind"] == card.kind
        assert face["text"] == card.text
        assert face["stats"].get("stations") == (
            " ".join(str(s + 1) for s in sorted(card.stations)) or None
        )
        assert face["stats"].get("combat") == (card.combat if card.kind == "being" else None)
    cemetery = area_of(state.view(0), "hand0")["pieces"][1]["card"]
    assert cemetery == {
        "name": "Old Cemetery", "kind": "place", "cost": "free",
        "stats": {"gives": "Skull", "stations": "1 2 3 4"}, "keywords": [],
        "text": "Gives a Skull.",
    }  # fmt: skip


def test_every_moves_source_and_target_are_pieces_of_the_view() -> None:
    checked = 0
    for state in random_states(2, seed=31, plies=300):
        if state.is_terminal():
            continue
        view = state.view(state.player)
        ids = {p["id"] for shown in view["areas"] for p in shown["pieces"]}
        for move in view["moves"]:
            ends = [end for end in (move["source"], move["target"]) if end is not None]
            assert set(ends) <= ids and ends == move["pieces"], move
            checked += 1
    assert checked > 300


def test_each_seats_last_move_names_the_places_it_moved_from_and_to() -> None:
    state = stacked({"hub": 2, "cross": {1: "Old Cemetery"}, "hand": ["Stray Cat"]}, {})
    while "push Hub>Scene1 Skull" not in texts(state):
        act(state, "done")
    act(state, "push Hub>Scene1 Skull")
    (last,) = state.view(1)["last_moves"]
    assert last == {"seat": 0, "text": "push Hub>Scene1 Skull",
                    "pieces": ["hub0", "cross0/Scene1"]}  # fmt: skip
    act(state, "play Stray Cat>Cast5")
    (last,) = state.view(None)["last_moves"]
    assert last["text"] == "play Stray Cat>Cast5" and last["pieces"] == ["cross0/Cast5"]
    act(state, "done")  # a done leaves the last move as it was
    assert [m["text"] for m in state.view(1)["last_moves"]] == ["play Stray Cat>Cast5"]


def test_the_phase_is_in_words_and_the_outcome_names_the_winner_and_how() -> None:
    state = stacked(
        {"hub": 4, "cross": {1: {"card": "Old Cemetery", "tokens": 1}}}, {}, phase="attract"
    )
    assert state.view(1)["phase"] == "Attract: p0 moves tokens inward"
    assert state.view(1)["outcome"] is None
    state.apply(state.string_to_action("attract Scene1>Hub"))
    view = state.view(1)
    assert view["phase"] == "Game over"
    assert view["outcome"] == (
        f"p0 ({state.arcana[0].name}) wins: 5 Population tokens in its Hub (the target is 5)"
    )
