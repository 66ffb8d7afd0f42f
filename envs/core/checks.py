"""Generic checks that the conformance suite (tests/test_conformance.py) runs over every
registered game, and that game tests reuse with their own invariants.

They only use the protocol, so one well-tested implementation covers every game: random
play against the ``State`` contract (``run_random_games``), information leaks and blind
spots of an ``Encoder`` (``check_no_leak``), public facts it must show
(``check_public_facts_encoded``), leaks in what a player is shown of the moves
(``check_no_text_leak``: observer action texts, events, ``render(observer)`` and the
page's ``view(observer)``), the AEC
masks and rewards of the env built on top (``check_env_random_play``, ``check_payoff``),
agents that decide on what their player cannot see (``check_agent_never_peeks``),
determinizations that keep the card multisets a player knows (``check_known_multisets``),
options checked by name (``check_option_validation``), independent clones
(``check_clone_independence``), games decided by their seed (``check_seed_determinism``)
and action notation that round-trips (``check_notation``). Failures raise
``AssertionError`` with what is needed to reproduce them: the game seed and the actions
played.

The checks that walk random positions take ``games`` (``Games``) as a number of random
games of their own, or as recorded ``Trajectory``s (``random_trajectories``): a suite then
draws each game setting's games once, and those checks all look at the same positions.
"""

from __future__ import annotations

import json
import math
import random
import re
from collections import Counter
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Protocol

import numpy as np
from pettingzoo import AECEnv

from tabletop.envs.core.cards.zones import Table
from tabletop.envs.core.protocol import (
    TERMINAL,
    Encoder,
    Event,
    Game,
    IllegalActionError,
    State,
    UnknownOptionError,
)
from tabletop.envs.core.spec import PLAYERS_OPTION, GameSpec, Payoff
from tabletop.envs.core.view import check_view

CLONE_LOCKSTEP_PLIES = 8
"""How long a clone is played in lockstep with the original before it is dropped."""
UNKNOWN_ACTION_TEXT = "\u00a7 not an action \u00a7"
"""Text no game uses as action notation: ``string_to_action`` must reject it."""
EVENT_KIND = re.compile(r"[a-z][a-z0-9_]*")
"""What an ``Event.kind`` looks like: a snake_case word."""


@dataclass
class RandomPlaySummary:
    """What ``run_random_games`` saw, so that game tests can assert on outcomes."""

    plies: list[int] = field(default_factory=list)
    """Plies of each game."""
    returns: list[tuple[float, ...]] = field(default_factory=list)
    """Final ``returns()`` of each game."""
    stats: list[dict[str, float]] = field(default_factory=list)
    """Final ``stats()`` of each game."""

    @property
    def games(self) -> int:
        return len(self.plies)

    @property
    def total_plies(self) -> int:
        return sum(self.plies)

    def mean_returns(self) -> list[float]:
        """Mean final return of each player."""
        return [float(np.mean(column)) for column in zip(*self.returns, strict=True)]

    def outcomes(self) -> Counter[tuple[float, ...]]:
        """How often each tuple of final returns occurred."""
        return Counter(self.returns)


@dataclass
class LeakReport:
    """Counts from ``check_no_leak``, so that game tests can demand enough coverage."""

    states: int = 0
    resamples: int = 0
    playouts: int = 0
    sensitivity_trials: int = 0
    sensitivity_changes: int = 0

    @property
    def sensitivity(self) -> float:
        """Fraction of trials in which resampling for another player changed a player's
        encoding; 1.0 when there is nothing to test (one player)."""
        if not self.sensitivity_trials:
            return 1.0
        return self.sensitivity_changes / self.sensitivity_trials


@dataclass
class TextLeakReport:
    """Counts from ``check_no_text_leak``, so that game tests can demand enough coverage."""

    states: int = 0
    resamples: int = 0
    moves: int = 0
    """Moves played (on a position or on one of its resamples) and looked at."""
    comparisons: int = 0
    """Pairs of moves that looked the same to an observer, whose texts were compared."""
    off_turn_comparisons: int = 0
    """The comparisons made for an observer who was not the mover: the ones that can catch
    a hidden card or choice named in an action text or an event."""


@dataclass
class EnvPlaySummary:
    """What ``check_env_random_play`` saw."""

    episodes: int = 0
    steps: int = 0
    returns: list[dict[str, float]] = field(default_factory=list)
    """Each episode's summed step rewards per agent."""


def _where(game_seed: int, actions: Sequence[int]) -> str:
    """How to reproduce a failure: the seed and the actions up to it."""
    return f"game.new_state(seed={game_seed}) after {len(actions)} plies, actions {list(actions)}"


@dataclass(frozen=True)
class Trajectory:
    """One uniformly random game, recorded as its seed and actions (``random_trajectories``).

    The checks that walk random positions (``Games``) can be handed the same trajectories,
    so that a suite draws its games once per game setting and every check looks at the
    same positions: a failure in one check is then a position the others saw too."""

    game_seed: int
    actions: tuple[int, ...]


Games = int | Sequence[Trajectory]
"""What a check walks: that many random games of its own (drawn from its ``seed``, each move
drawn after the check has looked at the position), or recorded trajectories to replay."""


def random_trajectories(game: Game, *, games: int, seed: int) -> tuple[Trajectory, ...]:
    """``games`` uniformly random games of ``game``, played to their end and recorded."""
    rng = random.Random(seed)
    return tuple(
        Trajectory(position.game_seed, tuple(position.actions))
        for position in _positions(game, games, rng)
        if position.state.is_terminal()
    )


@dataclass(frozen=True)
class _Position:
    """A position a check walks through, and how it was reached: ``actions`` is the walk's
    own list, which grows once the check moves on (read ``where`` before that)."""

    state: State
    game_seed: int
    actions: list[int]

    @property
    def where(self) -> str:
        return _where(self.game_seed, self.actions)


