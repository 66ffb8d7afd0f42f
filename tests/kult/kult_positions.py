"""Helpers for Kult's tests: exact positions built by hand (``stacked``), moves by their
notation (``act``), and a test-only encoder of what a player is shown (``ViewEncoder``) so
the generic leak checks of ``envs/core/checks.py`` run before the game has its own."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from tabletop.envs.kult.cards import Deck, load_pool, parse_deck
from tabletop.envs.kult.engine import KultGame, KultState

GAMES = {players: KultGame(num_players=players) for players in (2, 3, 4)}
FILLER_DECK = ["Stray Cat"] * 5
"""Decks of a stacked position unless given: enough for a few draws, with nothing to play
that costs a key."""


def stacked(*setups: Mapping[str, Any], players: int | None = None, **options: Any) -> KultState:
    """A position of ``len(setups)`` players (or ``players``, the missing setups empty) with
    the default Arcana (seat order: Lantern Warden, Ashen Matron, Dreaming Tide, Clockwork
    Saint), each deck ``FILLER_DECK`` unless the setup names one; see
    ``KultGame.stacked_state`` for the keys and ``options``."""
    players = players or max(2, len(setups))
    filled = [{"deck": FILLER_DECK, **setup} for setup in setups]
    filled += [{"deck": FILLER_DECK} for _ in range(players - len(filled))]
    return GAMES[players].stacked_state(filled, **options)


def act(state: KultState, *texts: str) -> None:
    """Play each move given in notation, in order."""
    for text in texts:
        state.apply(state.string_to_action(text))


def texts(state: KultState) -> list[str]:
    """The legal actions of the position, as notation."""
    return [state.action_to_string(a) for a in state.legal_actions()]


class ViewEncoder:
    """What ``player`` is shown, as bytes of ``render(player)``: the strictest view an
    encoder may have, for ``checks.check_no_leak`` and ``check_no_text_leak``."""

    name = "view"
    version = 1
    size = 16_384

    def shape(self, game: KultGame) -> tuple[int, ...]:
        return (self.size,)

    def encode(self, state: KultState, player: int) -> np.ndarray:
        data = state.render(player).encode()
        view = np.zeros(self.size, dtype=np.float32)
        view[: len(data)] = np.frombuffer(data, dtype=np.uint8)
        return view


def other_lantern_deck() -> Deck:
    """A second legal deck for the Lantern Warden, other than the packaged one, for the
    same-Arcanum swap (KU-2.1)."""
    cards = {
        name: 3
        for name in ("Pilgrim", "Stray Cat", "Raven", "Rose Garden", "Mirror Hall",
                     "Clock Tower", "Tin Soldier", "Open Eye", "Omen", "Hex")
    }  # fmt: skip
    data = {"name": "Other Lanterns", "arcanum": "The Lantern Warden", "cards": cards}
    return parse_deck(data, load_pool(), "<test>")
