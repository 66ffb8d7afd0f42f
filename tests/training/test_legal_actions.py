"""LegalActionsPolicy: the same distribution as sb3-contrib's dense masked policy, computed
over the legal actions only (agents/legal_actions.py)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("sb3_contrib", reason="needs the [train] extra")
import torch
from gymnasium import spaces
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

from tabletop.agents.legal_actions import LegalActionsPolicy

OBSERVATION = spaces.Box(-1.0, 1.0, (12,), np.float32)
ACTIONS = spaces.Discrete(200)


def twin_policies() -> tuple[MaskableActorCriticPolicy, LegalActionsPolicy]:
    """A dense masked policy and a legal-actions one with the same weights."""
    torch.manual_seed(3)
    settings = {"lr_schedule": lambda _progress: 1e-3, "net_arch": [16]}
    dense = MaskableActorCriticPolicy(OBSERVATION, ACTIONS, **settings)
    legal = LegalActionsPolicy(OBSERVATION, ACTIONS, **settings)
    legal.load_state_dict(dense.state_dict())
    with torch.no_grad():  # sb3 starts the output layer near zero: make the logits differ
        for policy in (dense, legal):
            policy.action_net.weight.mul_(100.0)
    return dense, legal


def batch(rows: int = 32, seed: int = 0) -> tuple[torch.Tensor, np.ndarray, torch.Tensor]:
    """Observations, masks with 1 to ~20 legal actions a row, and a legal action per row."""
    generator = np.random.default_rng(seed)
    masks = generator.random((rows, ACTIONS.n)) < generator.uniform(0.0, 0.1, (rows, 1))
    masks[np.arange(rows), generator.integers(0, ACTIONS.n, rows)] = True
    actions = [generator.choice(np.flatnonzero(row)) for row in masks]
    observations = torch.as_tensor(generator.uniform(-1, 1, (rows, 12)), dtype=torch.float32)
    return observations, masks, torch.as_tensor(actions)


def test_log_probs_entropies_and_gradients_equal_the_dense_policys() -> None:
    dense, legal = twin_policies()
    observations, masks, actions = batch()
    results = [policy.evaluate_actions(observations, actions, masks) for policy in (dense, legal)]
    (_, dense_log_prob, dense_entropy), (_, legal_log_prob, legal_entropy) = results
    torch.testing.assert_close(legal_log_prob, dense_log_prob, rtol=1e-5, atol=1e-5)
    torch.testing.assert_close(legal_entropy, dense_entropy, rtol=1e-5, atol=1e-5)
    for _, log_prob, entropy in results:
        (log_prob.sum() + entropy.sum()).backward()
    torch.testing.assert_close(
        legal.action_net.weight.grad, dense.action_net.weight.grad, rtol=1e-4, atol=1e-5
    )
    assert int(legal.action_net.weight.grad.abs().sum(dim=1).gt(0).sum()) < ACTIONS.n


def test_the_most_likely_action_is_the_dense_policys() -> None:
    dense, legal = twin_policies()
    observations, masks, _ = batch(seed=1)
    expected = dense.get_distribution(observations, masks).mode()
    torch.testing.assert_close(legal.get_distribution(observations, masks).mode(), expected)


def test_without_a_mask_every_action_is_possible() -> None:
    dense, legal = twin_policies()
    observations, _, _ = batch(seed=2)
    dense_distribution = dense.get_distribution(observations)
    legal_distribution = legal.get_distribution(observations)
    torch.testing.assert_close(legal_distribution.mode(), dense_distribution.mode())
    torch.testing.assert_close(
        legal_distribution.entropy(), dense_distribution.entropy(), rtol=1e-5, atol=1e-5
    )


def test_samples_are_legal_and_follow_the_dense_policys_probabilities() -> None:
    dense, legal = twin_policies()
    observations, masks, _ = batch(rows=1, seed=4)
    draws = 20_000
    torch.manual_seed(0)
    many_masks = np.repeat(masks, draws, axis=0)
    samples = legal.get_distribution(observations.expand(draws, -1), many_masks).sample()
    assert masks[0, samples.numpy()].all()
    expected = dense.get_distribution(observations, masks).distribution.probs[0].detach().numpy()
    frequencies = np.bincount(samples.numpy(), minlength=ACTIONS.n) / draws
    errors = np.sqrt(expected * (1 - expected) / draws)
    assert np.all(np.abs(frequencies - expected) <= 4 * errors + 1e-9)


def test_an_action_the_mask_forbids_is_an_error() -> None:
    _, legal = twin_policies()
    observations, masks, actions = batch(rows=4, seed=5)
    forbidden = int(np.flatnonzero(~masks[2])[0])
    actions[2] = forbidden
    with pytest.raises(ValueError, match=f"action {forbidden} is not legal in row 2"):
        legal.evaluate_actions(observations, actions, masks)


def test_a_mask_with_no_legal_action_is_an_error() -> None:
    _, legal = twin_policies()
    observations, masks, actions = batch(rows=3, seed=6)
    masks[1] = False
    with pytest.raises(ValueError, match="allows no action"):
        legal.evaluate_actions(observations, actions, masks)
