"""HKK's structured picture (``State.view``): the shared format (``core.view``) at every
position of a few random games, HK-11.1 (a seat's view is the same whatever the cards it
cannot see are, and never names them), and the moves naming the cards they are about."""

from __future__ import annotations

import json
import random
from typing import Any

from hkk_positions import HOLD, act, declare_state, stacked

from tabletop.envs.core.view import check_view
from tabletop.envs.hkk.engine import HkkGame, HkkState

GAMES = (("skyfire", "venom", 3), ("stronghold", "devourers", 8), ("devourers", "skyfire", 5))
"""(first deck, second deck, seed) of the random games looked at."""
RESAMPLE_EVERY = 5
"""Decisions between two re-deals of the hidden cards (a re-deal costs more than a move)."""


def random_states(first: str, second: str, seed: int) -> list[HkkState]:
    """Every position of a random game, the last one over."""
    state = HkkGame(decks=(first, second)).new_state(seed)
    rng = random.Random(seed)
    states = [state.clone()]
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
        states.append(state.clone())
    return states


def shown(view: dict[str, Any]) -> str:
    return json.dumps(view, sort_keys=True)


def area_of(view: dict[str, Any], area_id: str) -> dict[str, Any]:
    return next(a for a in view["areas"] if a["id"] == area_id)


def pieces_of(view: dict[str, Any], text: str) -> list[str]:
    """The pieces of the move written ``text``."""
    return next(m["pieces"] for m in view["moves"] if m["text"] == text)


def test_views_of_random_games_keep_the_format_and_show_moves_to_the_mover() -> None:
    for first, second, seed in GAMES:
        for state in random_states(first, second, seed):
            for observer in (None, 0, 1):
                view = state.view(observer)
                check_view(view, f"{first}/{second} seed {seed} ply {state.plies}")
                check_moves(state, view, observer)
                if observer is not None:
                    check_other_hand(state, view, 1 - observer)


def check_moves(state: HkkState, view: dict[str, Any], observer: int | None) -> None:
    """Only the player to move (or everyone) sees the legal moves, in their notation."""
    mover = state.current_player
    if state.is_terminal() or observer not in (None, mover):
        assert view["moves"] == []
        return
    legal = state.legal_actions()
    assert [move["action"] for move in view["moves"]] == legal
    assert [move["text"] for move in view["moves"]] == [
        state.action_to_string(action, observer) for action in legal
    ]


def check_other_hand(state: HkkState, view: dict[str, Any], other: int) -> None:
    """The other player's hand: as many face-down cards as they hold, and nothing more."""
    hand = area_of(view, f"hand{other}")["pieces"]
    assert [card["id"] for card in hand] == [f"hand{other}/{i}" for i in range(len(hand))]
    assert len(hand) == len(state.hands[other]) == view["players"][other]["counters"]["hand"]
    assert all(card["face_down"] and card["label"] == "?" and not card["detail"] for card in hand)
    assert area_of(view, f"deck{other}")["pieces"] == []


def test_hk_11_1_a_seats_view_is_unchanged_when_what_it_cannot_see_is_redealt() -> None:
    redealt_differently = 0
    for first, second, seed in GAMES:
        for state in random_states(first, second, seed)[::RESAMPLE_EVERY]:
            for seat in (0, 1):
                seen, everything = shown(state.view(seat)), shown(state.view())
                for k in range(3):
                    other = state.resample_hidden(seat, random.Random(k))
                    assert shown(other.view(seat)) == seen, f"{first}/{second} ply {state.plies}"
                    redealt_differently += shown(other.view()) != everything
    assert redealt_differently > 100, "the re-deals changed what the seats could not see"


def test_hk_11_1_the_other_players_hand_cards_are_never_named() -> None:
    state = stacked([{"hand": ["Stray Wolf"], "vp": 1}, {"hand": ["Fire Bolt", "Banish"]}])
    hidden = [state.game.card_named(name) for name in ("Fire Bolt", "Banish")]
    for card in hidden:
        assert card.name not in shown(state.view(0)) and card.text not in shown(state.view(0))
        assert card.name in shown(state.view()) and card.name in shown(state.view(1))
        assert card.text in shown(state.view(1))
    assert [p["label"] for p in area_of(state.view(0), "hand0")["pieces"]] == ["Stray Wolf"]
    assert [p["label"] for p in area_of(state.view(1), "hand1")["pieces"]] == [
        "Fire Bolt", "Banish"]  # fmt: skip


