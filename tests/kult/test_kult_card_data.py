"""Kult card data (KU-10.2): the packaged pool and decks load; every mistake in a pool or
deck file is refused with an error naming the file, the card and the field."""

from __future__ import annotations

import copy
import tomllib
from pathlib import Path
from typing import Any

import pytest

from tabletop.envs.core.cards.data import CardDataError
from tabletop.envs.kult.cards import (
    DECK_SIZE,
    PACKAGED_DECKS,
    data_path,
    load_deck,
    load_pool,
    parse_deck,
    parse_pool,
)
from tabletop.envs.kult.engine import KultGame

POOL_DATA = tomllib.loads(data_path("pool.toml").read_text(encoding="utf-8"))
POOL = load_pool()


def pool_with(card: dict[str, Any] | None = None, **header: Any) -> dict[str, Any]:
    data = copy.deepcopy(POOL_DATA)
    data.update(header)
    if card is not None:
        data["card"].append(card)
    return data


def being(**fields: Any) -> dict[str, Any]:
    return {"name": "Test Being", "kind": "being", "text": "t", "combat": 1, "stations": [5],
            **fields}  # fmt: skip


def test_ku_10_2_the_packaged_pool_and_decks_load() -> None:
    assert POOL.data_version == "Starter pool 1.1"
    for name in PACKAGED_DECKS:
        deck = load_deck(name, POOL)
        assert len(deck.cards) == DECK_SIZE


@pytest.mark.parametrize(
    ("card", "field", "problem"),
    [
        (being(kind="monster"), "kind", "Input should be"),
        (being(combat=None), "combat", "combat value"),
        (being(stations=[]), "stations", "stations it may occupy"),
        (being(stations=[9]), "stations[0]", "less than or equal to 8"),
        (being(stations=[5, 5]), "stations", "listed twice"),
        (being(colours=["eye"]), "colours", "Place gives colours"),
        (being(cost=["blood"]), "cost[0]", "Input should be"),
        (being(allegiance="void"), "allegiance", "no Arcanum's allegiance"),
        (being(name="done"), "name", "notation"),
        (being(name="Raven"), "name", "used twice"),
        (being(on_turn=[{"do": "explode"}]), "on_turn[0].do", "unknown effect primitive"),
        (being(on_turn=[{"do": "draw", "cards": 9}]), "on_turn[0].cards", "less than"),
        (being(on_turn=[{"do": "refresh"}]), "on_turn", "KU-5.3"),
        (being(on_turn=[{"do": "cancel_fight"}]), "on_turn", "for Commands"),
        ({"name": "Test Place", "kind": "place", "text": "t", "stations": [1]}, "colours",
         "Place gives colours"),
        ({"name": "Test Hex", "kind": "influence", "text": "t", "attach": "being"}, "modifiers",
         "modifies something"),
        ({"name": "Test Hex", "kind": "influence", "text": "t",
          "modifiers": {"combat": {"amount": 1}}}, "attach", "attached to"),
        ({"name": "Test Hex", "kind": "influence", "text": "t", "attach": "being",
          "modifiers": {"keys": {"colours": ["eye"]}}}, "modifiers.keys", "cannot be attached"),
        ({"name": "Test Hex", "kind": "influence", "text": "t", "attach": "pool", "into": "any",
          "modifiers": {"combat": {"amount": 1}}}, "into", "Pool is shared"),
        ({"name": "Test Order", "kind": "command", "text": "t"}, "on_play", "does nothing"),
        ({"name": "Test Order", "kind": "command", "text": "t", "stations": [1],
          "on_play": [{"do": "draw", "cards": 1}]}, "stations", "one-shot"),
        ({"name": "Test Order", "kind": "command", "text": "t",
          "on_play": [{"do": "fight_bonus", "amount": 0}]}, "on_play[0]", "nothing to do"),
        ({"name": "Test Order", "kind": "command", "text": "t",
          "on_play": [{"do": "special", "name": "nope"}]}, "on_play[0].name", "unknown special"),
    ],
)  # fmt: skip
def test_ku_10_2_a_bad_card_names_file_card_and_field(card, field, problem) -> None:
    with pytest.raises(CardDataError) as error:
        parse_pool(pool_with(card), "mine.toml")
    message = str(error.value)
    assert message.startswith(f"mine.toml: card {card['name']!r}: field {field!r}: "), message
    assert problem in message


def test_ku_10_2_a_bad_arcanum_or_header_names_its_field() -> None:
    data = pool_with()
    data["arcanum"][0]["colours"] = ["eye"] * 3
    with pytest.raises(
        CardDataError, match=r"mine.toml: card 'The Lantern Warden': field 'colours'"
    ):
        parse_pool(data, "mine.toml")
    with pytest.raises(CardDataError, match=r"mine.toml: field 'format'"):
        parse_pool(pool_with(format=2), "mine.toml")
    with pytest.raises(CardDataError, match="field 'arcanum'"):
        parse_pool(pool_with(arcanum=[]), "mine.toml")


def deck(**cards: int) -> dict[str, Any]:
    return {"name": "Mine", "arcanum": "The Lantern Warden", "cards": cards}


@pytest.mark.parametrize(
    ("data", "card", "problem"),
    [
        (deck(**{"Raven": 3, "Nobody": 1}), "Nobody", "not in the pool"),
        (deck(Raven=4), "Raven", "at most 3"),
        (deck(**{"Hollow Saint": 2}), "Hollow Saint", "unique card (KU-3.5) at most 1"),
        (deck(**{"Ash Widow": 1}), "Ash Widow", "plays only Neutral"),
        (deck(Raven=0), "Raven", "0 copies"),
    ],
)
def test_ku_10_2_an_illegal_deck_names_the_card(data, card, problem) -> None:
    with pytest.raises(CardDataError) as error:
        parse_deck(data, POOL, "deck.toml")
    assert str(error.value).startswith(f"deck.toml: card {card!r}: field 'cards': ")
    assert problem in str(error.value)


def test_ku_10_2_a_deck_of_the_wrong_size_or_arcanum_is_refused() -> None:
    with pytest.raises(CardDataError, match="field 'cards': a deck holds exactly 30"):
        parse_deck(deck(Raven=3), POOL, "deck.toml")
    with pytest.raises(CardDataError, match=r"field .arcanum.: no Arcanum 'Nobody'"):
        parse_deck({**deck(Raven=3), "arcanum": "Nobody"}, POOL, "deck.toml")
    with pytest.raises(CardDataError, match="neither a packaged deck"):
        load_deck("nowhere", POOL)
    with pytest.raises(CardDataError, match="no such file"):
        load_deck("missing.toml", POOL)


def test_users_give_their_own_pool_and_decks(tmp_path: Path) -> None:
    pool = tmp_path / "pool.toml"
    pool.write_text(data_path("pool.toml").read_text(encoding="utf-8"), encoding="utf-8")
    mine = tmp_path / "mine.toml"
    mine.write_text('name = "Mine"\narcanum = "The Lantern Warden"\n[cards]\n"Stray Cat" = 3\n'
                    + "".join(f'"{n}" = 3\n' for n in ("Raven", "Rose Garden", "Mirror Hall",
                              "Clock Tower", "Tin Soldier", "Open Eye", "Omen", "Hex", "Pilgrim")),
                    encoding="utf-8")  # fmt: skip
    game = KultGame(pool=pool, decks=[mine, "ash"])
    assert game.player_name(0) == "The Lantern Warden"
    assert game.new_state(0).legal_actions()
