"""Property test: any valid card definitions load, make legal decks and play to the end under
the engine's invariants (GD-8.2: cards are data, so the engine must cope with all of them)."""

from __future__ import annotations

import tomllib
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop.envs.core.checks import run_random_games
from tabletop.envs.gold_and_dust.cards import ROLES, data_path, parse_deck, parse_pool
from tabletop.envs.gold_and_dust.engine import GoldDustGame, GoldDustState

HEROES = tomllib.loads(data_path("pool.toml").read_text(encoding="utf-8"))["hero"]
HERO_NAMES = [hero["name"] for hero in HEROES]
DICE = ("none", "k3", "k6", "2k6")
TARGETED = [
    ("enemy", [{"do": "damage", "amount": 2, "die": "k3"}]),
    ("enemy_unit", [{"do": "damage", "amount": 1, "pierce": True}, {"do": "push_back"}]),
    ("enemy_unit", [{"do": "destroy"}]),
    ("enemy_front", [{"do": "push_back"}]),
    ("ally", [{"do": "heal", "amount": 3}]),
    ("ally_unit", [{"do": "buff", "attack": 1, "armour": 1, "hp": 2}]),
    ("ally_back", [{"do": "move_up"}, {"do": "ready"}]),
]
UNTARGETED = [
    {"do": "draw", "cards": 1},
    {"do": "gain", "gold": 2, "dust": 1},
    {"do": "damage", "die": "k6", "to": "each_enemy_unit"},
    {"do": "heal", "amount": 2, "to": "own_hero"},
    {"do": "buff", "armour": 1, "to": "each_ally_front"},
    {"do": "damage", "amount": 1, "to": "enemy_hero"},
    {"do": "special", "name": "wager"},
]
TRIGGERS = [
    {"do": "damage", "amount": 2, "to": "enemy_hero"},
    {"do": "heal", "amount": 2, "to": "own_hero"},
    {"do": "gain", "dust": 1},
    {"do": "damage", "die": "k3", "to": "each_enemy_front"},
]


@st.composite
def on_play(draw: st.DrawFn) -> dict[str, Any]:
    """Nothing, a targeted ability, or untargeted effects."""
    choice = draw(st.integers(0, 2))
    if choice == 1:
        target, effects = draw(st.sampled_from(TARGETED))
        return {"target": target, "on_play": effects}
    if choice == 2:
        return {"on_play": draw(st.lists(st.sampled_from(UNTARGETED), min_size=1, max_size=2))}
    return {}


@st.composite
def unit(draw: st.DrawFn) -> dict[str, Any]:
    role = draw(st.sampled_from(ROLES))
    ranged = role == "archer" or draw(st.booleans())
    keywords = draw(st.sets(st.sampled_from(["charge", "vanguard", "death_strike", "tireless",
                                             "immobile"])))  # fmt: skip
    if ranged and draw(st.booleans()):
        keywords.add("sniper")
    card = {
        "kind": "unit", "role": role, "ranged": ranged, "keywords": sorted(keywords),
        "gold": draw(st.integers(0, 6)), "dust": draw(st.integers(0, 6)),
        "attack": draw(st.integers(0, 6)), "die": draw(st.sampled_from(DICE)),
        "armour": draw(st.integers(0, 4)), "hp": draw(st.integers(1, 15)),
        "pierce": draw(st.integers(0, 3)),
    }  # fmt: skip
    card.update(draw(on_play()))
    if draw(st.booleans()):
        card["on_death"] = [draw(st.sampled_from(TRIGGERS))]
    if draw(st.booleans()):
        card["on_turn_start"] = [draw(st.sampled_from([*TRIGGERS, {"do": "heal", "amount": 1,
                                                                   "to": "self"}]))]  # fmt: skip
    return card


@st.composite
def spell_or_artifact(draw: st.DrawFn) -> dict[str, Any]:
    if draw(st.booleans()):
        card = {"kind": "spell", "dust": draw(st.integers(0, 6))}
    else:
        card = {"kind": "artifact", "gold": draw(st.integers(0, 6))}
        if draw(st.booleans()):
            attack = draw(st.integers(-1, 2))
            card["persistent"] = True
            card["aura"] = [{"group": draw(st.sampled_from(["ally_front", "ally_back",
                                                             "ally_unit"])),
                             "attack": attack,
                             "armour": draw(st.integers(0 if attack else 1, 2))}]  # fmt: skip
            return card
    extra = draw(on_play())
    return {**card, **(extra or {"on_play": [UNTARGETED[0]]})}


NAMES = [f"Card {chr(ord('A') + i // 26)}{chr(ord('a') + i % 26)}" for i in range(20)]


def card_invariants(state: GoldDustState) -> None:
    for player in (0, 1):
        assert state.cards_owned(player) == 41
        assert state.hp[player] <= state.heroes[player].hp
        assert all(u is None or 0 <= u.hp <= u.max_hp for u in state.boards[player])


@settings(max_examples=25, deadline=None)
@given(st.lists(st.one_of(unit(), spell_or_artifact()), min_size=20, max_size=20),
       st.sampled_from(HERO_NAMES), st.sampled_from(HERO_NAMES), st.integers(0, 2**16))  # fmt: skip
def test_random_valid_cards_load_and_play(
    cards: list[dict], hero_a: str, hero_b: str, seed: int
) -> None:
    records = [
        {"name": name, "text": "generated", **card} for name, card in zip(NAMES, cards, strict=True)
    ]
    data = {"format": 1, "name": "Generated", "version": "0", "hero": HEROES, "card": records}
    pool = parse_pool(data, "<generated>")
    decks = [
        parse_deck({"name": f"d{i}", "cards": {hero: 1, **dict.fromkeys(NAMES, 2)}}, pool, "<g>")
        for i, hero in enumerate((hero_a, hero_b))
    ]
    summary = run_random_games(
        GoldDustGame(decks, pool=pool), games=3, seed=seed, invariant=card_invariants,
        deep_check_fraction=0.05,
    )  # fmt: skip
    assert summary.games == 3
