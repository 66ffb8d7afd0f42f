"""Measure every registered game: engine and env speed, and heuristic vs random play.

For each game and each of its spec's ``bench_options``: (a) raw engine random playouts, timing
only State.apply and the full loop (legal_actions + choice + apply + new games);
(b) AEC env moves/s with observation and action mask, for the env as ``env()`` returns it
(with its wrappers) and for the bare ``raw_env`` underneath, each compared with PettingZoo's
own connect_four_v3 and leduc_holdem_v4 in the same state (wrapped with wrapped, raw with
raw), run through the same loop; (c) all seats heuristic vs all seats random: team win rate
(a game is won when every seat's return is positive) with a 95% Wilson interval, and the
mean of each numeric State.stats() figure; for a competitive game (its spec's
payoffs are not identical) instead one heuristic seat against random seats, the heuristic's
seat rotating from game to game: its win, draw and loss rates, each with a 95% Wilson
interval; (d) ISMCTS iterations/s (random rollouts) searching at the decisions of random
games, and guided search's (``agents.guided``: PUCT, leaves valued by a network) with a
freshly initialised network of the game's default training shape, a speed figure only
(needs torch; "-" without it); (e) with ``--parts``, where a move of the wrapped env's
loop spends its time (``last()``, the agent's scan of the mask, ``step()``) beside
connect_four_v3's.

Speeds are wall-clock figures of this machine, meant for comparison, never for asserting.
Other jobs on the machine slow whatever runs at the same time, so every speed of a setting,
the references included, is measured in interleaved rounds (A, B, C, ..., then ..., C, B, A)
and each ratio is the median of the per-round ratios, given with their spread (min-max):
a reference timed minutes apart from the game would measure the load, not the env.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from functools import partial
from typing import Any

import numpy as np
import pettingzoo
from pettingzoo import AECEnv
from pettingzoo.utils.wrappers import BaseWrapper

from tabletop import envs
from tabletop.agents import make_agent, play_game
from tabletop.agents.guided import Evaluator, GuidedSearch, GuidedSettings
from tabletop.agents.ismcts import ISMCTS, SearchBudget
from tabletop.agents.outcome import OUTCOMES, WIN, side_outcome, team_outcome
from tabletop.cli.options import CommandError
from tabletop.envs.core.protocol import Game, State
from tabletop.matches.results import (
    Spread,
    format_interval,
    format_options,
    format_table,
    interleaved_rounds,
    numeric_stats,
    ratio_spread,
)
from tabletop.matches.tally import Tally

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

SPEED_ROUNDS = 5
"""Default number of interleaved rounds over which each speed figure is measured."""

MOVE_PARTS = ("last()", "mask scan", "step()")
"""The parts of a move of the AEC loop (``aec_move_parts``): the observation and its mask,
the agent's pick of a random legal action from the mask, the transition."""

PARTS_REFERENCE = "connect_four_v3"
"""The reference env whose move parts ``--parts`` measures beside ours."""

ENV_KINDS = ("wrapped", "raw")
"""``wrapped``: the env as ``env()`` or ``pettingzoo.make`` returns it; ``raw``: its
``unwrapped`` env, so that wrapper overhead is never read as engine speed."""


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
class EnvSpeed:
    """One env kind (``wrapped`` or ``raw``) of a setting against the references."""

    kind: str
    wrappers: int
    """How many PettingZoo wrappers this kind of env has around the raw one."""
    moves_per_s: Spread
    vs_reference: dict[str, Spread]
    """Reference name -> per-round ratio of our moves/s to the reference's of the same kind."""


