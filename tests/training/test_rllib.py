"""The Ray RLlib backend (``--backend rllib``) on real Ray: no mocks.

The env and module tests need only the ``ray`` package; the runs start a real Ray: a
cluster of its own, started as docs/distributed.md says (``ray get-auth-token --generate``
in a temporary home, then ``ray start --head`` on 127.0.0.1 with token authentication), for
the ``--address`` runs, the driver kill and the failed joins, and a private local Ray for
the in-process run that kills an env runner. Without Ray installed the module skips,
unless ``TABLETOP_REQUIRE_RAY=1`` (set by ``.ci/run``) makes that a failure.
"""

from __future__ import annotations

import csv
import json
import math
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch", reason="needs the [train] extra")
import torch

# The in-process run's local Ray on the loopback interface only (read when Ray is imported).
os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")
if os.environ.get("TABLETOP_REQUIRE_RAY") == "1":
    import ray  # noqa: F401  (a missing Ray fails here)
else:
    pytest.importorskip("ray.rllib", reason="Ray RLlib is not installed ([distributed] extra)")

from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.rl_module import RLModuleSpec

from tabletop import envs
from tabletop.agents.policy import (
    NetworkSpec,
    env_metadata,
    load_agent,
    new_policy,
    save_policy,
)
from tabletop.cli.main import main
from tabletop.envs.core.protocol import IllegalActionError
from tabletop.training.rllib.address import (
    LOOPBACK_ONLY,
    is_loopback,
    split_address,
    use_loopback_if_local,
)
from tabletop.training.rllib.config import ppo_config, ppo_training
from tabletop.training.rllib.env import (
    ACTION_MASK,
    MAIN,
    OBSERVATIONS,
    TabletopMultiAgentEnv,
    seat_of,
)
from tabletop.training.rllib.league import finished_games
from tabletop.training.rllib.module import (
    MASKED_LOGIT,
    MaskedPolicyModule,
    model_config,
    module_weights,
    policy_weights,
)
from tabletop.training.rllib.trainer import RLlibTrainer
from tabletop.training.runs import LOG_FIELDS, TrainSettings

# One xdist worker runs these one after another: two Ray clusters at once would share 2 cores.
pytestmark = pytest.mark.xdist_group("ray")

TINY = {
    "ppo": {"batch_size": 128, "n_epochs": 1},
    "network": {"net_arch": [16]},
    "selfplay": {"snapshot_every": 300, "max_snapshots": 2},
    "run": {"checkpoint_every": 300, "eval_every": 600, "eval_games": 4},
    "rllib": {"train_batch": 256, "restart_delay_s": 0.5},
}
TINY_FLAGS = [
    "--backend=rllib",
    "--envs=2",
    "--no-progress",
    "--set=ppo.batch_size=128",
    "--set=ppo.n_epochs=1",
    "--set=network.net_arch=[16]",
    "--set=selfplay.snapshot_every=300",
    "--set=selfplay.max_snapshots=2",
    "--set=run.checkpoint_every=300",
    "--set=run.eval_every=600",
    "--set=run.eval_games=4",
    "--set=rllib.train_batch=256",
]
CLI = [sys.executable, "-c", "from tabletop.cli.main import main; raise SystemExit(main())"]


def tiny_settings(game: str, out: Path, steps: int, envs_per_runner: int = 2) -> TrainSettings:
    return TrainSettings.from_config(
        game, out=str(out), steps=steps, n_envs=envs_per_runner, overrides=TINY, backend="rllib"
    )


def env_of(settings: TrainSettings, seed: int = 0) -> TabletopMultiAgentEnv:
    return TabletopMultiAgentEnv({"settings": settings.to_json(), "seed": seed})


def log_rows(out: Path) -> list[dict[str, str]]:
    with (out / "log.csv").open(newline="") as file:
        return list(csv.DictReader(file))


def checkpoint_steps(out: Path) -> int:
    return json.loads((out / "checkpoint.json").read_text())["steps"]


# ----- the multi-agent env ------------------------------------------------------------------


