"""Command-line pieces every ``tabletop`` subcommand shares: the user-facing error and the
game-option flags (their values read by ``envs.core.options``).

Kept apart from the entry point (``main``), which imports the subcommands: a subcommand
imports these from here, below itself, so no module imports the one that imports it.
"""

from __future__ import annotations

import argparse
from typing import Any

from tabletop import envs
from tabletop.agents import agent_identity, split_agent_specs
from tabletop.envs.core.options import OptionValue, parse_option_value
from tabletop.envs.core.spec import ENV_OPTIONS, PLAYERS_OPTION


class CommandError(Exception):
    """A problem the user can fix on the command line; shown without a traceback."""


def split_key_value(text: str) -> tuple[str, str]:
    """``"key=value"`` as an argparse type, the value left as text; a malformed pair is a
    usage error."""
    key, separator, value = text.partition("=")
    if not separator or not key.strip():
        raise argparse.ArgumentTypeError(f"expected key=value, got {text!r}")
    return key.strip(), value.strip()


def parse_option(text: str) -> tuple[str, OptionValue]:
    """``"key=value"`` with the value parsed by ``parse_option_value``, as an argparse type."""
    key, value = split_key_value(text)
    try:
        return key, parse_option_value(value)
    except ValueError as error:
        raise argparse.ArgumentTypeError(f"{key}: {error}") from None


def add_game_options(parser: argparse.ArgumentParser) -> None:
    """Flags that configure a game: the common ``--players`` and generic ``--option``."""
    group = parser.add_argument_group("game options")
    group.add_argument("--players", type=int, metavar="N", help="number of players")
    group.add_argument(
        "--option",
        type=parse_option,
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="any game option (repeatable): true/false, a number, text or a path, or a "
        "comma-separated list of them, which the game gets as a tuple: --option solo_yield=true, "
        "--option decks=warrior,mage (a trailing comma makes a one-item list: decks=warrior,)",
    )


def agents_match(args: argparse.Namespace) -> tuple[str, list[str], dict[str, Any]]:
    """The registered game name, the ``--agents`` specs (``split_agent_specs``) and the
    ``engine_options`` of a command that plays agents against each other (eval, ladder).
    An agent named twice, in any spelling (``agent_identity``), is a ``ValueError``: its
    games against itself would count for two agents."""
    specs = split_agent_specs(args.agents)
    if len({agent_identity(spec) for spec in specs}) != len(specs):
        raise ValueError(f"--agents names an agent twice: {args.agents}")
    return envs.spec(args.game).name, specs, engine_options(args)


def game_options(args: argparse.Namespace) -> dict[str, Any]:
    """The game-option keyword arguments given by ``add_game_options`` flags. A game
    with a fixed player count takes no player option: ``--players`` may only name that
    count, any other is a ``CommandError`` that says it."""
    options: dict[str, Any] = dict(args.option)
    if args.players is not None and _takes_player_count(getattr(args, "game", None), args.players):
        options[PLAYERS_OPTION] = args.players
    return options


def engine_options(args: argparse.Namespace) -> dict[str, Any]:
    """``game_options`` for a command that plays the rules engine itself (eval, play,
    search, balance): an env option there (``encoder``, ``max_plies``, ...) is a
    ``CommandError`` saying where it belongs, not the engine's "unknown option"."""
    options = game_options(args)
    if given := sorted(ENV_OPTIONS & set(options)):
        raise CommandError(
            f"{', '.join(given)}: an env option, which `tabletop train` takes; this command "
            "plays the game's engine, and a policy reads its encoder from its own file"
        )
    return options


def _takes_player_count(game: str | None, players: int) -> bool:
    """Whether ``game`` takes ``--players``; False for its own fixed count."""
    try:
        spec = envs.spec(game) if game is not None else None
    except ValueError:
        return True  # an unknown game: the command says so when it builds the game
    if spec is None or PLAYERS_OPTION in spec.options:
        return True
    if players != spec.min_players:
        raise CommandError(
            f"{spec.name} is played by exactly {spec.min_players} players, not {players}"
        )
    return False
