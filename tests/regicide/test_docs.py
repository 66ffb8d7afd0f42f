"""The README documents Regicide's observation and actions as the code defines them."""

from __future__ import annotations

from pathlib import Path

from tabletop.envs.regicide.cards import DISCARD_BASE, DONE, FLIP, NEXT_BASE, NUM_ACTIONS
from tabletop.envs.regicide.encoders import ENCODERS, FLAT_SIZE, flat_layout

DASH = "\u2013"  # the README writes index ranges with an en dash
README = (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")


def test_readme_lists_every_flat_feature_with_its_indices() -> None:
    for name, part, meaning in flat_layout():
        assert f"| `{name}` | {part.start}{DASH}{part.stop - 1} | {meaning} |" in README, name
    assert f"float32[{FLAT_SIZE}]" in README


def test_readme_action_table_matches_the_action_ids() -> None:
    assert f"Discrete({NUM_ACTIONS})" in README
    assert f"| {DISCARD_BASE}{DASH}{DONE - 1} | discard" in README
    assert f"| {DONE} | stop discarding" in README and f"| {FLIP} | solo" in README
    assert f"| {NEXT_BASE}{DASH}{NUM_ACTIONS - 1} | choose the next player" in README


def test_readme_states_the_entity_shape() -> None:
    rows, width = ENCODERS["entity"].shape(None)
    assert f"float32[{rows}, {width}]" in README
