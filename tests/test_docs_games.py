"""The README documents every registered game's spaces as the code defines them."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from tabletop.envs import env_module, names

README = (Path(__file__).parents[1] / "README.md").read_text(encoding="utf-8")
DASH = "\u2013"  # the README writes index ranges with an en dash


@pytest.mark.parametrize("name", names())
def test_readme_has_a_section_per_game(name: str) -> None:
    assert f"(`{env_module(name).metadata['name']}`)" in README


@pytest.mark.parametrize("name", names())
def test_readme_lists_every_flat_feature_with_its_indices(name: str) -> None:
    encoders = importlib.import_module(f"tabletop.envs.{name}.encoders")
    for feature, part, _meaning in encoders.flat_layout():
        row = f"| `{feature}` | {part.start}{DASH}{part.stop - 1} |"
        assert row in README, f"{name}: README lacks the row {row!r}"
    assert f"float32[{encoders.FLAT_SIZE}]" in README


@pytest.mark.parametrize("name", names())
def test_readme_states_the_action_space_and_entity_shape(name: str) -> None:
    module = env_module(name)
    game = module.new_game()
    assert f"`Discrete({game.num_actions})`" in README
    rows, width = module.ENCODERS["entity"].shape(game)
    assert f"float32[{rows}, {width}]" in README
