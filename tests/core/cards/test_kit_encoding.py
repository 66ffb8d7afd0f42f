"""The kit's encoder pieces: a zone as counts per card, a zone as rows of card features, an
effect's size from its parameters."""

from __future__ import annotations

import numpy as np
from kit_table import POOL, ZONES, Unit

from tabletop.envs.core.cards.encoding import magnitude, zone_counts, zone_rows
from tabletop.envs.core.cards.vocabulary import NoParams, Params
from tabletop.envs.core.cards.zones import Table


def small_table() -> Table:
    table = Table(2, ZONES)
    for index in (0, 2, 2, 5):
        table.create(POOL[index], 0, "hand")
    for index, slot in ((1, 0), (3, 2)):
        iid = table.create(POOL[index], 1, "hand")
        table.remove(iid, ("hand", 1))
        table.put(Unit(iid, POOL[index], damage=index), ("board", 1), slot)
    return table


def test_zone_counts_gives_each_zone_a_block_of_copies_per_card() -> None:
    table = small_table()
    counts = zone_counts(table, [("hand", 0), ("discard", 0), ("board", 1)], len(POOL))
    assert counts.shape == (18,)
    assert counts[:6].tolist() == [1, 0, 2, 0, 0, 1]
    assert counts[6:12].tolist() == [0] * 6, "an empty zone"
    assert counts[12:].tolist() == [0, 1, 0, 1, 0, 0], "empty slots are left out"


def test_zone_rows_gives_a_row_per_position_padded_and_cut() -> None:
    table = small_table()

    def features(card, entry) -> list[float]:
        return [card.index, entry.damage + 0.5]

    rows = zone_rows(table, ("board", 1), features, rows=4, width=2)
    assert rows.dtype == np.float32 and rows.shape == (4, 2)
    assert rows.tolist() == [[1, 1.5], [0, 0], [3, 3.5], [0, 0]]
    hand = zone_rows(table, ("hand", 0), lambda card, iid: [card.index, iid], rows=2, width=2)
    assert hand.tolist() == [[0, 0], [2, 1]], "bare iids in a list zone; cut at two rows"


class Mixed(Params):
    damage: int = 0
    life: int = 0
    colours: tuple[str, ...] = ()
    pierce: bool = False
    form: str | None = None


def test_magnitude_sums_numbers_signed_or_not_and_counts_lists() -> None:
    params = Mixed(damage=2, life=-3, colours=("eye", "eye"), pierce=True, form="fire")
    assert magnitude(params, signed=True) == 1.0, "2 - 3 + 2 colours; the flag and name not"
    assert magnitude(params, signed=False) == 7.0
    assert magnitude(Mixed(damage=2, life=-2), signed=False) == 4.0


def test_magnitude_is_1_for_an_effect_with_nothing_to_measure() -> None:
    assert magnitude(NoParams(), signed=True) == magnitude(NoParams(), signed=False) == 1.0
    assert magnitude(Mixed(damage=2, life=-2), signed=True) == 1.0
