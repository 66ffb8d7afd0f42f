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
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from functools import partial
from multiprocessing import get_context
from pathlib import Path
from typing import Any

from tabletop import envs
from tabletop.agents import Agent, agent_specs_help, make_agent, split_agent_specs
from tabletop.agents.outcome import DRAW, LOSS, WIN, side_outcome, team_outcome
from tabletop.matches.records import GameRecord, append_records, play_record
from tabletop.matches.results import (
    format_interval,
    format_table,
    mean_interval,
)
from tabletop.matches.tally import Tally
from tabletop.training.commandline import CommandError, add_game_options, engine_options
from tabletop.training.config import game_config, registered_name

AgentSource = str | Agent
"""An agent spec (resolved where the game is played, e.g. in a worker) or an agent."""

GAMES_PER_TASK = 25
"""Games a worker plays per task: enough to amortise building its agents."""
GAMES_LOG = "games.jsonl"
"""The game records an evaluation with ``--out`` writes (``tabletop replay`` shows them)."""
PROGRESS_EVERY_S = 5.0
"""``tabletop eval`` reports games done at most this often (and at the end of each pair)."""

GamesDone = Callable[[Sequence[GameRecord]], None]
"""Told of games as they finish (a worker's chunk at a time)."""


@dataclass
class PairResult:
    """``a`` against ``b``, counted from ``a``'s side."""

    a: str
    b: str
    games: int
    wins: int
    draws: int
    losses: int
    win_rate: float
    win_ci95: tuple[float, float]
    loss_rate: float
    loss_ci95: tuple[float, float]


@dataclass
class TeamResult:
    """One agent at every seat of a cooperative game."""

    agent: str
    games: int
    wins: int
    win_rate: float
    win_ci95: tuple[float, float]
    stats_mean: dict[str, float]
    metric: str
    """The game's ``best_metric``: ``win_rate`` or the ``stats()`` figure that ranks agents."""
    metric_mean: float
    metric_ci95: tuple[float, float] | None
    """95% interval of ``metric_mean`` (Wilson for ``win_rate``); None from one game."""
    distributions: dict[str, dict[str, int]] = field(default_factory=dict)


@dataclass
class PlayerCountResult:
    num_players: int
    mode: str
    """``"competitive"`` or ``"cooperative"``."""
    pairs: list[PairResult] = field(default_factory=list)
    first_seat: dict[str, Any] = field(default_factory=dict)
    ratings: list[dict[str, Any]] = field(default_factory=list)
    teams: list[TeamResult] = field(default_factory=list)


# ----- playing ------------------------------------------------------------------------------


def play_games(
    game_name: str,
    options: dict[str, Any],
    agents: dict[str, AgentSource],
    schedule: Sequence[tuple[tuple[str, ...], int]],
    agent_seed: int,
    on_games: GamesDone | None = None,
) -> list[GameRecord]:
    """Play each ``(seat labels, game seed)`` of ``schedule``; ``agents`` maps labels to
    agents or specs (built once here, each with its own seed). ``on_games`` is told of
    each game as it ends."""
    game = envs.make_game(game_name, **options)
    built = build_agents(game_name, agents, agent_seed)
    _limit_torch_threads()  # after building: policy agents import torch
    records = []
    for seats, game_seed in schedule:
        record = play_record(game, options, game_seed, seats, [built[label] for label in seats])
        records.append(record)
        if on_games is not None:
            on_games([record])
    return records


def build_agents(
    game_name: str, agents: dict[str, AgentSource], agent_seed: int
) -> dict[str, Agent]:
    """Specs made into agents, each with its own seed; agents pass through."""
    return {
        label: make_agent(source, game_name, agent_seed + index)
        if isinstance(source, str)
        else source
        for index, (label, source) in enumerate(agents.items())
    }


def _play_task(task: tuple) -> list[GameRecord]:
    return play_games(*task)


def _limit_torch_threads() -> None:
    """One torch thread (if torch is loaded at all): a policy's forward pass on one
    observation gains nothing from more, and on shared cores idle threads spin."""
    torch = sys.modules.get("torch")
    if torch is not None:
        torch.set_num_threads(1)


def play_schedule(
    game_name: str,
    options: dict[str, Any],
    agents: dict[str, AgentSource],
    schedule: Sequence[tuple[tuple[str, ...], int]],
    *,
    agent_seed: int = 0,
    workers: int = 1,
    games_log: Path | None = None,
    on_games: GamesDone | None = None,
) -> list[GameRecord]:
    """``play_games`` split over ``workers`` processes (in order of ``schedule``); the
    records are appended to ``games_log`` when given, and ``on_games`` is told of games as
    they end."""
    if workers <= 1:
        records = play_games(game_name, options, agents, schedule, agent_seed, on_games)
    else:
        records = _play_in_workers(
            game_name, options, agents, schedule, agent_seed, workers, on_games
        )
    if games_log is not None:
        append_records(games_log, records)
    return records


