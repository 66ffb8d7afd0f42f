"""The card-data layer: the starter pool and decks, and the errors bad files get (GD-1.1,
GD-1.2, GD-8.1, GD-8.2). Every error must name the file, the card and the field."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from tabletop.envs.core.cards.data import CardDataError, field_path, location
from tabletop.envs.gold_and_dust.cards import (
    ARTIFACT,
    HEROES,
    KEYWORDS,
    PRIMITIVES,
    ROLES,
    SPELL,
    data_path,
    load_deck,
    load_pool,
    parse_die,
)

POOL = load_pool()
MINI_POOL = """
format = 1
name = "Mini"
version = "0.1"

[[hero]]
name = "Warrior"
gold = 10
gold_regen = 4
dust = 2
dust_regen = 1
passive = { text = "none" }

[[card]]
name = "Pikeman"
kind = "unit"
text = "A spear."
gold = 2
role = "melee"
attack = 1
die = "k3"
hp = 5

[[card]]
name = "Firebolt"
kind = "spell"
text = "Burn."
dust = 2
target = "enemy"
on_play = [{ do = "damage", amount = 1, die = "k6" }]
"""


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def pool_error(tmp_path: Path, text: str) -> str:
    with pytest.raises(CardDataError) as error:
        load_pool(write(tmp_path, "bad_pool.toml", text))
    return str(error.value)


def deck_text(counts: dict[str, int]) -> str:
    lines = ['name = "Test deck"', "", "[cards]"]
    lines += [f'"{name}" = {copies}' for name, copies in counts.items()]
    return "\n".join(lines) + "\n"


def deck_error(tmp_path: Path, counts: dict[str, int]) -> str:
    with pytest.raises(CardDataError) as error:
        load_deck(write(tmp_path, "bad_deck.toml", deck_text(counts)), POOL)
    return str(error.value)


def legal_counts() -> dict[str, int]:
    """The packaged Warrior deck as name -> copies."""
    data = tomllib.loads(data_path("decks", "warrior.toml").read_text(encoding="utf-8"))
    return dict(data["cards"])


# ----- the starter pool and decks (GD-8.1, GD-2) ---------------------------------------------


def test_gd_8_1_starter_pool_has_forty_distinct_original_cards_of_every_kind() -> None:
    assert len(POOL.cards) >= 40
    assert len({c.name for c in POOL.cards}) == len(POOL.cards)
    assert {c.role for c in POOL.cards if c.is_unit} == set(ROLES)
    spells = [c for c in POOL.cards if c.kind == SPELL]
    artifacts = [c for c in POOL.cards if c.kind == ARTIFACT]
    assert spells and all(c.dust > 0 and c.gold == 0 for c in spells)
    assert artifacts and all(c.gold > 0 and c.dust == 0 for c in artifacts)
    assert any(c.persistent for c in artifacts) and any(not c.persistent for c in artifacts)
    assert {c.dice[0] for c in POOL.cards if c.is_unit} >= {1, 2}  # k6 and 2k6 (GD-3.1)
    assert {c.dice[1] for c in POOL.cards if c.is_unit} == {3, 6}


def test_gd_0_starter_pool_uses_every_keyword_and_primitive() -> None:
    for keyword in KEYWORDS:
        assert any(getattr(c, keyword) for c in POOL.cards), keyword
    used = {e.do for c in POOL.cards for e in (*c.on_play, *c.on_death, *c.on_turn_start)}
    assert used == set(PRIMITIVES)
    assert any(c.pierce for c in POOL.cards) and any(c.aura for c in POOL.cards)


def test_gd_2_1_and_gd_2_4_heroes_resources_and_hit_points() -> None:
    table = {
        "Warrior": (10, 4, 2, 1),
        "Mage": (2, 1, 10, 4),
        "Thief": (7, 3, 3, 2),
        "Merchant": (12, 5, 1, 0),
        "Assassin": (3, 2, 7, 3),
    }
    heroes = {h.name: (h.gold, h.gold_regen, h.dust, h.dust_regen) for h in POOL.heroes}
    assert heroes == table
    assert all(h.hp == 30 and h.passive.text for h in POOL.heroes)


@pytest.mark.parametrize("hero", HEROES)
def test_gd_8_1_a_legal_packaged_deck_per_hero(hero: str) -> None:
    deck = load_deck(hero, POOL)
    assert deck.hero.name.lower() == hero
    assert len(deck.cards) + 1 == 41
    assert max(deck.cards.count(c) for c in deck.cards) <= 2


# ----- pool errors name file, card and field (GD-8.2) ----------------------------------------


def test_gd_8_2_a_wrong_value_names_file_card_and_field(tmp_path: Path) -> None:
    message = pool_error(tmp_path, MINI_POOL.replace("hp = 5", "hp = -1"))
    assert message.startswith("bad_pool.toml: card 'Pikeman': field 'hp': ")
    assert "greater than or equal to 0" in message


def test_gd_8_2_a_string_for_a_number_is_an_error_not_a_silent_fix(tmp_path: Path) -> None:
    message = pool_error(tmp_path, MINI_POOL.replace("attack = 1", 'attack = "1"'))
    assert message.startswith("bad_pool.toml: card 'Pikeman': field 'attack': ")


def test_gd_8_2_an_unknown_field_is_named(tmp_path: Path) -> None:
    message = pool_error(tmp_path, MINI_POOL.replace("hp = 5", "hp = 5\nspeed = 3"))
    assert message.startswith("bad_pool.toml: card 'Pikeman': field 'speed': ")


def test_gd_8_2_a_bad_effect_parameter_names_the_effect(tmp_path: Path) -> None:
    text = MINI_POOL.replace('die = "k6" }', 'die = "k6", cards = 2 }')
    message = pool_error(tmp_path, text)
    assert message.startswith("bad_pool.toml: card 'Firebolt': field 'on_play[0]': ")
    assert "'cards' is not a parameter of 'damage'" in message


def test_gd_8_2_a_bad_die_and_an_unknown_primitive(tmp_path: Path) -> None:
    message = pool_error(tmp_path, MINI_POOL.replace('die = "k3"', 'die = "d20"'))
    assert message.startswith("bad_pool.toml: card 'Pikeman': field 'die': ")
    message = pool_error(tmp_path, MINI_POOL.replace('do = "damage"', 'do = "explode"'))
    assert message.startswith("bad_pool.toml: card 'Firebolt': field 'on_play[0].do': ")


def test_gd_8_2_an_unregistered_special_is_rejected(tmp_path: Path) -> None:
    text = MINI_POOL.replace(
        'target = "enemy"\non_play = [{ do = "damage", amount = 1, die = "k6" }]',
        'on_play = [{ do = "special", name = "no_such_code" }]',
    )
    message = pool_error(tmp_path, text)
    assert "card 'Firebolt': field 'on_play[0].name': unknown special 'no_such_code'" in message


def test_gd_8_1_spells_are_paid_in_dust_and_artifacts_in_gold(tmp_path: Path) -> None:
    message = pool_error(
        tmp_path, MINI_POOL.replace("dust = 2\ntarget", "gold = 1\ndust = 2\ntarget")
    )
    assert "card 'Firebolt'" in message and "dust only (GD-8.1)" in message


def test_gd_8_2_rules_between_fields(tmp_path: Path) -> None:
    no_role = pool_error(tmp_path, MINI_POOL.replace('role = "melee"\n', ""))
    assert "card 'Pikeman'" in no_role and "needs a role" in no_role
    no_target = pool_error(tmp_path, MINI_POOL.replace('target = "enemy"\n', ""))
    assert "card 'Firebolt'" in no_target and "target = 'none'" in no_target
    buff_hero = pool_error(
        tmp_path,
        MINI_POOL.replace('do = "damage", amount = 1, die = "k6"', 'do = "buff", attack = 1'),
    )
    assert "'buff' affects units" in buff_hero


def test_gd_8_2_duplicate_names_and_reserved_names(tmp_path: Path) -> None:
    message = pool_error(tmp_path, MINI_POOL.replace('name = "Firebolt"', 'name = "pikeman"'))
    assert "card 'pikeman': field 'name': the name is used twice" in message
    message = pool_error(tmp_path, MINI_POOL.replace('name = "Firebolt"', 'name = "Hero"'))
    assert "field 'name'" in message and "reserved" in message


def test_gd_8_2_syntax_errors_and_missing_parts_name_the_file(tmp_path: Path) -> None:
    assert pool_error(tmp_path, MINI_POOL + "\n[[card]\n").startswith(
        "bad_pool.toml: not valid TOML"
    )
    message = pool_error(tmp_path, MINI_POOL.replace("format = 1", "format = 2"))
    assert message.startswith("bad_pool.toml: field 'format'")
    with pytest.raises(CardDataError, match="no such file"):
        load_pool(tmp_path / "missing.toml")


def test_gd_8_2_a_record_without_a_name_is_named_by_position(tmp_path: Path) -> None:
    message = pool_error(tmp_path, MINI_POOL.replace('name = "Pikeman"\n', ""))
    assert message.startswith("bad_pool.toml: card 'card #1': field 'name': ")


# ----- deck errors cite the rule they break (GD-1.1, GD-1.2) ---------------------------------


def test_gd_1_2_three_copies_are_rejected(tmp_path: Path) -> None:
    counts = legal_counts()
    counts["Pikeman"] = 3
    message = deck_error(tmp_path, counts)
    assert message.startswith("bad_deck.toml: card 'Pikeman': field 'cards': 3 copies")
    assert "GD-1.2" in message


def test_gd_1_2_copies_are_counted_per_card_not_per_spelling(tmp_path: Path) -> None:
    """Names are case-insensitive, so ``"Pikeman" = 2`` and ``"pikeman" = 1`` are three
    copies of one card, even in an otherwise legal 41-card deck."""
    counts = legal_counts()
    counts["Pikeman"], counts["Wall"], counts["pikeman"] = 2, 1, 1
    message = deck_error(tmp_path, counts)
    assert message.startswith("bad_deck.toml: card 'Pikeman': field 'cards': 3 copies")
    assert "listed as 'Pikeman', 'pikeman'" in message and "GD-1.2" in message


def test_gd_1_2_two_copies_under_two_spellings_are_a_legal_deck(tmp_path: Path) -> None:
    counts = legal_counts()
    counts["Pikeman"], counts["PIKEMAN"] = 1, 1
    deck = load_deck(write(tmp_path, "spelt.toml", deck_text(counts)), POOL)
    assert deck.cards.count(POOL.card_named("Pikeman").index) == 2 and len(deck.cards) == 40


def test_gd_1_1_a_hero_under_two_spellings_is_two_heroes(tmp_path: Path) -> None:
    counts = legal_counts()
    counts["Pikeman"], counts["warrior"] = 1, 1
    assert "GD-1.1: a deck has exactly one Hero card, this one has 2" in deck_error(
        tmp_path, counts
    )


def test_gd_1_1_not_41_cards_is_rejected(tmp_path: Path) -> None:
    counts = legal_counts()
    counts["Pikeman"] = 1
    message = deck_error(tmp_path, counts)
    assert message.startswith("bad_deck.toml: field 'cards': GD-1.1") and "has 40" in message


@pytest.mark.parametrize("heroes", [0, 2])
def test_gd_1_1_exactly_one_hero(tmp_path: Path, heroes: int) -> None:
    counts = legal_counts()
    del counts["Warrior"]
    counts["Militia"] = 1  # still 41 cards, but no hero
    if heroes == 2:
        counts["Mage"] = 1
        counts["Warrior"] = 1
        del counts["Militia"]
        counts["Pikeman"] = 1
    message = deck_error(tmp_path, counts)
    assert "GD-1.1" in message and f"has {heroes}" in message


def test_deck_names_unknown_cards_and_unknown_packaged_decks(tmp_path: Path) -> None:
    counts = legal_counts()
    counts["Dragon"] = 1
    assert "card 'Dragon': field 'cards': not in the pool" in deck_error(tmp_path, counts)
    with pytest.raises(CardDataError, match="neither a packaged deck"):
        load_deck("paladin", POOL)


# ----- every file that cannot be read gets a CardDataError naming it (GD-8.2) -----------------


def test_gd_8_2_a_file_that_is_not_utf8_names_the_file(tmp_path: Path) -> None:
    pool = tmp_path / "latin1_pool.toml"
    pool.write_bytes(MINI_POOL.replace("A spear.", "Une lance \xe0 deux mains.").encode("latin-1"))
    with pytest.raises(CardDataError, match=r"^latin1_pool\.toml: not UTF-8 text \(byte \d+"):
        load_pool(pool)
    deck = tmp_path / "latin1_deck.toml"
    deck.write_bytes(deck_text(legal_counts()).replace("Test deck", "D\xe9ck").encode("latin-1"))
    with pytest.raises(CardDataError, match=r"^latin1_deck\.toml: not UTF-8 text"):
        load_deck(deck, POOL)


@pytest.mark.parametrize("name", ["folder.toml", "folder"])
def test_gd_8_2_a_directory_is_not_a_card_file(tmp_path: Path, name: str) -> None:
    folder = tmp_path / name
    folder.mkdir()
    with pytest.raises(CardDataError, match=f"{name}: is a directory"):
        load_pool(folder)
    with pytest.raises(CardDataError, match=f"{name}: is a directory"):
        load_deck(folder, POOL)


def test_gd_8_2_an_unreadable_file_names_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Permissions cannot be relied on in a test (root reads everything): the open fails."""
    pool = write(tmp_path, "locked.toml", MINI_POOL)

    def refuse(self: Path, *args: object, **kwargs: object) -> None:
        raise PermissionError(13, "Permission denied", str(self))

    monkeypatch.setattr(Path, "open", refuse)
    with pytest.raises(CardDataError, match=r"locked\.toml: cannot be read: Permission denied"):
        load_pool(pool)


