"""The card-data helpers every card game shares: packaged files, deck specs, names, and
the limits every card and deck file is held to (malformed files over every card game)."""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from tabletop import envs
from tabletop.envs.core.cards.data import (
    MAX_DEPTH,
    MAX_FILE_BYTES,
    MAX_ITEMS,
    MAX_RECORDS,
    CardDataError,
    PackagedData,
    PoolHeader,
    StrictModel,
    find_named,
    read_toml,
)
from tabletop.envs.gold_and_dust import cards as gd_cards
from tabletop.envs.hkk import cards as hkk_cards
from tabletop.envs.kult import cards as kult_cards

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


# ----- malformed card and deck files, over every card game (issue 31) ---------------------

CARD_MODULES = {"gold_and_dust": gd_cards, "kult": kult_cards, "hkk": hkk_cards}
LIST_FIELDS = {
    "gold_and_dust": ('keywords = ["charge"]', "keywords = [{}]", "keywords"),
    "kult": ("stations = [", "stations = [{}, ", "stations"),
    "hkk": ("subtypes = [", "subtypes = [{}, ", "subtypes"),
}
"""Per game: a list field of a packaged card, its rewrite holding ``{}``, and its name."""
VALUES = {"gold_and_dust": '"charge"', "kult": "1", "hkk": '"dragon"'}


def pool_with(tmp_path: Path, game: str, old: str, new: str) -> Path:
    """The game's packaged pool with the first ``old`` replaced by ``new``."""
    text = CARD_MODULES[game].data_path("pool.toml").read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / f"{game}.toml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


def nested(levels: int) -> str:
    return "[" * levels + "]" * levels


@pytest.mark.parametrize("game", CARD_MODULES)
def test_packaged_pools_and_decks_load_within_the_limits(game: str) -> None:
    module = CARD_MODULES[game]
    pool = module.load_pool()
    for deck in envs.spec(game).decks:
        assert module.load_deck(deck, pool).cards


@pytest.mark.parametrize("game", CARD_MODULES)
@pytest.mark.parametrize("kind", ["pool", "deck"])
def test_arrays_nested_1000_deep_are_an_error_naming_the_file(
    tmp_path: Path, game: str, kind: str
) -> None:
    """The TOML parser's RecursionError becomes a CardDataError."""
    path = tmp_path / "deep.toml"
    path.write_text(f"name = {nested(1000)}\n", encoding="utf-8")
    module = CARD_MODULES[game]
    with pytest.raises(CardDataError, match=r"^deep\.toml: tables and arrays nested too deep"):
        module.load_pool(path) if kind == "pool" else module.load_deck(path, module.load_pool())


@pytest.mark.parametrize("game", CARD_MODULES)
def test_arrays_nested_deeper_than_the_limit_name_the_card_and_field(
    tmp_path: Path, game: str
) -> None:
    old, new, field = LIST_FIELDS[game]
    path = pool_with(tmp_path, game, old, new.format(nested(MAX_DEPTH)))
    with pytest.raises(CardDataError) as error:
        CARD_MODULES[game].load_pool(path)
    assert re.match(
        rf"{game}\.toml: card '[^']+': field '{field}(\[0\])+': tables and arrays nested more "
        rf"than {MAX_DEPTH} deep$",
        str(error.value),
    ), error.value


@pytest.mark.parametrize("game", CARD_MODULES)
def test_a_list_holding_one_value_10_000_times_is_refused_naming_the_card_and_field(
    tmp_path: Path, game: str
) -> None:
    old, new, field = LIST_FIELDS[game]
    path = pool_with(tmp_path, game, old, new.format(", ".join([VALUES[game]] * 10_000)))
    with pytest.raises(CardDataError) as error:
        CARD_MODULES[game].load_pool(path)
    assert re.match(
        rf"{game}\.toml: card '[^']+': field '{field}': 10,00\d items; an array holds at most "
        rf"{MAX_ITEMS}$",
        str(error.value),
    ), error.value


@pytest.mark.parametrize(
    ("game", "old", "new", "field"),
    [
        ("gold_and_dust", 'keywords = ["charge"]', 'keywords = ["charge", "vanguard", "charge"]',
         "keywords"),
        ("hkk", "subtypes = [", 'subtypes = ["wyrm", "wyrm", ', "subtypes"),
    ],
)  # fmt: skip
def test_a_set_like_list_with_a_repeat_is_refused_naming_the_card_and_field(
    tmp_path: Path, game: str, old: str, new: str, field: str
) -> None:
    """A keyword or subtype held twice is a mistake, not a stronger one: refused, not merged."""
    path = pool_with(tmp_path, game, old, new)
    with pytest.raises(CardDataError, match=rf"^{game}\.toml: card '[^']+': field '{field}': '"):
        CARD_MODULES[game].load_pool(path)


def test_more_records_than_the_limit_are_refused_naming_the_array(tmp_path: Path) -> None:
    path = tmp_path / "many.toml"
    path.write_text('[[card]]\nname = "x"\n' * (MAX_RECORDS + 1), encoding="utf-8")
    with pytest.raises(CardDataError, match=r"^many\.toml: field 'card': 1,001 entries; a file"):
        read_toml(path)


