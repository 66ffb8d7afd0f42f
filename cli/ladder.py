"""Rank the agents of one game: a round robin, Elo ratings with intervals, the win matrix
and each agent's time per decision, as JSON, a Markdown table and a PNG.

Competitive games: every pair of agents plays ``--games`` games, each deal from every
arrangement of the pair over the seats (both seat orders with two players; with three or
four, each agent alone at every seat against the other at the rest), as ``tabletop eval``
plays them. The ratings are Elo from a Bradley-Terry maximum-likelihood fit of all games at
once, with 95% bootstrap intervals over the deals, anchored at random = 0 when random
plays (``matches.elo`` says why this and not openskill: order-independent, and an interval
over the games); the win matrix holds each pair's wins, draws and losses with Wilson
intervals.

Cooperative games (identical payoffs): each agent plays every seat of ``--games`` games;
the agents are ranked by the game's ``best_metric`` (configs.toml) with its 95% interval,
the team win rate beside it with its Wilson interval; there is no win matrix.

Time per decision: the wall time of each agent's ``act`` in the worker that played it,
mean and 95th percentile. Written to --out (default runs/ladder-GAME): ladder.json,
ladder.md, ladder.png and the game records (games.jsonl, which ``tabletop replay`` shows).
``--recount DIR`` plays nothing: it counts DIR's games again (say, after the counting
gained a figure) and rewrites its figures. ``--extend DIR`` adds ``--agents`` to the ladder
in DIR: each plays every agent already there and every other newcomer, with DIR's games per
pair, seeds and options; the games already played are kept, and everything is counted again.
"""

from __future__ import annotations

import argparse
import json
import shlex
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from tabletop import envs
from tabletop.agents import agent_identity, agent_specs_help, make_agent
from tabletop.cli.evaluate import evaluate
from tabletop.cli.options import CommandError, add_game_options, agents_match
from tabletop.matches.elo import BOOTSTRAP_SAMPLES, EloRating, elo_ratings
from tabletop.matches.records import (
    GAMES_LOG,
    GameRecord,
    fresh_games_log,
    read_records,
)
from tabletop.matches.results import format_interval, format_options, format_table
from tabletop.matches.schedules import AgentSource
from tabletop.matches.standings import (
    DecisionTime,
    PairResult,
    TeamResult,
    decision_time,
    pair_result,
    team_result,
)
from tabletop.training.config import game_settings, is_cooperative, registered_name

ANCHOR = "random"
"""The agent rated 0 when it plays: random play is the floor every ladder of a game shares."""
GAMES = 100
"""Games per pair (cooperative: per agent) when ``--games`` is not given."""
SEED = 0
"""The first deal's seed when ``--seed`` is not given."""
LADDER_FORMAT = "tabletop-ladder"
LADDER_VERSION = 1


@dataclass
class Ladder:
    """One game's ladder; ``ratings`` and ``matrix`` in a competitive game, ``teams`` (best
    first) in a cooperative one."""

    game: str
    mode: str
    """``"competitive"`` or ``"cooperative"``."""
    num_players: int
    options: dict[str, Any]
    agents: list[str]
    games: int
    """Games per pair (competitive) or per agent (cooperative)."""
    seed: int
    anchor: str | None
    samples: int
    """Simulated replays of the games behind each rating interval (``matches.elo``)."""
    ratings: list[EloRating] = field(default_factory=list)
    matrix: dict[str, dict[str, PairResult]] = field(default_factory=dict)
    """``matrix[a][b]``: ``a``'s games against ``b``, counted from ``a``'s side."""
    teams: list[TeamResult] = field(default_factory=list)
    times: dict[str, DecisionTime] = field(default_factory=dict)
    source: dict[str, Any] = field(default_factory=dict)
    """The checkout's commit (and whether it had changes) and the time when the games
    began: a checkout may move on while a long ladder plays."""

    @property
    def pairs(self) -> list[PairResult]:
        """Every cell of the matrix (the shape the win-rate heatmap reads)."""
        return [pair for row in self.matrix.values() for pair in row.values()]

    def ranked(self) -> list[str]:
        """The agents, best first."""
        if self.mode == "cooperative":
            return [team.agent for team in self.teams]
        return [rating.agent for rating in self.ratings]


