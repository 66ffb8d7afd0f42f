"""The web table in a real browser: Playwright drives the system's Chromium against a real
``tabletop serve`` on 127.0.0.1. For every game: start a game against the random agent in
the lobby, play it to the end by clicking legal moves, check the result banner, then step
through its replay. Screenshots go to the test's folder, or to ``TABLETOP_SCREENSHOTS``
(the docs' figures are made so). Without Chromium the tests skip, unless
``TABLETOP_REQUIRE_BROWSER=1`` (set by ``.ci/run``) makes that a failure."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from browser_support import MOVE_TIMEOUT_MS, screenshot_folder, start_from_lobby

from tabletop import envs

MAX_CLICKS = 3_000
SCREENSHOT_CLICK = 12
"""The turn whose page is saved: a game under way, not its opening."""


def play_by_clicking(page: object, rng: random.Random, screenshot: Path) -> int:
    """Click a random listed legal move whenever there is one, until the result banner
    shows; every fifth click is on a playable piece instead (when several moves name it,
    the first of the moves it picks out). The page is saved to ``screenshot`` at the
    ``SCREENSHOT_CLICK``th turn. The number of clicks."""
    for clicks in range(MAX_CLICKS):
        page.wait_for_selector("#moves button, #result:not([hidden])", timeout=MOVE_TIMEOUT_MS)
        if page.is_visible("#result"):
            return clicks
        if clicks == SCREENSHOT_CLICK:
            page.screenshot(path=str(screenshot))
        title = page.text_content("#title")
        pieces = page.query_selector_all(".piece.playable")
        if clicks % 5 == 4 and pieces:
            rng.choice(pieces).click()
            page.wait_for_function(
                "([title]) => document.querySelector('#title').textContent !== title"
                " || document.querySelector('.moves button.focus')",
                arg=[title],
                timeout=MOVE_TIMEOUT_MS,
            )
            if page.text_content("#title") == title:
                page.click(".moves button.focus")  # a piece that several moves name
        else:
            rng.choice(page.query_selector_all("#moves button")).click()
        page.wait_for_function(
            "([title]) => document.querySelector('#title').textContent !== title",
            arg=[title],
            timeout=MOVE_TIMEOUT_MS,
        )
    raise AssertionError(f"no result after {MAX_CLICKS} clicks")


@pytest.mark.parametrize("game", envs.names())
def test_a_game_is_played_to_its_end_by_clicking_and_then_replayed(
    server: str, browser: object, game: str, tmp_path: Path
) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    start_from_lobby(page, server, game)
    screenshot = screenshot_folder(tmp_path) / f"web-{game}.png"
    clicks = play_by_clicking(page, random.Random(1), screenshot)
    assert clicks > SCREENSHOT_CLICK and screenshot.exists()
    assert "Game over" in page.text_content("#result")
    table_id = page.url.split("/table/")[1].split("?")[0]
    page.goto(f"{server}replays")
    page.click(f'[data-replay="{table_id}"]')
    page.wait_for_selector("#ply:has-text('ply 0 of')")
    plies = int(re.search(r"of (\d+)", page.text_content("#ply")).group(1))
    page.click("#forward")
    page.wait_for_selector("#ply:has-text('ply 1 of')")
    page.click("#last")
    page.wait_for_selector(f"#ply:has-text('ply {plies} of')")
    assert page.is_visible("#result")
    page.click("#back")
    page.wait_for_selector(f"#ply:has-text('ply {plies - 1} of')")
    assert not page.is_visible("#result")
    assert errors == []
    page.close()
