"""Gold & Dust's action structure (envs/gold_and_dust/structure.py): the rows each action
names in the flat observation hold the cards the action is about, along random games of
every deck pair and in positions set up by hand; rule ids from docs/rules/gold_and_dust.md."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from tabletop.envs.core.structure import ActionStructure
from tabletop.envs.gold_and_dust import actions, encoders
from tabletop.envs.gold_and_dust.cards import HEROES
from tabletop.envs.gold_and_dust.engine import ATTACK, BLOCK, STRIKE, GoldDustGame, GoldDustState
from tabletop.envs.gold_and_dust.structure import FEATURES, NO_ROW, flat_structure

GAME = GoldDustGame(("warrior", "mage"))
GAMES_PER_PAIR = 5
FLAT = encoders.ENCODERS["flat"]
TARGETS_ENEMY = encoders.Z + encoders.STATIC_FEATURES.index("targets the enemy")
ATTACKING = encoders.Z + encoders.C + encoders.UNIT_FEATURES.index("attacking")
BLOCK_ZONES = (
    (encoders.HAND_ROW, "own hand"),
    (encoders.OWN_ROW, "own unit"),
    (encoders.ENEMY_ROW, "enemy unit"),
)


def card_row(observation: np.ndarray, row: int) -> np.ndarray:
    start = encoders.TABLE_SIZE + row * encoders.WIDTH
    return observation[start : start + encoders.WIDTH]


def zone_of(observation: np.ndarray, row: int) -> str | None:
    """The zone the row's one-hot names, None for an empty row."""
    flags = card_row(observation, row)[: encoders.Z]
    return encoders.ZONES[int(flags.argmax())] if flags.any() else None


def block_zone(row: int) -> str:
    """The zone a card in ``row`` is in, by the block the row belongs to."""
    return max((start, zone) for start, zone in BLOCK_ZONES if start <= row)[1]


def holds(observation: np.ndarray, row: int, name: str) -> bool:
    """Whether ``row`` holds the pool card ``name`` (its data features)."""
    card = GAME.pool.card_named(name)
    features = card_row(observation, row)[encoders.Z : encoders.Z + encoders.C]
    return bool(np.allclose(features, encoders.static_features(card)))


def test_the_structure_fits_the_flat_observation() -> None:
    """Row r of the flat vector starts at TABLE_SIZE + r * WIDTH: it is row r of the
    entity encoder's card rows, whose blocks the encoder lays out in ROW_BLOCKS order."""
    structure = flat_structure(GAME)
    assert structure.observation_size == FLAT.shape(GAME)[0]
    assert structure.rows_at == encoders.TABLE_SIZE
    assert (structure.rows, structure.row_width) == (encoders.CARD_ROWS, encoders.WIDTH)
    assert structure.num_actions == actions.NUM_ACTIONS
    assert structure.named_rows == 3
    assert structure.action_features.shape == (actions.NUM_ACTIONS, len(FEATURES))
    state = GAME.new_state(5)
    flat = FLAT.encode(state, state.current_player)
    entity = encoders.ENCODERS["entity"].encode(state, state.current_player)
    rows = flat[structure.rows_at : structure.rows_end].reshape(structure.rows, -1)
    np.testing.assert_array_equal(rows, entity[: encoders.CARD_ROWS])
    assert zone_of(flat, encoders.HAND_ROW) == "own hand"


def check_action(
    structure: ActionStructure, observation: np.ndarray, action: int, text: str
) -> None:
    """The action's named rows hold cards of their blocks' zones; a play at a unit names
    both sides' rows at the slot, and the one on the side its card aims at holds a unit.
    The "target unit" feature is set exactly when a target row is named."""
    actor, own, enemy = (int(row) for row in structure.action_rows[action])
    aims_at_unit = structure.action_features[action, FEATURES.index("target unit")] == 1.0
    assert aims_at_unit == ((own, enemy) != (NO_ROW, NO_ROW)), text
    if actor != NO_ROW:
        assert zone_of(observation, actor) == block_zone(actor), (text, actor)
    kind, _ = actions.decode(action)
    if kind == "play" and own != NO_ROW:
        aims_at_enemy = card_row(observation, actor)[TARGETS_ENEMY] == 1.0
        target, zone = (enemy, "enemy unit") if aims_at_enemy else (own, "own unit")
        assert zone_of(observation, target) == zone, (text, target)
        return
    for row in (own, enemy):
        if row != NO_ROW:
            assert zone_of(observation, row) == block_zone(row), (text, row)


