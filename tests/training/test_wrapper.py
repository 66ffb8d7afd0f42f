"""The single-agent wrapper: reward attribution on scripted games, seats, masks, check_env."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from countdown_v0 import RESIGN, TAKE_ONE, TAKE_TWO, TAKE_TWO_PENALTY, ScriptedAgent, TakeOneAgent
from countdown_v0 import env as countdown_env

pytest.importorskip("sb3_contrib", reason="needs the [train] extra")
from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported
from stable_baselines3.common.env_checker import check_env
from stable_baselines3.common.vec_env import SubprocVecEnv

from tabletop.agents import RandomAgent
from tabletop.agents.outcome import outcome
from tabletop.envs import make
from tabletop.envs.core.protocol import IllegalActionError
from tabletop.training.runs import TrainSettings
from tabletop.training.trainer import make_training_env
from tabletop.wrappers import OpponentPool, SingleAgentEnv


def countdown_learner(opponent, *, start: int = 5, seat: str | int = 0) -> SingleAgentEnv:
    return SingleAgentEnv(countdown_env(start=start), OpponentPool({"o": opponent}), seat=seat)


def test_final_minus_one_on_the_opponents_move_reaches_the_learner() -> None:
    env = countdown_learner(ScriptedAgent([TAKE_TWO]), start=3, seat=0)
    env.reset(seed=0)
    _, reward, terminated, truncated, info = env.step(TAKE_ONE)  # 3 -> 2; opponent takes 2
    assert (terminated, truncated) == (True, False)
    assert reward == pytest.approx(-1.0 - TAKE_TWO_PENALTY)
    assert info["outcome"] == "loss"
    assert info["returns"] == pytest.approx([-1.0 - TAKE_TWO_PENALTY, 1.0])


def test_rewards_on_opponent_moves_arrive_with_the_learners_next_step() -> None:
    env = countdown_learner(ScriptedAgent([TAKE_TWO, TAKE_ONE]), start=7, seat=0)
    env.reset(seed=0)
    _, reward, terminated, _, _ = env.step(TAKE_ONE)  # 7 -> 6, opponent takes 2 -> 4
    assert (reward, terminated) == (pytest.approx(-TAKE_TWO_PENALTY), False)
    _, reward, terminated, _, info = env.step(TAKE_TWO)  # 4 -> 2 (costs the opponent)
    # opponent takes 1 -> 1; the learner is to move again with no reward of its own
    assert (reward, terminated) == (0.0, False)
    _, reward, terminated, _, info = env.step(TAKE_ONE)  # 1 -> 0: the learner wins
    assert (reward, terminated, info["outcome"]) == (1.0, True, "win")


def test_opponent_moving_first_then_learner_resigning() -> None:
    env = countdown_learner(ScriptedAgent([TAKE_TWO]), start=9, seat=1)
    observation, _ = env.reset(seed=0)
    assert observation[0] == pytest.approx(7 / 20)  # the opponent already took 2
    assert env.action_masks().tolist() == [True, True, True]
    _, reward, terminated, _, info = env.step(RESIGN)
    # the -0.25 earned on the opponent's opening move is delivered, not lost in reset()
    assert reward == pytest.approx(-1.0 - TAKE_TWO_PENALTY)
    assert terminated and info["seat"] == 1 and info["outcome"] == "loss"


@pytest.mark.parametrize("seat", ["alternate", "random"])
def test_episode_rewards_sum_to_the_learners_return(seat: str) -> None:
    env = SingleAgentEnv(
        countdown_env(start=11), OpponentPool({"r": RandomAgent(seed=3)}), seat=seat
    )
    rng = np.random.default_rng(0)
    env.reset(seed=1)
    seats, totals = [], 0.0
    for _ in range(300):
        action = int(rng.choice(np.flatnonzero(env.action_masks())))
        _, reward, terminated, truncated, info = env.step(action)
        totals += reward
        if terminated or truncated:
            assert totals == pytest.approx(info["returns"][info["seat"]])
            seats.append(info["seat"])
            totals = 0.0
            env.reset()
    assert set(seats) == {0, 1}


def test_alternate_seats_take_turns_game_by_game() -> None:
    env = countdown_learner(TakeOneAgent(), start=4, seat="alternate")
    seats = []
    for game in range(6):
        env.reset(seed=game)
        while True:
            _, _, terminated, _, info = env.step(TAKE_ONE)
            if terminated:
                seats.append(info["seat"])
                break
    assert seats == [0, 1, 0, 1, 0, 1]


def test_cooperative_regicide_team_reward_and_every_seat_decides() -> None:
    env = SingleAgentEnv(make("regicide", num_players=3), cooperative=True)
    rng = np.random.default_rng(2)
    env.reset(seed=4)
    raw = env.raw
    seats_seen, total, games = set(), 0.0, 0
    while games < 3:
        player = raw.game_state.current_player
        seats_seen.add(player)
        mask = env.action_masks()
        assert np.flatnonzero(mask).tolist() == raw.game_state.legal_actions()
        _, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        total += reward
        if terminated or truncated:
            returns = info["returns"]
            assert total == pytest.approx(returns[0]) and len(set(returns)) == 1
            assert info["outcome"] == outcome(returns, 0, cooperative=True)
            assert "enemies_defeated" in info["stats"]
            games, total = games + 1, 0.0
            env.reset()
    assert seats_seen == {0, 1, 2}


def test_a_competitive_game_needs_opponents_and_a_valid_seat() -> None:
    with pytest.raises(ValueError, match="needs opponents"):
        SingleAgentEnv(countdown_env())
    with pytest.raises(ValueError, match="seat must be"):
        countdown_learner(TakeOneAgent(), seat=2)
    with pytest.raises(ValueError, match="seat must be"):
        countdown_learner(TakeOneAgent(), seat="left")


def test_check_env_passes_competitive_and_cooperative() -> None:
    # check_env steps random actions, so the AEC env forfeits illegal ones instead of raising
    competitive = SingleAgentEnv(
        countdown_env(illegal_action="terminate"), OpponentPool({"o": TakeOneAgent()})
    )
    check_env(competitive)
    cooperative = SingleAgentEnv(
        make("regicide", num_players=2, illegal_action="terminate"), cooperative=True
    )
    check_env(cooperative)


def _regicide_learner() -> SingleAgentEnv:
    return SingleAgentEnv(make("regicide", num_players=2), cooperative=True)


def test_action_masks_work_under_subproc_vec_env() -> None:
    vec_env = SubprocVecEnv([_regicide_learner, _regicide_learner], "forkserver")
    try:
        assert is_masking_supported(vec_env)
        vec_env.seed(5)
        vec_env.reset()
        for _ in range(30):
            masks = get_action_masks(vec_env)
            assert masks.shape == (2, 344) and masks.any(axis=1).all()
            rng = np.random.default_rng(0)
            vec_env.step(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
    finally:
        vec_env.close()


def test_opponent_pool_sampling_rule() -> None:
    rng = np.random.default_rng(0)
    baseline = TakeOneAgent()
    pool = OpponentPool({"b": baseline}, baseline_share=0.0, max_snapshots=2)
    assert {pool.sample(rng)[0] for _ in range(20)} == {"b"}  # no snapshot yet
    for name in ("s1", "s2", "s3"):
        pool.add_snapshot(name, TakeOneAgent())
    assert {pool.sample(rng)[0] for _ in range(50)} == {"s2", "s3"}  # s1 dropped out
    pool.baseline_share = 1.0
    assert {pool.sample(rng)[0] for _ in range(20)} == {"b"}
    with pytest.raises(ValueError, match="baseline"):
        pool.add_snapshot("b", baseline)


def test_reset_from_a_given_position_passes_through_the_wrapper() -> None:
    game = make("regicide", num_players=2).unwrapped.game
    position = game.new_state(seed=11)
    for _ in range(3):
        position.apply(position.legal_actions()[0])
    env = _regicide_learner()
    env.reset(seed=0, options={"state": position})
    assert env.raw.game_state.render() == position.render()
    assert env.raw.game_state is not position
    assert np.flatnonzero(env.action_masks()).tolist() == position.legal_actions()


def test_a_given_position_that_is_over_is_refused_not_replaced() -> None:
    game = make("regicide", num_players=2).unwrapped.game
    finished = game.new_state(seed=11)
    while not finished.is_terminal():
        finished.apply(finished.legal_actions()[0])
    with pytest.raises(ValueError):
        _regicide_learner().reset(options={"state": finished})


def test_a_training_env_raises_on_an_illegal_action(tmp_path: Path) -> None:
    """The env's default forfeits an illegal action (PettingZoo classic); a masked learner
    never sends one, so in training one is a bug to raise (``illegal_action="raise"``)."""
    settings = TrainSettings.from_config("regicide", out=str(tmp_path), steps=64)
    env = make_training_env(settings, seed=0, single_thread=False)
    env.reset(seed=0)
    with pytest.raises(IllegalActionError, match="is not legal"):
        env.step(int(np.flatnonzero(~env.action_masks())[0]))
