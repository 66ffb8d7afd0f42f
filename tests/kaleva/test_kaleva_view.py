"""Kaleva's structured view (``State.view``): well formed at every state, the information of
``render`` and nothing more (KV-7), and each legal move naming the pieces it is about."""

from __future__ import annotations

import json
import random
from typing import Any

from kaleva_positions import PLAIN, stacked

from tabletop.envs.core.view import check_view
from tabletop.envs.kaleva.board import BRONZE, SILVER, TUURI
from tabletop.envs.kaleva.engine import (
    MOVE,
    OVER,
    SETUP,
    SWAP,
    TUURI_CHOICE,
    KalevaGame,
    KalevaState,
)


def dumped(state: KalevaState, observer: int | None) -> str:
    return json.dumps(state.view(observer), sort_keys=True)


def play(state: KalevaState, *texts: str) -> None:
    for text in texts:
        state.apply(state.string_to_action(text))


def area_of(view: dict[str, Any], area_id: str) -> dict[str, Any]:
    (shown,) = [a for a in view["areas"] if a["id"] == area_id]
    return shown


def pieces_of(view: dict[str, Any], area_id: str) -> list[dict[str, Any]]:
    return area_of(view, area_id)["pieces"]


def by_id(view: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {p["id"]: p for a in view["areas"] for p in a["pieces"]}


def move_pieces(view: dict[str, Any]) -> dict[str, list[str]]:
    """Move text -> the ids it names."""
    return {move["text"]: move["pieces"] for move in view["moves"]}


def assert_moves_only_for_the_mover(state: KalevaState) -> None:
    """The player to move (and ``None``) get every legal action in their own notation."""
    for observer in (None, SILVER, BRONZE):
        moves = state.view(observer)["moves"]
        if state.is_terminal() or observer not in (None, state.current_player):
            assert moves == []
            continue
        assert [m["action"] for m in moves] == state.legal_actions()
        assert [m["text"] for m in moves] == [
            state.action_to_string(a, observer) for a in state.legal_actions()
        ]


def test_random_games_give_well_formed_views_unchanged_by_resampling_the_hidden() -> None:
    """KV-7: a seat's view depends only on what it may see, at every decision kind."""
    phases = set()
    for seed in range(3):
        state, rng = KalevaGame(turn_limit=60).new_state(seed=seed), random.Random(seed)
        while True:
            phases.add(state.phase)
            for observer in (None, SILVER, BRONZE):
                check_view(state.view(observer), f"seed {seed}, ply {state.plies}")
            assert_moves_only_for_the_mover(state)
            for seat in (SILVER, BRONZE):
                seen = dumped(state, seat)
                for k in range(2):
                    assert dumped(state.resample_hidden(seat, random.Random(k)), seat) == seen
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_actions()))
    assert phases == {SETUP, MOVE, TUURI_CHOICE, SWAP, OVER}


def test_the_board_is_drawn_as_render_draws_it_with_a_piece_on_every_square() -> None:
    view = stacked(["b1", "c4"], ["c2"]).view(SILVER)
    board = area_of(view, "board")
    assert (board["layout"], board["rows"], board["cols"], len(board["pieces"])) == (
        "grid", 5, 6, 30
    )  # fmt: skip
    squares = by_id(view)
    assert squares["board/b1"]["label"] == "S" and squares["board/b1"]["cell"] == [3, 1]
    assert squares["board/c2"]["label"] == "B" and "bronze" in squares["board/c2"]["tags"]
    assert squares["board/c4"]["cell"] == [0, 2]
    assert {"silver", "frozen", "bronze_shield"} <= set(squares["board/c4"]["tags"])
    assert squares["board/a0"]["label"] == "" and "empty" in squares["board/a0"]["tags"]
    lost = pieces_of(view, "lost0")
    assert [p["id"] for p in lost] == [f"lost0/{i}" for i in range(4)]
    assert view["players"][SILVER]["counters"]["lost discs"] == 4
    assert view["players"][SILVER]["counters"]["in enemy shield"] == 1


