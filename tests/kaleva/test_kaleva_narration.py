"""What each player is told in Kaleva: action texts per observer, events per observer and
the help text; each names the rule (docs/rules/kaleva.md) that makes a fact public or
hidden."""

from __future__ import annotations

import json
import random
import re

import pytest
from kaleva_positions import PLAIN, stacked

from tabletop.envs.core.protocol import Event
from tabletop.envs.kaleva.board import BRONZE, SILVER, TUURI
from tabletop.envs.kaleva.encoders import ENCODERS
from tabletop.envs.kaleva.engine import (
    END_REASONS,
    OVER,
    PHASE_NAMES,
    SETUP,
    SWAP,
    TUURI_CHOICE,
    KalevaGame,
    KalevaState,
)
from tabletop.envs.kaleva.heuristic import KalevaHeuristic


def texts(state: KalevaState, observer: int | None) -> dict[str, str]:
    """Full notation -> the text ``observer`` gets, for every legal action."""
    return {
        state.action_to_string(a): state.action_to_string(a, observer)
        for a in state.legal_actions()
    }


def play(state: KalevaState, text: str) -> list[Event]:
    state.apply(state.string_to_action(text))
    return state.last_events()


def kinds(events: list[Event]) -> list[str]:
    return [event.kind for event in events]


def view(state: KalevaState, observer: int) -> tuple[object, ...]:
    """Everything ``observer`` sees: the picture and every encoder's array."""
    arrays = tuple(ENCODERS[name].encode(state, observer).tobytes() for name in sorted(ENCODERS))
    return (state.render(observer), *arrays)


# ----- action texts per observer ---------------------------------------------------------


def test_kv_2_2_a_card_laid_at_setup_is_unnamed_to_the_opponent() -> None:
    state = KalevaGame().new_state(seed=5)
    silver = texts(state, SILVER)
    assert all(full == own for full, own in silver.items())
    assert set(texts(state, None)) == set(silver)
    assert set(texts(state, BRONZE).values()) == {"Silver places a card on a"}
    assert all(re.fullmatch(r"place \d a", full) for full in silver)


def test_kv_3_moves_and_kv_5_returns_name_no_hidden_card() -> None:
    state = stacked(["b1", "a1"], ["c2"])
    bronze = texts(state, BRONZE)
    assert bronze["b1xc2"] == bronze["a1-a2"] == "Silver moves a disc"
    assert texts(state, SILVER)["b1xc2"] == "b1xc2"
    returning = stacked(["c1"], ["f3"])
    assert texts(returning, BRONZE)["return a0"] == "Silver returns a disc to a0"


def test_kv_4_7_a_kept_tuuri_reads_like_the_move_and_a_spent_one_is_public() -> None:
    state = stacked(["b1", "e0"], ["f3"], silver_cards=(2, TUURI, 3, 4, 5, 6))
    moving = texts(state, BRONZE)["b1-b2"]
    play(state, "b1-b2")
    bronze, silver = texts(state, BRONZE), texts(state, SILVER)
    assert bronze["keep tuuri"] == moving == "Silver moves a disc"
    assert silver["keep tuuri"] == "keep tuuri"
    assert bronze["tuuri b reveal e"] == (
        "Silver moves a disc and spends the Tuuri on b to reveal Bronze's card on e"
    )
    assert not any("tuuri" in text.lower() for text in bronze.values() if "spends" not in text)


def test_kv_4_4_a_swap_names_its_columns_only_when_it_moves_visible_marks() -> None:
    state = stacked(["b1", "e0"], ["c2"], silver_cards=(3, 3, 5, 5, 6, 7), decks=(("Aino",), ()))
    play(state, "b1xc2")  # Silver's 3 loses; b is refilled with a drawn 3
    assert state.phase == SWAP
    bronze = texts(state, BRONZE)
    assert bronze["swap a b"] == "Silver swaps the cards on a and b"  # ?o and ?d
    assert (
        bronze["swap a c"] == bronze["no swap"] == "Silver swaps no cards, or two that look alike"
    )
    assert texts(state, SILVER)["swap a c"] == "swap a c"