def ladder(
    game_name: str,
    agents: Sequence[str] | dict[str, AgentSource],
    *,
    games: int,
    out: Path,
    seed: int = 0,
    workers: int = 1,
    options: dict[str, Any] | None = None,
    samples: int = BOOTSTRAP_SAMPLES,
    progress: bool = False,
) -> Ladder:
    """Play the ladder (see the module docstring) and count it; ``agents`` are specs, or
    labels mapped to specs or agents. The games are kept in ``out``/games.jsonl. Bad
    input (see ``check_request``) is refused before a game is played."""
    game_name = registered_name(game_name)
    if not isinstance(agents, dict):
        agents = {spec: spec for spec in agents}
    options = dict(options or {})
    num_players = check_request(game_name, agents, games, options)
    games_log = fresh_games_log(out)
    source = {**_commit(), "started": _now()}
    evaluate(
        game_name,
        agents,
        player_counts=[None],
        games=games,
        seed=seed,
        workers=workers,
        options=options,
        games_log=games_log,
        progress=progress,
        timed=True,
    )
    return count(
        game_name,
        list(agents),
        read_records(games_log),
        num_players=num_players,
        options=options,
        games=games,
        seed=seed,
        samples=samples,
        source=source,
    )


def count(
    game_name: str,
    labels: list[str],
    records: Sequence[GameRecord],
    *,
    num_players: int,
    options: dict[str, Any],
    games: int,
    seed: int,
    samples: int = BOOTSTRAP_SAMPLES,
    source: dict[str, Any] | None = None,
) -> Ladder:
    """The ladder of ``labels`` from the games ``records`` hold: ratings and the win
    matrix (competitive), team figures (cooperative), every agent's time per decision."""
    cooperative = is_cooperative(game_name)
    anchor = ANCHOR if ANCHOR in labels and not cooperative else None
    ratings = (
        []
        if cooperative
        else elo_ratings(records, labels, anchor=anchor, samples=samples, seed=seed)
    )
    return Ladder(
        game=game_name,
        mode="cooperative" if cooperative else "competitive",
        num_players=num_players,
        options=options,
        agents=labels,
        games=games,
        seed=seed,
        anchor=anchor,
        samples=samples,
        ratings=ratings,
        matrix={} if cooperative else win_matrix(records, labels),
        teams=[] if not cooperative else team_results(game_name, records, labels),
        times={label: decision_time(label, records) for label in labels},
        source=dict(source or {}),
    )


def team_results(
    game_name: str, records: Sequence[GameRecord], labels: Sequence[str]
) -> list[TeamResult]:
    """Each agent's games as the whole team, best first by the game's ``best_metric``."""
    config = game_settings(game_name)
    teams = [
        team_result(
            label,
            [record for record in records if set(record.seats) == {label}],
            config.distribution_stats,
            config.best_metric,
        )
        for label in labels
    ]
    return sorted(teams, key=lambda team: -team.metric_mean)


def read_ladder(out: Path) -> dict[str, Any]:
    """The document (ladder.json) of the ladder written in ``out``."""
    written = out / "ladder.json"
    if not written.is_file():
        raise FileNotFoundError(f"{written}: no ladder there (`tabletop ladder --out`)")
    document = json.loads(written.read_text(encoding="utf-8"))
    if document.get("format") != LADDER_FORMAT:
        raise ValueError(f"{written}: not a ladder (format {document.get('format')!r})")
    return document


def recount(out: Path) -> tuple[Ladder, dict[str, Any]]:
    """The ladder written in ``out`` counted again from its games (games.jsonl) by this
    checkout's counting, with the agents and settings its ladder.json records; and that
    document, whose command and commit say how the games were played."""
    document = read_ladder(out)
    records = read_records(out / GAMES_LOG)
    return _count_document(document, _played_order(document, records), records), document


