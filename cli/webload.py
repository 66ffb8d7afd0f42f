"""Load-test the web table: concurrent games of a client's moves against agents, on 127.0.0.1.

    tabletop web-load --game GAME [--games 50] [--agent heuristic] [--think 0.5]
                      [--seconds 300] [--beside SPEC]

Starts ``tabletop serve`` (a child process) on a free port with a fresh SQLite file, then
plays ``--games`` games at once, each a client posting random legal moves at seat 0 against
``--agent`` at every other seat (pace 0), a move ``--think`` seconds (on average: uniform
from none to twice that) after its turn came, as a quick human would. It stops by itself
when every game is over or ``--seconds`` have passed, and prints the p50 and p99 latency of
a move's response and of the agents' reply (from that response until the client's seat is
to move again or the game is over, learnt by reads that wait for the next move), the
errors, and the lost games: games that did not finish, or whose stored row does not hold
the end the client saw.

``--beside SPEC`` (e.g. ``ismcts:seconds=2``) runs the load twice, each on a fresh server:
alone, then beside a table of two SPEC agents playing each other all along (a long search
a move), and prints both runs' p99s side by side: agents think in processes of their own,
so a long search at one table should not raise the others' figures.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tabletop.cli.options import CommandError

if TYPE_CHECKING:
    from tabletop.web.store import TableStore


@dataclass
class LoadReport:
    games: int
    finished: int = 0
    moves: int = 0
    errors: list[str] = field(default_factory=list)
    lost: list[str] = field(default_factory=list)
    move_ms: list[float] = field(default_factory=list)
    reply_ms: list[float] = field(default_factory=list)
    seconds: float = 0.0
    final_returns: dict[str, list[float]] = field(default_factory=dict)
    """Table id -> the returns the client saw its game end with."""
    beside_moves: int | None = None
    """The moves the searching table beside the load made (``--beside``), else None."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--games", type=int, default=50, help="concurrent games (default 50)")
    parser.add_argument("--game", required=True, help="the game played (a registered name)")
    parser.add_argument("--agent", default="heuristic", help="the agents' spec (default heuristic)")
    parser.add_argument(
        "--think",
        type=float,
        default=0.5,
        help="mean seconds a client waits before its move (default 0.5; 0: at once)",
    )
    parser.add_argument(
        "--seconds", type=float, default=300.0, help="stop after this long (default 300)"
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the deals and the moves")
    parser.add_argument(
        "--beside",
        metavar="SPEC",
        default=None,
        help="also run the load beside a table of two SPEC agents (e.g. ismcts:seconds=2) "
        "and print both runs' p99s",
    )


def run(args: argparse.Namespace) -> int:
    if args.games < 1:
        raise CommandError(f"--games must be at least 1, got {args.games}")
    settings = (args.game, args.agent, args.games, args.think, args.seconds, args.seed)
    try:
        reports = [load_test(*settings)]
        if args.beside is not None:
            reports.append(load_test(*settings, beside=args.beside))
    except ImportError as error:
        raise CommandError(
            f"tabletop web-load needs the [web] extra ({error.name} is missing)"
        ) from None
    print("\n".join(format_report(report, args) for report in reports))
    if args.beside is not None:
        print(format_comparison(*reports, args.beside))
    return 0 if not any(report.errors or report.lost for report in reports) else 1


def load_test(
    game: str, agent: str, games: int, think: float, seconds: float, seed: int,
    beside: str | None = None,
) -> LoadReport:  # fmt: skip
    """Serve from a child process (its own interpreter, as a real server is), play the
    games from this process's event loop (beside a table of two ``beside`` agents, if
    given), stop the server and read its SQLite file."""
    import httpx

    from tabletop import envs
    from tabletop.cli.serve import start_in_subprocess
    from tabletop.web.store import TableStore

    if game not in envs.names():
        raise CommandError(f"unknown game {game!r}; known games: {', '.join(envs.names())}")
    seats = ["human"] + [agent] * (_players(game) - 1)
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "load.sqlite"
        server, url = start_in_subprocess(db)
        try:
            report = LoadReport(games)
            client = httpx.AsyncClient(base_url=url, timeout=30.0)
            plays = _play_all(client, game, seats, games, think, seconds, seed, report, beside)
            asyncio.run(plays)
        finally:
            server.terminate()
            server.wait(timeout=30)
        store = TableStore(db)
        _check_stored(store, report)
        store.close()
    return report


async def _start_beside(client: Any, game: str, spec: str, seed: int) -> str:
    """A table of two ``spec`` agents at full pace, watched by nobody; its id."""
    players = _players(game)
    body = {"game": game, "seats": [spec] * players, "seed": seed, "pace": 0, "omniscient": True}
    created = await client.post("/api/tables", json=body)
    if created.status_code != 201:
        raise CommandError(f"--beside {spec}: {created.status_code} {created.json()['detail']}")
    return created.json()["id"]


def _players(game: str) -> int:
    from tabletop import envs

    return envs.spec(game).default_players


async def _play_all(client: Any, game: str, seats: list[str], games: int, think: float,
                    seconds: float, seed: int, report: LoadReport,
                    beside: str | None) -> None:  # fmt: skip
    start = time.perf_counter()
    deadline = start + seconds
    async with client:
        beside_id = None if beside is None else await _start_beside(client, game, beside, seed)
        await asyncio.gather(*(
            _play_one(client, game, seats, seed + number, think, deadline, report)
            for number in range(games)
        ))  # fmt: skip
        if beside_id is not None:
            report.beside_moves = (await client.get(f"/api/tables/{beside_id}")).json()["version"]
    report.seconds = time.perf_counter() - start


async def _play_one(client: Any, game: str, seats: list[str], seed: int, think: float,
                    deadline: float, report: LoadReport) -> None:  # fmt: skip
    rng = random.Random(seed)
    body = {"game": game, "seats": seats, "seed": seed, "pace": 0}
    created = await client.post("/api/tables", json=body)
    if created.status_code != 201:
        report.errors.append(f"create: {created.status_code} {created.text}")
        return
    table = created.json()
    token = table["links"]["0"].split("token=")[1]
    path = f"/api/tables/{table['id']}"
    seen = await _wait_for_turn(client, path, token, deadline, report)
    while seen is not None and seen["result"] is None:
        await asyncio.sleep(rng.uniform(0, 2 * think))
        action = rng.choice(seen["view"]["moves"])["action"]
        sent = time.perf_counter()
        answer = await client.post(f"{path}/moves", json={"token": token, "action": action})
        report.move_ms.append(1000 * (time.perf_counter() - sent))
        if answer.status_code != 200:
            report.errors.append(f"move: {answer.status_code} {answer.text}")
            return
        report.moves += 1
        answered = time.perf_counter()
        seen = await _wait_for_turn(client, path, token, deadline, report)
        if seen is not None:
            report.reply_ms.append(1000 * (time.perf_counter() - answered))
    if seen is None:
        report.lost.append(f"table {table['id']}: not over when the time ran out")
    else:
        report.finished += 1
        report.final_returns[table["id"]] = seen["result"]["returns"]


async def _wait_for_turn(client: Any, path: str, token: str, deadline: float,
                         report: LoadReport) -> dict[str, Any] | None:  # fmt: skip
    """What seat 0 is shown once it is to move or the game is over; None past the deadline.
    Each read waits on the server for the next move (``after``), as the table page does."""
    params: dict[str, Any] = {"token": token}
    while time.perf_counter() < deadline:
        response = await client.get(path, params=params)
        if response.status_code != 200:
            report.errors.append(f"read: {response.status_code} {response.text}")
            return None
        seen = response.json()
        if seen["result"] is not None or seen["view"]["to_move"] == 0:
            return seen
        params["after"] = seen["version"]
    return None


def _check_stored(store: TableStore, report: LoadReport) -> None:
    """Every game the client saw end is stored finished, with the returns it saw."""
    for table_id, returns in report.final_returns.items():
        stored = store.load(table_id)
        if stored is None or not stored.finished or stored.returns != returns:
            report.lost.append(f"table {table_id}: the store does not hold its end {returns}")


def percentile(values: list[float], share: float) -> float:
    """The ``share`` quantile (0-1) of ``values``, by linear interpolation."""
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[round(share * 100) - 1]


def format_report(report: LoadReport, args: argparse.Namespace) -> str:
    beside = (
        "" if report.beside_moves is None
        else f" beside a table of {args.beside} agents ({report.beside_moves} moves made)"
    )  # fmt: skip
    lines = [
        f"{report.games} concurrent games of {args.game}, a client at seat 0 (thinking "
        f"{args.think:g} s a move on average) against {args.agent}{beside}: "
        f"{report.finished} finished, {report.moves} client moves in {report.seconds:.1f} s"
    ]
    for name, values in (("move response", report.move_ms), ("agents' reply", report.reply_ms)):
        if values:
            p50, p99 = percentile(values, 0.5), percentile(values, 0.99)
            lines.append(f"{name}: p50 {p50:.1f} ms, p99 {p99:.1f} ms ({len(values)} measured)")
    lines.append(f"errors: {len(report.errors)}; lost games: {len(report.lost)}")
    lines += [f"  error: {error}" for error in report.errors[:10]]
    lines += [f"  lost: {lost}" for lost in report.lost[:10]]
    return "\n".join(lines)


def format_comparison(alone: LoadReport, beside: LoadReport, spec: str) -> str:
    """The two runs' p99s side by side: does a searching table raise the others'?"""
    lines = [f"p99 alone / beside a table of {spec} agents:"]
    for name, field_name in (("move response", "move_ms"), ("agents' reply", "reply_ms")):
        figures = [getattr(report, field_name) for report in (alone, beside)]
        if all(figures):
            first, second = (percentile(values, 0.99) for values in figures)
            lines.append(f"  {name}: {first:.1f} ms alone, {second:.1f} ms beside")
    return "\n".join(lines)
