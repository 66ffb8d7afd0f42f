"""The generic checks pass on a correct game and catch each kind of broken one: a check
that cannot fail is worthless."""

from __future__ import annotations

import random

import numpy as np
import pytest
import toy_v0
from toy_game import ToyFlatEncoder, ToyGame, ToyState

from tabletop.envs.core import IllegalActionError, TabletopAEC
from tabletop.envs.core.checks import check_env_random_play, check_no_leak, run_random_games


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
