"""The generic checks pass on a correct game and catch each kind of broken one: a check
that cannot fail is worthless."""

from __future__ import annotations

import random
import re

import numpy as np
import pytest
import toy_v0
from toy_game import ToyFlatEncoder, ToyGame, ToyState

from tabletop.envs.core import Event, IllegalActionError, TabletopAEC
from tabletop.envs.core.checks import (
    check_env_random_play,
    check_no_leak,
    check_no_text_leak,
    run_random_games,
)


class MutantGame(ToyGame):
    """The toy game whose states are of a broken subclass."""

    def __init__(self, state_class: type[ToyState], **options: object) -> None:
        super().__init__(**options)
        self.state_class = state_class

    def new_state(self, seed: int | None = None) -> ToyState:
        return self.state_class(self, random.Random(seed))


class ShallowClone(ToyState):
    def clone(self) -> ToyState:
        other = super().clone()
        other.hands = self.hands
        return other


class SharedRandomClone(ToyState):
    def clone(self) -> ToyState:
        other = super().clone()
        other._rng = self._rng
        return other


class MutatesBeforeRejecting(ToyState):
    def apply(self, action: int) -> None:
        if action not in self.legal_actions():
            self.pile.append((action, self.player))
        super().apply(action)


class RejectsWithTheWrongError(ToyState):
    def apply(self, action: int) -> None:
        if action not in self.legal_actions():
            raise KeyError(action)
        super().apply(action)


class UnsortedLegalActions(ToyState):
    def legal_actions(self) -> list[int]:
        return super().legal_actions()[::-1]


class BonusOutsideRewards(ToyState):
    def returns(self) -> list[float]:
        return [value + (0.5 if self.is_terminal() else 0.0) for value in super().returns()]


class IgnoresSeed(ToyState):
    def __init__(self, game: ToyGame, rng: random.Random) -> None:
        super().__init__(game, random.Random())


class NeverEnds(ToyState):
    def _finish(self) -> None:
        self.deck = list(range(self.game.deck_size))
        self.hands[self.player] = [self.deck.pop()]
        self._end_turn()


class ResampleKeepsNothing(ToyState):
    def resample_hidden(self, observer: int, rng: random.Random) -> ToyState:
        return super().resample_hidden((observer + 1) % self.game.num_players, rng)


class NamesTheKeptCards(ToyState):
    """Tells the others which cards the mover keeps when ending the turn: Kaleva's
    ``tabletop play`` bug, a hidden hand in an opponent's action text."""

    def action_to_string(self, action: int, observer: int | None = None) -> str:
        text = super().action_to_string(action, observer)
        if observer not in (None, self.player) and action == self.game.end_action:
            return f"{text}, keeping {self.hands[self.player]}"
        return text


class HintsAtTheDrawnCard(ToyState):
    """Tells the others whether a drawn card is even: one hidden bit in an event."""

    def _describe_event(self, kind: str, facts: dict, observer: int | None) -> Event:
        event = super()._describe_event(kind, facts, observer)
        if kind == "card_drawn" and observer not in (None, facts["player"]):
            parity = "odd" if facts["card"] % 2 else "even"
            return Event(kind, f"player {facts['player']} draws an {parity} card", event.data)
        return event


class ShowsEveryHand(ToyState):
    def render(self, observer: int | None = None) -> str:
        return super().render(None)


class TellsTheMoverSomethingElse(ToyState):
    def action_to_string(self, action: int, observer: int | None = None) -> str:
        text = super().action_to_string(action, observer)
        return f"you {text}" if observer == self.player else text


class TwoLineObserverText(ToyState):
    def action_to_string(self, action: int, observer: int | None = None) -> str:
        text = super().action_to_string(action, observer)
        return text if observer in (None, self.player) else f"{text}\n(again)"


class SetInEventData(ToyState):
    def _describe_event(self, kind: str, facts: dict, observer: int | None) -> Event:
        event = super()._describe_event(kind, facts, observer)
        return Event(event.kind, event.text, {**event.data, "seen_by": {observer}})


class CamelCaseEventKind(ToyState):
    def _describe_event(self, kind: str, facts: dict, observer: int | None) -> Event:
        event = super()._describe_event(kind, facts, observer)
        return Event("CardEvent", event.text, event.data)


