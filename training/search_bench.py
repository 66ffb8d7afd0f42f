"""Play many games with one agent at every seat and report its strength and speed.

Built for the ISMCTS experiments (Regicide solo against the published anchor), but any agent
spec and any game work:

    python -m tabletop.training.search_bench --game regicide --players 1 \\
        --option shaped_reward=true --agent ismcts:iterations=3000 --games 200 \\
        --log /tmp/ismcts_3000.jsonl
    python -m tabletop.training.search_bench --game kaleva --agent ismcts:seconds=0.2 \\
        --opponent heuristic --games 50

Without ``--opponent`` the agent takes every seat and a game is won when every seat's
return is positive (the team result of a cooperative game). With ``--opponent`` each game
seed is played once with the agent at each seat in turn, the opponent at the others, and
the agent wins when its return beats every other seat's.

Every finished game is appended to ``--log`` as one JSON line, so a long run killed halfway
still leaves its games; ``--report LOG...`` prints the table of finished logs. Figures:
win rate with a 95% Wilson interval, the mean of each ``State.stats()`` figure, the
distribution of a ``grade`` figure when the game reports one, and the agent's milliseconds
and search iterations per decision.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from tabletop import envs
from tabletop.agents import Agent, make_agent, play_game
from tabletop.training.bench import format_table, numeric_stats, wilson_interval
from tabletop.training.cli import parse_option


@dataclass(frozen=True)
class Setting:
    """What one log line was played with; lines of equal settings are pooled."""

    game: str
    options: tuple[tuple[str, Any], ...]
    agent: str
    opponent: str | None = None


@dataclass
class GameRecord:
    setting: Setting
    seed: int
    won: bool
    stats: dict[str, float]
    decisions: int
    seconds: float
    iterations: int
    """Search iterations over all decisions (0 for agents that do not search)."""
    seat: int | None = None
    """The agent's seat when playing against an opponent; None when it has every seat."""


class TimedAgent:
    """Wraps an agent to count its decisions, their time and (for a search) its iterations."""

    def __init__(self, inner: Agent) -> None:
        self.inner = inner
        self.decisions = 0
        self.seconds = 0.0
        self.iterations = 0

    def reset(self) -> None:
        self.inner.reset()

    def act(self, state: Any, player: int) -> int:
        start = time.perf_counter()
        action = self.inner.act(state, player)
        self.seconds += time.perf_counter() - start
        self.decisions += 1
        result = getattr(self.inner, "last_result", None)
        self.iterations += result.iterations if result is not None else 0
        return action


def play_one(setting: Setting, seed: int, seat: int | None) -> GameRecord:
    """Game ``seed`` with a fresh agent per seat, seeded from the game seed and the seat:
    the tested agent at ``seat`` and the opponent elsewhere, or the agent everywhere."""
    game = envs.make_game(setting.game, **dict(setting.options))
    tested = [
        TimedAgent(make_agent(setting.agent, setting.game, seed=seed * 16 + p))
        for p in range(game.num_players)
        if seat is None or p == seat
    ]
    agents: list[Agent] = list(tested)
    if seat is not None:
        assert setting.opponent is not None
        agents = [
            make_agent(setting.opponent, setting.game, seed=seed * 16 + p)
            for p in range(game.num_players)
        ]
        agents[seat] = tested[0]
    state = play_game(game.new_state(seed=seed), agents)
    returns = state.returns()
    if seat is None:
        won = min(returns) > 0
    else:
        won = all(returns[seat] > r for p, r in enumerate(returns) if p != seat)
    return GameRecord(
        setting=setting,
        seed=seed,
        won=won,
        stats=numeric_stats(state.stats()),
        decisions=sum(agent.decisions for agent in tested),
        seconds=sum(agent.seconds for agent in tested),
        iterations=sum(agent.iterations for agent in tested),
        seat=seat,
    )


def _play_one_packed(arguments: tuple[Setting, int, int | None]) -> GameRecord:
    return play_one(*arguments)


