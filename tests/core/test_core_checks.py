"""The generic checks pass on a correct game and catch each kind of broken one: a check
that cannot fail is worthless."""

from __future__ import annotations

import dataclasses
import functools
import random
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import toy_v0
from toy_game import ToyFlatEncoder, ToyGame, ToyState

from tabletop.envs.core import Event, IllegalActionError, State, TabletopAEC
from tabletop.envs.core.checks import (
    check_agent_never_peeks,
    check_clone_independence,
    check_env_random_play,
    check_no_leak,
    check_no_text_leak,
    check_notation,
    check_option_validation,
    check_seed_determinism,
    random_trajectories,
    run_random_games,
)
from tabletop.envs.core.playthrough import (
    REGENERATE,
    check_golden,
    check_playthrough,
    golden_options,
    read_header,
)
from tabletop.envs.core.spec import Payoff, frozen_options
from tabletop.envs.core.view import text_view


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
    """Deals from an unseeded generator: two deals of the same seed differ, though not
    always at the first ply (2 hands of 2 from 9 cards coincide once in 756 deals)."""

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


class ShowsEveryHandOnThePage(ToyState):
    def view(self, observer: int | None = None) -> dict[str, Any]:
        return {**text_view(self, None), "observer": observer}


class ViewWithoutMoves(ToyState):
    def view(self, observer: int | None = None) -> dict[str, Any]:
        page = text_view(self, observer)
        del page["moves"]
        return page


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


class DealsTheSameWhateverTheSeed(ToyState):
    def __init__(self, game: ToyGame, rng: random.Random) -> None:
        super().__init__(game, random.Random(0))


class CloneForgetsThePile(ToyState):
    def clone(self) -> ToyState:
        other = super().clone()
        other.pile = []
        return other


class ReadsTheNextCardNumber(ToyState):
    def string_to_action(self, text: str) -> int:
        action = super().string_to_action(text)
        return action + 1 if action < self.game.deck_size - 1 else action


class TakesAnyTextAsTheEnd(ToyState):
    def string_to_action(self, text: str) -> int:
        try:
            return super().string_to_action(text)
        except IllegalActionError:
            return self.game.end_action


class NamelessEnd(ToyState):
    def action_to_string(self, action: int, observer: int | None = None) -> str:
        if action == self.game.end_action and action not in self.legal_actions():
            return ""
        return super().action_to_string(action, observer)


class DrawsTheLowestCard(ToyState):
    def _draw_into(self, hand: list[int]) -> int:
        card = min(self.deck)
        self.deck.remove(card)
        hand.append(card)
        hand.sort()
        return card


class PeeksAtTheNextHand:
    """Picks its move by the next player's hidden cards."""

    def act(self, state: State, player: int) -> int:
        legal = state.legal_actions()
        next_hand = state.hands[(player + 1) % state.game.num_players]
        return legal[sum(next_hand) % len(legal)]


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


class AllOnesMask(TabletopAEC):
    def observe(self, agent: str) -> dict[str, np.ndarray]:
        observation = super().observe(agent)
        observation["action_mask"][:] = 1
        return observation


def all_ones_mask_env() -> AllOnesMask:
    raw = toy_v0.raw_env()
    return AllOnesMask(raw.game, raw.encoder, metadata=raw.metadata)


def test_env_check_catches_a_wrong_mask() -> None:
    with pytest.raises(AssertionError, match="mask"):
        check_env_random_play(all_ones_mask_env(), games=2, seed=0)


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
        (ShowsEveryHandOnThePage, r"changed what player . is shown \(view\)"),
        (ViewWithoutMoves, r"view lacks 'moves' \(view\(None\) at game.new_state"),
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


@pytest.mark.parametrize("num_players", [2, 3])
def test_seed_determinism_passes_on_the_toy(num_players: int) -> None:
    plies = check_seed_determinism(ToyGame(num_players=num_players), games=20, seed=0, chance=True)
    assert plies > 100