def test_the_opponents_face_down_cards_are_never_named_only_their_marks() -> None:
    """KV-7: Bronze's 8 Kokko and 9 Ukko stay hidden from Silver; its Terna, revealed by a
    Tuuri, is face up to both."""
    state = stacked(["b1"], ["c2"], bronze_cards=(8, 9, 8, 9, 8, 1), revealed=((), ("f",)))
    silver, everything = dumped(state, SILVER), dumped(state, None)
    assert "Kokko" not in silver and "Ukko" not in silver and "Terna" in silver
    assert "Kokko" in everything and "Ukko" in everything
    cards = pieces_of(state.view(SILVER), "cards1")
    assert [p["label"] for p in cards] == ["?o"] * 5 + ["1"]
    assert [p["face_down"] for p in cards] == [True] * 5 + [False]
    assert "face_up" in cards[5]["tags"]
    own = pieces_of(state.view(BRONZE), "cards1")
    assert [p["label"] for p in own] == ["8", "9", "8", "9", "8", "1"]
    deck = area_of(state.view(SILVER), "deck1")
    assert deck["layout"] == "pile" and deck["pieces"] == [] and deck["count"] == 21


def test_cards_to_arrange_are_face_down_to_the_opponent() -> None:
    state = KalevaGame().new_state(seed=5)
    state.apply(state.legal_actions()[0])
    hidden = pieces_of(state.view(BRONZE), "arrange0")
    assert [(p["id"], p["face_down"], p["label"]) for p in hidden] == [
        (f"arrange0/{i}", True, "?") for i in range(5)
    ]
    own = pieces_of(state.view(SILVER), "arrange0")
    assert [p["label"] for p in own] == [str(card) for card in sorted(state.unplaced[SILVER])]
    assert pieces_of(state.view(BRONZE), "cards0")[0]["label"] == "?o"


def test_a_setup_move_names_the_card_to_arrange_and_its_slot() -> None:
    state = KalevaGame().new_state(seed=5)
    lowest = min(state.unplaced[SILVER])
    moves = move_pieces(state.view(SILVER))
    assert moves[f"place {lowest} a"] == ["arrange0/0", "cards0/0"]
    assert state.view(BRONZE)["moves"] == []


def test_a_step_an_attack_and_a_return_name_their_squares_and_discs() -> None:
    state = stacked(["b1", "e0"], ["c2"])
    assert_moves_only_for_the_mover(state)
    moves = move_pieces(state.view(SILVER))
    assert moves["b1xc2"] == ["board/b1", "board/c2"]
    assert moves["b1-b2"] == ["board/b1", "board/b2"]
    assert moves["return a0"] == ["lost0/0", "board/a0"]
    assert move_pieces(state.view(None)) == moves


def test_kv_4_7_the_tuuri_decision_names_cards_and_its_pause_is_hidden_from_the_opponent() -> None:
    state = stacked(["b1", "e0"], ["f3"], silver_cards=(2, TUURI, 3, 4, 5, 6))
    before = dumped(state, BRONZE)
    play(state, "b1-b2")
    assert dumped(state, BRONZE) == before
    view = state.view(SILVER)
    assert view["status"].endswith("Tuuri decision (b1->b2)")
    assert move_pieces(view)["tuuri b reveal e"] == ["cards0/1", "cards1/4"]
    assert move_pieces(view)["keep tuuri"] == []
    squares = by_id(view)
    assert "moving_from" in squares["board/b1"]["tags"]
    assert "moving_to" in squares["board/b2"]["tags"]
    assert "Tuuri" in squares["cards0/1"]["detail"]


def test_a_lost_fight_is_shown_to_both_and_the_swap_names_two_own_cards() -> None:
    state = stacked(["b1", "e0"], ["c2"], bronze_cards=PLAIN)
    play(state, "b1xc2")  # Silver's 3 against Bronze's 4
    views = [state.view(seat) for seat in (SILVER, BRONZE)]
    fights = [area_of(view, "fight") for view in views]
    assert fights[0] == fights[1]
    assert fights[0]["title"] == "Last fight: b1xc2, Bronze wins"
    assert [(p["label"], p["tags"]) for p in fights[0]["pieces"]] == [
        ("3", ["silver", "lost"]),
        ("4", ["bronze", "won"]),
    ]
    assert [p["label"] for p in pieces_of(views[BRONZE], "discard0")] == ["3"]
    moves = move_pieces(views[SILVER])
    assert moves["swap a f"] == ["cards0/0", "cards0/5"] and moves["no swap"] == []
    assert views[BRONZE]["moves"] == []
