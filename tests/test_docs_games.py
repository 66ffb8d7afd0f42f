"""Each registered game's page, docs/games/<game>.md, documents its spaces as the code
defines them, and the README's game table lists every game and links its page."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from tabletop.envs import make, names

ROOT = Path(__file__).parents[1]
GAMES = ROOT / "docs" / "games"
README = (ROOT / "README.md").read_text(encoding="utf-8")
DASH = "\u2013"  # the docs write index ranges with an en dash


def game_page(name: str) -> str:
    path = GAMES / f"{name}.md"
    assert path.is_file(), f"{name}: docs/games/{name}.md is missing"
    return path.read_text(encoding="utf-8")


def env_name(name: str) -> str:
    """The versioned env name, as the env reports it (``regicide_v0``)."""
    return make(name).metadata["name"]


def action_count(name: str) -> int:
    env = make(name)
    return int(env.action_space(env.possible_agents[0]).n)


def observation_shape(name: str, encoder: str) -> tuple[int, ...]:
    env = make(name, encoder=encoder)
    return env.observation_space(env.possible_agents[0])["observation"].shape


def shape_text(shape: tuple[int, ...]) -> str:
    return f"float32[{', '.join(str(size) for size in shape)}]"


@pytest.mark.parametrize("name", names())
def test_game_page_is_titled_by_the_env_name_and_links_its_rules(name: str) -> None:
    page = game_page(name)
    assert page.startswith("# ") and f"(`{env_name(name)}`)" in page.splitlines()[0]
    assert f"](../rules/{name}.md)" in page, f"{name}: its page does not link its rules"


@pytest.mark.parametrize("name", names())
def test_game_page_lists_every_flat_feature_with_its_indices(name: str) -> None:
    page = game_page(name)
    encoders = importlib.import_module(f"tabletop.envs.{name}.encoders")
    for feature, part, _meaning in encoders.flat_layout():
        row = f"| `{feature}` | {part.start}{DASH}{part.stop - 1} |"
        assert row in page, f"{name}: its page lacks the row {row!r}"
    assert shape_text(observation_shape(name, "flat")) in page


@pytest.mark.parametrize("name", names())
def test_game_page_states_the_action_space_and_entity_shape(name: str) -> None:
    page = game_page(name)
    assert f"`Discrete({action_count(name)})`" in page
    assert shape_text(observation_shape(name, "entity")) in page


@pytest.mark.parametrize("name", names())
def test_readme_game_table_lists_every_game_and_links_its_page(name: str) -> None:
    rows = [line for line in README.splitlines() if line.startswith("| [")]
    row = next((line for line in rows if f"| `{env_name(name)}` |" in line), None)
    assert row is not None, f"README's game table has no row for `{env_name(name)}`"
    assert f"](docs/games/{name}.md)" in row, f"{name}: the row does not link its page"
    assert f"`Discrete({action_count(name)})`" in row, f"{name}: the row's action count"
