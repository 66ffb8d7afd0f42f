"""List the registered games: env, players, payoff kind, actions, chance, hidden information.

Every figure is read from the game's declared spec (``tabletop.envs.spec``); the action
count is that of the game with its default options. `tabletop info GAME` shows one game
in full.
"""

from __future__ import annotations

import argparse

from tabletop import envs
from tabletop.envs.core.spec import GameSpec
from tabletop.matches.results import format_table

HEADERS = ("game", "env", "title", "players", "payoff", "actions", "chance", "hidden information")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """No options: the table covers every registered game."""


def run(args: argparse.Namespace) -> int:
    print(games_table())
    return 0


def games_table() -> str:
    """One row per registered game, in name order."""
    return format_table(HEADERS, [_row(envs.spec(name)) for name in envs.names()])


def _row(spec: GameSpec) -> list[str]:
    return [
        spec.name,
        spec.env_name,
        spec.title,
        players_text(spec),
        spec.payoff.value,
        str(spec.new_game().num_actions),
        yes_no(spec.chance),
        yes_no(spec.hidden_information),
    ]


def players_text(spec: GameSpec) -> str:
    """``"2"``, or ``"1-4 (default 2)"`` for a game whose player count is an option."""
    if spec.min_players == spec.max_players:
        return str(spec.min_players)
    return f"{spec.min_players}-{spec.max_players} (default {spec.default_players})"


def yes_no(flag: bool) -> str:
    return "yes" if flag else "no"
