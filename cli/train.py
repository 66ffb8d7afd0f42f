"""Train a policy for a game with MaskablePPO and self-play; resumable after a kill.
``--backend rllib`` trains with Ray RLlib's PPO instead (``training/rllib/``,
docs/distributed.md), and ``--algo exit`` by expert iteration with the network-guided
search (``training/exit/``), each with the same opponents and the same run directory.

The learner plays one seat of the game (every seat of a cooperative game) through
``SingleAgentEnv``. In competitive games its opponents come from a pool that starts with
the baselines (``random``, ``heuristic``) and gains a snapshot of the learner every
``snapshot_every`` steps; wrappers/opponents.py documents how one is drawn per game.
Settings come from training/configs.toml (``[default]`` and the game's table) and flags.

The run directory holds: ``settings.json``; ``checkpoint.zip`` (the whole PPO model with
its optimiser, every ``checkpoint_every`` steps; ``checkpoint.pt`` for ``--algo exit``) and
``checkpoint.json``; ``snapshots/``;
``best_policy.pt`` (best evaluation so far) and ``last_policy.pt``, both loadable with
``load_agent`` or as an agent spec; ``log.csv``; and TensorBoard logs in ``tb/``.
``--resume`` continues from the last checkpoint, so a kill loses at most one interval;
``--overwrite`` starts the run over. Without either, an existing run is never touched.
"""

from __future__ import annotations

import argparse
import json
import os
import tomllib
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tabletop.cli.options import (
    CommandError,
    add_game_options,
    game_options,
    split_key_value,
)
from tabletop.training.config import registered_name
from tabletop.training.rllib.address import LOOPBACK_ONLY, use_loopback_if_local
from tabletop.training.runs import ALGOS, BACKENDS, SETTINGS, TrainSettings, run_files

if TYPE_CHECKING:
    from tabletop.training.base_trainer import BaseTrainer

