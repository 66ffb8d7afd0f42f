"""Wrappers that adapt tabletop AEC envs to single-agent learners (sb3-contrib MaskablePPO)."""

from tabletop.wrappers.opponents import OpponentPool
from tabletop.wrappers.single_agent import SingleAgentEnv

__all__ = ["OpponentPool", "SingleAgentEnv"]
