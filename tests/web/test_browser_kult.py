"""Kult's table in a real browser (web/static/games/kult.js): a whole game against the
random agent played by clicking hand cards, stations, the Hub, the Pool, ``#choices`` and
``#actions`` only (never the notation list), each Mystic Cross drawn as a cross around its
Hub with the Cast column beside (KU-1.1), tokens as counters, every card readable (its keys
or figures, and rule text), the result in words. The game is cut at 120 plies (the
``ply_limit`` option; random play rarely wins a race to 5 tokens, KU-9.1). The page under
way is saved as web-kult.png into ``TABLETOP_SCREENSHOTS`` (docs/figures) when set."""

from __future__ import annotations

import random
from pathlib import Path

from browser_support import open_table, page_width, play_by_clicking_pieces, screenshot_folder

PLY_LIMIT = 120
CELLS = """(area) => Object.fromEntries([...document.querySelectorAll(
  `[data-area="${area}"] .grid > .piece`)].map((n) => [n.dataset.piece.split("/").pop(),
  [Number(n.style.gridRow), Number(n.style.gridColumn)]]))"""
"""Each station's (and the Hub's) drawn row and column in a cross."""


def test_kult_is_played_to_its_end_by_clicking_cards_and_stations(
    server: str, browser: object, tmp_path: Path
) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 1000})
    open_table(page, server, "kult", ["human", "random"], ply_limit=PLY_LIMIT)
    cells = page.evaluate(CELLS, "cross1")
    hub = cells.pop("hub1")
    north, east, south, west = (cells[f"Scene{n}"] for n in range(1, 5))
    assert hub[0] == north[0] + 1 == south[0] - 1 == east[0] == west[0]
    assert hub[1] == north[1] == south[1] == east[1] - 1 == west[1] + 1
    assert {tuple(cells[f"Cast{n}"]) for n in range(5, 9)} == {(row, 4) for row in range(1, 5)}
    assert len(page.query_selector_all('[data-piece="pool"] .ku-token')) == 5  # 2x5-1, less 2x2
    assert page.query_selector('.zone-top [data-area="hand1"]') and not page.query_selector(
        '[data-area="hand1"] .card'
    )
    screenshot = screenshot_folder(tmp_path) / "web-kult.png"
    screenshot.unlink(missing_ok=True)
    made = play_by_clicking_pieces(page, random.Random(2), save=screenshot, save_after=25)
    print(f"kult: {made} decisions made by clicking")
    assert made > 20 and screenshot.exists()
    result = page.text_content("#result")
    assert " wins: " in result or f"Draw: the limit of {PLY_LIMIT} plies" in result, result
    page.close()


def test_the_cross_fits_a_phone(server: str, browser: object) -> None:
    page = browser.new_page(viewport={"width": 375, "height": 800})
    open_table(page, server, "kult", ["random", "human"])
    assert page_width(page) <= 375
    assert page.query_selector('.zone-bottom [data-area="cross1"] [data-piece="hub1"].card')
    page.close()