def _positions(game: Game, games: Games, rng: random.Random) -> Iterator[_Position]:
    """Every position of ``games`` (the terminal ones included), in order. The state is the
    walk's own and is played on once the caller moves on: a check that plays a position
    itself plays a clone or a resample. Random games draw their seeds and moves from
    ``rng``, each move after the caller has looked at the position; recorded ones replay
    their seed and actions and leave ``rng`` to the check."""
    recorded: Sequence[Trajectory | None] = [None] * games if isinstance(games, int) else games
    for trajectory in recorded:
        game_seed = rng.getrandbits(32) if trajectory is None else trajectory.game_seed
        state = game.new_state(seed=game_seed)
        actions: list[int] = []
        while True:
            yield _Position(state, game_seed, actions)
            if state.is_terminal():
                break
            if trajectory is None:
                action = rng.choice(state.legal_actions())
            else:
                action = _recorded_action(state, trajectory, len(actions))
            state.apply(action)
            actions.append(action)


def _recorded_action(state: State, trajectory: Trajectory, ply: int) -> int:
    """The trajectory's action at ``ply``, which must still be legal there (the seed and
    the actions decide the game: ``check_seed_determinism``)."""
    where = _where(trajectory.game_seed, trajectory.actions[:ply])
    assert ply < len(trajectory.actions), f"the recorded game ended, this one did not: {where}"
    action = trajectory.actions[ply]
    assert action in state.legal_actions(), (
        f"replaying a recorded game: action {action} is not legal any more: {where}"
    )
    return action


def _snapshot(state: State) -> tuple[Any, ...]:
    """Everything observable through the protocol, to compare states for equality."""
    return (
        state.render(),
        state.current_player,
        state.legal_actions(),
        state.returns(),
        state.is_terminal(),
    )


def check_state_contract(state: State, where: str) -> list[int]:
    """The per-ply protocol checks; returns the legal actions."""
    game = state.game
    player, legal, terminal = state.current_player, state.legal_actions(), state.is_terminal()
    assert terminal == (player == TERMINAL), (
        f"is_terminal() {terminal} but player {player}: {where}"
    )
    assert terminal or 0 <= player < game.num_players, f"current_player {player}: {where}"
    assert bool(legal) != terminal, f"legal actions {legal} when terminal={terminal}: {where}"
    assert legal == sorted(set(legal)), f"legal actions not sorted and unique {legal}: {where}"
    assert all(0 <= a < game.num_actions for a in legal), f"legal out of range {legal}: {where}"
    _check_round_trip(state, legal, where)
    assert len(state.rewards()) == len(state.returns()) == game.num_players, where
    return legal


def check_views(state: State, where: str) -> None:
    """Every observer's ``view`` (and the spectator's) has the page's format."""
    for observer in (None, *range(state.game.num_players)):
        check_view(state.view(observer), f"view({observer}) at {where}")


def _check_round_trip(state: State, legal: list[int], where: str) -> None:
    """Each legal action's full text reads back as that action."""
    for action in legal:
        text = state.action_to_string(action)
        try:
            back = state.string_to_action(text)
        except IllegalActionError as error:
            raise AssertionError(f"action {action} -> {text!r} was refused: {where}") from error
        assert back == action, f"action {action} -> {text!r} -> {back}: {where}"


def _check_illegal_actions_rejected(state: State, rng: random.Random, where: str) -> None:
    """Illegal and out-of-range ids and unknown text raise ``IllegalActionError`` and
    leave the state exactly as it was."""
    legal = set(state.legal_actions())
    in_range_illegal = [a for a in range(state.game.num_actions) if a not in legal]
    probes = [
        -1,
        state.game.num_actions,
        *rng.sample(in_range_illegal, min(1, len(in_range_illegal))),
    ]
    before = _snapshot(state)
    for action in probes:
        _assert_raises_illegal(partial(state.apply, action), f"apply({action})", where)
        assert _snapshot(state) == before, f"rejected action {action} changed the state: {where}"
    _assert_raises_illegal(
        partial(state.string_to_action, UNKNOWN_ACTION_TEXT),
        f"string_to_action({UNKNOWN_ACTION_TEXT!r})",
        where,
    )


def _assert_raises_illegal(call: Callable[[], object], described: str, where: str) -> None:
    try:
        call()
    except IllegalActionError:
        return
    except Exception as error:
        raise AssertionError(
            f"{described} raised {type(error).__name__} instead of IllegalActionError: {where}"
        ) from error
    raise AssertionError(f"{described} was accepted: {where}")


def _check_action_texts(state: State, where: str) -> None:
    """Every id in the action space has a readable text, legal now or not (error messages
    and logs name illegal actions too)."""
    for action in range(state.game.num_actions):
        text = state.action_to_string(action)
        assert isinstance(text, str) and text, f"action_to_string({action}) = {text!r}: {where}"


def check_help_text(game: Game) -> None:
    """``game.help_text()`` is a non-empty string."""
    text = game.help_text()
    assert isinstance(text, str) and text.strip(), f"{game.name}: help_text() = {text!r}"


def check_observer_texts(state: State, where: str) -> None:
    """The observer texts of every legal action are single non-empty lines, and the mover
    is shown the full notation."""
    mover, name = state.current_player, state.game.name
    for action in state.legal_actions():
        full = state.action_to_string(action)
        for observer in range(state.game.num_players):
            text = state.action_to_string(action, observer)
            assert isinstance(text, str) and text and "\n" not in text, (
                f"{name}: action_to_string({action}, {observer}) = {text!r} is not one line: "
                f"{where}"
            )
            assert observer != mover or text == full, (
                f"{name}: action_to_string({action}, {mover}) = {text!r} for the mover, but the "
                f"full text is {full!r}: {where}"
            )


def check_events(state: State, where: str) -> None:
    """``last_events`` for every observer (and ``None``) is a list of ``Event`` with a
    snake_case kind, one line of text and JSON-serialisable data."""
    for observer in (None, *range(state.game.num_players)):
        events = state.last_events(observer)
        named = f"{state.game.name}: last_events({observer})"
        assert isinstance(events, list), f"{named} = {events!r}, not a list: {where}"
        for event in events:
            problem = _event_problem(event)
            assert problem is None, f"{named} gave {event!r}: {problem}: {where}"


