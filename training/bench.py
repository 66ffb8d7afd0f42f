"""Measure every registered game: engine and env speed, and heuristic vs random play.

For each game and each of its BENCH_OPTIONS: (a) raw engine random playouts, timing
only State.apply and the full loop (legal_actions + choice + apply + new games);
(b) AEC env steps/s with observation and action mask, compared with PettingZoo's own
connect_four_v3 and leduc_holdem_v4 run through the same loop; (c) all seats heuristic
vs all seats random: team win rate (a game is won when every seat's return is positive)
with a 95% Wilson interval, and the mean of each numeric State.stats() figure; for a
competitive game (its env module says ``COMPETITIVE = True``) instead one heuristic seat
against random seats, the heuristic's seat rotating from game to game: its win, draw and
loss rates, each with a 95% Wilson interval; (d) ISMCTS iterations/s (random rollouts)
searching at the decisions of random games.
Speeds are wall-clock figures of this machine (each the best of three slices of --seconds,
to shed other load), meant for comparison, never for asserting.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np
import pettingzoo
from pettingzoo import AECEnv

from tabletop import envs
from tabletop.envs.core.protocol import Game, State
from tabletop.training.agents import make_agent, play_game
from tabletop.training.cli import CommandError
from tabletop.training.ismcts import ISMCTS, SearchBudget

REFERENCE_ENVS = {
    "connect_four_v3": "classic/connect_four-v3",
    "leduc_holdem_v4": "classic/leduc_holdem-v4",
}
"""PettingZoo classic envs whose AEC speed is the yardstick for ours: name -> registry id."""

PLAY_AGENTS = ("heuristic", "random")
"""Agent specs compared in the play-strength part; every seat gets the same kind."""

MATCHES = (("heuristic", "random"),)
"""(agent, opponent) specs pitted against each other in competitive games: the agent takes
one seat (rotating over the games), the opponent kind every other seat."""

SPEED_ROUNDS = 3
"""Each speed figure is the best of this many equal slices of ``--seconds``: other load on
the machine only ever slows a slice down, so the fastest slice is the least disturbed."""

Z_95 = 1.959964
"""Standard-normal quantile of a two-sided 95% interval."""


@dataclass
class PlayResult:
    agents: str
    games: int
    wins: int
    win_rate: float
    win_ci95: tuple[float, float]
    stats_mean: dict[str, float]
    """Mean of each figure over the games that report it."""
    stats_games: dict[str, int]
    """How many games reported each figure (some appear only in some outcomes)."""


@dataclass
class MatchResult:
    """One agent against opponents at every other seat, seen from the agent."""

    agent: str
    opponent: str
    games: int
    wins: int
    draws: int
    losses: int
    win_rate: float
    draw_rate: float
    loss_rate: float
    win_ci95: tuple[float, float]
    draw_ci95: tuple[float, float]
    loss_ci95: tuple[float, float]
    games_by_seat: list[int]
    """How many games the agent played from each seat."""
    wins_by_seat: list[int]
    stats_mean: dict[str, float]
    stats_games: dict[str, int]


@dataclass
class GameResult:
    game: str
    options: dict[str, Any]
    engine_apply_per_s: float
    engine_loop_per_s: float
    aec_steps_per_s: float
    aec_vs_reference: dict[str, float]
    ismcts_iterations_per_s: float
    play: list[PlayResult]
    matches: list[MatchResult] = field(default_factory=list)
    """Filled for competitive games, whose ``play`` (team results) stays empty."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--games", type=int, default=1000, help="games per agent kind and setting (default 1000)"
    )
    parser.add_argument(
        "--seconds", type=float, default=2.0, help="seconds per speed figure (default 2)"
    )
    parser.add_argument("--only", metavar="GAME", help="measure only this game")
    parser.add_argument("--seed", type=int, default=0, help="seed of games and agents")
    parser.add_argument("--json", metavar="PATH", help="also save the figures as JSON")


def run(args: argparse.Namespace) -> int:
    names = _selected_games(envs.names(), args.only)
    reference = {name: _reference_speed(name, args.seconds, args.seed) for name in REFERENCE_ENVS}
    results = [
        _measure_setting(name, options, args, reference)
        for name in names
        for options in envs.env_module(name).BENCH_OPTIONS
    ]
    print(_speed_table(results, reference))
    if any(r.play for r in results):
        print()
        print(_play_table(results))
    if any(r.matches for r in results):
        print()
        print(_match_table(results))
    if args.json:
        _save_json(args.json, args, reference, results)
    return 0


