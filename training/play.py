"""Play a game in the terminal against agents, or watch agents play (--watch).

On your turn you see only what your seat may see, and the legal moves numbered; answer
with a number or with the move's text, `help` explains the game's notation and picture,
end of input (Ctrl-D) leaves the game. Other players' moves and what happens are told as
your seat may know them; --watch tells everything, as a spectator who sees all.

examples:
  tabletop play regicide --players 2
  tabletop play regicide --players 3 --seat 1 --agents heuristic,random --seed 7
  tabletop play regicide --watch --players 2
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import dataclass

from tabletop import envs
from tabletop.agents import Agent, agent_specs_help, make_agent, split_agent_specs
from tabletop.envs.core.protocol import Game, IllegalActionError, State
from tabletop.training.commandline import (
    CommandError,
    add_game_options,
    game_options,
    seat_name,
)

HELP_COMMAND = "help"
ANSWERING = (
    "To answer: type a move's number from the list, or its text as listed; "
    f"'{HELP_COMMAND}' shows this help; Ctrl-D (end of input) leaves the game."
)


MAX_ANSWER_CHARS = 200
"""The longest answer read, far above any move's text (HKK's longest are under 60
characters): a longer line is refused without being parsed, and quoted only in part."""
QUOTED_CHARS = 40
"""How much of an overlong answer its refusal quotes."""


@dataclass
class Seat:
    """Who sits at a seat: a label for printing and, unless it is the human, an agent."""

    label: str
    agent: Agent | None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", help="game name, e.g. regicide")
    parser.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    parser.add_argument(
        "--agents",
        default="heuristic",
        help="comma-separated agents for the other seats in seat order, or one for all "
        f"(default heuristic). Agents: {agent_specs_help()}",
    )
    parser.add_argument("--seed", type=int, default=None, help="seed of the game and agents")
    parser.add_argument(
        "--watch", action="store_true", help="agents play every seat; print the whole game"
    )
    add_game_options(parser)


def run(args: argparse.Namespace) -> int:
    human = None if args.watch else args.seat
    state, seats = _set_up(args, human)
    if not play(state, seats, human):
        print("\nInput closed; game abandoned.")
        return 0
    _print_outcome(state, seats)
    return 0


def _set_up(args: argparse.Namespace, human: int | None) -> tuple[State, list[Seat]]:
    """The starting state and its seats; user mistakes become a ``CommandError``."""
    try:
        game = envs.make_game(args.game, **game_options(args))
        seats = _seats(args.agents, args.game, game.num_players, human, args.seed)
        return game.new_state(seed=args.seed), seats
    except (KeyError, ValueError, TypeError, FileNotFoundError) as error:
        raise CommandError(error.args[0] if error.args else error) from error


def _seats(
    agents_spec: str, game_name: str, num_players: int, human_seat: int | None, seed: int | None
) -> list[Seat]:
    if human_seat is not None and not 0 <= human_seat < num_players:
        raise ValueError(f"--seat must be in 0..{num_players - 1}, got {human_seat}")
    agent_seats = [seat for seat in range(num_players) if seat != human_seat]
    specs = split_agent_specs(agents_spec)
    if len(specs) == 1:
        specs *= len(agent_seats)
    if len(specs) != len(agent_seats):
        raise ValueError(f"--agents names {len(specs)} agents for {len(agent_seats)} seats")
    seats = [Seat("you", None)] * num_players
    for seat, spec in zip(agent_seats, specs, strict=True):
        agent_seed = None if seed is None else seed + 1 + seat
        seats[seat] = Seat(spec, make_agent(spec, game_name, agent_seed))
    return seats


def play(state: State, seats: Sequence[Seat], human: int | None) -> bool:
    """Play ``state`` to the end, telling each move and its events as the ``human`` seat
    may know them (``None``: a spectator, told everything); False if the human's input ran
    out first."""
    for seat in seats:
        if seat.agent is not None:
            seat.agent.reset()
    print(_table_line(state.game, seats))
    if human is not None:
        print(f"You are {seat_name(state.game, human)}. Type '{HELP_COMMAND}' for help.")
    while not state.is_terminal():
        move = _next_move(state, seats, human)
        if move is None:
            return False
        action, announcement = move
        state.apply(action)
        events = state.last_events(human)
        # Another player's decision that told the human nothing (e.g. a pause to decide on
        # a hidden card) is not announced: that it was taken would itself be a leak.
        if announcement and (events or human is None):
            print(announcement)
        for event in events:
            print(f"  {event.text}")
    print(state.render(human))
    return True


def _next_move(state: State, seats: Sequence[Seat], human: int | None) -> tuple[int, str] | None:
    """The move of the player to move and, for an agent's move, its announcement as
    ``human`` may know it (computed before the move is applied: the text describes a move
    about to be played); None on end of input."""
    player = state.current_player
    agent = seats[player].agent
    if agent is None:
        action = _ask_human(state, player)
        if action is None:
            return None
        print(f"You play: {state.action_to_string(action, player)}")
        return action, ""
    if human is None:
        print(state.render())
    action = agent.act(state, player)
    mover = seat_name(state.game, player, seats[player].label)
    return action, f"{mover}: {state.action_to_string(action, human)}"


def _table_line(game: Game, seats: Sequence[Seat]) -> str:
    return "Seats: " + ", ".join(
        f"{seat_name(game, player)}: {seat.label}" for player, seat in enumerate(seats)
    )


def _ask_human(state: State, player: int) -> int | None:
    """The human's legal action, re-asking until the answer is valid; None on EOF."""
    print()
    print(state.render(observer=player))
    legal = state.legal_actions()
    print(f"Your legal moves ({seat_name(state.game, player)}):")
    for number, action in enumerate(legal, start=1):
        print(f"  {number:>3}. {state.action_to_string(action, player)}")
    while True:
        try:
            answer = input(f"Your move (number, text or {HELP_COMMAND}): ").strip()
        except EOFError:
            return None
        if answer.lower() == HELP_COMMAND:
            print(f"{state.game.help_text()}\n\n{ANSWERING}")
            continue
        try:
            return parse_move(state, legal, answer, player)
        except IllegalActionError as error:
            print(f"{error}\nEnter a number 1-{len(legal)} or a move's text as listed.")