def test_gd_8_2_missing_and_broken_deck_files_name_the_file(tmp_path: Path) -> None:
    with pytest.raises(CardDataError, match=r"missing_deck\.toml: no such file"):
        load_deck(tmp_path / "missing_deck.toml", POOL)
    broken = write(tmp_path, "broken_deck.toml", "name = \n")
    with pytest.raises(CardDataError, match=r"^broken_deck\.toml: not valid TOML"):
        load_deck(broken, POOL)
    with pytest.raises(CardDataError, match="neither a packaged deck"):
        load_deck("", POOL)


# ----- lasting artifacts must do something on the table (GD-8.2) -----------------------------

ARTIFACT_CARD = """
[[card]]
name = "Banner"
kind = "artifact"
text = "Stays on the table."
gold = 2
persistent = true
"""


def test_gd_8_2_a_lasting_aura_that_changes_nothing_is_rejected(tmp_path: Path) -> None:
    message = pool_error(
        tmp_path, MINI_POOL + ARTIFACT_CARD + 'aura = [{ group = "ally_front" }]\n'
    )
    assert message.startswith("bad_pool.toml: card 'Banner': field 'aura[0]': ")
    assert "an aura with nothing to do" in message
    ok = MINI_POOL + ARTIFACT_CARD + 'aura = [{ group = "ally_front", armour = 1 }]\n'
    assert load_pool(write(tmp_path, "good.toml", ok)).card_named("Banner").persistent