@pytest.mark.parametrize("first, second", list(itertools.combinations(HEROES, 2)))
def test_every_legal_action_names_rows_holding_its_cards(first: str, second: str) -> None:
    """Plays name a filled hand slot and their target's unit (GD-4.2 (B)), moves, shots and
    attacks an own unit (GD-5.2, GD-6.1, GD-7.1), blocks the defender's own blocker and the
    enemy attacker (GD-7.1, in the defender's view), strikes an enemy unit (GD-7.4); the
    kind and target features match the action."""
    game = GoldDustGame((first, second))
    structure = flat_structure(game)
    generator = random.Random(7)
    checked: set[str] = set()
    for seed in range(GAMES_PER_PAIR):
        state = game.new_state(seed)
        while not state.is_terminal():
            seat = state.current_player
            observation = FLAT.encode(state, seat)
            for action in state.legal_actions():
                kind, _ = actions.decode(action)
                assert structure.action_features[action, FEATURES.index(f"kind {kind}")] == 1.0
                text = state.action_to_string(action, seat)
                check_action(structure, observation, action, text)
                if (structure.action_rows[action] != NO_ROW).any():
                    checked.add(kind)
            state.apply(generator.choice(state.legal_actions()))
    assert checked == {"play", "move", "shoot", "attack", "block", "strike"}, checked


def test_rows_and_features_of_each_kind_of_action() -> None:
    structure = flat_structure(GAME)
    rows, features = structure.action_rows, structure.action_features
    hand, own, enemy = encoders.HAND_ROW, encoders.OWN_ROW, encoders.ENEMY_ROW

    def named(action: int) -> list[int]:
        return [int(row) for row in rows[action]]

    def feature(action: int, name: str) -> float:
        return float(features[action, FEATURES.index(name)])

    # A play's target slot is on the side its card aims at, which only the card says.
    play_unit = actions.play_action(3, 2 + 5)
    assert named(play_unit) == [hand + 3, own + 5, enemy + 5]
    assert feature(play_unit, "target unit") == 1.0
    assert feature(play_unit, "actor row's slot / 8") == pytest.approx(3 / 8)
    assert feature(play_unit, "own target row's slot / 8") == pytest.approx(5 / 8)
    assert feature(play_unit, "enemy target row's slot / 8") == pytest.approx(5 / 8)
    play_hero = actions.play_action(1, actions.HERO_TARGET)
    assert named(play_hero) == [hand + 1, NO_ROW, NO_ROW]
    assert feature(play_hero, "target Hero") == 1.0
    assert named(actions.play_action(0, actions.NO_TARGET)) == [hand, NO_ROW, NO_ROW]
    assert feature(actions.play_action(0, actions.NO_TARGET), "target none") == 1.0
    # GD-5.2 moves up and GD-7.1 attacks name the own unit alone.
    assert named(actions.move_action(6)) == [own + 6, NO_ROW, NO_ROW]
    assert named(actions.attack_action(2)) == [own + 2, NO_ROW, NO_ROW]
    # GD-6.1 shots at an enemy unit, GD-6.2 at the enemy Hero (no row).
    assert named(actions.shoot_action(4, 1 + 7)) == [own + 4, NO_ROW, enemy + 7]
    assert feature(actions.shoot_action(4, 1 + 7), "enemy target row's slot / 8") == 7 / 8
    assert named(actions.shoot_action(4, 0)) == [own + 4, NO_ROW, NO_ROW]
    assert feature(actions.shoot_action(4, 0), "target Hero") == 1.0
    # GD-7.1: the defender decides a block, its blocker is its own, the attacker the enemy's.
    block = actions.block_action(3, 5)
    assert named(block) == [own + 5, NO_ROW, enemy + 3]
    assert feature(block, "actor row's slot / 8") == pytest.approx(5 / 8)
    # GD-7.4: the striking attacker is the next one, not part of the id.
    assert named(actions.strike_action(1 + 2)) == [NO_ROW, NO_ROW, enemy + 2]
    assert named(actions.strike_action(0)) == [NO_ROW, NO_ROW, NO_ROW]
    assert feature(actions.strike_action(0), "kind strike") == 1.0
    assert named(actions.DONE) == [NO_ROW, NO_ROW, NO_ROW]
    kinds = [f for f in FEATURES if f.startswith("kind ")]
    targets = [f for f in FEATURES if f.startswith("target ")]
    for names in (kinds, targets):
        columns = [FEATURES.index(name) for name in names]
        np.testing.assert_array_equal(features[:, columns].sum(axis=1), 1.0)


