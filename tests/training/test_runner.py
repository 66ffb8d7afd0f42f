"""``matches.runner.run_tasks``: results in task order whatever order the workers finish in,
each told as its task ends; with one worker, in process (nothing needs to pickle)."""

from __future__ import annotations

import os
import time
from pathlib import Path

from tabletop.matches.runner import run_tasks

WAIT_LIMIT_S = 60.0


def _square(task: tuple[int, Path | None]) -> tuple[int, int]:
    """The task's square and the process that computed it; with a path, only once that
    file exists (so that this task ends after the others)."""
    number, wait_for = task
    deadline = time.monotonic() + WAIT_LIMIT_S
    while wait_for is not None and not wait_for.exists() and time.monotonic() < deadline:
        time.sleep(0.01)
    return number * number, os.getpid()


def test_workers_return_results_in_task_order_and_tell_each_as_it_ends(tmp_path: Path) -> None:
    others_done = tmp_path / "others_done"
    told: list[int] = []

    def on_done(result: tuple[int, int]) -> None:
        told.append(result[0])
        if len(told) == 2:
            others_done.touch()

    tasks = [(0, others_done), (1, None), (2, None)]  # the first task ends last
    results = run_tasks(_square, tasks, 2, on_done)
    assert [square for square, _ in results] == [0, 1, 4]
    assert told == [1, 4, 0] or told == [4, 1, 0]
    assert os.getpid() not in {pid for _, pid in results}


def test_one_worker_plays_in_process_in_order_without_pickling() -> None:
    offset = 10
    told: list[int] = []
    results = run_tasks(lambda task: task + offset, [3, 1, 2], 1, told.append)
    assert results == told == [13, 11, 12]


def test_no_tasks_give_no_results() -> None:
    assert run_tasks(_square, [], 2) == []