def _count_document(
    document: dict[str, Any], labels: list[str], records: Sequence[GameRecord]
) -> Ladder:
    """``count`` with the game and settings of a ladder's ``document``; its source is the
    commit and start of the ladder's first games."""
    settings = document["settings"]
    return count(
        registered_name(document["game"]),
        labels,
        records,
        num_players=document["num_players"],
        options=settings["options"],
        games=settings["games"],
        seed=settings["seed"],
        samples=settings["interval_samples"],
        source={key: document.get(key) for key in ("commit", "uncommitted_changes", "started")},
    )


@dataclass(frozen=True)
class Extension:
    """Agents who joined a ladder: who, and the commit and time their games began."""

    agents: list[str]
    source: dict[str, Any]


def extend(
    game_name: str, out: Path, agents: Sequence[str], *, workers: int = 1, progress: bool = False
) -> tuple[Ladder, dict[str, Any], Extension]:
    """The ladder in ``out`` with ``agents`` joined (see the module docstring), its document
    as it was, and the extension. Refused before a game is played: an agent already in the
    ladder or with games in its games.jsonl (an extension that did not finish), a ladder
    of another game, an agent spec that cannot be built."""
    document = read_ladder(out)
    if registered_name(document["game"]) != registered_name(game_name):
        raise ValueError(f"{out} holds a ladder of {document['game']}, not of {game_name}")
    records = read_records(out / GAMES_LOG)
    present = _played_order(document, records)
    present_identities = {agent_identity(agent) for agent in present}
    if already := [agent for agent in agents if agent_identity(agent) in present_identities]:
        raise ValueError(f"{out}: already in the ladder: {', '.join(already)}")
    if stray := sorted({label for record in records for label in record.seats} & set(agents)):
        raise ValueError(
            f"{out / GAMES_LOG} already holds games of {', '.join(stray)}, which its ladder "
            "does not count (an extension that did not finish?): remove them, or extend a copy"
        )
    settings = document["settings"]
    labels = [*present, *agents]
    specs: dict[str, AgentSource] = {label: label for label in labels}
    check_request(registered_name(game_name), specs, settings["games"], settings["options"])
    extension = Extension(list(agents), {**_commit(), "started": _now()})
    evaluate(
        registered_name(game_name),
        specs,
        player_counts=[None],
        games=settings["games"],
        seed=settings["seed"],
        workers=workers,
        options=settings["options"],
        games_log=out / GAMES_LOG,
        progress=progress,
        timed=True,
        only_with=set(agents),
    )
    return _count_document(document, labels, read_records(out / GAMES_LOG)), document, extension


def _played_order(document: dict[str, Any], records: Sequence[GameRecord]) -> list[str]:
    """The agents in the order they were asked for (the first seat of their first game),
    every one the document ranks."""
    seen = list(dict.fromkeys(label for record in records for label in record.seats))
    return [label for label in seen if label in document["agents"]]


def win_matrix(
    records: Sequence[GameRecord], labels: Sequence[str]
) -> dict[str, dict[str, PairResult]]:
    """Each agent's results against each other agent, from the games of that pair."""
    return {
        a: {
            b: pair_result(a, b, [record for record in records if set(record.seats) == {a, b}])
            for b in labels
            if b != a
        }
        for a in labels
    }


def check_request(
    game_name: str, agents: dict[str, AgentSource], games: int, options: dict[str, Any]
) -> int:
    """The game's player count, once the request is known to be playable: at least one
    game, the options known to the game, every agent spec buildable, and at least two
    agents in a competitive game; else ``ValueError`` (``TypeError`` for an unknown
    option) naming what is wrong."""
    if games < 1:
        raise ValueError(f"--games must be at least 1, got {games}")
    num_players = envs.make_game(game_name, **options).num_players
    if not is_cooperative(game_name) and len(agents) < 2:
        raise ValueError(
            f"{game_name} is competitive: a ladder needs at least two agents, "
            f"got {len(agents)} ({', '.join(agents) or 'none'})"
        )
    for source in agents.values():
        if isinstance(source, str):
            make_agent(source, game_name, seed=0)
    return num_players


