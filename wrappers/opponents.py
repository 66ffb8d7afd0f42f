"""The opponents a single-agent learner meets: named agents and the rule that picks one.

Kept apart from the wrapper so that training can grow the pool (self-play snapshots) while
the wrapper only asks for "the opponent of the next game".
"""

from __future__ import annotations

from collections import OrderedDict

import numpy as np

from tabletop.agents import Agent

DEFAULT_BASELINE_SHARE = 0.3
DEFAULT_MAX_SNAPSHOTS = 10


class OpponentPool:
    """Baseline agents plus learner snapshots, sampled once per game and seat.

    The sampling rule: while there is no snapshot, a baseline chosen uniformly. Once there
    are snapshots, a baseline (uniformly) with probability ``baseline_share``, otherwise one
    of the ``max_snapshots`` most recent snapshots, uniformly; older snapshots drop out.
    Keeping baselines in the mix stops the learner from forgetting how to beat them while
    it chases its own past selves.
    """

    def __init__(
        self,
        baselines: dict[str, Agent],
        *,
        baseline_share: float = DEFAULT_BASELINE_SHARE,
        max_snapshots: int = DEFAULT_MAX_SNAPSHOTS,
    ) -> None:
        if not baselines:
            raise ValueError("an opponent pool needs at least one baseline agent")
        if not 0.0 <= baseline_share <= 1.0:
            raise ValueError(f"baseline_share must be in [0, 1], got {baseline_share}")
        if max_snapshots < 1:
            raise ValueError(f"max_snapshots must be at least 1, got {max_snapshots}")
        self.baselines = dict(baselines)
        self.baseline_share = baseline_share
        self.max_snapshots = max_snapshots
        self.snapshots: OrderedDict[str, Agent] = OrderedDict()

    def add_snapshot(self, name: str, agent: Agent) -> None:
        """Add (or replace) a snapshot; the oldest is dropped beyond ``max_snapshots``."""
        if name in self.baselines:
            raise ValueError(f"snapshot name {name!r} is already a baseline's name")
        self.snapshots.pop(name, None)
        self.snapshots[name] = agent
        while len(self.snapshots) > self.max_snapshots:
            self.snapshots.popitem(last=False)

    def sample(self, rng: np.random.Generator) -> tuple[str, Agent]:
        """A (name, agent) pair drawn by the rule in the class docstring."""
        if self.snapshots and rng.random() >= self.baseline_share:
            names = list(self.snapshots)
            name = names[rng.integers(len(names))]
            return name, self.snapshots[name]
        names = list(self.baselines)
        name = names[rng.integers(len(names))]
        return name, self.baselines[name]
