"""Wrappers that adapt tabletop AEC envs to learners: single-agent ones (sb3-contrib
MaskablePPO) and RLlib's own ``PettingZooEnv`` with its example action masking."""

from tabletop.wrappers.opponents import OpponentPool
from tabletop.wrappers.rllib import RLlibActionMasking
from tabletop.wrappers.single_agent import SingleAgentEnv

__all__ = ["OpponentPool", "RLlibActionMasking", "SingleAgentEnv"]
