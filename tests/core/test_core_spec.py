"""GameSpec: the registry refuses a module that does not meet the env-module contract, and
names the module and the field at fault."""

from __future__ import annotations

import dataclasses
import sys
import types

import pytest
import toy_v0
from toy_game import ToyGame

from tabletop import envs
from tabletop.envs.core.spec import GameSpec, GameSpecError, OptionSpec, Payoff


def register(monkeypatch: pytest.MonkeyPatch, module: types.ModuleType) -> None:
    monkeypatch.setitem(envs.REGISTRY, "toy", module.__name__)
    monkeypatch.setitem(sys.modules, module.__name__, module)


def module_with(spec: object, name: str = "toy_v0") -> types.ModuleType:
    module = types.ModuleType(name)
    module.SPEC = spec
    module.raw_env, module.env = toy_v0.raw_env, toy_v0.env
    return module


def test_the_toy_spec_reads_defaults_from_the_game_class() -> None:
    spec = toy_v0.SPEC
    assert spec.option_specs[0] == OptionSpec("num_players", 2, "players, 2 or 3", (2, 3))
    assert spec.option_specs[1].choices == ()
    assert spec.default_players == 2
    assert spec.competitive and not dataclasses.replace(spec, payoff=Payoff.IDENTICAL).competitive
    assert isinstance(spec.new_game(deck_size=5), ToyGame)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"env_name": "toy_v1"}, r"SPEC\.env_name: 'toy_v1' is not the module's name"),
        ({"encoders": {}}, r"SPEC\.encoders: no 'flat' encoder"),
        ({"min_players": 4}, r"SPEC\.min_players/max_players: 4-3"),
        ({"max_plies": 0}, r"SPEC\.max_plies: must be positive"),
        ({"options": {"num_players": "n"}}, r"SPEC\.options: declared \['num_players'\]"),
        ({"bench_options": ({"players": 2},)}, r"SPEC\.bench_options: .*\['players'\]"),
        (
            {"min_players": 3, "max_players": 4},
            r"SPEC\.options: default num_players 2 out of range",
        ),
        ({"max_players": 2, "min_players": 2}, r"a game with a player range takes 'num_players'"),
        ({"option_choices": {"colour": ("red",)}}, r"'colour' is not a declared option"),
        ({"option_choices": {"deck_size": (5, 7)}}, r"default deck_size=9 not in \(5, 7\)"),
    ],
)
def test_a_bad_spec_is_refused_naming_module_and_field(
    monkeypatch: pytest.MonkeyPatch, change: dict, message: str
) -> None:
    register(monkeypatch, module_with(dataclasses.replace(toy_v0.SPEC, **change)))
    with pytest.raises(GameSpecError, match=r"^toy_v0: .*" + message):
        envs.make_game("toy")


class ToyWithPlyLimit(ToyGame):
    """A toy whose own option takes the name of the env's truncation."""

    def __init__(self, num_players: int = 2, deck_size: int = 9, hand_size: int = 2,
                 max_plies: int = 50) -> None:  # fmt: skip
        super().__init__(num_players, deck_size, hand_size)
        self.max_plies = max_plies


def test_a_game_option_named_like_an_env_option_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``env(max_plies=...)`` is the env's truncation, so the game's could never be set."""
    options = {**toy_v0.SPEC.options, "max_plies": "decisions before a draw"}
    spec = dataclasses.replace(toy_v0.SPEC, game_class=ToyWithPlyLimit, options=options)
    register(monkeypatch, module_with(spec))
    with pytest.raises(GameSpecError, match=r"SPEC\.options: \['max_plies'\] are env options"):
        envs.make_game("toy")


def test_a_module_without_spec_or_constructors_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    register(monkeypatch, module_with(None))
    with pytest.raises(GameSpecError, match=r"toy_v0: no SPEC \(a GameSpec\) for game 'toy'"):
        envs.spec("toy")
    module = module_with(toy_v0.SPEC)
    del module.env
    register(monkeypatch, module)
    with pytest.raises(GameSpecError, match=r"toy_v0: no env\(\)"):
        envs.spec("toy")


def test_a_spec_registered_under_another_name_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    spec = dataclasses.replace(toy_v0.SPEC, name="cards")
    register(monkeypatch, module_with(spec))
    with pytest.raises(GameSpecError, match=r"SPEC\.name 'cards' is not 'toy'"):
        envs.spec("toy")


@pytest.mark.parametrize("name", envs.names())
def test_every_registered_game_meets_the_contract(name: str) -> None:
    spec = envs.spec(name)
    assert isinstance(spec, GameSpec) and spec.name == name
    game = spec.new_game()
    assert game.num_players == spec.default_players
    env = envs.make(name)
    assert env.metadata["name"] == spec.env_name
    assert env.unwrapped.max_plies == spec.max_plies
