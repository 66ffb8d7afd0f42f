"""A unit on the Gold & Dust table: its card and the marks the rules leave on it."""

from __future__ import annotations

from tabletop.envs.gold_and_dust.cards import Card


class Unit:
    """A unit on the table: its card and what happened to it."""

    __slots__ = (
        "card", "hp", "max_hp", "row", "tapped", "resting", "moved", "dead", "attack_bonus",
        "armour_bonus",
    )  # fmt: skip

    def __init__(self, card: Card, row: int) -> None:
        self.card = card
        self.hp = self.max_hp = card.hp
        self.row = row
        self.tapped = False  # shot or attacked: cannot block until its owner's turn (GD-4.2)
        self.resting = False  # blocked: may not attack in its owner's next turn (GD-7.3)
        self.moved = False  # moved up this turn: may not attack (GD-5.2)
        self.dead = False  # at 0 HP, to the graveyard after the step (GD-3.3, GD-7.5)
        self.attack_bonus = 0
        self.armour_bonus = 0

    def copy(self) -> Unit:
        other = Unit.__new__(Unit)
        for name in Unit.__slots__:
            setattr(other, name, getattr(self, name))
        return other

    def may_attack(self) -> bool:
        """Neither tapped nor resting (GD-7.3), nor moved up this turn without charge."""
        return not (
            self.dead or self.tapped or self.resting or (self.moved and not self.card.charge)
        )