def _play_in_workers(
    game_name: str,
    options: dict[str, Any],
    agents: dict[str, AgentSource],
    schedule: Sequence[tuple[tuple[str, ...], int]],
    agent_seed: int,
    workers: int,
    on_games: GamesDone | None = None,
) -> list[GameRecord]:
    chunks = [schedule[i : i + GAMES_PER_TASK] for i in range(0, len(schedule), GAMES_PER_TASK)]
    tasks = [
        (game_name, options, agents, chunk, agent_seed + 1000 * index)
        for index, chunk in enumerate(chunks)
    ]
    played = []
    with ProcessPoolExecutor(workers, mp_context=get_context("forkserver")) as pool:
        for records in pool.map(_play_task, tasks):
            played += records
            if on_games is not None:
                on_games(records)
    return played


def pair_arrangements(a: str, b: str, num_players: int) -> list[tuple[str, ...]]:
    """Every distinct arrangement of ``a`` alone at one seat against ``b`` at all others,
    and the reverse: both seat orders when two play."""
    arrangements: list[tuple[str, ...]] = []
    for lone, field_agent in ((a, b), (b, a)):
        for seat in range(num_players):
            seats = tuple(lone if s == seat else field_agent for s in range(num_players))
            if seats not in arrangements:
                arrangements.append(seats)
    return arrangements


def pair_schedule(
    a: str, b: str, num_players: int, games: int, seed: int
) -> list[tuple[tuple[str, ...], int]]:
    """``games`` games of ``a`` against ``b``: each deal (seed) is played in every
    arrangement before the next deal, so seats are swapped equally."""
    arrangements = pair_arrangements(a, b, num_players)
    return [
        (arrangements[g % len(arrangements)], seed + g // len(arrangements)) for g in range(games)
    ]


# ----- counting -----------------------------------------------------------------------------


def pair_result(a: str, b: str, records: Sequence[GameRecord]) -> PairResult:
    """``a``'s results against ``b``, each game seen with ``a``'s seats as one side."""
    tally = Tally.of(record.side_outcome(a) for record in records)
    return PairResult(a=a, b=b, **tally.figures_for(PairResult))


def first_seat_result(records: Sequence[GameRecord]) -> dict[str, Any]:
    """How often seat 0 wins outright; with seats swapped equally, agent strength cancels
    and the remainder is the seat's advantage (no advantage: about 1 / players)."""
    wins = sum(side_outcome(record.returns, 0) == WIN for record in records)
    tally = Tally.of_wins(wins, len(records))
    return {
        **tally.figures(["games", "wins", "win_rate", "win_ci95"]),
        "even_share": 1 / len(records[0].seats),
    }


def ratings(records: Sequence[GameRecord], labels: Sequence[str]) -> list[dict[str, Any]]:
    """Plackett-Luce ratings from every game, in schedule order; sorted best first by the
    conservative ``ordinal`` (mu - 3 sigma)."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    rating = {label: model.rating(name=label) for label in labels}
    for record in records:
        sides = sorted(set(record.seats))
        rank = {WIN: 1, DRAW: 1, LOSS: 2}
        ranks = [rank[record.side_outcome(side)] for side in sides]
        updated = model.rate([[rating[side]] for side in sides], ranks=ranks)
        for side, (new_rating,) in zip(sides, updated, strict=True):
            rating[side] = new_rating
    table = [
        {"agent": label, "mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal()}
        for label, r in rating.items()
    ]
    return sorted(table, key=lambda row: -row["ordinal"])


def team_result(
    label: str, records: Sequence[GameRecord], distribution_stats: Sequence[str], metric: str
) -> TeamResult:
    """``label``'s team figures; ``metric`` is the game's ``best_metric``."""
    games = len(records)
    tally = _team_tally(records)
    sums: Counter[str] = Counter()
    for record in records:
        sums.update(record.stats)
    distributions = {
        key: dict(sorted(Counter(_stat_label(r.stats.get(key)) for r in records).items()))
        for key in distribution_stats
        if any(key in r.stats for r in records)  # e.g. grades exist only in solo games
    }
    return TeamResult(
        agent=label,
        **tally.figures_for(TeamResult),
        stats_mean={key: total / games for key, total in sums.items()},
        metric=metric,
        distributions=distributions,
        **_metric_figures(records, metric),
    )


def _team_tally(records: Sequence[GameRecord]) -> Tally:
    wins = sum(team_outcome(record.returns) == WIN for record in records)
    return Tally.of_wins(wins, len(records))


def _metric_figures(records: Sequence[GameRecord], metric: str) -> dict[str, Any]:
    """``metric_mean`` and ``metric_ci95`` of the games: the win rate with its Wilson
    interval, or a ``stats()`` figure's mean with its normal-approximation interval."""
    if metric == "win_rate":
        tally = _team_tally(records)
        return {"metric_mean": tally.rate(WIN), "metric_ci95": tally.interval(WIN)}
    if any(metric not in record.stats for record in records):
        known = ", ".join(sorted({key for record in records for key in record.stats}))
        raise ValueError(f"best_metric {metric!r} is not a stats() figure of every game ({known})")
    values = [record.stats[metric] for record in records]
    mean = sum(values) / len(values)
    return {"metric_mean": mean, "metric_ci95": mean_interval(values)}


def _stat_label(value: float | None) -> str:
    """A stat value as a distribution key; ``"-"`` for games that do not report it."""
    if value is None:
        return "-"
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


# ----- a whole evaluation -------------------------------------------------------------------


PlaySchedule = Callable[
    [dict[str, AgentSource], Sequence[tuple[tuple[str, ...], int]]], list[GameRecord]
]
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
) -> list[PlayerCountResult]:
    """The round-robin (competitive) or team table (cooperative) for each player count;
    ``agents`` are specs, or labels mapped to specs or agents. Every game's record is
    appended to ``games_log`` when given; with ``progress``, games done are reported on
    stderr (``Progress``)."""
    config = game_config(game_name)
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
        )
        if config["cooperative"]:
            results.append(_cooperative(play, players, agents, games, seed, config))
        else:
            results.append(_competitive(play, players, agents, games, seed))
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
) -> PlayerCountResult:
    pairs = list(itertools.combinations(agents, 2))
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
    )