def test_an_observer_that_is_no_player_is_an_error() -> None:
    state = stacked(["b1"], ["c2"])
    with pytest.raises(ValueError, match="observer"):
        state.action_to_string(state.legal_actions()[0], 2)


# ----- events per observer -----------------------------------------------------------------


def test_events_are_empty_before_the_first_apply() -> None:
    assert KalevaGame().new_state(seed=1).last_events() == []
    assert stacked(["b4", "c4"], ["a0", "f0", "d2"]).last_events() == []  # decided while built


def test_kv_2_2_placing_names_the_card_to_its_owner_only() -> None:
    state = KalevaGame().new_state(seed=5)
    card = state.unplaced[SILVER][0]
    play(state, f"place {card} a")
    assert state.last_events(SILVER) == [
        Event(
            "card_placed", f"Silver places {card} on a", {"player": 0, "column": "a", "card": card}
        )
    ]
    assert state.last_events(BRONZE) == [
        Event("card_placed", "Silver places a card on a", {"player": 0, "column": "a"})
    ]


def test_kv_4_2_a_fight_shows_both_cards_and_kv_4_5_the_refills_only_to_their_owners() -> None:
    state = stacked(["b1", "e0"], ["c2"], decks=(("Ukko",), ("Kauko",)))
    events = play(state, "b1xc2")
    assert kinds(events) == ["fight", "disc_lost", "card_drawn", "card_drawn"]
    fight = events[0]
    assert fight.data == {
        "attacker": 0, "frm": "b1", "to": "c2", "attack": 3, "defence": 4, "loser": 0
    }  # fmt: skip
    assert fight.text == "Fight b1xc2, Silver 3 against Bronze 4: Bronze wins"
    for observer in (SILVER, BRONZE):
        seen = state.last_events(observer)
        assert seen[:2] == events[:2]
        assert f"Last fight: {fight.text[6:]}" in state.render(observer)
    assert state.last_events(BRONZE)[2] == Event(
        "card_drawn", "Silver draws a card on b", {"player": 0, "column": "b"}
    )
    assert state.last_events(SILVER)[2].data["card"] == 9
    assert state.last_events(SILVER)[3].data == {"player": 1, "column": "c"}


def test_kv_4_6_the_terna_trick_and_the_turn_passing() -> None:
    state = stacked(["b1"], ["c2"], bronze_cards=(2, 3, "Terna", 4, 5, 6))
    events = play(state, "b1xc2")
    assert kinds(events) == ["fight", "card_drawn", "card_drawn", "turn_passed"]
    assert events[0].text.endswith("Terna's trickery swaps the discs")
    assert events[-1] == Event("turn_passed", "Turn 1: Bronze to move", {"player": 1, "turn": 1})


def test_kv_4_4_swap_events_per_observer() -> None:
    state = stacked(["b1", "e0"], ["c2"], silver_cards=(3, 3, 5, 5, 6, 7), decks=(("Aino",), ()))
    play(state, "b1xc2")
    twin = state.clone()
    play(state, "swap a b")
    swapped = Event("cards_swapped", "Silver swaps the cards on a and b",
                    {"player": 0, "columns": ["a", "b"]})  # fmt: skip
    assert state.last_events(BRONZE)[0] == state.last_events(SILVER)[0] == swapped
    assert "Silver: cards ?d ?o ?o ?o ?o ?o" in state.render(BRONZE)
    unseen = Event("swap_unseen", "Silver swaps no cards, or two that look alike", {"player": 0})
    for text, own in (("swap a c", "Silver swaps the cards on a and c"), ("no swap", None)):
        other = twin.clone()
        play(other, text)
        assert other.last_events(BRONZE)[0] == unseen
        assert other.last_events(SILVER)[0].text == (own or "Silver swaps no cards")