def _event_problem(event: Event) -> str | None:
    """What is wrong with the form of ``event``, if anything."""
    if not isinstance(event, Event):
        return "not an Event"
    if not isinstance(event.kind, str) or not EVENT_KIND.fullmatch(event.kind):
        return "its kind is not a snake_case word"
    if not isinstance(event.text, str) or not event.text or "\n" in event.text:
        return "its text is not one non-empty line"
    if not isinstance(event.data, dict) or not all(isinstance(key, str) for key in event.data):
        return "its data is not a dict with string keys"
    try:
        json.dumps(event.data, allow_nan=False)
    except (TypeError, ValueError) as error:
        return f"its data is not JSON-serialisable ({error})"
    return None


def run_random_games(
    game: Game,
    *,
    games: int,
    seed: int,
    max_plies: int = 100_000,
    invariant: Callable[[State], None] | None = None,
    deep_check_fraction: float = 0.2,
) -> RandomPlaySummary:
    """Play ``games`` uniformly random games and check the ``State`` contract at every ply.

    Every ply: current player, legal actions (non-empty exactly when not terminal, sorted,
    unique, in range), action text round trips, ``invariant(state)`` if given. At a
    ``deep_check_fraction`` of plies: illegal actions are rejected without side effects,
    the observer texts, the views and the events of the move have their form
    (``check_observer_texts``, ``check_views``, ``check_events``), and a clone is played
    in lockstep for a few plies (it must behave identically and independently). Each game
    must end within ``max_plies`` and its ``returns()`` must equal the sum of its
    ``rewards()``; the first game (and a fraction of the others) is replayed from its seed
    and must come out identical. ``help_text()`` is checked once.
    """
    check_help_text(game)
    rng = random.Random(seed)
    summary = RandomPlaySummary()
    for index in range(games):
        game_seed = rng.getrandbits(32)
        state, actions = _play_checked_game(
            game, game_seed, rng, max_plies, invariant, deep_check_fraction
        )
        if index == 0 or rng.random() < deep_check_fraction:
            _check_replay(game, game_seed, actions, state)
        summary.plies.append(len(actions))
        summary.returns.append(tuple(state.returns()))
        summary.stats.append(state.stats())
    return summary


def _play_checked_game(
    game: Game,
    game_seed: int,
    rng: random.Random,
    max_plies: int,
    invariant: Callable[[State], None] | None,
    deep_check_fraction: float,
) -> tuple[State, list[int]]:
    state = game.new_state(seed=game_seed)
    assert state.game.num_players == game.num_players, "state.game is not the game"
    assert not any(state.rewards()), f"rewards before the first apply: {state.rewards()}"
    actions: list[int] = []
    totals = [0.0] * game.num_players
    clone: State | None = None
    clone_plies = 0
    while True:
        where = _where(game_seed, actions)
        legal = check_state_contract(state, where)
        if invariant is not None:
            invariant(state)
        if state.is_terminal():
            break
        assert len(actions) < max_plies, f"no end within {max_plies} plies: {where}"
        deep = rng.random() < deep_check_fraction
        if deep:
            _check_illegal_actions_rejected(state, rng, where)
            _check_action_texts(state, where)
            check_observer_texts(state, where)
            check_views(state, where)
            if clone is None:
                clone, clone_plies = state.clone(), 0
        action = rng.choice(legal)
        state.apply(action)
        actions.append(action)
        if deep:
            check_events(state, _where(game_seed, actions))
        totals = [total + reward for total, reward in zip(totals, state.rewards(), strict=True)]
        if clone is not None:
            _check_clone_follows(clone, state, action, where)
            clone_plies += 1
            clone = clone if clone_plies < CLONE_LOCKSTEP_PLIES else None
    for player, (total, final) in enumerate(zip(totals, state.returns(), strict=True)):
        assert math.isclose(total, final, abs_tol=1e-9), (
            f"player {player}: returns() {final} != sum of rewards() {total}: {where}"
        )
    return state, actions


def _check_clone_follows(clone: State, state: State, action: int, where: str) -> None:
    """``action`` was just applied to ``state``; the clone must accept it and end up alike."""
    try:
        clone.apply(action)
    except Exception as error:
        raise AssertionError(f"clone diverged: it rejected {action}: {where}") from error
    assert _snapshot(clone) == _snapshot(state), f"clone diverged after {action}: {where}"
    assert clone.rewards() == state.rewards(), f"clone rewards differ after {action}: {where}"


def _check_replay(game: Game, game_seed: int, actions: list[int], played: State) -> None:
    """The same seed and the same actions must give the same game."""
    replay = game.new_state(seed=game_seed)
    complaint = (
        f"replaying the same seed and actions gave another game: {_where(game_seed, actions)}"
    )
    for action in actions:
        try:
            replay.apply(action)
        except IllegalActionError as error:
            raise AssertionError(f"{complaint} ({action} was rejected)") from error
    assert _snapshot(replay) == _snapshot(played), complaint


def check_no_leak(
    game: Game,
    encoder: Encoder,
    *,
    games: Games,
    seed: int,
    samples_per_state: int = 2,
    playout_fraction: float = 0.1,
    min_sensitivity: float = 0.25,
) -> LeakReport:
    """The encoder reads only what each player may see, and does read what they see.

    At every state of ``games`` (random games, or recorded ones), for each player ``p``:
    ``state.resample_hidden(p, rng)`` re-draws what ``p`` cannot see, so ``p``'s encoding
    must not change (else it leaks); the resampled state must be valid (same player to move,
    same legal actions if ``p`` moves, and a ``playout_fraction`` of them are played out to
    the end under the state checks). With several players, resampling for another player
    re-draws things ``p`` does see (``p``'s own hand), so ``p``'s encoding must change in at
    least ``min_sensitivity`` of those trials, else the encoder is blind to them.
    """
    rng = random.Random(seed)
    report = LeakReport()
    for position in _positions(game, games, rng):
        _check_resamples(
            position.state,
            encoder,
            rng,
            samples_per_state,
            playout_fraction,
            report,
            position.where,
        )
    assert report.sensitivity >= min_sensitivity, (
        f"encoder {encoder.name!r} v{encoder.version} looks blind: resampling another "
        f"player's hidden information changed a player's own encoding in only "
        f"{report.sensitivity_changes}/{report.sensitivity_trials} trials "
        f"(< {min_sensitivity:.0%}); does it encode the player's own hidden cards?"
    )
    return report