def _cooperative(
    play: PlaySchedule,
    players: int,
    agents: dict[str, AgentSource],
    games: int,
    seed: int,
    config: dict[str, Any],
) -> PlayerCountResult:
    teams = []
    for label in agents:
        schedule = [((label,) * players, seed + g) for g in range(games)]
        records = play({label: agents[label]}, schedule)
        teams.append(
            team_result(label, records, config["distribution_stats"], config["best_metric"])
        )
    return PlayerCountResult(num_players=players, mode="cooperative", teams=teams)


# ----- output -------------------------------------------------------------------------------


def result_tables(results: Sequence[PlayerCountResult]) -> str:
    """The terminal (and Markdown) tables of an evaluation."""
    parts = []
    for result in results:
        parts.append(f"{result.num_players} players ({result.mode})")
        if result.mode == "cooperative":
            parts.append(_team_table(result.teams))
        else:
            parts += [_pair_table(result.pairs), _rating_table(result), ""]
        parts.append("")
    return "\n".join(parts).rstrip() + "\n"


def _team_table(teams: Sequence[TeamResult]) -> str:
    """One row per agent, led by the game's ``best_metric`` (what tells agents apart when
    they all win about as rarely), then the win rate unless that is the metric."""
    metric = teams[0].metric
    stat_keys = sorted({key for team in teams for key in team.stats_mean} - {metric})
    dist_keys = sorted({key for team in teams for key in team.distributions})
    metric_header = "team win rate" if metric == "win_rate" else f"mean {metric}"
    headers = ["agent", "games", metric_header, "95% CI"]
    if metric != "win_rate":
        headers += ["team win rate", "95% CI (win rate)"]
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
        [r["agent"], f"{r['mu']:.2f}", f"{r['sigma']:.2f}", f"{r['ordinal']:.2f}"]
        for r in result.ratings
    ]
    return first + "\n\n" + format_table(["agent", "mu", "sigma", "ordinal"], rows)


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
        game_name = registered_name(args.game)
        specs = split_agent_specs(args.agents)
        if len(set(specs)) != len(specs):
            raise ValueError(f"--agents names an agent twice: {args.agents}")
        options = engine_options(args)
        counts = _player_counts(args.players_list, options.pop("num_players", None))
        if args.games < 1:
            raise ValueError("--games must be at least 1")
        games_log = _fresh_games_log(Path(args.out)) if args.out else None
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


def _fresh_games_log(out: Path) -> Path:
    """``out/games.jsonl``, emptied: it holds this evaluation's games, as results.json
    holds its figures."""
    out.mkdir(parents=True, exist_ok=True)
    games_log = out / GAMES_LOG
    games_log.unlink(missing_ok=True)
    return games_log


def _player_counts(text: str | None, single: int | None) -> list[int | None]:
    if text is None:
        return [single]
    try:
        return [int(part) for part in text.split(",")]
    except ValueError:
        raise ValueError(f"--players-list must be numbers like 2,3, got {text!r}") from None