def stacked(p0: dict, p1: dict) -> GoldDustState:
    """Thief Heroes and decks of five Militia, player 0 to move (as the rule tests)."""
    base = {"hero": "Thief", "deck": ["Militia"] * 5}
    return GAME.stacked_state([{**base, **p0}, {**base, **p1}])


def act(state: GoldDustState, *texts: str) -> None:
    for text in texts:
        state.apply(state.string_to_action(text))


def rows_of(state: GoldDustState, text: str) -> tuple[np.ndarray, list[int]]:
    """The deciding player's observation and the rows the action ``text`` names."""
    action = state.string_to_action(text)
    assert action in state.legal_actions(), text
    rows = flat_structure(GAME).action_rows[action]
    return FLAT.encode(state, state.current_player), [int(row) for row in rows]


def test_named_rows_hold_the_cards_of_a_play_a_block_and_a_strike() -> None:
    """The rows a scorer reads hold the very cards: a play's card and both sides' slots
    (the card's "targets the enemy" says which holds its target), the defender's blocker
    and the enemy attacker while it blocks (GD-7.1), the striker's enemy target (GD-7.4)."""
    state = stacked(
        {"hand": ["Firebolt", "Iron Helm"], "front": ["Swordsman"], "gold": 5, "dust": 5},
        {"front": ["Wall", "Pikeman"], "back": ["Militia"]},
    )
    observation, (actor, own, enemy) = rows_of(state, "play Firebolt>Pikeman")
    assert holds(observation, actor, "Firebolt") and card_row(observation, actor)[TARGETS_ENEMY]
    assert holds(observation, enemy, "Pikeman") and zone_of(observation, own) is None
    observation, (actor, own, enemy) = rows_of(state, "play Iron Helm>Swordsman")
    assert holds(observation, actor, "Iron Helm")
    assert not card_row(observation, actor)[TARGETS_ENEMY]
    assert holds(observation, own, "Swordsman") and holds(observation, enemy, "Wall")
    while state.phase != ATTACK:
        act(state, "done")
    act(state, "attack Swordsman")
    assert state.phase == BLOCK and state.current_player == 1
    observation, (actor, own, enemy) = rows_of(state, "block Swordsman with Pikeman")
    assert holds(observation, actor, "Pikeman") and zone_of(observation, actor) == "own unit"
    assert holds(observation, enemy, "Swordsman") and card_row(observation, enemy)[ATTACKING]
    assert own == NO_ROW
    act(state, "done")
    assert state.phase == STRIKE and state.current_player == 0
    observation, (actor, own, enemy) = rows_of(state, "strike Swordsman>Militia")
    assert holds(observation, enemy, "Militia") and zone_of(observation, enemy) == "enemy unit"
    assert actor == own == NO_ROW
