"""Balance lab for card games: every pair of decks, seats swapped; win matrix and card figures.

  tabletop balance gold_and_dust
  tabletop balance gold_and_dust --agent ismcts:iterations=100 --games 10 --workers 2
  tabletop balance gold_and_dust --decks warrior,mage,my/deck.toml --option pool=my/pool.toml

A card game declares its packaged decks in its spec (``GameSpec.decks``) and takes a deck
per seat through its ``decks`` option; --decks plays a chosen list instead (packaged names or
deck files, a file named by its stem). Every ordered pair of different decks plays --games
deals (seeds --seed, --seed + 1, ...), so each deal is played once from each seating; the same
agent spec holds both seats. Mirror matches are not played: the diagonal stays empty.

Printed (and saved with --out as balance.json, balance.png and the game records
games.jsonl, which ``tabletop replay`` shows): the deck-vs-deck matrix (row deck's wins
against the column deck with a 95% Wilson interval, and its draws), each deck's mean win
rate against the others, how often the seat that moves first wins (the seat of the game's
first decision) and how often seat 0 wins, the mean game length (plies and stats()),
and per card: how often its owner played it and the owner's win rate in games where it was
played and in games where it was not. Card plays are read from the game's ``card_played``
events (``last_events(None)``, data ``player`` and ``card``); a card counts for the decks
that played it at least once in the run.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import sys
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from tabletop import envs
from tabletop.agents import agent_specs_help, make_agent
from tabletop.agents.outcome import side_outcome
from tabletop.cli.options import CommandError, add_game_options, engine_options
from tabletop.envs.core.protocol import Game, State
from tabletop.envs.core.spec import DECKS_OPTION, GameSpec
from tabletop.matches.records import GAMES_LOG, GameRecord, append_records, play_record
from tabletop.matches.results import (
    format_interval,
    format_table,
    mean_interval,
)
from tabletop.matches.runner import run_tasks
from tabletop.matches.tally import Tally
from tabletop.training.config import registered_name

CARD_PLAYED = "card_played"
"""The event kind of a card put into play; its data names the seat (``player``) and the
card (``card``)."""
RESULTS_JSON = "balance.json"
RESULTS_PNG = "balance.png"
MAX_GAMES_PER_TASK = 25


# ----- what is counted ----------------------------------------------------------------------


@dataclass(frozen=True)
class SideResult:
    """Wins, draws and losses of one side over some games, with the win rate's interval:
    the saved shape of a ``Tally``."""

    games: int
    wins: int
    draws: int
    losses: int
    win_rate: float | None
    """None without games, as ``draw_rate``."""
    win_ci95: tuple[float, float]
    draw_rate: float | None

    @classmethod
    def of(cls, outcomes: Iterable[str]) -> SideResult:
        return cls(**Tally.of(outcomes).figures_for(cls))

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SideResult:
        return cls(**{**data, "win_ci95": tuple(data["win_ci95"])})


@dataclass(frozen=True)
class DeckGame:
    """One played game as the balance lab counts it."""

    decks: tuple[str, ...]
    """The deck label at each seat."""
    seed: int
    first: int
    """The seat of the first decision (a turn of forced moves only is no decision)."""
    outcomes: tuple[str, ...]
    """Each seat's result: ``win``, ``draw`` or ``loss``."""
    plies: int
    stats: dict[str, float]
    plays: tuple[dict[str, int], ...]
    """Per seat, card name -> how many times that seat played it."""


@dataclass(frozen=True)
class CardFigures:
    """How a card did for the decks that played it (or for one deck, ``deck``)."""

    card: str
    decks: tuple[str, ...]
    """The decks that played it in the run (their seats are the games counted)."""
    games: int
    """Games of those decks, counted per seat."""
    played_in: int
    """Of those, the games in which the seat played the card at least once."""
    plays: int
    play_rate: float
    """``played_in / games``."""
    plays_per_game: float
    when_played: SideResult
    when_not_played: SideResult
    deck: str | None = None

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> CardFigures:
        return cls(
            **{
                **data,
                "decks": tuple(data["decks"]),
                "when_played": SideResult.from_json(data["when_played"]),
                "when_not_played": SideResult.from_json(data["when_not_played"]),
            }
        )


