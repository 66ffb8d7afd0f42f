"""The steps of an HKK turn (HK-3, HK-6) by number: ``state.phase`` is one of these, and
``turns.PHASES`` holds the phase object of each, in the same order."""

from __future__ import annotations

PHASE_NAMES = (
    "upkeep", "sacrifice", "main", "swap", "before attacks", "declare", "after attacks",
    "direct damage", "saving after breath", "saving after strike", "main again", "healing",
    "over",
)  # fmt: skip
"""Each step's name, as the notation, rendering and stacked positions give it."""
(UPKEEP, SACRIFICE, MAIN, SWAP, BEFORE_ATTACKS, DECLARE, AFTER_ATTACKS, DIRECT, SAVE_BREATH,
 SAVE_STRIKE, MAIN2, HEALING, OVER) = range(len(PHASE_NAMES))  # fmt: skip
PREPARATION = (UPKEEP, SACRIFICE)
"""HK-3.1: no card is played, and a creature leaving play gives no components (HK-5.1)."""
MAIN_PHASES = (MAIN, MAIN2)
"""HK-3.3, HK-3.6: where cards other than instants are played."""
WINDOWS = (MAIN, BEFORE_ATTACKS, AFTER_ATTACKS, SAVE_BREATH, SAVE_STRIKE, MAIN2, HEALING)
"""Steps in which instants and abilities may be used, taking turns (HK-8.3, HK-8.4)."""
COMBAT = (BEFORE_ATTACKS, DECLARE, AFTER_ATTACKS, DIRECT, SAVE_BREATH, SAVE_STRIKE)
"""HK-3.5, HK-6."""
