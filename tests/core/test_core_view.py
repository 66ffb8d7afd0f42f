"""``envs.core.view``: the format every game's ``State.view`` follows and the page relies
on: ``check_view`` names the first thing that breaks it, and ``make_view`` lists moves
for the player to move only."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from toy_game import ToyGame

from tabletop.envs.core.view import area, check_view, hidden_piece, make_view, piece, player


def sample_view() -> dict[str, Any]:
    state = ToyGame(num_players=2).new_state(seed=1)
    hand = [piece(f"hand/{i}", str(card)) for i, card in enumerate(state.hands[state.player])]
    return make_view(
        state,
        state.player,
        status="to move",
        players=[player(0, "North", {"cards": 3}), player(1, "South", {"cards": 3})],
        areas=[
            area("hand", "Your hand", hand, owner=state.player),
            area(
                "board",
                "Board",
                [piece("cell/0/1", "x", cell=(0, 1))],
                layout="grid",
                rows=2,
                cols=2,
            ),
            area("deck", "Deck", [], layout="pile", count=9),
            area("theirs", "Their hand", [hidden_piece("other/0")], owner=1 - state.player),
        ],
        move_pieces=lambda action: ["hand/0"] if action else [],
    )


def test_a_well_formed_view_passes_and_lists_the_movers_moves() -> None:
    view = sample_view()
    check_view(view)
    state = ToyGame(num_players=2).new_state(seed=1)
    assert [move["action"] for move in view["moves"]] == state.legal_actions()
    assert [move["text"] for move in view["moves"]] == [
        state.action_to_string(a, state.player) for a in state.legal_actions()
    ]
    assert view["areas"][2]["count"] == 9 and view["areas"][3]["pieces"][0]["face_down"]


def test_moves_are_listed_for_the_mover_and_a_spectator_only() -> None:
    state = ToyGame(num_players=3).new_state(seed=2)
    for observer in (None, 0, 1, 2):
        view = make_view(state, observer, status="", players=[], areas=[],
                         move_pieces=lambda action: [])  # fmt: skip
        assert bool(view["moves"]) == (observer in (None, state.player))


def _broken(edit: str) -> dict[str, Any]:
    view = copy.deepcopy(sample_view())
    if edit == "twice":
        view["areas"][0]["pieces"].append(view["areas"][0]["pieces"][0])
    elif edit == "unknown piece":
        view["moves"][-1]["pieces"] = ["nowhere"]
    elif edit == "off the grid":
        view["areas"][1]["pieces"][0]["cell"] = [2, 0]
    elif edit == "layout":
        view["areas"][0]["layout"] = "fan"
    elif edit == "not json":
        view["players"][0]["counters"]["cards"] = {1, 2}
    elif edit == "pile":
        view["areas"][2]["count"] = -1
    else:
        del view["status"]
    return view


@pytest.mark.parametrize(
    ("edit", "complaint"),
    [
        ("twice", "piece id 'hand/0' twice in the view"),
        ("unknown piece", "names pieces not in the view \\['nowhere'\\]"),
        ("off the grid", "piece 'cell/0/1' outside the grid 'board'"),
        ("layout", "area 'hand': bad layout"),
        ("not json", "is not JSON serializable"),
        ("pile", "pile 'deck' count"),
        ("no status", "view lacks 'status'"),
    ],
)
def test_check_view_names_what_breaks_the_format(edit: str, complaint: str) -> None:
    with pytest.raises((AssertionError, TypeError), match=complaint):
        check_view(_broken(edit), "here")
