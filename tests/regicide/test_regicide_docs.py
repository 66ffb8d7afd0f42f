"""The README's Regicide action table matches the action ids (the generic checks of every
game's spaces are in tests/test_readme.py)."""

from __future__ import annotations

from pathlib import Path

from tabletop.envs.regicide.cards import DISCARD_BASE, DONE, FLIP, NEXT_BASE, NUM_ACTIONS

DASH = "\u2013"  # the README writes index ranges with an en dash
README = (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")


def test_readme_action_table_matches_the_action_ids() -> None:
    assert f"Discrete({NUM_ACTIONS})" in README
    assert f"| {DISCARD_BASE}{DASH}{DONE - 1} | discard" in README
    assert f"| {DONE} | stop discarding" in README and f"| {FLIP} | solo" in README
    assert f"| {NEXT_BASE}{DASH}{NUM_ACTIONS - 1} | choose the next player" in README
