"""The card-data helpers every card game shares: packaged files, deck specs, names."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from tabletop.envs.core.carddata import (
    CardDataError,
    PackagedData,
    PoolHeader,
    StrictModel,
    find_named,
)

DATA = PackagedData("tabletop.envs.gold_and_dust", ("warrior", "mage"))


def test_a_packaged_deck_name_resolves_to_its_file_and_a_path_is_kept() -> None:
    assert DATA.deck_path("mage") == DATA.path("decks", "mage.toml")
    assert DATA.deck_path("mage").is_file()
    assert DATA.deck_path("my/deck.toml") == Path("my/deck.toml")
    assert DATA.pool_path(None) == DATA.path("pool.toml")
    assert DATA.pool_path("other.toml") == Path("other.toml")


@pytest.mark.parametrize("spec", ["thief", "", "   ", "no/such/deck"])
def test_a_deck_spec_neither_packaged_nor_toml_is_refused_naming_the_decks(spec: str) -> None:
    with pytest.raises(CardDataError, match=r"neither a packaged deck \(warrior, mage\)"):
        DATA.deck_path(spec)


def test_names_are_found_case_insensitively() -> None:
    header = PoolHeader(format=1, name="Starter", version="1")
    assert find_named([header], "starter") is header
    assert find_named([header], "other") is None


def test_a_strict_record_refuses_unknown_keys_and_coercion() -> None:
    class Record(StrictModel):
        hp: int

    with pytest.raises(ValidationError):
        Record(hp="3")  # type: ignore[arg-type]
    with pytest.raises(ValidationError):
        Record(hp=3, typo=1)  # type: ignore[call-arg]
    with pytest.raises(ValidationError):
        PoolHeader(format=2, name="x", version="1")  # type: ignore[arg-type]
