"""The kit's pool and deck loading (``envs/core/cards/data.py``): a pool's arrays of tables
validated as declared, and a game's deck rules, given as data, checked with errors that
name the file, the card and the field."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

import pytest

from tabletop.envs.core.cards.data import (
    CardDataError,
    DeckRules,
    PoolTable,
    StrictModel,
    check_deck_size,
    count_copies,
    deck_entries,
    read_pool,
)


class Leader(StrictModel):
    name: str


class Unit(StrictModel):
    name: str
    type: Literal["unit"]
    hp: int


class Spell(StrictModel):
    name: str
    type: Literal["spell"]
    cost: int


TABLES = (
    PoolTable("leader", Leader, needed="a pool needs a [[leader]]"),
    PoolTable("card", schemas={"unit": Unit, "spell": Spell}, needed="a pool needs cards"),
)


def pool(**changes: Any) -> dict[str, Any]:
    data = {
        "format": 1, "name": "Toy", "version": "1",
        "leader": [{"name": "Boss"}],
        "card": [{"name": "Guard", "type": "unit", "hp": 2},
                 {"name": "Zap", "type": "spell", "cost": 1}],
    }  # fmt: skip
    return {**data, **changes}


def test_a_pool_gives_its_header_and_each_table_validated_by_its_schema() -> None:
    meta, records = read_pool(pool(), "toy.toml", TABLES)
    assert (meta.name, meta.version) == ("Toy", "1")
    assert [type(record) for record in records["card"]] == [Unit, Spell]
    assert records["leader"] == [Leader(name="Boss")]


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"format": 2}, r"^toy.toml: field 'format': the file format's version is 1"),
        ({"leader": []}, r"^toy.toml: field 'leader': a pool needs a \[\[leader\]\]$"),
        ({"card": 3}, r"^toy.toml: field 'card': \[\[card\]\] must be an array of tables$"),
        ({"card": [{"name": "Odd", "type": "trap"}]},
         r"^toy.toml: card 'Odd': field 'type': unknown card type 'trap'; known: unit, spell$"),
        ({"card": [{"name": "Guard", "type": "unit", "hp": "2"}]},
         r"^toy.toml: card 'Guard': field 'hp': Input should be a valid integer"),
        ({"card": [{"name": "boss", "type": "unit", "hp": 1}]},
         r"^toy.toml: card 'boss': field 'name': the name is used twice$"),
    ],
)  # fmt: skip
def test_a_bad_pool_is_refused_naming_the_place(changes: dict[str, Any], message: str) -> None:
    with pytest.raises(CardDataError, match=message):
        read_pool(pool(**changes), "toy.toml", TABLES)


@dataclass(frozen=True)
class Card:
    name: str
    unique: bool = False


CARDS = {card.name.lower(): card for card in (Card("Guard"), Card("Zap"), Card("Crown", True))}
RULES = DeckRules(
    size=6,
    exact=True,
    max_copies=3,
    size_rule="TOY-1: a deck holds exactly {size} cards, this one {total}",
    copies_rule="at most {limit} of a card (TOY-2)",
    unique_copies=1,
    unique_rule="a unique card at most {limit} (TOY-3)",
)


def count(listed: dict[str, int], rules: DeckRules = RULES, check=None) -> list[tuple[Card, int]]:
    return count_copies(listed, lambda name: CARDS.get(name.lower()), "Toy", rules, "d.toml", check)


def test_copies_are_counted_per_card_in_the_order_first_listed() -> None:
    assert count({"Zap": 1, "Guard": 2, "zap": 2, "Crown": 1}) == [
        (CARDS["zap"], 3), (CARDS["guard"], 2), (CARDS["crown"], 1)
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("listed", "message"),
    [
        ({"Nobody": 1}, "card 'Nobody': field 'cards': not in the pool 'Toy'"),
        ({"Zap": 0}, "card 'Zap': field 'cards': 0 copies; list a card with 1 to 3"),
        ({"Zap": 4}, "card 'Zap': field 'cards': 4 copies: at most 3 of a card (TOY-2)"),
        ({"Zap": 2, "ZAP": 2},
         "card 'Zap': field 'cards': 4 copies (listed as 'Zap', 'ZAP'): at most 3 of a card"),
        ({"Crown": 2}, "card 'Crown': field 'cards': 2 copies: a unique card at most 1 (TOY-3)"),
    ],
)  # fmt: skip
def test_an_illegal_listing_names_the_card(listed: dict[str, int], message: str) -> None:
    with pytest.raises(CardDataError) as error:
        count(listed)
    assert str(error.value).startswith(f"d.toml: {message}")


def test_without_unique_rules_a_unique_card_is_held_to_the_copies_of_any() -> None:
    rules = DeckRules(size=6, exact=True, max_copies=3, size_rule="", copies_rule="")
    assert count({"Crown": 3}, rules) == [(CARDS["crown"], 3)]


def test_the_games_own_check_sees_each_card_after_its_copies() -> None:
    seen = []
    count({"Guard": 2, "Zap": 1}, check=lambda card, copies: seen.append((card.name, copies)))
    assert seen == [("Guard", 2), ("Zap", 1)]


def test_the_size_is_exact_or_a_minimum() -> None:
    check_deck_size(6, RULES, "d.toml")
    for total in (5, 7):
        with pytest.raises(CardDataError) as error:
            check_deck_size(total, RULES, "d.toml")
        assert str(error.value) == (
            f"d.toml: field 'cards': TOY-1: a deck holds exactly 6 cards, this one {total}"
        )
    at_least = DeckRules(6, False, 3, "at least {size}, this one {total}", "")
    check_deck_size(9, at_least, "d.toml")
    with pytest.raises(CardDataError, match=r"field 'cards': at least 6, this one 5$"):
        check_deck_size(5, at_least, "d.toml")


def test_a_decks_entries_are_every_copy_in_order_once_the_size_holds() -> None:
    counted = count({"Zap": 1, "Guard": 2, "zap": 2, "Crown": 1})
    assert [card.name for card in deck_entries(counted, RULES, "d.toml")] == [
        "Zap", "Zap", "Zap", "Guard", "Guard", "Crown"
    ]  # fmt: skip
    with pytest.raises(CardDataError, match=r"a deck holds exactly 6 cards, this one 5$"):
        deck_entries(count({"Zap": 3, "Guard": 2}), RULES, "d.toml")
