"""HKK's table in a real browser (web/static/games/hkk.js): a whole game against the random
agent played by clicking cards, targets, ``#choices`` and ``#actions`` only (never the
notation list), every card drawn readable (cost or figures, and rule text, in the DOM or its
title), items drawn on their carriers, the chain drawn while it is open, and the result in
words. The page under way is saved as web-hkk.png into ``TABLETOP_SCREENSHOTS``
(docs/figures) when set."""

from __future__ import annotations

import random
from pathlib import Path

from browser_support import (
    MOVE_TIMEOUT_MS,
    REDRAWN,
    click_a_move,
    open_table,
    page_width,
    screenshot_folder,
    zone_areas,
)

MAX_CLICKS = 1500
"""More of the viewer's decisions than a game against the random agent takes (about 120)."""
UNREADABLE_CARDS = """() => [...document.querySelectorAll('#table .card')].filter((card) => {
  const has = (selector) => (card.querySelector(selector)?.textContent || '').trim() !== '';
  const title = card.getAttribute('title') || '';
  return !((has('.card-cost') || has('.card-stats')) && (has('.card-text') || title.length > 40));
}).map((card) => card.dataset.piece)"""
"""The ids of the drawn cards that show no cost or figures, or no rule text."""
MISPLACED = """() => [...document.querySelectorAll('#table .piece.attached')]
  .filter((node) => !node.parentElement.closest('.piece')).map((node) => node.dataset.piece)"""
"""Attached cards (items, enchantments...) not drawn inside another piece (their carrier)."""


def check_table(page: object, seen: set[str]) -> None:
    """Every card readable, every attached card on its carrier; what the table showed."""
    assert page.evaluate(UNREADABLE_CARDS) == []
    assert page.evaluate(MISPLACED) == []
    if page.query_selector('#table [data-area="chain"] .hkk-stack .card'):
        seen.add("chain")
    if page.query_selector("#table .card .attachments .piece.attached"):
        seen.add("carried")
    if page.query_selector("#table .card.hkk-turned"):
        seen.add("passive")


def play_by_clicking(page: object, rng: random.Random, save: Path) -> tuple[int, set[str]]:
    """Play the viewer's seat to its end by clicking pieces, targets, ``#choices`` and
    ``#actions`` only, checking the table on the way; the page is saved to ``save`` at the
    first of the viewer's decisions from the 20th on where the table shows a creature on
    each side. The viewer's decisions made and what the table showed."""
    made, seen = 0, set()
    for _ in range(MAX_CLICKS):
        root = page.query_selector("#table")
        if page.is_visible("#result"):
            return made, seen
        check_table(page, seen)
        mine = page.text_content("#turn") == "Your turn"
        if mine and not save.exists() and made >= 20 and creatures_on_both_sides(page):
            page.screenshot(path=str(save), full_page=True)
        if mine and click_a_move(page, rng):
            made += 1
        page.wait_for_function(REDRAWN, arg=root, timeout=MOVE_TIMEOUT_MS)
    raise AssertionError(f"no result after {MAX_CLICKS} clicks")


def creatures_on_both_sides(page: object) -> bool:
    """A card in a guard post or reserve of each side (a table worth a picture)."""
    return all(
        page.query_selector(f'#table [data-area="guard{seat}"] .card, '
                            f'#table [data-area="reserve{seat}"] .card')
        for seat in (0, 1)
    )  # fmt: skip


def test_hkk_is_played_to_its_end_by_clicking_cards_and_targets(
    server: str, browser: object, tmp_path: Path
) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 1000})
    open_table(page, server, "hkk", ["human", "random"])
    top = zone_areas(page, "top")
    bottom = zone_areas(page, "bottom")
    assert {"guard1", "hand1", "player1"} <= set(top) and top[-1].startswith("guard")
    assert {"guard0", "hand0", "player0"} <= set(bottom) and bottom[0] == "guard0"
    assert "You" not in page.text_content('[data-area="hand1"] h3')
    screenshot = screenshot_folder(tmp_path) / "web-hkk.png"
    screenshot.unlink(missing_ok=True)
    made, seen = play_by_clicking(page, random.Random(3), screenshot)
    print(f"hkk: {made} decisions made by clicking; the table showed {sorted(seen)}")
    assert made > 20 and screenshot.exists()
    assert seen == {"chain", "carried", "passive"}  # (seed 7 and these clicks show all three)
    result = page.text_content("#result")
    assert "wins:" in result or "draw:" in result, result
    page.close()


def test_the_hkk_table_fits_a_phone(server: str, browser: object) -> None:
    """At 375 px the bands stack, cards wrap, and the page never scrolls sideways."""
    page = browser.new_page(viewport={"width": 375, "height": 800})
    open_table(page, server, "hkk", ["human", "random"])
    assert page.query_selector_all("#table .card")
    wide = page_width(page)
    assert wide <= 375, wide
    assert page.evaluate(UNREADABLE_CARDS) == []
    page.close()


def test_the_player_of_seat_1_sits_at_the_bottom(server: str, browser: object) -> None:
    """The viewer's side at the bottom, guard post towards the middle, whichever seat."""
    page = browser.new_page(viewport={"width": 1000, "height": 900})
    open_table(page, server, "hkk", ["random", "human"])
    bottom = zone_areas(page, "bottom")
    top = zone_areas(page, "top")
    assert bottom[0] == "guard1" and top[-1] == "guard0"
    assert page.text_content('[data-area="hand1"] h3') == "Your hand"
    assert page.query_selector_all('[data-area="hand0"] .piece.face-down')
    assert not page.query_selector_all('[data-area="hand0"] .card')
    page.close()