def test_gd_8_2_a_lasting_artifact_without_a_lasting_effect_is_rejected(tmp_path: Path) -> None:
    text = MINI_POOL + ARTIFACT_CARD + 'on_play = [{ do = "gain", gold = 1 }]\n'
    message = pool_error(tmp_path, text)
    assert message.startswith("bad_pool.toml: card 'Banner': field 'persistent': ")
    assert "does nothing on the table" in message


def test_gd_8_2_a_hero_aura_that_changes_nothing_is_rejected(tmp_path: Path) -> None:
    text = MINI_POOL.replace(
        '{ text = "none" }', '{ text = "x", aura = [{ group = "ally_unit" }] }'
    )
    message = pool_error(tmp_path, text)
    assert message.startswith("bad_pool.toml: card 'Warrior': field 'passive.aura[0]': ")


@pytest.mark.parametrize(
    ("edit", "field"),
    [
        (('role = "melee"\n', ""), "role"),
        (("hp = 5", "hp = 0"), "hp"),
        (('target = "enemy"\n', ""), "target"),
        (("dust = 2\ntarget", "gold = 1\ndust = 2\ntarget"), "gold"),
    ],
)
def test_gd_8_2_rules_between_fields_name_the_field(
    tmp_path: Path, edit: tuple[str, str], field: str
) -> None:
    message = pool_error(tmp_path, MINI_POOL.replace(*edit))
    assert f": field '{field}': " in message


# ----- helpers of the shared layer ----------------------------------------------------------


def test_core_error_format_helpers() -> None:
    assert location("a.toml", "X", "y") == "a.toml: card 'X': field 'y'"
    assert location("a.toml") == "a.toml"
    assert field_path(("on_play", 0, "amount")) == "on_play[0].amount"


def test_gd_3_1_die_notation() -> None:
    assert parse_die("k3") == (1, 3) and parse_die("2k6") == (2, 6) and parse_die("none") == (0, 0)
    with pytest.raises(ValueError, match=r"GD-3\.1"):
        parse_die("d6")
