"""Game records: one played game, enough to count its result and to replay it move by move.

A record names the game and its options, the seed of the deal, the agent label (an agent
spec on the command line) at each seat, every action id with its text, the returns and the
numeric ``stats()``; a search run and a ladder add how long the measured agents took to
decide. The seed and the actions replay the game exactly (a ``Game`` promises that the same
seed and actions give the same game), and the texts, written when the moves were played, let
``tabletop replay`` check that the rules and notation still read them the same way.

Records are saved as JSON lines, one game a line, appended as games finish so that a run
killed halfway keeps the games it played.
"""

from __future__ import annotations

import json
import time
from collections.abc import Collection, Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from tabletop.agents import Agent, play_game
from tabletop.agents.base import MoveObserver
from tabletop.agents.outcome import side_outcome
from tabletop.envs.core.protocol import Game, State
from tabletop.matches.results import numeric_stats

RECORD_FORMAT = "tabletop-game-record"
RECORD_VERSION = 1
GAMES_LOG = "games.jsonl"
"""The records a command writes beside its results (``eval --out``, ``balance --out``), which
``tabletop replay`` finds when given their directory."""
SECONDS_DIGITS = 7
"""A decision's seconds are kept to 0.1 µs: finer than the clock's use, short in JSON."""


class RecordError(ValueError):
    """A file, or a line of it, that is not a game record this version can read."""


@dataclass(frozen=True)
class DecisionTiming:
    """How one seat's measured agent decided: its decisions, their time and (for a search)
    the iterations they took."""

    decisions: int
    seconds: float
    iterations: int
    seconds_each: tuple[float, ...] = ()
    """Each decision's seconds, for percentiles; empty in records written before they were
    kept."""


class TimedAgent:
    """Wraps an agent to count its decisions, their wall time in ``act`` and (for a search)
    its iterations."""

    def __init__(self, inner: Agent) -> None:
        self.inner = inner
        self.decisions = 0
        self.seconds = 0.0
        self.iterations = 0
        self.seconds_each: list[float] = []

    def reset(self) -> None:
        self.inner.reset()

    def act(self, state: State, player: int) -> int:
        start = time.perf_counter()
        action = self.inner.act(state, player)
        elapsed = time.perf_counter() - start
        self.seconds += elapsed
        self.seconds_each.append(round(elapsed, SECONDS_DIGITS))
        self.decisions += 1
        result = getattr(self.inner, "last_result", None)
        self.iterations += result.iterations if result is not None else 0
        return action

    def timing(self) -> DecisionTiming:
        each = tuple(self.seconds_each)
        return DecisionTiming(self.decisions, self.seconds, self.iterations, each)


@dataclass
class GameRecord:
    """One finished game (see the module docstring)."""

    game: str
    """Registered game name."""
    options: dict[str, Any]
    """The game options it was built with (``num_players`` among them when given)."""
    seed: int
    seats: tuple[str, ...]
    """The label of the agent at each seat: its spec, or a name such as ``learner``."""
    actions: tuple[int, ...]
    action_texts: tuple[str, ...]
    """Each action's full text (``action_to_string`` for a spectator) as it was played."""
    returns: tuple[float, ...]
    stats: dict[str, float]
    """The numeric figures of ``State.stats()`` at the end."""
    timing: tuple[DecisionTiming | None, ...] = ()
    """Per seat, the decisions of a measured agent (None at seats not measured); empty
    when nobody was measured."""

    def seats_of(self, label: str) -> tuple[int, ...]:
        """The seats ``label`` held."""
        return tuple(seat for seat, held in enumerate(self.seats) if held == label)

    def side_outcome(self, label: str) -> str:
        """``label``'s result with all its seats as one side (``agents.outcome``)."""
        return side_outcome(self.returns, self.seats_of(label))

    def side_return(self, label: str) -> float:
        """The return of ``label``'s best seat."""
        return max(self.returns[seat] for seat in self.seats_of(label))

    def to_json(self) -> dict[str, Any]:
        return {"format": RECORD_FORMAT, "version": RECORD_VERSION, **asdict(self)}

    @classmethod
    def from_json(cls, document: Any) -> GameRecord:
        """The record of a parsed JSON line; ``RecordError`` saying why if it is none."""
        if not isinstance(document, dict) or document.get("format") != RECORD_FORMAT:
            raise RecordError(f'not a game record (no "format": "{RECORD_FORMAT}")')
        if document.get("version") != RECORD_VERSION:
            raise RecordError(f"record version {document.get('version')!r}, not {RECORD_VERSION}")
        fields = {key: value for key, value in document.items() if key not in ("format", "version")}
        try:
            raw = cls(**fields)
            record = replace(
                raw,
                options={key: _tuples(value) for key, value in raw.options.items()},
                seats=tuple(raw.seats),
                actions=tuple(raw.actions),
                action_texts=tuple(raw.action_texts),
                returns=tuple(raw.returns),
                timing=tuple(None if t is None else _decision_timing(t) for t in raw.timing),
            )
        except (TypeError, AttributeError) as error:
            raise RecordError(
                f"a game record with a missing or malformed field ({error})"
            ) from None
        if len(record.actions) != len(record.action_texts):
            raise RecordError(
                f"{len(record.actions)} actions but {len(record.action_texts)} action texts"
            )
        return record


