"""Gold & Dust's table in a real browser (web/static/games/gold_and_dust.js): a whole game
against the random agent played by clicking cards, units, Heroes, ``#choices`` and
``#actions`` only (never the notation list), each side drawn as a battlefield with its first
row towards the middle and its hand at the edge, every card readable (cost or figures, and
rule text), the result in words. The page under way is saved as web-gold_and_dust.png into
``TABLETOP_SCREENSHOTS`` (docs/figures) when set."""

from __future__ import annotations

import random
from pathlib import Path

from browser_support import (
    open_table,
    page_width,
    play_by_clicking_pieces,
    screenshot_folder,
    zone_areas,
)


def test_gold_and_dust_is_played_to_its_end_by_clicking_cards_and_units(
    server: str, browser: object, tmp_path: Path
) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 1000})
    open_table(page, server, "gold_and_dust", ["human", "random"])
    top, bottom = zone_areas(page, "top"), zone_areas(page, "bottom")
    assert top[0] == "hand1" and top[-2:] == ["back1", "front1"]  # the front row inwards
    assert bottom[:2] == ["front0", "back0"] and bottom[-1] == "hand0"
    hidden = page.query_selector_all('.zone-top [data-area="hand1"] .piece.face-down')
    assert len(hidden) == 5 and not page.query_selector('[data-area="hand1"] .card')  # GD-9.3
    hero = page.text_content('[data-piece="hero0"]')
    assert "Passive:" in hero and "30" in hero
    screenshot = screenshot_folder(tmp_path) / "web-gold_and_dust.png"
    screenshot.unlink(missing_ok=True)
    made = play_by_clicking_pieces(page, random.Random(4), save=screenshot, save_after=12)
    print(f"gold_and_dust: {made} decisions made by clicking")
    assert made > 10 and screenshot.exists()
    result = page.text_content("#result")
    assert " wins: player " in result or "Draw: the turn limit" in result, result
    page.close()


def test_the_table_fits_a_phone_and_a_card_shows_its_full_text_on_a_tap(
    server: str, browser: object
) -> None:
    page = browser.new_page(viewport={"width": 375, "height": 800})
    open_table(page, server, "gold_and_dust", ["random", "human"])
    assert page_width(page) <= 375
    card = page.query_selector('.zone-bottom [data-area="hand1"] .card')
    name = card.query_selector(".card-name").text_content()
    card.dispatch_event("mouseenter")
    detail = page.text_content("#card-detail")
    assert name in detail and card.get_attribute("title").split(". ")[-1] in detail
    page.close()
