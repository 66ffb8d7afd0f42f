"""A fixed action space as named blocks laid end to end (a mixed-radix layout).

A card game's actions address slots (hand slot, table position, target, ...), never card
ids, so one ``Discrete(total)`` serves every pool and deck. Each kind of action is a block:
its fields are the digits of a mixed-radix number, most significant first, and the block
starts where the one before it ends. Declaring the blocks once gives every block's base
and size, its ``encode`` and ``decode``, and the total, so the ids and the documentation
tables cannot drift apart from hand-kept ``*_BASE`` sums.

``ActionLayout.decode`` reads a table computed once for every id (``ActionLayout.decoded``,
which a phase applying an action already checked legal indexes directly): decoding is on
the hot path of every engine (legality checks, notation, encoders), and a table lookup is
cheaper than searching the ranges.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from math import prod

Fields = tuple[int, ...]
Meaning = Callable[..., Fields]
"""Turns a block's digits into the fields its ``decode`` gives (e.g. ``station - 4`` back to
station), for blocks whose fields are not plain digits."""


class ActionBlock:
    """One kind of action: ``radices`` are the ranges of its fields (``()`` for a single
    action, such as pass), ids ``base`` to ``base + size - 1``."""

    __slots__ = ("name", "radices", "base", "size", "end", "encode")

    def __init__(self, name: str, radices: Sequence[int], base: int) -> None:
        if any(radix < 1 for radix in radices):
            raise ValueError(f"action block {name!r}: every field needs a range of 1 or more")
        self.name = name
        self.radices = tuple(radices)
        self.base = base
        self.size = prod(self.radices)
        self.end = base + self.size
        self.encode: Callable[..., int] = _encoder(base, self.radices)
        """The id of the action whose fields are the arguments, each within its radix
        (unchecked, as the hot path calls it; ``digits`` is its inverse)."""

    def digits(self, action: int) -> Fields:
        """The fields of an id of this block, most significant first."""
        index = action - self.base
        if not 0 <= index < self.size:
            raise ValueError(f"action {action} is not in block {self.name!r}")
        digits = []
        for radix in reversed(self.radices):
            index, digit = divmod(index, radix)
            digits.append(digit)
        return tuple(reversed(digits))


def _encoder(base: int, radices: Fields) -> Callable[..., int]:
    """``encode`` written out for one to three fields: the engines call it for every
    legal action, and a loop over the radices costs several times the sum."""
    if len(radices) == 0:
        return lambda: base
    if len(radices) == 1:
        return lambda a: base + a
    if len(radices) == 2:
        second = radices[1]
        return lambda a, b: base + a * second + b
    if len(radices) == 3:
        second, third = radices[1], radices[2]
        return lambda a, b, c: base + (a * second + b) * third + c

    def encode(*digits: int) -> int:
        index = 0
        for digit, radix in zip(digits, radices, strict=True):
            index = index * radix + digit
        return base + index

    return encode


class ActionLayout:
    """A game's action space: ``blocks`` as ``(name, radices)`` in id order. ``meanings``
    maps a block's name to how its digits read as fields; ``decode`` gives ``(name,
    fields)`` for any id, and refuses an id outside ``0..total - 1`` naming ``game``."""

    def __init__(
        self,
        game: str,
        blocks: Sequence[tuple[str, Sequence[int]]],
        meanings: Mapping[str, Meaning] | None = None,
    ) -> None:
        self.game = game
        self.blocks: dict[str, ActionBlock] = {}
        base = 0
        for name, radices in blocks:
            if name in self.blocks:
                raise ValueError(f"{game}: action block {name!r} declared twice")
            self.blocks[name] = block = ActionBlock(name, radices, base)
            base = block.end
        self.total = base
        unknown = set(meanings or {}) - set(self.blocks)
        if unknown:
            raise ValueError(f"{game}: meanings for no action block: {sorted(unknown)}")
        self.decoded = self._decode_all(meanings or {})
        """``decoded[action]`` is ``decode(action)`` without the range check: for ids
        already known to be legal (a phase applying its action), where a call costs more
        than the lookup."""

    def __getitem__(self, name: str) -> ActionBlock:
        return self.blocks[name]

    def _decode_all(self, meanings: Mapping[str, Meaning]) -> tuple[tuple[str, Fields], ...]:
        decoded = []
        for name, block in self.blocks.items():
            meaning = meanings.get(name)
            for action in range(block.base, block.end):
                digits = block.digits(action)
                decoded.append((name, meaning(*digits) if meaning else digits))
        return tuple(decoded)

    def decode(self, action: int) -> tuple[str, Fields]:
        """``(block name, fields)`` of an id."""
        if 0 <= action < self.total:
            return self.decoded[action]
        raise ValueError(f"{self.game}: action {action} is outside 0..{self.total - 1}")

    def sizes(self) -> list[tuple[str, int, int]]:
        """``(name, base, size)`` of each block in id order, for documentation tables."""
        return [(block.name, block.base, block.size) for block in self.blocks.values()]