def test_moves_are_listed_for_the_mover_only() -> None:
    state = stacked([{"hand": ["Stray Wolf"], "vp": 1}, {"hand": ["Fire Bolt"]}])
    assert state.current_player == 0
    assert state.view(1)["moves"] == []
    assert [m["text"] for m in state.view(0)["moves"]] == ["pass", "play h0 Stray Wolf"]
    assert [m["text"] for m in state.view(1)["moves"]] == []
    assert state.view(0)["status"] == "Turn 0, player 0's main: player 0 to move"


def test_a_card_played_names_its_hand_slot_and_its_target() -> None:
    state = stacked([{"hand": ["Fire Bolt", "Banish", "Stray Wolf"], "vp": 10},
                     {"reserve": ["Hill Giant", "Ash Roc"]}])  # fmt: skip
    view = state.view(0)
    assert pieces_of(view, "pass") == []
    assert pieces_of(view, "play h2 Stray Wolf") == ["hand0/2"]
    assert pieces_of(view, "play h0 Fire Bolt on their #1 Ash Roc") == ["hand0/0", "table1/1"]


def test_a_creature_card_in_the_discard_pile_is_named_by_its_place() -> None:
    state = stacked([{"hand": ["Raise the Fallen", *HOLD["hand"]], "vp": 5,
                      "discard": ["Fire Bolt", "Hill Giant"]}, {}])  # fmt: skip
    view = state.view(0)
    assert pieces_of(view, "play h0 Raise the Fallen on grave #0 Hill Giant") == [
        "hand0/0", "discard0/1"]  # fmt: skip
    assert [p["label"] for p in area_of(view, "discard0")["pieces"]] == ["Fire Bolt", "Hill Giant"]


def test_an_ability_names_its_card_and_its_target() -> None:
    own = {"beside": ["Herbalism"], "vp": 1, "hand": HOLD["hand"],
           "reserve": [{"card": "Hill Giant", "damage": 3, "poison": 2}]}  # fmt: skip
    view = stacked([own, {}]).view(0)
    assert pieces_of(view, "use #1 Herbalism 1 on my #0 Hill Giant") == ["table0/1", "table0/0"]
    giant, herbalism = area_of(view, "table0")["pieces"]
    assert giant["id"] == "table0/0" and {"reserve", "active"} <= set(giant["tags"])
    assert giant["marks"]["dmg"] == 3 and giant["marks"]["psn"] == 2
    assert herbalism["label"] == "Herbalism" and "beside" in herbalism["tags"]


def test_attacks_name_the_attacker_and_its_target() -> None:
    view = declare_state(["Ash Roc"], ["Stray Wolf"]).view(0)
    assert pieces_of(view, "attack #0 Ash Roc at their #0 Stray Wolf") == ["table0/0", "table1/0"]
    open_field = declare_state(["Ash Roc"], []).view(0)
    assert pieces_of(open_field, "attack #0 Ash Roc at player") == ["table0/0", "player1"]


def test_the_chain_shows_the_card_played_and_its_target() -> None:
    state = stacked([{"hand": ["Fire Bolt", "Stray Wolf"], "vp": 3},
                     {"hand": ["Unweave"], "vp": 3, "reserve": ["Hill Giant"]}])  # fmt: skip
    act(state, "play h0 Fire Bolt on their #0 Hill Giant")
    for observer in (None, 0, 1):
        chain = area_of(state.view(observer), "chain")["pieces"]
        assert [(p["id"], p["label"]) for p in chain] == [("chain/0", "Fire Bolt")]
        assert chain[0]["marks"] == {"player": 0, "on": "player 1's #0 Hill Giant"}
    assert pieces_of(state.view(1), "play h0 Unweave") == ["hand1/0"]
    assert "Unweave" not in shown(state.view(0))