class TupleForAnEvent(ToyState):
    def last_events(self, observer: int | None = None) -> list[Event]:
        return [(e.kind, e.text, e.data) for e in super().last_events(observer)]  # type: ignore[misc]


class NarratesTheDeal(ToyState):
    def __init__(self, game: ToyGame, rng: random.Random) -> None:
        super().__init__(game, rng)
        self._record("turn_ended", player=0, next=0)


class LeakyEncoder(ToyFlatEncoder):
    """Also shows the next player's hand."""

    def shape(self, game: ToyGame) -> tuple[int, ...]:
        return (super().shape(game)[0] + game.deck_size,)

    def encode(self, state: ToyState, player: int) -> np.ndarray:
        out = super().encode(state, player)
        next_hand = state.hands[(player + 1) % state.game.num_players]
        out[-state.game.deck_size + np.asarray(next_hand, dtype=int)] = 1.0
        return out


class BlindEncoder(ToyFlatEncoder):
    """Forgets the player's own hand."""

    def encode(self, state: ToyState, player: int) -> np.ndarray:
        out = super().encode(state, player)
        out[: state.game.deck_size] = 0.0
        return out


@pytest.mark.parametrize("num_players", [2, 3])
def test_random_games_pass_on_the_toy_and_summarise(num_players: int) -> None:
    summary = run_random_games(ToyGame(num_players=num_players), games=200, seed=0)
    assert summary.games == 200
    assert summary.total_plies >= 200
    assert len(summary.mean_returns()) == num_players
    assert len(summary.outcomes()) > 3
    assert all(stats["cards_played"] > 0 for stats in summary.stats)


def test_random_games_run_the_invariant_after_every_ply() -> None:
    game = ToyGame(num_players=3)
    calls = []

    def cards_are_conserved(state: ToyState) -> None:
        calls.append(state)
        held = sum(len(hand) for hand in state.hands)
        assert held + len(state.deck) + len(state.pile) == game.deck_size

    summary = run_random_games(game, games=20, seed=1, invariant=cards_are_conserved)
    assert len(calls) == summary.total_plies + summary.games


def test_random_games_report_a_failing_invariant() -> None:
    def no_pile_above_three(state: ToyState) -> None:
        assert len(state.pile) <= 3, "pile too high"

    with pytest.raises(AssertionError, match="pile too high"):
        run_random_games(ToyGame(), games=20, seed=1, invariant=no_pile_above_three)


@pytest.mark.parametrize(
    ("state_class", "complaint"),
    [
        (ShallowClone, "clone"),
        (SharedRandomClone, "clone diverged"),
        (MutatesBeforeRejecting, "rejected action -1 changed the state"),
        (RejectsWithTheWrongError, "raised KeyError instead of IllegalActionError"),
        (UnsortedLegalActions, "not sorted"),
        (BonusOutsideRewards, r"returns\(\) .* != sum of rewards\(\)"),
        (IgnoresSeed, "same seed and actions gave another game"),
        (NeverEnds, "no end within 500 plies"),
    ],
)
def test_random_games_catch_broken_engines(state_class: type[ToyState], complaint: str) -> None:
    game = MutantGame(state_class, num_players=3, deck_size=20, hand_size=4)
    with pytest.raises(AssertionError, match=complaint):
        run_random_games(game, games=30, seed=2, max_plies=500)


def test_failures_say_how_to_reproduce_them() -> None:
    game = MutantGame(UnsortedLegalActions)
    with pytest.raises(AssertionError, match=r"game.new_state\(seed=\d+\) after \d+ plies"):
        run_random_games(game, games=5, seed=0)


@pytest.mark.parametrize("num_players", [2, 3])
def test_no_leak_passes_on_the_toy_and_counts(num_players: int) -> None:
    report = check_no_leak(ToyGame(num_players=num_players), ToyFlatEncoder(), games=20, seed=0)
    assert report.states > 100
    assert report.resamples == 2 * num_players * report.states
    assert report.playouts > 0
    assert report.sensitivity > 0.3  # near the end, nobody's hand can change


def test_no_leak_catches_a_leaky_encoder() -> None:
    with pytest.raises(AssertionError, match=r"leaks hidden information.*flat indices \[\d+"):
        check_no_leak(ToyGame(), LeakyEncoder(), games=5, seed=0)


def test_no_leak_catches_a_blind_encoder() -> None:
    with pytest.raises(AssertionError, match="looks blind"):
        check_no_leak(ToyGame(), BlindEncoder(), games=5, seed=0)