@pytest.mark.parametrize("game", CARD_MODULES)
@pytest.mark.parametrize("value", ["1.0", "true", '"1"', "2"])
def test_a_format_other_than_the_integer_1_is_refused(
    tmp_path: Path, game: str, value: str
) -> None:
    """``1.0 == 1`` and ``True == 1`` in Python, but neither is the format's version."""
    path = pool_with(tmp_path, game, "format = 1", f"format = {value}")
    message = rf"^{game}\.toml: field 'format': the file format's version is 1 \(an integer\), got "
    with pytest.raises(CardDataError, match=message + re.escape(value)):
        CARD_MODULES[game].load_pool(path)


@pytest.mark.parametrize("game", CARD_MODULES)
@pytest.mark.parametrize("value", [1, 2.5, [1, 2], ("a",), {"a": 1}, True])
def test_a_pool_option_that_is_no_path_is_an_error_naming_the_option(game: str, value: Any) -> None:
    with pytest.raises(ValueError, match="pool") as error:
        envs.make_game(game, pool=value)
    assert not isinstance(error.value, TypeError)


def deck_values(game: str) -> list[Any]:
    """Values of the ``decks`` option that name no decks, at the game's seat count."""
    seats = envs.spec(game).default_players
    names = envs.spec(game).decks[:seats]
    return [1, [1] * seats, (None,) * seats, [names[0], 7], dict.fromkeys(names, 1)]


@pytest.mark.parametrize(
    ("game", "value"), [(game, value) for game in CARD_MODULES for value in deck_values(game)]
)
def test_a_decks_option_that_names_no_decks_is_an_error_naming_the_option(
    game: str, value: Any
) -> None:
    """Numbers, ``None`` and a dict (even one keyed by packaged decks' names) are refused."""
    with pytest.raises(ValueError, match="deck") as error:
        envs.make_game(game, decks=value)
    assert not isinstance(error.value, TypeError)


@pytest.mark.parametrize("game", CARD_MODULES)
def test_a_file_over_the_size_limit_is_refused_unread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, game: str
) -> None:
    """A 50 MB file (sparse here) is refused from its size alone: nothing is opened."""
    path = tmp_path / "huge.toml"
    with path.open("wb") as file:
        file.truncate(50_000_000)
    opened: list[Path] = []
    monkeypatch.setattr(Path, "open", lambda self, *a, **k: opened.append(self))
    with pytest.raises(
        CardDataError, match=r"^huge\.toml: more than 1,048,576 bytes \(50,000,000\)"
    ):
        CARD_MODULES[game].load_pool(path)
    assert opened == []


def test_a_file_that_grows_past_the_limit_is_read_only_one_byte_beyond_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The size is checked again on what was read, and the read stops past the limit."""
    path = tmp_path / "growing.toml"
    path.write_bytes(b"#" * (MAX_FILE_BYTES + 1000))
    reported = os.stat_result((stat.S_IFREG | 0o644, 0, 0, 1, 0, 0, 10, 0, 0, 0))
    monkeypatch.setattr(Path, "stat", lambda self, **k: reported)
    with pytest.raises(CardDataError, match=r"more than 1,048,576 bytes \(1,048,577\)"):
        read_toml(path)


@pytest.mark.parametrize("game", CARD_MODULES)
@pytest.mark.parametrize(("path", "problem"), [("/dev/zero", "not a regular file"),
                                               ("/etc", "is a directory")])  # fmt: skip
def test_devices_and_directories_are_refused_unread(game: str, path: str, problem: str) -> None:
    module = CARD_MODULES[game]
    with pytest.raises(CardDataError, match=f"^{path}: {problem}"):
        module.load_pool(path)
    with pytest.raises(CardDataError, match=f"^{path}: {problem}"):
        module.load_deck(path, module.load_pool())


def test_a_path_with_a_nul_character_is_refused_naming_it() -> None:
    with pytest.raises(CardDataError, match=r"^'a\\x00b\.toml': not a file name"):
        read_toml("a\0b.toml")


KULT_HEX = "modifiers = { combat = { amount = -2 } }"
KULT_KEYS = 'modifiers = { keys = { colours = ["rose"] } }'


@pytest.mark.parametrize(
    ("old", "new", "field", "problem"),
    [
        (KULT_HEX, 'modifiers = { combat = { amount = "2" } }', "modifiers.combat.amount",
         "Input should be a valid integer"),
        (KULT_HEX, "modifiers = { combat = { } }", "modifiers.combat.amount", "Field required"),
        (KULT_KEYS, 'modifiers = { keys = { colours = ["mauve"] } }',
         r"modifiers.keys.colours\[0\]", "Input should be 'skull'"),
        (KULT_HEX, "modifiers = { combat = { amount = 1000000 } }", "modifiers.combat.amount",
         "Input should be less than or equal to 5"),
        (KULT_HEX, "modifiers = { combat = { amount = -6 } }", "modifiers.combat.amount",
         "Input should be greater than or equal to -5"),
    ],
)  # fmt: skip
def test_a_wrong_kult_modifier_names_the_file_card_and_field(
    tmp_path: Path, old: str, new: str, field: str, problem: str
) -> None:
    path = pool_with(tmp_path, "kult", old, new)
    with pytest.raises(
        CardDataError, match=rf"^kult\.toml: card '[^']+': field '{field}': {problem}"
    ):
        kult_cards.load_pool(path)