FPS_BENCHMARK_STEPS = 10_240
"""Default ``--steps`` of ``--fps-benchmark``."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", help="registered game name, e.g. regicide")
    parser.add_argument("--steps", type=int, help="total environment steps (config: steps)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the run (default 0)")
    parser.add_argument("--envs", type=int, metavar="N", help="parallel environments")
    parser.add_argument("--out", metavar="DIR", help="run directory (default runs/GAME)")
    parser.add_argument(
        "--resume", action="store_true", help="continue the run in --out from its checkpoint"
    )
    parser.add_argument(
        "--overwrite",
        action="store_true",
        help="start the run in --out over: delete the files of the run already there "
        "(and nothing else in the directory) once the new run is ready to start",
    )
    parser.add_argument(
        "--quick", action="store_true", help="the short demo run (config: quick_steps)"
    )
    parser.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    parser.add_argument(
        "--set",
        type=split_key_value,
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="override a configs.toml setting with a TOML value, e.g. --set ppo.n_steps=256 "
        "--set network.net_arch=[64,64] (repeatable)",
    )
    parser.add_argument(
        "--backend",
        choices=BACKENDS,
        help="what learns: sb3 (MaskablePPO, the default) or rllib (Ray RLlib's PPO, "
        "docs/distributed.md); a resumed run keeps its own",
    )
    parser.add_argument(
        "--algo",
        choices=ALGOS,
        help="how the policy learns: ppo (the default) or exit (expert iteration with the "
        "network-guided search, configs.toml [exit]); a resumed run keeps its own",
    )
    parser.add_argument(
        "--address",
        metavar="HOST:PORT",
        help="rllib: the Ray cluster to join (default: $RAY_ADDRESS, else a local Ray)",
    )
    parser.add_argument(
        "--env-runners",
        type=int,
        metavar="N",
        help="rllib: processes sampling games (config: rllib.env_runners; 0 samples in the "
        "learner's process)",
    )
    parser.add_argument(
        "--fps-benchmark",
        action="store_true",
        help="measure training steps/s on the game and on a zero-cost env of the same spaces",
    )
    add_game_options(parser)


def run(args: argparse.Namespace) -> int:
    try:
        game = registered_name(args.game)
        out = args.out or f"runs/{game}"
        settings = _settings(args, game, out)
        if args.fps_benchmark:
            settings.steps = args.steps or FPS_BENCHMARK_STEPS
            _print_fps_benchmark(settings, args)
            return 0
        info = _trainer(settings, args).run()
    except (ValueError, FileNotFoundError, FileExistsError) as error:
        raise CommandError(str(error)) from error
    print(
        f"trained {info.steps} steps in {info.elapsed_s:.0f} s; best {settings.best_metric} "
        f"{info.best_value:.3f} at step {info.best_step}; policies in {out}"
    )
    return 0


def _print_fps_benchmark(settings: TrainSettings, args: argparse.Namespace) -> None:
    if settings.backend == "sb3":
        from tabletop.training.speed import print_fps_benchmark

        print_fps_benchmark(settings)
        return
    os.environ.setdefault(LOOPBACK_ONLY, "0")
    try:
        from tabletop.training.rllib.speed import print_rllib_benchmark
    except ImportError as error:
        raise _ray_missing(error) from error
    sb3 = _configured_settings(args, settings.game, settings.out, settings.steps, settings.seed)
    print_rllib_benchmark(sb3, settings)


def _trainer(settings: TrainSettings, args: argparse.Namespace) -> BaseTrainer:
    progress = not args.no_progress
    if settings.algo == "exit":
        from tabletop.training.exit.trainer import ExItTrainer

        return ExItTrainer(
            settings, resume=args.resume, progress=progress, overwrite=args.overwrite
        )
    if settings.backend == "sb3":
        from tabletop.training.trainer import Trainer

        return Trainer(settings, resume=args.resume, progress=progress, overwrite=args.overwrite)
    address = args.address or os.environ.get("RAY_ADDRESS") or None
    use_loopback_if_local(address)  # Ray reads it when it is imported
    try:
        from tabletop.training.rllib.trainer import RLlibTrainer
    except ImportError as error:
        raise _ray_missing(error) from error
    try:
        return RLlibTrainer(
            settings,
            resume=args.resume,
            progress=progress,
            address=address,
            overwrite=args.overwrite,
        )
    except ConnectionError as error:  # the cluster: nothing answers, or a refused token
        raise CommandError(str(error)) from error


def _ray_missing(error: ImportError) -> CommandError:
    return CommandError(
        f"--backend rllib needs Ray RLlib ({error}): pip install 'tabletop[distributed]'"
    )


def config_overrides(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """``[("ppo.n_steps", 256)]`` -> ``{"ppo": {"n_steps": 256}}``; a text value is read
    as a TOML value when it is one (``[64, 64]``), else kept as text."""
    overrides: dict[str, Any] = {}
    for dotted, value in pairs:
        if isinstance(value, str):
            value = _toml_value(value)
        *tables, key = dotted.split(".")
        table = overrides
        for name in tables:
            table = table.setdefault(name, {})
        table[key] = value
    return overrides


def _run_defining_flags(args: argparse.Namespace) -> dict[str, Any]:
    return {
        "--envs": args.envs is not None,
        "--quick": args.quick,
        "--set": args.set,
        "--players": args.players is not None,
        "--option": args.option,
        "--fps-benchmark": args.fps_benchmark,
    }


def _toml_value(text: str) -> Any:
    try:
        return tomllib.loads(f"value = {text}")["value"]
    except tomllib.TOMLDecodeError:
        return text


def _settings(args: argparse.Namespace, game: str, out: str) -> TrainSettings:
    settings = _resumed_settings(args, game, out) if args.resume else _new_settings(args, game, out)
    if settings.backend != "rllib" and (args.address or args.env_runners is not None):
        raise ValueError("--address and --env-runners are settings of --backend rllib")
    if args.env_runners is not None:
        if args.env_runners < 0:
            raise ValueError(f"--env-runners must be 0 or more, got {args.env_runners}")
        settings.rllib = settings.rllib.overlaid({"env_runners": args.env_runners})
    return settings


def _resumed_settings(args: argparse.Namespace, game: str, out: str) -> TrainSettings:
    settings_path = Path(out) / SETTINGS
    if args.overwrite:
        raise ValueError("--resume continues a run, --overwrite starts it over: pass one")
    changed = [flag for flag, value in _run_defining_flags(args).items() if value]
    if changed:
        raise ValueError(
            f"--resume continues a run with its saved settings; only --steps may change "
            f"(and an rllib run's --address and --env-runners), not {', '.join(changed)}"
        )
    if not settings_path.exists():
        raise FileNotFoundError(f"{out} holds no run to resume ({SETTINGS} is missing)")
    settings = TrainSettings.from_json(json.loads(settings_path.read_text(encoding="utf-8")))
    if settings.game != game:
        raise ValueError(f"{out} is a {settings.game} run, not a {game} run")
    if args.backend is not None and args.backend != settings.backend:
        raise ValueError(f"{out} is a --backend {settings.backend} run, not {args.backend}")
    if args.algo is not None and args.algo != settings.algo:
        raise ValueError(f"{out} is an --algo {settings.algo} run, not {args.algo}")
    settings.out = out  # the directory may have been moved or copied since
    if args.steps is not None:
        settings.steps = args.steps
    return settings


def _new_settings(args: argparse.Namespace, game: str, out: str) -> TrainSettings:
    if run_files(Path(out)) and not (args.overwrite or args.fps_benchmark):
        raise FileExistsError(
            f"{out} already holds a run: --resume continues it, --overwrite starts it over "
            "(deleting it), or pass another --out"
        )
    algo = args.algo or "ppo"
    if algo == "exit" and (args.envs is not None or args.fps_benchmark):
        raise ValueError(
            "--envs and --fps-benchmark are PPO's: --algo exit plays its games in turn"
        )
    return _configured_settings(
        args, game, out, args.steps, args.seed, n_envs=args.envs,
        backend=args.backend or "sb3", algo=algo,
    )  # fmt: skip


def _configured_settings(
    args: argparse.Namespace,
    game: str,
    out: str,
    steps: int | None,
    seed: int,
    *,
    n_envs: int | None = None,
    backend: str = "sb3",
    algo: str = "ppo",
) -> TrainSettings:
    """``TrainSettings.from_config`` with the command line's --quick, game options and
    --set: the settings of a new run, and of the SB3 run an rllib --fps-benchmark compares
    with (its own envs, the configured ones)."""
    return TrainSettings.from_config(
        game,
        out=out,
        steps=steps,
        seed=seed,
        n_envs=n_envs,
        quick=args.quick,
        env_options=game_options(args),
        overrides=config_overrides(args.set),
        backend=backend,
        algo=algo,
    )
