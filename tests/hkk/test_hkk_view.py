"""HKK's structured picture (``State.view``): the shared format (``core.view``) at every
position of a few random games, HK-11.1 (a seat's view is the same whatever the cards it
cannot see are, and never names them), and the moves naming the cards they are about."""

from __future__ import annotations

import json
import random
from typing import Any

from hkk_positions import HOLD, act, declare_state, stacked

from tabletop.envs.core.view import card_face, check_view
from tabletop.envs.hkk.engine import HkkGame, HkkState
from tabletop.envs.hkk.view import face

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


def move_of(view: dict[str, Any], text: str) -> tuple[str, str | None, str | None]:
    """The move written ``text``: its text, source and target."""
    return next((m["text"], m["source"], m["target"]) for m in view["moves"] if m["text"] == text)


def all_pieces(view: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {p["id"]: p for shown in view["areas"] for p in shown["pieces"]}


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
    [giant] = area_of(view, "reserve0")["pieces"]
    [herbalism] = area_of(view, "beside0")["pieces"]
    assert giant["id"] == "table0/0" and {"reserve", "active", "damaged"} <= set(giant["tags"])
    assert giant["marks"]["damage taken"] == 3 and giant["marks"]["poison"] == 2
    assert giant["marks"]["damage/life"] == "5/5"  # printed: no bonus on its own turn
    assert herbalism["label"] == "Herbalism" and "beside" in herbalism["tags"]
    assert move_of(view, "use #1 Herbalism 1 on my #0 Hill Giant")[1:] == ("table0/1", "table0/0")


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
        assert chain[0]["marks"] == {"player": 0, "target": "player 1's #0 Hill Giant"}
    assert pieces_of(state.view(1), "play h0 Unweave") == ["hand1/0"]
    assert "Unweave" not in shown(state.view(0))


# ----- the table as a page draws it (issue 34) ----------------------------------------------


def test_every_face_up_card_shows_its_face_and_hidden_cards_show_none() -> None:
    for first, second, seed in GAMES:
        for state in random_states(first, second, seed)[::3]:
            for observer in (None, 0, 1):
                for item in all_pieces(state.view(observer)).values():
                    if item["id"].startswith("player"):
                        continue
                    if item["face_down"]:
                        assert "card" not in item and item["label"] == "?"
                        continue
                    card = item["card"]
                    assert card == face(state.game.card_named(card["name"])), item["id"]
                    assert card["text"] and (card["cost"] is not None or card["stats"])


def test_a_face_is_its_card_data() -> None:
    card = HkkGame().card_named
    assert face(card("Ember Drake")) == card_face(
        "Ember Drake", "monster — dragon", cost=5,
        stats={"damage": 3, "life": 3, "components": 2},
        keywords=["immune to fire", "flying", "breath 3 (fire)"],
        text="Flying. Immune to fire. Breath of fire 3.",
    )  # fmt: skip
    assert face(card("Forge")) == card_face(
        "Forge", "building", cost="2 builders", stats={"structure": 5},
        text="Make it passive: gain a monster component.",
    )  # fmt: skip
    assert face(card("Serpent Fang")) == card_face(
        "Serpent Fang", "item — weapon", cost="2 components", stats={"bonus": "+1/+0"},
        keywords=["grants poison 1"], text="Creature item, weapon: +1 damage and poison 1.",
    )  # fmt: skip
    assert face(card("Healing Draught"))["cost"] == "1 component"
    assert face(card("Galetki Shaper"))["keywords"] == ["regeneration 1", "at most 1 body part"]
    assert face(card("Unweave"))["keywords"] == ["reaction"]
    assert face(card("Fire Bolt")) == card_face(
        "Fire Bolt", "instant", cost=2, text="3 fire damage to a creature."
    )
    assert face(card("Wings of Flame"))["keywords"] == ["grants flying", "enchant creature"]
    assert face(card("Magma Wyrm"))["keywords"] == [
        "immune to fire", "breath 4 (fire)", "upkeep 1 VP"]  # fmt: skip


def test_items_and_enchantments_sit_on_their_carriers() -> None:
    carrier = {"card": "Sellsword", "attached": ["Longsword", "Wings of Flame"]}
    state = stacked([{"guard": [carrier], **HOLD}, {"reserve": ["Hill Giant"]}])
    guard = area_of(state.view(1), "guard0")["pieces"]
    sellsword, longsword, wings = guard
    assert sellsword["label"] == "Sellsword" and "on" not in sellsword
    assert (longsword["label"], longsword["on"]) == ("Longsword", sellsword["id"])
    assert (wings["label"], wings["on"]) == ("Wings of Flame", sellsword["id"])
    assert area_of(state.view(1), "beside0")["pieces"] == []


def test_an_enchantment_on_the_other_players_creature_lies_on_it_on_their_side() -> None:
    state = stacked([{"hand": ["Binding Chains", *HOLD["hand"]], "vp": 5},
                     {"reserve": ["Hill Giant"]}])  # fmt: skip
    assert move_of(state.view(0), "play h0 Binding Chains on their #0 Hill Giant")[1:] == (
        "hand0/0", "table1/0")  # fmt: skip
    act(state, "play h0 Binding Chains on their #0 Hill Giant")
    while state.stack:
        act(state, "pass")
    [giant, chains] = area_of(state.view(0), "reserve1")["pieces"]
    assert giant["label"] == "Hill Giant" and chains["label"] == "Binding Chains"
    assert (giant["id"], chains["id"], chains["on"]) == ("table1/0", "table1/1", "table1/0")


def test_moves_name_their_source_and_target() -> None:
    view = declare_state(["Ash Roc"], []).view(0)
    assert move_of(view, "attack #0 Ash Roc at player") == (
        "attack #0 Ash Roc at player", "table0/0", "player1")  # fmt: skip
    assert move_of(view, "pass")[1:] == (None, None)
    state = stacked([{"hand": ["Stray Wolf", "Fire Bolt"], "vp": 3}, {"reserve": ["Ash Roc"]}])
    view = state.view(0)
    assert move_of(view, "play h0 Stray Wolf")[1:] == ("hand0/0", None)
    assert move_of(view, "play h1 Fire Bolt on their #0 Ash Roc")[1:] == ("hand0/1", "table1/0")
    assert {"player0", "player1"} <= set(all_pieces(view))


def test_a_choice_is_made_on_the_card_chosen_alone() -> None:
    state = stacked([{"hand": ["Forge", *HOLD["hand"]], "vp": 1,
                      "reserve": ["Stray Wolf", "Hill Giant", "Ash Roc"]}, {}])  # fmt: skip
    act(state, "play h0 Forge")
    while state.stack:
        act(state, "pass")
    view = state.view(0)
    chosen = [m for m in view["moves"] if m["text"].startswith("choose my")]
    assert chosen and all(m["source"] is None and m["target"] for m in chosen)
    assert all(m["target"] == m["pieces"][0] for m in chosen)


def test_the_chain_is_an_area_only_while_it_is_open() -> None:
    state = stacked([{"hand": ["Fire Bolt", "Stray Wolf"], "vp": 3},
                     {"hand": ["Unweave"], "vp": 3, "reserve": ["Hill Giant"]}])  # fmt: skip
    assert "chain" not in [a["id"] for a in state.view(0)["areas"]]
    act(state, "play h0 Fire Bolt on their #0 Hill Giant")
    view = state.view(1)
    assert area_of(view, "chain")["owner"] is None
    assert view["phase"].endswith("; the chain is open with 1 play: answer it or pass")
    act(state, "pass")
    assert "chain" not in [a["id"] for a in state.view(0)["areas"]]


def test_last_moves_name_the_cards_where_they_are_now() -> None:
    state = stacked([{"hand": ["Fire Bolt", "Stray Wolf"], "vp": 3},
                     {"hand": ["Unweave"], "vp": 3, "reserve": ["Hill Giant"]}])  # fmt: skip
    act(state, "play h0 Fire Bolt on their #0 Hill Giant")
    for observer in (None, 0, 1):
        [shown] = state.view(observer)["last_moves"]
        assert shown == {"seat": 0, "text": "play Fire Bolt on their #0 Hill Giant",
                         "pieces": ["chain/0", "table1/0"]}  # fmt: skip
    act(state, "pass")  # a pass is no play: player 1 shows none
    [shown] = state.view(1)["last_moves"]
    assert shown["pieces"][0] == "discard0/0"


def test_the_phase_and_the_outcome_are_words() -> None:
    state = stacked([{"hand": ["Stray Wolf"], "vp": 1}, {}])
    assert state.view(0)["phase"] == "Player 0's turn 0: Main phase"
    for first, second, seed in GAMES:
        end = random_states(first, second, seed)[-1]
        outcome = end.view(0)["outcome"]
        assert outcome.startswith(("Player 0 wins: ", "Player 1 wins: ", "A draw: "))
        if end.winner in (0, 1):
            assert f"player {1 - end.winner} is down to {end.life[1 - end.winner]} life" in outcome


def test_a_last_move_reads_as_the_other_player_read_the_move() -> None:
    """The notation written when a view asks equals ``action_to_string`` for the other
    player at the time of the move, for every kind of move of a few random games."""
    kinds = set()
    for first, second, seed in GAMES:
        state = HkkGame(decks=(first, second)).new_state(seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            action = rng.choice(state.legal_actions())
            seat, text = state.player, state.action_to_string(action, 1 - state.player)
            state.apply(action)
            if text != "pass":
                kinds.add(text.split()[0])
                for observer in (None, 0, 1):
                    shown = {m["seat"]: m["text"] for m in state.view(observer)["last_moves"]}
                    assert shown[seat] == text
    assert {"play", "use", "attack", "guard", "choose"} <= kinds, kinds
