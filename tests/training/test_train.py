"""Tiny training runs (a few hundred steps, tiny networks): files, logs, resume, kill."""

from __future__ import annotations

import csv
import itertools
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("stable_baselines3", reason="needs the [train] extra")
import torch
from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

from tabletop import envs
from tabletop.agents.policy import load_agent
from tabletop.cli.main import build_parser, main
from tabletop.cli.train import config_overrides
from tabletop.training.runs import TrainSettings
from tabletop.training.trainer import Trainer, final_step

TINY = {
    "envs": 1,
    "ppo": {"n_steps": 64, "batch_size": 64, "n_epochs": 1},
    "network": {"net_arch": [16]},
    "selfplay": {"snapshot_every": 64},
    "run": {"checkpoint_every": 128, "eval_every": 128, "eval_games": 4},
    "imitation": {"games": 2, "epochs": 1},  # a game's configured warm start, made tiny
}
TINY_FLAGS = [
    "--envs=1",
    "--set=ppo.n_steps=64",
    "--set=ppo.batch_size=64",
    "--set=ppo.n_epochs=1",
    "--set=network.net_arch=[16]",
    "--set=run.checkpoint_every=128",
    "--set=run.eval_every=128",
    "--set=run.eval_games=4",
]

HEAD_SETTINGS = Path(__file__).with_name("fixtures") / "settings_regicide_tiny.json"
"""The ``settings.json`` of ``tiny_settings("regicide", Path("runs/regicide"), 192)`` as
written before the settings' tables were typed models (dicts, saved with ``asdict``)."""


def tiny_settings(game: str, out: Path, steps: int) -> TrainSettings:
    return TrainSettings.from_config(game, out=str(out), steps=steps, overrides=TINY)


def log_rows(out: Path) -> list[dict[str, str]]:
    with (out / "log.csv").open(newline="") as file:
        return list(csv.DictReader(file))


def checkpoint_steps(out: Path) -> int:
    return json.loads((out / "checkpoint.json").read_text())["steps"]


def test_cooperative_tiny_run_then_resume(tmp_path: Path) -> None:
    out = tmp_path / "run"
    info = Trainer(tiny_settings("regicide", out, 192), resume=False, progress=False).run()
    assert info.steps == checkpoint_steps(out) == 192
    rows = log_rows(out)
    assert [r["phase"] for r in rows[:2]] == ["baseline", "baseline"]
    assert [int(r["step"]) for r in rows if r["phase"] == "eval"] == [128, 192]
    train = [r for r in rows if r["phase"] == "train"]  # the recent games, at each rollout end
    assert [int(r["step"]) for r in train] == [64, 128, 192]
    assert {r["opponent"] for r in train} == {"team"}
    assert all(r["metric"] == "enemies_defeated" for r in train)
    assert all(0 <= float(r["metric_value"]) <= 12 for r in train)
    assert [int(r["games"]) for r in train] == sorted(int(r["games"]) for r in train)
    best, last = load_agent(out), load_agent(out / "last_policy.pt")  # a run dir: its best
    assert last.metadata.training_steps == 192
    assert best.metadata.training_steps in (128, 192)
    assert best.metadata.game_options == {"num_players": 2, "shaped_reward": True}

    written = (out / "settings.json").read_text(encoding="utf-8")
    assert written == HEAD_SETTINGS.read_text(encoding="utf-8").replace(
        '"runs/regicide"', json.dumps(str(out))
    )  # settings.json as the code before typed settings wrote it
    moved = tmp_path / "moved"
    shutil.copytree(out, moved)
    shutil.copy(HEAD_SETTINGS, moved / "settings.json")  # a run written by that code resumes
    assert main(["train", "regicide", f"--out={moved}", "--resume", "--steps=320"]) == 0
    assert checkpoint_steps(moved) == 320 and checkpoint_steps(out) == 192
    eval_steps = [int(r["step"]) for r in log_rows(moved) if r["phase"] == "eval"]
    assert eval_steps == [128, 192, 256, 320]
    assert len(list((moved / "tb").glob("ppo_*"))) == 1  # TensorBoard continues the same run
    assert main(["train", "regicide", f"--out={moved}", "--resume", "--steps=320"]) == 2


