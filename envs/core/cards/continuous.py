"""Continuous effects: figures computed from the cards in play, never patched by hand.

An aura, a cost change or a hero's passive is data on a card (its ``statics``: parsed
modifiers of the vocabulary's continuous effects). What they add up to is a function of
which cards are where, so it is computed from the table when asked and cached until the
table changes (``Table.version`` grows with every move; ``Table.touch`` covers anything
else a game's figures read). A card leaving play takes its effect with it, a card entering
brings it: nothing has to be switched on or off.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator
from typing import Any, TypeVar

from tabletop.envs.core.cards.zones import Table, iid_of

T = TypeVar("T")


class Continuous:
    """A cache of figures derived from one table, valid while its version holds."""

    __slots__ = ("version", "values")

    def __init__(self) -> None:
        self.version = -1
        self.values: dict[Hashable, Any] = {}

    def get(self, table: Table, key: Hashable, compute: Callable[..., T], *args: Any) -> T:
        """``compute(*args)``'s value for ``key``, computed again only after the table
        changed."""
        if self.version != table.version:
            self.values = {}
            self.version = table.version
        try:
            return self.values[key]
        except KeyError:
            value = self.values[key] = compute(*args)
            return value

    def copy(self) -> Continuous:
        """A copy sharing the cached values (they are immutable)."""
        other = Continuous()
        other.version = self.version
        other.values = dict(self.values)
        return other


def statics_in(
    table: Table, zones: Iterable[tuple[str, int]], active: Callable[[Any], bool] | None = None
) -> Iterator[tuple[str, Any]]:
    """(continuous effect name, modifier) of every card in ``zones``, in zone order; with
    ``active``, only of the entries it accepts (e.g. face-up cards). The zones must be
    lasting (``ZoneSpec.lasting``), or a cached figure could outlive a move."""
    cards = table.cards
    for name, owner in zones:
        if not table.specs[name].lasting:
            raise ValueError(
                f"zone {name!r} is not lasting: its moves would not refresh the figures "
                "cached from it (declare it ZoneSpec(..., lasting=True))"
            )
        for entry in table.zones[name][owner]:
            if entry is None or (active is not None and not active(entry)):
                continue
            yield from cards[iid_of(entry)].statics