@dataclass
class GameResult:
    game: str
    options: dict[str, Any]
    engine_apply_per_s: Spread
    engine_loop_per_s: Spread
    ismcts_iterations_per_s: Spread
    guided_iterations_per_s: Spread | None
    """None without torch, which the network needs."""
    envs: list[EnvSpeed]
    rounds: dict[str, list[float]]
    """Every figure's value in each round, in the order the rounds ran."""
    play: list[PlayResult]
    matches: list[MatchResult] = field(default_factory=list)
    """Filled for competitive games, whose ``play`` (team results) stays empty."""
    move_parts: dict[str, dict[str, float]] = field(default_factory=dict)
    """With ``--parts``: ``env`` (ours, wrapped) and ``PARTS_REFERENCE`` -> part of
    ``MOVE_PARTS`` -> median microseconds a move over the rounds."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--games", type=int, default=1000, help="games per agent kind and setting (default 1000)"
    )
    parser.add_argument(
        "--seconds",
        type=float,
        default=2.0,
        help="seconds per speed figure, over all its rounds (default 2)",
    )
    parser.add_argument(
        "--rounds",
        type=_positive_int,
        default=SPEED_ROUNDS,
        help=f"interleaved rounds per setting (default {SPEED_ROUNDS})",
    )
    parser.add_argument(
        "--only",
        metavar="GAME[,GAME...]",
        help="measure only these games (comma-separated), in the order given",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of games and agents")
    parser.add_argument("--json", metavar="PATH", help="also save the figures as JSON")
    parser.add_argument(
        "--parts",
        action="store_true",
        help=f"also time the parts of a move of the wrapped env ({', '.join(MOVE_PARTS)}) "
        f"beside {PARTS_REFERENCE}'s, in interleaved rounds",
    )


def _positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}")
    return value


def run(args: argparse.Namespace) -> int:
    names = _selected_games(envs.names(), args.only)
    results = [
        _measure_setting(name, options, args)
        for name in names
        for options in envs.spec(name).bench_options
    ]
    reference = reference_speeds(results)
    print(_engine_table(results))
    print()
    print(_env_table(results, reference))
    if args.parts:
        print()
        print(_parts_table(results))
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
    """Every registered game, or those ``only`` names (comma-separated, each once)."""
    if only is None:
        return list(names)
    chosen = list(dict.fromkeys(name.strip() for name in only.split(",") if name.strip()))
    for name in chosen:
        if name not in names:
            raise CommandError(f"unknown game {name!r}; known games: {', '.join(names)}")
    if not chosen:
        raise CommandError(f"--only names no game; known games: {', '.join(names)}")
    return chosen


def _progress(message: str) -> None:
    """Progress goes to stderr so that stdout holds only the tables."""
    print(message, file=sys.stderr, flush=True)


def reference_env(name: str, kind: str) -> AECEnv:
    """A PettingZoo reference env as ``pettingzoo.make`` returns it, or its raw env."""
    env = pettingzoo.make("aec", REFERENCE_ENVS[name])
    return env if kind == "wrapped" else env.unwrapped


def game_env(module: Any, options: dict[str, Any], kind: str) -> AECEnv:
    """A game's env as its module's ``env()`` returns it, or its raw env."""
    env = module.env(**options)
    return env if kind == "wrapped" else env.unwrapped


def wrapper_count(env: AECEnv) -> int:
    """The PettingZoo wrappers stacked around ``env``'s raw env."""
    count = 0
    while isinstance(env, BaseWrapper):
        env, count = env.env, count + 1
    return count


def speed_measures(
    module: Any, options: dict[str, Any], game: Game, seed: int, seconds: float
) -> dict[str, Callable[[], float]]:
    """Every speed figure of one setting, the references included: name -> a function that
    measures it for ``seconds`` and returns the rate. Env figures are named ``env/<kind>``
    for ours and ``<reference>/<kind>`` for PettingZoo's."""
    measures: dict[str, Callable[[], float]] = {
        "engine_apply": partial(engine_applies_per_second, game, seconds, seed),
        "engine_loop": partial(engine_loop_steps_per_second, game, seconds, seed),
        "ismcts": partial(ismcts_iterations_per_second, game, seconds, seed),
    }
    if network_available():
        evaluator = fresh_network_evaluator(module.SPEC.name, options, seed)
        measures["guided"] = partial(guided_iterations_per_second, game, evaluator, seconds, seed)
    for kind in ENV_KINDS:
        measures[f"env/{kind}"] = partial(
            _env_moves_per_second, partial(game_env, module, options, kind), seconds, seed
        )
        for name in REFERENCE_ENVS:
            measures[f"{name}/{kind}"] = partial(
                _env_moves_per_second, partial(reference_env, name, kind), seconds, seed
            )
    return measures


def _env_moves_per_second(make_env: Callable[[], AECEnv], seconds: float, seed: int) -> float:
    return aec_moves_per_second(make_env(), seconds, seed)


def _measure_setting(name: str, options: dict[str, Any], args: argparse.Namespace) -> GameResult:
    module = envs.env_module(name)
    _progress(f"bench: {name} {format_options(options)}")
    game = envs.spec(name).new_game(**options)
    seconds = args.seconds / args.rounds
    rounds = interleaved_rounds(
        speed_measures(module, options, game, args.seed, seconds), args.rounds
    )
    competitive = envs.spec(name).competitive
    return GameResult(
        game=name,
        options=options,
        engine_apply_per_s=Spread.of(rounds["engine_apply"]),
        engine_loop_per_s=Spread.of(rounds["engine_loop"]),
        ismcts_iterations_per_s=Spread.of(rounds["ismcts"]),
        guided_iterations_per_s=Spread.of(rounds["guided"]) if "guided" in rounds else None,
        envs=[
            env_speed(kind, wrapper_count(game_env(module, options, kind)), rounds)
            for kind in ENV_KINDS
        ],
        rounds=rounds,
        play=[]
        if competitive
        else [play_strength(name, game, spec, args.games, args.seed) for spec in PLAY_AGENTS],
        matches=[
            match_strength(name, game, agent, opponent, args.games, args.seed)
            for agent, opponent in MATCHES
        ]
        if competitive
        else [],
        move_parts=move_parts(module, options, args.seed, seconds, args.rounds)
        if args.parts
        else {},
    )


