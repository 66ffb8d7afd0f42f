"""Kaleva's table in a real browser (web/static/games/kaleva.js): a whole game against the
random agent played by clicking discs, squares and cards only (never the notation list), the
board drawn with the notation's labels and turned for the player of Bronze, every card
readable, the result in words. The page under way is saved as web-kaleva.png into
``TABLETOP_SCREENSHOTS`` (docs/figures) when set."""

from __future__ import annotations

import random
from pathlib import Path

from browser_support import MOVE_TIMEOUT_MS, screenshot_folder

MAX_TURNS = 400
"""More of the viewer's decisions than a game can take (200 plies at most, KV-6.3)."""
UNREADABLE_CARDS = """() => [...document.querySelectorAll('#table .card')].filter((card) => {
  const has = (selector) => (card.querySelector(selector)?.textContent || '').trim() !== '';
  const title = card.getAttribute('title') || '';
  return !((has('.card-cost') || has('.card-stats') || /\\d/.test(title))
           && (has('.card-text') || title.length > 40));
}).map((card) => card.dataset.piece)"""
"""The ids of the drawn cards that show no cost or stats, or no rule text, in the DOM or
their title."""
REDRAWN = "(root) => !root.isConnected"
"""The table drawn before is gone: the page drew the game anew."""


def open_table(page: object, server: str, game: str, seats: list[str], **options: object) -> None:
    """Start ``game`` through the API (seed 7, agents at full speed) and open the table of
    its human seat, waiting until it is drawn."""
    made = page.request.post(
        f"{server}api/tables",
        data={"game": game, "options": options, "seats": seats, "seed": 7, "pace": 0},
    )
    assert made.ok, made.text()
    page.goto(server + made.json()["links"][str(seats.index("human"))].lstrip("/"))
    page.wait_for_selector("#table")


def click_a_move(page: object, rng: random.Random) -> bool:
    """One move made on the table by clicking: a random playable piece or button of
    ``#actions``, then, when that selects a piece, a random target; a random ``#choices``
    button whenever several moves are offered. False when the viewer has nothing to click."""
    options = page.query_selector_all("#table .piece.playable, #actions:not([hidden]) button")
    if not options:
        return False
    try:
        rng.choice(options).click()
        for _ in range(3):
            choices = page.query_selector_all("#choices:not([hidden]) button")
            targets = page.query_selector_all("#table .piece.target")
            if not choices and not targets:
                break
            rng.choice(choices or targets).click()
    except Exception as error:  # (Playwright's Error) the table was drawn anew under the click
        assert "not attached" in str(error), error
    return True


def play_by_clicking_pieces(
    page: object, rng: random.Random, *, save: Path | None = None, save_after: int = 8
) -> int:
    """Play the viewer's seat to the end by clicking pieces, targets, ``#choices`` and
    ``#actions`` only; check every drawn card is readable on the way. With ``save``, the page
    is saved there at the viewer's ``save_after``-th decision, once a piece is selected
    (its targets marked). The viewer's decisions made."""
    made = 0
    for _ in range(MAX_TURNS):
        root = page.query_selector("#table")
        if page.is_visible("#result"):
            return made
        assert page.evaluate(UNREADABLE_CARDS) == []
        mine = page.text_content("#turn") == "Your turn"
        if mine and save is not None and made >= save_after and select_a_source(page, root):
            page.screenshot(path=str(save), full_page=True)
            save = None
            page.click("#table .piece.selected")  # deselect; the move comes below
        if mine and root.evaluate("(root) => root.isConnected") and click_a_move(page, rng):
            made += 1
        page.wait_for_function(REDRAWN, arg=root, timeout=MOVE_TIMEOUT_MS)
    raise AssertionError(f"no result after {MAX_TURNS} turns")


def select_a_source(page: object, root: object) -> bool:
    """Select a playable piece that has targets (for a picture of a move being made); False
    when there is none, or when a click played a move (the table drawn anew)."""
    for index in range(len(page.query_selector_all("#table .piece.playable"))):
        nodes = page.query_selector_all("#table .piece.playable")
        if index >= len(nodes) or not root.evaluate("(root) => root.isConnected"):
            return False
        try:
            nodes[index].click()
            if page.query_selector_all("#table .piece.target"):
                return True
            if page.query_selector("#table .piece.selected"):
                nodes[index].click()
        except Exception as error:  # (Playwright's Error) the table was drawn anew under the click
            assert "not attached" in str(error), error
            return False
    return False


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
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 375
    page.close()
