"""Show one game's declared spec: players, payoff, actions, encoders, options, bench settings.

The action count and the encoders' observation shapes are those of the game built with the
given options (--players, --option), by default of the default game. The options are the
game's own and the env's (the encoder, truncation, illegal actions, rendering), which
`tabletop train` takes with --option too (e.g. --option encoder=entity).

examples:
  tabletop info regicide
  tabletop info regicide --players 4
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from typing import Any

from tabletop import envs
from tabletop.cli.games import players_text, yes_no
from tabletop.cli.options import CommandError, add_game_options, game_options
from tabletop.envs.core.aec import DEFAULT_ILLEGAL_ACTION, ILLEGAL_ACTION_MODES
from tabletop.envs.core.protocol import Game
from tabletop.envs.core.spec import GameSpec
from tabletop.matches.results import format_table


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", help="registered game name, e.g. regicide")
    add_game_options(parser)


def run(args: argparse.Namespace) -> int:
    try:
        spec = envs.spec(args.game)
        options = game_options(args)
        game = spec.new_game(**options)
    except (ValueError, TypeError, FileNotFoundError) as error:
        raise CommandError(str(error)) from error
    print(spec_text(spec, game, options))
    return 0


def spec_text(spec: GameSpec, game: Game, options: dict[str, Any]) -> str:
    """The whole spec of ``spec``'s game, with ``game`` (built with ``options``) giving the
    action count and observation shapes."""
    competitive = "seats play against each other" if spec.competitive else "one team"
    lines = [
        f"{spec.title}: {spec.name} (env {spec.env_name})",
        f"players: {players_text(spec)}",
        f"payoff: {spec.payoff.value} ({competitive})",
        f"actions: {game.num_actions} (with options: {_settings_text(options)})",
        f"chance: {yes_no(spec.chance)}",
        f"hidden information: {yes_no(spec.hidden_information)}",
        f"max_plies: {spec.max_plies} (the env's truncation)",
        "",
        "encoders:",
        _encoder_table(spec, game),
        "",
        "options:",
        _option_table(spec),
        "",
        "env options (of every game's env; `tabletop train` takes them with --option):",
        _env_option_table(spec),
        "",
        "bench settings:",
        *(f"  {_settings_text(setting)}" for setting in spec.bench_options),
    ]
    return "\n".join(lines)


def _encoder_table(spec: GameSpec, game: Game) -> str:
    rows = [
        [name, str(encoder.version), str(encoder.shape(game))]
        for name, encoder in spec.encoders.items()
    ]
    return format_table(["encoder", "version", "observation shape"], rows)


def _option_table(spec: GameSpec) -> str:
    rows = [[option.name, option_text(option.default), option.help] for option in spec.option_specs]
    return format_table(["option", "default", "help"], rows or [["-", "-", "-"]])


def _env_option_table(spec: GameSpec) -> str:
    """The options every env constructor takes besides the game's (``ENV_OPTIONS``)."""
    rows = [
        ["encoder", "flat", "the observation: " + ", ".join(spec.encoders)],
        ["max_plies", str(spec.max_plies), "decisions before the env truncates the game"],
        ["illegal_action", DEFAULT_ILLEGAL_ACTION,
         "what an illegal action does: " + " or ".join(ILLEGAL_ACTION_MODES)],
        ["render_mode", "None", "render(): " + " or ".join(spec.render_modes)],
    ]  # fmt: skip
    return format_table(["option", "default", "help"], rows)


def option_text(value: Any) -> str:
    """An option value as ``--option`` takes it: a tuple comma-separated."""
    if isinstance(value, tuple):
        return ",".join(map(str, value)) + ("," if len(value) == 1 else "")
    return str(value)


def _settings_text(options: Mapping[str, Any]) -> str:
    return " ".join(f"{key}={option_text(value)}" for key, value in options.items()) or "-"