def move_parts(
    module: Any, options: dict[str, Any], seed: int, seconds: float, rounds: int
) -> dict[str, dict[str, float]]:
    """``aec_move_parts`` of the wrapped env and of ``PARTS_REFERENCE`` in interleaved
    rounds: name (``env`` for ours) -> part -> median microseconds a move."""
    measures = {
        "env": partial(_move_parts, partial(game_env, module, options, "wrapped"), seconds, seed),
        PARTS_REFERENCE: partial(
            _move_parts, partial(reference_env, PARTS_REFERENCE, "wrapped"), seconds, seed
        ),
    }
    values = interleaved_rounds(measures, rounds)
    return {
        name: {part: statistics.median(r[part] for r in runs) for part in MOVE_PARTS}
        for name, runs in values.items()
    }


def _move_parts(make_env: Callable[[], AECEnv], seconds: float, seed: int) -> dict[str, float]:
    return aec_move_parts(make_env(), seconds, seed)


def env_speed(kind: str, wrappers: int, rounds: dict[str, list[float]]) -> EnvSpeed:
    """Our env of ``kind`` against each reference of the same kind, round by round."""
    ours = rounds[f"env/{kind}"]
    return EnvSpeed(
        kind=kind,
        wrappers=wrappers,
        moves_per_s=Spread.of(ours),
        vs_reference={
            name: ratio_spread(ours, rounds[f"{name}/{kind}"]) for name in REFERENCE_ENVS
        },
    )


def reference_speeds(results: Sequence[GameResult]) -> dict[str, Spread]:
    """``<reference>/<kind>`` -> its moves/s over every round of every setting of the run."""
    return {
        f"{name}/{kind}": Spread.of([v for r in results for v in r.rounds[f"{name}/{kind}"]])
        for name in REFERENCE_ENVS
        for kind in ENV_KINDS
    }


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


def aec_moves_per_second(env: AECEnv, seconds: float, seed: int) -> float:
    """The usual AEC loop with a random legal action from the mask, resetting when done.

    Only moves count: the ``step(None)`` dead steps that take a finished agent out are
    timed (the loop must make them) but not counted, so a game of short episodes, such as
    leduc's hands, is not credited with steps nobody chose."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    moves = steps = 0
    start = time.perf_counter()
    # The clock is read every 64 steps only, so that reading it costs nothing measurable.
    while steps % 64 or time.perf_counter() - start < seconds:
        observation, _reward, termination, truncation, _info = env.last()
        action = None
        if not (termination or truncation):
            action = random_legal(observation["action_mask"], rng)
            moves += 1
        env.step(action)
        steps += 1
        if not env.agents:
            env.reset()
    elapsed = time.perf_counter() - start
    env.close()
    return moves / elapsed


def random_legal(mask: np.ndarray, rng: np.random.Generator) -> int:
    """The agent's part of the AEC loop: a uniformly random action the mask allows."""
    legal = np.flatnonzero(mask)
    return int(legal[rng.integers(len(legal))])


def aec_move_parts(env: AECEnv, seconds: float, seed: int) -> dict[str, float]:
    """Where a move of ``aec_moves_per_second``'s loop spends its time: microseconds a move
    in each of ``MOVE_PARTS`` (dead steps' ``last()`` and ``step()`` included, as there).
    The clock is read around every part, which adds under a microsecond a move."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    clock = time.perf_counter
    spent = dict.fromkeys(MOVE_PARTS, 0.0)
    moves = 0
    deadline = clock() + seconds
    while moves == 0 or clock() < deadline:
        start = clock()
        observation, _reward, termination, truncation, _info = env.last()
        looked = clock()
        action = None
        if not (termination or truncation):
            action = random_legal(observation["action_mask"], rng)
            moves += 1
        picked = clock()
        env.step(action)
        stepped = clock()
        spent["last()"] += looked - start
        spent["mask scan"] += picked - looked
        spent["step()"] += stepped - picked
        if not env.agents:
            env.reset()
    env.close()
    return {part: 1e6 * total / moves for part, total in spent.items()}


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


def network_available() -> bool:
    """Whether torch, which builds the guided search's network, is installed."""
    return importlib.util.find_spec("torch") is not None