def parse_move(state: State, legal: Sequence[int], answer: str, player: int | None = None) -> int:
    """The legal action meant by ``answer``; ``IllegalActionError`` saying why if none.

    A text as listed to ``player`` wins over a menu number, so games whose moves read like
    numbers still work; other spellings go to the engine's ``string_to_action``. A menu
    number is ASCII digits only: ``str.isdigit`` also accepts ``²``, which ``int`` refuses.
    """
    if not answer:
        raise IllegalActionError("No move was typed.")
    if len(answer) > MAX_ANSWER_CHARS:
        raise IllegalActionError(
            f"That answer is {len(answer):,} characters long; no move's text is longer than "
            f"{MAX_ANSWER_CHARS} ({answer[:QUOTED_CHARS]!r}...)."
        )
    by_text = {state.action_to_string(action, player): action for action in legal}
    if answer in by_text:
        return by_text[answer]
    if answer.isascii() and answer.isdigit():
        if not 1 <= int(answer) <= len(legal):
            raise IllegalActionError(f"There is no move number {answer}.")
        return legal[int(answer) - 1]
    action = state.string_to_action(answer)
    if action not in legal:
        raise IllegalActionError(f"{state.action_to_string(action)!r} is not legal now.")
    return action


def _print_outcome(state: State, seats: Sequence[Seat]) -> None:
    print("\nGame over.")
    for player, game_return in enumerate(state.returns()):
        print(f"  {seat_name(state.game, player, seats[player].label)}: return {game_return:+g}")
    for name, value in state.stats().items():
        print(f"  {name}: {value:g}" if isinstance(value, int | float) else f"  {name}: {value}")
