"""The league on the env runners: which snapshot slots a game may seat, and the finished
games' figures sent back to the driver.

Snapshots live in fixed module slots (``snapshot_0`` ...) from the start, so the set of
modules, the checkpoints and a restarted runner never change shape. A slot is filled when
the driver copies the learner into it, with the learner's step in the module's
``snapshot_step`` buffer; before each game the env is told which slots are filled, and
its opponent pool draws by the SB3 trainer's rule (``wrappers/opponents.py``).
"""

from __future__ import annotations

from typing import Any

from ray.rllib.callbacks.callbacks import RLlibCallback

GAMES_METRIC = ("tabletop", "games")
"""Where each finished game's final info is logged (an item series, emptied per iteration)."""


class LeagueCallback(RLlibCallback):
    def on_episode_created(
        self, *, env: Any, rl_module: Any, env_index: int, **kwargs: Any
    ) -> None:
        game_env = env.envs[env_index].unwrapped
        if rl_module is None or not game_env.slots:
            return
        filled = [slot for slot in game_env.slots if int(rl_module[slot].snapshot_step) >= 0]
        game_env.set_filled_snapshots(filled)

    def on_episode_end(self, *, episode: Any, metrics_logger: Any, **kwargs: Any) -> None:
        for infos in episode.get_infos().values():
            if infos and "outcome" in infos[-1]:
                metrics_logger.log_value(GAMES_METRIC, infos[-1], reduce="item_series")
                return


def finished_games(result: dict[str, Any]) -> list[dict[str, Any]]:
    """The final infos of the games an iteration finished, from ``Algorithm.train()``'s
    result."""
    games: Any = result.get("env_runners", {})
    for key in GAMES_METRIC:
        games = games.get(key, {}) if isinstance(games, dict) else {}
    return list(games) if isinstance(games, list) else []