@dataclass(frozen=True)
class BalanceReport:
    """Everything ``tabletop balance`` prints and saves."""

    game: str
    agent: str
    games_per_order: int
    """Games per ordered pair of decks (each seating)."""
    seed: int
    options: dict[str, Any]
    decks: dict[str, str]
    """Deck label -> the value given to the game's ``decks`` option."""
    matrix: dict[str, dict[str, SideResult]]
    """Row deck -> column deck -> the row deck's results (both seatings)."""
    mean: dict[str, SideResult]
    """Deck -> its results against every other deck (equal games per opponent)."""
    first_mover: SideResult
    """Results of the seat that made the first decision, over every game."""
    seat_zero: SideResult
    """Results of seat 0 (in games that draw who starts, not always the first to move)."""
    plies: float
    plies_ci95: tuple[float, float] | None
    pair_plies: dict[str, dict[str, float]]
    stats_mean: dict[str, float]
    cards: list[CardFigures] = field(default_factory=list)
    deck_cards: list[CardFigures] = field(default_factory=list)

    @property
    def total_games(self) -> int:
        return self.first_mover.games

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> BalanceReport:
        return cls(
            **{
                **data,
                "options": {key: _tuples(value) for key, value in data["options"].items()},
                "matrix": {
                    row: {column: SideResult.from_json(cell) for column, cell in cells.items()}
                    for row, cells in data["matrix"].items()
                },
                "mean": {deck: SideResult.from_json(tally) for deck, tally in data["mean"].items()},
                "first_mover": SideResult.from_json(data["first_mover"]),
                "seat_zero": SideResult.from_json(data["seat_zero"]),
                "plies_ci95": None if data["plies_ci95"] is None else tuple(data["plies_ci95"]),
                "cards": [CardFigures.from_json(card) for card in data["cards"]],
                "deck_cards": [CardFigures.from_json(card) for card in data["deck_cards"]],
            }
        )