def _check_resamples(
    state: State,
    encoder: Encoder,
    rng: random.Random,
    samples_per_state: int,
    playout_fraction: float,
    report: LeakReport,
    where: str,
) -> None:
    players = range(state.game.num_players)
    report.states += 1
    for player in players:
        seen = _encoding(encoder, state, player, where)
        for _ in range(samples_per_state):
            resampled = state.resample_hidden(player, rng)
            report.resamples += 1
            _assert_same_view(encoder, seen, resampled, player, where)
            _check_resampled_state(state, resampled, player, where)
            if rng.random() < playout_fraction:
                _check_playout(state, resampled, rng, f"a resample at {where}")
                report.playouts += 1
        others = [q for q in players if q != player]
        if others:
            other_view = state.resample_hidden(rng.choice(others), rng)
            report.sensitivity_trials += 1
            changed = not np.array_equal(encoder.encode(other_view, player), seen)
            report.sensitivity_changes += changed


def _encoding(encoder: Encoder, state: State, player: int, where: str) -> np.ndarray:
    encoding = encoder.encode(state, player)
    expected = tuple(encoder.shape(state.game))
    assert isinstance(encoding, np.ndarray), f"encode returned {type(encoding)}: {where}"
    assert encoding.shape == expected, f"encoding shape {encoding.shape} != {expected}: {where}"
    assert encoding.dtype == np.float32, f"encoding dtype {encoding.dtype}: {where}"
    assert np.isfinite(encoding).all(), f"non-finite encoding for player {player}: {where}"
    return encoding


def _assert_same_view(
    encoder: Encoder, seen: np.ndarray, resampled: State, player: int, where: str
) -> None:
    after = encoder.encode(resampled, player)
    if np.array_equal(after, seen):
        return
    differing = np.flatnonzero(after.reshape(-1) != seen.reshape(-1))
    shown = differing[:20].tolist()
    raise AssertionError(
        f"encoder {encoder.name!r} v{encoder.version} leaks hidden information: "
        f"resample_hidden({player}) changed player {player}'s encoding at flat indices "
        f"{shown}{' ...' if len(differing) > 20 else ''} "
        f"(before {seen.reshape(-1)[shown].tolist()}, after {after.reshape(-1)[shown].tolist()})"
        f": {where}\nplayer's view:\n{resampled.render(player)}"
    )


def _check_resampled_state(state: State, resampled: State, player: int, where: str) -> None:
    assert resampled is not state, f"resample_hidden returned the state itself: {where}"
    assert resampled.current_player == state.current_player, (
        f"resample_hidden({player}) changed the player to move: {where}"
    )
    if player == state.current_player:
        assert resampled.legal_actions() == state.legal_actions(), (
            f"resample_hidden({player}) changed the mover's legal actions: {where}"
        )


def _check_playout(original: State, copy: State, rng: random.Random, described: str) -> None:
    """Play ``copy`` (a clone or a resample of ``original``, as ``described``) out at random
    under the state checks; the original must not be affected, what any player sees of it
    included."""
    before = _full_view(original)
    plies = 0
    while legal := check_state_contract(copy, f"playout of {described}"):
        copy.apply(rng.choice(legal))
        plies += 1
        assert plies <= 100_000, f"{described} never ends"
    assert _full_view(original) == before, f"playing {described} to its end changed the original"


def _full_view(state: State) -> tuple[Any, ...]:
    """``_snapshot`` and what each player is shown, rewards and events included."""
    players = range(state.game.num_players)
    return (
        _snapshot(state),
        tuple(state.render(player) for player in players),
        tuple(state.rewards()),
        state.last_events(None),
    )


def check_no_text_leak(
    game: Game,
    encoders: Mapping[str, Encoder],
    *,
    games: Games,
    seed: int,
    resamples_per_state: int = 2,
    actions_per_state: int = 4,
) -> TextLeakReport:
    """What a player is shown of the moves reveals nothing they cannot see otherwise.

    At every state ``s`` of ``games`` (random games, or recorded ones), for each observer
    ``o``: each of ``resamples_per_state`` states ``s' = s.resample_hidden(o, rng)`` must
    show ``o`` the same (``render(o)``, ``view(o)`` and the encodings of all ``encoders``,
    e.g. a game module's ``ENCODERS``). Then ``actions_per_state`` legal moves ``a`` of ``s``
    are played, and in each ``s'`` the same ids where legal (plus as many others when ``o``
    is not the mover); whenever two of them look the same to ``o`` (the same view after the
    move, and the same id if ``o`` is the mover, who knows their choice),
    ``action_to_string(a, o)`` must equal ``action_to_string(a', o)`` and ``last_events(o)``
    must be equal too. So a hidden card
    or choice named in an observer text or an event is caught, and so is a fact an event
    states that ``o`` could not see in ``render(o)`` or an encoding.

    Every state also passes ``check_state_contract`` (the full texts round-trip),
    ``check_observer_texts`` and ``check_views``, every move ``check_events``, the game
    ``check_help_text``; a new state has no events.
    """
    assert encoders, "check_no_text_leak needs the game's encoders"
    check_help_text(game)
    rng = random.Random(seed)
    report = TextLeakReport()
    for position in _positions(game, games, rng):
        state, where = position.state, position.where
        if position.actions:
            check_events(state, where)
        else:
            _check_no_events_yet(state, where)
        if state.is_terminal():
            continue
        check_state_contract(state, where)
        check_observer_texts(state, where)
        check_views(state, where)
        report.states += 1
        for observer in range(game.num_players):
            moves = _ShownMoves(state, observer, encoders, where, report)
            moves.compare(rng, resamples_per_state, actions_per_state)
    return report


