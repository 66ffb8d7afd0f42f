"""Kult's action structure (envs/kult/structure.py): it fits the flat observation of 2, 3
and 4 players, and along random games the rows every legal action names are the ones the
action is about and hold what the rules ask of them."""

from __future__ import annotations

import random

import numpy as np
import pytest

from tabletop.envs.kult import actions, encoders
from tabletop.envs.kult.actions import HUB, NO_COLOUR, POOL, POOL_TARGET
from tabletop.envs.kult.engine import KultGame, KultState
from tabletop.envs.kult.structure import FEATURES, KINDS, flat_structure

PLAYERS = (2, 3, 4)
Place = tuple[str, int, int] | None
"""What an action names: ("cross", seat offset, station 0-7), ("hand", 0, slot) or none."""


def test_the_structure_fits_the_flat_observation_of_every_player_count() -> None:
    for players in PLAYERS:
        game = KultGame(num_players=players)
        structure = flat_structure(game)
        parts = {name: part for name, part, _ in encoders.flat_layout(game.pool, players)}
        width = encoders.row_layout(game.pool, players)[-1][1].stop
        assert structure.observation_size == encoders.ENCODERS["flat"].shape(game)[0]
        assert structure.rows_at == parts["cross_rows"].start
        assert structure.rows_end == parts["hand_rows"].stop
        assert (structure.rows, structure.row_width) == (8 * players + 10, width)
        assert structure.num_actions == actions.NUM_ACTIONS
        assert structure.action_features.shape == (actions.NUM_ACTIONS, len(FEATURES))


class Row:
    """One card row of an observation, read by its column names (``row_layout``)."""

    def __init__(self, values: np.ndarray, columns: dict[str, int]) -> None:
        self.values, self.columns = values, columns

    def __getitem__(self, name: str) -> float:
        return float(self.values[self.columns[name]])

    def place(self) -> Place:
        """Where the row says it is: a cross's station (seat relative to the observer) or
        a hand; none for an empty hand slot (all zeros)."""
        if self["in a cross"]:
            return "cross", self.set_in("controller seat +"), self.set_in("station ") - 1
        return ("hand", 0, -1) if self["in hand"] else None

    def set_in(self, prefix: str) -> int:
        """The number after ``prefix`` of the one column of a one-hot that is set."""
        suffixes = [name[len(prefix) :] for name in self.columns if name.startswith(prefix)]
        (number,) = (int(n) for n in suffixes if n.isdigit() and self[prefix + n])
        return number

    def kind(self) -> str | None:
        """The kind of the card it holds, none for an empty station."""
        return next((k for k in encoders.KINDS if self[f"kind {k}"]), None)

    def takes_a_token(self) -> bool:
        """KU-3.4: a card whose holding limit now is above its tokens."""
        return self.kind() is not None and self["holding limit now / 3"] > self["tokens / 3"]


def _columns(game: KultGame) -> dict[str, int]:
    geo = encoders.geometry(game.pool, game.num_players)
    names = (*geo.position_names, *geo.static_names, *geo.dynamic_names)
    assert len(names) == encoders.row_layout(game.pool, game.num_players)[-1][1].stop
    return {name: column for column, name in enumerate(names)}


def _places(kind: str, fields: tuple[int, ...]) -> tuple[Place, Place]:
    """What an action acts with and aims at, as actions.py describes its fields: attract,
    recruit, push, turn and invoke act on the mover's own cross (seat offset 0)."""

    def own(station: int) -> Place:
        return None if station in (HUB, POOL) else ("cross", 0, station)

    if kind in ("attract", "push"):
        return own(fields[0]), own(fields[1])
    if kind == "recruit":
        return None, own(fields[0])
    if kind in ("turn", "invoke"):
        return own(fields[0]), None
    if kind in ("play", "attach"):
        slot, offset, station = fields
        return ("hand", 0, slot), None if station in (HUB, POOL) else ("cross", offset, station)
    if kind == "attack":
        return ("cross", 0, fields[0]), ("cross", fields[1], fields[2])
    if kind in ("command", "discard"):
        return ("hand", 0, fields[0]), None
    return None, None


