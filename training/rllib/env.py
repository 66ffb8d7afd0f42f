"""A tabletop AEC env as an RLlib ``MultiAgentEnv``: every seat of a game in one env.

Only the seat to move is in an observation dict, so RLlib asks exactly that seat for an
action. Agent ids are ``"p{seat}:{module}"``: the env itself decides who holds each seat,
once per game, and RLlib's policy mapping only reads the module back out of the id
(``module_of``). Who holds a seat follows the SB3 trainer's rules:

- a cooperative game: every seat is ``main`` (one shared policy), and each seat's reward
  is the team's, as in ``SingleAgentEnv``;
- a competitive game: the learner's seat (``seat`` = alternate or random) is ``main``; every
  other seat draws from the same ``OpponentPool`` as the SB3 trainer's. A baseline (random,
  heuristic) is stepped inside this env, on the engine state, and RLlib never sees it; a
  snapshot is a frozen RLlib module in a fixed slot (``snapshot_k``, see ``league.py``),
  so its seat is emitted as ``p{seat}:snapshot_k``.

Rewards are collected after every ply, whoever moved, and paid with the seat's next
observation, so nothing is lost (the final -1 of a game lost on the opponent's move
included). When the game ends, every RLlib seat gets a last observation, its reward and
``terminated`` (or ``truncated`` at a ply limit), and an info with the game's figures,
which the env also keeps until the driver takes it (``take_finished_games``).

The observation is RLlib's convention for masking: a dict of the flat encoding
(``observations``) and the legal actions (``action_mask``, 1.0 legal). The env checks every
action it receives against the legal actions it sent and counts them (``actions_checked``);
an illegal one raises ``IllegalActionError`` from the AEC env.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import torch
from ray.rllib.env.multi_agent_env import MultiAgentEnv

from tabletop import envs
from tabletop.agents import Agent
from tabletop.agents.outcome import outcome
from tabletop.training.base_trainer import opponent_pool
from tabletop.training.runs import TrainSettings
from tabletop.wrappers.single_agent import MAX_RESETS_WITHOUT_A_MOVE

MAIN = "main"
"""The learner's module."""
OBSERVATIONS = "observations"
ACTION_MASK = "action_mask"


def snapshot_slots(settings: TrainSettings) -> list[str]:
    """The frozen modules of a competitive run's league: ``max_snapshots`` fixed slots."""
    if settings.cooperative:
        return []
    return [f"snapshot_{k}" for k in range(settings.selfplay.max_snapshots)]


def module_of(agent_id: str, episode: Any = None, **kwargs: Any) -> str:
    """RLlib's policy mapping: the module is the part of the agent id after the colon."""
    return agent_id.split(":", 1)[1]


def seat_of(agent_id: str) -> int:
    return int(agent_id.split(":", 1)[0].removeprefix("p"))


class SnapshotSeat:
    """An opponent-pool entry that is not played here: the RLlib module ``module_id``."""

    def __init__(self, module_id: str) -> None:
        self.module_id = module_id


