"""Kaleva positions built by hand for the rules and narration tests."""

from __future__ import annotations

from tabletop.envs.kaleva.engine import KalevaGame, KalevaState

PLAIN = (2, 3, 4, 5, 6, 7)
"""Slot cards without Terna or Tuuri, so that no special ability interferes."""


def stacked(silver, bronze, silver_cards=PLAIN, bronze_cards=PLAIN, **setup) -> KalevaState:
    """Discs on the given squares, the given slot cards, anything else by ``setup``."""
    return KalevaGame().stacked_state(
        silver=silver, bronze=bronze, cards=(silver_cards, bronze_cards), **setup
    )
