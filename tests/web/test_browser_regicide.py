"""Regicide's table in a real browser (web/static/games/regicide.js): a whole game with the
random agent played by clicking hand cards, the enemy, ``#choices`` and ``#actions`` only
(never the notation list), the enemy drawn with its health, attack and shield, the other
player's hand face down, every card readable, the result in words. The page under way is
saved as web-regicide.png into ``TABLETOP_SCREENSHOTS`` (docs/figures) when set."""

from __future__ import annotations

import random
from pathlib import Path

from browser_support import open_table, page_width, play_by_clicking_pieces, screenshot_folder


def test_regicide_is_played_to_its_end_by_clicking_cards_and_the_enemy(
    server: str, browser: object, tmp_path: Path
) -> None:
    page = browser.new_page(viewport={"width": 1200, "height": 1000})
    open_table(page, server, "regicide", ["human", "random"])
    figures = page.text_content('[data-area="enemy"] .rg-figures')
    assert "health left" in figures and "attack" in figures and "shield" in figures
    hidden = page.query_selector_all('.zone-top [data-area="hand1"] .piece.face-down')
    assert len(hidden) == 7  # RG-1.3, RG-8.2: the other player's hand, face down
    assert page.query_selector_all(
        '.zone-bottom [data-area="hand0"] .piece.card.hearts, '
        '.zone-bottom [data-area="hand0"] .piece.card'
    )
    screenshot = screenshot_folder(tmp_path) / "web-regicide.png"
    made = play_by_clicking_pieces(page, random.Random(5), save=screenshot, save_after=2)
    assert made >= 1 and screenshot.exists()
    result = page.text_content("#result")
    assert "The players win:" in result or "The players lose:" in result, result
    page.close()


def test_a_solo_game_flips_its_jester_powers_by_clicking_them(server: str, browser: object) -> None:
    """RG-7.2: the jester powers are cards on the table; a click on one flips it. At phone
    width (375 px) the table fits without a horizontal scroll."""
    page = browser.new_page(viewport={"width": 375, "height": 800})
    open_table(page, server, "regicide", ["human"], num_players=1)
    page.click('[data-piece="power/0"]')
    page.wait_for_function(
        "() => document.querySelectorAll('[data-area=\"powers\"] .card').length === 1"
    )
    assert page_width(page) <= 375
    made = play_by_clicking_pieces(page, random.Random(1))
    assert made >= 1
    assert "The player " in page.text_content("#result")
    page.close()
