"""The ``tabletop`` command: one argparse front end, one module per subcommand.

Each subcommand module provides ``add_arguments(parser)`` and ``run(args) -> int`` and its
docstring's first line as help, so a new subcommand is one line in ``SUBCOMMANDS``. The
pieces they share (``CommandError``, game-option flags) live in ``options``, below them.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence
from types import ModuleType

from tabletop.cli import (
    balance,
    bench,
    evaluate,
    games,
    info,
    ladder,
    play,
    replay,
    search,
    serve,
    train,
    webload,
)
from tabletop.cli.options import CommandError

SUBCOMMANDS: dict[str, ModuleType] = {
    "play": play,
    "bench": bench,
    "train": train,
    "eval": evaluate,
    "ladder": ladder,
    "search": search,
    "balance": balance,
    "replay": replay,
    "games": games,
    "info": info,
    "serve": serve,
    "web-load": webload,
}
"""Subcommand name -> module implementing it."""


def build_parser() -> argparse.ArgumentParser:
    """The ``tabletop`` parser; each subcommand's parser is its ``subparser`` default, so
    that a mistake in a subcommand's flags is answered with that subcommand's usage."""
    parser = argparse.ArgumentParser(
        prog="tabletop", description="Tabletop-game reinforcement-learning environments."
    )
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, module in SUBCOMMANDS.items():
        doc = plain_text(module.__doc__ or "")
        subparser = subparsers.add_parser(
            name,
            help=doc.strip().splitlines()[0],
            description=doc,
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        module.add_arguments(subparser)
        subparser.set_defaults(run=module.run, subparser=subparser)
    return parser


def plain_text(docstring: str) -> str:
    """A docstring as help text: reStructuredText's ``literal`` marks dropped."""
    return re.sub(r"``(.+?)``", r"\1", docstring, flags=re.DOTALL)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``tabletop`` console script; returns the exit status."""
    args, unknown = build_parser().parse_known_args(argv)
    if unknown:  # exits with the subcommand's usage, as argparse does for the top level
        args.subparser.error(f"unrecognized arguments: {' '.join(unknown)}")
    try:
        return args.run(args)
    except CommandError as error:
        print(f"tabletop {args.command}: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