def _check_rules(kind: str, fields: tuple[int, ...], first: Row | None, second: Row | None) -> None:
    """What the rules ask of the rows of a legal action."""
    if kind == "attract":  # KU-7.2: from a face-up card holding a token, onto one
        assert first["face up"] and first["tokens / 3"] > 0
        assert second is None or (second["face up"] and second.takes_a_token())
    elif kind == "recruit":  # KU-7.3: onto a face-up Cast card that can hold it
        assert second["face up"] and second.takes_a_token()
    elif kind == "push":  # KU-6.1, KU-6.2, KU-8.1: a token outward, onto a card that holds it
        assert first is None or first["tokens / 3"] > 0
        assert second is None or second.takes_a_token()
    elif kind == "play":  # KU-3.1, KU-1.3, KU-7.4: a base card onto an empty station it lists
        assert first.kind() in ("place", "being", "spell") and second.kind() is None
        assert first[f"may occupy station {fields[2] + 1}"]
    elif kind == "attach":  # KU-3.2: onto what the Influence attaches to
        assert first.kind() == "influence"
        attach = next(a for a in encoders.ATTACH if first[f"attach {a}"])
        if second is None:
            assert attach in ("hub", "pool")
        elif attach != "station":
            assert second.kind() == attach if attach in ("being", "place") else second.kind()
    elif kind == "command":  # KU-3.3
        assert first.kind() == "command"
    elif kind == "discard":  # KU-7.6
        assert first.kind() is not None
    elif kind in ("turn", "invoke"):  # KU-5.2, KU-6.5: a face-up card's ability
        assert first["face up"]
        assert kind == "turn" or not first["push ability used this turn"]
    elif kind == "attack":  # KU-7.5: face-up Beings of two Casts
        for row in (first, second):
            assert row.kind() == "being" and row["face up"] and row.set_in("station ") >= 5


def _check_action(
    state: KultState, observation: np.ndarray, action: int, columns: dict[str, int]
) -> set[tuple[str, int]]:
    """The rows ``action`` names are where the action acts and aims, holding what the rules
    ask; its features name its kind (and seat offset). Returns (kind, seat offset) of each
    station row it names, (kind, -1) for none."""
    structure = flat_structure(state.game)
    seat = state.current_player
    kind, fields = actions.decode(action)
    features = dict(zip(FEATURES, structure.action_features[action], strict=True))
    assert features[f"kind {kind}"] == 1.0
    if kind in ("play", "attack") or (kind == "attach" and fields[1] >= 0):
        assert features[f"seat +{fields[1]}"] == 1.0
    rows = []
    for row, expected in zip(structure.action_rows[action], _places(kind, fields), strict=True):
        if expected is None:
            assert row == structure.rows, (state.action_to_string(action), row)
            rows.append(None)
            continue
        start = structure.rows_at + int(row) * structure.row_width
        named = Row(observation[start : start + structure.row_width], columns)
        if expected[0] == "hand":  # a hand row holds the card of its slot (no slot column)
            assert named.place() == ("hand", 0, -1)
            card = state.table.cards[state.hands[seat][expected[2]]]
            geo = encoders.geometry(state.game.pool, state.game.num_players)
            card_part = encoders.row_layout(state.game.pool, state.game.num_players)[1][1]
            assert np.array_equal(named.values[card_part], geo.static[card.index])
        else:
            assert named.place() == expected, (state.action_to_string(action), row)
        rows.append(named)
    _check_rules(kind, fields, *rows)
    seats = {(kind, place[1]) for place in _places(kind, fields) if place and place[0] == "cross"}
    return seats or {(kind, -1)}


@pytest.mark.parametrize("players", PLAYERS)
def test_every_legal_action_names_the_rows_it_is_about(players: int) -> None:
    """Along random games every legal action's rows are the stations (of the seat the
    action names, relative to the mover) and hand slots it is about, as the flat encoder
    shows them to the mover, and hold what the rules ask (``_check_rules``)."""
    game = KultGame(num_players=players)
    columns = _columns(game)
    encoder = encoders.ENCODERS["flat"]
    generator = random.Random(players)
    checked: set[tuple[str, int]] = set()
    for seed in range(3):
        state = game.new_state(seed)
        while not state.is_terminal():
            observation = encoder.encode(state, state.current_player)
            for action in state.legal_actions():
                checked |= _check_action(state, observation, action, columns)
            state.apply(generator.choice(state.legal_actions()))
    assert {kind for kind, _ in checked} == set(KINDS)
    assert {("play", offset) for offset in range(players)} <= checked
    assert {("attack", offset) for offset in range(players)} <= checked


