"""Evaluate agents against each other: a round-robin table, ratings, JSON and a PNG.

Competitive games: every pair of agents plays ``--games`` games; in a game one agent holds
one seat and the other every other seat, and each deal is played once from every
arrangement (in two-player games: both seat orders), so seats are swapped equally and
the luck of the deal cancels. Per pair: wins, draws and losses with 95% Wilson intervals;
over all games: how often the first seat wins; and openskill (Plackett-Luce) ratings.

Cooperative games: each agent plays every seat of ``--games`` games; first the game's
``best_metric`` (configs.toml) with a 95% interval, since agents that all rarely win differ
there, then the team win rate with its interval, the mean of each ``State.stats()`` figure
and the distribution of the game's ``distribution_stats``, for every player count asked for.

Every decision is timed: each agent's mean and 95th-percentile wall time of ``act``, in ms,
over all its games (in a competitive game, across its pairs).

Agents are specs: ``random``, ``heuristic``, ``kind:options``, or a saved policy (a file
or a training run directory; a run's learning curve then joins the PNG). With ``--out``,
every game is also kept as a record in games.jsonl, which ``tabletop replay`` shows.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
from collections import Counter
from collections.abc import Callable, Collection, Sequence
from dataclasses import asdict, dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from tabletop import envs
from tabletop.agents import agent_specs_help
from tabletop.cli.options import CommandError, add_game_options, agents_match
from tabletop.matches.records import GameRecord, fresh_games_log
from tabletop.matches.results import format_interval, format_table
from tabletop.matches.schedules import AgentSource, Schedule, pair_schedule, play_schedule
from tabletop.matches.standings import (
    DecisionTime,
    PairResult,
    TeamResult,
    decision_time,
    first_seat_result,
    pair_result,
    ratings,
    team_result,
)
from tabletop.training.config import GameConfig, game_settings, is_cooperative

PROGRESS_EVERY_S = 5.0
"""``tabletop eval`` reports games done at most this often (and at the end of each pair)."""
MS_HEADER = "ms per decision (mean / p95)"


@dataclass
class PlayerCountResult:
    num_players: int
    mode: str
    """``"competitive"`` or ``"cooperative"``."""
    pairs: list[PairResult] = field(default_factory=list)
    first_seat: dict[str, Any] = field(default_factory=dict)
    ratings: list[dict[str, Any]] = field(default_factory=list)
    teams: list[TeamResult] = field(default_factory=list)
    decision_time: dict[str, DecisionTime] = field(default_factory=dict)
    """Each agent's time per decision (``mean_ms`` None when the games were not timed)."""


# ----- a whole evaluation -------------------------------------------------------------------


PlaySchedule = Callable[[dict[str, AgentSource], Schedule], list[GameRecord]]
"""play(agents, schedule): ``play_schedule`` with the game, its options and seeds bound."""


def evaluate(
    game_name: str,
    agents: Sequence[str] | dict[str, AgentSource],
    *,
    player_counts: Sequence[int | None],
    games: int,
    seed: int = 0,
    workers: int = 1,
    options: dict[str, Any] | None = None,
    games_log: Path | None = None,
    progress: bool = False,
    timed: bool = False,
    only_with: Collection[str] | None = None,
) -> list[PlayerCountResult]:
    """The round-robin (competitive) or team table (cooperative) for each player count;
    ``agents`` are specs, or labels mapped to specs or agents. Every game's record is
    appended to ``games_log`` when given, with every decision's time when ``timed``; with
    ``progress``, games done are reported on stderr (``Progress``). ``only_with``: only the
    pairs (cooperative: the teams) with one of these agents are played, as when agents
    join a ladder whose other pairs have played."""
    config = game_settings(game_name)
    cooperative = is_cooperative(game_name)
    if not isinstance(agents, dict):
        agents = {spec: spec for spec in agents}
    results = []
    for num_players in player_counts:
        setting = dict(options or {})
        if num_players is not None:
            setting["num_players"] = num_players
        players = envs.make_game(game_name, **setting).num_players
        counting = (
            f"{players} player{'' if players == 1 else 's'}" if len(player_counts) > 1 else ""
        )
        play = partial(
            play_schedule,
            game_name,
            setting,
            agent_seed=seed,
            workers=workers,
            games_log=games_log,
            on_games=Progress(games, counting) if progress else None,
            timed=timed,
        )
        if cooperative:
            results.append(_cooperative(play, players, agents, games, seed, config, only_with))
        else:
            results.append(_competitive(play, players, agents, games, seed, only_with))
    return results


