"""Policy files: save -> load -> play as an opponent in each game's AEC env; mismatch errors."""

from __future__ import annotations

import pickle
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("sb3_contrib", reason="needs the [train] extra")
import torch
from sb3_contrib import MaskablePPO

from tabletop import envs
from tabletop.agents import make_agent
from tabletop.agents.policy import (
    NetworkSpec,
    PolicyAgent,
    PolicyMismatchError,
    env_metadata,
    load_agent,
    new_policy,
    read_policy_file,
    save_policy,
)
from tabletop.wrappers import SingleAgentEnv

TINY = NetworkSpec(net_arch=[8], activation="Tanh")


def saved_policy(path: Path, game: str, **env_options) -> tuple[Path, PolicyAgent]:
    """An untrained (random-weights) policy for ``game``, saved to ``path``."""
    env = envs.make(game, **env_options)
    metadata = env_metadata(env, training_steps=123, seed=7, game_options=env_options)
    torch.manual_seed(0)
    policy = new_policy(metadata, TINY)
    save_policy(path, policy, metadata, TINY)
    return path, PolicyAgent(policy, metadata, TINY, env.unwrapped.encoder)


@pytest.mark.parametrize("game", envs.names())
def test_saved_policy_loads_and_plays_as_an_opponent_in_the_aec_env(
    game: str, tmp_path: Path
) -> None:
    path, original = saved_policy(tmp_path / "p.pt", game)
    env = envs.make(game)
    loaded = load_agent(path, env=env)
    assert loaded.metadata == original.metadata and loaded.metadata.training_steps == 123
    env.reset(seed=3)
    rng = np.random.default_rng(0)
    policy_moves = 0
    for _agent in env.agent_iter():
        observation, _, termination, truncation, _ = env.last()
        action = None
        if not (termination or truncation):
            state, seat = env.unwrapped.game_state, env.unwrapped.game_state.current_player
            if seat == 1:  # the loaded policy holds seat 1, a random player the others
                action = loaded.act(state, seat)
                assert action == original.act(state, seat)  # same weights, same choice
                assert observation["action_mask"][action] == 1
                policy_moves += 1
            else:
                action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        env.step(action)
    assert policy_moves > 0


def test_loading_into_another_encoder_names_the_difference(tmp_path: Path) -> None:
    path, _ = saved_policy(tmp_path / "p.pt", "regicide")
    with pytest.raises(PolicyMismatchError, match=r"encoder: policy 'flat', env 'entity'"):
        load_agent(path, env=envs.make("regicide", encoder="entity"))


def test_loading_into_another_game_names_the_difference(tmp_path: Path) -> None:
    other = next(name for name in envs.names() if name != "regicide")
    path, _ = saved_policy(tmp_path / "p.pt", "regicide")
    with pytest.raises(PolicyMismatchError, match=r"env: policy 'regicide_v0'"):
        load_agent(path, env=envs.make(other))
    with pytest.raises(PolicyMismatchError, match="trained for regicide_v0"):
        make_agent(str(path), other)


def test_a_stale_encoder_version_is_refused(tmp_path: Path) -> None:
    env = envs.make("regicide")
    metadata = env_metadata(env)
    stale = replace(metadata, encoder_version=metadata.encoder_version + 1)
    save_policy(tmp_path / "old.pt", new_policy(metadata, TINY), stale, TINY)
    with pytest.raises(PolicyMismatchError, match="encoder_version"):
        load_agent(tmp_path / "old.pt", game="regicide")


def test_a_policy_refuses_a_game_of_another_shape(tmp_path: Path) -> None:
    _, agent = saved_policy(tmp_path / "p.pt", "regicide")
    other = next(name for name in envs.names() if name != "regicide")
    state = envs.make_game(other).new_state(seed=0)
    with pytest.raises(PolicyMismatchError, match="cannot play this game"):
        agent.act(state, state.current_player)


def test_agent_specs_name_policy_files_and_run_directories(tmp_path: Path) -> None:
    run = tmp_path / "run"
    saved_policy(run / "last_policy.pt", "regicide")
    for spec in (str(run / "last_policy.pt"), str(run), f"policy:{run}"):
        assert isinstance(make_agent(spec, "regicide", seed=1), PolicyAgent)
    saved_policy(run / "best_policy.pt", "regicide", num_players=3)
    assert load_agent(run).metadata.game_options == {"num_players": 3}  # best comes first
    with pytest.raises(FileNotFoundError, match="no policy file or run directory"):
        make_agent(str(tmp_path / "missing.pt"), "regicide")


def test_a_file_that_is_not_a_policy_is_refused_with_the_reason(tmp_path: Path) -> None:
    (tmp_path / "empty.pt").touch()
    with pytest.raises(ValueError, match=r"empty\.pt is empty, not a policy file"):
        read_policy_file(tmp_path / "empty.pt")
    (tmp_path / "junk.pt").write_bytes(b"not a policy")
    with pytest.raises(ValueError, match="not a tabletop policy file: torch cannot read it"):
        read_policy_file(tmp_path / "junk.pt")
    torch.save({"weights": torch.zeros(2)}, tmp_path / "other.pt")
    with pytest.raises(ValueError, match="torch reads it, but it lacks the 'format'"):
        read_policy_file(tmp_path / "other.pt")


def test_a_training_checkpoint_is_refused_naming_what_to_pass(tmp_path: Path) -> None:
    env = SingleAgentEnv(envs.make("regicide"), None, cooperative=True)
    MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=64).save(tmp_path / "checkpoint.zip")
    expected = f"pass its run directory ({tmp_path}) or the best_policy.pt in it"
    with pytest.raises(ValueError, match="is a training checkpoint") as error:
        make_agent(str(tmp_path / "checkpoint.zip"), "regicide")
    assert expected in str(error.value)