def test_kv_4_7_a_tuuri_spent_is_public_with_the_card_it_turns_up() -> None:
    state = stacked(["b1", "e0"], ["f3"], silver_cards=(2, TUURI, 3, 4, 5, 6))
    assert play(state, "b1-b2") == []  # the move waits for the Tuuri decision
    events = play(state, "tuuri b reveal e")
    assert kinds(events) == ["tuuri_revealed", "card_drawn", "disc_moved", "turn_passed"]
    assert events[0].data == {"player": 0, "tuuri_column": "b", "column": "e", "card": 6}
    assert state.last_events(BRONZE)[0] == events[0]


def test_kv_4_7_the_pause_for_a_kept_tuuri_is_hidden_from_the_opponent() -> None:
    """The opponent's picture and encodings stay those before the move, and keeping the
    Tuuri gives them the very events and texts of the same move made without a Tuuri."""
    with_tuuri = stacked(["b1", "e0"], ["f3"], silver_cards=(2, TUURI, 3, 4, 5, 6))
    without = stacked(["b1", "e0"], ["f3"], silver_cards=(2, 3, TUURI, 4, 5, 6))
    before = view(with_tuuri, BRONZE)
    assert before == view(without, BRONZE)
    play(with_tuuri, "b1-b2")
    assert with_tuuri.phase == TUURI_CHOICE
    assert view(with_tuuri, BRONZE) == before
    assert "Tuuri decision (b1->b2)" in with_tuuri.render(SILVER)
    assert with_tuuri.action_to_string(with_tuuri.string_to_action("keep tuuri"), BRONZE) == (
        without.action_to_string(without.string_to_action("b1-b2"), BRONZE)
    )
    play(with_tuuri, "keep tuuri")
    play(without, "b1-b2")
    assert with_tuuri.last_events(BRONZE) == without.last_events(BRONZE)
    kept = Event("tuuri_kept", "Silver keeps the Tuuri on b", {"player": 0, "columns": ["b"]})
    assert with_tuuri.last_events(SILVER)[0] == with_tuuri.last_events()[0] == kept
    assert kinds(with_tuuri.last_events(SILVER))[1:] == kinds(without.last_events(BRONZE))
    assert view(with_tuuri, BRONZE) == view(without, BRONZE)


def test_kv_4_7_resampling_for_the_opponent_takes_the_pending_move_back() -> None:
    state = stacked(["b1", "e0"], ["f3"], silver_cards=(2, TUURI, 3, 4, 5, 6))
    play(state, "b1-b2")
    twins = [state.resample_hidden(BRONZE, random.Random(seed)) for seed in range(20)]
    assert all(twin.phase != TUURI_CHOICE and twin.pending is None for twin in twins)
    assert all(view(twin, BRONZE) == view(state, BRONZE) for twin in twins)
    assert state.resample_hidden(SILVER, random.Random(0)).phase == TUURI_CHOICE


def test_kv_4_7_a_forced_move_shows_its_pause() -> None:
    """With a single legal move the engine would have moved without asking, so a Tuuri
    decision after it cannot be hidden: the opponent sees it, and resampling keeps it."""
    state = stacked(["a0"], ["a1", "b0", "b1", "f0"], silver_cards=(TUURI, 2, 3, 4, 5, 6))
    assert state.phase == TUURI_CHOICE  # a0xa1 was the only move
    assert "Tuuri decision (a0->a1)" in state.render(BRONZE)
    assert state.resample_hidden(BRONZE, random.Random(1)).phase == TUURI_CHOICE


def test_kv_6_game_over_says_who_won_and_why() -> None:
    state = stacked(["a4", "b4", "c3"], ["f2"])
    events = play(state, "c3-c4")
    assert events[-1] == Event(
        "game_over",
        f"Silver wins: {END_REASONS['shield']}",
        {"winner": 0, "reason": "shield"},
    )
    assert f"Silver wins, {END_REASONS['shield']}" in state.render(BRONZE)
    short = KalevaGame(turn_limit=1).stacked_state(
        silver=["b1"], bronze=["f3"], cards=(PLAIN, PLAIN)
    )
    assert play(short, "b1-b2")[-1].data == {"winner": None, "reason": "turn_limit"}


