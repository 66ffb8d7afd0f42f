"""Replay a recorded game move by move, as a spectator who sees everything.

FILE is a game-record file (JSON lines) as `tabletop eval --out` (games.jsonl) and
`tabletop search --log` write. The game is rebuilt from its name, options and seed and the
recorded actions are played again; each move's text must read as it did when the game was
played, and the returns must come out the same, or the replay stops and says where it
diverged (another version of the rules or of their notation).

examples:
  tabletop replay runs/eval/games.jsonl
  tabletop replay solo.jsonl --game-index 3
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from tabletop import envs
from tabletop.cli.options import CommandError
from tabletop.envs.core.protocol import State, seat_name
from tabletop.matches.records import GAMES_LOG, GameRecord, RecordError, read_records
from tabletop.matches.results import format_options


class ReplayDivergedError(ValueError):
    """The recorded game does not replay the same way on these rules."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help="a game-record file (JSON lines)")
    parser.add_argument(
        "--game-index",
        type=int,
        default=0,
        metavar="N",
        help="which game of the file, counted from 0 (default 0)",
    )


def run(args: argparse.Namespace) -> int:
    try:
        record = _pick(_read(Path(args.file)), args.game_index, args.file)
        replay(record)
    except (OSError, ValueError, TypeError) as error:
        raise CommandError(str(error)) from error
    return 0


def _read(path: Path) -> list[GameRecord]:
    """The records of ``path``; errors that say what a game-record file is."""
    if path.is_dir():
        inside = path / GAMES_LOG
        hint = f": {inside} is one" if inside.is_file() else ""
        raise RecordError(f"{path} is a directory, not a game-record file{hint}")
    if not path.exists():
        raise RecordError(f"no game-record file at {path}")
    try:
        return read_records(path)
    except UnicodeDecodeError:
        raise RecordError(
            f"{path} is not a game-record file: not text (records are JSON lines)"
        ) from None


def _pick(records: Sequence[GameRecord], index: int, path: str) -> GameRecord:
    if not records:
        raise RecordError(f"{path} holds no game records")
    if not 0 <= index < len(records):
        raise ValueError(
            f"{path} holds {len(records)} games: --game-index must be in 0..{len(records) - 1}"
        )
    return records[index]


def replay(record: GameRecord) -> State:
    """Print ``record``'s game move by move, checking it as the module docstring says;
    the final state."""
    game = envs.make_game(record.game, **record.options)
    state = game.new_state(seed=record.seed)
    print(f"{record.game} ({format_options(record.options)}), seed {record.seed}")
    print("Seats: " + ", ".join(_seat(state, seat, record) for seat in range(game.num_players)))
    for ply, (action, text) in enumerate(zip(record.actions, record.action_texts, strict=True)):
        _check_move(state, ply, action, text)
        print(f"{ply + 1:>4}. {_seat(state, state.current_player, record)}: {text}")
        state.apply(action)
        for event in state.last_events(None):
            print(f"        {event.text}")
    _check_end(state, record)
    print(state.render())
    print("Game over.")
    for seat, game_return in enumerate(record.returns):
        print(f"  {_seat(state, seat, record)}: return {game_return:+g}")
    for name, value in record.stats.items():
        print(f"  {name}: {value:g}")
    return state


def _seat(state: State, seat: int, record: GameRecord) -> str:
    return seat_name(state.game, seat, record.seats[seat])


def _check_move(state: State, ply: int, action: int, text: str) -> None:
    """Move ``ply`` is legal here and reads as recorded."""
    where = f"move {ply + 1}"
    if state.is_terminal():
        raise ReplayDivergedError(f"{where}: the game is already over, the record goes on")
    if action not in state.legal_actions():
        raise ReplayDivergedError(f"{where}: action {action} ({text!r}) is not legal here")
    replayed = state.action_to_string(action)
    if replayed != text:
        raise ReplayDivergedError(
            f"{where}: recorded as {text!r}, but action {action} reads {replayed!r} here"
        )


def _check_end(state: State, record: GameRecord) -> None:
    """The replay ended where the recorded game did, with its returns."""
    if not state.is_terminal():
        raise ReplayDivergedError(
            f"after the {len(record.actions)} recorded moves the game is not over"
        )
    returns = tuple(float(r) for r in state.returns())
    if returns != record.returns:
        raise ReplayDivergedError(f"the replay returns {returns}, the record {record.returns}")
