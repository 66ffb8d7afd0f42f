"""A unit on the Gold & Dust table: a card in play (the kit's ``Permanent``: its instance
id and card) and the marks the rules leave on it."""

from __future__ import annotations

from tabletop.envs.core.cards.zones import Permanent
from tabletop.envs.gold_and_dust.cards import Card


class Unit(Permanent):
    """A unit on the table: its card instance and what happened to it."""

    __slots__ = (
        "hp", "max_hp", "row", "tapped", "resting", "moved", "dead", "attack_bonus",
        "armour_bonus",
    )  # fmt: skip

    card: Card

    def __init__(self, iid: int, card: Card, row: int) -> None:
        self.iid = iid  # Permanent's fields, set here: a unit is made at every play
        self.card = card
        self.hp = self.max_hp = card.hp
        self.row = row
        self.tapped = False  # shot or attacked: cannot block until its owner's turn (GD-4.2)
        self.resting = False  # blocked: may not attack in its owner's next turn (GD-7.3)
        self.moved = False  # moved up this turn: may not attack (GD-5.2)
        self.dead = False  # at 0 HP, to the graveyard after the step (GD-3.3, GD-7.5)
        self.attack_bonus = 0
        self.armour_bonus = 0

    def may_attack(self) -> bool:
        """Neither tapped nor resting (GD-7.3), nor moved up this turn without charge."""
        return not (
            self.dead or self.tapped or self.resting or (self.moved and not self.card.charge)
        )
