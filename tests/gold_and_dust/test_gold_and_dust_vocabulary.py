"""What cards can say beyond the starter pool's own cards, through the vocabulary of
``effects.VOCAB`` (GD-0: the card wins over the rules; GD-8.2: cards are data): every
trigger event of the vocabulary, conditions on effects, and auras (continuous effects) as
Hero passives and lasting artifacts. Cards are added to a copy of the starter pool, so
the packaged decks still load against it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tabletop.envs.core.cards.data import CardDataError
from tabletop.envs.gold_and_dust.cards import data_path, load_pool
from tabletop.envs.gold_and_dust.effects import VOCAB
from tabletop.envs.gold_and_dust.encoders import static_features
from tabletop.envs.gold_and_dust.engine import SHOOT, GoldDustGame, GoldDustState

EXTRA_CARDS = """
[[hero]]
name = "Oracle"
gold = 6
gold_regen = 2
dust = 6
dust_regen = 2

[hero.passive]
text = "Spells cost 2 dust less; units hit Heroes 1 harder."
aura = [
    { group = "own_spells", dust = -2 },
    { group = "ally_unit", hero_damage = 1 },
]

[[card]]
name = "Thornback"
kind = "unit"
text = "When it takes damage and lives, your Hero heals 2."
gold = 2
role = "melee"
attack = 1
hp = 9
on_damaged = [{ do = "heal", amount = 2, to = "own_hero" }]

[[card]]
name = "Warcaller"
kind = "unit"
text = "When it attacks, gain 1 gold."
gold = 2
role = "melee"
attack = 1
hp = 4
keywords = ["vanguard"]
on_attack = [{ do = "gain", gold = 1 }]

[[card]]
name = "Bulwark"
kind = "unit"
text = "When it blocks, it gains 2 armour."
gold = 2
role = "melee"
attack = 1
hp = 4
keywords = ["vanguard"]
on_block = [{ do = "buff", armour = 2, to = "self" }]

[[card]]
name = "Spotter"
kind = "unit"
text = "Ranged. When it shoots, draw a card."
gold = 2
role = "archer"
attack = 1
hp = 3
ranged = true
on_shoot = [{ do = "draw", cards = 1 }]

[[card]]
name = "Last Stand"
kind = "spell"
text = "If your Hero has 10 HP or less, it heals 5."
dust = 1
on_play = [
  { do = "heal", amount = 5, to = "own_hero", when = { is = "own_hero_hp_at_most", amount = 10 } },
]