class Progress:
    """Games done per pair of agents (per team in a cooperative game) on stderr: when a
    pair has played all its games, and in between at most every ``PROGRESS_EVERY_S``."""

    def __init__(self, games: int, prefix: str = "") -> None:
        self.games = games
        self.prefix = f"{prefix}: " if prefix else ""
        self.done: Counter[tuple[str, ...]] = Counter()
        self.last = time.monotonic()

    def __call__(self, records: Sequence[GameRecord]) -> None:
        keys = list(dict.fromkeys(self._key(record) for record in records))
        for record in records:
            self.done[self._key(record)] += 1
        due = [key for key in keys if self.done[key] == self.games]
        if not due and time.monotonic() - self.last >= PROGRESS_EVERY_S:
            due = keys[-1:]
        for key in due:
            self.last = time.monotonic()
            print(f"{self.prefix}{' vs '.join(key)}: {self.done[key]}/{self.games} games",
                  file=sys.stderr, flush=True)  # fmt: skip

    @staticmethod
    def _key(record: GameRecord) -> tuple[str, ...]:
        """The pair (or team) a game belongs to: its seats' labels, each once, sorted."""
        return tuple(sorted(set(record.seats)))


def _competitive(
    play: PlaySchedule,
    players: int,
    agents: dict[str, AgentSource],
    games: int,
    seed: int,
    only_with: Collection[str] | None = None,
) -> PlayerCountResult:
    pairs = [
        (a, b)
        for a, b in itertools.combinations(agents, 2)
        if only_with is None or a in only_with or b in only_with
    ]
    if not pairs:
        raise ValueError("a competitive evaluation needs at least two agents")
    schedule = [entry for a, b in pairs for entry in pair_schedule(a, b, players, games, seed)]
    records = play(agents, schedule)
    per_pair = [records[i * games : (i + 1) * games] for i in range(len(pairs))]
    return PlayerCountResult(
        num_players=players,
        mode="competitive",
        pairs=[pair_result(a, b, rs) for (a, b), rs in zip(pairs, per_pair, strict=True)],
        first_seat=first_seat_result(records),
        ratings=ratings(records, list(agents)),
        decision_time={label: decision_time(label, records) for label in agents},
    )


def _cooperative(
    play: PlaySchedule,
    players: int,
    agents: dict[str, AgentSource],
    games: int,
    seed: int,
    config: GameConfig,
    only_with: Collection[str] | None = None,
) -> PlayerCountResult:
    result = PlayerCountResult(num_players=players, mode="cooperative")
    for label in agents if only_with is None else [a for a in agents if a in only_with]:
        schedule = [((label,) * players, seed + g) for g in range(games)]
        records = play({label: agents[label]}, schedule)
        result.teams.append(
            team_result(label, records, config.distribution_stats, config.best_metric)
        )
        result.decision_time[label] = decision_time(label, records)
    return result


# ----- output -------------------------------------------------------------------------------


def result_tables(results: Sequence[PlayerCountResult]) -> str:
    """The terminal (and Markdown) tables of an evaluation."""
    parts = []
    for result in results:
        parts.append(f"{result.num_players} players ({result.mode})")
        if result.mode == "cooperative":
            parts.append(_team_table(result))
        else:
            parts += [_pair_table(result.pairs), _rating_table(result), ""]
        parts.append("")
    return "\n".join(parts).rstrip() + "\n"


def _team_table(result: PlayerCountResult) -> str:
    """One row per agent, led by the game's ``best_metric`` (what tells agents apart when
    they all win about as rarely), then the win rate unless that is the metric, then the
    time per decision."""
    teams = result.teams
    metric = teams[0].metric
    stat_keys = sorted({key for team in teams for key in team.stats_mean} - {metric})
    dist_keys = sorted({key for team in teams for key in team.distributions})
    metric_header = "team win rate" if metric == "win_rate" else f"mean {metric}"
    headers = ["agent", "games", metric_header, "95% CI"]
    if metric != "win_rate":
        headers += ["team win rate", "95% CI (win rate)"]
    headers.append(MS_HEADER)
    headers += [f"mean {key}" for key in stat_keys] + [f"{key} counts" for key in dist_keys]
    rows = []
    for team in teams:
        row = [
            team.agent,
            str(team.games),
            f"{team.metric_mean:.3f}",
            format_interval(team.metric_ci95),
        ]
        if metric != "win_rate":
            row += [f"{team.win_rate:.3f}", format_interval(team.win_ci95)]
        row.append(_ms(result, team.agent))
        row += [f"{team.stats_mean.get(key, 0.0):.3g}" for key in stat_keys]
        rows.append(row + [_counts(team.distributions.get(key, {})) for key in dist_keys])
    return format_table(headers, rows)