def test_competitive_run_adds_snapshots_to_the_pool(tmp_path: Path, countdown) -> None:
    out = tmp_path / "run"
    trainer = Trainer(tiny_settings(countdown, out, 192), resume=False, progress=False)
    trainer.run()
    snapshots = sorted(p.name for p in (out / "snapshots").glob("*.pt"))
    assert snapshots == [f"step_{s:010d}.pt" for s in (64, 128, 192)]
    pool = trainer.vec_env.envs[0].opponents
    assert list(pool.baselines) == ["random", "heuristic"]
    assert list(pool.snapshots) == ["self@64", "self@128", "self@192"]
    opponents = {r["opponent"] for r in log_rows(out) if r["phase"] == "eval"}
    assert opponents == {"random", "heuristic"}
    train = [r for r in log_rows(out) if r["phase"] == "train"]
    # snapshots join the pool at step 64, so self-play games can only be reported after it
    assert {r["opponent"] for r in train if int(r["step"]) == 64} <= {"random", "heuristic"}
    assert {r["opponent"] for r in train} <= {"random", "heuristic", "self-play"}
    assert all(float(r["draw_rate"]) == 0 for r in train)  # countdown has no draws

    resumed = Trainer(tiny_settings(countdown, out, 256), resume=True, progress=False)
    assert list(resumed.vec_env.envs[0].opponents.snapshots) == ["self@64", "self@128", "self@192"]


@pytest.mark.parametrize("game", [name for name in envs.names() if envs.spec(name).competitive])
def test_every_competitive_game_trains_with_its_default_settings(tmp_path: Path, game: str) -> None:
    """The configured defaults (only the sizes shrunk) run end to end on each real game:
    self-play snapshots, evaluation against both baselines, a loadable best policy."""
    out = tmp_path / "run"
    settings = tiny_settings(game, out, 128)
    info = Trainer(settings, resume=False, progress=False).run()
    assert info.steps == checkpoint_steps(out) == 128
    rows = log_rows(out)
    baselines = set(settings.selfplay.baselines)
    assert baselines <= {"random", "heuristic"}
    assert {r["opponent"] for r in rows if r["phase"] == "eval"} == baselines
    assert {r["opponent"] for r in rows if r["phase"] == "train"} <= baselines | {"self-play"}
    assert len(list((out / "snapshots").glob("*.pt"))) == 2
    state = envs.make_game(game).new_state(seed=0)
    assert load_agent(out).act(state, state.current_player) in state.legal_actions()