def _tuples(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


# ----- choosing the decks -------------------------------------------------------------------


def deck_specs(spec: GameSpec, given: Sequence[str] | None) -> dict[str, str]:
    """Deck label -> deck spec: the game's packaged decks, or ``given`` (names of packaged
    decks or deck files, a file labelled by its stem)."""
    if DECKS_OPTION not in spec.options:
        raise ValueError(f"{spec.name} takes no {DECKS_OPTION!r} option: it is not a card game")
    if given is None:
        if not spec.decks:
            raise ValueError(
                f"{spec.name} declares no packaged decks (GameSpec.decks): use --decks"
            )
        given = spec.decks
    labels: dict[str, str] = {}
    for text in given:
        label = _deck_label(spec, text)
        if label in labels:
            raise ValueError(f"two decks labelled {label!r}: {labels[label]!r} and {text!r}")
        labels[label] = text
    if len(labels) < 2:
        raise ValueError(f"balance needs at least two decks, got {list(labels)}")
    return labels


def _deck_label(spec: GameSpec, text: str) -> str:
    if text in spec.decks:
        return text
    path = Path(text)
    if path.is_file():
        return path.stem
    packaged = ", ".join(spec.decks) or "none"
    raise ValueError(
        f"unknown deck {text!r}: neither a packaged deck of {spec.name} ({packaged}) nor a file"
    )


# ----- playing ------------------------------------------------------------------------------


Job = tuple[tuple[str, ...], int]
"""(deck label per seat, game seed)."""


def schedule(labels: Sequence[str], games: int, seed: int) -> list[Job]:
    """``games`` deals for each ordered pair of different decks, deal by deal."""
    pairs = list(itertools.permutations(labels, 2))
    return [(pair, seed + g) for pair in pairs for g in range(games)]


def play_jobs(
    game_name: str,
    options: dict[str, Any],
    decks: dict[str, str],
    agent: str,
    jobs: Sequence[Job],
) -> list[tuple[DeckGame, GameRecord]]:
    """Play each job with ``agent`` at every seat (one fresh agent per seat and game)."""
    games: dict[tuple[str, ...], tuple[Game, dict[str, Any]]] = {}
    played = []
    for pair, game_seed in jobs:
        if pair not in games:
            setting = {**options, DECKS_OPTION: tuple(decks[label] for label in pair)}
            games[pair] = (envs.make_game(game_name, **setting), setting)
        game, setting = games[pair]
        deck_game, record = play_one(game_name, game, setting, pair, game_seed, agent)
        played.append((deck_game, record))
    return played


def play_one(
    game_name: str,
    game: Game,
    options: dict[str, Any],
    pair: tuple[str, ...],
    seed: int,
    agent: str,
) -> tuple[DeckGame, GameRecord]:
    """Deal ``seed`` of ``game`` (decks ``pair``), counting the cards each seat plays."""
    plays: list[Counter[str]] = [Counter() for _ in range(game.num_players)]
    seen: list[State] = []
    first: list[int] = []

    def count_plays(state: State) -> None:
        for event in state.last_events(None):
            if event.kind == CARD_PLAYED:
                plays[int(event.data["player"])][str(event.data["card"])] += 1

    def observe(state: State, action: int) -> None:
        if not seen:
            seen.append(state)
            first.append(state.current_player)
        count_plays(state)  # the events of the previous move

    agents = [make_agent(agent, game_name, seed=seed * 16 + p) for p in range(game.num_players)]
    record = play_record(game, options, seed, [agent] * game.num_players, agents, observe)
    if seen:
        count_plays(seen[0])  # the last move's
    outcomes = tuple(side_outcome(record.returns, seat) for seat in range(game.num_players))
    deck_game = DeckGame(
        decks=pair,
        seed=seed,
        first=first[0] if first else 0,
        outcomes=outcomes,
        plies=len(record.actions),
        stats=record.stats,
        plays=tuple(dict(sorted(counter.items())) for counter in plays),
    )
    return deck_game, record


def play_all(
    game_name: str,
    options: dict[str, Any],
    decks: dict[str, str],
    agent: str,
    jobs: Sequence[Job],
    workers: int,
    games_log: Path | None = None,
) -> list[DeckGame]:
    """Every job, in ``workers`` processes when more than one; the games in job order
    whatever the workers, each record appended to ``games_log`` as its task finishes."""
    size = max(1, min(MAX_GAMES_PER_TASK, math.ceil(len(jobs) / (8 * max(workers, 1)))))
    chunks = [jobs[i : i + size] for i in range(0, len(jobs), size)]
    done = 0

    def collect(played: list[tuple[DeckGame, GameRecord]]) -> None:
        nonlocal done
        done += len(played)
        if games_log is not None:
            append_records(games_log, [record for _, record in played])
        print(f"{done}/{len(jobs)} games", file=sys.stderr, flush=True)

    play = partial(play_jobs, game_name, options, decks, agent)
    played = run_tasks(play, chunks, workers, collect)
    return [deck_game for chunk in played for deck_game, _ in chunk]


# ----- counting -----------------------------------------------------------------------------


def summarise(
    games: Sequence[DeckGame],
    *,
    game: str,
    agent: str,
    games_per_order: int,
    seed: int,
    options: dict[str, Any],
    decks: dict[str, str],
) -> BalanceReport:
    """The figures of a balance run (see the module docstring)."""
    labels = list(decks)
    by_pair: dict[tuple[str, str], list[str]] = defaultdict(list)
    plies_by_pair: dict[frozenset[str], list[int]] = defaultdict(list)
    by_deck: dict[str, list[str]] = defaultdict(list)
    for played in games:
        plies_by_pair[frozenset(played.decks)].append(played.plies)
        for seat, deck in enumerate(played.decks):
            for other, opponent in enumerate(played.decks):
                if other != seat:
                    by_pair[deck, opponent].append(played.outcomes[seat])
            by_deck[deck].append(played.outcomes[seat])
    matrix = {
        row: {column: SideResult.of(by_pair[row, column]) for column in labels if column != row}
        for row in labels
    }
    pair_plies = {
        row: {
            column: _mean(plies_by_pair[frozenset((row, column))])
            for column in labels
            if column != row
        }
        for row in labels
    }
    stat_sums: Counter[str] = Counter()
    for played in games:
        stat_sums.update(played.stats)
    plies = [played.plies for played in games]
    return BalanceReport(
        game=game,
        agent=agent,
        games_per_order=games_per_order,
        seed=seed,
        options=dict(options),
        decks=dict(decks),
        matrix=matrix,
        mean={deck: SideResult.of(by_deck[deck]) for deck in labels},
        first_mover=SideResult.of(played.outcomes[played.first] for played in games),
        seat_zero=SideResult.of(played.outcomes[0] for played in games),
        plies=_mean(plies),
        plies_ci95=mean_interval(plies),
        pair_plies=pair_plies,
        stats_mean={key: total / len(games) for key, total in stat_sums.items()},
        cards=card_figures(games),
        deck_cards=[figures for deck in labels for figures in card_figures(games, deck)],
    )


def card_figures(games: Sequence[DeckGame], deck: str | None = None) -> list[CardFigures]:
    """Per card, sorted by name: over the seats whose deck played it in some game (of
    ``deck`` only when given), how often it was played and the seat's results with and
    without it."""
    decks_of: dict[str, set[str]] = defaultdict(set)
    for played in games:
        for seat_deck, plays in zip(played.decks, played.plays, strict=True):
            if deck is None or seat_deck == deck:
                for card in plays:
                    decks_of[card].add(seat_deck)
    figures = []
    for card in sorted(decks_of):
        owners = decks_of[card]
        with_card: list[str] = []
        without: list[str] = []
        plays = 0
        for played in games:
            for seat, seat_deck in enumerate(played.decks):
                if seat_deck in owners:
                    count = played.plays[seat].get(card, 0)
                    plays += count
                    (with_card if count else without).append(played.outcomes[seat])
        seats = len(with_card) + len(without)
        figures.append(
            CardFigures(
                card=card,
                decks=tuple(sorted(owners)),
                games=seats,
                played_in=len(with_card),
                plays=plays,
                play_rate=len(with_card) / seats,
                plays_per_game=plays / seats,
                when_played=SideResult.of(with_card),
                when_not_played=SideResult.of(without),
                deck=deck,
            )
        )
    return figures


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else math.nan


# ----- output -------------------------------------------------------------------------------


def report_text(report: BalanceReport) -> str:
    """The terminal (and Markdown) tables of a balance run."""
    labels = list(report.decks)
    matrix_rows = [
        [row]
        + [
            "-" if column == row else _cell(report.matrix[row][column], draws=True)
            for column in labels
        ]
        for row in labels
    ]
    mean_rows = [
        [
            deck,
            str(tally.games),
            str(tally.wins),
            str(tally.draws),
            str(tally.losses),
            f"{tally.win_rate:.3f}",
            format_interval(tally.win_ci95),
        ]
        for deck, tally in sorted(report.mean.items(), key=lambda item: -(item[1].win_rate or 0))
    ]
    first, zero = report.first_mover, report.seat_zero
    stats = ", ".join(f"{key} {value:.2f}" for key, value in report.stats_mean.items())
    lines = [
        f"{report.game}: {report.total_games} games, {report.agent} at both seats, "
        f"{report.games_per_order} per ordered pair of decks (seeds {report.seed}-"
        f"{report.seed + report.games_per_order - 1}); options: "
        + (" ".join(f"{k}={v}" for k, v in report.options.items()) or "-"),
        "",
        "win rate of the row deck against the column deck [95% CI], d = draw rate:",
        format_table(["deck", *labels], matrix_rows),
        "",
        "mean win rate against the other decks:",
        format_table(["deck", "games", "win", "draw", "loss", "win rate", "95% CI"], mean_rows),
        "",
        f"first to move wins {first.win_rate:.3f} {format_interval(first.win_ci95)} "
        f"(draws {first.draw_rate:.3f}) of {first.games} games; seat 0 wins "
        f"{zero.win_rate:.3f} {format_interval(zero.win_ci95)}",
        f"game length: {report.plies:.1f} plies {_plies_interval(report.plies_ci95)}; "
        f"mean stats: {stats}",
        "",
        "cards (a deck's seats in every game, for the decks that played the card):",
        card_table(report.cards),
    ]
    return "\n".join(lines) + "\n"


def _plies_interval(interval: tuple[float, float] | None) -> str:
    return "-" if interval is None else f"[{interval[0]:.1f}, {interval[1]:.1f}]"


def _cell(tally: SideResult, draws: bool = False) -> str:
    if tally.win_rate is None or tally.draw_rate is None:
        return "-"
    low, high = tally.win_ci95
    text = f"{tally.win_rate:.2f} [{low:.2f}, {high:.2f}]"
    return text + f" d{tally.draw_rate:.2f}" if draws else text


def card_table(cards: Sequence[CardFigures]) -> str:
    headers = ["card", "decks", "played in", "plays/game", "win played [95% CI]"]
    headers += ["win not played [95% CI]"]
    rows = [
        [
            card.card,
            ",".join(card.decks),
            f"{card.played_in}/{card.games} ({card.play_rate:.2f})",
            f"{card.plays_per_game:.2f}",
            _cell(card.when_played),
            _cell(card.when_not_played),
        ]
        for card in cards
    ]
    return format_table(headers, rows or [["-"] * len(headers)])


def save_json(path: Path, report: BalanceReport) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(report.to_json(), indent=2) + "\n", encoding="utf-8")