# ----- output -------------------------------------------------------------------------------


def markdown(ladder: Ladder) -> str:
    """The ladder as a Markdown table, with a line saying what was played and how to read
    the figures."""
    title = f"## {ladder.game}, {ladder.num_players} players ({ladder.mode})"
    options = format_options(ladder.options)
    if ladder.mode == "cooperative":
        played = f"{ladder.games} games per agent at every seat, seeds from {ladder.seed}"
        table = _team_table(ladder)
    else:
        played = (
            f"{ladder.games} games per pair, seats swapped deal by deal, seeds from "
            f"{ladder.seed}; Elo from a Bradley-Terry fit, 95% interval from simulated replays, "
            + (f"{ladder.anchor} = 0" if ladder.anchor else "mean 0")
            + "; lead: Elo above the next agent down, its interval over the same replays"
            + "; row agent's win rate against the column agent [95% Wilson interval]"
        )
        table = _rating_table(ladder)
    timing = "ms per decision: mean / 95th percentile of the agent's act wall time"
    return f"{title}\n\nOptions: {options}. {played}; {timing}.\n\n{table}\n"


def _rating_table(ladder: Ladder) -> str:
    ranked = ladder.ranked()
    headers = ["rank", "agent", "Elo [95% CI]", "lead on next [95% CI]"]
    headers += [f"vs {agent}" for agent in ranked]
    rows = []
    for rank, rating in enumerate(ladder.ratings, start=1):
        low, high = rating.ci95
        row = [str(rank), rating.agent, f"{rating.elo:.0f} [{low:.0f}, {high:.0f}]"]
        row.append(_lead(rating))
        row += [_versus(ladder, rating.agent, other) for other in ranked]
        rows.append([*row, ladder.times[rating.agent].ms_text()])
    return format_table([*headers, "ms per decision"], rows)


def _lead(rating: EloRating) -> str:
    """The Elo gap to the next agent down with its interval: unlike the ratings' intervals,
    it does not lean on the anchor (``matches.elo``)."""
    if rating.gap_to_next is None or rating.gap_ci95 is None:
        return "-"
    low, high = rating.gap_ci95
    return f"{rating.gap_to_next:.0f} [{low:.0f}, {high:.0f}]"


def _versus(ladder: Ladder, a: str, b: str) -> str:
    if a == b:
        return "-"
    pair = ladder.matrix[a][b]
    low, high = pair.win_ci95
    return f"{pair.win_rate:.2f} [{low:.2f}, {high:.2f}]"


def _team_table(ladder: Ladder) -> str:
    metric = ladder.teams[0].metric
    shown = "team win rate" if metric == "win_rate" else f"mean {metric}"
    headers = ["rank", "agent", f"{shown} [95% CI]", "team win rate [95% CI]", "ms per decision"]
    rows = [
        [
            str(rank),
            team.agent,
            f"{team.metric_mean:.3f} {format_interval(team.metric_ci95)}",
            f"{team.win_rate:.3f} {format_interval(team.win_ci95)}",
            ladder.times[team.agent].ms_text(),
        ]
        for rank, team in enumerate(ladder.teams, start=1)
    ]
    return format_table(headers, rows)


def document(ladder: Ladder, command: str, workers: int) -> dict[str, Any]:
    """ladder.json: the figures, and what produced them (command, commit, date, settings)."""
    ranked = ladder.ranked()
    doc: dict[str, Any] = {
        "format": LADDER_FORMAT,
        "version": LADDER_VERSION,
        "game": ladder.game,
        "mode": ladder.mode,
        "num_players": ladder.num_players,
        "command": command,
        **(ladder.source or _commit()),
        "date": _now(),
        "settings": {
            "games": ladder.games,
            "seed": ladder.seed,
            "workers": workers,
            "options": ladder.options,
            "anchor": ladder.anchor,
            "interval_samples": ladder.samples,
        },
        "agents": ranked,
        "decision_time": {agent: asdict(ladder.times[agent]) for agent in ranked},
    }
    if ladder.mode == "cooperative":
        doc["teams"] = [asdict(team) for team in ladder.teams]
    else:
        doc["ratings"] = [asdict(rating) for rating in ladder.ratings]
        doc["win_matrix"] = {
            a: {b: _cell(ladder.matrix[a][b]) for b in ranked if b != a} for a in ranked
        }
    return doc