def _selected_games(names: Sequence[str], only: str | None) -> list[str]:
    if only is None:
        return list(names)
    if only not in names:
        raise CommandError(f"unknown game {only!r}; known games: {', '.join(names)}")
    return [only]


def _progress(message: str) -> None:
    """Progress goes to stderr so that stdout holds only the tables."""
    print(message, file=sys.stderr, flush=True)


def _reference_speed(env_name: str, seconds: float, seed: int) -> float:
    _progress(f"bench: {env_name} (PettingZoo reference)")
    return best_speed(
        lambda s: aec_steps_per_second(pettingzoo.make("aec", REFERENCE_ENVS[env_name]), s, seed),
        seconds,
    )


def _measure_setting(
    name: str, options: dict[str, Any], args: argparse.Namespace, reference: dict[str, float]
) -> GameResult:
    module = envs.env_module(name)
    _progress(f"bench: {name} {format_options(options)}")
    game = module.new_game(**options)
    seconds, seed = args.seconds, args.seed
    aec_speed = best_speed(lambda s: aec_steps_per_second(module.env(**options), s, seed), seconds)
    competitive = getattr(module, "COMPETITIVE", False)
    return GameResult(
        game=name,
        options=options,
        engine_apply_per_s=best_speed(lambda s: engine_applies_per_second(game, s, seed), seconds),
        engine_loop_per_s=best_speed(
            lambda s: engine_loop_steps_per_second(game, s, seed), seconds
        ),
        aec_steps_per_s=aec_speed,
        aec_vs_reference={ref: aec_speed / speed for ref, speed in reference.items()},
        ismcts_iterations_per_s=best_speed(
            lambda s: ismcts_iterations_per_second(game, s, seed), seconds
        ),
        play=[]
        if competitive
        else [play_strength(name, game, spec, args.games, args.seed) for spec in PLAY_AGENTS],
        matches=[
            match_strength(name, game, agent, opponent, args.games, args.seed)
            for agent, opponent in MATCHES
        ]
        if competitive
        else [],
    )


def best_speed(measure: Callable[[float], float], seconds: float) -> float:
    """The fastest of ``SPEED_ROUNDS`` runs of ``measure(seconds_per_round)``."""
    return max(measure(seconds / SPEED_ROUNDS) for _ in range(SPEED_ROUNDS))


def _random_playout_steps(game: Game, seed: int) -> Iterator[tuple[State, int]]:
    """Endless (state, random legal action) pairs over fresh seeded games."""
    rng = random.Random(seed)
    for game_seed in range(seed, sys.maxsize):
        state = game.new_state(seed=game_seed)
        while not state.is_terminal():
            yield state, rng.choice(state.legal_actions())


def engine_applies_per_second(game: Game, seconds: float, seed: int) -> float:
    """Random playouts timing only ``State.apply``: the engine's transition cost."""
    applies, apply_time = 0, 0.0
    deadline = time.perf_counter() + seconds
    for state, action in _random_playout_steps(game, seed):
        start = time.perf_counter()
        state.apply(action)
        apply_time += time.perf_counter() - start
        applies += 1
        if start > deadline:
            break
    return applies / apply_time


def engine_loop_steps_per_second(game: Game, seconds: float, seed: int) -> float:
    """Random playouts timing everything: new games, legal_actions, the choice and apply."""
    steps = 0
    start = time.perf_counter()
    for state, action in _random_playout_steps(game, seed):
        state.apply(action)
        steps += 1
        if steps % 64 == 0 and time.perf_counter() - start > seconds:
            break
    return steps / (time.perf_counter() - start)


