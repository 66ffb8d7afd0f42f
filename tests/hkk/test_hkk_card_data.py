"""HKK's packaged card data (HK-10): the starter pool and the ready-made decks load and are
legal (HK-1.1), the pool uses every card type (HK-1.3), colour (HK-1.5) and ability (HK-7)
as computed from its data, and a bad pool or deck file is refused with an error naming the
file, the card and the field (HK-10.2)."""

from __future__ import annotations

import copy
import tomllib
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any, get_args

import pytest

from tabletop.envs.core.cards.data import CardDataError
from tabletop.envs.hkk.cards import (
    ABILITY_RULES,
    CARD_TYPES,
    DECK_MINIMUM,
    MAX_COPIES,
    PACKAGED_DECKS,
    TOURNAMENT_MINIMUM,
    Building,
    Card,
    Creature,
    Galetki,
    Item,
    Mutant,
    abilities_of,
    data_path,
    load_deck,
    load_pool,
    parse_deck,
    parse_pool,
)
from tabletop.envs.hkk.effects import VOCAB, Colour

POOL_DATA = tomllib.loads(data_path("pool.toml").read_text(encoding="utf-8"))
POOL = load_pool()
DECKS = {name: load_deck(name, POOL) for name in PACKAGED_DECKS}


def test_hk_10_1_the_starter_pool_has_at_least_80_cards() -> None:
    assert POOL.data_version == "Starter pool 1.1"
    assert len(POOL.cards) >= 80


def test_hk_1_3_the_pool_uses_every_card_type() -> None:
    used = Counter(card.TYPE for card in POOL.cards)
    assert set(used) == set(CARD_TYPES), set(CARD_TYPES) - set(used)


def test_hk_1_5_the_pool_uses_every_colour_and_colourless() -> None:
    assert {card.colour for card in POOL.cards} == set(get_args(Colour))


@pytest.mark.parametrize(("ability", "rule"), sorted(ABILITY_RULES.items()))
def test_hk_7_the_pool_uses_every_ability(ability: str, rule: str) -> None:
    """Each ability of HK-7 (and direct damage, HK-6.4) is had or given by a pool card."""
    having = [card.name for card in POOL.cards if ability in abilities_of(card)]
    assert having, f"no card of the starter pool has {ability} ({rule})"


def _effects(card: Card) -> list[Any]:
    found = [effect for effects in card.triggers.values() for effect in effects]
    found += [effect for ability in getattr(card, "activated", ()) for effect in ability.effects]
    direct = getattr(card, "direct", None)
    return found + list(direct.effects if direct is not None else ())


def test_hk_10_1_every_declared_primitive_selector_condition_and_static_is_used() -> None:
    """The vocabulary declares what the cards need: nothing is declared for no card."""
    effects = [effect for card in POOL.cards for effect in _effects(card)]
    assert {effect.do for effect in effects} == set(VOCAB.primitives)
    conditions = {card.condition.kind.name for card in POOL.cards if card.condition}
    conditions |= {effect.when.kind.name for effect in effects if effect.when}
    assert conditions == set(VOCAB.conditions)
    statics = {kind for card in POOL.cards for kind, _ in getattr(card, "statics", ())}
    assert statics == set(VOCAB.statics)
    assert {effect.to for effect in effects if effect.to} == set(VOCAB.selectors)


@pytest.mark.parametrize("name", PACKAGED_DECKS)
def test_hk_1_1_every_packaged_deck_is_legal(name: str) -> None:
    deck = DECKS[name]
    assert len(deck.cards) >= DECK_MINIMUM
    assert max(Counter(deck.cards).values()) <= MAX_COPIES
    assert deck.text, "a packaged deck says what its plan is"


def has(ability: str) -> Callable[[Card], bool]:
    return lambda card: ability in abilities_of(card)


def of_type(cls: type[Card]) -> Callable[[Card], bool]:
    return lambda card: isinstance(card, cls)


THEMES = {
    "skyfire": (has("flying"), has("direct_damage")),
    "venom": (has("poison"), has("regeneration")),
    "stronghold": (of_type(Building), of_type(Item)),
    "devourers": (of_type(Galetki), of_type(Mutant)),
}


@pytest.mark.parametrize("name", PACKAGED_DECKS)
def test_hk_10_1_each_deck_plays_its_own_strategy(name: str) -> None:
    """Flyers and breath, poison and regeneration, buildings and items, galetki and mutants:
    each deck holds at least 5 cards of both halves of its plan, more than any other deck."""
    first, second = THEMES[name]
    for theme in (first, second):
        counts = {
            other: sum(theme(POOL.cards[index]) for index in deck.cards)
            for other, deck in DECKS.items()
        }
        assert counts[name] >= 5, counts
        assert counts[name] == max(counts.values()), counts


