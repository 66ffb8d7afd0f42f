"""Rules tests of the guide's example game, each citing the rule it checks (the generic
checks run over it in tests/test_conformance.py, like over every registered game)."""

from __future__ import annotations

import random

from three_cards.engine import ThreeCardsGame, ThreeCardsState


def dealt(hands: list[list[int]], unused: list[int]) -> ThreeCardsState:
    """A position with the given deal, player 0 to lead."""
    return ThreeCardsState(ThreeCardsGame(), random.Random(0), hands, unused)


def play(state: ThreeCardsState, *cards: int) -> None:
    for card in cards:
        state.apply(state.string_to_action(f"play {card}"))


def test_tc_1_2_three_cards_each_three_unused_and_player_0_leads() -> None:
    state = ThreeCardsGame().new_state(seed=3)
    assert [len(hand) for hand in state.hands] == [3, 3] and len(state.unused) == 3
    assert sorted(state.hands[0] + state.hands[1] + state.unused) == list(range(1, 10))
    assert state.current_player == 0 and state.led is None


def test_tc_2_2_the_higher_card_wins_and_its_player_leads_next() -> None:
    state = dealt([[2, 5, 9], [1, 6, 8]], unused=[3, 4, 7])
    play(state, 5, 6)
    assert state.tricks == [0, 1] and state.current_player == 1
    assert [e.kind for e in state.last_events()] == ["card_played", "trick_won"]
    play(state, 1)
    assert state.led == 1 and state.current_player == 0


def test_tc_2_3_the_last_cards_are_played_for_the_players_and_tc_3_1_scores() -> None:
    state = dealt([[2, 5, 9], [1, 6, 8]], unused=[3, 4, 7])
    play(state, 5, 6, 1, 2)
    assert state.is_terminal()
    assert state.played == [[5, 2, 9], [6, 1, 8]]
    assert state.tricks == [2, 1] and state.returns() == [1.0, -1.0]


def test_tc_1_2_the_opponents_hand_and_the_unused_cards_stay_hidden() -> None:
    state = dealt([[2, 5, 9], [1, 6, 8]], unused=[3, 4, 7])
    seen_by_1 = state.render(1)
    assert "hand ? ? ?" in seen_by_1 and "Unused" not in seen_by_1
    twin = state.resample_hidden(1, random.Random(5))
    assert twin.hands[1] == [1, 6, 8] and twin.render(1) == seen_by_1
    assert sorted(twin.hands[0] + twin.unused) == [2, 3, 4, 5, 7, 9]
