"""The ``tabletop`` command: one argparse front end, one module per subcommand.

Each subcommand module provides ``add_arguments(parser)`` and ``run(args) -> int`` and its
docstring's first line as help, so adding ``train`` or ``eval`` later is one line in
``SUBCOMMANDS``. Subcommand modules are imported only when the parser is built, which lets
them import the shared helpers below without an import cycle.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from typing import Any

SUBCOMMANDS: dict[str, str] = {
    "play": "tabletop.training.play",
    "bench": "tabletop.training.bench",
    "train": "tabletop.training.train",
    "eval": "tabletop.training.evaluate",
}
"""Subcommand name -> module implementing it."""


class CommandError(Exception):
    """A problem the user can fix on the command line; shown without a traceback."""


OptionScalar = bool | int | float | str
OptionValue = OptionScalar | tuple[OptionScalar, ...]


def parse_option_value(text: str) -> OptionValue:
    """``"true"`` -> True, ``"2"`` -> 2, ``"0.5"`` -> 0.5, anything else stays text (a path
    too); a comma makes a tuple of such items, so options that take several values are
    writable on a command line: ``"warrior,mage"`` -> ("warrior", "mage"), ``"3,"`` -> (3,)."""
    if "," not in text:
        return _parse_scalar(text)
    items = [item.strip() for item in text.split(",")]
    if items[-1] == "":
        items.pop()  # a trailing comma: a one-item tuple, as in Python
    if "" in items:
        raise ValueError(f"empty item in the list {text!r}")
    return tuple(_parse_scalar(item) for item in items)


def _parse_scalar(text: str) -> OptionScalar:
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    for number_type in (int, float):
        try:
            return number_type(text)
        except ValueError:
            pass
    return text


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


def game_options(args: argparse.Namespace) -> dict[str, Any]:
    """The game-option keyword arguments given by ``add_game_options`` flags."""
    options: dict[str, Any] = dict(args.option)
    if args.players is not None:
        options["num_players"] = args.players
    return options


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tabletop", description="Tabletop-game reinforcement-learning environments."
    )
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, module_name in SUBCOMMANDS.items():
        module = importlib.import_module(module_name)
        summary = (module.__doc__ or "").strip().splitlines()[0]
        subparser = subparsers.add_parser(
            name,
            help=summary,
            description=module.__doc__,
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        module.add_arguments(subparser)
        subparser.set_defaults(run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``tabletop`` console script; returns the exit status."""
    args = build_parser().parse_args(argv)
    try:
        return args.run(args)
    except CommandError as error:
        print(f"tabletop {args.command}: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
