"""The lobby in a real browser (the ``server`` and ``browser`` fixtures of conftest.py):
options are form controls of their kind set to their defaults, games are listed by their
display names, a seat's chosen agent survives editing the options, and what the form
sends is the options changed from their defaults."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

import pytest


def open_lobby(browser: Any, server: str, game: str) -> Any:
    page = browser.new_page(viewport={"width": 1000, "height": 900})
    page.goto(server)
    page.wait_for_selector(f'#game option[value="{game}"]', state="attached")
    page.select_option("#game", game)
    return page


def test_games_are_listed_by_display_name_and_options_are_controls_at_their_defaults(
    server: str, browser: Any
) -> None:
    page = open_lobby(browser, server, "kult")
    titles = page.eval_on_selector_all("#game option", "options => options.map(o => o.text)")
    assert "Gold & Dust" in titles and "gold_and_dust" not in titles
    assert page.get_attribute('[data-option="same_arcanum_swap"]', "type") == "checkbox"
    assert page.is_checked('[data-option="same_arcanum_swap"]')
    assert not page.is_checked('[data-option="shaped_reward"]')
    assert page.eval_on_selector('[data-option="num_players"]', "e => e.tagName") == "SELECT"
    assert page.input_value('[data-option="num_players"]') == "2"
    assert page.get_attribute('[data-option="ply_limit"]', "type") == "number"
    assert page.input_value('[data-option="ply_limit"]') == "400"
    assert page.eval_on_selector('[data-option="game_type"]', "e => e.tagName") == "SELECT"
    assert page.input_value('[data-option="game_type"]') == "continent"
    assert page.locator("[data-deck]").count() == 2
    values = page.eval_on_selector_all("input", "inputs => inputs.map(i => i.value)")
    assert "null" not in values and '"continent"' not in values
    page.close()


def test_editing_options_keeps_each_seat_s_chosen_agent(server: str, browser: Any) -> None:
    page = open_lobby(browser, server, "kult")
    page.select_option('[data-seat="1"]', "heuristic")
    page.select_option('[data-deck="1"]', "tide")
    page.uncheck('[data-option="same_arcanum_swap"]')
    page.fill('[data-option="ply_limit"]', "300")
    page.select_option('[data-option="game_type"]', "world")
    page.select_option('[data-option="num_players"]', "3")
    assert page.input_value('[data-seat="0"]') == "human"
    assert page.input_value('[data-seat="1"]') == "heuristic"
    assert page.input_value('[data-seat="2"]') == "random"
    assert page.input_value('[data-deck="1"]') == "tide"
    page.close()


def call(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=30) as response:
        return json.loads(response.read())


@pytest.mark.parametrize(
    ("game", "edit", "options"),
    [
        ("kult", {"num_players": "3", "game_type": "world"},
         {"num_players": 3, "game_type": "world"}),
        ("gold_and_dust", {"max_turns": "50", "decks": ["thief", "mage"]},
         {"max_turns": 50, "decks": ["thief", "mage"]}),
        ("regicide", {"solo_yield": True, "num_players": "1"},
         {"num_players": 1, "solo_yield": True}),
    ],
)  # fmt: skip
def test_the_form_sends_the_options_changed_from_their_defaults(
    server: str, browser: Any, game: str, edit: dict[str, Any], options: dict[str, Any]
) -> None:
    page = open_lobby(browser, server, game)
    for name, value in edit.items():
        if name == "decks":
            for seat, deck in enumerate(value):
                page.select_option(f'[data-deck="{seat}"]', deck)
        elif value is True:
            page.check(f'[data-option="{name}"]')
        elif page.eval_on_selector(f'[data-option="{name}"]', "e => e.tagName") == "SELECT":
            page.select_option(f'[data-option="{name}"]', value)
        else:
            page.fill(f'[data-option="{name}"]', value)
    with page.expect_request("**/api/tables") as request:
        page.click("#start")
    sent = json.loads(request.value.post_data)
    assert sent["options"] == options
    page.wait_for_selector('[data-link="0"]')
    assert page.text_content("#error") == ""
    page.close()