def _cell(pair: PairResult) -> dict[str, Any]:
    """A win-matrix cell without the names its row and column give."""
    return {key: value for key, value in asdict(pair).items() if key not in ("a", "b")}


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _commit() -> dict[str, Any]:
    """The checkout's commit and whether tracked files differ from it; None for both when
    the package is not in a git checkout (or git is missing)."""
    here = Path(__file__).parent
    try:
        head = _git(here, "rev-parse", "HEAD")
        changed = bool(_git(here, "status", "--porcelain", "--untracked-files=no"))
    except (OSError, subprocess.CalledProcessError):
        return {"commit": None, "uncommitted_changes": None}
    return {"commit": head, "uncommitted_changes": changed}


def _git(where: Path, *arguments: str) -> str:
    completed = subprocess.run(
        ["git", "-C", str(where), *arguments], capture_output=True, text=True, check=True
    )
    return completed.stdout.strip()


def write_outputs(out: Path, ladder: Ladder, command: str, workers: int) -> list[Path]:
    """ladder.json, ladder.md and ladder.png in ``out``; the paths written."""
    from tabletop.matches.plots import ladder_figure

    paths = [out / "ladder.json", out / "ladder.md", out / "ladder.png"]
    paths[0].write_text(json.dumps(document(ladder, command, workers), indent=2) + "\n")
    paths[1].write_text(markdown(ladder), encoding="utf-8")
    ladder_figure(paths[2], ladder)
    return paths


# ----- command line -------------------------------------------------------------------------


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", help="registered game name, e.g. kaleva")
    parser.add_argument(
        "--agents",
        help=f"comma-separated agent specs: {agent_specs_help()}",
    )
    parser.add_argument(
        "--recount",
        metavar="DIR",
        help="play nothing: count the ladder in DIR again from its games (games.jsonl) with "
        "the agents and settings of its ladder.json, and rewrite its figures",
    )
    parser.add_argument(
        "--extend",
        metavar="DIR",
        help="add --agents to the ladder in DIR: each plays every agent there and every other "
        "new one, with DIR's games per pair, seeds and options; every figure counted again",
    )
    parser.add_argument(
        "--games", type=int, help=f"games per pair (cooperative: per agent; default {GAMES})"
    )
    parser.add_argument("--workers", type=int, default=1, help="parallel processes")
    parser.add_argument("--seed", type=int, help=f"first game seed (default {SEED})")
    parser.add_argument("--out", metavar="DIR", help="output directory (default runs/ladder-GAME)")
    add_game_options(parser)


def run(args: argparse.Namespace) -> int:
    if args.recount and args.extend:
        raise CommandError("--recount and --extend: one at a time")
    if args.recount or args.extend:
        _refuse_the_ladders_own_settings(args)
    if args.recount:
        return _run_recount(args)
    if not args.agents:
        raise CommandError("--agents is required (or --recount DIR)")
    if args.extend:
        return _run_extend(args)
    args.games = GAMES if args.games is None else args.games
    args.seed = SEED if args.seed is None else args.seed
    try:
        game_name, specs, options = agents_match(args)
        out = Path(args.out or f"runs/ladder-{game_name}")
        result = ladder(
            game_name,
            specs,
            games=args.games,
            out=out,
            seed=args.seed,
            workers=args.workers,
            options=options,
            progress=True,
        )
    except (ValueError, FileNotFoundError, TypeError) as error:
        raise CommandError(str(error)) from error
    paths = write_outputs(out, result, command_line(args, out), args.workers)
    print(markdown(result), end="")
    written = ", ".join(str(path) for path in [*paths, out / "games.jsonl"])
    print(f"wrote {written}", file=sys.stderr)
    return 0


