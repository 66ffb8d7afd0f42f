"""Agents by spec: ``random``, ``heuristic``, ``ismcts[:options]``,
``guided:policy=PATH[,options]``, ``policy:PATH`` or a bare policy path, and ``pretrained``
(the policy shipped for the game; ``policy=pretrained`` in a guided spec), so every command
names agents the same way."""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass

from tabletop import envs
from tabletop.agents.base import Agent, RandomAgent
from tabletop.agents.guided import OPTION_TYPES as GUIDED_OPTIONS
from tabletop.agents.guided import make_guided_agent
from tabletop.agents.ismcts import OPTION_TYPES as ISMCTS_OPTIONS
from tabletop.agents.ismcts import make_ismcts_agent
from tabletop.agents.shipped import POLICY_SUFFIX, PRETRAINED

AgentFactory = Callable[[str, int | None, str], Agent]
"""factory(game_name, seed, options): ``options`` is the text after ``kind:`` in a spec
(empty without one); each kind parses and checks its own."""


def _without_options(kind: str, options: str) -> None:
    if options:
        raise ValueError(f"agent {kind!r} takes no options, got {options!r}")


def _random_agent(game_name: str, seed: int | None, options: str) -> Agent:
    _without_options("random", options)
    return RandomAgent(seed)


def _heuristic_agent(game_name: str, seed: int | None, options: str) -> Agent:
    _without_options("heuristic", options)
    return envs.spec(game_name).heuristic(seed)


def _policy_agent(game_name: str, seed: int | None, path: str) -> Agent:
    """A saved policy (``policy:PATH``); imported lazily so that playing and benchmarking
    work without torch installed."""
    from tabletop.agents.policy import load_agent

    return load_agent(path, game=game_name, seed=seed)


def _pretrained_agent(game_name: str, seed: int | None, options: str) -> Agent:
    """The policy shipped with the package for the game (``agents/pretrained``)."""
    _without_options(PRETRAINED, options)
    return _policy_agent(game_name, seed, PRETRAINED)


@dataclass(frozen=True)
class AgentKind:
    """One kind of agent: how to build it and how a spec names it."""

    factory: AgentFactory
    usage: str
    """The spec's form, as ``--help`` shows it, e.g. ``"policy:PATH"``."""


AGENT_KINDS: dict[str, AgentKind] = {
    "random": AgentKind(_random_agent, "random"),
    "heuristic": AgentKind(_heuristic_agent, "heuristic"),
    "ismcts": AgentKind(
        make_ismcts_agent, "ismcts[:" + ",".join(f"{key}=..." for key in ISMCTS_OPTIONS) + "]"
    ),
    "guided": AgentKind(
        make_guided_agent,
        "guided:policy=PATH[,"
        + ",".join(f"{key}=..." for key in GUIDED_OPTIONS if key != "policy")
        + "]",
    ),
    "policy": AgentKind(_policy_agent, "policy:PATH"),
    PRETRAINED: AgentKind(_pretrained_agent, PRETRAINED),
}
"""Agent kind -> how to build it. A spec is ``kind`` or ``kind:options``
(e.g. ``ismcts:iterations=2000,c=0.7``, ``policy:runs/regicide``), so a new kind of agent
is one entry here, and ``--help`` lists it."""

PATH_USAGE = "PATH (a saved policy: a .pt file or a training run directory)"
"""The bare-path spec, which ``make_agent`` reads as ``policy:PATH``."""


def agent_specs_help() -> str:
    """Every form of agent spec, for the ``--agents`` help of the commands."""
    return ", ".join(kind.usage for kind in AGENT_KINDS.values()) + ", or " + PATH_USAGE


def make_agent(spec: str, game_name: str, seed: int | None = None) -> Agent:
    """The agent named by ``spec`` for the game ``game_name``: ``kind[:options]`` as in
    ``AGENT_KINDS``, or the bare path of a saved policy (a ``.pt`` file or a training
    run directory)."""
    text = spec.strip()
    kind, colon, options = text.partition(":")
    agent_kind = AGENT_KINDS.get(kind.strip().lower())
    if agent_kind is not None:
        if colon and not options.strip():
            raise ValueError(f"agent {spec!r}: nothing after ':'; write {kind.strip()!r}")
        return agent_kind.factory(game_name, seed, options.strip())
    if _looks_like_path(text):
        return _policy_agent(game_name, seed, text)
    raise ValueError(f"unknown agent {spec!r}; known agents: {agent_specs_help()}")


def agent_identity(spec: str) -> str:
    """The agent ``spec`` names, written one way: the kind in lower case, its options
    stripped and sorted, a bare path as ``policy:PATH``. Two specs with one identity
    (``ismcts:c=1,iterations=50`` and ``ISMCTS:iterations=50, c=1``) are one agent, which a
    table must not list twice."""
    text = spec.strip()
    kind, _, options = text.partition(":")
    if kind.strip().lower() not in AGENT_KINDS:
        return f"policy:{text}"
    parts = sorted(part.strip() for part in options.split(",") if part.strip())
    return ":".join([kind.strip().lower(), ",".join(parts)]) if parts else kind.strip().lower()


OPTION_PART = re.compile(r"[A-Za-z_]\w*=.*")


def split_agent_specs(text: str) -> list[str]:
    """Split a comma-separated list of agent specs, keeping each spec's own ``key=value``
    options together: ``"ismcts:iterations=2000,c=0.7,heuristic"`` is two specs. A part
    that is a bare option (``name=value``) belongs to the spec before it."""
    specs: list[str] = []
    for part in (piece.strip() for piece in text.split(",")):
        if OPTION_PART.fullmatch(part) and specs:
            specs[-1] += "," + part
        elif part:
            specs.append(part)
    return specs


def _looks_like_path(text: str) -> bool:
    return os.path.exists(text) or "/" in text or os.sep in text or text.endswith(POLICY_SUFFIX)