def play_random_game(env: TabletopMultiAgentEnv, rng: np.random.Generator) -> dict:
    """One game with random legal actions; checks what each step shows, returns the sums
    of every agent's rewards and the final info."""
    observations, _ = env.reset(seed=int(rng.integers(2**31)))
    totals: dict[str, float] = {}
    while True:
        (agent_id,) = observations  # only the mover observes
        assert seat_of(agent_id) == env.raw.game_state.current_player
        legal = np.flatnonzero(observations[agent_id][ACTION_MASK])
        assert sorted(legal) == sorted(env.raw.game_state.legal_actions())
        step = env.step({agent_id: int(rng.choice(legal))})
        observations, rewards, terminateds, truncateds, infos = step
        for other, reward in rewards.items():
            totals[other] = totals.get(other, 0.0) + reward
        if terminateds["__all__"] or truncateds["__all__"]:
            assert set(observations) == set(rewards) == set(env.agents)  # every seat ends
            assert not any(o[ACTION_MASK].any() for o in observations.values())
            return {"totals": totals, "info": next(iter(infos.values()))}
        assert set(rewards) == set(observations)


def test_kaleva_env_shows_the_mover_alone_and_pays_every_reward(tmp_path: Path) -> None:
    """Competitive: the learner's seat alternates, its reward sums to its return (the
    last -1 of a game lost on the opponent's move included), and a baseline's moves
    never reach RLlib."""
    env = env_of(tiny_settings("kaleva", tmp_path, 1000))
    rng = np.random.default_rng(0)
    seats = []
    for _ in range(6):
        game = play_random_game(env, rng)
        info = game["info"]
        learner = f"p{info['seat']}:{MAIN}"
        assert set(game["totals"]) == {learner}  # the opponent is a baseline, inside the env
        assert game["totals"][learner] == pytest.approx(info["returns"][info["seat"]])
        assert info["opponent"] in ("random", "heuristic")
        assert env.take_finished_games() == [info] and env.take_finished_games() == []
        seats.append(info["seat"])
    assert seats == [0, 1, 0, 1, 0, 1]
    assert env.observation_spaces[learner][OBSERVATIONS].shape == (
        int(np.prod(env.raw.observation_space("player_0")["observation"].shape)),
    )


def test_a_three_player_game_seats_the_learner_against_two_pool_draws(tmp_path: Path) -> None:
    settings = TrainSettings.from_config(
        "kult", out=str(tmp_path), env_options={"num_players": 3}, backend="rllib"
    )
    env = env_of(settings)
    assert env.num_players == 3 and len(env.possible_agents) == 3 * (1 + len(env.slots))
    game = play_random_game(env, np.random.default_rng(2))
    info = game["info"]
    assert set(game["totals"]) == {f"p{info['seat']}:main"}
    assert game["totals"][f"p{info['seat']}:main"] == pytest.approx(info["returns"][info["seat"]])
    assert len(info["opponent"].split(",")) == 2


def test_regicide_env_seats_main_everywhere_with_the_team_reward(tmp_path: Path) -> None:
    env = env_of(tiny_settings("regicide", tmp_path, 1000))
    game = play_random_game(env, np.random.default_rng(1))
    assert set(game["totals"]) == {"p0:main", "p1:main"}
    team = sum(game["info"]["returns"]) / 2
    assert all(total == pytest.approx(team) for total in game["totals"].values())
    assert game["info"]["opponent"] == "self"


def test_filled_snapshot_slots_are_seated_as_modules(tmp_path: Path) -> None:
    settings = tiny_settings("kaleva", tmp_path, 1000)
    settings.selfplay = settings.selfplay.overlaid({"baseline_share": 0.0})
    env = env_of(settings)
    env.reset(seed=3)
    assert env.agents == [f"p{env.learner_seat}:main"]  # no slot filled: a baseline plays
    env.set_filled_snapshots(["snapshot_1"])
    for _ in range(2):
        env.reset()
        expected = {f"p{env.learner_seat}:main", f"p{1 - env.learner_seat}:snapshot_1"}
        assert set(env.seat_ids) == set(env.agents) == expected
        assert env.opponent_names == "self@snapshot_1"


