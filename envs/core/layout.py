"""Named slices of a flat observation vector, shared by the games' flat encoders."""

from __future__ import annotations

from collections.abc import Iterable

Layout = list[tuple[str, slice, str]]
"""(feature, slice, meaning) for every part of a vector, in order."""


def stack_layout(parts: Iterable[tuple[str, int, str]]) -> Layout:
    """Lay ``(feature, size, meaning)`` parts end to end; the tables of docs/games/ and the
    encoders' offsets both come from the result, so they cannot drift apart."""
    layout: Layout = []
    start = 0
    for name, size, meaning in parts:
        layout.append((name, slice(start, start + size), meaning))
        start += size
    return layout
