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


def slots_of(view: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    """``seat``'s six card slots of the board area, columns a-f in order."""
    return [by_id(view)[f"cards{seat}/{letter}"] for letter in "abcdef"]


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
    """KV-1.2, KV-1.4: five rows of squares between the two rows of card slots."""
    view = stacked(["b1", "c4"], ["c2"]).view(SILVER)
    board = area_of(view, "board")
    assert (board["layout"], board["rows"], board["cols"], len(board["pieces"])) == (
        "grid", 7, 6, 30 + 12
    )  # fmt: skip
    squares = by_id(view)
    assert squares["board/b1"]["label"] == "Silver b1" and squares["board/b1"]["cell"] == [4, 1]
    assert squares["board/c2"]["label"] == "Bronze c2" and "bronze" in squares["board/c2"]["tags"]
    assert squares["board/c4"]["cell"] == [1, 2]
    assert squares["cards0/a"]["cell"] == [6, 0] and squares["cards1/f"]["cell"] == [0, 5]
    assert {"silver", "frozen", "bronze_shield"} <= set(squares["board/c4"]["tags"])
    assert squares["board/a0"]["label"] == "a0" and "empty" in squares["board/a0"]["tags"]
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
    cards = slots_of(state.view(SILVER), BRONZE)
    assert [p["label"] for p in cards] == ["?o"] * 5 + ["1"]
    assert [p["face_down"] for p in cards] == [True] * 5 + [False]
    assert "face_up" in cards[5]["tags"]
    own = slots_of(state.view(BRONZE), BRONZE)
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
    assert slots_of(state.view(BRONZE), SILVER)[0]["label"] == "?o"


def test_a_setup_move_names_the_card_to_arrange_and_its_slot() -> None:
    state = KalevaGame().new_state(seed=5)
    lowest = min(state.unplaced[SILVER])
    moves = move_pieces(state.view(SILVER))
    assert moves[f"place {lowest} a"] == ["arrange0/0", "cards0/a"]
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
    assert move_pieces(view)["tuuri b reveal e"] == ["cards0/b", "cards1/e"]
    assert move_pieces(view)["keep tuuri"] == []
    squares = by_id(view)
    assert "moving_from" in squares["board/b1"]["tags"]
    assert "moving_to" in squares["board/b2"]["tags"]
    assert squares["cards0/b"]["card"]["name"] == "Tuuri"
    assert squares["cards0/b"]["card"]["keywords"] == ["recognition"]


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
    assert [p["card"]["name"] for p in fights[0]["pieces"]] == ["Aino", "Louhi"]
    assert [p["label"] for p in pieces_of(views[BRONZE], "discard0")] == ["3"]
    moves = move_pieces(views[SILVER])
    assert moves["swap a f"] == ["cards0/a", "cards0/f"] and moves["no swap"] == []
    assert views[BRONZE]["moves"] == []


# ----- the board turned for its player, labels, cards, last moves, outcome ---------------------


def grid_name(view: dict[str, Any], piece_id: str) -> str:
    """A board piece's name read off the grid's labels: a square's letter and digit, a card
    slot's letter (its row has no digit)."""
    board = area_of(view, "board")
    row, col = by_id(view)[piece_id]["cell"]
    return board["col_labels"][col] + board["row_labels"][row]


def test_kv_1_2_each_player_sees_their_own_shield_row_at_the_bottom_with_labels_turned() -> None:
    state = stacked(["b1"], ["c2"])
    for observer, ranks, files in (
        (SILVER, ["", "4", "3", "2", "1", "0", ""], list("abcdef")),
        (None, ["", "4", "3", "2", "1", "0", ""], list("abcdef")),
        (BRONZE, ["", "0", "1", "2", "3", "4", ""], list("fedcba")),
    ):
        view = state.view(observer)
        board = area_of(view, "board")
        assert (board["row_labels"], board["col_labels"]) == (ranks, files)
        for square in ("a0", "f0", "c2", "d4", "b1"):
            assert grid_name(view, f"board/{square}") == square
        bottom = SILVER if observer != BRONZE else BRONZE
        assert [by_id(view)[f"cards{bottom}/{c}"]["cell"][0] for c in "abcdef"] == [6] * 6
        assert all(grid_name(view, f"cards{seat}/{c}") == c for seat in (0, 1) for c in "abcdef")
    bronze = state.view(BRONZE)
    assert by_id(bronze)["board/a4"]["cell"] == [5, 5]  # Bronze's shield row, bottom right
    assert by_id(bronze)["board/f0"]["cell"] == [1, 0]


def test_every_legal_move_names_the_labels_of_its_source_and_target_squares() -> None:
    """The notation (KV-1.2: column letter, row digit) reads off the drawn board's edges, for
    the player of either colour, at every kind of decision."""
    kinds = set()
    for seed in range(4):
        state, rng = KalevaGame(turn_limit=80).new_state(seed=seed), random.Random(seed)
        while not state.is_terminal():
            view = state.view(state.current_player)
            for move in view["moves"]:
                ends = [end for end in (move["source"], move["target"]) if end]
                kinds.add(move["text"].split()[0] if " " in move["text"] else "step")
                for end in ends:
                    if end.startswith(("board/", "cards")):
                        assert grid_name(view, end) in move["text"].split(" ", 1)[-1], move
                assert move["pieces"][:2] == ends
            state.apply(rng.choice(state.legal_actions()))
    assert {"place", "step", "return", "tuuri", "keep", "swap", "no"} <= kinds


def test_every_face_up_card_has_a_face_with_its_value_and_rule_and_face_down_ones_none() -> None:
    """KV-1.3: a character's name and value; KV-4.6, KV-4.7: Terna's and Tuuri's rules."""
    state = stacked(["b1"], ["c2"], silver_cards=(0, 1, 2, 3, 4, 9), discards=((5, 6), ()))
    for observer in (None, SILVER, BRONZE):
        for item in by_id(state.view(observer)).values():
            if item["face_down"]:
                assert "card" not in item and item["label"] in ("?", "?o", "?d")
            elif "card" in item:
                face = item["card"]
                assert face["stats"] == {"value": int(item["label"])} and face["text"]
    own = by_id(state.view(SILVER))
    assert (
        own["cards0/a"]["card"]["name"] == "Tuuri" and "face up" in own["cards0/a"]["card"]["text"]
    )
    assert own["cards0/b"]["card"]["keywords"] == ["trickery"]
    assert own["cards0/f"]["card"]["name"] == "Ukko"
    assert [p["card"]["name"] for p in pieces_of(state.view(BRONZE), "discard0")] == [
        "Kauko",
        "Väinö",
    ]
    assert "card" not in by_id(state.view(BRONZE))["cards0/a"]


def test_last_moves_hide_a_card_laid_at_setup_and_show_a_move_once_it_is_complete() -> None:
    """KV-2.2: a card laid face down is its owner's; KV-4.7: the pause for a Tuuri decision
    is the mover's, so the move shows as the last move only once resolved."""
    state = KalevaGame().new_state(seed=5)
    lowest = min(state.unplaced[SILVER])
    play(state, f"place {lowest} a")
    assert state.view(SILVER)["last_moves"] == [
        {"seat": SILVER, "text": f"place {lowest} a", "pieces": ["cards0/a"]}
    ]
    assert state.view(BRONZE)["last_moves"] == [
        {"seat": SILVER, "text": "Silver places a card on a", "pieces": ["cards0/a"]}
    ]
    state = stacked(["b1", "e0"], ["f3"], silver_cards=(2, TUURI, 3, 4, 5, 6))
    play(state, "b1-b2")
    assert state.view(SILVER)["last_moves"] == state.view(BRONZE)["last_moves"] == []
    play(state, "keep tuuri")
    for observer in (SILVER, BRONZE):
        assert state.view(observer)["last_moves"] == [
            {"seat": SILVER, "text": "b1-b2", "pieces": ["board/b1", "board/b2"]}
        ]
    play(state, "f3-e2")
    assert state.view(SILVER)["last_moves"][1] == {
        "seat": BRONZE, "text": "f3-e2", "pieces": ["board/f3", "board/e2"],
    }  # fmt: skip


def test_the_phase_and_the_outcome_in_words() -> None:
    """KV-6.1: three discs in the enemy shield row win; KV-6.3: the turn limit draws."""
    state = KalevaGame().new_state(seed=5)
    assert state.view(SILVER)["phase"] == "arrangement"
    state = stacked(["a3", "b4", "c4"], ["f4"], bronze_cards=PLAIN)
    assert state.view(SILVER)["phase"] == "play" and state.view(SILVER)["outcome"] is None
    play(state, "a3-a4")
    assert state.view(BRONZE)["outcome"] == "Silver wins: three discs in Bronze's shield row"
    assert state.view(BRONZE)["phase"] == "game over"
    state = KalevaGame(turn_limit=1).stacked_state(
        silver=["b1"], bronze=["c3"], cards=(PLAIN, PLAIN)
    )
    play(state, "b1-b2")
    assert state.view(None)["outcome"] == "Draw: the turn limit of 1 plies was reached"
