"""Helpers for HKK's tests: exact positions built by hand (``stacked``, ``declare_state``)
and moves by their notation (``act``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tabletop.envs.hkk.engine import HkkGame, HkkState
from tabletop.envs.hkk.steps import PHASE_NAMES
from tabletop.envs.hkk.zones import InPlay

GAME = HkkGame()


def stacked(setups: Sequence[Mapping[str, Any]], **options: Any) -> HkkState:
    return GAME.stacked_state(setups, **options)


def act(state: HkkState, *texts: str) -> None:
    for text in texts:
        state.apply(state.string_to_action(text))


def on_table(state: HkkState, seat: int, name: str) -> InPlay:
    return next(e for e in state.tables[seat] if e.card.name == name)


def names(state: HkkState, zone: str, seat: int) -> list[str]:
    return [state.card(iid).name for iid in state.table.zones[zone][seat]]


def texts(state: HkkState) -> list[str]:
    return [state.action_to_string(action) for action in state.legal_actions()]


def step(state: HkkState) -> str:
    return PHASE_NAMES[state.phase]


HOLD = {"hand": ["Stray Wolf"], "vp": 1}
"""A card player 0 may play in a main phase: the position waits for them there, after the
combat, instead of running on into the next turn."""


def declare_state(mine: list[str], theirs: list[Any], **other: Any) -> HkkState:
    """Player 0 declares attacks with ``mine``; player 1 defends with ``theirs`` and
    ``other`` (more of their setup)."""
    return stacked([{"guard": mine, **HOLD}, {"guard": theirs, **other}], phase="declare")
