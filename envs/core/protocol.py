"""The contract every tabletop rules engine and observation encoder implements.

Engines are pure Python (no gymnasium/pettingzoo import), in the spirit of OpenSpiel's
``State``: the env adapter, the search agents and the tests only ever talk to a game
through these protocols, so shared code never needs to know which game it runs. The
``Agent`` protocol, what plays a seat, sits here too: the agents (``tabletop.agents``), the
matches and the web table all type against it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

import numpy as np

TERMINAL = -1
"""``State.current_player`` once the game is over."""


class IllegalActionError(ValueError):
    """An action id or action text that is not legal in the current state."""


@dataclass(frozen=True)
class Event:
    """One thing that happened during an ``apply``, as one observer may know it.

    Engines record what happened; ``State.last_events(observer)`` turns each record into
    an ``Event`` holding only what ``observer`` may know, so the terminal, the web table and
    replays narrate a game from the same filtered facts.
    """

    kind: str
    """What happened, a snake_case word (``[a-z][a-z0-9_]*``), e.g. ``"cards_drawn"``."""
    text: str
    """One non-empty line for a human, e.g. ``"Player 1 draws 2 cards"``."""
    data: dict[str, Any] = field(default_factory=dict)
    """The facts behind ``text``, equally filtered: string keys and values that
    ``json.dumps`` accepts (ints, strings, bools, lists, dicts, ``None``)."""


@runtime_checkable
class Game(Protocol):
    """A configured game: fixed player count, fixed action space, factory of states.

    ``repr(game)`` names the whole configuration, e.g. ``SomeGame(num_players=2,
    variant='short')``: two games with the same ``repr`` play by the same rules, which is
    how the AEC adapter accepts a state built by another game object of the same
    configuration.

    Optional: ``player_name(seat) -> str``, the game's own public name for a seat (a colour,
    a hero), which tables and logs show beside the seat number when a game offers it; and
    ``card_descriptions() -> dict[str, str]``, each card's name to one line of its cost and
    text (public card data), which the terminal shows for the cards a seat can see.

    Optional: ``public_fact_variants(state) -> Iterable[tuple[str, State]]``, the public
    facts a game declares: for a position, pairs of a fact's name (e.g. ``"discard 0
    contents"``) and a copy of the position that differs from it in that one fact, which
    every player sees. Every encoder must encode the copy differently from the position,
    for every player (``checks.check_public_facts_encoded``), so an encoder that drops a
    public fact is caught.
    """

    name: str
    """Short game name, the registry's key for it."""
    num_players: int
    num_actions: int
    """Size of the fixed action space; legal actions are a subset of ``range(num_actions)``."""

    def new_state(self, seed: int | None = None) -> State:
        """A fresh game; the same seed and the same actions always give the same game."""
        ...

    def help_text(self) -> str:
        """How to read this game's move notation, text picture and status codes: what the
        terminal's ``help`` command prints to a newcomer. Non-empty."""
        ...


