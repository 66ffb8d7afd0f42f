"""Play a game in the terminal against agents, or watch agents play (--watch).

On your turn you see only what your seat may see, and the legal moves numbered; answer
with a number or with the move's text, `help` explains the game's notation and picture,
end of input (Ctrl-D) leaves the game. In card games (Kult, HKK) each card's cost and text
are listed the first time it shows, and `cards` lists them for every card you can see.
Other players' moves and what happens are told as your seat may know them; --watch tells
everything, as a spectator who sees all, one move a second (--pace).

examples:
  tabletop play regicide --players 2
  tabletop play regicide --players 3 --seat 1 --agents heuristic,random --seed 7
  tabletop play regicide --watch --players 2 --pace 0.5
"""

from __future__ import annotations

import argparse
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from tabletop import envs
from tabletop.agents import Agent, agent_specs_help, make_agent, split_agent_specs
from tabletop.cli.options import CommandError, add_game_options, engine_options
from tabletop.envs.core.protocol import Event, Game, IllegalActionError, State, seat_name

HELP_COMMAND = "help"
CARDS_COMMAND = "cards"
ANSWERING = (
    "To answer: type a move's number from the list, or its text as listed; "
    f"'{HELP_COMMAND}' shows this help; Ctrl-D (end of input) leaves the game."
)
CARDS_HELP = f"'{CARDS_COMMAND}' lists the cost and text of every card you can see."
WATCH_PACE = 1.0
"""Seconds ``--watch`` waits after each move by default: a game is followed, not dumped."""


MAX_ANSWER_CHARS = 200
"""The longest answer read, far above any move's text (HKK's longest are under 60
characters): a longer line is refused without being parsed, and quoted only in part."""
QUOTED_CHARS = 40
"""How much of an overlong answer its refusal quotes."""


@dataclass
class Narrator:
    """What the terminal has told its reader, so that nothing is told twice.

    Cards: the cost and text of the cards the reader can see, for a game that offers them
    (optional ``Game.card_descriptions()``: card name -> one line). What the reader can see
    is read off its own picture and move texts, so no hidden card is described: each card
    the first time it shows there, and all of them on ``cards``."""

    lines: dict[str, str]
    described: set[str] = field(default_factory=set)
    events: list[str] = field(default_factory=list)
    """The texts of the events told since the reader's last picture, which that picture
    need not repeat."""

    @classmethod
    def of(cls, game: Game) -> Narrator:
        describe = getattr(game, "card_descriptions", None)
        return cls(dict(describe()) if describe is not None else {})

    def visible(self, seen: str) -> list[str]:
        """The names of described cards in the text ``seen``, in order of appearance;
        the longest name wins where names overlap."""
        if not self.lines:
            return []
        names = sorted(self.lines, key=len, reverse=True)
        pattern = "|".join(rf"(?<!\w){re.escape(name)}(?!\w)" for name in names)
        return list(dict.fromkeys(re.findall(pattern, seen)))

    def picture(self, picture: str) -> str:
        """``picture`` less the lines that restate an event told since the last one (a
        picture may recap the last decision's events, as HKK's ``Last:`` lines do); the
        events told are forgotten."""
        told, self.events = self.events, []
        return "\n".join(
            line for line in picture.splitlines()
            if not any(line == text or line.endswith(f": {text}") for text in told)
        )  # fmt: skip

    def new_lines(self, seen: str) -> list[str]:
        """The lines of the cards in ``seen`` not described yet, now counted as told."""
        fresh = [name for name in self.visible(seen) if name not in self.described]
        self.described.update(fresh)
        return [self.lines[name] for name in fresh]


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
    parser.add_argument(
        "--pace",
        type=float,
        metavar="SECONDS",
        help=f"wait after each agent's move that is told (default {WATCH_PACE:g} with "
        "--watch, else 0)",
    )
    add_game_options(parser)


def run(args: argparse.Namespace) -> int:
    human = None if args.watch else args.seat
    pace = args.pace if args.pace is not None else (WATCH_PACE if args.watch else 0.0)
    if not pace >= 0:  # also refuses nan
        raise CommandError(f"--pace must be 0 or more seconds, got {args.pace}")
    state, seats = _set_up(args, human)
    if not play(state, seats, human, pace):
        print("\nInput closed; game abandoned.")
        return 0
    _print_outcome(state, seats)
    return 0


