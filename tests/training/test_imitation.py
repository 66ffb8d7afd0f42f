"""The warm start (training/imitation.py): the heuristic's decisions as demonstrations,
their discounted returns, behaviour cloning, and a run that starts with it."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch", reason="needs the [train] extra")
import torch
from test_train import TINY, log_rows

from tabletop import envs
from tabletop.training.imitation import SparseRows, _discounted, agreement, collect, imitate
from tabletop.training.runs import TrainSettings
from tabletop.training.trainer import Trainer

GAMMA = 0.5


def test_returns_follow_each_movers_own_decisions() -> None:
    """A decision's return is its reward plus gamma times the same seat's next return;
    the other seat's decisions in between do not discount it."""
    returns = _discounted([0.0, 0.0, 0.0, -1.0, 1.0], [0, 1, 0, 1, 0], GAMMA)
    assert returns == [GAMMA**2, -GAMMA, GAMMA, -1.0, 1.0]


def test_sparse_rows_give_back_exactly_the_rows_they_were_made_from() -> None:
    """Rows with and without non-zeros, joined, cut into parts and read in any order
    (repeats too) come back as the dense rows, value for value."""
    generator = np.random.default_rng(0)
    dense = generator.normal(size=(9, 7)).astype(np.float32)
    dense[generator.random((9, 7)) < 0.7] = 0.0
    dense[[2, 5]] = 0.0  # rows with nothing in them
    first = SparseRows.from_dense(list(dense[:4]), 7, np.float32)
    second = SparseRows.from_dense(list(dense[4:]), 7, np.float32)
    rows = SparseRows.joined(first, SparseRows.from_dense([], 7, np.float32), second)
    assert len(rows) == 9 and len(rows.values) == np.count_nonzero(dense)
    assert np.array_equal(rows.dense(), dense)
    index = np.array([8, 2, 0, 0, 5, 3])
    assert np.array_equal(rows.dense(index), dense[index])
    assert np.array_equal(rows.part(slice(3, 7)).dense(), dense[3:7])
    assert np.array_equal(rows.part(slice(6, None)).dense(np.array([2, 0])), dense[[8, 6]])
    assert rows.dense(np.array([], dtype=np.int64)).shape == (0, 7)


def test_demonstrations_are_the_heuristics_decisions_seen_from_the_mover(countdown) -> None:
    """Countdown from 5, the heuristic takes 1 at every seat: five decisions, seat 0 takes
    the last and wins; each row's mask is the legal set, its return the mover's."""
    encoder = envs.spec(countdown).encoders["flat"]
    demos, split = collect(countdown, {"start": 5}, encoder, 1, seed=0, gamma=GAMMA)
    assert (len(demos), split) == (5, 5)  # one game: nothing held out
    assert demos.actions.tolist() == [0] * 5
    assert demos.masks.dense()[:4].tolist() == [[True, True, True]] * 4
    assert demos.masks.dense()[4].tolist() == [True, False, True]  # counter 1: no "take 2"
    counters = demos.observations.dense()[:, 0]
    assert counters.tolist() == pytest.approx([c / 20 for c in (5, 4, 3, 2, 1)])
    assert demos.returns.tolist() == pytest.approx([GAMMA**2, -GAMMA, GAMMA, -1.0, 1.0])


def test_the_last_tenth_of_the_games_is_held_out(countdown) -> None:
    encoder = envs.spec(countdown).encoders["flat"]
    demos, split = collect(countdown, {"start": 5}, encoder, 20, seed=0, gamma=GAMMA)
    assert (len(demos), split) == (100, 90)  # 5 decisions a game, the last 2 games held out


