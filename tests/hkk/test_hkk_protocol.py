"""The kit's generic checks on HKK's engine (not registered yet, so the conformance suite
does not run it): the ``State`` contract in random play, clones, the seed, the notation of
every action id, and what a player is shown of the moves (texts, events, the picture and
both encoders' observations) against ``resample_hidden`` (HK-11.1: the opponent's hand
and both decks' order are hidden)."""

from __future__ import annotations

import random

from tabletop.envs.core import checks
from tabletop.envs.hkk.actions import NUM_ACTIONS
from tabletop.envs.hkk.encoders import ENCODERS
from tabletop.envs.hkk.engine import HkkGame

GAME = HkkGame(decks=("stronghold", "venom"))


def test_random_play_keeps_the_state_contract() -> None:
    summary = checks.run_random_games(GAME, games=3, seed=11, deep_check_fraction=0.05)
    assert len(summary.plies) == 3


def test_clones_are_independent_and_the_seed_decides() -> None:
    assert checks.check_clone_independence(GAME, games=2, seed=5, clone_fraction=0.02) > 0
    assert checks.check_seed_determinism(GAME, games=2, seed=5, chance=True) > 0


def test_every_action_id_has_a_text_and_legal_texts_read_back() -> None:
    state = GAME.new_state(3)
    rng = random.Random(3)
    for _ in range(200):
        if state.is_terminal():
            break
        texts = {state.action_to_string(action) for action in range(NUM_ACTIONS)}
        assert all(texts)
        for action in state.legal_actions():
            assert state.string_to_action(state.action_to_string(action)) == action
        state.apply(rng.choice(state.legal_actions()))


def test_hk_11_1_moves_shown_reveal_nothing_hidden() -> None:
    report = checks.check_no_text_leak(GAME, ENCODERS, games=1, seed=2, actions_per_state=2)
    assert report is not None