def run_games(
    setting: Setting, seeds: Sequence[int], workers: int, log_path: str | None
) -> list[GameRecord]:
    """Play the games (in ``workers`` processes when more than one), logging each one."""
    records = []
    seats: list[int | None] = [None]
    if setting.opponent is not None:
        seats = list(range(envs.make_game(setting.game, **dict(setting.options)).num_players))
    jobs = [(setting, seed, seat) for seed in seeds for seat in seats]
    with multiprocessing.Pool(workers) if workers > 1 else _NoPool() as pool:
        for record in pool.imap_unordered(_play_one_packed, jobs):
            records.append(record)
            if log_path:
                _append_log(log_path, record)
            print(
                f"game {record.seed} seat {record.seat}: won {record.won}, "
                f"{_short_stats(record.stats)}, "
                f"{1000 * record.seconds / max(record.decisions, 1):.0f} ms/decision",
                file=sys.stderr,
                flush=True,
            )
    return records


class _NoPool:
    """The in-process stand-in for ``multiprocessing.Pool`` with one worker."""

    def __enter__(self) -> _NoPool:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    @staticmethod
    def imap_unordered(function: Any, jobs: Iterable[Any]) -> Iterable[Any]:
        return map(function, jobs)


def _short_stats(stats: dict[str, float]) -> str:
    return ", ".join(f"{key} {value:g}" for key, value in stats.items())


def _append_log(path: str, record: GameRecord) -> None:
    line = asdict(record)
    line["setting"]["options"] = dict(record.setting.options)
    with open(path, "a", encoding="utf-8") as file:
        file.write(json.dumps(line) + "\n")


def read_logs(paths: Sequence[str]) -> list[GameRecord]:
    records = []
    for path in paths:
        with open(path, encoding="utf-8") as file:
            for line in filter(str.strip, file):
                raw = json.loads(line)
                setting = raw.pop("setting")
                setting["options"] = tuple(sorted(setting["options"].items()))
                records.append(GameRecord(setting=Setting(**setting), **raw))
    return records


def report(records: Sequence[GameRecord]) -> str:
    """One table row per setting, in the order the settings first appear."""
    by_setting: dict[Setting, list[GameRecord]] = {}
    for record in records:
        by_setting.setdefault(record.setting, []).append(record)
    headers = ["game", "options", "agent", "opponent", "games", "win rate", "95% CI"]
    headers.append("mean stats")
    headers += ["grades", "ms/decision", "iterations/decision"]
    rows = [_report_row(setting, group) for setting, group in by_setting.items()]
    return format_table(headers, rows)


def _report_row(setting: Setting, group: list[GameRecord]) -> list[str]:
    games, wins = len(group), sum(record.won for record in group)
    low, high = wilson_interval(wins, games)
    decisions = sum(record.decisions for record in group)
    keys = dict.fromkeys(key for record in group for key in record.stats if key != "grade")
    means = ", ".join(
        f"{key} {sum(r.stats.get(key, 0.0) for r in group) / games:.2f}" for key in keys
    )
    grades = Counter(int(r.stats["grade"]) for r in group if "grade" in r.stats)
    iterations = sum(record.iterations for record in group)
    return [
        setting.game,
        " ".join(f"{key}={value}" for key, value in setting.options) or "-",
        setting.agent,
        setting.opponent or "(itself)",
        str(games),
        f"{wins / games:.3f}",
        f"[{low:.3f}, {high:.3f}]",
        means,
        " ".join(f"{grade}:{grades[grade]}" for grade in sorted(grades)) or "-",
        f"{1000 * sum(r.seconds for r in group) / max(decisions, 1):.0f}",
        f"{iterations / decisions:.0f}" if iterations else "-",
    ]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m tabletop.training.search_bench",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--game", help="registered game name (required unless --report)")
    parser.add_argument("--players", type=int, metavar="N", help="number of players")
    parser.add_argument(
        "--option", type=parse_option, action="append", default=[], metavar="KEY=VALUE"
    )
    parser.add_argument("--agent", default="ismcts", help="spec of the agent measured")
    parser.add_argument(
        "--opponent", metavar="SPEC", help="spec of the other seats (default: the agent too)"
    )
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--seed", type=int, default=0, help="first game seed")
    parser.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    parser.add_argument("--log", metavar="PATH", help="append each game as a JSON line")
    parser.add_argument(
        "--report", nargs="+", metavar="LOG", help="only print the table of these logs"
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.report:
        print(report(read_logs(args.report)))
        return 0
    if args.game is None:
        parser.error(f"--game is required; registered games: {', '.join(envs.names())}")
    options = dict(args.option)
    if args.players is not None:
        options["num_players"] = args.players
    setting = Setting(args.game, tuple(sorted(options.items())), args.agent, args.opponent)
    seeds = range(args.seed, args.seed + args.games)
    print(report(run_games(setting, seeds, args.workers, args.log)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