def test_an_action_outside_the_mask_is_caught(tmp_path: Path) -> None:
    env = env_of(tiny_settings("kaleva", tmp_path, 1000))
    observations, _ = env.reset(seed=5)
    (agent_id,) = observations
    illegal = int(np.flatnonzero(observations[agent_id][ACTION_MASK] == 0)[0])
    with pytest.raises(IllegalActionError):
        env.step({agent_id: illegal})
    with pytest.raises(ValueError, match="expected an action of"):
        env.step({"p9:main": 0})


# ----- the module ---------------------------------------------------------------------------


def test_module_masks_illegal_actions_and_matches_the_exported_policy(tmp_path: Path) -> None:
    settings = tiny_settings("kaleva", tmp_path, 1000)
    probe = envs.make("kaleva")
    metadata = env_metadata(probe, seed=0, game_options={})
    network = NetworkSpec(**settings.network.model_dump())
    env = env_of(settings)
    spec = RLModuleSpec(
        module_class=MaskedPolicyModule,
        observation_space=env.observation_spaces["p0:main"],
        action_space=env.action_spaces["p0:main"],
        model_config=model_config(metadata, network),
    )
    module = spec.build()
    observations, _ = env.reset(seed=0)
    (agent_id,) = observations
    batch = {key: torch.as_tensor(value)[None] for key, value in observations[agent_id].items()}
    logits = module.forward_inference({Columns.OBS: batch})[Columns.ACTION_DIST_INPUTS][0]
    legal = batch[ACTION_MASK][0] > 0.5
    assert torch.all(logits[~legal] == MASKED_LOGIT)
    assert torch.softmax(logits, -1)[~legal].sum() == 0.0
    assert torch.all(logits[legal] > MASKED_LOGIT / 2)

    path = tmp_path / "policy.pt"
    save_policy(path, module.policy, metadata, network)
    agent = load_agent(path, game="kaleva")
    legal_ids = np.flatnonzero(legal.numpy())
    expected = agent.action_logits(observations[agent_id][OBSERVATIONS], legal_ids)
    assert np.allclose(logits.detach().numpy()[legal_ids], expected, atol=1e-5)


def test_ppo_settings_map_every_key_and_refuse_what_rllib_lacks(tmp_path: Path) -> None:
    settings = tiny_settings("kaleva", tmp_path, 1000)
    mapped = ppo_training(settings.ppo.model_dump(), 512)
    assert mapped["lr"] == settings.ppo.learning_rate
    assert mapped["num_epochs"] == 1 and mapped["minibatch_size"] == 128
    assert mapped["use_kl_loss"] is False and mapped["train_batch_size_per_learner"] == 512
    with pytest.raises(ValueError, match="no RLlib equivalent: target_kl"):
        ppo_training({**settings.ppo.model_dump(), "target_kl": 0.01}, 512)
    pointer = NetworkSpec(net_arch=[16], activation="ReLU", rows=[8])
    metadata = env_metadata(envs.make("kaleva"), seed=0, game_options={})
    with pytest.raises(ValueError, match="pointer network"):
        ppo_config(settings, metadata, pointer, seed=0)


def test_backend_flags_are_checked(tmp_path: Path, capsys) -> None:
    out = tmp_path / "run"
    assert main(["train", "kaleva", f"--out={out}", "--env-runners=1"]) == 2
    assert "settings of --backend rllib" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["train", "kaleva", f"--out={out}", "--backend=ray"])
    assert "invalid choice: 'ray'" in capsys.readouterr().err
    out.mkdir()
    settings = tiny_settings("kaleva", out, 1000)
    (out / "settings.json").write_text(json.dumps(settings.to_json()))
    assert main(["train", "kaleva", f"--out={out}", "--resume", "--backend=sb3"]) == 2
    assert "is a --backend rllib run, not sb3" in capsys.readouterr().err
    hkk = tmp_path / "hkk"
    assert main(["train", "hkk", f"--out={hkk}", "--backend=rllib"]) == 2  # a pointer network
    assert "cannot train a pointer network" in capsys.readouterr().err
    assert not hkk.exists()  # refused before anything was written


