"""The engine's shortcuts change no rule: a window in which the quick look (``turns._may_act``)
finds nothing for the player with priority offers only ``pass`` when the full list is built,
at every window of random games of every packaged deck (the positions the engine passes
through by itself included, not only those a player is asked about)."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from tabletop.envs.hkk import turns
from tabletop.envs.hkk.actions import PASS
from tabletop.envs.hkk.cards import PACKAGED_DECKS
from tabletop.envs.hkk.engine import HkkGame, HkkState

GAMES_PER_DECK = 4


def _full_legal(
    legal: Callable[[turns.Window, HkkState], list[int]],
    window: turns.Window,
    state: HkkState,
    monkeypatch: pytest.MonkeyPatch,
) -> list[int]:
    """The window's legal actions built in full, without the quick look."""
    with monkeypatch.context() as patch:
        patch.setattr(turns, "_may_act", lambda state, seat: True)
        return legal(window, state)


@pytest.mark.parametrize("deck", PACKAGED_DECKS)
def test_a_window_the_quick_look_skips_offers_only_pass(
    deck: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    quick_legal = turns.Window.legal
    looks = {"skipped": 0, "built": 0}

    def checked(window: turns.Window, state: HkkState) -> list[int]:
        legal = quick_legal(window, state)
        if turns._may_act(state, state.priority):
            looks["built"] += 1
        else:
            looks["skipped"] += 1
            assert _full_legal(quick_legal, window, state, monkeypatch) == [PASS] == legal
        return legal

    monkeypatch.setattr(turns.Window, "legal", checked)
    game = HkkGame(decks=(deck, deck))
    rng = random.Random(7)
    for seed in range(GAMES_PER_DECK):
        state = game.new_state(seed)
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_actions()))
    assert looks["skipped"] > 0 and looks["built"] > 0, looks
