"""HKK's card model (HK-1.3, HK-7, HK-10.2): a record of each of the twelve card types
loads into the frozen dataclass of its type, and every mistake in a card is refused with an
error naming the file, the card and the field."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from tabletop.envs.core.cards.data import CardDataError
from tabletop.envs.hkk.cards import (
    CARD_TYPES,
    Adventurer,
    Creature,
    Instant,
    Monster,
    Mutant,
    abilities_of,
    parse_pool,
)

HEADER = {"format": 1, "name": "Test pool", "version": "1"}


def creature(kind: str = "monster", **fields: Any) -> dict[str, Any]:
    return {"name": "Test Beast", "type": kind, "text": "t", "cost": 2, "damage": 1, "life": 2,
            **fields}  # fmt: skip


ONE_OF_EACH = [
    creature(name="Cave Brute", components=1),
    creature("mutant", name="Sludge Spawn", components=2),
    creature("galetki", name="Young Galetki"),
    creature("adventurer", name="Sellsword"),
    {"name": "Stone Keep", "type": "building", "text": "t", "builders": 2, "structure": 6},
    {"name": "Iron Pike", "type": "item", "text": "t", "components": 2, "carried": True,
     "subtype": "weapon", "modifiers": {"bonus": {"damage": 1}}},
    {"name": "Herb Lore", "type": "skill", "text": "t", "cost": 1,
     "modifiers": {"group": "own_creatures", "bonus": {"life": 1}}},
    {"name": "Battle Tested", "type": "level_up", "text": "t", "cost": 2},
    {"name": "Horned Crest", "type": "body_part", "text": "t", "cost": 1},
    {"name": "Warding Sign", "type": "enchantment", "text": "t", "cost": 2, "attach": "creature",
     "modifiers": {"grant": {"magic_defence": True}}},
    {"name": "Quick Cure", "type": "instant", "text": "t", "cost": 1,
     "on_play": [{"do": "cure", "to": "target_creature"}]},
    {"name": "Firestorm", "type": "sorcery", "text": "t", "cost": 4,
     "on_play": [{"do": "damage", "amount": 2, "form": "fire", "to": "each_enemy_creature"}]},
]  # fmt: skip


def load(*cards: dict[str, Any]) -> Any:
    return parse_pool({**HEADER, "card": list(cards)}, "mine.toml")


def test_hk_1_3_each_card_type_loads_into_its_frozen_dataclass() -> None:
    pool = load(*ONE_OF_EACH)
    assert [card.TYPE for card in pool.cards] == list(CARD_TYPES)
    for card in pool.cards:
        assert dataclasses.is_dataclass(card)
        with pytest.raises(dataclasses.FrozenInstanceError):
            card.name = "Changed"  # type: ignore[misc]
    spells = {card.TYPE for card in pool.cards if card.is_spell}
    assert spells == {"enchantment", "sorcery", "instant"}
    creatures = {card.TYPE for card in pool.cards if isinstance(card, Creature)}
    assert creatures == {"monster", "mutant", "galetki", "adventurer"}


def test_hk_1_3_a_mutant_counts_as_a_monster() -> None:
    spawn = load(*ONE_OF_EACH).card_named("sludge spawn")
    assert isinstance(spawn, Mutant) and isinstance(spawn, Monster)
    assert spawn.components == 2


def test_hk_4_4_every_adventurer_may_use_items() -> None:
    sellsword = load(*ONE_OF_EACH).card_named("Sellsword")
    assert isinstance(sellsword, Adventurer) and sellsword.item_use
    brute = load(*ONE_OF_EACH).card_named("Cave Brute")
    assert not brute.item_use


def test_hk_8_4_an_instant_that_cancels_is_a_reaction() -> None:
    pool = load({"name": "Unweave", "type": "instant", "text": "t", "cost": 2,
                 "on_play": [{"do": "cancel"}]}, ONE_OF_EACH[10])  # fmt: skip
    unweave, cure = pool.cards
    assert isinstance(unweave, Instant) and unweave.reaction
    assert unweave.triggers["played"][0].to == "answered", "cancel's default selector"
    assert not cure.reaction


def test_hk_7_abilities_of_a_card_are_read_from_its_data() -> None:
    drake = creature(
        name="Ash Drake", abilities={"flying": True, "immunity": ["fire"], "regeneration": 2},
        direct={"breath": 3, "form": "fire", "life_payable": True},
        drawbacks=[{"kind": "upkeep", "vp": 1}], condition={"is": "life_at_most", "amount": 10},
        activated=[{"passivate": True, "effects": [{"do": "gain_vp", "amount": 1}]}],
        may_on_play=[{"do": "draw", "cards": 1}],
    )  # fmt: skip
    (card,) = load(drake).cards
    assert abilities_of(card) == {
        "flying", "immunity", "regeneration", "direct_damage", "drawback", "play_condition",
        "passivation_cost", "may_on_play",
    }  # fmt: skip
    warding = load(ONE_OF_EACH[9]).cards[0]
    assert abilities_of(warding) == {"magic_defence"}, "what an enchantment grants counts"


ITEM = {"name": "Test Item", "type": "item", "text": "t", "components": 1}


@pytest.mark.parametrize(
    ("card", "field", "problem"),
    [
        (creature(wings=True), "wings", "Extra inputs are not permitted"),
        (creature(damage="3"), "damage", "valid integer"),
        (creature(life=0), "life", "greater than or equal to 1"),
        (creature(kind="dragon"), "type", "unknown card type 'dragon'"),
        (creature(colour="purple"), "colour", "Input should be"),
        (creature(abilities={"flyin": True}), "abilities.flyin", "Extra inputs"),
        (creature(abilities={"immunity": ["wind"]}), "abilities.immunity[0]", "'fire'"),
        (creature(abilities={"immunity": "fire"}), "abilities.immunity", "an array"),
        (creature(abilities={"untargetable": ["gods"]}), "abilities.untargetable[0]", "'spells'"),
        (creature(on_play=[{"do": "explode"}]), "on_play[0].do", "unknown effect primitive"),
        (creature(on_play=[{"do": "draw", "cards": 9}]), "on_play[0].cards", "less than"),
        (creature(on_play=[{"do": "heal", "amount": 1, "to": "opponent"}]), "on_play[0].to",
         "cannot affect 'opponent'"),
        (creature(on_play=[{"do": "cancel"}]), "on_play",
         "only an instant answers a card or ability (HK-8.4)"),
        (creature(activated=[{"effects": [{"do": "cancel"}]}]), "activated[0].effects",
         "only an instant answers"),
        (creature(direct={"effects": [{"do": "cancel"}]}), "direct.effects",
         "only an instant answers"),
        ({"name": "Test Spell", "type": "instant", "text": "t", "cost": 1,
          "may_on_play": [{"do": "cancel"}]}, "may_on_play", "only an instant answers"),
        (creature(on_play=[{"do": "boost"}]), "on_play[0]", "nothing to do"),
        (creature(condition={"is": "rich"}), "condition.is", "unknown condition 'rich'"),
        (creature(condition={"is": "controls", "count": 0}), "condition.count", "greater"),
        (creature(drawbacks=[{"kind": "upkeep"}]), "drawbacks[0].upkeep.vp", "upkeep asks"),
        (creature(drawbacks=[{"kind": "body_parts", "count": 1}]), "drawbacks",
         "only a galetki carries body parts (HK-9.4)"),
        (creature(at_level=[{"level": 1, "abilities": {"flying": True}}]), "at_level",
         "only adventurers have levels (HK-4.4)"),
        (creature("adventurer", item_use=False), "item_use", "HK-4.4"),
        (creature(direct={"breath": 2, "vp": 1}), "direct.vp", "HK-6.4"),
        (creature(direct={"vp": 1}), "direct.breath", "a breath or effects"),
        (creature(modifiers={"bonus": {"damage": 1}}), "modifiers", "Extra inputs"),
        ({**ITEM, "carried": True}, "subtype", "a creature item has a subtype"),
        ({**ITEM, "carried": False, "modifiers": {"bonus": {"damage": 1}}}, "modifiers.group",
         "names the group"),
        ({**ITEM, "carried": True, "subtype": "weapon", "modifiers": {"bonus": {"life": 0}}},
         "modifiers.bonus", "changes damage or life"),
        ({**ITEM, "carried": True, "subtype": "ring", "modifiers": {"grant": {}}},
         "modifiers.grant", "at least one ability"),
        ({**ITEM, "carried": True, "subtype": "ring", "modifiers": {"guard_size": {"places": 1}}},
         "modifiers.guard_size", "only a card on the table"),
        ({**ITEM, "carried": True, "subtype": "ring"}, "modifiers", "does nothing"),
        ({"name": "Test Part", "type": "body_part", "text": "t", "cost": 1, "activated": [
            {"passivate": True, "effects": [{"do": "draw", "cards": 1}]}]}, "activated",
         "can never be made passive"),
        ({"name": "Test Spell", "type": "sorcery", "text": "t", "cost": 1}, "on_play",
         "does nothing"),
        ({"name": "Test Spell", "type": "sorcery", "text": "t", "cost": 1, "attach": "creature",
          "on_play": [{"do": "draw", "cards": 1}]}, "attach", "Extra inputs"),
        ({"name": "Test Keep", "type": "building", "text": "t", "builders": 0, "structure": 3},
         "builders", "greater than or equal to 1"),
    ],
)  # fmt: skip
def test_hk_10_2_a_bad_card_names_file_card_and_field(card, field, problem) -> None:
    with pytest.raises(CardDataError) as error:
        load(card)
    message = str(error.value)
    assert message.startswith(f"mine.toml: card {card['name']!r}: field {field!r}: "), message
    assert problem in message


def test_hk_10_2_a_card_without_a_name_is_named_by_its_position() -> None:
    with pytest.raises(CardDataError, match=r"mine.toml: card 'card #2': field 'name'"):
        load(ONE_OF_EACH[0], {k: v for k, v in ONE_OF_EACH[1].items() if k != "name"})


def test_hk_10_2_two_cards_may_not_share_a_name() -> None:
    with pytest.raises(CardDataError, match=r"card 'cave brute': field 'name': .*used twice"):
        load(ONE_OF_EACH[0], {**ONE_OF_EACH[1], "name": "cave brute"})


@pytest.mark.parametrize(
    ("card", "field"),
    [
        (creature(condition={"is": []}), "condition.is"),
        (creature(on_play=[{"do": "draw", "cards": 1, "when": {"is": {"x": 1}}}]),
         "on_play[0].when.is"),
    ],
)  # fmt: skip
def test_hk_10_2_a_condition_named_by_a_list_or_table_is_a_card_data_error(
    card: dict[str, Any], field: str
) -> None:
    with pytest.raises(CardDataError, match="unknown condition") as error:
        load(card)
    assert f"field '{field}'" in str(error.value)
