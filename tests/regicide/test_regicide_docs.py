"""Regicide's page, docs/games/regicide.md, has an action table that matches the action ids
(the generic checks of every game's spaces are in tests/test_docs_games.py)."""

from __future__ import annotations

from pathlib import Path

from tabletop.envs.regicide.cards import DISCARD_BASE, DONE, FLIP, NEXT_BASE, NUM_ACTIONS

DASH = "\u2013"  # the docs write index ranges with an en dash
PAGE = (Path(__file__).parents[2] / "docs" / "games" / "regicide.md").read_text(encoding="utf-8")


def test_action_table_matches_the_action_ids() -> None:
    assert f"Discrete({NUM_ACTIONS})" in PAGE
    assert f"| {DISCARD_BASE}{DASH}{DONE - 1} | discard" in PAGE
    assert f"| {DONE} | stop discarding" in PAGE and f"| {FLIP} | solo" in PAGE
    assert f"| {NEXT_BASE}{DASH}{NUM_ACTIONS - 1} | choose the next player" in PAGE
