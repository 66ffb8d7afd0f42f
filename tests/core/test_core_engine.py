"""EngineState, the base of every rules engine, driven by the toy game: forced moves, their
bound, and the event records behind ``last_events``."""

from __future__ import annotations

import random

import pytest
from toy_game import ToyGame, ToyState

from tabletop.envs.core import Event, IllegalActionError
from tabletop.envs.core.engine import (
    MAX_FORCED_MOVES,
    resample_consistent,
    shows_real_choice,
)


class EndlessEnd(ToyGame):
    """A toy whose ``end`` forgets to pass the turn: after a first play, ending is the only
    option and changes nothing, so the engine's forced moves would never stop."""

    def new_state(self, seed: int | None = None) -> ToyState:
        return _EndlessEndState(self, random.Random(seed))


class _EndlessEndState(ToyState):
    def _compute_legal(self) -> list[int]:
        return [self.game.end_action] if self.plays_this_turn else super()._compute_legal()

    def _do(self, action: int) -> None:
        if action != self.game.end_action:
            super()._do(action)


def test_a_forced_move_loop_raises_naming_the_game_and_the_position() -> None:
    state = EndlessEnd().new_state(seed=1)
    card = state.legal_actions()[0]
    with pytest.raises(RuntimeError) as raised:
        state.apply(card)
    message = str(raised.value)
    assert message.startswith(f"toy: {MAX_FORCED_MOVES} forced moves in a row")
    assert "last forced move 'end'" in message
    assert f"pile: [({card}, 0)]" in message  # the position, as render() shows it


def _game_with_a_forced_move() -> tuple[ToyState, ToyState, int]:
    """A position before an action after which the next player's move is forced (a first
    play from a one-card hand), and the action."""
    rng = random.Random(0)
    for seed in range(100):
        state = ToyGame().new_state(seed=seed)
        while not state.is_terminal():
            before, action = state.clone(), rng.choice(state.legal_actions())
            state.apply(action)
            players = {e.data["player"] for e in state.last_events() if e.kind == "card_played"}
            if players - {before.current_player}:
                return before, state, action
    raise AssertionError("no forced move in 100 games")


def test_forced_moves_are_taken_and_narrated_with_the_move_that_set_them_off() -> None:
    before, after, action = _game_with_a_forced_move()
    mover = before.current_player
    kinds = [event.kind for event in after.last_events()]
    assert kinds[-3:] == ["turn_ended", "card_played", "game_over"]
    forced = after.last_events()[-2]
    assert forced.data["player"] != mover
    assert before.hands[forced.data["player"]] == [forced.data["card"]]  # the only option
    assert after.is_terminal()
    assert action in before.legal_actions()


def test_apply_replaces_the_events_and_a_clone_keeps_its_own() -> None:
    state = ToyGame().new_state(seed=2)
    assert state.last_events() == []
    state.apply(state.legal_actions()[0])
    first = state.last_events()
    assert first and all(isinstance(event, Event) for event in first)
    clone = state.clone()
    clone.apply(clone.legal_actions()[0])
    assert state.last_events() == first
    assert clone.last_events() != first
    state.apply(state.legal_actions()[0])
    assert state.last_events() == clone.last_events()  # only the new move's events


def test_events_are_filtered_per_observer() -> None:
    state = ToyGame().new_state(seed=2)
    mover = state.current_player
    state.apply(state.legal_actions()[0])
    drawn = [e for e in state.last_events(mover) if e.kind == "card_drawn"]
    hidden = [e for e in state.last_events(1 - mover) if e.kind == "card_drawn"]
    assert drawn[0].data["card"] in state.hands[mover]
    assert hidden == [Event("card_drawn", f"player {mover} draws a card", {"player": mover})]


def test_a_rejected_action_keeps_the_events_of_the_last_move() -> None:
    state = ToyGame().new_state(seed=2)
    state.apply(state.legal_actions()[0])
    events = state.last_events()
    with pytest.raises(IllegalActionError, match="toy: illegal action -1"):
        state.apply(-1)
    assert state.last_events() == events


def test_resample_consistent_retries_until_a_deal_fits() -> None:
    deals = iter(range(100))
    drawn: list[int] = []

    def deal() -> int:
        drawn.append(next(deals))
        return drawn[-1]

    assert resample_consistent(deal, lambda n: n == 3, "mygame") == 3
    assert drawn == [0, 1, 2, 3]


def test_resample_consistent_names_the_game_when_no_deal_fits() -> None:
    calls: list[None] = []
    with pytest.raises(RuntimeError, match=r"^mygame: no consistent deal in 7 tries$"):
        resample_consistent(lambda: calls.append(None), lambda _: False, "mygame", tries=7)
    assert len(calls) == 7


def test_shows_real_choice_refuses_a_deal_whose_mover_would_have_been_moved() -> None:
    """A determinization where the player to move has one legal action contradicts what
    the observer saw (the engine moves by itself then); the test keeps the legal actions."""
    state = ToyGame().new_state(seed=1)
    consistent = shows_real_choice(state)
    twin = state.clone()
    assert consistent(twin) and twin.legal_actions() == state.legal_actions()
    twin.hands[twin.player] = twin.hands[twin.player][:1]  # a one-card hand: a forced play
    assert not consistent(twin)
    finished = state.clone()
    while not finished.is_terminal():
        finished.apply(finished.legal_actions()[0])
    assert shows_real_choice(finished)(finished.clone())  # over: nothing more to fit
