"""HKK's action structure (envs/hkk/structure.py): the rows each action names in the flat
observation hold the cards the action is about, along random games of every deck pair."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from tabletop.envs.hkk import actions, encoders
from tabletop.envs.hkk.cards import PACKAGED_DECKS
from tabletop.envs.hkk.engine import HkkGame
from tabletop.envs.hkk.structure import FEATURES, NO_ROW, flat_structure

POSITION_OF_BLOCK = {"hand": "own hand", "own": "own table", "enemy": "enemy table"}


def _block(row: int) -> str:
    if row < encoders.OWN_ROW:
        return "hand"
    return "own" if row < encoders.ENEMY_ROW else "enemy"


def _position_flags(observation: np.ndarray, row: int) -> np.ndarray:
    start = encoders.TABLE_SIZE + row * encoders.WIDTH
    return observation[start : start + len(encoders.POSITIONS)]


def test_the_structure_fits_the_flat_observation() -> None:
    game = HkkGame()
    structure = flat_structure(game)
    assert structure.observation_size == encoders.ENCODERS["flat"].shape(game)[0]
    assert structure.rows_at == encoders.TABLE_SIZE
    assert (structure.rows, structure.row_width) == (encoders.CARD_ROWS, encoders.WIDTH)
    assert structure.num_actions == actions.NUM_ACTIONS
    assert structure.action_features.shape == (actions.NUM_ACTIONS, len(FEATURES))


@pytest.mark.parametrize("first, second", list(itertools.combinations(PACKAGED_DECKS, 2)))
def test_every_legal_action_names_rows_holding_its_cards(first: str, second: str) -> None:
    """A play names a filled hand slot, and an own or enemy table position it names holds a
    card on that side (HK-3.3, HK-6.2, HK-7); the kind feature is the action's kind."""
    game = HkkGame(decks=(first, second))
    structure = flat_structure(game)
    encoder = encoders.ENCODERS["flat"]
    generator = random.Random(7)
    checked: set[str] = set()
    state = game.new_state(11)
    while not state.is_terminal():
        seat = state.current_player
        observation = encoder.encode(state, seat)
        for action in state.legal_actions():
            kind, _ = actions.decode(action)
            assert structure.action_features[action, FEATURES.index(f"kind {kind}")] == 1.0
            for row in structure.action_rows[action]:
                if row == NO_ROW:
                    continue
                flags = _position_flags(observation, int(row))
                expected = encoders.POSITIONS.index(POSITION_OF_BLOCK[_block(int(row))])
                assert flags[expected] == 1.0, (state.action_to_string(action, seat), row)
                checked.add(kind)
        state.apply(generator.choice(state.legal_actions()))
    assert {"play", "attack", "guard"} <= checked


def test_rows_and_features_of_each_kind_of_action() -> None:
    structure = flat_structure(HkkGame())
    rows, features = structure.action_rows, structure.action_features

    def feature(action: int, name: str) -> float:
        return float(features[action, FEATURES.index(name)])

    play = actions.play_action(3, actions.enemy_ref(5))
    assert list(rows[play]) == [encoders.HAND_ROW + 3, encoders.ENEMY_ROW + 5]
    assert feature(play, "ref enemy") == 1.0
    assert feature(play, "first row's position / 24") == pytest.approx(3 / 24)
    assert feature(play, "second row's position / 24") == pytest.approx(5 / 24)
    activate = actions.activate_action(2, 1, actions.own_ref(4))
    assert list(rows[activate]) == [encoders.OWN_ROW + 2, encoders.OWN_ROW + 4]
    assert feature(activate, "ability 1") == 1.0
    breath = actions.breath_action(1, 7, actions.PLAYER_TARGET)
    assert list(rows[breath]) == [encoders.OWN_ROW + 1, NO_ROW]
    assert feature(breath, "breath amount / 10") == pytest.approx(0.7)
    assert feature(breath, "ref player") == 1.0
    attack = actions.attack_action(0, 1 + 6)
    assert list(rows[attack]) == [encoders.OWN_ROW, encoders.ENEMY_ROW + 6]
    raise_dead = actions.play_action(0, actions.discard_ref(2))
    assert list(rows[raise_dead]) == [encoders.HAND_ROW, NO_ROW]
    assert feature(raise_dead, "discard number / 24") == pytest.approx(2 / 24)
    assert list(rows[actions.PASS]) == [NO_ROW, NO_ROW]
    assert list(rows[actions.GUARD_BASE + 9]) == [encoders.OWN_ROW + 9, NO_ROW]
