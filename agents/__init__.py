"""Agents: what plays a seat of a game on the engine state.

The layer sits between the games (``tabletop.envs``) and what uses agents as opponents or
players (``tabletop.wrappers``, ``tabletop.training``), and defines what a finished game
means for a seat (``tabletop.agents.outcome``) for both. Policy files need torch, so
``tabletop.agents.policy`` is imported only when a policy is loaded.
"""

from tabletop.agents.base import Agent, RandomAgent, play_game
from tabletop.agents.guided import GuidedAgent, GuidedSearch, GuidedSettings
from tabletop.agents.registry import (
    AGENT_KINDS,
    agent_identity,
    agent_specs_help,
    make_agent,
    split_agent_specs,
)

__all__ = [
    "AGENT_KINDS",
    "Agent",
    "GuidedAgent",
    "GuidedSearch",
    "GuidedSettings",
    "RandomAgent",
    "agent_identity",
    "agent_specs_help",
    "make_agent",
    "play_game",
    "split_agent_specs",
]
