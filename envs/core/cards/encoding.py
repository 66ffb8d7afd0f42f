"""Encoder pieces from the zone model: a zone as counts per card definition, or as rows
of per-card features, and an effect's size from its parameters. The zone pieces read only
the zones they are given: an encoder passes those its player may see (its own hand, public
zones), and counts for the rest."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from tabletop.envs.core.cards.vocabulary import Params
from tabletop.envs.core.cards.zones import Table, iid_of


def zone_counts(table: Table, zones: Sequence[tuple[str, int]], size: int) -> np.ndarray:
    """Copies of each definition (by its ``index`` < ``size``) in each zone, the zones'
    blocks end to end: ``len(zones) * size`` numbers."""
    cards = table.cards
    indices: list[int] = []
    for block, (name, owner) in enumerate(zones):
        zone = table.zones[name][owner]
        offset = block * size
        if table.specs[name].in_play:
            indices += [offset + cards[e.iid].index for e in zone if e is not None]
        else:  # bare iids (or holes): no call per card, this runs at every env step
            indices += [offset + cards[iid].index for iid in zone if iid is not None]
    return np.bincount(indices, minlength=len(zones) * size)


def zone_rows(
    table: Table, zone: tuple[str, int],
    features: Callable[[object, object], Sequence[float]], rows: int, width: int,
) -> np.ndarray:  # fmt: skip
    """A ``rows`` x ``width`` float32 block: row i holds ``features(card, entry)`` of
    the zone's i-th position (its definition, and the bare iid or the card in play),
    zeros for an empty slot or past the zone's end."""
    out = np.zeros((rows, width), dtype=np.float32)
    for row, entry in enumerate(table.zones[zone[0]][zone[1]][:rows]):
        if entry is not None:
            out[row] = features(table.cards[iid_of(entry)], entry)
    return out


def magnitude(params: Params, *, signed: bool) -> float:
    """An effect's size from its parameters, one number an encoder can give each effect of
    a card: its numbers summed (``signed=False``: their absolute values, so that a boost of
    +2 damage and -2 life is not 0) and its lists counted (``colours = [eye, eye]`` is 2);
    flags and names do not count. 1 when that is 0, so that an effect with nothing to
    measure still shows."""
    total = 0.0
    for _, value in params:
        if isinstance(value, bool):
            continue
        if isinstance(value, int | float):
            total += value if signed else abs(value)
        elif isinstance(value, list | tuple):
            total += len(value)
    return total if total else 1.0