# ----- runs on a real Ray -------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="module")
def ray_cluster() -> Iterator[dict[str, str]]:
    """A real one-node Ray cluster on 127.0.0.1 (2 CPUs), started as docs/distributed.md
    says, in a temporary home that holds its token (``~/.ray/auth_token``); yields the
    environment a driver needs to join it: ``RAY_AUTH_MODE=token``, that home, and
    ``RAY_ADDRESS`` (the other way to name the cluster than ``--address``). Not the
    loopback variable: ``tabletop train`` sets it for a loopback address."""
    port = free_port()
    temp_dir = tempfile.mkdtemp(prefix="rt", dir="/tmp")  # short: Ray's sockets live there
    driver = {key: value for key, value in os.environ.items() if key != LOOPBACK_ONLY}
    driver.update(HOME=temp_dir, RAY_AUTH_MODE="token", OMP_NUM_THREADS="1")
    driver.pop("RAY_AUTH_TOKEN", None)
    head_environment = {**driver, LOOPBACK_ONLY: "0"}
    ray_command = shutil.which("ray") or str(Path(sys.executable).with_name("ray"))
    subprocess.run(
        [ray_command, "get-auth-token", "--generate"],
        env=head_environment, capture_output=True, check=True,
    )  # fmt: skip
    head = subprocess.Popen(
        [ray_command, "start", "--head", "--block", "--num-cpus=2", f"--port={port}",
         "--node-ip-address=127.0.0.1", f"--temp-dir={temp_dir}", "--include-dashboard=false",
         "--disable-usage-stats"],
        env=head_environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    address = f"127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while subprocess.run(
            [ray_command, "status", f"--address={address}"],
            env=head_environment, capture_output=True, check=False,
        ).returncode:  # fmt: skip
            assert head.poll() is None, "ray start exited"
            assert time.monotonic() < deadline, "the Ray cluster did not come up in 60 s"
            time.sleep(1)
        yield {**driver, "RAY_ADDRESS": address}
    finally:
        head.send_signal(signal.SIGTERM)
        try:
            head.wait(30)
        except subprocess.TimeoutExpired:
            head.kill()
        shutil.rmtree(temp_dir, ignore_errors=True)


def run_cli(arguments: list[str], environment: dict[str, str], timeout: float = 300) -> None:
    finished = subprocess.run(
        [*CLI, *arguments], env=environment, capture_output=True, text=True, timeout=timeout
    )
    assert finished.returncode == 0, finished.stderr[-3000:]


def refused_cli(arguments: list[str], environment: dict[str, str]) -> str:
    """Runs a command that must be refused; returns its error line. The timeout only
    keeps a hanging join (Ray's own retries take minutes) from hanging the suite."""
    finished = subprocess.run(
        [*CLI, *arguments], env=environment, capture_output=True, text=True, timeout=120
    )
    assert finished.returncode == 2, finished.stderr[-3000:]
    (error,) = [line for line in finished.stderr.splitlines() if line.startswith("tabletop")]
    return error


