"""The league on the env runners: which snapshot slots a game may seat, and the finished
games' figures fetched back to the driver.

Snapshots live in fixed module slots (``snapshot_0`` ...) from the start, so the set of
modules, the checkpoints and a restarted runner never change shape. A slot is filled when
the driver copies the learner into it, with the learner's step in the module's
``snapshot_step`` buffer; before each game the env is told which slots are filled, and
its opponent pool draws by the SB3 trainer's rule (``wrappers/opponents.py``).

Finished games are not sent through RLlib's metrics: a metric's kind is restored from a
checkpoint, and a resumed run reported only the last game of each iteration. Each env
keeps its finished games' infos, and the driver takes them after every iteration.
"""

from __future__ import annotations

from typing import Any

from ray.rllib.callbacks.callbacks import RLlibCallback
from ray.rllib.env.env_runner_group import EnvRunnerGroup


class LeagueCallback(RLlibCallback):
    def on_episode_created(
        self, *, env: Any, rl_module: Any, env_index: int, **kwargs: Any
    ) -> None:
        game_env = env.envs[env_index].unwrapped
        if rl_module is None or not game_env.slots:
            return
        filled = [slot for slot in game_env.slots if int(rl_module[slot].snapshot_step) >= 0]
        game_env.set_filled_snapshots(filled)


def _take_finished_games(runner: Any) -> list[dict[str, Any]]:
    """The final infos of the games a runner's envs finished since the last call (a
    runner that samples nothing, such as the driver's beside remote runners, has none)."""
    vector_env = getattr(runner, "env", None)
    if vector_env is None:
        return []
    games: list[dict[str, Any]] = []
    for env in vector_env.envs:
        games.extend(env.unwrapped.take_finished_games())
    return games


def finished_games(runners: EnvRunnerGroup) -> list[dict[str, Any]]:
    """Every runner's finished games since the last call; a lost runner's are lost."""
    per_runner = runners.foreach_env_runner(_take_finished_games, local_env_runner=True)
    return [game for games in per_runner for game in games]