def _check_no_events_yet(state: State, where: str) -> None:
    """Nothing has happened in a new state: no observer is told of an event."""
    for observer in (None, *range(state.game.num_players)):
        assert state.last_events(observer) == [], (
            f"{state.game.name}: last_events({observer}) of a new state: "
            f"{state.last_events(observer)}: {where}"
        )


@dataclass(frozen=True)
class _ShownMove:
    """One move as an observer is shown it, and what they see of the position after it."""

    label: str
    """Which position it was played in, for failure messages."""
    full_text: str
    shown_text: str
    events: list[Event]
    view_after: tuple[Any, ...]


class _ShownMoves:
    """The moves of one state and of its resamples for one observer, grouped by how they
    look to the observer: within a group, the texts and events must be equal."""

    def __init__(
        self,
        state: State,
        observer: int,
        encoders: Mapping[str, Encoder],
        where: str,
        report: TextLeakReport,
    ) -> None:
        self.state = state
        self.observer = observer
        self.encoders = encoders
        self.where = where
        self.report = report
        self.off_turn = observer != state.current_player
        self.seen = self._view(state)
        self.page = self._page(state)
        self.groups: dict[tuple[Any, ...], _ShownMove] = {}

    def compare(self, rng: random.Random, resamples: int, actions: int) -> None:
        legal = self.state.legal_actions()
        picked = rng.sample(legal, min(actions, len(legal)))
        self._play(self.state, picked, "the position")
        for number in range(1, resamples + 1):
            resampled = self.state.resample_hidden(self.observer, rng)
            self.report.resamples += 1
            label = f"resample_hidden({self.observer}) #{number} of the position"
            self._assert_looks_the_same(resampled, label)
            legal_there = resampled.legal_actions()
            tried = [a for a in picked if a in legal_there]
            if self.off_turn:
                others = [a for a in legal_there if a not in picked]
                tried += rng.sample(others, min(actions, len(others)))
            self._play(resampled, tried, label)

    def _view(self, state: State) -> tuple[Any, ...]:
        """What the observer is shown of ``render`` and every encoding (``+ 0.0`` turns a
        -0.0 into 0.0, which compare equal but differ in bytes): what tells moves apart."""
        encodings = tuple(
            (encoder.encode(state, self.observer) + np.float32(0.0)).tobytes()
            for encoder in self.encoders.values()
        )
        return (state.render(self.observer), encodings)

    def _page(self, state: State) -> str:
        """The page's ``view``, which shows what ``render`` does: compared between a
        position and its resamples only (a per-move copy would add nothing but time)."""
        return json.dumps(state.view(self.observer))

    def _assert_looks_the_same(self, resampled: State, label: str) -> None:
        view = (*self._view(resampled), self._page(resampled))
        if view == (*self.seen, self.page):
            return
        shown = "render" if view[0] != self.seen[0] else "encoding"
        shown = "view" if view[:2] == self.seen else shown
        changed = [
            name
            for name, before, after in zip(self.encoders, self.seen[1], view[1], strict=True)
            if before != after
        ]
        raise AssertionError(
            f"{self.state.game.name}: {label} changed what player {self.observer} is shown "
            f"({shown}{'' if not changed else f', encoders {changed}'}): {self.where}\n"
            f"render({self.observer}) before:\n{self.seen[0]}\nafter:\n{view[0]}"
        )

    def _play(self, variant: State, actions: list[int], label: str) -> None:
        mover = variant.current_player
        for action in actions:
            after = variant.clone()
            after.apply(action)
            move = _ShownMove(
                label,
                variant.action_to_string(action),
                variant.action_to_string(action, self.observer),
                after.last_events(self.observer),
                self._view(after),
            )
            self.report.moves += 1
            key = (move.view_after, action if mover == self.observer else None)
            first = self.groups.setdefault(key, move)
            if first is not move:
                self._assert_same_narration(first, move)

    def _assert_same_narration(self, first: _ShownMove, other: _ShownMove) -> None:
        self.report.comparisons += 1
        self.report.off_turn_comparisons += self.off_turn
        if (first.shown_text, first.events) == (other.shown_text, other.events):
            return
        what = "action texts" if first.shown_text != other.shown_text else "events"
        observer = self.observer
        raise AssertionError(
            f"{self.state.game.name}: the {what} shown to player {observer} leak hidden "
            f"information: two moves look the same to player {observer} (same render({observer}) "
            f"and encodings {sorted(self.encoders)} before and after) but are narrated "
            f"differently: {self.where}\n"
            f"{_narration(first, observer)}\n{_narration(other, observer)}\n"
            f"Either a narration names what player {observer} cannot see, or it states a "
            f"public fact that neither render({observer}) nor the encodings show (then show "
            f"it there). render({observer}) after either move:\n{first.view_after[0]}"
        )


def _narration(move: _ShownMove, observer: int) -> str:
    events = "; ".join(f"{e.kind}: {e.text!r} {e.data}" for e in move.events) or "none"
    return (
        f"- in {move.label}: {move.full_text!r}, shown to player {observer} as "
        f"{move.shown_text!r}, events: {events}"
    )