@pytest.mark.slow
def test_kaleva_trains_on_a_cluster_and_plays_back_as_an_opponent(
    tmp_path: Path, ray_cluster: dict[str, str]
) -> None:
    """Through ``--address`` with a runner on the cluster: the run directory of the SB3
    trainer, and a policy that ``load_agent``, the AEC env and ``tabletop eval`` (against an
    SB3 policy too) use as they are. The driver's environment lacks the loopback variable,
    which ``tabletop train`` sets for 127.0.0.1 (else Ray would look for the head at the
    machine's own address, for minutes)."""
    out = tmp_path / "rllib"
    environment = {key: value for key, value in ray_cluster.items() if key != "RAY_ADDRESS"}
    address = f"--address={ray_cluster['RAY_ADDRESS']}"
    run_cli(["train", "kaleva", f"--out={out}", "--steps=600", "--env-runners=1", address,
             *TINY_FLAGS], environment)  # fmt: skip
    with (out / "log.csv").open(newline="") as file:
        assert tuple(next(csv.reader(file))) == LOG_FIELDS
    rows = log_rows(out)
    assert {r["opponent"] for r in rows if r["phase"] == "eval"} == {"random", "heuristic"}
    assert {r["phase"] for r in rows} == {"train", "eval"}
    steps = checkpoint_steps(out)
    assert steps >= 600
    assert json.loads((out / "settings.json").read_text())["backend"] == "rllib"
    assert [p.name for p in (out / "checkpoints").iterdir()] == [f"step_{steps:010d}"]
    assert len(list((out / "snapshots").glob("step_*.pt"))) >= 2
    last = load_agent(out / "last_policy.pt")
    assert last.metadata.training_steps == steps

    env = envs.make("kaleva")
    env.reset(seed=0)
    agent = load_agent(out, env=env)
    for _ in env.agent_iter():
        _, _, terminated, truncated, _ = env.last()
        state = env.unwrapped.game_state
        env.step(None if terminated or truncated else agent.act(state, state.current_player))
    assert all(env.terminations.values()) or all(env.truncations.values())

    sb3 = tmp_path / "sb3"
    assert main(["train", "kaleva", f"--out={sb3}", "--steps=64", "--envs=1",
                 "--set=ppo.n_steps=64", "--set=network.net_arch=[16]", "--no-progress",
                 "--set=run.eval_games=2"]) == 0  # fmt: skip
    results = tmp_path / "eval"
    assert main(["eval", "kaleva", f"--agents={out},{sb3}", "--games=4",
                 f"--out={results}"]) == 0  # fmt: skip
    document = json.loads((results / "results.json").read_text())
    (pair,) = document["results"][0]["pairs"]
    assert pair["games"] == 4


@pytest.mark.slow
def test_a_failed_join_fails_at_once_and_leaves_no_run_behind(
    tmp_path: Path, ray_cluster: dict[str, str]
) -> None:
    """A port nothing answers on, a missing token, a wrong token, too few CPUs: each is
    refused with what to fix (Ray alone would retry for minutes, or 20 s and then say only
    "Failed to connect"), before the run directory is written, so the retry on the same
    ``--out`` trains instead of being refused as "already holds a run"."""
    out = tmp_path / "run"
    address = ray_cluster["RAY_ADDRESS"]
    environment = {key: value for key, value in ray_cluster.items() if key != "RAY_ADDRESS"}
    train = ["train", "kaleva", f"--out={out}", "--steps=1", "--env-runners=0", *TINY_FLAGS]
    nowhere = f"127.0.0.1:{free_port()}"
    error = refused_cli([*train, f"--address={nowhere}"], environment)
    assert f"no Ray cluster answers at {nowhere}" in error
    assert not out.exists()

    no_mode = {key: value for key, value in environment.items() if key != "RAY_AUTH_MODE"}
    error = refused_cli([*train, f"--address={address}"], no_mode)
    assert "RAY_AUTH_MODE is not 'token' here" in error
    wrong = {**environment, "RAY_AUTH_TOKEN": secrets.token_hex(32)}
    error = refused_cli([*train, f"--address={address}"], wrong)
    assert "refused this process's authentication token: the token in RAY_AUTH_TOKEN" in error
    no_token = {**environment, "HOME": str(tmp_path)}  # a home without ~/.ray/auth_token
    error = refused_cli([*train, f"--address={address}"], no_token)
    assert "RAY_AUTH_MODE=token, but this process has no token" in error
    error = refused_cli([*train, "--env-runners=3", f"--address={address}"], environment)
    assert "3 env runners need 3 CPUs; the Ray cluster has 2" in error
    assert not out.exists()

    run_cli([*train, f"--address={address}"], environment)
    assert checkpoint_steps(out) >= 1