def aec_steps_per_second(env: AECEnv, seconds: float, seed: int) -> float:
    """The usual AEC loop with a random legal action from the mask, resetting when done."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    steps = 0
    start = time.perf_counter()
    # The clock is read every 64 steps only, so that reading it costs nothing measurable.
    while steps % 64 or time.perf_counter() - start < seconds:
        observation, _reward, termination, truncation, _info = env.last()
        action = None
        if not (termination or truncation):
            legal = np.flatnonzero(observation["action_mask"])
            action = int(legal[rng.integers(len(legal))])
        env.step(action)
        steps += 1
        if not env.agents:
            env.reset()
    elapsed = time.perf_counter() - start
    env.close()
    return steps / elapsed


ISMCTS_SEARCH_ITERATIONS = 50
"""Iterations of each search when measuring ISMCTS speed; small, so that one measurement
spans the positions of whole games rather than a few openings."""


def ismcts_iterations_per_second(game: Game, seconds: float, seed: int) -> float:
    """ISMCTS with random rollouts searching at each decision of random games: the
    iterations per second a search agent gets (resample, apply, rollouts and tree work)."""
    search = ISMCTS(SearchBudget(ISMCTS_SEARCH_ITERATIONS), seed=seed)
    iterations = 0
    start = time.perf_counter()
    for state, action in _random_playout_steps(game, seed):
        iterations += search.search(state, state.current_player).iterations
        state.apply(action)
        if time.perf_counter() - start > seconds:
            break
    return iterations / (time.perf_counter() - start)


def play_strength(name: str, game: Game, agent_spec: str, games: int, seed: int) -> PlayResult:
    """``games`` games with ``agent_spec`` at every seat: team wins and mean stats."""
    agents = [make_agent(agent_spec, name, seed + seat) for seat in range(game.num_players)]
    wins = 0
    stats_sums: dict[str, float] = {}
    stats_games: dict[str, int] = {}
    for game_seed in range(seed, seed + games):
        state = play_game(game.new_state(seed=game_seed), agents)
        wins += min(state.returns()) > 0
        for key, value in numeric_stats(state.stats()).items():
            stats_sums[key] = stats_sums.get(key, 0.0) + value
            stats_games[key] = stats_games.get(key, 0) + 1
    return PlayResult(
        agents=agent_spec,
        games=games,
        wins=wins,
        win_rate=wins / games,
        win_ci95=wilson_interval(wins, games),
        stats_mean={key: total / stats_games[key] for key, total in stats_sums.items()},
        stats_games=stats_games,
    )


def match_strength(
    name: str, game: Game, agent_spec: str, opponent_spec: str, games: int, seed: int
) -> MatchResult:
    """``games`` games of ``agent_spec`` against ``opponent_spec`` at every other seat, the
    agent's seat rotating (game ``i`` at seat ``i % num_players``) so that no seat's
    advantage biases the rates. A win is a return above every opponent's, a draw a tie
    with the best of them."""
    seats = game.num_players
    agent = make_agent(agent_spec, name, seed)
    opponents = [make_agent(opponent_spec, name, seed + 1 + seat) for seat in range(seats)]
    outcomes = {"win": 0, "draw": 0, "loss": 0}
    games_by_seat, wins_by_seat = [0] * seats, [0] * seats
    stats_sums: dict[str, float] = {}
    stats_games: dict[str, int] = {}
    for index, game_seed in enumerate(range(seed, seed + games)):
        seat = index % seats
        agents = [agent if s == seat else opponents[s] for s in range(seats)]
        state = play_game(game.new_state(seed=game_seed), agents)
        outcome = _outcome(state.returns(), seat)
        outcomes[outcome] += 1
        games_by_seat[seat] += 1
        wins_by_seat[seat] += outcome == "win"
        for key, value in numeric_stats(state.stats()).items():
            stats_sums[key] = stats_sums.get(key, 0.0) + value
            stats_games[key] = stats_games.get(key, 0) + 1
    return MatchResult(
        agent=agent_spec,
        opponent=opponent_spec,
        games=games,
        wins=outcomes["win"],
        draws=outcomes["draw"],
        losses=outcomes["loss"],
        win_rate=outcomes["win"] / games,
        draw_rate=outcomes["draw"] / games,
        loss_rate=outcomes["loss"] / games,
        win_ci95=wilson_interval(outcomes["win"], games),
        draw_ci95=wilson_interval(outcomes["draw"], games),
        loss_ci95=wilson_interval(outcomes["loss"], games),
        games_by_seat=games_by_seat,
        wins_by_seat=wins_by_seat,
        stats_mean={key: total / stats_games[key] for key, total in stats_sums.items()},
        stats_games=stats_games,
    )


def _outcome(returns: Sequence[float], seat: int) -> str:
    best_other = max(r for s, r in enumerate(returns) if s != seat)
    if returns[seat] > best_other:
        return "win"
    return "draw" if returns[seat] == best_other else "loss"


def numeric_stats(stats: dict[str, Any]) -> dict[str, float]:
    """The figures of ``stats`` that can be averaged (numbers and flags)."""
    return {key: float(value) for key, value in stats.items() if isinstance(value, int | float)}


def wilson_interval(successes: int, trials: int, z: float = Z_95) -> tuple[float, float]:
    """Wilson score interval: unlike p ± z·se it stays inside [0, 1] and is sane at 0 or n."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half_width = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, centre - half_width), min(1.0, centre + half_width))


