"""Any tabletop AEC env as a single-agent Gymnasium env, for sb3-contrib ``MaskablePPO``.

The learner plays one seat; the other seats are agents stepped inside the wrapper until it
is the learner's move again (or the game is over). Rewards are taken from the AEC env after
every step, whoever moved, so nothing the learner earns is lost: in particular the final
-1 of a game that ends on an opponent's move, which the PettingZoo SB3 tutorial drops.

In a cooperative game one policy plays every seat (parameter sharing): each decision is
the learner's, observed from the seat that moves, and the reward is the team's.
"""

from __future__ import annotations

from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from tabletop.agents import Agent
from tabletop.agents.outcome import outcome
from tabletop.envs.core.aec import TabletopAEC
from tabletop.wrappers.opponents import OpponentPool

SEAT_MODES = ("alternate", "random")
MAX_RESETS_WITHOUT_A_MOVE = 1000
"""Games that end before the learner's first move are skipped; this many in a row is a bug."""


class SingleAgentEnv(gymnasium.Env):
    """One learner seat of a tabletop AEC env; ``action_masks()`` gives its legal actions.

    ``seat`` is ``"alternate"`` (seat ``k % num_players`` in the ``k``-th game),
    ``"random"`` (uniform each game) or a fixed seat number; it is ignored in cooperative
    mode, where every seat is the learner's. ``opponents`` is required unless
    ``cooperative``: each non-learner seat draws its agent from it at every reset.

    A game that ends before the learner's first move (nothing to learn from) is skipped:
    the wrapper starts the next one.

    The ``info`` of a game's last step holds ``outcome`` (``tabletop.agents.outcome``),
    ``opponent`` (the opponents' names, comma-joined; ``"self"`` when cooperative), ``seat``,
    ``returns`` (every seat's final return) and ``stats`` (``State.stats()``).
    """

    metadata: ClassVar[dict[str, Any]] = {"render_modes": []}

    def __init__(
        self,
        env: AECEnv,
        opponents: OpponentPool | None = None,
        *,
        cooperative: bool = False,
        seat: str | int = "alternate",
    ) -> None:
        raw = env.unwrapped
        if not isinstance(raw, TabletopAEC):
            raise TypeError(f"SingleAgentEnv needs a tabletop AEC env, got {type(raw).__name__}")
        num_players = raw.game.num_players
        if not cooperative and opponents is None:
            raise ValueError("a competitive game needs opponents (an OpponentPool)")
        if not cooperative and num_players < 2:
            raise ValueError("a competitive game needs at least two seats")
        if isinstance(seat, int) and not 0 <= seat < num_players:
            raise ValueError(f"seat must be in 0..{num_players - 1}, got {seat}")
        if not isinstance(seat, int) and seat not in SEAT_MODES:
            raise ValueError(f"seat must be a seat number or one of {SEAT_MODES}, got {seat!r}")
        self.env = env
        self.raw = raw
        self.opponents = opponents
        self.cooperative = cooperative
        self.seat_mode = seat
        first_agent = raw.possible_agents[0]
        self.observation_space = raw.observation_space(first_agent)["observation"]
        self.action_space = spaces.Discrete(raw.game.num_actions)
        self.learner_seat = 0
        self.seat_agents: list[Agent | None] = [None] * num_players
        self.opponent_names = "self"
        self._games_started = 0
        self._carried_reward = 0.0
        self._mask = np.zeros(raw.game.num_actions, bool)

    def add_opponent(self, name: str, agent: Agent) -> None:
        """Add a learner snapshot to the pool; called through ``VecEnv.env_method``."""
        if self.opponents is None:
            raise ValueError("a cooperative env has no opponent pool")
        self.opponents.add_snapshot(name, agent)

    def action_masks(self) -> np.ndarray:
        """Legal actions of the learner's pending decision (all False once the game is over);
        a new array at every decision, so callers may keep it."""
        return self._mask

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """A new game, or with ``options={"state": s}`` the game from position ``s`` (the
        AEC env checks and clones it); a given position that ends before the learner's
        first move is an error, since no other game may silently replace it."""
        super().reset(seed=seed)
        # A seed restarts the AEC env's own seed stream; later games continue that stream
        # (an explicit seed per game would also reseed its action spaces, every game).
        aec_seed = None if seed is None else int(self.np_random.integers(2**63))
        for _ in range(MAX_RESETS_WITHOUT_A_MOVE):
            self._start_game(aec_seed, options)
            if not self._game_over():
                return self._observe(), {}
            if options:
                raise ValueError("the given position ends before the learner's first move")
            aec_seed = None
        raise RuntimeError(
            f"{MAX_RESETS_WITHOUT_A_MOVE} games in a row ended before the learner's first move"
        )

    def _start_game(self, seed: int | None, options: dict[str, Any] | None = None) -> None:
        self.env.reset(seed=seed, options=options)
        self.learner_seat = self._pick_seat()
        self._seat_opponents()
        for agent in {id(a): a for a in self.seat_agents if a is not None}.values():
            agent.reset()
        self._games_started += 1
        # Gymnasium's reset returns no reward: what the opponents' opening moves earned
        # the learner is delivered with its first step instead of being lost.
        self._carried_reward = self._play_opponents()

    def _pick_seat(self) -> int:
        num_players = self.raw.game.num_players
        if isinstance(self.seat_mode, int):
            return self.seat_mode
        if self.seat_mode == "random":
            return int(self.np_random.integers(num_players))
        return self._games_started % num_players

    def _seat_opponents(self) -> None:
        num_players = self.raw.game.num_players
        self.seat_agents = [None] * num_players
        if self.cooperative:
            self.opponent_names = "self"
            return
        assert self.opponents is not None  # checked in __init__
        names = []
        for seat in range(num_players):
            if seat != self.learner_seat:
                name, agent = self.opponents.sample(self.np_random)
                self.seat_agents[seat] = agent
                names.append(name)
        self.opponent_names = ",".join(names)

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        if self._game_over():
            raise RuntimeError("step() after the game ended; call reset()")
        self.raw.step(int(action))
        reward, self._carried_reward = self._carried_reward + self._own_reward(), 0.0
        reward += self._play_opponents()
        observation = self._observe()
        if not self._game_over():
            return observation, reward, False, False, {}
        terminated = any(self.raw.terminations.values())
        return observation, reward, terminated, not terminated, self._final_info()

    def _play_opponents(self) -> float:
        """Let the other seats move until it is the learner's turn or the game is over;
        returns the learner's rewards earned meanwhile."""
        earned = 0.0
        while not self._game_over():
            player = self.raw.game_state.current_player
            agent = self.seat_agents[player]
            if agent is None:
                break
            self.raw.step(agent.act(self.raw.game_state, player))
            earned += self._own_reward()
        return earned

    def _own_reward(self) -> float:
        """The learner's reward from the last AEC step (the team's, if cooperative)."""
        rewards = self.raw.rewards
        if self.cooperative:
            return sum(rewards.values()) / len(rewards)
        return float(rewards[self.raw.possible_agents[self.learner_seat]])

    def _game_over(self) -> bool:
        agent = self.raw.possible_agents[0]
        return self.raw.terminations[agent] or self.raw.truncations[agent]

    def _observe(self) -> np.ndarray:
        """The moving seat's observation (the learner's last seat once the game is over).
        Encoded straight from the AEC env's state and encoder, as its ``observe`` would,
        without the int8 mask and the dict that the learner does not use."""
        raw = self.raw
        over = self._game_over()
        if self.cooperative and not over:
            self.learner_seat = raw.game_state.current_player
        self._mask = np.zeros(raw.game.num_actions, bool)
        if not over:
            self._mask[raw.game_state.legal_actions()] = True
        return raw.encoder.encode(raw.game_state, self.learner_seat)

    def _final_info(self) -> dict[str, Any]:
        returns = [float(r) for r in self.raw.game_state.returns()]
        return {
            "outcome": outcome(returns, self.learner_seat, cooperative=self.cooperative),
            "opponent": self.opponent_names,
            "seat": self.learner_seat,
            "returns": returns,
            "stats": dict(self.raw.game_state.stats()),
        }