def test_a_loopback_address_sets_the_loopback_variable(monkeypatch) -> None:
    assert split_address("10.0.0.7:6379") == ("10.0.0.7", 6379)
    assert is_loopback("127.0.0.1:6379") and is_loopback("LOCALHOST:1")
    assert not is_loopback("10.0.0.7:6379")
    for address in ("127.0.0.1", ":6379", "host:0", "host:65536", "host:²", "host:" + "9" * 5000):
        with pytest.raises(ValueError, match="must be the Ray head's HOST:PORT"):
            split_address(address)
    monkeypatch.delenv(LOOPBACK_ONLY)
    use_loopback_if_local("10.0.0.7:6379")
    assert LOOPBACK_ONLY not in os.environ
    use_loopback_if_local("localhost:6379")
    assert os.environ[LOOPBACK_ONLY] == "0"
    monkeypatch.setenv(LOOPBACK_ONLY, "1")  # the caller's own value stays
    use_loopback_if_local(None)
    assert os.environ[LOOPBACK_ONLY] == "1"


@pytest.mark.slow
def test_a_killed_driver_resumes_from_its_last_checkpoint(
    tmp_path: Path, ray_cluster: dict[str, str]
) -> None:
    out = tmp_path / "run"
    flags = ["train", "kaleva", f"--out={out}", "--steps=100000", "--env-runners=1", *TINY_FLAGS]
    driver = subprocess.Popen([*CLI, *flags], env=ray_cluster, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 180
        while not (out / "checkpoint.json").exists() or checkpoint_steps(out) == 0:
            assert driver.poll() is None, "training exited before its first checkpoint"
            assert time.monotonic() < deadline, "no checkpoint within three minutes"
            time.sleep(0.5)
    finally:
        driver.kill()
        driver.wait()
    killed_at = checkpoint_steps(out)
    run_cli(["train", "kaleva", f"--out={out}", "--resume", f"--steps={killed_at + 300}",
             "--env-runners=1", "--no-progress"], ray_cluster)  # fmt: skip
    resumed_to = checkpoint_steps(out)
    assert resumed_to >= killed_at + 300
    steps = [int(r["step"]) for r in log_rows(out)]
    # cut back to the checkpoint, then continued: what the killed driver logged after its
    # last checkpoint is gone, so the steps never go back
    assert steps == sorted(steps) and steps[-1] == resumed_to
    assert any(step > killed_at for step in steps) and any(step <= killed_at for step in steps)
    assert load_agent(out / "last_policy.pt").metadata.training_steps == resumed_to


@pytest.mark.slow
def test_a_resumed_run_samples_with_its_checkpoint_and_counts_every_finished_game(
    tmp_path: Path,
) -> None:
    """In-process, on a private local Ray: after the restore, the env runner holds the
    checkpoint's modules (RLlib's own sync after a restore is dropped while the runner is
    still busy, as on a loaded machine), and every iteration counts as many finished games
    as RLlib counted episodes (taken from the envs, not sent as an RLlib metric, whose kind
    a checkpoint restores so that only an iteration's last game is reported). The loop is
    bounded by iterations, not time: it ends at the first iteration that finished more
    than one game."""
    settings = tiny_settings("kaleva", tmp_path / "run", 100_000)
    settings.rllib = settings.rllib.overlaid({"env_runners": 1})
    trainer = RLlibTrainer(settings, resume=False, progress=False)
    try:
        trainer.train_iteration()
        trainer.add_snapshot()
        trainer.checkpoint()
    finally:
        trainer.close()
    resumed = RLlibTrainer(settings, resume=True, progress=False)
    try:
        runners = resumed.algo.env_runner_group
        modules = [MAIN, "snapshot_0"]
        learner = resumed.algo.learner_group.get_weights(module_ids=modules)
        (runner,) = runners.foreach_env_runner(
            lambda r: {module_id: r.module[module_id].get_state() for module_id in modules},
            local_env_runner=False,
        )
        for module_id in modules:
            assert learner[module_id].keys() == runner[module_id].keys()
            for key, value in learner[module_id].items():
                assert np.array_equal(np.asarray(value), np.asarray(runner[module_id][key]))
        assert int(runner["snapshot_0"]["snapshot_step"]) == trainer.steps
        most = 0
        for _ in range(20):
            _, result = resumed.train_iteration()
            episodes = result["env_runners"].get("num_episodes", 0)
            games = finished_games(runners)
            assert len(games) == (0 if math.isnan(episodes) else episodes)
            most = max(most, len(games))
            if most > 1:
                break
        assert most > 1
    finally:
        resumed.close()


def test_regicide_trains_one_shared_policy_for_the_team_after_a_warm_start(
    tmp_path: Path, ray_cluster: dict[str, str]
) -> None:
    out = tmp_path / "run"
    warm_start = ["--set=imitation.games=4", "--set=imitation.epochs=1"]
    run_cli(["train", "regicide", f"--out={out}", "--steps=300", "--env-runners=0",
             *warm_start, *TINY_FLAGS], ray_cluster)  # fmt: skip
    assert json.loads((out / "imitation.json").read_text())["games"] == 4
    rows = log_rows(out)
    assert [r["phase"] for r in rows[:2]] == ["baseline", "baseline"]
    assert {r["opponent"] for r in rows if r["phase"] == "train"} == {"team"}
    assert {r["metric"] for r in rows} == {"enemies_defeated"}
    assert not (out / "snapshots").exists() or not list((out / "snapshots").iterdir())
    policy = load_agent(out)
    assert policy.metadata.game_options == {"num_players": 2, "shaped_reward": True}


@pytest.mark.slow
def test_no_masked_action_reaches_the_env_and_a_lost_runner_is_replaced(tmp_path: Path) -> None:
    """In-process, on a private local Ray: every action RLlib took went through the env's
    check (no illegal one: the env would have raised), and after an env runner's process
    is killed, training goes on with a restarted runner that knows the league."""
    settings = tiny_settings("kaleva", tmp_path / "run", 100_000)
    settings.rllib = settings.rllib.overlaid({"env_runners": 1})
    trainer = RLlibTrainer(settings, resume=False, progress=False)
    try:
        runners = trainer.algo.env_runner_group
        steps, result = trainer.train_iteration()
        assert steps > 0
        checked = runners.foreach_env_runner(
            lambda r: sum(e.unwrapped.actions_checked for e in r.env.envs),
            local_env_runner=False,
        )
        assert sum(checked) >= result["env_runners"]["num_env_steps_sampled"] > 0
        trainer.add_snapshot()
        filled = runners.foreach_env_runner(
            lambda r: int(r.module["snapshot_0"].snapshot_step), local_env_runner=False
        )
        assert filled == [trainer.steps]

        (pid,) = runners.foreach_env_runner(lambda r: os.getpid(), local_env_runner=False)
        os.kill(pid, signal.SIGKILL)
        before = trainer.steps
        deadline = time.monotonic() + 120
        restarts = 0
        while trainer.steps == before or restarts == 0:
            assert time.monotonic() < deadline, "training did not go on after losing a runner"
            _, result = trainer.train_iteration()
            restarts = result.get("fault_tolerance", {}).get("num_remote_worker_restarts", 0)
        (new_pid,) = runners.foreach_env_runner(lambda r: os.getpid(), local_env_runner=False)
        assert new_pid != pid
        filled = runners.foreach_env_runner(
            lambda r: int(r.module["snapshot_0"].snapshot_step), local_env_runner=False
        )
        assert filled == [before]  # the restarted runner got the league's slot too
    finally:
        trainer.close()


def test_policy_weights_round_trip_between_module_and_network() -> None:
    metadata = env_metadata(envs.make("kaleva"), seed=0, game_options={})
    policy = new_policy(metadata, NetworkSpec(net_arch=[8], activation="ReLU"))
    state = module_weights(policy.state_dict(), 42)
    assert int(state["snapshot_step"]) == 42
    back = policy_weights({key: value.numpy() for key, value in state.items()})
    assert back.keys() == policy.state_dict().keys()
    assert all(torch.equal(back[key], value) for key, value in policy.state_dict().items())