def test_hk_1_1_every_packaged_deck_is_half_creatures_or_near() -> None:
    """A newcomer's deck plays best with about half of it creatures (HK-1.1)."""
    for deck in DECKS.values():
        creatures = sum(isinstance(POOL.cards[index], Creature) for index in deck.cards)
        assert 0.4 <= creatures / len(deck.cards) <= 0.7, (deck.name, creatures)


# ----- malformed pool files -----------------------------------------------------------------


def pool_with(**changes: Any) -> dict[str, Any]:
    """The starter pool's data with the first card's fields changed (``None``: removed)."""
    data = copy.deepcopy(POOL_DATA)
    card = data["card"][0]
    for key, value in changes.items():
        if value is None:
            del card[key]
        else:
            card[key] = value
    return data


FIRST = POOL_DATA["card"][0]["name"]


@pytest.mark.parametrize(
    ("changes", "field", "problem"),
    [
        ({"wingspan": 3}, "wingspan", "Extra inputs are not permitted"),
        ({"life": "1"}, "life", "valid integer"),
        ({"damage": 1.5}, "damage", "valid integer"),
        ({"abilities": {"fire_breathing": True}}, "abilities.fire_breathing", "Extra inputs"),
        ({"abilities": {"flying": "yes"}}, "abilities.flying", "valid boolean"),
        ({"direct": {"breath": 0}}, "direct.breath", "greater than or equal to 1"),
        ({"text": None}, "text", "Field required"),
        ({"type": "dragon"}, "type", "unknown card type"),
        ({"abilities": {"immunity": ["fire", "fire"]}}, "abilities.immunity", "listed twice"),
        ({"abilities": {"untargetable": ["spells"] * 2}}, "abilities.untargetable", "twice"),
        ({"abilities": {"unaffected": ["cards"] * 32}}, "abilities.unaffected", "twice"),
    ],
)
def test_hk_10_2_a_bad_pool_card_names_file_card_and_field(changes, field, problem) -> None:
    with pytest.raises(CardDataError) as error:
        parse_pool(pool_with(**changes), "mine.toml")
    message = str(error.value)
    assert message.startswith(f"mine.toml: card {FIRST!r}: field {field!r}: "), message
    assert problem in message


def test_hk_10_2_a_bad_pool_header_names_its_field() -> None:
    with pytest.raises(CardDataError, match=r"^mine.toml: field 'format': "):
        parse_pool({**POOL_DATA, "format": 2}, "mine.toml")
    with pytest.raises(CardDataError, match=r"^mine.toml: field 'card': a pool needs"):
        parse_pool({**POOL_DATA, "card": []}, "mine.toml")
    with pytest.raises(CardDataError, match=r"^mine.toml: field 'card': .*array of tables"):
        parse_pool({**POOL_DATA, "card": {"name": "x"}}, "mine.toml")


def test_hk_10_2_a_file_that_cannot_be_read_is_named(tmp_path: Path) -> None:
    latin = tmp_path / "latin.toml"
    latin.write_bytes('format = 1\nname = "Gy\xf6ngy"\n'.encode("latin-1"))
    with pytest.raises(CardDataError, match=r"^latin.toml: not UTF-8 text \(byte \d+"):
        load_pool(latin)
    with pytest.raises(CardDataError, match=r"is a directory, not a TOML file"):
        load_pool(tmp_path)
    with pytest.raises(CardDataError, match=r"no such file"):
        load_pool(tmp_path / "missing.toml")
    broken = tmp_path / "broken.toml"
    broken.write_text("[[card]\nname = ", encoding="utf-8")
    with pytest.raises(CardDataError, match=r"^broken.toml: not valid TOML"):
        load_pool(broken)
    (tmp_path / "deckdir.toml").mkdir()
    with pytest.raises(CardDataError, match=r"deckdir.toml: is a directory"):
        load_deck(tmp_path / "deckdir.toml", POOL)


# ----- malformed decks ----------------------------------------------------------------------


def deck(**cards: int) -> dict[str, Any]:
    return {"name": "Mine", "cards": cards}


FILLER = {"Stray Wolf": 3, "Sellsword": 3, "Fire Bolt": 3, "Longsword": 3, "Antidote": 3,
          "Grub Swarm": 3, "Unweave": 3, "Treasury": 3, "Veteran": 3}  # fmt: skip
"""27 legal cards, to which a case adds its own."""