def test_sampling_agent_is_seeded_and_stays_legal(tmp_path: Path) -> None:
    path, _ = saved_policy(tmp_path / "p.pt", "regicide")

    def moves(seed: int) -> list[int]:
        agent = load_agent(path, deterministic=False, seed=seed)
        state = envs.make_game("regicide").new_state(seed=2)
        played = []
        while not state.is_terminal() and len(played) < 40:
            action = agent.act(state, state.current_player)
            assert action in state.legal_actions()
            played.append(action)
            state.apply(action)
        return played

    assert moves(5) == moves(5)


def torch_logits(agent: PolicyAgent, observation: np.ndarray) -> np.ndarray:
    policy = agent.policy
    with torch.no_grad():
        obs = torch.as_tensor(observation).unsqueeze(0)
        features = policy.extract_features(obs, policy.pi_features_extractor)
        return policy.action_net(policy.mlp_extractor.forward_actor(features))[0].numpy()


@pytest.mark.parametrize("encoder", ["flat", "entity"])
@pytest.mark.parametrize("activation", ["ReLU", "Tanh"])
def test_numpy_forward_pass_gives_torchs_logits(encoder: str, activation: str) -> None:
    env = envs.make("kaleva", encoder=encoder)
    metadata = env_metadata(env)
    network = NetworkSpec(net_arch=[32, 16], activation=activation)
    torch.manual_seed(1)
    agent = PolicyAgent(new_policy(metadata, network), metadata, network, env.unwrapped.encoder)
    assert agent._actor is not None  # the fast path is taken
    state = envs.make_game("kaleva").new_state(seed=4)
    observation = env.unwrapped.encoder.encode(state, state.current_player)
    expected = torch_logits(agent, observation)
    np.testing.assert_allclose(agent.action_logits(observation), expected, rtol=1e-5, atol=1e-6)


def test_a_network_numpy_cannot_run_falls_back_to_torch() -> None:
    env = envs.make("regicide")
    metadata = env_metadata(env)
    network = NetworkSpec(net_arch=[8], activation="ELU")
    agent = PolicyAgent(new_policy(metadata, network), metadata, network, env.unwrapped.encoder)
    assert agent._actor is None
    state = envs.make_game("regicide").new_state(seed=0)
    assert agent.act(state, state.current_player) in state.legal_actions()


def test_sampling_follows_the_policys_probabilities(tmp_path: Path) -> None:
    _, agent = saved_policy(tmp_path / "p.pt", "regicide")
    sampler = load_agent(tmp_path / "p.pt", deterministic=False, seed=0)
    state = envs.make_game("regicide").new_state(seed=2)
    legal = state.legal_actions()
    logits = agent.action_logits(agent.encoder.encode(state, state.current_player))[legal]
    expected = np.exp(logits - logits.max()) / np.exp(logits - logits.max()).sum()
    draws = 20_000
    counts = np.bincount(
        [legal.index(sampler.act(state, state.current_player)) for _ in range(draws)],
        minlength=len(legal),
    )
    # every frequency within 4 standard errors of its probability
    errors = np.sqrt(expected * (1 - expected) / draws)
    assert np.all(np.abs(counts / draws - expected) <= 4 * errors + 1e-9)


def test_a_pickled_agent_rebuilds_its_numpy_forward_pass(tmp_path: Path) -> None:
    """Snapshots travel to SubprocVecEnv workers pickled."""
    _, agent = saved_policy(tmp_path / "p.pt", "kaleva")
    copy = pickle.loads(pickle.dumps(agent))
    assert copy._actor is not None
    state = envs.make_game("kaleva").new_state(seed=1)
    observation = agent.encoder.encode(state, state.current_player)
    np.testing.assert_array_equal(copy.action_logits(observation), agent.action_logits(observation))


SHARED = NetworkSpec(net_arch=[16], activation="ReLU", shared=[32])


def test_a_shared_trunk_saves_loads_and_runs_in_numpy(tmp_path: Path) -> None:
    env = envs.make("kaleva")
    metadata = env_metadata(env)
    torch.manual_seed(2)
    policy = new_policy(metadata, SHARED)
    assert sum(isinstance(m, torch.nn.Linear) for m in policy.features_extractor.modules()) == 1
    save_policy(tmp_path / "p.pt", policy, metadata, SHARED)
    loaded = load_agent(tmp_path / "p.pt")
    assert loaded.network == SHARED and loaded._actor is not None
    state = envs.make_game("kaleva").new_state(seed=4)
    observation = loaded.encoder.encode(state, state.current_player)
    expected = torch_logits(PolicyAgent(policy, metadata, SHARED, loaded.encoder), observation)
    np.testing.assert_allclose(loaded.action_logits(observation), expected, rtol=1e-5, atol=1e-6)


def test_a_file_without_a_trunk_entry_loads_as_no_trunk(tmp_path: Path) -> None:
    """Files written before ``NetworkSpec.shared`` existed."""
    path, _ = saved_policy(tmp_path / "p.pt", "kaleva")
    payload = torch.load(path, weights_only=True)
    del payload["network"]["shared"]
    torch.save(payload, path)
    assert read_policy_file(path)[1] == TINY


def test_the_logits_of_some_actions_are_those_of_all_actions_picked(tmp_path: Path) -> None:
    _, agent = saved_policy(tmp_path / "p.pt", "kaleva")
    state = envs.make_game("kaleva").new_state(seed=5)
    observation = agent.encoder.encode(state, state.current_player)
    legal = np.asarray(state.legal_actions())
    np.testing.assert_allclose(
        agent.action_logits(observation, legal), agent.action_logits(observation)[legal], rtol=1e-6
    )
