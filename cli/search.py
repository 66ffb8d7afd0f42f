"""Measure one agent over many games: its strength and its time per decision.

Built for the ISMCTS experiments (Regicide solo against the published anchor), but any agent
spec and any game work:

  tabletop search --game regicide --players 1 --option shaped_reward=true \\
      --agent ismcts:iterations=3000 --games 200 --log /tmp/ismcts_3000.jsonl
  tabletop search --game kaleva --agent ismcts:seconds=0.2 --opponent heuristic --games 50

Without --opponent the agent takes every seat and a game is won when every seat's return
is positive (the team result of a cooperative game). With --opponent each game seed is
played once with the agent at each seat in turn, the opponent at the others, and the agent
wins when its return beats every other seat's.

Every finished game is appended to --log as a game record (one JSON line, which
`tabletop replay` shows), so a long run killed halfway still leaves its games;
--report LOG... prints the table of finished logs. Figures: win rate with a 95% Wilson
interval, the mean of each State.stats() figure, the distribution of a `grade` figure when
the game reports one, and the agent's milliseconds and search iterations per decision.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tabletop import envs
from tabletop.agents import Agent, make_agent
from tabletop.agents.outcome import WIN, side_outcome, team_outcome
from tabletop.cli.options import CommandError, add_game_options, engine_options
from tabletop.matches.records import (
    DecisionTiming,
    GameRecord,
    RecordError,
    append_records,
    play_record,
    read_records,
)
from tabletop.matches.results import format_interval, format_table
from tabletop.matches.runner import run_tasks
from tabletop.matches.tally import Tally


@dataclass(frozen=True)
class Setting:
    """What a game was played with; the games of equal settings are pooled in a report."""

    game: str
    options: tuple[tuple[str, Any], ...]
    agent: str
    opponent: str | None = None

    @classmethod
    def of(cls, record: GameRecord) -> Setting:
        """The setting of a search's record: its measured seats hold the agent."""
        seat = measured_seat(record)
        agent = record.seats[0 if seat is None else seat]
        opponents = [label for other, label in enumerate(record.seats) if other != seat]
        opponent = None if seat is None else opponents[0]
        return cls(record.game, tuple(sorted(record.options.items())), agent, opponent)


def measured_seat(record: GameRecord) -> int | None:
    """The agent's seat when it played against an opponent; None when it had every seat.
    Other records are refused: ``tabletop eval`` and ``ladder`` time every seat of games
    between different agents, which measure no one agent."""
    measured = [seat for seat, timing in enumerate(record.timing) if timing is not None]
    game = f"the {record.game} game of seed {record.seed}"
    if not measured:
        raise RecordError(f"{game} measured no seat: not a record of tabletop search")
    agents = {record.seats[seat] for seat in measured}
    if len(agents) > 1:
        raise RecordError(
            f"{game} measured the seats of {len(agents)} different agents "
            f"({', '.join(sorted(agents))}): not a record of tabletop search"
        )
    return None if len(measured) == len(record.seats) else measured[0]


def won(record: GameRecord) -> bool:
    """Whether the measured agent won (see the module docstring)."""
    seat = measured_seat(record)
    if seat is None:
        return team_outcome(record.returns) == WIN
    return side_outcome(record.returns, seat) == WIN


def total_timing(record: GameRecord) -> DecisionTiming:
    """The measured seats' decisions, seconds and iterations together."""
    timings = [timing for timing in record.timing if timing is not None]
    return DecisionTiming(
        decisions=sum(timing.decisions for timing in timings),
        seconds=sum(timing.seconds for timing in timings),
        iterations=sum(timing.iterations for timing in timings),
    )


def play_one(setting: Setting, seed: int, seat: int | None) -> GameRecord:
    """Game ``seed`` with a fresh agent per seat, seeded from the game seed and the seat:
    the measured agent at ``seat`` and the opponent elsewhere, or the agent everywhere."""
    options = dict(setting.options)
    game = envs.make_game(setting.game, **options)
    measured = [player for player in range(game.num_players) if seat in (None, player)]
    labels: list[str] = []
    agents: list[Agent] = []
    for player in range(game.num_players):
        spec = setting.agent if player in measured else setting.opponent
        assert spec is not None  # an opponent is given whenever a seat is
        labels.append(spec)
        agents.append(make_agent(spec, setting.game, seed=seed * 16 + player))
    return play_record(game, options, seed, labels, agents, timed_seats=measured)


