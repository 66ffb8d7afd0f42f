"""``tabletop train GAME --backend rllib --fps-benchmark``: RLlib's PPO with 0, 1 and 2 env
runners beside the SB3 trainer, on the same game and PPO settings.

Each configuration trains ``settings.steps`` learner steps per round, after one untimed
warm-up iteration (and an untimed build), in interleaved rounds, since other jobs on the
machine slow whatever runs at the same time; each round's ratio to the SB3 figure of the
same round is reported with the medians. No snapshot plays in a benchmark, so an env step
is a learner step, as in SB3.

From RLlib's own timers it also reports each runner's sampling throughput (env steps per
second of sampling) and the learner's time per update. Synchronous PPO alternates the two,
so a cluster of N runners is expected to reach ``batch / (batch / (N * r) + update)``
steps/s: an estimate, printed as one.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, replace

import ray

from tabletop.agents.policy import NetworkSpec, env_metadata
from tabletop.envs import make
from tabletop.matches.results import Spread, interleaved_rounds, ratio_spread
from tabletop.training.rllib.cluster import check_cpus, connect
from tabletop.training.rllib.config import ppo_config
from tabletop.training.rllib.env import MAIN
from tabletop.training.runs import TrainSettings
from tabletop.training.speed import training_steps_per_second
from tabletop.training.trainer import make_vec_env

RUNNER_COUNTS = (0, 1, 2)
ROUNDS = 3
CLUSTER_SIZES = (4, 8, 16)
"""Runner counts of the estimated cluster throughput."""


@dataclass(frozen=True)
class RLlibSpeed:
    """One timed RLlib run."""

    steps_per_s: float
    sampling_per_runner: float
    """Env steps per second of sampling, per env runner (NaN with none)."""
    update_s: float
    """The learner's seconds per PPO update."""


def rllib_speed(settings: TrainSettings, runners: int) -> RLlibSpeed:
    """Train ``settings.steps`` learner steps with ``runners`` env runners (timed)."""
    settings = replace(settings, rllib=settings.rllib.overlaid({"env_runners": runners}))
    metadata = env_metadata(make(settings.game, **settings.env_options), seed=settings.seed,
                            game_options=settings.game_options)  # fmt: skip
    config = ppo_config(
        settings, metadata, NetworkSpec(**settings.network.model_dump()), settings.seed
    )
    algo = config.build_algo()
    try:
        algo.train()  # warm-up: the first iteration pays for compilation and caches
        steps, samples, updates = 0, [], []
        start = time.perf_counter()
        while steps < settings.steps:
            result = algo.train()
            runner_results = result["env_runners"]
            steps += int(runner_results["num_module_steps_sampled"][MAIN])
            if runners:
                sampled = runner_results["num_env_steps_sampled"] / runners
                samples.append(sampled / runner_results["sample"])
            updates.append(result["timers"]["learner_update_timer"])
        elapsed = time.perf_counter() - start
    finally:
        algo.stop()
    sampling = statistics.median(samples) if samples else float("nan")
    return RLlibSpeed(steps / elapsed, sampling, statistics.median(updates))


def print_rllib_benchmark(
    sb3_settings: TrainSettings, rllib_settings: TrainSettings, rounds: int = ROUNDS
) -> None:
    """SB3 and RLlib with each of ``RUNNER_COUNTS`` runners, in interleaved rounds."""
    connect(None)
    try:
        check_cpus(max(RUNNER_COUNTS))
        measures: dict[str, Callable[[], float | RLlibSpeed]] = {
            "sb3": lambda: training_steps_per_second(
                sb3_settings, make_vec_env(sb3_settings, sb3_settings.seed)
            )
        }
        for runners in RUNNER_COUNTS:
            measures[f"rllib {runners}"] = lambda n=runners: rllib_speed(rllib_settings, n)
        runs = interleaved_rounds(measures, rounds)
    finally:
        ray.shutdown()
    _print(sb3_settings, rllib_settings, runs, rounds)


def _print(
    sb3_settings: TrainSettings,
    rllib_settings: TrainSettings,
    runs: dict[str, list],
    rounds: int,
) -> None:
    sb3 = runs["sb3"]
    batch = rllib_settings.rllib.train_batch
    print(
        f"{rllib_settings.game}: {rllib_settings.steps} learner steps per run, {rounds} "
        f"interleaved rounds; SB3 with {sb3_settings.envs} envs, RLlib with "
        f"{rllib_settings.envs} envs per sampling process and {batch} env steps per update"
    )
    print(
        "| trainer | steps/s (median) | min-max | / SB3 (median of rounds) "
        "| sampling per runner, steps/s | update, s |"
    )
    print("|---|---|---|---|---|---|")
    spread = Spread.of(sb3)
    low_high = f"{spread.low:,.0f}-{spread.high:,.0f}"
    print(f"| SB3 MaskablePPO | {spread.median:,.0f} | {low_high} | 1 | - | - |")
    for runners in RUNNER_COUNTS:
        speeds: list[RLlibSpeed] = runs[f"rllib {runners}"]
        figures = [speed.steps_per_s for speed in speeds]
        spread, ratio = Spread.of(figures), ratio_spread(figures, sb3)
        sampling = statistics.median(speed.sampling_per_runner for speed in speeds)
        update = statistics.median(speed.update_s for speed in speeds)
        shown = "-" if runners == 0 else f"{sampling:,.0f}"
        print(
            f"| RLlib, {runners} env runners | {spread.median:,.0f} | "
            f"{spread.low:,.0f}-{spread.high:,.0f} | {ratio.median:.2f} | {shown} | {update:.2f} |"
        )
    _print_estimate(runs, batch)


def _print_estimate(runs: dict[str, list], batch: int) -> None:
    speeds: list[RLlibSpeed] = runs["rllib 1"]
    per_runner = statistics.median(speed.sampling_per_runner for speed in speeds)
    update = statistics.median(speed.update_s for speed in speeds)
    estimates = ", ".join(
        f"{n} runners ≈ {batch / (batch / (n * per_runner) + update):,.0f}" for n in CLUSTER_SIZES
    )
    print(
        f"estimate for a cluster (one runner per CPU, sampling {per_runner:,.0f} steps/s "
        f"each, updates of {update:.2f} s): {estimates} steps/s"
    )