def test_killed_run_resumes_from_its_last_checkpoint(tmp_path: Path) -> None:
    out = tmp_path / "run"
    command = [sys.executable, "-c", "from tabletop.cli.main import main; main()"]
    flags = ["train", "regicide", f"--out={out}", "--steps=100000", "--no-progress", *TINY_FLAGS]
    process = subprocess.Popen([*command, *flags], stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while not (out / "checkpoint.json").exists():
            assert process.poll() is None, "training exited before its first checkpoint"
            assert time.monotonic() < deadline, "no checkpoint within two minutes"
            time.sleep(0.2)
    finally:
        process.kill()
        process.wait()
    killed_at = checkpoint_steps(out)
    assert killed_at >= 128
    assert main(["train", "regicide", f"--out={out}", "--resume", f"--steps={killed_at + 64}"]) == 0
    assert checkpoint_steps(out) == killed_at + 64
    assert load_agent(out / "last_policy.pt").metadata.training_steps == killed_at + 64
    assert all(int(r["step"]) <= killed_at + 64 for r in log_rows(out))


def test_command_line_mistakes_are_clear_errors(tmp_path: Path, capsys) -> None:
    out = tmp_path / "run"
    assert main(["train", "regicide", f"--out={out}", "--set=ppo.n_step=64"]) == 2
    assert "unknown setting 'ppo.n_step'" in capsys.readouterr().err
    assert main(["train", "regicide", f"--out={out}", "--resume"]) == 2
    assert "no run to resume" in capsys.readouterr().err
    assert main(["train", "regicide", f"--out={out}", "--resume", "--envs=4"]) == 2
    error = capsys.readouterr().err
    assert "only --steps may change" in error and error.endswith("not --envs\n")
    assert config_overrides([("ppo.n_steps", 8), ("network.net_arch", "[4, 4]")]) == {
        "ppo": {"n_steps": 8},
        "network": {"net_arch": [4, 4]},
    }
    assert config_overrides([("seat", "random")]) == {"seat": "random"}


def test_a_run_directory_is_rerun_with_overwrite_and_never_touched_without(
    tmp_path: Path, capsys
) -> None:
    out = tmp_path / "run"
    flags = ["train", "regicide", f"--out={out}", "--steps=64", "--no-progress", *TINY_FLAGS]
    assert main(flags) == 0
    first_rows = [(r["phase"], r["step"]) for r in log_rows(out)]
    (out / "results.json").write_text("{}")  # e.g. an evaluation written beside the run
    (out / "checkpoint.zip").unlink()  # a run killed before its first checkpoint counts too
    assert main(flags) == 2
    error = capsys.readouterr().err
    assert "already holds a run: --resume continues it, --overwrite starts it over" in error
    assert [(r["phase"], r["step"]) for r in log_rows(out)] == first_rows
    assert main([*flags, "--overwrite", "--resume"]) == 2
    assert "pass one" in capsys.readouterr().err
    settings = (out / "settings.json").read_text()
    for refused in ("--option=encoder=bogus", "--set=network.rows=[8]"):  # refused at setup
        assert main([*flags, "--overwrite", refused]) == 2
        assert (out / "settings.json").read_text() == settings  # regression: it was deleted
        assert [(r["phase"], r["step"]) for r in log_rows(out)] == first_rows
    assert "no action structure" in capsys.readouterr().err

    assert main([*flags, "--overwrite"]) == 0
    assert [(r["phase"], r["step"]) for r in log_rows(out)] == first_rows  # a new log
    assert checkpoint_steps(out) == 64
    assert len(list((out / "tb").glob("ppo_*"))) == 1
    assert (out / "results.json").read_text() == "{}"


def test_a_failed_ray_join_with_overwrite_keeps_the_old_run(
    tmp_path: Path, capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Regression: --overwrite deleted the old run before --backend rllib joined Ray, so a
    join that failed (here: nothing answers at the port) lost it."""
    pytest.importorskip("ray.rllib")
    for variable, value in (("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0"), ("OMP_NUM_THREADS", "1")):
        monkeypatch.setenv(variable, os.environ.get(variable, value))  # the join sets them
    out = tmp_path / "run"
    out.mkdir()
    (out / "settings.json").write_text("{}")  # the old run's files
    (out / "log.csv").write_text("step\n")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        nowhere = f"127.0.0.1:{probe.getsockname()[1]}"
    flags = ["train", "kaleva", f"--out={out}", "--backend=rllib", f"--address={nowhere}"]
    assert main([*flags, "--overwrite", "--steps=1", *TINY_FLAGS]) == 2
    assert f"no Ray cluster answers at {nowhere}" in capsys.readouterr().err
    assert (out / "settings.json").read_text() == "{}"
    assert (out / "log.csv").read_text() == "step\n"


def test_set_takes_toml_values_with_commas() -> None:
    flags = ["--set=network.net_arch=[16, 16]", "--set=ppo.learning_rate=3e-4", "--set=seat=random"]
    args = build_parser().parse_args(["train", "regicide", *flags])
    assert config_overrides(args.set) == {
        "network": {"net_arch": [16, 16]},
        "ppo": {"learning_rate": 3e-4},
        "seat": "random",
    }


def test_the_progress_bar_ends_at_its_total(tmp_path: Path, capsys) -> None:
    """PPO runs whole rollouts (64 steps here): asked for 100 steps it runs 128, and the
    bar counts to 128 of 128."""
    assert final_step(0, 100, 64) == 128 and final_step(128, 256, 64) == 256
    settings = tiny_settings("regicide", tmp_path / "run", 100)
    assert Trainer(settings, resume=False, progress=True).run().steps == 128
    counts = re.findall(r"(\d+)/(\d+) \[", capsys.readouterr().err)
    assert counts[-1] == ("128", "128")
    assert all(int(done) <= int(total) for done, total in counts)


def test_envs_in_subprocesses_train_the_same_policy(tmp_path: Path) -> None:
    """SubprocVecEnv workers and in-process envs play the same games: the same weights."""
    policies = []
    for subprocesses in (False, True):
        out = tmp_path / f"subprocesses_{subprocesses}"
        overrides = {**TINY, "envs": 2, "subprocesses": subprocesses}
        settings = TrainSettings.from_config("kaleva", out=str(out), steps=256, overrides=overrides)
        trainer = Trainer(settings, resume=False, progress=False)
        assert isinstance(trainer.vec_env, SubprocVecEnv if subprocesses else DummyVecEnv)
        trainer.run()
        policies.append(load_agent(out / "last_policy.pt").policy.state_dict())
    in_process, in_subprocesses = policies
    assert in_process.keys() == in_subprocesses.keys()
    for name, weights in in_process.items():
        assert torch.equal(weights, in_subprocesses[name]), name


def observation_settings() -> list[tuple[str, dict[str, object]]]:
    """(game, env options) for every distinct observation the registry declares: each
    encoder with each of the game's declared option sets (``SPEC.bench_options``), one per
    distinct observation shape and action count."""
    settings = []
    for game in envs.names():
        spec = envs.spec(game)
        seen = set()
        for encoder, options in itertools.product(spec.encoders, spec.bench_options):
            game_object = spec.new_game(**options)
            key = (encoder, spec.encoders[encoder].shape(game_object), game_object.num_actions)
            if key not in seen:
                seen.add(key)
                settings.append((game, {**options, "encoder": encoder}))
    return settings


@pytest.mark.parametrize(("game", "options"), observation_settings(), ids=str)
def test_every_observation_a_game_declares_trains_evaluates_and_loads(
    tmp_path: Path, game: str, options: dict[str, object]
) -> None:
    """Regression: ``encoder=entity`` trained, then died at the first evaluation, because
    the env option reached the rules engine (``make_game``). Each encoder and each option
    set that changes the observation trains a rollout, is evaluated, and its policy loads
    back and plays, with the game's configured network for that encoder (regression: HKK's
    pointer network was asked of the entity encoder, which offers no action structure) and
    after a warm start (regression: it took an entity encoder's 2-D observation for a row)."""
    out = tmp_path / "run"
    overrides = {**TINY, "run": {**TINY["run"], "eval_games": 2}}
    settings = TrainSettings.from_config(
        game, out=str(out), steps=64, env_options=options, overrides=overrides
    )
    assert Trainer(settings, resume=False, progress=False).run().steps == 64
    saved = json.loads((out / "settings.json").read_text())
    assert saved["network"] == settings.network.model_dump()
    assert json.loads((out / "imitation.json").read_text())["games"] == 2  # the warm start
    assert {r["phase"] for r in log_rows(out)} >= {"eval"}
    agent = load_agent(out)
    assert agent.metadata.encoder == options["encoder"]
    assert "encoder" not in agent.metadata.game_options
    state = envs.make_game(game, **settings.game_options).new_state(seed=0)
    assert agent.act(state, state.current_player) in state.legal_actions()


def test_hkk_configures_a_network_per_encoder(tmp_path: Path) -> None:
    """configs.toml gives HKK a pointer network, which needs an action structure, and an
    output per action id under the entity encoder, which offers none."""
    flat = TrainSettings.from_config("hkk", out=str(tmp_path))
    entity = TrainSettings.from_config("hkk", out=str(tmp_path), env_options={"encoder": "entity"})
    assert set(envs.spec("hkk").action_structures) == {"flat"}
    assert flat.network.rows and entity.network.rows == []
    assert entity.network.shared == flat.network.shared
    by_set = TrainSettings.from_config(
        "hkk", out=str(tmp_path), overrides={"env": {"encoder": "entity"}}
    )
    assert by_set.network == entity.network
    with pytest.raises(ValueError, match=r"network_by_encoder is configs\.toml's choice"):
        TrainSettings.from_config(
            "kult", out=str(tmp_path), overrides={"network_by_encoder": {"entity": {"rows": []}}}
        )


def test_a_row_network_asked_of_an_encoder_without_action_structure_is_a_clear_error(
    tmp_path: Path, capsys
) -> None:
    """Rows asked for with --set are not dropped for the entity encoder's network."""
    flags = ["train", "hkk", f"--out={tmp_path / 'run'}", "--option=encoder=entity", "--steps=64"]
    assert main([*flags, *TINY_FLAGS, "--set=imitation.games=0", "--set=network.rows=[8]"]) == 2
    error = capsys.readouterr().err
    assert "no action structure for encoder 'entity'" in error
    assert "--set network.rows=[]" in error
