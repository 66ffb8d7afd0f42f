"""HKK card data under random mistakes (HK-10.2): whatever is written into a card of the
starter pool, at its top level or inside its abilities, effects, modifiers and drawbacks,
loading either succeeds or raises a ``CardDataError`` that names the file and the card; no
other exception escapes the loader."""

from __future__ import annotations

import copy
import tomllib
from collections.abc import Iterator
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop.envs.core.cards.data import CardDataError
from tabletop.envs.hkk.cards import data_path, parse_pool

POOL_DATA = tomllib.loads(data_path("pool.toml").read_text(encoding="utf-8"))


def tables(value: Any) -> Iterator[dict[str, Any]]:
    """Every table (dict) in ``value``, itself included, depth first."""
    if isinstance(value, dict):
        yield value
        for item in value.values():
            yield from tables(item)
    elif isinstance(value, list):
        for item in value:
            yield from tables(item)


KEYS = sorted({key for table in tables(POOL_DATA["card"]) for key in table})
"""Every key the pool uses anywhere: a mistake is likeliest among words the format knows."""

scalars = st.one_of(
    st.booleans(), st.integers(-3, 30), st.text(max_size=12), st.sampled_from(KEYS), st.none()
)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.sampled_from(KEYS), inner, max_size=3)
    ),
    max_leaves=8,
)


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_hk_10_2_any_mistake_in_a_card_is_a_named_card_data_error(data: st.DataObject) -> None:
    pool = copy.deepcopy(POOL_DATA)
    card = data.draw(st.sampled_from(pool["card"]))
    name = card["name"]
    table = data.draw(st.sampled_from(list(tables(card))))
    key, value = data.draw(st.sampled_from(KEYS)), data.draw(values)
    if value is None:
        table.pop(key, None)
    else:
        table[key] = value
    try:
        parse_pool(pool, "fuzz.toml")
    except CardDataError as error:
        message = str(error)
        assert message.startswith("fuzz.toml: card "), message
        if card.get("name") == name:
            assert message.startswith(f"fuzz.toml: card {name!r}: "), message