def test_no_leak_catches_a_resample_that_redraws_what_the_observer_sees() -> None:
    with pytest.raises(AssertionError, match="leaks hidden information"):
        check_no_leak(MutantGame(ResampleKeepsNothing), ToyFlatEncoder(), games=5, seed=0)


def test_env_check_catches_a_wrong_mask() -> None:
    class AllOnesMask(TabletopAEC):
        def observe(self, agent: str) -> dict[str, np.ndarray]:
            observation = super().observe(agent)
            observation["action_mask"][:] = 1
            return observation

    raw = toy_v0.raw_env()
    broken = AllOnesMask(raw.game, raw.encoder, metadata=raw.metadata)
    with pytest.raises(AssertionError, match="mask"):
        check_env_random_play(broken, games=2, seed=0)


def test_illegal_action_error_is_a_value_error() -> None:
    assert issubclass(IllegalActionError, ValueError)


@pytest.mark.parametrize("num_players", [2, 3])
def test_no_text_leak_passes_on_the_toy_and_compares_enough(num_players: int) -> None:
    game = ToyGame(num_players=num_players)
    report = check_no_text_leak(game, toy_v0.SPEC.encoders, games=10, seed=0)
    assert report.states > 50
    assert report.resamples == 2 * num_players * report.states
    assert report.moves > report.resamples
    assert report.off_turn_comparisons > 100
    assert report.comparisons > report.off_turn_comparisons


@pytest.mark.parametrize(
    ("state_class", "complaint"),
    [
        (NamesTheKeptCards, "the action texts shown to player . leak hidden information"),
        (HintsAtTheDrawnCard, "the events shown to player . leak hidden information"),
        (ShowsEveryHand, r"changed what player . is shown \(render\)"),
        (TellsTheMoverSomethingElse, "for the mover, but the full text is"),
        (TwoLineObserverText, "is not one line"),
        (SetInEventData, "its data is not JSON-serialisable"),
        (CamelCaseEventKind, "its kind is not a snake_case word"),
        (TupleForAnEvent, r"last_events\(None\) gave \('card_played', .*: not an Event"),
        (NarratesTheDeal, r"last_events\(None\) of a new state"),
    ],
)
def test_no_text_leak_catches_what_a_player_should_not_be_shown(
    state_class: type[ToyState], complaint: str
) -> None:
    with pytest.raises(AssertionError, match=complaint):
        check_no_text_leak(MutantGame(state_class), toy_v0.SPEC.encoders, games=5, seed=0)


def test_a_text_leak_names_the_game_the_moves_and_both_narrations() -> None:
    with pytest.raises(AssertionError) as raised:
        check_no_text_leak(MutantGame(NamesTheKeptCards), toy_v0.SPEC.encoders, games=5, seed=0)
    message = str(raised.value)
    assert message.startswith("toy: the action texts shown to player")
    assert re.search(r"game.new_state\(seed=\d+\) after \d+ plies, actions \[", message)
    first, second = re.findall(r"- in (.*): 'end', shown to player \d as '([^']*)'", message)
    assert first[0] == "the position" and second[0].startswith("resample_hidden(")
    assert first[1] != second[1] and "keeping" in first[1]
    assert "render(" in message and "pile:" in message


@pytest.mark.parametrize(
    ("state_class", "complaint"),
    [
        (TellsTheMoverSomethingElse, "for the mover, but the full text is"),
        (SetInEventData, "its data is not JSON-serialisable"),
    ],
)
def test_random_games_check_the_form_of_observer_texts_and_events(
    state_class: type[ToyState], complaint: str
) -> None:
    with pytest.raises(AssertionError, match=complaint):
        run_random_games(MutantGame(state_class), games=5, seed=0)


@pytest.mark.parametrize("check", ["random games", "text leak"])
@pytest.mark.parametrize("help_text", ["", "  \n", None])
def test_checks_demand_a_help_text(check: str, help_text: object) -> None:
    class Unhelpful(ToyGame):
        def help_text(self) -> str:
            return help_text  # type: ignore[return-value]

    with pytest.raises(AssertionError, match=r"toy: help_text\(\) = "):
        if check == "random games":
            run_random_games(Unhelpful(), games=1, seed=0)
        else:
            check_no_text_leak(Unhelpful(), toy_v0.SPEC.encoders, games=1, seed=0)