def _refuse_the_ladders_own_settings(args: argparse.Namespace) -> None:
    """``--recount`` and ``--extend`` take the games, seeds, options and directory of the
    ladder they name: the same flags given as well would be ignored, so they are refused."""
    flag = "--recount" if args.recount else "--extend"
    given = [
        name
        for name, value in (
            ("--games", args.games),
            ("--seed", args.seed),
            ("--players", args.players),
            ("--out", args.out),
        )
        if value is not None
    ] + (["--option"] if args.option else [])
    if given:
        raise CommandError(f"{flag} takes {', '.join(given)} from DIR/ladder.json; leave them out")


def _run_extend(args: argparse.Namespace) -> int:
    """``--extend DIR``: the new agents' games added to DIR and every figure rewritten; the
    document keeps the command and commit of the first games and lists each extension."""
    out = Path(args.extend)
    try:
        game_name, specs, _ = agents_match(args)  # no options: refused beside --extend
        result, played, extension = extend(
            game_name, out, specs, workers=args.workers, progress=True
        )
    except (ValueError, FileNotFoundError, TypeError) as error:
        raise CommandError(str(error)) from error
    paths = write_outputs(out, result, played["command"], played["settings"]["workers"])
    document = json.loads(paths[0].read_text(encoding="utf-8"))
    words = ["tabletop", "ladder", args.game, "--agents", args.agents, "--extend", str(out)]
    words += ["--workers", str(args.workers)]
    document["extensions"] = [
        *played.get("extensions", []),
        {"agents": extension.agents, "command": shlex.join(words), **extension.source},
    ]
    paths[0].write_text(json.dumps(document, indent=2) + "\n")
    print(markdown(result), end="")
    print(f"wrote {', '.join(str(path) for path in paths)}", file=sys.stderr)
    return 0


def _run_recount(args: argparse.Namespace) -> int:
    """``--recount DIR``: the figures of DIR rewritten from its games; the document keeps the
    command and commit that played them and adds the commit and date of this count."""
    out = Path(args.recount)
    try:
        if args.agents:
            raise ValueError("--recount takes its agents from DIR/ladder.json, not --agents")
        result, played = recount(out)
        if result.game != registered_name(args.game):
            raise ValueError(f"{out} holds a ladder of {result.game}, not of {args.game}")
    except (ValueError, FileNotFoundError) as error:
        raise CommandError(str(error)) from error
    paths = write_outputs(out, result, played["command"], played["settings"]["workers"])
    document = json.loads(paths[0].read_text(encoding="utf-8"))
    document["recounted"] = {**_commit(), "date": _now()}
    document["date"] = played["date"]
    if "extensions" in played:
        document["extensions"] = played["extensions"]
    paths[0].write_text(json.dumps(document, indent=2) + "\n")
    print(markdown(result), end="")
    print(f"wrote {', '.join(str(path) for path in paths)}", file=sys.stderr)
    return 0


def command_line(args: argparse.Namespace, out: Path) -> str:
    """The command that reproduces the ladder, every setting spelled out."""
    words = ["tabletop", "ladder", args.game, "--agents", args.agents]
    words += ["--games", str(args.games), "--workers", str(args.workers)]
    words += ["--seed", str(args.seed), "--out", str(out)]
    if args.players is not None:
        words += ["--players", str(args.players)]
    for key, value in args.option:
        words += ["--option", f"{key}={_option_text(value)}"]
    return shlex.join(words)


def _option_text(value: Any) -> str:
    """An option value as ``--option`` reads it back."""
    if isinstance(value, tuple):
        return ",".join(_option_text(item) for item in value) + ("," if len(value) == 1 else "")
    if isinstance(value, bool):
        return str(value).lower()
    return str(value)
