"""The game registry, with the toy env module registered in place of the real games."""

from __future__ import annotations

import pytest
import toy_v0
from toy_game import ToyGame

from tabletop import envs
from tabletop.envs.core import TabletopAEC


@pytest.fixture
def toy_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(envs.REGISTRY, "toy", "toy_v0")


def test_regicide_is_registered_lazily() -> None:
    assert "regicide" in envs.names()
    assert envs.REGISTRY["regicide"] == "tabletop.envs.regicide_v0"


@pytest.mark.usefixtures("toy_registered")
@pytest.mark.parametrize("name", ["toy", "toy_v0"])
def test_plain_and_versioned_names(name: str) -> None:
    assert envs.env_module(name) is toy_v0
    env = envs.make(name, num_players=3, max_plies=7)
    assert isinstance(env.unwrapped, TabletopAEC)
    assert env.unwrapped.max_plies == 7
    game = envs.make_game(name, num_players=3)
    assert isinstance(game, ToyGame)
    assert game.num_players == 3


@pytest.mark.usefixtures("toy_registered")
def test_names_are_sorted_and_unversioned() -> None:
    assert envs.names() == sorted(envs.REGISTRY)
    assert "toy" in envs.names()


@pytest.mark.usefixtures("toy_registered")
def test_unknown_name_lists_the_known_games() -> None:
    with pytest.raises(ValueError, match=r"unknown game 'chess'.*regicide \(regicide_v0\)"):
        envs.make("chess")
    with pytest.raises(ValueError, match=r"toy \(toy_v0\)"):
        envs.make_game("toy_v1")


@pytest.mark.usefixtures("toy_registered")
def test_unknown_options_are_rejected_listing_what_each_accepts() -> None:
    """``make`` takes the env options too, ``make_game`` only the game's."""
    known = r"known options: \['deck_size', 'hand_size', 'num_players'\]$"
    with pytest.raises(TypeError, match=r"unknown option\(s\) \['players'\]; " + known):
        envs.make_game("toy", players=3)
    with pytest.raises(TypeError, match=r"unknown option\(s\) \['players'\]") as raised:
        envs.make("toy", players=3)
    assert str(raised.value).endswith(
        "known options: ['deck_size', 'encoder', 'hand_size', 'illegal_action', 'max_plies', "
        "'num_players', 'render_mode']"
    )