def test_rows_and_features_of_each_kind_of_action() -> None:
    """With 3 players: 24 station rows (seat offset o's station s is row 8o + s), hand slot
    h is row 24 + h, 34 names no row."""
    structure = flat_structure(KultGame(num_players=3))
    rows, features = structure.action_rows, structure.action_features
    none = structure.rows
    assert none == 34

    def named(action: int) -> list[int]:
        return [int(row) for row in rows[action]]

    def feature(action: int, name: str) -> float:
        return float(features[action, FEATURES.index(name)])

    assert named(actions.DONE) == [none, none]
    assert features[actions.DONE].sum() == feature(actions.DONE, "kind done") == 1.0
    # KU-7.2: a Cast token onto an own Scene card; a Scene token into the Hub (no row)
    assert named(actions.attract_action(5, 2)) == [5, 2]
    into_hub = actions.attract_action(1, HUB)
    assert named(into_hub) == [1, none] and feature(into_hub, "to the Hub") == 1.0
    # KU-7.3: from the Pool (no row) onto an own Cast card
    assert named(actions.recruit_action(6)) == [none, 6]
    # KU-6.3: from the Hub across an empty Scene; KU-6.5: a paying push to the Pool
    from_hub = actions.push_action(HUB, 4, 2)
    assert named(from_hub) == [none, 4]
    assert feature(from_hub, "from the Hub") == feature(from_hub, "colour rose") == 1.0
    paying = actions.push_action(7, POOL, NO_COLOUR)
    assert named(paying) == [7, none]
    assert feature(paying, "to the Pool") == feature(paying, "no colour (a paying push)") == 1.0
    # KU-7.4: a base card into the cross of the seat after next
    play = actions.play_action(3, 2, 6)
    assert named(play) == [24 + 3, 16 + 6] and feature(play, "seat +2") == 1.0
    assert feature(play, "first row's position") == pytest.approx(3 / 10)
    assert feature(play, "second row's position") == pytest.approx(6 / 8)
    # KU-3.2: onto a station of the next seat, its Hub, the Pool
    assert named(actions.attach_action(0, actions.attach_target(1, 4))) == [24, 12]
    onto_hub = actions.attach_action(1, actions.attach_target(2, HUB))
    assert named(onto_hub) == [25, none]
    assert feature(onto_hub, "to the Hub") == feature(onto_hub, "seat +2") == 1.0
    onto_pool = actions.attach_action(9, POOL_TARGET)
    assert named(onto_pool) == [33, none] and feature(onto_pool, "to the Pool") == 1.0
    assert not any(feature(onto_pool, f"seat +{offset}") for offset in range(4))
    assert named(actions.COMMAND_BASE + 4) == [28, none]
    assert named(actions.DISCARD_BASE + 9) == [33, none]
    # KU-5.2, KU-6.5: an own card's ability
    assert named(actions.TURN_BASE + 2) == [2, none]
    assert named(actions.INVOKE_BASE + 7) == [7, none]
    # KU-7.5: own Cast 6 against Cast 8 of the next seat
    attack = actions.attack_action(5, 1, 7)
    assert named(attack) == [5, 15] and feature(attack, "seat +1") == 1.0
    assert feature(attack, "kind attack") == 1.0


def test_a_seat_the_game_lacks_names_no_row() -> None:
    """Seat offset 3 exists with 4 players only: with 3 its station is no row (never legal)."""
    play, attack = actions.play_action(3, 3, 6), actions.attack_action(4, 3, 5)
    three = flat_structure(KultGame(num_players=3))
    assert [int(r) for r in three.action_rows[play]] == [24 + 3, three.rows]
    assert [int(r) for r in three.action_rows[attack]] == [4, three.rows]
    four = flat_structure(KultGame(num_players=4))
    assert [int(r) for r in four.action_rows[play]] == [32 + 3, 24 + 6]
    assert [int(r) for r in four.action_rows[attack]] == [4, 24 + 5]