def _play_job(job: tuple[Setting, int, int | None]) -> GameRecord:
    return play_one(*job)


def run_games(
    setting: Setting, seeds: Sequence[int], workers: int, log_path: str | None
) -> list[GameRecord]:
    """Play the games (in ``workers`` processes when more than one), logging each one as
    it ends."""
    seats: list[int | None] = [None]
    if setting.opponent is not None:
        seats = list(range(envs.make_game(setting.game, **dict(setting.options)).num_players))
    jobs = [(setting, seed, seat) for seed in seeds for seat in seats]

    def finished(record: GameRecord) -> None:
        if log_path:
            append_records(log_path, [record])
        _progress(record)

    return run_tasks(_play_job, jobs, workers, finished)


def _progress(record: GameRecord) -> None:
    timing = total_timing(record)
    print(
        f"game {record.seed} seat {measured_seat(record)}: won {won(record)}, "
        f"{_short_stats(record.stats)}, "
        f"{1000 * timing.seconds / max(timing.decisions, 1):.0f} ms/decision",
        file=sys.stderr,
        flush=True,
    )


def _short_stats(stats: dict[str, float]) -> str:
    return ", ".join(f"{key} {value:g}" for key, value in stats.items())


def report(records: Sequence[GameRecord]) -> str:
    """One table row per setting, in the order the settings first appear."""
    by_setting: dict[Setting, list[GameRecord]] = {}
    for record in records:
        by_setting.setdefault(Setting.of(record), []).append(record)
    headers = ["game", "options", "agent", "opponent", "games", "win rate", "95% CI"]
    headers.append("mean stats")
    headers += ["grades", "ms/decision", "iterations/decision"]
    rows = [_report_row(setting, group) for setting, group in by_setting.items()]
    return format_table(headers, rows)


def _report_row(setting: Setting, group: list[GameRecord]) -> list[str]:
    games = len(group)
    tally = Tally.of_wins(sum(won(record) for record in group), games)
    timings = [total_timing(record) for record in group]
    decisions = sum(timing.decisions for timing in timings)
    keys = dict.fromkeys(key for record in group for key in record.stats if key != "grade")
    means = ", ".join(
        f"{key} {sum(r.stats.get(key, 0.0) for r in group) / games:.2f}" for key in keys
    )
    grades = Counter(int(r.stats["grade"]) for r in group if "grade" in r.stats)
    iterations = sum(timing.iterations for timing in timings)
    return [
        setting.game,
        " ".join(f"{key}={value}" for key, value in setting.options) or "-",
        setting.agent,
        setting.opponent or "(itself)",
        str(games),
        f"{tally.rate(WIN):.3f}",
        format_interval(tally.interval(WIN)),
        means,
        " ".join(f"{grade}:{grades[grade]}" for grade in sorted(grades)) or "-",
        f"{1000 * sum(timing.seconds for timing in timings) / max(decisions, 1):.0f}",
        f"{iterations / decisions:.0f}" if iterations else "-",
    ]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", help="registered game name (required unless --report)")
    parser.add_argument("--agent", default="ismcts", help="spec of the agent measured")
    parser.add_argument(
        "--opponent", metavar="SPEC", help="spec of the other seats (default: the agent too)"
    )
    parser.add_argument("--games", type=int, default=30, help="game seeds (default 30)")
    parser.add_argument("--seed", type=int, default=0, help="first game seed")
    parser.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    parser.add_argument("--log", metavar="PATH", help="append each game's record (JSON lines)")
    parser.add_argument(
        "--report", nargs="+", metavar="LOG", help="only print the table of these logs"
    )
    add_game_options(parser)


def run(args: argparse.Namespace) -> int:
    try:
        if args.report:
            print(report([record for path in args.report for record in read_records(path)]))
            return 0
        if args.game is None:
            raise ValueError(f"--game is required; registered games: {', '.join(envs.names())}")
        options = engine_options(args)
        setting = Setting(args.game, tuple(sorted(options.items())), args.agent, args.opponent)
        seeds = range(args.seed, args.seed + args.games)
        print(report(run_games(setting, seeds, args.workers, args.log)))
    except (ValueError, FileNotFoundError, TypeError) as error:
        raise CommandError(str(error)) from error
    return 0
