"""What an action names in an observation: the contract behind action-scoring policies.

In a card game most action ids name cards: "play the card in hand slot 3 at the enemy's
table position 5". A network with one output per action id must learn what slot 3 holds
from the observation, separately for each of the 16 slots and each target: thousands of
outputs, each learnt from the few positions where it was legal. A flat observation that
lays its cards out as rows of equal width (one row per hand slot, table position …) lets a
policy score an action from the rows it names instead, with the same weights for every
slot (``tabletop.agents.pointer``).

A game offers it per encoder in ``GameSpec.action_structures``; it belongs to that
encoder's version: changing it changes what a trained policy reads.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

NAMED_ROWS = 2
"""Rows an action names by default: what acts (a card in hand, a creature) and what it aims
at. A structure may name more (``ActionStructure.named_rows``), e.g. both sides' rows of a
target whose side only the card says."""


@dataclass(frozen=True)
class ActionStructure:
    """The card rows inside a flat observation and the rows each action id names.

    The observation is ``[before | rows x row_width | after]``: ``rows_at`` numbers, then
    the rows one after the other, then the rest. ``action_rows[a]`` holds the (up to
    ``named_rows``) row indices action ``a`` names, ``rows`` where it names none;
    ``action_features[a]`` describes the action itself (its kind, a number it carries).
    """

    observation_size: int
    rows_at: int
    rows: int
    row_width: int
    action_rows: np.ndarray
    """(actions, named_rows) int64, each in 0 … ``rows`` (``rows``: no row)."""
    action_features: np.ndarray
    """(actions, features) float32."""

    def __post_init__(self) -> None:
        problems = self.problems()
        if problems:
            raise ValueError("invalid action structure: " + "; ".join(problems))

    def problems(self) -> list[str]:
        """What contradicts the contract above (empty when nothing does)."""
        found = []
        if self.rows <= 0 or self.row_width <= 0 or self.rows_at < 0:
            found.append(f"rows {self.rows} x {self.row_width} at {self.rows_at}")
        if self.rows_at + self.rows * self.row_width > self.observation_size:
            found.append(
                f"rows end at {self.rows_at + self.rows * self.row_width}, past the "
                f"observation's {self.observation_size} numbers"
            )
        if self.action_rows.ndim != 2 or self.action_rows.shape[1] < 1:
            found.append(
                f"action_rows has shape {self.action_rows.shape}, not (actions, named rows)"
            )
        elif self.action_rows.size and not (
            self.action_rows.min() >= 0 and self.action_rows.max() <= self.rows
        ):
            found.append(f"action_rows outside 0 … {self.rows}")
        if self.action_features.ndim != 2 or len(self.action_features) != len(self.action_rows):
            found.append(
                f"action_features has shape {self.action_features.shape} for "
                f"{len(self.action_rows)} actions"
            )
        return found

    @property
    def named_rows(self) -> int:
        """Rows each action names (``rows`` filling the ones it does not)."""
        return self.action_rows.shape[1]

    @property
    def num_actions(self) -> int:
        return len(self.action_rows)

    @property
    def rows_end(self) -> int:
        """Where the numbers after the rows begin."""
        return self.rows_at + self.rows * self.row_width


def place_in_block(row: int, block_starts: Sequence[int]) -> int:
    """Where ``row`` lies within its block of rows (hand slot 3, table position 5), the
    blocks starting at ``block_starts``: the rows themselves do not say where they are, and
    a player's tie-breaks may, so a structure's features carry it."""
    return row - max(start for start in block_starts if start <= row)
