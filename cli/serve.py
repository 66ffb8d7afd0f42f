"""Serve the web table: play any game in the browser against agents, watch, replay.

    tabletop serve [--host 127.0.0.1] [--port 0] [--db tabletop.sqlite] [--records FILE]
                   [--policy NAME=PATH] [--agent-processes N]

Port 0 (the default) takes a free port; the address is printed once the server listens.
Games are stored in the SQLite file ``--db`` (default ``tabletop.sqlite`` in the current
directory, printed in full at start), so a restarted server takes up the games in progress;
``--records`` (repeatable) adds the games of a records file (the ``games.jsonl`` of
``tabletop eval --out``) to the replays. ``--policy`` (repeatable) offers a saved policy (a
``.pt`` file or a run directory) as the agent ``policy:NAME``: a browser names policies only
so, never by path. Agents think in up to ``--agent-processes`` processes of their own (default
a few more than the cores), so a long search slows neither the server nor other tables.
Needs the ``[web]`` extra (``pip install -e ".[web]"``).
"""

from __future__ import annotations

import argparse
import asyncio
import re
import socket
import subprocess
import sys
from pathlib import Path

from tabletop.cli.options import CommandError

DEFAULT_DB = "tabletop.sqlite"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)"
    )
    parser.add_argument("--port", type=int, default=0, help="port (default 0: a free one)")
    parser.add_argument(
        "--db",
        default=DEFAULT_DB,
        help=f"SQLite file of the games (default {DEFAULT_DB} in the current directory)",
    )
    parser.add_argument(
        "--records",
        action="append",
        default=[],
        metavar="FILE",
        help="a records file (tabletop eval --out's games.jsonl) whose games to replay; repeatable",
    )
    parser.add_argument(
        "--policy",
        action="append",
        default=[],
        metavar="NAME=PATH",
        help="offer the saved policy at PATH (a .pt file or a run directory) as the agent "
        "policy:NAME; repeatable",
    )
    parser.add_argument(
        "--agent-processes",
        type=int,
        default=None,
        metavar="N",
        help="processes the agents think in, at most (default: the cores plus 2)",
    )


def run(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from tabletop.web.app import AGENT_PROCESSES, create_app
        from tabletop.web.tables import TableError
    except ImportError as error:
        raise CommandError(f"tabletop serve needs the [web] extra ({error.name} is missing): "
                           'pip install -e ".[web]"') from None  # fmt: skip
    if not 0 <= args.port <= 65535:
        raise CommandError(f"--port must be 0-65535, got {args.port}")
    processes = AGENT_PROCESSES if args.agent_processes is None else args.agent_processes
    if processes < 1:
        raise CommandError(f"--agent-processes must be at least 1, got {processes}")
    try:
        app = create_app(args.db, args.records, offered_policies(args.policy), processes)
    except TableError as error:
        raise CommandError(f"--records {error}") from None
    listener = bound_socket(args.host, args.port)
    host, port = listener.getsockname()[:2]
    db = Path(args.db).resolve()  # in full: the default is a file in the current directory
    print(f"tabletop serve: http://{host}:{port}/ (games in {db}; Ctrl-C stops)", flush=True)
    config = uvicorn.Config(app, log_level="warning")
    server = uvicorn.Server(config)
    asyncio.run(server.serve(sockets=[listener]))
    return 0


def offered_policies(items: list[str]) -> dict[str, Path]:
    """``--policy NAME=PATH`` items as name -> path, each path an existing file or directory."""
    policies: dict[str, Path] = {}
    for item in items:
        name, separator, path = item.partition("=")
        name = name.strip()
        if not separator or not re.fullmatch(r"[\w.-]+", name) or not path.strip():
            raise CommandError(
                f"--policy takes NAME=PATH (NAME of letters, digits, _ . -), got {item!r}"
            )
        if name in policies:
            raise CommandError(f"--policy {name}: the name is given twice")
        if not Path(path).exists():
            raise CommandError(f"--policy {name}: no policy file or run directory at {path}")
        policies[name] = Path(path)
    return policies


def bound_socket(host: str, port: int) -> socket.socket:
    """A socket listening on ``host:port`` (port 0: a free one the system picks), made
    before the server starts so that the printed address is the one it serves."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listener = socket.socket(family, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    # Connections accepted from this socket inherit it: without it a kept-alive connection
    # waits for the client's delayed ACK (about 40 ms) before a response's second segment.
    listener.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    try:
        listener.bind((host, port))
    except OSError as error:
        listener.close()
        raise CommandError(f"cannot listen on {host}:{port}: {error.strerror}") from None
    listener.listen(128)
    return listener


SERVE = "import sys; from tabletop.cli.main import main; sys.exit(main(sys.argv[1:]))"
"""``tabletop serve`` run by this interpreter (the console script may be another's)."""


def start_in_subprocess(db: Path) -> tuple[subprocess.Popen[str], str]:
    """``tabletop serve`` as a child process on a free port of 127.0.0.1 with the games in
    ``db`` (the load test's and the browser tests' server); the process and its base URL,
    read from the line it prints once it listens."""
    command = [sys.executable, "-c", SERVE, "serve", "--port", "0", "--db", str(db)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    line = process.stdout.readline()
    match = re.fullmatch(r"tabletop serve: (http://127\.0\.0\.1:\d+/) \(games in .*\)\n", line)
    if match is None:
        process.kill()
        raise CommandError(f"tabletop serve did not start: it printed {line!r}")
    return process, match.group(1)
