"""The machinery every rules engine's state shares, written once.

A game's state class derives from ``EngineState`` and supplies the rules: ``is_terminal``,
``_compute_legal`` (the legal actions of the position), ``_do`` (play one action) and,
where having no legal action decides the game, ``_no_legal_action``; for narration it
records what happens with ``_record`` and says it per observer in ``_describe_event``.
The base class keeps the legal actions cached, rejects illegal actions with a readable
error, and takes every decision that has a single option itself: a player is only asked
when they have a real choice (the project's rule for multi-step turns).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, TypeVar

from tabletop.envs.core.protocol import TERMINAL, Event, Game, IllegalActionError

MAX_FORCED_MOVES = 10_000
"""Forced moves ``settle`` takes in a row before it calls the position a loop: far above any
real chain (a few dozen at most), so reaching it is an engine bug, reported, not spun on."""

MAX_RESAMPLE_TRIES = 1_000
"""Deals ``resample_consistent`` draws before it reports that none fits what is known."""

EventRecord = tuple[str, dict[str, Any]]
"""What an engine records of an event: its kind and the whole facts, unfiltered."""


class EngineState:
    """Base of the game states; subclasses declare ``__slots__`` for ``player``,
    ``_legal``, ``_rewards`` and ``_returns`` next to their own fields. ``_events`` (the
    records of the last ``apply``) is the base's: a subclass sets it to ``[]`` when it
    builds a state and gives a clone its own list."""

    __slots__ = ("_events",)

    game: Game
    player: int
    _legal: list[int]
    _rewards: list[float]
    _returns: list[float]
    _events: list[EventRecord]

    # ----- what each game supplies ---------------------------------------------------------

    def is_terminal(self) -> bool:
        raise NotImplementedError

    def action_to_string(self, action: int, observer: int | None = None) -> str:
        raise NotImplementedError

    def _compute_legal(self) -> list[int]:
        """The sorted legal actions of the position, before forced ones are taken."""
        raise NotImplementedError

    def _do(self, action: int) -> None:
        """Play ``action`` (already known to be legal) for ``player``."""
        raise NotImplementedError

    def _describe_event(self, kind: str, facts: dict[str, Any], observer: int | None) -> Event:
        """The recorded event ``kind`` with ``facts`` as ``observer`` may know it
        (``None``: all of it), read after the ``apply`` that recorded it."""
        raise NotImplementedError

    def _no_legal_action(self) -> None:
        """A live position without a legal action: games where that decides the game
        (e.g. the player to move loses) end it here."""
        raise RuntimeError(f"{self.game.name}: no legal action in a live position")

    # ----- the protocol, shared -------------------------------------------------------------

    @property
    def current_player(self) -> int:
        return TERMINAL if self.is_terminal() else self.player

    def legal_actions(self) -> list[int]:
        return list(self._legal)

    def rewards(self) -> list[float]:
        return list(self._rewards)

    def returns(self) -> list[float]:
        return list(self._returns)

    def last_events(self, observer: int | None = None) -> list[Event]:
        return [self._describe_event(kind, facts, observer) for kind, facts in self._events]

    def apply(self, action: int) -> None:
        if action not in self._legal:
            raise self._illegal(action)
        self._rewards = [0.0] * len(self._returns)
        self._events = []
        self._do(action)
        self.settle()

    def settle(self) -> None:
        """Cache the legal actions, taking each decision that has a single option.
        Call it after building or editing a position by hand.

        A chain of more than ``MAX_FORCED_MOVES`` forced moves raises ``RuntimeError``
        naming the game and the position instead of spinning forever inside ``apply``.
        """
        for _ in range(MAX_FORCED_MOVES):
            if self.is_terminal():
                self._legal = []
                return
            legal = self._compute_legal()
            self._legal = legal
            if not legal:
                self._no_legal_action()
            elif len(legal) > 1:
                return
            else:
                self._do(legal[0])
        raise RuntimeError(
            f"{self.game.name}: {MAX_FORCED_MOVES} forced moves in a row, the engine loops "
            f"(last forced move {self.action_to_string(self._legal[0])!r}); position:\n"
            f"{self.render()}"
        )

    def _record(self, kind: str, **facts: Any) -> None:
        """Note that ``kind`` happened, with every fact (hidden ones too): cheap on the hot
        path; filtering for an observer waits until someone asks ``last_events``."""
        self._events.append((kind, facts))

    def _reward(self, player: int, amount: float) -> None:
        self._rewards[player] += amount
        self._returns[player] += amount

    def _illegal(self, action: object) -> IllegalActionError:
        legal = ", ".join(self.action_to_string(a) for a in self._legal) or "none (game over)"
        in_range = isinstance(action, int) and 0 <= action < self.game.num_actions
        shown = f"{action} ({self.action_to_string(action)})" if in_range else repr(action)
        return IllegalActionError(f"{self.game.name}: illegal action {shown}; legal: {legal}")


def action_text(game: str, text: object) -> str:
    """``text`` if it is a string: a game's ``string_to_action`` reads words, and a number
    or ``None`` from a client is an illegal action named as such, not a crash deep in the
    notation."""
    if not isinstance(text, str):
        raise IllegalActionError(f"{game}: an action text is a str, got {text!r}")
    return text


def copy_generator(rng: random.Random) -> random.Random:
    """A generator in ``rng``'s state, for ``clone``: skips the costly seeding from the OS
    that ``random.Random()`` does only for the state to be overwritten (searches clone a
    state at every iteration)."""
    copy = random.Random.__new__(random.Random)
    copy.setstate(rng.getstate())
    return copy


StateT = TypeVar("StateT")


def resample_consistent(
    deal: Callable[[], StateT], consistent: Callable[[StateT], bool], game: str,
    tries: int = MAX_RESAMPLE_TRIES,
) -> StateT:  # fmt: skip
    """The first of up to ``tries`` deals (``deal()``, each a fresh determinization) that
    fits what the observer knows beyond the cards (``consistent``, usually
    ``shows_real_choice``): the one retry loop of every game's ``resample_hidden``. Raises
    ``RuntimeError`` naming ``game`` when no deal fits."""
    for _ in range(tries):
        candidate = deal()
        if consistent(candidate):
            return candidate
    raise RuntimeError(f"{game}: no consistent deal in {tries} tries")


def shows_real_choice(original: EngineState) -> Callable[[EngineState], bool]:
    """What every determinization of ``original`` must also fit: unless the game is over,
    the player to move has a real choice (else the engine would have moved for them, which
    the observer would have seen). The test keeps the candidate's legal actions."""
    over = original.is_terminal()

    def consistent(candidate: EngineState) -> bool:
        if over:
            return True
        legal = candidate._compute_legal()
        candidate._legal = legal
        return len(legal) > 1

    return consistent
