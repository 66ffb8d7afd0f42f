"""The one way games are played in worker processes: a list of tasks, each a batch of games
that one call of a module-level function plays, run in a pool or, with one worker, here.

Every command that plays many games (``eval``, ``balance``, ``search``) cuts its games into
tasks and hands them here, so the pool, its start method and the in-process path for one
worker exist once. A task's result comes back in task order whatever the workers, and each
is told to ``on_done`` as soon as its task ends, for progress and logs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from multiprocessing import get_context
from typing import TypeVar

Task = TypeVar("Task")
Result = TypeVar("Result")

START_METHOD = "forkserver"
"""Workers start from a clean server process, not a fork of the caller: a fork would copy
the caller's threads' locks (torch's, a web server's) in whatever state they were."""


def run_tasks(
    play: Callable[[Task], Result],
    tasks: Sequence[Task],
    workers: int,
    on_done: Callable[[Result], None] | None = None,
) -> list[Result]:
    """``play(task)`` for every task, in ``workers`` processes when more than one (``play``
    and the tasks must then pickle), else here, task by task. Returns the results in task
    order; ``on_done`` is told of each result as its task ends (with workers: in the order
    they end)."""
    if workers <= 1:
        return [_told(play(task), on_done) for task in tasks]
    results: dict[int, Result] = {}
    with ProcessPoolExecutor(workers, mp_context=get_context(START_METHOD)) as pool:
        futures = {pool.submit(play, task): index for index, task in enumerate(tasks)}
        for future in as_completed(futures):
            results[futures[future]] = _told(future.result(), on_done)
    return [results[index] for index in range(len(tasks))]


def _told(result: Result, on_done: Callable[[Result], None] | None) -> Result:
    if on_done is not None:
        on_done(result)
    return result