def _decision_timing(document: dict[str, Any]) -> DecisionTiming:
    timing = DecisionTiming(**document)
    return replace(timing, seconds_each=tuple(timing.seconds_each))


def _tuples(value: Any) -> Any:
    """JSON lists back to the tuples that list-valued game options are given as."""
    return tuple(value) if isinstance(value, list) else value


def play_record(
    game: Game,
    options: dict[str, Any],
    seed: int,
    seats: Sequence[str],
    agents: Sequence[Agent],
    on_move: MoveObserver | None = None,
    timed_seats: Collection[int] = (),
) -> GameRecord:
    """Play deal ``seed`` of ``game`` (built with ``options``) with ``agents[p]`` at seat
    ``p`` and ``seats[p]`` as its label; the record of the game. ``on_move`` also sees
    each action before it is applied (as in ``agents.play_game``). The decisions of the
    agents at ``timed_seats`` are timed into the record's ``timing``."""
    timers = {seat: TimedAgent(agents[seat]) for seat in timed_seats}
    players = [timers.get(seat, agent) for seat, agent in enumerate(agents)]
    actions: list[int] = []
    texts: list[str] = []

    def note(state: State, action: int) -> None:
        actions.append(action)
        texts.append(state.action_to_string(action))
        if on_move is not None:
            on_move(state, action)

    state = play_game(game.new_state(seed=seed), players, on_move=note)
    timing = tuple(timers[seat].timing() if seat in timers else None for seat in range(len(agents)))
    return GameRecord(
        game=game.name,
        options=dict(options),
        seed=seed,
        seats=tuple(seats),
        actions=tuple(actions),
        action_texts=tuple(texts),
        returns=tuple(float(r) for r in state.returns()),
        stats=numeric_stats(state.stats()),
        timing=timing if timers else (),
    )


def fresh_games_log(out: Path) -> Path:
    """``out/games.jsonl``, emptied: it holds one run's games, as the files beside it hold
    that run's figures."""
    out.mkdir(parents=True, exist_ok=True)
    games_log = out / GAMES_LOG
    games_log.unlink(missing_ok=True)
    return games_log


def append_records(path: str | Path, records: Sequence[GameRecord]) -> None:
    """Add ``records`` to the JSON-lines file ``path`` (created if missing)."""
    with open(path, "a", encoding="utf-8") as file:
        for record in records:
            file.write(json.dumps(record.to_json()) + "\n")


def read_records(path: str | Path) -> list[GameRecord]:
    """Every record of the JSON-lines file ``path``; ``RecordError`` naming the line that
    is not one."""
    records = []
    with open(path, encoding="utf-8") as file:
        for number, line in enumerate(file, start=1):
            if not line.strip():
                continue
            try:
                document = json.loads(line)
            except json.JSONDecodeError:
                raise RecordError(
                    f"{path}, line {number}: not JSON; a game-record file holds one JSON "
                    "record a line, as `tabletop eval --out` (games.jsonl) and `tabletop "
                    "search --log` write"
                ) from None
            try:
                records.append(GameRecord.from_json(document))
            except RecordError as error:
                raise RecordError(f"{path}, line {number}: {error}") from None
    return records