@pytest.mark.parametrize(
    ("cards", "card", "problem"),
    [
        ({**FILLER, "Ash Roc": 4}, "Ash Roc",
         "4 copies: a deck holds at most 3 of a card (HK-1.1)"),
        ({**FILLER, "Ash Roc": 2, "ash roc": 2}, "Ash Roc", "4 copies"),
        ({**FILLER, "Glass Dragon": 3}, "Glass Dragon", "not in the pool"),
        ({**FILLER, "Ash Roc": 0}, "Ash Roc", "0 copies"),
    ],
)  # fmt: skip
def test_hk_1_1_an_illegal_deck_names_the_card(cards, card, problem) -> None:
    with pytest.raises(CardDataError) as error:
        parse_deck(deck(**cards), POOL, "deck.toml")
    assert str(error.value).startswith(f"deck.toml: card {card!r}: field 'cards': ")
    assert problem in str(error.value)


def test_hk_1_1_a_deck_below_the_minimum_size_is_refused() -> None:
    with pytest.raises(CardDataError) as error:
        parse_deck(deck(**FILLER), POOL, "deck.toml")
    assert str(error.value) == (
        "deck.toml: field 'cards': a deck holds at least 30 cards (HK-1.1), this one 27"
    )
    assert len(parse_deck(deck(**FILLER, **{"Ash Roc": 3}), POOL, "deck.toml").cards) == 30


def test_hk_1_1_a_tournament_deck_holds_at_least_45_cards() -> None:
    assert len(DECKS["skyfire"].cards) < TOURNAMENT_MINIMUM
    with pytest.raises(CardDataError, match=r"at least 45 cards \(HK-1.1\), this one 36"):
        load_deck("skyfire", POOL, minimum=TOURNAMENT_MINIMUM)


def test_hk_10_2_a_deck_file_with_a_bad_field_is_named() -> None:
    with pytest.raises(CardDataError, match=r"^deck.toml: field 'cards.Ash Roc': .*integer"):
        parse_deck(deck(**{**FILLER, "Ash Roc": "3"}), POOL, "deck.toml")  # type: ignore[arg-type]
    with pytest.raises(CardDataError, match=r"^deck.toml: field 'hero': Extra inputs"):
        parse_deck({**deck(**FILLER), "hero": "Nobody"}, POOL, "deck.toml")
    with pytest.raises(CardDataError, match="neither a packaged deck"):
        load_deck("nowhere", POOL)


def test_hk_10_2_players_bring_their_own_pool_and_decks(tmp_path: Path) -> None:
    pool_file = tmp_path / "pool.toml"
    pool_file.write_text(data_path("pool.toml").read_text(encoding="utf-8"), encoding="utf-8")
    deck_file = tmp_path / "mine.toml"
    lines = [f'"{name}" = {copies}' for name, copies in {**FILLER, "Ash Roc": 3}.items()]
    deck_file.write_text('name = "Mine"\n[cards]\n' + "\n".join(lines) + "\n", encoding="utf-8")
    pool = load_pool(pool_file)
    mine = load_deck(deck_file, pool)
    assert mine.source == "mine.toml" and len(mine.cards) == 30
    assert pool.cards[mine.cards[0]].name == "Stray Wolf"


@pytest.mark.parametrize("attach", ["enchantment", "item", "building"])
def test_hk_8_1_an_enchantment_on_no_creature_cannot_change_one(attach: str) -> None:
    """Wings of Flame (a bonus and a grant) put on an enchantment, an item or a building
    would reach no creature: the pool is refused, naming the file, the card and the field."""
    data = copy.deepcopy(POOL_DATA)
    wings = next(card for card in data["card"] if card["name"] == "Wings of Flame")
    wings["attach"] = attach
    problem = r"^mine.toml: card 'Wings of Flame': field 'modifiers.bonus': an enchantment on"
    with pytest.raises(CardDataError, match=problem):
        parse_pool(data, "mine.toml")
    wings["modifiers"] = {}
    wings["on_upkeep"] = [{"do": "heal", "amount": 1, "to": "self"}]
    with pytest.raises(CardDataError, match=r"field 'on_upkeep': .* no creature as 'self'"):
        parse_pool(data, "mine.toml")


def test_hk_7_7_a_grant_listing_a_protection_twice_is_refused() -> None:
    """A given ability's list is a set like a creature's own (HK-7.1, HK-7.7, HK-10.2): a
    repeat is refused naming file, card and field, not read as a stronger protection."""
    data = copy.deepcopy(POOL_DATA)
    wings = next(card for card in data["card"] if card["name"] == "Wings of Flame")
    wings["modifiers"]["grant"] = {"untargetable": ["sorceries", "instants", "sorceries"]}
    problem = r"^mine.toml: card 'Wings of Flame': field 'modifiers.grant.untargetable': "
    with pytest.raises(CardDataError, match=problem + "'sorceries' is listed twice"):
        parse_pool(data, "mine.toml")