def fresh_network_evaluator(name: str, options: dict[str, Any], seed: int) -> Evaluator:
    """An untrained network of the shape ``tabletop train`` gives game ``name`` under the
    flat encoder (``training/configs.toml``), evaluated as a policy file would be: numpy
    where it can, torch for a pointer network."""
    import torch

    from tabletop.agents.guided import NetworkEvaluator
    from tabletop.agents.policy import NetworkSpec, env_metadata, new_policy
    from tabletop.training.config import game_settings, run_network

    settings = run_network(name, game_settings(name), {}, {"encoder": "flat"})
    network = NetworkSpec(**settings.model_dump())
    env = envs.make(name, encoder="flat", **options).unwrapped
    torch.manual_seed(seed)
    policy = new_policy(env_metadata(env, game_options=options), network)
    return NetworkEvaluator.of_policy(policy, env.encoder, env.game, snapshot=True)


def guided_iterations_per_second(
    game: Game, evaluator: Evaluator, seconds: float, seed: int
) -> float:
    """Guided search (default settings, ``ISMCTS_SEARCH_ITERATIONS`` a search) at each
    decision of random games: iterations/s with the network's evaluations, beside ISMCTS's
    with rollouts."""
    search = GuidedSearch(evaluator, GuidedSettings(iterations=ISMCTS_SEARCH_ITERATIONS), seed)
    iterations = 0
    start = time.perf_counter()
    for state, action in _random_playout_steps(game, seed):
        iterations += search.search(state, state.current_player).iterations
        state.apply(action)
        if time.perf_counter() - start > seconds:
            break
    return iterations / (time.perf_counter() - start)


class StatsMeans:
    """The mean of each numeric ``State.stats()`` figure over the games that report it,
    and how many did (a figure may appear only in some outcomes)."""

    def __init__(self) -> None:
        self.sums: dict[str, float] = {}
        self.games: dict[str, int] = {}

    def add(self, stats: dict[str, Any]) -> None:
        for key, value in numeric_stats(stats).items():
            self.sums[key] = self.sums.get(key, 0.0) + value
            self.games[key] = self.games.get(key, 0) + 1

    def figures(self) -> dict[str, Any]:
        """``stats_mean`` and ``stats_games``, as ``PlayResult`` and ``MatchResult`` keep them."""
        means = {key: total / self.games[key] for key, total in self.sums.items()}
        return {"stats_mean": means, "stats_games": self.games}