def _counts(distribution: dict[str, int]) -> str:
    return " ".join(f"{value}:{count}" for value, count in distribution.items()) or "-"


def _pair_table(pairs: Sequence[PairResult]) -> str:
    headers = ["agent", "opponent", "games", "win", "draw", "loss", "win rate", "95% CI"]
    headers += ["loss rate", "95% CI (loss)"]
    rows = [
        [
            p.a,
            p.b,
            str(p.games),
            str(p.wins),
            str(p.draws),
            str(p.losses),
            f"{p.win_rate:.3f}",
            format_interval(p.win_ci95),
            f"{p.loss_rate:.3f}",
            format_interval(p.loss_ci95),
        ]
        for p in pairs
    ]
    return format_table(headers, rows)


def _rating_table(result: PlayerCountResult) -> str:
    seat = result.first_seat
    first = (
        f"first seat wins {seat['win_rate']:.3f} {format_interval(seat['win_ci95'])} of "
        f"{seat['games']} games (even share {seat['even_share']:.3f})"
    )
    rows = [
        [
            r["agent"],
            *(f"{r[key]:.2f}" for key in ("mu", "sigma", "ordinal")),
            _ms(result, r["agent"]),
        ]
        for r in result.ratings
    ]
    headers = ["agent", "mu", "sigma", "ordinal", MS_HEADER]
    return first + "\n\n" + format_table(headers, rows)


def _ms(result: PlayerCountResult, agent: str) -> str:
    time = result.decision_time.get(agent)
    return "-" if time is None else time.ms_text()


def save_json(path: Path, header: dict[str, Any], results: Sequence[PlayerCountResult]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    document = {**header, "results": [asdict(result) for result in results]}
    path.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")


# ----- command line -------------------------------------------------------------------------


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", help="registered game name, e.g. regicide")
    parser.add_argument(
        "--agents",
        default="random,heuristic",
        help=f"comma-separated agent specs (default random,heuristic): {agent_specs_help()}",
    )
    parser.add_argument("--games", type=int, default=200, help="games per pair or agent")
    parser.add_argument("--workers", type=int, default=1, help="parallel processes")
    parser.add_argument("--seed", type=int, default=0, help="first game seed")
    parser.add_argument(
        "--players-list",
        metavar="N,M",
        help="evaluate at each of these player counts (default: --players or the game's)",
    )
    parser.add_argument(
        "--out",
        metavar="DIR",
        help="write results.json, results.png and the game records (games.jsonl) here",
    )
    add_game_options(parser)


def run(args: argparse.Namespace) -> int:
    try:
        game_name, specs, options = agents_match(args)
        counts = _player_counts(args.players_list, options.pop("num_players", None))
        if args.games < 1:
            raise ValueError("--games must be at least 1")
        games_log = fresh_games_log(Path(args.out)) if args.out else None
        results = evaluate(
            game_name,
            specs,
            player_counts=counts,
            games=args.games,
            seed=args.seed,
            workers=args.workers,
            options=options,
            games_log=games_log,
            progress=True,
            timed=True,
        )
    except (ValueError, FileNotFoundError, TypeError) as error:
        raise CommandError(str(error)) from error
    print(result_tables(results))
    if args.out:
        out = Path(args.out)
        header = {"game": game_name, "agents": specs, "games": args.games, "seed": args.seed}
        header["options"] = options
        save_json(out / "results.json", header, results)
        from tabletop.matches.plots import evaluation_figure

        evaluation_figure(out / "results.png", game_name, specs, results)
        written = f"{out / 'results.json'}, {out / 'results.png'} and {games_log}"
        print(f"wrote {written}", file=sys.stderr)
    return 0


def _player_counts(text: str | None, single: int | None) -> list[int | None]:
    if text is None:
        return [single]
    try:
        return [int(part) for part in text.split(",")]
    except ValueError:
        raise ValueError(f"--players-list must be numbers like 2,3, got {text!r}") from None
