"""Agents think in processes (``AgentPool``): an agent process keeps a table's game and
agents between moves and starts them afresh on a new lease; a process killed before or
during a move is replaced and the move made; stopping the server ends its processes; a
server killed outright takes up its agents' games where they stood."""

from __future__ import annotations

import contextlib
import json
import logging
import os
import signal
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient

from tabletop import envs
from tabletop.agents import RandomAgent
from tabletop.cli.serve import start_in_subprocess
from tabletop.web.app import create_app
from tabletop.web.tables import AgentJob, AgentThinker

WAIT_SECONDS = 60.0


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(":memory:", agent_processes=2)) as test_client:
        yield test_client


def job(actions: list[int], lease: int, seat: int = 1) -> AgentJob:
    return AgentJob("t", "kaleva", {}, 5, tuple(actions), seat, "random", 9, lease)


def test_an_agent_process_keeps_a_table_s_agent_for_its_lease_and_starts_afresh_on_a_new_one(
) -> None:  # fmt: skip
    """The random agent's generator runs on from move to move within a lease (as one agent
    playing a whole game), and starts from its seed again in a new lease."""
    thinker = AgentThinker()
    state = envs.make_game("kaleva").new_state(seed=5)
    same_agent, fresh_agent = RandomAgent(9), RandomAgent(9)
    actions: list[int] = []
    for _ in range(6):
        seat = state.current_player
        chosen = thinker.act(job(actions, lease=1, seat=seat))
        if seat == 1:
            assert chosen == same_agent.act(state, 1)
        state.apply(chosen)
        actions.append(chosen)
    while state.current_player != 1:
        action = state.legal_actions()[0]
        state.apply(action)
        actions.append(action)
    assert thinker.act(job(actions, lease=2)) == fresh_agent.act(state, 1)


def test_a_job_whose_moves_do_not_follow_what_the_process_kept_is_replayed_from_the_deal(
) -> None:  # fmt: skip
    thinker = AgentThinker()
    state = envs.make_game("kaleva").new_state(seed=5)
    first = thinker.act(job([], lease=1, seat=state.current_player))
    other = next(a for a in state.legal_actions() if a != first)
    state.apply(other)
    assert thinker.act(job([other], lease=1, seat=state.current_player)) in state.legal_actions()


def wait_for(condition: Any, what: str) -> None:
    deadline = time.monotonic() + WAIT_SECONDS
    while not condition():
        assert time.monotonic() < deadline, f"never: {what}"
        time.sleep(0.02)


def agents_table(client: TestClient, seats: list[str]) -> Any:
    body = {"game": "kaleva", "seats": seats, "seed": 2, "pace": 0, "omniscient": True}
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    return client.app.state.tables.get(response.json()["id"])


def test_a_process_killed_between_moves_is_replaced_and_the_table_plays_on(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    """Before each of the human's moves every agent process is killed: the agent's next
    move finds its process dead, says so in the log, and is made by a new one (twice)."""
    caplog.set_level(logging.ERROR, logger="tabletop.web")
    body = {"game": "kaleva", "seats": ["human", "random"], "seed": 2, "pace": 0}
    response = client.post("/api/tables", json=body).json()
    table = client.app.state.tables.get(response["id"])
    token = response["links"]["0"].split("token=")[1]
    pool = client.app.state.runner.pool
    replaced, moves_then = 0, None
    while replaced < 2 and not table.over:
        wait_for(lambda: table.state.current_player == 0 or table.over, "seat 0's turn")
        if moves_then is not None and _agent_moves(table) > moves_then:
            replaced += 1  # the agent moved since its processes were killed
        seen = client.get(f"/api/tables/{table.stored.id}", params={"token": token}).json()
        for pid in pool.pids:
            _kill(pid)
        moves_then = _agent_moves(table)
        move = {"token": token, "action": seen["view"]["moves"][0]["action"]}
        assert client.post(f"/api/tables/{table.stored.id}/moves", json=move).status_code == 200
    assert replaced == 2
    assert "stopped while choosing a move for seat 1" in caplog.text


def _kill(pid: int) -> None:
    """SIGKILL ``pid``; a process the pool reaped after listing it is already what we want."""
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)


def _agent_moves(table: Any) -> int:
    return sum(entry["mover"] == 1 for entry in table.moves.entries)


def test_a_process_killed_during_a_search_is_replaced_and_the_move_made_again(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.ERROR, logger="tabletop.web")
    table = agents_table(client, ["ismcts:seconds=1", "random"])
    pool = client.app.state.runner.pool
    time.sleep(0.3)
    killed = pool.pids
    for pid in killed:
        _kill(pid)
    wait_for(lambda: len(table.stored.actions) >= 2, "the search's move after the crash")
    assert "stopped while choosing a move for seat 0" in caplog.text
    assert not set(killed) & set(pool.pids)


def test_stopping_the_server_ends_its_agent_processes() -> None:
    with TestClient(create_app(":memory:", agent_processes=2)) as client:
        table = agents_table(client, ["ismcts:seconds=30", "ismcts:seconds=30"])
        pids = client.app.state.runner.pool.pids
        assert len(pids) == 2, "the server starts its agent processes before it answers"
        assert table.stored.actions == []
    for pid in pids:
        wait_for(lambda: not _alive(pid), f"agent process {pid} ended")  # noqa: B023


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def call(url: str, body: dict[str, Any] | None = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data, {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def test_a_server_killed_outright_takes_up_its_agents_games_and_plays_them_to_the_end(
    tmp_path: Path,
) -> None:
    db = tmp_path / "games.sqlite"
    process, url = start_in_subprocess(db)
    try:
        body = {"game": "kaleva", "seats": ["random", "random"], "seed": 4, "pace": 0.05,
                "omniscient": True}  # fmt: skip
        table = call(url + "api/tables", body)
        path = f"{url}api/tables/{table['id']}"
        wait_for(lambda: call(path)["version"] >= 3, "three agent moves")
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=10)
    process, url = start_in_subprocess(db)
    try:
        path = f"{url}api/tables/{table['id']}"
        resumed = call(path)["version"]
        assert resumed >= 3
        assert call(f"{path}/pace", {"pace": 0}) == {"pace": 0}
        wait_for(lambda: call(path)["result"] is not None, "the end of the resumed game")
        assert call(path)["version"] > resumed
    finally:
        process.terminate()
        process.wait(timeout=10)