def play_strength(name: str, game: Game, agent_spec: str, games: int, seed: int) -> PlayResult:
    """``games`` games with ``agent_spec`` at every seat: team wins and mean stats."""
    agents = [make_agent(agent_spec, name, seed + seat) for seat in range(game.num_players)]
    wins = 0
    stats = StatsMeans()
    for game_seed in range(seed, seed + games):
        state = play_game(game.new_state(seed=game_seed), agents)
        wins += team_outcome(state.returns()) == WIN
        stats.add(state.stats())
    return PlayResult(
        agents=agent_spec, **Tally.of_wins(wins, games).figures_for(PlayResult), **stats.figures()
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
    outcomes: list[str] = []
    games_by_seat, wins_by_seat = [0] * seats, [0] * seats
    stats = StatsMeans()
    for index, game_seed in enumerate(range(seed, seed + games)):
        seat = index % seats
        agents = [agent if s == seat else opponents[s] for s in range(seats)]
        state = play_game(game.new_state(seed=game_seed), agents)
        result = side_outcome(state.returns(), seat)
        outcomes.append(result)
        games_by_seat[seat] += 1
        wins_by_seat[seat] += result == WIN
        stats.add(state.stats())
    return MatchResult(
        agent=agent_spec,
        opponent=opponent_spec,
        **Tally.of(outcomes).figures_for(MatchResult),
        games_by_seat=games_by_seat,
        wins_by_seat=wins_by_seat,
        **stats.figures(),
    )


def _rate(per_second: float) -> str:
    return f"{per_second:,.0f}"


def _ratio(spread: Spread) -> str:
    return f"{spread.median:.2f}x ({spread.low:.2f}-{spread.high:.2f})"


def _engine_table(results: Sequence[GameResult]) -> str:
    """Medians over the rounds (each round's value is in the JSON)."""
    headers = ["game", "options", "engine apply/s", "engine loop/s", "ISMCTS iterations/s"]
    headers.append("guided iterations/s (fresh net)")
    rows = [
        [
            r.game,
            format_options(r.options),
            _rate(r.engine_apply_per_s.median),
            _rate(r.engine_loop_per_s.median),
            _rate(r.ismcts_iterations_per_s.median),
            "-" if r.guided_iterations_per_s is None else _rate(r.guided_iterations_per_s.median),
        ]
        for r in results
    ]
    return format_table(headers, rows)


def _env_table(results: Sequence[GameResult], reference: dict[str, Spread]) -> str:
    """Our envs' moves/s (medians over the rounds) and, per reference, the median of the
    per-round ratios to the reference env of the same kind, with their min-max."""
    headers = ["game", "options", "env", "wrappers", "AEC moves/s"]
    headers += [f"vs {name} (same env)" for name in REFERENCE_ENVS]
    rows = [
        [
            r.game,
            format_options(r.options),
            env.kind,
            str(env.wrappers),
            _rate(env.moves_per_s.median),
            *(_ratio(env.vs_reference[name]) for name in REFERENCE_ENVS),
        ]
        for r in results
        for env in r.envs
    ]
    rows += [
        [
            name,
            "pettingzoo",
            kind,
            str(wrapper_count(reference_env(name, kind))),
            _rate(reference[f"{name}/{kind}"].median),
            *(["-"] * len(REFERENCE_ENVS)),
        ]
        for name in REFERENCE_ENVS
        for kind in ENV_KINDS
    ]
    return format_table(headers, rows)


def _parts_table(results: Sequence[GameResult]) -> str:
    """Microseconds a move of the wrapped env spends in each part, beside the reference's
    measured in the same rounds (one reference row per setting: its own rounds)."""
    headers = ["game", "options", *(f"{part} us" for part in MOVE_PARTS), "move us"]
    rows = [
        [
            r.game if name == "env" else name,
            format_options(r.options) if name == "env" else f"beside {r.game}",
            *(f"{parts[part]:.1f}" for part in MOVE_PARTS),
            f"{sum(parts.values()):.1f}",
        ]
        for r in results
        for name, parts in r.move_parts.items()
    ]
    return format_table(headers, rows)


def _play_table(results: Sequence[GameResult]) -> str:
    headers = ["game", "options", "agents", "games", "win rate", "95% CI", "mean stats"]
    rows = [
        _strength_row(r, play.agents, play, _rate_and_interval(play.win_rate, play.win_ci95))
        for r in results
        for play in r.play
    ]
    return format_table(headers, rows)


def _match_table(results: Sequence[GameResult]) -> str:
    headers = ["game", "options", "agents (seats rotate)", "games"]
    for outcome in OUTCOMES:
        headers += [f"{outcome} rate", "95% CI"]
    headers.append("mean stats")
    rows = [
        _strength_row(
            r,
            f"{match.agent} vs {match.opponent}",
            match,
            [
                *_rate_and_interval(match.win_rate, match.win_ci95),
                *_rate_and_interval(match.draw_rate, match.draw_ci95),
                *_rate_and_interval(match.loss_rate, match.loss_ci95),
            ],
        )
        for r in results
        for match in r.matches
    ]
    return format_table(headers, rows)


def _strength_row(
    r: GameResult, agents: str, played: PlayResult | MatchResult, rates: list[str]
) -> list[str]:
    """A row of the play-strength tables: the setting, who played, the games, ``rates``
    (each rate beside its interval) and the mean stats."""
    return [r.game, format_options(r.options), agents, str(played.games), *rates,
            _format_stats(played)]  # fmt: skip


def _rate_and_interval(rate: float, interval: tuple[float, float]) -> list[str]:
    return [f"{rate:.3f}", format_interval(interval)]


def _format_stats(play: PlayResult | MatchResult) -> str:
    """``key mean`` pairs; a figure missing from some games says in how many it was."""
    return ", ".join(_format_stat(play, key) for key in play.stats_mean) or "-"


def _format_stat(play: PlayResult | MatchResult, key: str) -> str:
    games = play.stats_games[key]
    return f"{key} {play.stats_mean[key]:.3g}" + (f" (in {games})" if games < play.games else "")


def _save_json(
    path: str, args: argparse.Namespace, reference: dict[str, Spread], results: list[GameResult]
) -> None:
    figures = {
        "settings": {
            "games": args.games,
            "seconds": args.seconds,
            "rounds": args.rounds,
            "seed": args.seed,
            "parts": args.parts,
        },
        "reference_moves_per_s": {name: asdict(spread) for name, spread in reference.items()},
        "results": [asdict(result) for result in results],
    }
    with open(path, "w", encoding="utf-8") as file:
        json.dump(figures, file, indent=2)
        file.write("\n")