def _set_up(args: argparse.Namespace, human: int | None) -> tuple[State, list[Seat]]:
    """The starting state and its seats; user mistakes become a ``CommandError``."""
    try:
        game = envs.make_game(args.game, **engine_options(args))
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


def play(state: State, seats: Sequence[Seat], human: int | None, pace: float = 0.0) -> bool:
    """Play ``state`` to the end, telling each move and its events as the ``human`` seat
    may know them (``None``: a spectator, told everything), waiting ``pace`` seconds after
    each agent's move told; False if the human's input ran out first."""
    for seat in seats:
        if seat.agent is not None:
            seat.agent.reset()
    narrator = Narrator.of(state.game)
    print(_table_line(state.game, seats))
    if human is not None:
        cards = f", '{CARDS_COMMAND}' for the cards you can see" if narrator.lines else ""
        print(f"You are {seat_name(state.game, human)}. Type '{HELP_COMMAND}' for help{cards}.")
    while not state.is_terminal():
        move = _next_move(state, seats, human, narrator)
        if move is None:
            return False
        action, announcement = move
        state.apply(action)
        events = state.last_events(human)
        narrator.events += [event.text for event in events]
        if _tell(announcement, events, human is None) and pace:
            time.sleep(pace)
    print(narrator.picture(state.render(human)))
    return True


def _tell(announcement: str, events: Sequence[Event], watching: bool) -> bool:
    """Print a move: the human's own is announced already, and its events follow; an
    agent's move is told by its events, the first of which says what was played (its
    text as well would tell it twice), or by its text when it had none, to a spectator
    only: a decision that told the human nothing (a pause to decide on a hidden card) is
    not announced, since that it was taken would itself be a leak. True if an agent's
    move was told."""
    if announcement and not events and watching:
        print(announcement)
    for event in events:
        print(f"  {event.text}")
    return bool(announcement) and bool(events or watching)


def _next_move(
    state: State, seats: Sequence[Seat], human: int | None, narrator: Narrator
) -> tuple[int, str] | None:
    """The move of the player to move and, for an agent's move, its announcement as
    ``human`` may know it (computed before the move is applied: the text describes a move
    about to be played); None on end of input."""
    player = state.current_player
    agent = seats[player].agent
    if agent is None:
        action = _ask_human(state, player, narrator)
        if action is None:
            return None
        print(f"You play: {state.action_to_string(action, player)}")
        return action, ""
    if human is None:
        print(narrator.picture(state.render()))
    action = agent.act(state, player)
    mover = seat_name(state.game, player, seats[player].label)
    return action, f"{mover}: {state.action_to_string(action, human)}"


def _table_line(game: Game, seats: Sequence[Seat]) -> str:
    return "Seats: " + ", ".join(
        f"{seat_name(game, player)}: {seat.label}" for player, seat in enumerate(seats)
    )


def _ask_human(state: State, player: int, narrator: Narrator) -> int | None:
    """The human's legal action, re-asking until the answer is valid; None on EOF."""
    print()
    picture = state.render(observer=player)
    print(narrator.picture(picture))
    legal = state.legal_actions()
    texts = [state.action_to_string(action, player) for action in legal]
    seen = "\n".join([picture, *texts])
    _print_cards("New cards:", narrator.new_lines(seen))
    print(f"Your legal moves ({seat_name(state.game, player)}):")
    for number, text in enumerate(texts, start=1):
        print(f"  {number:>3}. {text}")
    while True:
        try:
            answer = input(f"Your move (number, text or {HELP_COMMAND}): ").strip()
        except EOFError:
            return None
        if answer.lower() == HELP_COMMAND:
            cards = f" {CARDS_HELP}" if narrator.lines else ""
            print(f"{state.game.help_text()}\n\n{ANSWERING}{cards}")
            continue
        if answer.lower() == CARDS_COMMAND and narrator.lines:
            _print_cards("Cards you can see:", [narrator.lines[n] for n in narrator.visible(seen)])
            continue
        try:
            return parse_move(state, legal, answer, player)
        except IllegalActionError as error:
            print(f"{error}\nEnter a number 1-{len(legal)} or a move's text as listed.")


def _print_cards(title: str, lines: Sequence[str]) -> None:
    if lines:
        print(title)
        for line in lines:
            print(f"  {line}")


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
