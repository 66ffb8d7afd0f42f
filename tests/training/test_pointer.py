"""The pointer policy (agents/pointer.py): a legal action's logit comes from the rows it
names, with the same weights for every row; its distribution is the softmax of those
logits over the legal actions; it saves, loads and plays as any policy; and the action
structure it needs is checked."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("torch", reason="needs the [train] extra")
import torch
from gymnasium import spaces

from tabletop import envs
from tabletop.agents.pointer import PointerPolicy
from tabletop.agents.policy import (
    NetworkSpec,
    PolicyAgent,
    env_metadata,
    load_agent,
    new_policy,
    save_policy,
)
from tabletop.envs.core.structure import ActionStructure
from tabletop.training.runs import TrainSettings
from tabletop.training.trainer import Trainer

BEFORE, ROWS, WIDTH, AFTER = 3, 4, 5, 2
SIZE = BEFORE + ROWS * WIDTH + AFTER
ACTIONS = 12


def toy_structure() -> ActionStructure:
    """Action ``a`` names row ``a % 4`` and row ``(a + 1) % 5`` (4: none); its feature is
    ``a % 3`` one-hot."""
    named = np.array([[a % ROWS, (a + 1) % (ROWS + 1)] for a in range(ACTIONS)])
    features = np.eye(3, dtype=np.float32)[np.arange(ACTIONS) % 3]
    return ActionStructure(SIZE, BEFORE, ROWS, WIDTH, named, features)


def toy_policy() -> PointerPolicy:
    torch.manual_seed(5)
    policy = PointerPolicy(
        spaces.Box(-1.0, 1.0, (SIZE,), np.float32), spaces.Discrete(ACTIONS),
        lambda _progress: 1e-3, net_arch=[16], structure=toy_structure(),
        row_layers=[8], shared_layers=[16],
    )  # fmt: skip
    with torch.no_grad():  # sb3-style init starts the output near zero: make logits differ
        policy.action_net.out.weight.mul_(100.0)
    return policy


def observations(count: int, seed: int = 0) -> torch.Tensor:
    generator = np.random.default_rng(seed)
    return torch.as_tensor(generator.uniform(-1, 1, (count, SIZE)), dtype=torch.float32)


def test_the_distribution_is_the_softmax_of_the_legal_actions_scores() -> None:
    policy = toy_policy()
    obs = observations(6)
    generator = np.random.default_rng(1)
    masks = generator.random((6, ACTIONS)) < 0.4
    masks[:, 0] = True
    actions = torch.as_tensor([generator.choice(np.flatnonzero(row)) for row in masks])
    _, log_prob, entropy = policy.evaluate_actions(obs, actions, torch.as_tensor(masks))
    with torch.no_grad():
        every = policy.action_scores(policy.mlp_extractor.forward_actor(obs), None)
    expected = torch.log_softmax(every.masked_fill(~torch.as_tensor(masks), -1e30), dim=1)
    torch.testing.assert_close(log_prob, expected.gather(1, actions[:, None])[:, 0])
    probabilities = expected.exp()
    expected_entropy = -(probabilities * expected.masked_fill(probabilities == 0, 0)).sum(1)
    torch.testing.assert_close(entropy, expected_entropy)
    (log_prob.sum() + entropy.sum()).backward()
    assert policy.mlp_extractor.row_net[0].weight.grad.abs().sum() > 0


def test_swapping_two_rows_swaps_the_scores_of_the_actions_naming_them() -> None:
    """Actions 0 and 9 have the same features and name rows (0, 1) and (1, 0): with rows 0
    and 1 swapped (the context pools the rows, so it is unchanged) each scores what the
    other did."""
    policy = toy_policy()
    obs = observations(1, seed=2)
    swapped = obs.clone()
    first, second = BEFORE, BEFORE + WIDTH
    swapped[0, first:second], swapped[0, second : second + WIDTH] = (
        obs[0, second : second + WIDTH], obs[0, first:second],
    )  # fmt: skip
    asked = torch.as_tensor([[0, 9]])
    with torch.no_grad():
        before = policy.action_scores(policy.mlp_extractor.forward_actor(obs), asked)
        after = policy.action_scores(policy.mlp_extractor.forward_actor(swapped), asked)
    torch.testing.assert_close(after[0], before[0].flip(0))
    assert not torch.isclose(before[0, 0], before[0, 1])


def test_an_action_is_scored_from_every_row_it_names() -> None:
    """With three rows named, changing the row an action names third changes its score and
    leaves alone an action naming none of the changed row."""
    named = np.array([[a % ROWS, ROWS, (a + 2) % ROWS] for a in range(ACTIONS)])
    structure = ActionStructure(SIZE, BEFORE, ROWS, WIDTH, named, np.eye(3, dtype=np.float32)[
        np.arange(ACTIONS) % 3])  # fmt: skip
    assert structure.named_rows == 3
    torch.manual_seed(5)
    policy = PointerPolicy(
        spaces.Box(-1.0, 1.0, (SIZE,), np.float32), spaces.Discrete(ACTIONS),
        lambda _progress: 1e-3, net_arch=[16], structure=structure, row_layers=[8],
        shared_layers=[],
    )  # fmt: skip
    scorer = policy.action_net
    latent = torch.randn(1, scorer.context_dim + ROWS * scorer.row_dim)
    changed = latent.clone()
    row_2 = scorer.context_dim + 2 * scorer.row_dim
    changed[0, row_2 : row_2 + scorer.row_dim] += 1.0  # the embedding of row 2 alone
    asked = torch.as_tensor([[0, 1]])  # action 0 names rows 0 and 2, action 1 rows 1 and 3
    with torch.no_grad():
        before, after = scorer(latent, asked), scorer(changed, asked)
    assert not torch.isclose(before[0, 0], after[0, 0])
    torch.testing.assert_close(before[0, 1], after[0, 1])


def test_an_invalid_structure_is_refused_with_what_is_wrong() -> None:
    named = np.zeros((ACTIONS, 2), dtype=np.int64)
    features = np.zeros((ACTIONS, 1), dtype=np.float32)
    with pytest.raises(ValueError, match="past the observation"):
        ActionStructure(10, BEFORE, ROWS, WIDTH, named, features)
    with pytest.raises(ValueError, match="outside 0"):
        ActionStructure(SIZE, BEFORE, ROWS, WIDTH, named + ROWS + 1, features)
    with pytest.raises(ValueError, match="action_features has shape"):
        ActionStructure(SIZE, BEFORE, ROWS, WIDTH, named, features[:3])


def test_a_structure_for_other_spaces_is_refused() -> None:
    with pytest.raises(ValueError, match="has 12 actions, the action space 13"):
        PointerPolicy(
            spaces.Box(-1.0, 1.0, (SIZE,), np.float32), spaces.Discrete(13),
            lambda _progress: 1e-3, structure=toy_structure(), row_layers=[8],
            shared_layers=[],
        )  # fmt: skip


def test_a_game_without_a_structure_for_the_encoder_is_named() -> None:
    metadata = env_metadata(envs.make("kaleva"))
    with pytest.raises(ValueError, match="kaleva offers no action structure for encoder 'flat'"):
        new_policy(metadata, NetworkSpec(net_arch=[8], activation="ReLU", rows=[8]))


def test_an_hkk_pointer_policy_saves_loads_and_plays_legal_moves(tmp_path) -> None:
    env = envs.make("hkk")
    metadata = env_metadata(env)
    network = NetworkSpec(net_arch=[16], activation="ReLU", shared=[16], rows=[8])
    policy = new_policy(metadata, network)
    assert isinstance(policy, PointerPolicy)
    assert not any("action_rows" in key for key in policy.state_dict())
    path = save_policy(tmp_path / "pointer.pt", policy, metadata, network)
    loaded = load_agent(path, game="hkk")
    agent = PolicyAgent(policy, metadata, network, env.unwrapped.encoder)
    state = env.unwrapped.game.new_state(3)
    generator = np.random.default_rng(0)
    for _ in range(60):
        seat = state.current_player
        legal = np.asarray(state.legal_actions())
        observation = agent.encoder.encode(state, seat)
        np.testing.assert_allclose(
            loaded.action_logits(observation, legal), agent.action_logits(observation, legal),
            rtol=1e-5, atol=1e-6,
        )  # fmt: skip
        assert loaded.act(state, seat) in legal
        state.apply(int(generator.choice(legal)))


def test_a_pointer_network_trains_checkpoints_and_resumes(tmp_path) -> None:
    """MaskablePPO trains the pointer policy; the checkpoint resumes as the same network
    with the same weights (its structure comes back with the model's settings)."""
    tiny = {
        "envs": 1,
        "ppo": {"n_steps": 64, "batch_size": 64, "n_epochs": 1},
        "network": {"net_arch": [16], "shared": [16], "rows": [8]},
        "selfplay": {"snapshot_every": 64},
        "run": {"checkpoint_every": 64, "eval_every": 128, "eval_games": 2},
        "imitation": {"games": 0},
    }
    out = tmp_path / "run"
    first = Trainer(TrainSettings.from_config("hkk", out=str(out), steps=128, overrides=tiny),
                    resume=False, progress=False)  # fmt: skip
    first.run()
    trained = {key: value.clone() for key, value in first.model.policy.state_dict().items()}
    settings = TrainSettings.from_config("hkk", out=str(out), steps=192, overrides=tiny)
    resumed = Trainer(settings, resume=True, progress=False)
    assert isinstance(resumed.model.policy, PointerPolicy)
    for key, value in resumed.model.policy.state_dict().items():
        torch.testing.assert_close(value, trained[key])
    assert resumed.run().steps == 192
    assert isinstance(load_agent(out / "last_policy.pt").policy, PointerPolicy)