@runtime_checkable
class State(Protocol):
    """One position of a game, mutated in place by ``apply``."""

    game: Game

    @property
    def current_player(self) -> int:
        """The player who decides next, or ``TERMINAL``."""
        ...

    def legal_actions(self) -> list[int]:
        """Sorted legal action ids for ``current_player``; empty once terminal."""
        ...

    def apply(self, action: int) -> None:
        """Play ``action`` for ``current_player``. An illegal action raises
        ``IllegalActionError`` before anything changes, so the caller may go on with the
        state (the AEC adapter relies on it instead of checking legality twice)."""
        ...

    def clone(self) -> State:
        """An independent copy, including the random generator's state."""
        ...

    def is_terminal(self) -> bool: ...

    def rewards(self) -> list[float]:
        """Per-player rewards earned by the last ``apply`` (zeros before the first)."""
        ...

    def returns(self) -> list[float]:
        """Per-player sum of all rewards so far."""
        ...

    def action_to_string(self, action: int, observer: int | None = None) -> str:
        """Readable notation of an action id, e.g. ``"play 5"``, for ``current_player``
        to play now.

        ``observer=None`` gives the full notation, for any id in ``range(num_actions)``
        (error messages name illegal actions too); for a legal action it round-trips
        through ``string_to_action``. With an ``observer``, for a legal action: only what
        that player may know of the move, e.g. ``"North places a card face down on a"``
        instead of ``"place 7 a"``; for ``observer == current_player`` exactly the full
        notation.

        The observer text depends only on what ``observer`` is shown: two moves look the
        same to ``observer`` when the positions before them and the positions after them
        show ``observer`` the same (every encoder's observation and ``render(observer)``)
        and, if ``observer`` is the mover, the action ids are equal (a mover knows their
        choice); two moves that look the same have equal observer texts.
        ``checks.check_no_text_leak`` tests it against ``resample_hidden``.
        """
        ...

    def last_events(self, observer: int | None = None) -> list[Event]:
        """What happened during the last ``apply``, the forced moves it set off included,
        in order, as ``observer`` may know it (``None``: everything, for a spectator or log
        that sees all). Empty before the first ``apply``.

        Same rule as the observer texts: two moves that look the same to ``observer`` (as
        ``action_to_string`` defines it) give equal events. So an event
        names no hidden identity, and every fact it states about the result must also be
        visible to ``observer`` in ``render(observer)`` or an encoding.
        """
        ...

    def string_to_action(self, text: str) -> int:
        """Inverse of ``action_to_string``; raises ``IllegalActionError`` on unknown text."""
        ...

    def render(self, observer: int | None = None) -> str:
        """A human-readable text picture: the whole state (``observer=None``, a spectator's
        omniscient view) or only what ``observer`` may see (for a human at the table)."""
        ...

    def view(self, observer: int | None = None) -> dict[str, Any]:
        """The position as JSON-ready data for a page to draw (``core.view``): the same
        information as ``render(observer)``, and the legal moves when ``observer`` is to
        move, each naming the pieces it is about."""
        ...

    def stats(self) -> dict[str, float]:
        """Game-specific figures for reports (e.g. enemies defeated), mostly read at the end."""
        ...

    def resample_hidden(self, observer: int, rng: random.Random) -> State:
        """A determinization: a new state in which everything ``observer`` cannot see is
        re-drawn consistently with what they know, with a fresh random generator.

        What ``observer`` is shown of the result (every encoder's observation and
        ``render(observer)``) equals what they are shown of ``self``; the player to move is
        the same, and so are the legal actions when ``observer`` is that player.
        """
        ...


@runtime_checkable
class Agent(Protocol):
    """Something that picks moves for one seat of a game. It reads the engine ``State``
    rather than an encoded observation so that text play, benchmarks and search share one
    interface; the price is discipline: deciding for ``player``, it must use only what that
    player may see (the conformance suite resamples the hidden rest with
    ``State.resample_hidden`` and expects the same decision)."""

    def reset(self) -> None:
        """Forget per-game memory; called before each new game."""
        ...

    def act(self, state: State, player: int) -> int:
        """A legal action id for ``player``, who is ``state.current_player``."""
        ...


@runtime_checkable
class Encoder(Protocol):
    """Turns a state into one player's observation array. Must read only what that
    player may see; the leak test in ``tabletop.envs.core.checks`` enforces it."""

    name: str
    version: int

    def shape(self, game: Game) -> tuple[int, ...]: ...

    def encode(self, state: State, player: int) -> np.ndarray:
        """A float32 array of ``shape(state.game)``."""
        ...


class UnknownOptionError(TypeError):
    """Options that nobody accepts; a ``TypeError``, as for an unexpected keyword argument.

    It keeps the names, so that a caller that accepts options of its own around a game's
    (the env constructors) can list all the options it accepts in its own error.
    """

    def __init__(self, owner: str, unknown: list[str], known: set[str]) -> None:
        super().__init__(f"{owner}: unknown option(s) {unknown}; known options: {sorted(known)}")
        self.owner = owner
        self.unknown = unknown
        self.known = known


def check_options(owner: str, given: dict[str, Any], known: set[str]) -> None:
    """Reject unknown option names with an error listing the known ones."""
    unknown = sorted(set(given) - known)
    if unknown:
        raise UnknownOptionError(owner, unknown, known)


def own_name(game: Game, seat: int) -> str | None:
    """The game's own name for ``seat`` (a colour, a hero...) if it has one: games may
    offer it with a ``player_name(seat)`` method."""
    player_name = getattr(game, "player_name", None)
    return None if player_name is None else player_name(seat)


def seat_name(game: Game, seat: int, *details: str) -> str:
    """``"player 1"``, with the game's own name for the seat and ``details`` in brackets:
    ``seat_name(game, 1, "heuristic")`` -> ``"player 1 (Bronze, heuristic)"``. The terminal,
    replays and the web table name seats this one way."""
    brackets = ", ".join(part for part in (own_name(game, seat), *details) if part)
    return f"player {seat} ({brackets})" if brackets else f"player {seat}"
