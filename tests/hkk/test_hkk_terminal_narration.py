"""What HKK tells a player about draws and damage (HK-11.1, HK-6.6), and the card lines
and help the terminal shows from the card data."""

from __future__ import annotations

import random

from hkk_positions import GAME, act, declare_state, stacked

from tabletop.envs.core.protocol import Event
from tabletop.envs.hkk.engine import HkkState
from tabletop.envs.hkk.rendering import card_line


def drawn(state: HkkState, observer: int | None) -> list[Event]:
    return [event for event in state.last_events(observer) if event.kind == "cards_drawn"]


def test_hk_11_1_a_draw_names_the_cards_to_the_drawer_only() -> None:
    state = stacked([{"hand": ["Stray Wolf"], "vp": 1}, {"deck": ["Ash Roc", "Fire Bolt"]}])
    act(state, "pass", "pass")  # to player 1's turn, who draws in their preparation (HK-3.2)
    (own,) = [e for e in drawn(state, 1) if e.data["player"] == 1]
    (other,) = [e for e in drawn(state, 0) if e.data["player"] == 1]
    assert own.text == "Player 1 draws Ash Roc"
    assert own.data == {"player": 1, "count": 1, "cards": ["Ash Roc"]}
    assert other.text == "Player 1 draws a card"
    assert other.data == {"player": 1, "count": 1}
    assert [e.text for e in drawn(state, None)] == [own.text]


def test_hk_11_1_a_determinization_does_not_know_the_other_players_draws() -> None:
    state = stacked([{"hand": ["Stray Wolf"], "vp": 1}, {"deck": ["Ash Roc", "Fire Bolt"]}])
    act(state, "pass", "pass")
    twin = state.resample_hidden(0, random.Random(1))
    assert [e.text for e in drawn(twin, None) if e.data["player"] == 1] == ["Player 1 draws a card"]


def test_hk_6_6_the_strike_tells_how_much_damage_each_side_dealt() -> None:
    state = declare_state(["Hill Giant"], ["Ash Roc"])
    act(state, "attack #0 Hill Giant at their #0 Ash Roc")
    texts = [e.text for e in state.last_events(1) if e.kind == "damage_dealt"]
    assert texts == [
        "Player 0's #0 Hill Giant deals 3 damage to player 1's #0 Ash Roc",
        "Player 1's #0 Ash Roc deals 4 damage to player 0's #0 Hill Giant",
    ]  # the Giant's 5 less 2 against flying (HK-7.11); the Roc 3 +1 on defence (HK-4.3)
    assert [e.text for e in state.last_events(0) if e.kind == "damage_dealt"] == texts


def test_hk_6_6_an_attack_on_the_player_tells_its_damage() -> None:
    state = declare_state(["Hill Giant"], [])
    act(state, "attack #0 Hill Giant at player")
    (event,) = [e for e in state.last_events(1) if e.kind == "damage_dealt"]
    assert event.text == "Player 0's #0 Hill Giant deals 5 damage to player 1"
    assert event.data["amount"] == 5 and event.data["seat"] == 1


def test_card_lines_give_type_cost_figures_and_text_from_the_card_data() -> None:
    lines = GAME.card_descriptions()
    assert lines["Ember Drake"] == (
        "Ember Drake: red monster (dragon); costs 5 VP; 3/3 (damage/life); 2 components. "
        "Flying. Immune to fire. Breath of fire 3."
    )
    assert lines["Fire Bolt"] == "Fire Bolt: red instant; costs 2 VP. 3 fire damage to a creature."
    assert set(lines) == {card.name for card in GAME.cards}
    assert all(
        line == card_line(card) for card, line in zip(GAME.cards, lines.values(), strict=True)
    )