def format_options(options: dict[str, Any]) -> str:
    return " ".join(f"{key}={value}" for key, value in options.items()) or "-"


def format_table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A plain-text table, also valid as a Markdown table for pasting into the README."""
    widths = [max(len(row[i]) for row in [headers, *rows]) for i in range(len(headers))]

    def line(cells: Sequence[str]) -> str:
        return (
            "| " + " | ".join(cell.ljust(w) for cell, w in zip(cells, widths, strict=True)) + " |"
        )

    separator = "|" + "|".join("-" * (w + 2) for w in widths) + "|"
    return "\n".join([line(headers), separator, *(line(row) for row in rows)])


def _rate(per_second: float) -> str:
    return f"{per_second:,.0f}"


def _speed_table(results: Sequence[GameResult], reference: dict[str, float]) -> str:
    headers = ["game", "options", "engine apply/s", "engine loop/s", "AEC steps/s"]
    headers += [f"AEC vs {name}" for name in reference]
    headers.append("ISMCTS iterations/s")
    rows = [
        [
            r.game,
            format_options(r.options),
            _rate(r.engine_apply_per_s),
            _rate(r.engine_loop_per_s),
            _rate(r.aec_steps_per_s),
            *(f"{r.aec_vs_reference[name]:.2f}x" for name in reference),
            _rate(r.ismcts_iterations_per_s),
        ]
        for r in results
    ]
    blanks = ["-"] * len(reference)
    rows += [
        [name, "pettingzoo", "-", "-", _rate(speed), *blanks, "-"]
        for name, speed in reference.items()
    ]
    return format_table(headers, rows)


def _play_table(results: Sequence[GameResult]) -> str:
    headers = ["game", "options", "agents", "games", "win rate", "95% CI", "mean stats"]
    rows = [
        [
            r.game,
            format_options(r.options),
            play.agents,
            str(play.games),
            f"{play.win_rate:.3f}",
            f"[{play.win_ci95[0]:.3f}, {play.win_ci95[1]:.3f}]",
            _format_stats(play),
        ]
        for r in results
        for play in r.play
    ]
    return format_table(headers, rows)


def _match_table(results: Sequence[GameResult]) -> str:
    headers = ["game", "options", "agents (seats rotate)", "games"]
    for outcome in ("win", "draw", "loss"):
        headers += [f"{outcome} rate", "95% CI"]
    headers.append("mean stats")
    rows = [
        [
            r.game,
            format_options(r.options),
            f"{match.agent} vs {match.opponent}",
            str(match.games),
            *_rate_and_interval(match.win_rate, match.win_ci95),
            *_rate_and_interval(match.draw_rate, match.draw_ci95),
            *_rate_and_interval(match.loss_rate, match.loss_ci95),
            _format_stats(match),
        ]
        for r in results
        for match in r.matches
    ]
    return format_table(headers, rows)


def _rate_and_interval(rate: float, interval: tuple[float, float]) -> list[str]:
    return [f"{rate:.3f}", f"[{interval[0]:.3f}, {interval[1]:.3f}]"]


def _format_stats(play: PlayResult | MatchResult) -> str:
    """``key mean`` pairs; a figure missing from some games says in how many it was."""
    return ", ".join(_format_stat(play, key) for key in play.stats_mean) or "-"


def _format_stat(play: PlayResult | MatchResult, key: str) -> str:
    games = play.stats_games[key]
    return f"{key} {play.stats_mean[key]:.3g}" + (f" (in {games})" if games < play.games else "")


def _save_json(
    path: str, args: argparse.Namespace, reference: dict[str, float], results: list[GameResult]
) -> None:
    figures = {
        "settings": {"games": args.games, "seconds": args.seconds, "seed": args.seed},
        "reference_aec_steps_per_s": reference,
        "results": [asdict(result) for result in results],
    }
    with open(path, "w", encoding="utf-8") as file:
        json.dump(figures, file, indent=2)
        file.write("\n")