def random_states(games: int, seed: int) -> list[KalevaState]:
    """Every position of a few games, half played by the heuristic (which swaps and
    spends Tuuri more than random play) and half at random."""
    rng, heuristic, states = random.Random(seed), KalevaHeuristic(), []
    for game in range(games):
        state = KalevaGame(turn_limit=80).new_state(seed=rng.getrandbits(32))
        while not state.is_terminal():
            states.append(state.clone())
            legal = state.legal_actions()
            use_heuristic = game % 2 and state.phase != SETUP
            state.apply(heuristic.act(state, state.player) if use_heuristic else rng.choice(legal))
        states.append(state)
    return states


def outcomes(state: KalevaState, observer: int) -> dict[object, set[object]]:
    """Per view ``observer`` has after a legal action: the texts and events they got."""
    found: dict[object, set[object]] = {}
    for action in state.legal_actions():
        after = state.clone()
        text = state.action_to_string(action, observer)
        after.apply(action)
        events = after.last_events(observer)
        told = (text, tuple((e.kind, e.text, json.dumps(e.data, sort_keys=True)) for e in events))
        found.setdefault(view(after, observer), set()).add(told)
    return found


def test_what_an_observer_is_told_follows_from_what_they_see() -> None:
    """The leak property of texts and events: in a state and its resample for the
    observer, any two actions that leave the observer the same view before and after give
    them the same action text and the same events (KV-7)."""
    rng, compared = random.Random(7), 0
    for state in random_states(games=6, seed=11):
        if state.phase == OVER:
            continue
        observer = 1 - state.player
        told = outcomes(state, observer)
        for key, told_twin in outcomes(state.resample_hidden(observer, rng), observer).items():
            if key in told:
                compared += 1
                assert len(told[key] | told_twin) == 1, (state.render(), told[key] | told_twin)
        assert all(len(found) == 1 for found in told.values()), state.render()
    assert compared > 500


# ----- the help text ------------------------------------------------------------------------


def test_help_text_explains_every_code_the_picture_prints() -> None:
    help_text = KalevaGame().help_text()
    cells, words = set(), set()
    for state in random_states(games=4, seed=3):
        for observer in (None, SILVER, BRONZE):
            for line in state.render(observer).splitlines():
                if ": cards " in line:
                    slots = line.split(": cards ")[1].split(" (")[0].split()
                    cells |= {re.sub(r"\d", "7", cell) for cell in slots}
                    words |= set(re.findall(r"[a-z][a-z ]*[a-z](?= [\d-])", line))
                for phase in PHASE_NAMES[:-1]:
                    if f" to {phase}" in line:
                        words.add(phase)
    assert cells == {"7", "7*", "?o", "?d", "--"}
    assert words >= {"shown", "to arrange", "deck", "discard", "lost discs"}
    any_digit = re.sub(r"\d", "7", help_text)  # "3*" in the help explains "5*" too
    for code in (*cells, *words, "Last fight", "Game over", "S =", "B =", ". ="):
        assert code in any_digit, code
    for example in ("place 7 c", "b1-c2", "b1xc2", "return a0", "tuuri b reveal e",
                    "keep tuuri", "swap b e", "no swap"):  # fmt: skip
        assert f"  {example} " in help_text, example


def test_moves_and_the_picture_write_cards_alike() -> None:
    """The move list and the board both write a card as its value."""
    state = KalevaGame().new_state(seed=5)
    card = state.unplaced[SILVER][0]
    play(state, f"place {card} a")
    assert f"Silver: cards {card} --" in state.render(SILVER)
    fresh = KalevaGame().new_state(seed=5)
    assert f"place {card} a" in {fresh.action_to_string(a) for a in fresh.legal_actions()}


def test_kv_1_1_seats_are_named_by_colour() -> None:
    game = KalevaGame()
    assert [game.player_name(seat) for seat in (SILVER, BRONZE)] == ["Silver", "Bronze"]
    with pytest.raises(ValueError, match="seat"):
        game.player_name(2)
