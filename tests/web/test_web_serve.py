"""``tabletop serve`` as a real process: it prints where it listens, and a server killed
outright (SIGKILL, nothing flushed on the way out) restarts with every move it answered."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("uvicorn")

from tabletop.cli.serve import SERVE, start_in_subprocess
from tabletop.web.store import TableStore


def call(url: str, body: dict[str, Any] | None = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data, {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def test_a_killed_server_restarts_with_every_move_it_answered(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    process, url = start_in_subprocess(db)
    try:
        settings = {"game": "kaleva", "seats": ["human", "human"], "seed": 2, "pace": 0}
        table = call(url + "api/tables", settings)
        tokens = [table["links"][seat].split("token=")[1] for seat in ("0", "1")]
        path = f"{url}api/tables/{table['id']}?token="
        for _ in range(7):
            seen = call(path + tokens[0])
            mover = seen["view"]["to_move"]
            moves = call(path + tokens[mover])["view"]["moves"]
            answer = call(f"{url}api/tables/{table['id']}/moves",
                          {"token": tokens[mover], "action": moves[-1]["action"]})  # fmt: skip
        before = call(path + tokens[0])
        assert answer["log"][-1]["text"] == moves[-1]["text"]
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=10)
    process, url = start_in_subprocess(db)
    try:
        after = call(f"{url}api/tables/{table['id']}?token={tokens[0]}")
        assert len(TableStore(db).load(table["id"]).actions) == 7
        assert (after["version"], after["view"], after["log"]) == (
            before["version"],
            before["view"],
            before["log"],
        )
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_serve_names_the_database_file_in_full(tmp_path: Path) -> None:
    """Without ``--db`` the games go to ``tabletop.sqlite`` in the current directory; the
    line printed at start names that file by its full path."""
    process = subprocess.Popen(
        [sys.executable, "-c", SERVE, "serve", "--port", "0"],
        cwd=tmp_path, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
    finally:
        process.terminate()
        process.wait(timeout=10)
    assert f"(games in {tmp_path.resolve() / 'tabletop.sqlite'}; Ctrl-C stops)" in line
    assert (tmp_path / "tabletop.sqlite").is_file()