[[card]]
name = "Bounty Flag"
kind = "artifact"
text = "Your units hit Heroes 2 harder."
gold = 2
persistent = true
aura = [{ group = "ally_unit", hero_damage = 2 }]
"""


@pytest.fixture(scope="module")
def pool_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("pool") / "extended_pool.toml"
    path.write_text(data_path("pool.toml").read_text(encoding="utf-8") + EXTRA_CARDS)
    return path


@pytest.fixture(scope="module")
def game(pool_file: Path) -> GoldDustGame:
    return GoldDustGame(("warrior", "mage"), pool=pool_file)


def stacked(game: GoldDustGame, p0: dict, p1: dict | None = None, **options) -> GoldDustState:
    base = {"hero": "Thief", "deck": ["Militia"] * 5}
    return game.stacked_state([{**base, **p0}, {**base, **(p1 or {})}], **options)


def act(state: GoldDustState, *texts: str) -> None:
    for text in texts:
        state.apply(state.string_to_action(text))


def next_roll(state: GoldDustState, dice: tuple[int, int]) -> int:
    return state.clone().roll(dice)


def test_gd_0_every_trigger_event_is_a_card_field() -> None:
    fields = dict(VOCAB.trigger_fields())
    assert fields == {
        "on_play": "played", "on_death": "dies", "on_turn_start": "turn_starts",
        "on_damaged": "damaged", "on_attack": "attacks", "on_block": "blocks",
        "on_shoot": "shoots",
    }  # fmt: skip


def test_gd_0_a_unit_that_survives_damage_reacts(game: GoldDustGame) -> None:
    state = stacked(game, {"front": ["Archer"]}, {"front": ["Thornback"], "hp": 20})
    assert state.phase == SHOOT  # nothing to play: the main step passed by itself
    roll = next_roll(state, (1, 6))
    act(state, "shoot Archer>Thornback")  # 1 + k6 of 9 HP: it lives
    assert state.boards[1][0].hp == 9 - (1 + roll)
    assert state.hp[1] == 22
    kinds = [event.kind for event in state.last_events()]
    assert kinds.index("damage_dealt") < kinds.index("healed")


def test_gd_0_a_unit_that_dies_of_the_damage_does_not_react(game: GoldDustGame) -> None:
    state = stacked(game, {"front": ["Archer"]}, {"front": ["Thornback"], "hp": 20})
    state.boards[1][0].hp = 1
    act(state, "shoot Archer>Thornback")
    assert state.hp[1] == 20 and state.boards[1][0] is None


def test_gd_0_attack_block_and_shoot_events(game: GoldDustGame) -> None:
    state = stacked(game, {"front": ["Warcaller", "Spotter"], "gold": 0}, {"front": ["Bulwark"]})
    act(state, "shoot Spotter>Hero")
    assert len(state.hands[0]) == 1  # the Spotter's draw
    act(state, "attack Warcaller")  # the shoot step, with no shot left, passed by itself
    assert state.gold[0] == 1  # the Warcaller's gain, on being declared
    act(state, "block Warcaller with Bulwark")  # the attack step closed by itself
    assert state.armour_of(1, state.boards[1][0]) == 2


def test_gd_0_a_condition_guards_its_effect(game: GoldDustGame) -> None:
    state = stacked(game, {"hand": ["Last Stand", "Last Stand"], "dust": 2, "hp": 11})
    act(state, "play Last Stand")
    assert state.hp[0] == 11  # 11 HP: the condition fails, the card is used up anyway
    state.hp[0] = 10
    act(state, "play Last Stand")
    assert state.hp[0] == 15


def test_gd_2_4_a_hero_passive_is_auras_in_data(game: GoldDustGame) -> None:
    state = stacked(
        game, {"hero": "Oracle", "hand": ["Frost Lance", "Firebolt"], "front": ["Militia"]}
    )
    lance, firebolt = game.pool.card_named("Frost Lance"), game.pool.card_named("Firebolt")
    assert state.cost_of(0, lance) == (0, max(0, lance.dust - 2))
    assert state.cost_of(0, firebolt) == (0, max(0, firebolt.dust - 2))
    assert state.hero_damage_bonus(0) == 1 and state.hero_damage_bonus(1) == 0


def test_gd_2_4_an_aura_counts_while_its_card_is_on_the_table(game: GoldDustGame) -> None:
    state = stacked(game, {"hand": ["Bounty Flag"], "gold": 2, "front": ["Militia"]})
    assert state.hero_damage_bonus(0) == 0
    act(state, "play Bounty Flag")
    assert state.hero_damage_bonus(0) == 2
    twin = state.clone()
    assert twin.hero_damage_bonus(0) == 2
    twin.table.move(twin.artifact_cards[0][0], ("artifacts", 0), ("graveyard", 0))
    assert twin.hero_damage_bonus(0) == 0 and state.hero_damage_bonus(0) == 2


def test_gd_8_2_traits_feed_the_encoders_for_any_primitive(game: GoldDustGame) -> None:
    """A card's encoded effect figures come from its primitives' declared traits."""
    spotter, thornback = game.pool.card_named("Spotter"), game.pool.card_named("Thornback")
    draws = static_features(spotter)[list(_feature_names()).index("draws / 3")]
    heal = static_features(thornback)[list(_feature_names()).index("heal / 10")]
    assert draws == pytest.approx(1 / 3) and heal == pytest.approx(0.2)


def _feature_names() -> tuple[str, ...]:
    from tabletop.envs.gold_and_dust.encoders import STATIC_FEATURES

    return STATIC_FEATURES


@pytest.mark.parametrize(
    ("card", "field", "message"),
    [
        (
            'kind = "spell"\ntext = "x"\ndust = 1\non_play = [{ do = "gain", gold = 1 }]\n'
            'on_damaged = [{ do = "gain", gold = 1 }]',
            "on_damaged",
            "'on_damaged' is for units",
        ),
        (
            'kind = "spell"\ntext = "x"\ndust = 1\n'
            'on_play = [{ do = "gain", gold = 1, when = { is = "moon_is_full" } }]',
            "on_play[0].when.is",
            "unknown condition 'moon_is_full'",
        ),
        (
            'kind = "artifact"\ntext = "x"\ngold = 1\npersistent = true\n'
            'aura = [{ group = "ally_front", dust = -1 }]',
            "aura[0].dust",
            "'dust' is for groups ('own_spells',)",
        ),
        (
            'kind = "unit"\ntext = "x"\ngold = 1\nrole = "melee"\nhp = 2\n'
            'on_attack = [{ do = "buff", attack = 1 }]',
            "on_attack",
            "on_attack effects cannot choose a target",
        ),
    ],
)
def test_gd_8_2_new_vocabulary_errors_name_the_field(
    tmp_path: Path, card: str, field: str, message: str
) -> None:
    text = data_path("pool.toml").read_text(encoding="utf-8")
    path = tmp_path / "bad_pool.toml"
    path.write_text(text + f'\n[[card]]\nname = "Oddity"\n{card}\n')
    with pytest.raises(CardDataError) as error:
        load_pool(path)
    assert f"card 'Oddity': field '{field}'" in str(error.value)
    assert message in str(error.value)