@pytest.mark.parametrize(
    ("state_class", "chance", "complaint"),
    [
        (
            IgnoresSeed,
            True,
            r"replaying the same seed and actions gave another game from ply \d+ on",
        ),
        (
            DealsTheSameWhateverTheSeed,
            True,
            "declared with chance, but 20 seeds all dealt the same",
        ),
        (ToyState, False, "declared without chance, but seeds deal differently"),
    ],
)
def test_seed_determinism_catches_games_the_seed_does_not_decide(
    state_class: type[ToyState], chance: bool, complaint: str
) -> None:
    with pytest.raises(AssertionError, match=complaint):
        check_seed_determinism(MutantGame(state_class), games=20, seed=0, chance=chance)


def test_clone_independence_passes_on_the_toy() -> None:
    assert check_clone_independence(ToyGame(num_players=3), games=20, seed=0) > 20


@pytest.mark.parametrize(
    ("state_class", "complaint"),
    [
        (ShallowClone, r"playing a clone taken at .* to its end changed the original"),
        (SharedRandomClone, "clone diverged"),
        (CloneForgetsThePile, "a clone looks unlike its original"),
    ],
)
def test_clone_independence_catches_clones_that_share_or_lose_state(
    state_class: type[ToyState], complaint: str
) -> None:
    with pytest.raises(AssertionError, match=complaint):
        check_clone_independence(MutantGame(state_class), games=20, seed=0)


def test_notation_passes_on_the_toy() -> None:
    assert check_notation(ToyGame(num_players=3), games=10, seed=0) > 50


@pytest.mark.parametrize(
    ("state_class", "complaint"),
    [
        (ReadsTheNextCardNumber, r"action \d+ -> 'play \d+' -> \d+"),
        (TakesAnyTextAsTheEnd, r"string_to_action\('\u00a7 not an action \u00a7'\) was accepted"),
        (NamelessEnd, r"action_to_string\(9\) = ''"),
    ],
)
def test_notation_catches_texts_that_do_not_round_trip(
    state_class: type[ToyState], complaint: str
) -> None:
    with pytest.raises(AssertionError, match=complaint):
        check_notation(MutantGame(state_class), games=10, seed=0)


def test_never_peeks_passes_on_the_toy_baseline_and_counts() -> None:
    report = check_agent_never_peeks(
        ToyGame(num_players=3), functools.partial(toy_v0.SPEC.heuristic, 0), games=10, seed=0
    )
    assert report.twins == 2 * report.decisions > 50
    assert report.hidden_differences > report.decisions


def test_never_peeks_decides_only_at_the_plies_asked() -> None:
    report = check_agent_never_peeks(
        ToyGame(), functools.partial(toy_v0.SPEC.heuristic, 0), games=10, seed=0, at_plies={0, 1}
    )
    assert report.decisions == 20  # every toy game lasts more than two plies


def test_never_peeks_catches_an_agent_that_reads_hidden_cards() -> None:
    with pytest.raises(AssertionError, match=r"toy: the agent peeks: for player \d it decides"):
        check_agent_never_peeks(ToyGame(), PeeksAtTheNextHand, games=5, seed=0)


def test_option_validation_passes_on_the_toy() -> None:
    check_option_validation(toy_v0.SPEC, toy_v0.env)


def test_option_validation_catches_an_env_that_swallows_or_misreports_options() -> None:
    def swallows(**options: object) -> object:
        return toy_v0.env()

    def misreports(**options: object) -> object:
        raise TypeError("bad options")

    with pytest.raises(AssertionError, match=r"make_env\(not_an_option=2\) was accepted"):
        check_option_validation(toy_v0.SPEC, swallows)
    with pytest.raises(AssertionError, match="raised TypeError instead of UnknownOptionError"):
        check_option_validation(toy_v0.SPEC, misreports)


@pytest.mark.parametrize(
    ("change", "complaint"),
    [
        ({"bench_options": ({"num_players": 2}, {})}, "bench settings repeat a game"),
        ({"max_players": 2}, r"bench setting \{'num_players': 3\} has 3 players, not 2-2"),
    ],
)
def test_option_validation_catches_bench_settings_that_do_not_fit(
    change: dict, complaint: str
) -> None:
    spec = dataclasses.replace(toy_v0.SPEC, **change)
    with pytest.raises(AssertionError, match=complaint):
        check_option_validation(spec, toy_v0.env)


