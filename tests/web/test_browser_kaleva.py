"""Kaleva's table in a real browser (web/static/games/kaleva.js): a whole game against the
random agent played by clicking discs, squares and cards only (never the notation list), the
board drawn with the notation's labels and turned for the player of Bronze, every card
readable, the result in words. The page under way is saved as web-kaleva.png into
``TABLETOP_SCREENSHOTS`` (docs/figures) when set."""

from __future__ import annotations

import random
from pathlib import Path

from browser_support import open_table, page_width, play_by_clicking_pieces, screenshot_folder


def test_kaleva_is_played_to_its_end_by_clicking_discs_squares_and_cards(
    server: str, browser: object, tmp_path: Path
) -> None:
    page = browser.new_page(viewport={"width": 1200, "height": 1000})
    open_table(page, server, "kaleva", ["human", "random"])
    labels = page.eval_on_selector_all(
        '[data-area="board"] .kv-file', "nodes => nodes.map(n => n.textContent)"
    )
    assert labels[:2] == ["a", "a"] and labels[-1] == "f"  # Silver: file a on the left
    screenshot = screenshot_folder(tmp_path) / "web-kaleva.png"
    made = play_by_clicking_pieces(page, random.Random(3), save=screenshot, save_after=10)
    assert made > 6 and screenshot.exists()
    result = page.text_content("#result")
    assert "wins:" in result or "Draw:" in result, result
    page.close()


def test_the_player_of_bronze_sees_the_board_turned_with_its_labels(
    server: str, browser: object
) -> None:
    """KV-1.2: Bronze's shield row (rank 4) at the bottom, file f on the left; at phone
    width (375 px) the board fits without a horizontal scroll."""
    page = browser.new_page(viewport={"width": 375, "height": 800})
    open_table(page, server, "kaleva", ["random", "human"])
    ranks = page.eval_on_selector_all(
        '[data-area="board"] .kv-rank', "nodes => nodes.map(n => n.textContent)"
    )
    assert ranks[::2] == ["0", "1", "2", "3", "4"]
    bottom_right = page.eval_on_selector(
        '[data-piece="board/a4"]', "n => [n.style.gridRow, n.style.gridColumn]"
    )
    assert bottom_right == ["7", "7"]
    assert page_width(page) <= 375
    page.close()
