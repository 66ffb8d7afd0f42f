"""Helpers for the browser tests of the web table (tests/web/test_*browser*.py), importable
as ``from browser_support import ...`` (pytest puts tests/web on the path); the fixtures
``server`` and ``browser`` that go with them are in tests/web/conftest.py."""

from __future__ import annotations

import os
import random
import shutil
from pathlib import Path

CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip
"""Flags for a headless Chromium as root on a machine with no outside network."""
MOVE_TIMEOUT_MS = 60_000
"""Long enough for an agent's move on a loaded CI machine."""


def chromium_path() -> str | None:
    """The OS Chromium, which Playwright drives (no browser download needed)."""
    return shutil.which("chromium") or shutil.which("chromium-browser")


def screenshot_folder(tmp_path: Path) -> Path:
    """Where screenshots go: ``TABLETOP_SCREENSHOTS`` when set (the docs' figures are made
    so), else the test's own folder."""
    folder = Path(os.environ.get("TABLETOP_SCREENSHOTS", tmp_path))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def start_from_lobby(page: object, server: str, game: str) -> None:
    """Start ``game`` in the lobby with seat 0 human, every other seat random (the lobby's
    default), agents at full speed, seed 7; open seat 0's table and wait until it is drawn."""
    page.goto(server)
    page.select_option("#game", game)
    page.fill("#seed", "7")
    page.fill("#pace", "0")
    page.click("#start")
    page.click('[data-link="0"]')
    page.wait_for_selector("#status")


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


def zone_areas(page: object, zone: str) -> list[str]:
    """The areas drawn in the table's ``zone`` (top, middle or bottom), in page order."""
    return page.eval_on_selector_all(
        f"#table .zone-{zone} [data-area]", "nodes => nodes.map(n => n.dataset.area)"
    )


def page_width(page: object) -> int:
    """The page's full width: wider than the viewport when it scrolls sideways."""
    return page.evaluate("() => document.documentElement.scrollWidth")


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