def check_env_random_play(
    env: AECEnv, *, games: Games, seed: int, payoff: Payoff | None = None
) -> EnvPlaySummary:
    """Random AEC episodes through ``env`` (wrapped or raw), or recorded games replayed
    through it (``reset`` to their seed): every mask from ``last()`` equals the engine's
    legal actions for the agent to move and is all zeros for the others, observations lie
    in their spaces, every agent takes a dead step, and each agent's summed step rewards
    equal the engine's ``returns()`` on termination. With a ``payoff`` (the game's
    ``SPEC.payoff``), each episode's summed rewards must be of that kind: equal for every
    agent, or summing to zero."""
    rng = np.random.default_rng(seed)
    summary = EnvPlaySummary()
    recorded: Sequence[Trajectory | None] = [None] * games if isinstance(games, int) else games
    for episode, trajectory in enumerate(recorded):
        episode_seed = seed + episode if trajectory is None else trajectory.game_seed
        env.reset(seed=episode_seed)
        moves = iter(() if trajectory is None else trajectory.actions)
        totals = dict.fromkeys(env.agents, 0.0)
        finished: set[str] = set()
        for agent in env.agent_iter():
            observation, _, termination, truncation, _ = env.last()
            assert env.observation_space(agent).contains(observation), f"{agent}: out of space"
            if termination or truncation:
                assert not observation["action_mask"].any(), f"{agent}: mask after the end"
                finished.add(agent)
                action = None
            else:
                legal = _check_live_turn(env, agent, observation)
                action = legal[rng.integers(len(legal))] if trajectory is None else next(moves)
                assert action in legal, f"{agent}: the recorded action {action} is not legal"
            env.step(action)
            summary.steps += 1
            for name, reward in env.rewards.items():
                totals[name] += reward
        assert finished == set(env.possible_agents), f"dead steps taken only by {finished}"
        _check_episode_returns(env, totals)
        if payoff is not None:
            check_payoff(list(totals.values()), payoff, f"the episode of seed {episode_seed}")
        summary.episodes += 1
        summary.returns.append(totals)
    return summary


def _check_live_turn(env: AECEnv, agent: str, observation: dict[str, np.ndarray]) -> list[int]:
    """Checks the masks of the agent to move and of everyone else; returns the legal
    actions."""
    state = env.unwrapped.game_state
    assert env.possible_agents[state.current_player] == agent, (
        f"agent_selection {agent} but the engine's player is {state.current_player}"
    )
    legal = np.flatnonzero(observation["action_mask"]).tolist()
    assert legal == state.legal_actions(), f"{agent}: mask {legal} != {state.legal_actions()}"
    for other in env.agents:
        if other != agent:
            assert not env.observe(other)["action_mask"].any(), f"{other}: mask off turn"
    return legal


def check_payoff(returns: Sequence[float], payoff: Payoff, where: str) -> None:
    """``returns`` (one per seat) are of the declared kind: equal for a cooperative game,
    summing to zero for a zero-sum one; anything goes for general-sum."""
    if payoff is Payoff.IDENTICAL:
        assert all(math.isclose(r, returns[0], abs_tol=1e-9) for r in returns), (
            f"payoff {payoff.value}, but the seats' returns differ: {list(returns)}: {where}"
        )
    elif payoff is Payoff.ZERO_SUM:
        assert math.isclose(sum(returns), 0.0, abs_tol=1e-9), (
            f"payoff {payoff.value}, but the returns {list(returns)} sum to {sum(returns)}: {where}"
        )


def _check_episode_returns(env: AECEnv, totals: dict[str, float]) -> None:
    state = env.unwrapped.game_state
    if not state.is_terminal():  # truncated or forfeited: the engine's game did not end
        return
    for agent, engine_return in zip(env.possible_agents, state.returns(), strict=True):
        assert math.isclose(totals[agent], engine_return, abs_tol=1e-9), (
            f"{agent}: step rewards sum to {totals[agent]}, engine returns {engine_return}"
        )


def check_seed_determinism(game: Game, *, games: Games, seed: int, chance: bool) -> int:
    """The seed decides the game: ``games`` (random games, or recorded ones) are replayed
    from their seed and actions and must match ply by ply (positions, every player's view,
    rewards, events). With ``chance`` (``SPEC.chance``) some two seeds must deal different
    games; without it, every seed deals the same one. Returns the plies compared."""
    deals: list[str] = []
    compared = 0
    played: list[tuple[Any, ...]] = []
    for position in _positions(game, games, random.Random(seed)):
        state = position.state
        if not position.actions:
            deals.append(state.render())
            played = []
        played.append(_full_view(state))
        if state.is_terminal():
            _check_replay_views(game, position.game_seed, list(position.actions), played)
            compared += len(played)
    if chance:
        assert len(deals) < 2 or len(set(deals)) > 1, (
            f"{game.name}: declared with chance, but {len(deals)} seeds all dealt the same game"
        )
    else:
        assert len(set(deals)) == 1, (
            f"{game.name}: declared without chance, but seeds deal differently"
        )
    return compared


def _check_replay_views(
    game: Game, game_seed: int, actions: list[int], played: list[tuple[Any, ...]]
) -> None:
    replay = game.new_state(seed=game_seed)
    for ply, view in enumerate(played):
        if _full_view(replay) != view:
            raise AssertionError(
                f"{game.name}: replaying the same seed and actions gave another game from ply "
                f"{ply} on: {_where(game_seed, actions[:ply])}"
            )
        if ply < len(actions):
            replay.apply(actions[ply])


def check_clone_independence(
    game: Game, *, games: Games, seed: int, clone_fraction: float = 0.2
) -> int:
    """A clone is a separate game with its own generator. At a ``clone_fraction`` of the
    plies of ``games`` (random games, or recorded ones), a clone looks exactly like the
    original, playing it to its end leaves the original as it was, and a second clone given
    the original's next action (its chance included) ends up identical to the original.
    Returns the clones made."""
    rng = random.Random(seed)
    clones = 0
    follower: tuple[State, str] | None = None
    for position in _positions(game, games, rng):
        state = position.state
        if follower is not None:
            _check_clone_follows(follower[0], state, position.actions[-1], follower[1])
            follower = None
        if not state.is_terminal() and rng.random() < clone_fraction:
            _check_clone_playout(state, rng, position.where)
            follower, clones = (state.clone(), position.where), clones + 2
    return clones


def _check_clone_playout(state: State, rng: random.Random, where: str) -> None:
    clone = state.clone()
    assert clone is not state, f"clone() returned the state itself: {where}"
    assert _full_view(clone) == _full_view(state), f"a clone looks unlike its original: {where}"
    _check_playout(state, clone, rng, f"a clone taken at {where}")