def test_env_check_catches_returns_of_another_payoff_kind() -> None:
    """The toy's end penalties make it general-sum."""
    check_env_random_play(toy_v0.env(), games=5, seed=0, payoff=Payoff.GENERAL_SUM)
    with pytest.raises(AssertionError, match=r"payoff zero-sum, but the returns .* sum to"):
        check_env_random_play(toy_v0.env(), games=5, seed=0, payoff=Payoff.ZERO_SUM)
    with pytest.raises(AssertionError, match="payoff identical, but the seats' returns differ"):
        check_env_random_play(toy_v0.env(), games=5, seed=0, payoff=Payoff.IDENTICAL)


def test_random_trajectories_are_whole_games_drawn_from_the_seed() -> None:
    game = ToyGame(num_players=3)
    trajectories = random_trajectories(game, games=5, seed=0)
    assert trajectories == random_trajectories(game, games=5, seed=0)
    assert trajectories != random_trajectories(game, games=5, seed=1)
    assert len({trajectory.game_seed for trajectory in trajectories}) == 5
    for trajectory in trajectories:
        state = game.new_state(seed=trajectory.game_seed)
        for action in trajectory.actions:
            state.apply(action)
        assert state.is_terminal()


def test_checks_walk_every_position_of_the_trajectories_they_are_given() -> None:
    game = ToyGame(num_players=3)
    trajectories = random_trajectories(game, games=4, seed=2)
    plies = sum(len(trajectory.actions) for trajectory in trajectories)
    assert check_notation(game, games=trajectories, seed=0) == plies
    assert check_no_leak(game, ToyFlatEncoder(), games=trajectories, seed=0).states == plies + 4
    assert (
        check_no_text_leak(game, toy_v0.SPEC.encoders, games=trajectories, seed=0).states == plies
    )
    assert check_seed_determinism(game, games=trajectories, seed=0, chance=True) == plies + 4
    summary = check_env_random_play(toy_v0.env(num_players=3), games=trajectories, seed=0)
    assert summary.steps == plies + 3 * 4  # and a dead step for each agent


def test_a_trajectory_the_game_no_longer_plays_is_refused() -> None:
    trajectories = random_trajectories(ToyGame(), games=3, seed=0)
    with pytest.raises(AssertionError, match="replaying a recorded game: action"):
        check_notation(MutantGame(IgnoresSeed), games=trajectories, seed=0)


BROKEN_OVER_TRAJECTORIES = {
    "encoder leak": (
        ToyGame(),
        lambda game, games: check_no_leak(game, LeakyEncoder(), games=games, seed=0),
        "leaks hidden information",
    ),
    "text leak": (
        MutantGame(NamesTheKeptCards),
        lambda game, games: check_no_text_leak(game, toy_v0.SPEC.encoders, games=games, seed=0),
        "the action texts shown to player . leak hidden information",
    ),
    "notation": (
        MutantGame(ReadsTheNextCardNumber),
        lambda game, games: check_notation(game, games=games, seed=0),
        r"action \d+ -> 'play \d+' -> \d+",
    ),
    "seed": (
        MutantGame(DealsTheSameWhateverTheSeed),
        lambda game, games: check_seed_determinism(game, games=games, seed=0, chance=True),
        "declared with chance, but 20 seeds all dealt the same",
    ),
    "clones": (
        MutantGame(ShallowClone),
        lambda game, games: check_clone_independence(game, games=games, seed=0),
        "to its end changed the original",
    ),
    "masks": (
        ToyGame(),
        lambda game, games: check_env_random_play(all_ones_mask_env(), games=games, seed=0),
        "mask",
    ),
}
"""Broken engines (and an encoder and an env) of the tests above, and the check that
catches each, for the checks' walk over recorded games."""


@pytest.mark.parametrize("broken", sorted(BROKEN_OVER_TRAJECTORIES))
def test_checks_over_shared_trajectories_still_fail_on_broken_games(broken: str) -> None:
    """Recorded from the game under test, as the conformance suite records each setting's
    games once for all its checks."""
    game, check, complaint = BROKEN_OVER_TRAJECTORIES[broken]
    trajectories = random_trajectories(game, games=20, seed=0)
    with pytest.raises(AssertionError, match=complaint):
        check(game, trajectories)