class TabletopMultiAgentEnv(MultiAgentEnv):
    """``config``: ``settings`` (``TrainSettings.to_json``) and ``seed``."""

    def __init__(self, config: dict[str, Any]) -> None:
        super().__init__()
        torch.set_num_threads(1)
        self.settings = TrainSettings.from_json(config["settings"])
        self.cooperative = self.settings.cooperative
        # An action outside the mask is a bug here, never a move to forfeit (the env's default).
        options = {"illegal_action": "raise", **self.settings.env_options}
        self.aec = envs.make(self.settings.game, **options)
        self.raw = self.aec.unwrapped
        self.num_players = self.raw.game.num_players
        self.num_actions = self.raw.game.num_actions
        self.slots = snapshot_slots(self.settings)
        self.possible_agents = [
            f"p{seat}:{module}"
            for seat in range(self.num_players)
            for module in [MAIN, *self.slots]
        ]
        self.agents = []
        space = self._observation_space()
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        action_space = gymnasium.spaces.Discrete(self.num_actions)
        self.action_spaces = dict.fromkeys(self.possible_agents, action_space)
        self.rng = np.random.default_rng(config["seed"])
        self.pool = opponent_pool(self.settings, config["seed"])
        self.games_started = 0
        self.actions_checked = 0
        self.learner_seat = 0
        self.seat_ids: list[str | None] = []
        self.seat_agents: list[Agent | None] = []
        self.opponent_names = ""
        self._pending: dict[str, float] = {}
        self._finished: list[dict[str, Any]] = []
        self._legal = np.zeros(self.num_actions, bool)

    def _observation_space(self) -> gymnasium.spaces.Dict:
        encoded = self.raw.observation_space(self.raw.possible_agents[0])["observation"]
        size = int(np.prod(encoded.shape))
        return gymnasium.spaces.Dict(
            {
                OBSERVATIONS: gymnasium.spaces.Box(-np.inf, np.inf, (size,), np.float32),
                ACTION_MASK: gymnasium.spaces.Box(0.0, 1.0, (self.num_actions,), np.float32),
            }
        )

    def set_filled_snapshots(self, module_ids: list[str]) -> None:
        """The league's slots that hold a snapshot now; the pool draws among them."""
        if self.pool is None:
            return
        self.pool.snapshots.clear()
        for module_id in module_ids:
            self.pool.add_snapshot(f"self@{module_id}", SnapshotSeat(module_id))

    def take_finished_games(self) -> list[dict[str, Any]]:
        """The final infos of the games finished since the last call (for the driver)."""
        games, self._finished = self._finished, []
        return games

    # ----- MultiAgentEnv --------------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        if seed is not None:
            self.rng = np.random.default_rng(seed)
        game_seed = None if seed is None else int(self.rng.integers(2**63))
        for _ in range(MAX_RESETS_WITHOUT_A_MOVE):
            self.aec.reset(seed=game_seed)
            game_seed = None
            self._seat_players()
            self._play_baselines()
            if not self._over():
                self.agents = [agent for agent in self.seat_ids if agent is not None]
                mover = self._mover()
                return {mover: self._observe(mover)}, {}
        raise RuntimeError(
            f"{MAX_RESETS_WITHOUT_A_MOVE} games in a row ended before a learner's first move"
        )

    def step(self, action_dict: dict[str, int]) -> tuple[dict, dict, dict, dict, dict]:
        mover = self._mover()
        if set(action_dict) != {mover}:
            raise ValueError(f"expected an action of {mover} alone, got {sorted(action_dict)}")
        self._apply(int(action_dict[mover]))
        self._play_baselines()
        if not self._over():
            mover = self._mover()
            no = {"__all__": False}
            return {mover: self._observe(mover)}, {mover: self._take(mover)}, no, no, {}
        return self._game_end()

    # ----- inside a game --------------------------------------------------------------------

    def _seat_players(self) -> None:
        """Who holds each seat this game: the learner, a baseline or a snapshot module."""
        self.games_started += 1
        n = self.num_players
        self.seat_agents = [None] * n
        if self.cooperative:
            self.seat_ids = [f"p{seat}:{MAIN}" for seat in range(n)]
            self.opponent_names = "self"
        else:
            self.learner_seat = self._pick_learner_seat()
            self.seat_ids, names = [None] * n, []
            for seat in range(n):
                if seat == self.learner_seat:
                    self.seat_ids[seat] = f"p{seat}:{MAIN}"
                    continue
                name, agent = self.pool.sample(self.rng)
                names.append(name)
                if isinstance(agent, SnapshotSeat):
                    self.seat_ids[seat] = f"p{seat}:{agent.module_id}"
                else:
                    self.seat_agents[seat] = agent
            self.opponent_names = ",".join(names)
            for agent in {id(a): a for a in self.seat_agents if a is not None}.values():
                agent.reset()
        self._pending = {agent: 0.0 for agent in self.seat_ids if agent is not None}

    def _pick_learner_seat(self) -> int:
        if self.settings.seat == "random":
            return int(self.rng.integers(self.num_players))
        return (self.games_started - 1) % self.num_players

    def _apply(self, action: int) -> None:
        """One RLlib seat's action, checked against the mask it was sent."""
        self.actions_checked += 1
        self.raw.step(action)  # raises IllegalActionError for an action outside the mask
        self._collect_rewards()

    def _play_baselines(self) -> None:
        """Step the seats played inside the env until an RLlib seat moves or the game ends."""
        while not self._over():
            seat = self.raw.game_state.current_player
            agent = self.seat_agents[seat]
            if agent is None:
                return
            self.raw.step(agent.act(self.raw.game_state, seat))
            self._collect_rewards()

    def _collect_rewards(self) -> None:
        rewards = self.raw.rewards
        team = sum(rewards.values()) / len(rewards)
        for seat, agent_id in enumerate(self.seat_ids):
            if agent_id is not None:
                own = float(rewards[self.raw.possible_agents[seat]])
                self._pending[agent_id] += team if self.cooperative else own

    def _take(self, agent_id: str) -> float:
        reward, self._pending[agent_id] = self._pending[agent_id], 0.0
        return reward

    def _over(self) -> bool:
        first = self.raw.possible_agents[0]
        return self.raw.terminations[first] or self.raw.truncations[first]

    def _mover(self) -> str:
        return self.seat_ids[self.raw.game_state.current_player]

    def _observe(self, agent_id: str) -> dict[str, np.ndarray]:
        seat = seat_of(agent_id)
        state = self.raw.game_state
        mask = np.zeros(self.num_actions, np.float32)
        if not self._over() and state.current_player == seat:
            mask[state.legal_actions()] = 1.0
        encoded = self.raw.encoder.encode(state, seat)
        return {OBSERVATIONS: encoded.astype(np.float32, copy=False).reshape(-1), ACTION_MASK: mask}

    def _game_end(self) -> tuple[dict, dict, dict, dict, dict]:
        terminated = any(self.raw.terminations.values())
        agents = [agent for agent in self.seat_ids if agent is not None]
        info = self._final_info()
        self._finished.append(info)
        observations = {agent: self._observe(agent) for agent in agents}
        rewards = {agent: self._take(agent) for agent in agents}
        terminateds = dict.fromkeys(agents, terminated) | {"__all__": terminated}
        truncateds = dict.fromkeys(agents, not terminated) | {"__all__": not terminated}
        infos = {agent: info for agent in agents}
        return observations, rewards, terminateds, truncateds, infos

    def _final_info(self) -> dict[str, Any]:
        """The game's figures, from the learner's seat (the first seat in a cooperative
        game), in the same keys as ``SingleAgentEnv``'s final info."""
        returns = [float(r) for r in self.raw.game_state.returns()]
        seat = 0 if self.cooperative else self.learner_seat
        return {
            "outcome": outcome(returns, seat, cooperative=self.cooperative),
            "opponent": self.opponent_names,
            "seat": seat,
            "returns": returns,
            "stats": dict(self.raw.game_state.stats()),
        }