def check_notation(game: Game, *, games: Games, seed: int) -> int:
    """Action notation round-trips, at every position of ``games`` (random games, or
    recorded ones): every id in the action space has a text, each legal action's text reads
    back as that action (so no two legal actions share a text), and a text that names no
    action is refused with ``IllegalActionError``. Returns the positions checked."""
    positions = 0
    for position in _positions(game, games, random.Random(seed)):
        state, where = position.state, position.where
        if state.is_terminal():
            continue
        _check_action_texts(state, where)
        _check_round_trip(state, state.legal_actions(), where)
        _assert_raises_illegal(
            partial(state.string_to_action, UNKNOWN_ACTION_TEXT),
            f"string_to_action({UNKNOWN_ACTION_TEXT!r})",
            where,
        )
        positions += 1
    return positions


class Decides(Protocol):
    """What ``check_agent_never_peeks`` needs of an agent. ``tabletop.agents.Agent`` has it;
    the core does not import the agents layer, which is built on top of it."""

    def act(self, state: State, player: int) -> int: ...


@dataclass
class PeekReport:
    """Counts from ``check_agent_never_peeks``, so that tests can demand enough coverage."""

    decisions: int = 0
    """Positions at which the agent's decision was compared with its decisions in twins."""
    twins: int = 0
    hidden_differences: int = 0
    """Twins whose full ``render()`` differed from the position's: the ones that could
    catch a peek."""


def check_agent_never_peeks(
    game: Game,
    new_agent: Callable[[], Decides],
    *,
    games: int,
    seed: int,
    twins: int = 2,
    at_plies: Collection[int] | None = None,
) -> PeekReport:
    """An agent decides for a player only on what that player may see.

    In ``games`` games, at every ply (or at the plies in ``at_plies``), a fresh
    ``new_agent()`` decides for the mover in the position and in each of ``twins``
    determinizations ``state.resample_hidden(mover, rng)``, which the mover cannot tell
    from it: the decisions must be equal. A fresh agent for each decision, so that a seeded
    agent searches from the same seed and no memory differs. At a checked ply the game goes
    on with the agent's decision, except that in game ``g`` seat ``g % num_players`` plays at
    random when there are several players, so that the positions are not only those the
    agent steers to; plies not checked are played at random.
    """
    rng = random.Random(seed)
    report = PeekReport()
    for index in range(games):
        game_seed = rng.getrandbits(32)
        state = game.new_state(seed=game_seed)
        random_seat = index % game.num_players if game.num_players > 1 else None
        actions: list[int] = []
        while not state.is_terminal():
            action = rng.choice(state.legal_actions())
            if at_plies is None or len(actions) in at_plies:
                where = _where(game_seed, actions)
                decided = _check_same_decision(state, new_agent, twins, rng, report, where)
                action = action if state.current_player == random_seat else decided
            state.apply(action)
            actions.append(action)
    return report


def _check_same_decision(
    state: State,
    new_agent: Callable[[], Decides],
    twins: int,
    rng: random.Random,
    report: PeekReport,
    where: str,
) -> int:
    """The agent's decision for the mover, the same in the position and in its twins."""
    mover = state.current_player
    decided = new_agent().act(state, mover)
    report.decisions += 1
    for number in range(1, twins + 1):
        twin = state.resample_hidden(mover, rng)
        report.twins += 1
        report.hidden_differences += twin.render() != state.render()
        other = new_agent().act(twin, mover)
        if other != decided:
            raise AssertionError(
                f"{state.game.name}: the agent peeks: for player {mover} it decides "
                f"{state.action_to_string(decided)!r} in the position but "
                f"{twin.action_to_string(other)!r} in resample_hidden({mover}) #{number}, which "
                f"player {mover} cannot tell apart from it: {where}\n"
                f"render({mover}):\n{state.render(mover)}"
            )
    return decided


UNKNOWN_OPTION = "not_an_option"
"""An option name no game declares: building a game or env with it must fail, naming it."""


def check_option_validation(spec: GameSpec, make_env: Callable[..., AECEnv]) -> None:
    """Options are checked by name, by ``spec.new_game`` and by ``make_env`` (the game's
    env constructor, e.g. ``functools.partial(envs.make, name)``): an undeclared name (and
    ``num_players`` for a game whose player count is fixed) is refused with an
    ``UnknownOptionError`` that names it. The declared defaults, given explicitly, build the
    same game as no options (``repr`` names the configuration); each bench setting builds a
    game of its own, with a player count in the declared range."""
    undeclared = [UNKNOWN_OPTION] + [PLAYERS_OPTION] * (PLAYERS_OPTION not in spec.options)
    for name in undeclared:
        for builder, described in ((spec.new_game, "SPEC.new_game"), (make_env, "make_env")):
            _assert_refuses_option(builder, name, f"{spec.name}: {described}({name}=2)")
    defaults = {option.name: option.default for option in spec.option_specs}
    explicit, implicit = repr(spec.new_game(**defaults)), repr(spec.new_game())
    assert explicit == implicit, (
        f"{spec.name}: the declared defaults {defaults} build {explicit}, no options {implicit}"
    )
    bench_games = [repr(spec.new_game(**options)) for options in spec.bench_options]
    assert len(set(bench_games)) == len(bench_games), f"{spec.name}: bench settings repeat a game"
    for options in spec.bench_options:
        players = spec.new_game(**options).num_players
        assert spec.min_players <= players <= spec.max_players, (
            f"{spec.name}: bench setting {dict(options)} has {players} players, not "
            f"{spec.min_players}-{spec.max_players}"
        )


def _assert_refuses_option(build: Callable[..., object], name: str, described: str) -> None:
    try:
        build(**{name: 2})
    except UnknownOptionError as error:
        assert name in error.unknown and repr(name) in str(error), (
            f"{described} was refused without naming {name!r}: {error}"
        )
        return
    except Exception as error:
        raise AssertionError(
            f"{described} raised {type(error).__name__} instead of UnknownOptionError: {error}"
        ) from error
    raise AssertionError(f"{described} was accepted")