def test_dagger_games_are_played_by_the_learner_and_labelled_by_the_heuristic(countdown) -> None:
    """Countdown from 5 with a learner that takes 2 whenever it may, at seat 0 in the first
    game and seat 1 in the second: the positions are the ones its moves lead to, every row's
    label is the heuristic's "take 1", and no DAgger game is held out."""

    def take_two(observation: np.ndarray, mask: np.ndarray) -> int:
        return 1 if mask[1] else 0

    encoder = envs.spec(countdown).encoders["flat"]
    demos, split = collect(countdown, {"start": 5}, encoder, 2, seed=0, gamma=GAMMA,
                           learner=take_two)  # fmt: skip
    assert (len(demos), split) == (7, 7)
    # 5 -(learner 2)-> 3 -(heuristic 1)-> 2 -(learner 2)-> 0; 5 -1-> 4 -2-> 2 -1-> 1 -1-> 0
    counters = [round(c * 20) for c in demos.observations.dense()[:, 0]]
    assert counters == [5, 3, 2, 5, 4, 2, 1]
    assert demos.actions.tolist() == [0] * 7
    assert demos.returns[2] == 1.0 and demos.returns[6] == 1.0  # the learner's winning moves


def test_imitation_teaches_the_policy_the_heuristics_choices(countdown, tmp_path: Path) -> None:
    settings = TrainSettings.from_config(countdown, out=str(tmp_path), steps=64, overrides=TINY)
    trainer = Trainer(settings, resume=False, progress=False)
    encoder = envs.spec(countdown).encoders["flat"]
    # From 2 the heuristic's first move loses (-1 to the mover) and its second wins (+1).
    demos, split = collect(countdown, {"start": 2}, encoder, 20, seed=0, gamma=0.99)
    torch.manual_seed(0)
    policy_loss, value_loss, agreed = imitate(
        trainer.model.policy, demos.part(slice(0, split)), demos.part(slice(split, None)),
        epochs=300, batch_size=64, learning_rate=3e-2,
        vf_coef=0.5, seed=0,
    )  # fmt: skip
    assert agreed == 1.0 == agreement(trainer.model.policy, demos, np.arange(len(demos)))
    assert policy_loss < 0.01 and value_loss < 0.01
    assert demos.returns[:2].tolist() == [-1.0, 1.0]
    trainer.vec_env.close()


def test_a_run_starts_with_the_warm_start_once(countdown, tmp_path: Path) -> None:
    """imitation.json records it; the checkpoint after it makes --resume skip it."""
    out = tmp_path / "run"
    overrides = {**TINY, "imitation": {"games": 10, "epochs": 50}}
    settings = TrainSettings.from_config(countdown, out=str(out), steps=64, overrides=overrides)
    Trainer(settings, resume=False, progress=False).run()
    result = json.loads((out / "imitation.json").read_text())
    assert (result["games"], result["decisions"], result["epochs"]) == (10, 10 * 5, 50)
    assert 0.0 <= result["held_out_agreement"] <= 1.0
    written = (out / "imitation.json").stat().st_mtime_ns
    more = TrainSettings.from_config(countdown, out=str(out), steps=128, overrides=overrides)
    Trainer(more, resume=True, progress=False).run()
    assert (out / "imitation.json").stat().st_mtime_ns == written
    assert max(int(row["step"]) for row in log_rows(out)) == 128


def test_dagger_rounds_add_the_learners_games_to_the_warm_start(countdown, tmp_path) -> None:
    """Two rounds of 3 games each after 10 heuristic games: every DAgger game adds at
    least one decision (a resignation) to the heuristic games' 50."""
    imitation = {"games": 10, "epochs": 2, "dagger_rounds": 2, "dagger_games": 3}
    overrides = {**TINY, "imitation": imitation}
    settings = TrainSettings.from_config(countdown, out=str(tmp_path), steps=64,
                                         overrides=overrides)  # fmt: skip
    Trainer(settings, resume=False, progress=False).run()
    result = json.loads((tmp_path / "imitation.json").read_text())
    assert (result["dagger_rounds"], result["dagger_games"]) == (2, 3)
    assert 10 * 5 + 2 * 3 <= result["decisions"] <= 10 * 5 + 2 * 3 * 5