def load_json(path: Path) -> BalanceReport:
    return BalanceReport.from_json(json.loads(path.read_text(encoding="utf-8")))


# ----- command line -------------------------------------------------------------------------


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", help="registered card game, e.g. gold_and_dust")
    parser.add_argument(
        "--decks",
        metavar="A,B,...",
        help="comma-separated decks: packaged names or deck files (default: every packaged deck)",
    )
    parser.add_argument(
        "--agent",
        default="heuristic",
        help=f"spec of the agent at both seats (default heuristic): {agent_specs_help()}",
    )
    parser.add_argument(
        "--games", type=int, default=40, help="deals per ordered pair of decks (default 40)"
    )
    parser.add_argument("--workers", type=int, default=1, help="parallel processes")
    parser.add_argument("--seed", type=int, default=0, help="first game seed")
    parser.add_argument(
        "--out",
        metavar="DIR",
        help=f"write {RESULTS_JSON}, {RESULTS_PNG} and the game records ({GAMES_LOG}) here",
    )
    add_game_options(parser)


def run(args: argparse.Namespace) -> int:
    try:
        game_name = registered_name(args.game)
        spec = envs.spec(game_name)
        given = None if args.decks is None else [d.strip() for d in args.decks.split(",")]
        decks = deck_specs(spec, given)
        options = engine_options(args)
        if DECKS_OPTION in options:
            raise ValueError(f"choose the decks with --decks, not --option {DECKS_OPTION}=")
        if args.games < 1:
            raise ValueError("--games must be at least 1")
        for label, deck in decks.items():  # the game checks each deck before any game
            game = envs.make_game(game_name, **options, **{DECKS_OPTION: (deck,) * 2})
            if game.num_players != 2:
                raise ValueError(
                    f"balance plays two-player games; {game_name} with {label!r} has "
                    f"{game.num_players} players"
                )
        make_agent(args.agent, game_name, seed=0)
        games_log = None
        if args.out:
            Path(args.out).mkdir(parents=True, exist_ok=True)
            games_log = Path(args.out) / GAMES_LOG
            games_log.unlink(missing_ok=True)
        jobs = schedule(list(decks), args.games, args.seed)
        played = play_all(game_name, options, decks, args.agent, jobs, args.workers, games_log)
    except (ValueError, FileNotFoundError, TypeError) as error:
        raise CommandError(str(error)) from error
    report = summarise(
        played,
        game=game_name,
        agent=args.agent,
        games_per_order=args.games,
        seed=args.seed,
        options=options,
        decks=decks,
    )
    print(report_text(report))
    if args.out:
        out = Path(args.out)
        save_json(out / RESULTS_JSON, report)
        from tabletop.matches.plots import balance_figure

        balance_figure(out / RESULTS_PNG, report)
        print(f"wrote {out / RESULTS_JSON}, {out / RESULTS_PNG} and {games_log}", file=sys.stderr)
    return 0
