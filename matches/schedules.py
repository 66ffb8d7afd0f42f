"""Which games agents play against each other, and playing them.

A schedule is a list of ``(seat labels, game seed)``: the labels name agents (specs, or
agents already built), so a schedule says who sits where in which deal. ``pair_schedule``
swaps two agents over every seat deal by deal, so the luck of the deal and of the seat
cancels; ``play_schedule`` plays a schedule through the one runner (``matches.runner``).
The evaluation command and the trainers' evaluation both play through here.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

from tabletop import envs
from tabletop.agents import Agent, make_agent
from tabletop.matches.records import GameRecord, append_records, play_record
from tabletop.matches.runner import run_tasks

AgentSource = str | Agent
"""An agent spec (resolved where the game is played, e.g. in a worker) or an agent."""

Schedule = Sequence[tuple[tuple[str, ...], int]]
"""``(seat labels, game seed)`` per game, in the order they are played."""

GamesDone = Callable[[Sequence[GameRecord]], None]
"""Told of games as they finish (a worker's chunk at a time)."""

GAMES_PER_TASK = 25
"""Games a worker plays per task: enough to amortise building its agents."""
AGENT_SEED_STEP = 1000
"""Task ``k`` in workers builds its agents from seed ``agent_seed + k * AGENT_SEED_STEP``."""


def play_games(
    game_name: str,
    options: dict[str, Any],
    agents: dict[str, AgentSource],
    schedule: Schedule,
    agent_seed: int,
    on_games: GamesDone | None = None,
    timed: bool = False,
) -> list[GameRecord]:
    """Play each ``(seat labels, game seed)`` of ``schedule``; ``agents`` maps labels to
    agents or specs (built once here, each with its own seed). ``on_games`` is told of
    each game as it ends. With ``timed``, every seat's decisions are timed into the
    records' ``timing`` (the moves are the same either way)."""
    game = envs.make_game(game_name, **options)
    built = build_agents(game_name, agents, agent_seed)
    _limit_torch_threads()  # after building: policy agents import torch
    records = []
    for seats, game_seed in schedule:
        players = [built[label] for label in seats]
        timed_seats = range(len(seats)) if timed else ()
        record = play_record(game, options, game_seed, seats, players, timed_seats=timed_seats)
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
    schedule: Schedule,
    *,
    agent_seed: int = 0,
    workers: int = 1,
    games_log: Path | None = None,
    on_games: GamesDone | None = None,
    timed: bool = False,
) -> list[GameRecord]:
    """``play_games`` split over ``workers`` processes (the records in the order of
    ``schedule``, timed with ``timed``); the records are appended to ``games_log`` when
    given, and ``on_games`` is told of games as they end. With one worker the schedule is
    one task played here, its agents built once and each game told as it ends; with more,
    each chunk of ``GAMES_PER_TASK`` games is a task with agents of its own seed."""
    in_process = workers <= 1
    tasks = [(schedule, agent_seed)] if in_process else _chunks(schedule, agent_seed)
    play = partial(
        _play_task,
        game_name,
        options,
        agents,
        on_games=on_games if in_process else None,
        timed=timed,
    )
    played = run_tasks(play, tasks, workers, None if in_process else on_games)
    records = [record for chunk in played for record in chunk]
    if games_log is not None:
        append_records(games_log, records)
    return records


def _chunks(schedule: Schedule, agent_seed: int) -> list[tuple[Schedule, int]]:
    starts = range(0, len(schedule), GAMES_PER_TASK)
    return [
        (schedule[start : start + GAMES_PER_TASK], agent_seed + AGENT_SEED_STEP * index)
        for index, start in enumerate(starts)
    ]


def _play_task(
    game_name: str,
    options: dict[str, Any],
    agents: dict[str, AgentSource],
    task: tuple[Schedule, int],
    on_games: GamesDone | None = None,
    timed: bool = False,
) -> list[GameRecord]:
    schedule, agent_seed = task
    return play_games(game_name, options, agents, schedule, agent_seed, on_games, timed)


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
