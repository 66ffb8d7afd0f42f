"""What PettingZoo's own tools and SuperSuit do with every registered game.

They make the env through PettingZoo's registry (``pettingzoo.make``), convert it to a
parallel env, ask for ``state()``, and most step actions sampled without the mask
(``average_total_reward``, SuperSuit's wrappers and vector pipeline): the default
``illegal_action="terminate"`` (PettingZoo classic's convention) makes such a game end with
-1 to the offender instead of raising. RLlib's pre-check and ``PettingZooEnv`` are in
``tests/training/test_rllib_pettingzoo.py`` (they need Ray).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np
import pettingzoo
import pytest
import supersuit
from gymnasium.error import ResetNeeded
from pettingzoo import AECEnv
from pettingzoo.utils import average_total_reward
from pettingzoo.utils.conversions import turn_based_aec_to_parallel
from pettingzoo.utils.env_logger import EnvLogger

from tabletop import envs
from tabletop.envs.core import TabletopAEC
from tabletop.envs.core.protocol import UnknownOptionError

GAMES = envs.names()
each_game = pytest.mark.parametrize("name", GAMES)


@pytest.fixture(autouse=True)
def _quiet_illegal_move_warnings() -> Iterator[None]:
    """Every unmasked sample is likely illegal: PettingZoo's logger would print each one."""
    EnvLogger.suppress_output()
    yield
    EnvLogger.unsuppress_output()


def _registry_id(name: str) -> str:
    """``tabletop/<name>-v<N>``, written from the env's versioned name (``kaleva_v0``)."""
    game, _, version = envs.spec(name).env_name.rpartition("_v")
    return f"tabletop/{game}-v{version}"


@each_game
def test_pettingzoo_make_builds_the_game_with_game_and_env_options(name: str) -> None:
    spec = envs.spec(name)
    options = dict(spec.bench_options[-1])
    encoder = sorted(spec.encoders)[0]
    env = pettingzoo.make("aec", _registry_id(name), max_plies=77, encoder=encoder, **options)
    raw = env.unwrapped
    assert isinstance(raw, TabletopAEC)
    assert (raw.max_plies, raw.encoder.name) == (77, encoder)
    assert repr(raw.game) == repr(spec.new_game(**options))
    env.reset(seed=3)
    assert env.agent_selection in env.possible_agents
    assert envs.pettingzoo_id(name) == _registry_id(name)


@each_game
def test_pettingzoo_make_takes_the_unversioned_id_and_refuses_unknown_options(name: str) -> None:
    assert str(pettingzoo.make("aec", _registry_id(name).rpartition("-v")[0])) == str(
        envs.make(name)
    )
    with pytest.raises(UnknownOptionError, match=r"\['max_cycles'\].*'max_plies'"):
        pettingzoo.make("aec", _registry_id(name), max_cycles=10)


@each_game
def test_state_through_the_parallel_conversion_is_not_implemented(name: str) -> None:
    parallel = turn_based_aec_to_parallel(envs.make(name))
    parallel.reset(seed=1)
    with pytest.raises(NotImplementedError, match="no global state"):
        parallel.state()


@each_game
def test_average_total_reward_plays_unmasked_samples(name: str) -> None:
    """It steps ``action_space.sample()`` (it reads no observation): the offender loses."""
    assert average_total_reward(envs.make(name), max_episodes=3) == -1.0


@each_game
@pytest.mark.parametrize(
    "wrapper",
    [
        lambda env: supersuit.sticky_actions_v0(env, repeat_action_probability=0.5),
        lambda env: supersuit.delay_observations_v0(env, delay=2),
    ],
    ids=["sticky_actions", "delay_observations"],
)
def test_supersuit_wrappers_play_unmasked_samples(
    name: str, wrapper: Callable[[AECEnv], AECEnv]
) -> None:
    env = wrapper(envs.make(name))
    for episode in range(3):
        env.reset(seed=episode)
        for agent in env.agent_iter():
            _, _, termination, truncation, _ = env.last()
            env.step(None if termination or truncation else env.action_space(agent).sample())
        assert env.agents == []


@each_game
def test_supersuit_vector_pipeline_steps_unmasked_samples(name: str) -> None:
    vector = supersuit.pettingzoo_env_to_vec_env_v1(turn_based_aec_to_parallel(envs.make(name)))
    vector = supersuit.concat_vec_envs_v1(vector, 2, num_cpus=0, base_class="gymnasium")
    observations, _ = vector.reset(seed=0)
    episodes = 0
    for _ in range(50):
        actions = np.array([vector.action_space.sample() for _ in range(vector.num_envs)])
        observations, _, terminations, _, _ = vector.step(actions)
        episodes += int(terminations.sum())
    assert set(observations) == {"observation", "action_mask"}
    assert episodes > 0
    vector.close()


@each_game
@pytest.mark.parametrize("action", [None, 0])
def test_a_step_after_every_agent_left_says_so(name: str, action: int | None) -> None:
    env = envs.make(name)
    env.reset(seed=0)
    env.step(env.action_space(env.agent_selection).n)  # out of range: the game ends
    for _ in env.agent_iter():
        env.step(None)
    with pytest.raises(ResetNeeded, match="after the episode ended"):
        env.step(action)