class CardMemory:
    """Which card instances of a kit ``Table`` each seat has known at some state of a game,
    followed from outside the game, and what a determinization must keep of them.

    A card a seat stops knowing was shuffled out of its sight (``Table.shuffle``), which
    notes the shuffle in ``Table.lost``: the cards a seat saw go into one shuffle stay a
    multiset it knows, in an unknown order. A public discard pile shuffled into a deck leaves
    every seat knowing the deck's cards, and a card drawn from that deck since is still one
    of them to the seats that do not see the hand it went to. (A card can be seen and
    shuffled away within one ``apply``, a Command played and shuffled back by its own draw:
    so the multisets are the table's, and this memory checks that the table notes every card
    a seat forgot.)"""

    def __init__(self, players: int) -> None:
        self.known: list[set[int]] = [set() for _ in range(players)]

    def update(self, table: Table) -> None:
        """Note what each seat knows now."""
        for seat, known in enumerate(self.known):
            known.update(iid for iid in range(len(table.cards)) if table.knows(seat, iid))

    def problem(self, real: Table, dealt: Table, observer: int) -> str | None:
        """How ``dealt`` (a determinization of ``real`` for ``observer``) contradicts what
        ``observer`` knows, or ``None``: an instance they know changed its card, one they
        knew was forgotten without a note, or a multiset they know holds other cards."""
        if len(dealt.cards) != len(real.cards) or dealt.owners != real.owners:
            return "the instances or their owners changed"
        before: Counter[tuple[int, int, int]] = Counter()
        after: Counter[tuple[int, int, int]] = Counter()
        for iid, card in enumerate(real.cards):
            other = dealt.cards[iid]
            shuffle = real.lost[iid][observer] if iid in real.lost else 0
            if real.knows(observer, iid):
                if other.index != card.index:
                    return f"instance {iid}, which player {observer} knows, became {other!r}"
            elif shuffle:
                before[(real.owners[iid], shuffle, card.index)] += 1
                after[(real.owners[iid], shuffle, other.index)] += 1
            elif iid in self.known[observer]:
                return (
                    f"player {observer} knew instance {iid} ({card!r}) and lost track of it "
                    "without Table.shuffle noting it in Table.lost"
                )
        if before == after:
            return None
        owner, shuffle, _ = min((before - after) + (after - before))
        return (
            f"player {observer} saw these cards of player {owner} shuffled out of sight "
            f"together (shuffle {shuffle}): {_cards_of(real, before, owner, shuffle)}, but "
            f"the re-deal gave them {_cards_of(real, after, owner, shuffle)}"
        )


def _cards_of(table: Table, counts: Counter[tuple[int, int, int]], owner: int, batch: int) -> str:
    names = {card.index: getattr(card, "name", repr(card)) for card in table.cards}
    return repr(sorted(names[index] for (o, b, index), n in counts.items()
                       if (o, b) == (owner, batch) for _ in range(n)))  # fmt: skip


def check_known_multisets(game: Game, *, games: Games, seed: int) -> int:
    """A determinization forgets order, never membership (games on the card kit's ``Table``,
    ``state.table``). At every state of ``games`` (random games, or recorded ones) and for
    every seat, ``resample_hidden(seat, rng)`` keeps the card of every instance the seat
    knows, and each multiset the seat knows (``CardMemory``: the cards it saw go into one
    shuffle, wherever they went since) holds the same cards. Returns the resamples checked:
    0 for a game whose states keep no ``Table``."""
    rng = random.Random(seed)
    resamples = 0
    memory = CardMemory(game.num_players)
    for position in _positions(game, games, rng):
        state = position.state
        if not isinstance(getattr(state, "table", None), Table):
            return 0
        if not position.actions:
            memory = CardMemory(game.num_players)
        memory.update(state.table)
        for observer in range(game.num_players):
            dealt = state.resample_hidden(observer, rng)
            problem = memory.problem(state.table, dealt.table, observer)
            assert problem is None, (
                f"{game.name}: resample_hidden({observer}) contradicts what player "
                f"{observer} knows: {problem}: {position.where}"
            )
            resamples += 1
    return resamples


@dataclass
class PublicFactReport:
    """What ``check_public_facts_encoded`` looked at."""

    states: int = 0
    variants: Counter[str] = field(default_factory=Counter)
    """Variants checked, by the public fact they change."""


def check_public_facts_encoded(
    game: Game, encoders: Mapping[str, Encoder], *, games: Games, seed: int
) -> PublicFactReport:
    """Every public fact a game declares shows in every encoding, to every player.

    At every state of ``games`` (random games, or recorded ones), each variant of the game's
    optional ``public_fact_variants(state)`` (a copy that differs in one public fact,
    protocol.Game) must encode differently from the state in each of ``encoders`` for each
    player: two positions that differ in what every player sees must not look the same to a
    policy.
    A game without the hook has nothing to check (an empty report).
    """
    variants_of = getattr(game, "public_fact_variants", None)
    report = PublicFactReport()
    if variants_of is None:
        return report
    for position in _positions(game, games, random.Random(seed)):
        state = position.state
        if state.is_terminal():
            continue
        for fact, variant in variants_of(state):
            report.variants[fact] += 1
            _assert_fact_encoded(state, variant, encoders, fact, position.where)
        report.states += 1
    return report


def _assert_fact_encoded(
    state: State, variant: State, encoders: Mapping[str, Encoder], fact: str, where: str
) -> None:
    for name, encoder in encoders.items():
        for player in range(state.game.num_players):
            before = _encoding(encoder, state, player, where)
            after = _encoding(encoder, variant, player, where)
            assert not np.array_equal(before, after), (
                f"{state.game.name}: encoder {name!r} does not show player {player} the "
                f"public fact {fact!r}: a position and its copy that differs in it alone "
                f"encode the same: {where}"
            )