def record_golden(monkeypatch: pytest.MonkeyPatch, game: ToyGame, path: Path) -> None:
    monkeypatch.setenv(REGENERATE, "1")
    check_playthrough(game, path, seed=7, action_seed=3)
    monkeypatch.delenv(REGENERATE)


@pytest.mark.parametrize(
    ("game", "options"),
    [
        (ToyGame(), {}),
        (ToyGame(num_players=3), {"num_players": 3}),
        (ToyGame(3, 12, 4), {"num_players": 3, "deck_size": 12, "hand_size": 4}),
    ],
    ids=["defaults", "bench setting", "keywords of the repr"],
)
def test_a_golden_file_names_its_game_and_seeds(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, game: ToyGame, options: dict
) -> None:
    path = tmp_path / "toy_seed7.txt"
    record_golden(monkeypatch, game, path)
    header = read_header(path)
    assert (header.game, header.seed, header.action_seed) == (repr(game), 7, 3)
    assert golden_options(toy_v0.SPEC, header) == options
    check_golden(toy_v0.SPEC, path)


class TitledToyGame(ToyGame):
    """A toy whose ``repr`` shows its deck by title, a form its ``deck`` option does not
    take (as a card game names its pool by version)."""

    def __init__(self, num_players: int = 2, deck_size: int = 9, deck: str = "plain") -> None:
        if deck != "plain":
            raise ValueError(f"toy: no deck {deck!r}")
        super().__init__(num_players, deck_size)

    def __repr__(self) -> str:
        return (
            f"TitledToyGame(num_players={self.num_players}, deck_size={self.deck_size}, "
            "deck='The Plain Deck 1.0')"
        )


def test_a_golden_file_of_options_beside_a_default_shown_by_title_replays(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    spec = dataclasses.replace(
        toy_v0.SPEC,
        game_class=TitledToyGame,
        options=frozen_options(num_players="players", deck_size="cards", deck="a deck name"),
    )
    path = tmp_path / "titled_seed7.txt"
    record_golden(monkeypatch, TitledToyGame(num_players=3, deck_size=12), path)
    assert golden_options(spec, read_header(path)) == {"num_players": 3, "deck_size": 12}
    check_golden(spec, path)
    record_golden(monkeypatch, TitledToyGame(deck_size=99), path)
    with pytest.raises(ValueError, match="no options build"):  # 99 cards: the toy refuses
        golden_options(dataclasses.replace(spec, game_class=_RefusesLargeDecks), read_header(path))


class _RefusesLargeDecks(TitledToyGame):
    def __init__(self, num_players: int = 2, deck_size: int = 9, deck: str = "plain") -> None:
        if deck_size > 50:
            raise ValueError("toy: at most 50 cards")
        super().__init__(num_players, deck_size, deck)


def test_golden_check_catches_a_game_that_plays_otherwise(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    path = tmp_path / "toy_seed7.txt"
    record_golden(monkeypatch, ToyGame(), path)
    changed = dataclasses.replace(
        toy_v0.SPEC, game_class=functools.partial(MutantGame, DrawsTheLowestCard)
    )
    with pytest.raises(
        AssertionError, match=r"toy_seed7\.txt: the game no longer plays as recorded"
    ):
        check_golden(changed, path)


def test_golden_files_that_cannot_be_replayed_are_refused(tmp_path: Path) -> None:
    unbuildable = tmp_path / "unbuildable.txt"
    unbuildable.write_text("game: ToyGame(deck_size=9000, colour='red')\nseed: 7\naction_seed: 1\n")
    with pytest.raises(ValueError, match=r"toy: no options build ToyGame\(deck_size=9000"):
        check_golden(toy_v0.SPEC, unbuildable)
    headless = tmp_path / "headless.txt"
    headless.write_text("--- ply 0\n")
    with pytest.raises(ValueError, match=r"headless\.txt: not a playthrough header"):
        read_header(headless)
