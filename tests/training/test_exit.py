"""Expert iteration (``tabletop train --algo exit``): the visit-target loss, the replay
buffer, tiny runs with their files, resume after a kill, and refused settings."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import torch

from tabletop import envs
from tabletop.agents import shipped
from tabletop.agents.policy import NetworkSpec, env_metadata, load_agent, new_policy
from tabletop.agents.registry import AGENT_KINDS, make_agent
from tabletop.agents.shipped import PRETRAINED
from tabletop.cli.main import main
from tabletop.training.exit.buffer import ReplayBuffer, SearchRows, fit, visit_loss
from tabletop.training.exit.selfplay import guided_settings, policy_target, searching_learner
from tabletop.training.exit.trainer import ExItTrainer
from tabletop.training.runs import TrainSettings

TINY = {
    "network": {"net_arch": [16]},
    "selfplay": {"snapshot_every": 64},
    "run": {"checkpoint_every": 64, "eval_every": 64, "eval_games": 4},
    "imitation": {"games": 0},
    "exit": {"iterations": 4, "games_per_iteration": 2, "batch_size": 32, "buffer_size": 400},
}
TINY_FLAGS = [
    "--algo=exit",
    "--no-progress",
    "--set=network.net_arch=[16]",
    "--set=run.checkpoint_every=64",
    "--set=run.eval_every=64",
    "--set=run.eval_games=4",
    "--set=exit.iterations=4",
    "--set=exit.games_per_iteration=1",
    "--set=exit.batch_size=32",
    "--set=exit.buffer_size=400",
]


def tiny_settings(game: str, out: Path, steps: int) -> TrainSettings:
    return TrainSettings.from_config(game, out=str(out), steps=steps, overrides=TINY, algo="exit")


def log_rows(out: Path) -> list[dict[str, str]]:
    with (out / "log.csv").open(newline="") as file:
        return list(csv.DictReader(file))


def checkpoint_steps(out: Path) -> int:
    return json.loads((out / "checkpoint.json").read_text())["steps"]


def countdown_policy() -> tuple[torch.nn.Module, tuple[int, ...]]:
    metadata = env_metadata(envs.make("countdown"))
    return new_policy(metadata, NetworkSpec([16], "ReLU")), metadata.observation_shape


def rows_of(
    counters: list[int], shares: list[dict[int, float]], returns: list[float]
) -> SearchRows:
    """Countdown decisions at these counters (the mover to play), as training rows."""
    observations = [np.array([c / 20, 1.0], np.float32) for c in counters]
    return SearchRows.of_decisions(observations, shares, returns)


def played_log_probs(policy: torch.nn.Module, observation: torch.Tensor, legal: list[int]) -> dict:
    """The log-probability of each legal action in the distribution the agents play from
    (the policy's masked distribution), action by action."""
    mask = np.zeros((len(legal), 3), bool)
    mask[:, legal] = True
    with torch.no_grad():
        distribution = policy.get_distribution(observation.repeat(len(legal), 1), mask)
        log_probs = distribution.log_prob(torch.as_tensor(legal))
    return dict(zip(legal, log_probs.tolist(), strict=True))


def test_the_visit_loss_is_the_cross_entropy_of_the_masked_policy_and_fitting_reaches_it(
    countdown: str,
) -> None:
    torch.manual_seed(0)
    policy, shape = countdown_policy()
    target = {0: 0.7, 1: 0.3, 2: 0.0}
    rows = rows_of([5], [target], [0.5])
    batch = rows.batch(np.arange(1), shape)
    log_probs = played_log_probs(policy, batch.observations, [0, 1, 2])
    by_hand = -sum(share * log_probs[action] for action, share in target.items())
    assert visit_loss(policy, batch).item() == pytest.approx(by_hand, rel=1e-5)

    optimizer = torch.optim.Adam(policy.parameters(), lr=0.01)
    fit(policy, optimizer, rows, shape, batches=300, batch_size=8, value_weight=1.0,
        generator=np.random.default_rng(0))  # fmt: skip
    log_probs = played_log_probs(policy, batch.observations, [0, 1, 2])
    probabilities = [np.exp(log_probs[action]) for action in (0, 1, 2)]
    assert probabilities == pytest.approx([0.7, 0.3, 0.0], abs=0.03)
    assert policy.predict_values(batch.observations)[0, 0].item() == pytest.approx(0.5, abs=0.05)
    entropy = -(0.7 * np.log(0.7) + 0.3 * np.log(0.3))
    assert visit_loss(policy, batch).item() == pytest.approx(entropy, abs=0.02)


def test_the_shares_of_illegal_actions_play_no_part(countdown: str) -> None:
    """At counter 1 only take 1 and resign are legal: the loss normalises over them."""
    policy, shape = countdown_policy()
    rows = rows_of([1, 5], [{0: 1.0, 2: 0.0}, {0: 0.2, 1: 0.5, 2: 0.3}], [1.0, -1.0])
    batch = rows.batch(np.arange(2), shape)
    assert batch.actions.tolist() == [[0, 2, 0], [0, 1, 2]]
    assert batch.valid.tolist() == [[True, True, False], [True, True, True]]
    first = played_log_probs(policy, batch.observations[:1], [0, 2])
    second = played_log_probs(policy, batch.observations[1:], [0, 1, 2])
    expected = -(first[0] + 0.2 * second[0] + 0.5 * second[1] + 0.3 * second[2]) / 2
    assert visit_loss(policy, batch).item() == pytest.approx(expected, rel=1e-5)


@pytest.mark.parametrize(
    ("temperature", "expected"),
    [
        (1.0, {3: 0.6, 5: 0.3, 7: 0.1, 9: 0.0}),
        (0.5, {3: 36 / 46, 5: 9 / 46, 7: 1 / 46, 9: 0.0}),
        (0.0, {3: 1.0, 5: 0.0, 7: 0.0, 9: 0.0}),
    ],
)
def test_the_policy_target_sharpens_the_visits_by_its_temperature(
    temperature: float, expected: dict[int, float]
) -> None:
    """Visits 6, 3, 1 and none (a legal action never tried) out of 10."""
    target = policy_target({3: 6, 5: 3, 7: 1}, [3, 5, 7, 9], temperature)
    assert target == pytest.approx(expected)


def test_a_policy_target_of_temperature_zero_shares_a_tie() -> None:
    assert policy_target({1: 4, 2: 4, 3: 2}, [1, 2, 3], 0.0) == {1: 0.5, 2: 0.5, 3: 0.0}


def test_the_replay_buffer_keeps_the_most_recent_decisions_and_survives_a_checkpoint() -> None:
    buffer = ReplayBuffer(capacity=5)
    for first in (0, 3, 6):
        counters = [first + 1, first + 2, first + 3]
        buffer.add(rows_of(counters, [{0: 1.0, 1: 0.0}] * 3, [float(c) for c in counters]))
    assert buffer.size == 5
    assert buffer.rows().returns.tolist() == [5.0, 6.0, 7.0, 8.0, 9.0]  # the oldest game cut
    assert [len(game) for game in buffer.games] == [2, 3]
    again = ReplayBuffer(capacity=5)
    again.load_tensors(buffer.to_tensors(), width=2)
    assert [len(game) for game in again.games] == [2, 3]
    before, after = buffer.rows(), again.rows()
    assert np.array_equal(before.observations.dense(), after.observations.dense())
    assert np.array_equal(before.choices.indices, after.choices.indices)
    assert np.array_equal(before.choices.values, after.choices.values)
    assert np.array_equal(before.returns, after.returns)


def test_a_tiny_run_writes_the_run_files_and_resumes_from_its_checkpoint(
    tmp_path: Path, countdown: str
) -> None:
    out = tmp_path / "run"
    trainer = ExItTrainer(tiny_settings(countdown, out, 150), resume=False, progress=False)
    info = trainer.run()
    assert info.steps == checkpoint_steps(out) >= 150
    for name in ("settings.json", "checkpoint.pt", "best_policy.pt", "last_policy.pt"):
        assert (out / name).is_file(), name
    assert list((out / "tb" / "exit").iterdir())
    saved = json.loads((out / "settings.json").read_text())
    assert saved["algo"] == "exit" and saved["exit"]["iterations"] == 4
    rows = log_rows(out)
    evals = [r for r in rows if r["phase"] == "eval"]
    assert {r["opponent"] for r in evals} == {"random", "heuristic"}
    assert int(evals[0]["step"]) >= 64 and int(evals[-1]["step"]) == info.steps
    assert {r["opponent"] for r in rows if r["phase"] == "train"} <= {
        "random", "heuristic", "self-play"}  # fmt: skip
    snapshots = sorted((out / "snapshots").glob("step_*.pt"))
    assert len(snapshots) >= 2
    last = load_agent(out / "last_policy.pt")
    assert last.metadata.training_steps == info.steps
    state = envs.make_game(countdown).new_state(seed=0)
    assert load_agent(out).act(state, 0) in state.legal_actions()

    resumed = ExItTrainer(tiny_settings(countdown, out, info.steps + 40), resume=True,
                          progress=False)  # fmt: skip
    assert resumed.games == trainer.games and resumed.buffer.size == trainer.buffer.size
    assert list(resumed.pool.snapshots) == [f"self@{int(p.stem[5:])}" for p in snapshots]
    assert np.array_equal(resumed.buffer.rows().returns, trainer.buffer.rows().returns)
    for name, weights in trainer.policy.state_dict().items():
        assert torch.equal(weights, resumed.policy.state_dict()[name]), name
    assert resumed.run().steps >= info.steps + 40


@pytest.mark.skipif("guided" not in AGENT_KINDS, reason="the guided agent spec is not registered")
def test_a_runs_policy_plays_with_the_search(tmp_path: Path, countdown: str) -> None:
    out = tmp_path / "run"
    ExItTrainer(tiny_settings(countdown, out, 20), resume=False, progress=False).run()
    agent = make_agent(f"guided:policy={out},iterations=4", countdown, seed=0)
    state = envs.make_game(countdown).new_state(seed=0)
    agent.reset()
    assert agent.act(state, 0) in state.legal_actions()


def test_the_self_play_search_mixes_in_the_rollouts_it_is_given(
    tmp_path: Path, countdown: str
) -> None:
    """``exit.rollout``: the teaching search values leaves by the network and a rollout."""

    def settings(game: str, **exit_options: Any) -> TrainSettings:
        overrides = {**TINY, "exit": {**TINY["exit"], **exit_options}}
        out = str(tmp_path / game)
        return TrainSettings.from_config(game, out=out, steps=20, overrides=overrides, algo="exit")

    kaleva = settings("kaleva", rollout="heuristic", mix=0.25, depth=3).exit
    assert (guided_settings(kaleva).rollout, guided_settings(kaleva).depth) == ("heuristic", 3)
    trainer = ExItTrainer(settings(countdown, rollout="random", mix=0.25), resume=False)
    learner = searching_learner(
        trainer.policy, trainer.encoder, trainer.game, trainer.settings.exit, 0
    )
    for search in (learner.exploring, learner.settled):
        assert (search.settings.rollout, search.settings.mix, search.settings.depth) == (
            "random", 0.25, None)  # fmt: skip
    assert trainer.run().steps >= 20
    plain = guided_settings(tiny_settings(countdown, tmp_path / "plain", 5).exit)
    assert (plain.rollout, plain.depth) == (None, None)
    with pytest.raises(ValueError, match=f"exit.depth: {countdown} has no evaluation"):
        ExItTrainer(settings(countdown, rollout="random", depth=3), resume=False)


def test_a_cooperative_run_searches_at_every_seat(tmp_path: Path) -> None:
    out = tmp_path / "run"
    trainer = ExItTrainer(tiny_settings("regicide", out, 30), resume=False, progress=False)
    info = trainer.run()
    rows = log_rows(out)
    assert [r["phase"] for r in rows[:2]] == ["baseline", "baseline"]
    assert {r["opponent"] for r in rows if r["phase"] == "train"} == {"team"}
    assert trainer.buffer.size == info.steps  # every seat's decisions are rows
    assert load_agent(out).metadata.game == "regicide"


def test_with_opponents_self_the_search_plays_every_seat(tmp_path: Path, countdown: str) -> None:
    overrides = {**TINY, "exit": {**TINY["exit"], "opponents": "self"}}
    settings = TrainSettings.from_config(
        countdown, out=str(tmp_path / "run"), steps=20, overrides=overrides, algo="exit"
    )
    trainer = ExItTrainer(settings, resume=False, progress=False)
    info = trainer.run()
    assert {r["opponent"] for r in log_rows(tmp_path / "run") if r["phase"] == "train"} == {
        "self-play"}  # fmt: skip
    assert trainer.buffer.size == info.steps
    for game in trainer.buffer.games:  # every move of the game is a row: seat 0's first
        counters = np.rint(game.observations.dense()[:, 0] * 20).astype(int)
        assert counters[0] == 5 and set(np.diff(counters)) <= {-1, -2}, counters


def test_a_killed_run_resumes_from_its_last_checkpoint(tmp_path: Path) -> None:
    out = tmp_path / "run"
    command = [sys.executable, "-c", "from tabletop.cli.main import main; main()"]
    flags = ["train", "kaleva", f"--out={out}", "--steps=100000", *TINY_FLAGS]
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
    assert killed_at >= 64
    target = killed_at + 64
    assert main(["train", "kaleva", f"--out={out}", "--resume", f"--steps={target}"]) == 0
    finished = checkpoint_steps(out)
    assert finished >= target
    assert load_agent(out / "last_policy.pt").metadata.training_steps == finished
    assert all(int(r["step"]) <= finished for r in log_rows(out))
    assert main(["train", "kaleva", f"--out={out}", "--resume", "--algo=ppo"]) == 2


def test_mistaken_settings_are_refused_before_anything_is_written(
    tmp_path: Path, capsys, countdown: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    other_game = tmp_path / "countdown_run"
    ExItTrainer(tiny_settings(countdown, other_game, 5), resume=False, progress=False).run()
    not_a_policy = tmp_path / "notes.txt"
    not_a_policy.write_text("not a policy")
    out = tmp_path / "run"
    refused = {
        "--set=exit.iteration=4": "unknown setting 'exit.iteration'",
        "--set=exit.iterations=0": "setting 'exit.iterations': Input should be greater than 0",
        "--set=exit.buffer_size=16": "the replay buffer must hold at least a batch (32 rows)",
        "--set=exit.depth=8": "a depth needs a rollout to cut short",
        "--set=exit.rollout=greedy": "setting 'exit.rollout'",
        "--set=exit.target_temperature=-1": "setting 'exit.target_temperature'",
        f"--set=exit.init={tmp_path / 'nothing'}": "no policy file or run directory",
        f"--set=exit.init={not_a_policy}": "is not a tabletop policy file",
        f"--set=exit.init={other_game}": "cannot start this run: game: policy 'countdown'",
        "--backend=rllib": "--backend rllib trains PPO; --algo exit learns in this process",
        "--envs=4": "--envs and --fps-benchmark are PPO's",
    }
    for flag, message in refused.items():
        assert main(["train", "kaleva", f"--out={out}", "--steps=8", *TINY_FLAGS, flag]) == 2
        assert message in capsys.readouterr().err, flag
        assert not out.exists(), flag
    monkeypatch.setattr(shipped, "PRETRAINED_DIR", tmp_path / "none shipped")
    flag = "--set=exit.init=pretrained"
    assert main(["train", "regicide", f"--out={out}", "--steps=8", *TINY_FLAGS, flag]) == 2
    assert "regicide ships no pretrained policy" in capsys.readouterr().err
    assert not out.exists()


def test_a_run_starts_from_another_runs_policy(tmp_path: Path, countdown: str) -> None:
    """``exit.init``: the weights and the network's shape of a policy of the game."""
    first = tmp_path / "first"
    ExItTrainer(tiny_settings(countdown, first, 5), resume=False, progress=False).run()
    overrides = {**TINY, "network": {"net_arch": [8, 8]},
                 "exit": {**TINY["exit"], "init": str(first / "last_policy.pt")}}  # fmt: skip
    settings = TrainSettings.from_config(
        countdown, out=str(tmp_path / "second"), steps=5, overrides=overrides, algo="exit"
    )
    trainer = ExItTrainer(settings, resume=False, progress=False)
    assert trainer.network.net_arch == [16] and settings.network.net_arch == [16]
    start = load_agent(first / "last_policy.pt").policy.state_dict()
    for name, weights in trainer.policy.state_dict().items():
        assert torch.equal(weights, start[name]), name
    trainer.close()


def test_a_run_starts_from_the_shipped_policy(tmp_path: Path) -> None:
    """``exit.init=pretrained``: the policy the package ships for the game, as agents name it."""
    overrides = {**TINY, "exit": {**TINY["exit"], "init": PRETRAINED}}
    settings = TrainSettings.from_config(
        "gold_and_dust", out=str(tmp_path / "run"), steps=5, overrides=overrides, algo="exit"
    )
    trainer = ExItTrainer(settings, resume=False, progress=False)
    shipped = load_agent(PRETRAINED, game="gold_and_dust").policy.state_dict()
    for name, weights in trainer.policy.state_dict().items():
        assert torch.equal(weights, shipped[name]), name
    trainer.close()
