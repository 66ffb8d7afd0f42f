"""The generic table page in a real browser: Playwright drives the system's Chromium against
a real ``tabletop serve`` on 127.0.0.1 (fixtures in conftest.py). For every game: start a
game against the random agent in the lobby, play it to the end by clicking, check the result
banner, then step through its replay. Then what any game's page must do: refuse a bad token
and stop reading, say why a click does nothing, refresh a stale page instead of sending an
old move, show a spectator no moves, say "reconnecting" while the server cannot be reached,
fit a phone's width, and play a game that has no drawing of its own. Each game's own drawing
is tested in test_browser_<game>.py. Without Chromium the tests skip, unless
``TABLETOP_REQUIRE_BROWSER=1`` (set by ``.ci/run``) makes that a failure."""

from __future__ import annotations

import json
import random
import re
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from browser_support import MOVE_TIMEOUT_MS, start_from_lobby

from tabletop import envs

MAX_CLICKS = 3_000


PHONE = {"width": 375, "height": 740}
DESKTOP = {"width": 1280, "height": 900}


def version(page: object) -> int:
    """The table version the page shows (table.html writes it on <body>)."""
    return int(page.get_attribute("body", "data-version") or -1)


def wait_for_a_move(page: object) -> None:
    """Until the page can move: a playable piece or button, or the result banner."""
    page.wait_for_selector(
        "#result:not([hidden]), .piece.playable, #actions button", timeout=MOVE_TIMEOUT_MS
    )


def click_a_move(page: object, rng: random.Random) -> None:
    """Play one move on the pieces, as a person would: click a playable piece or an
    ``#actions`` button, then a marked target when there are some (or, now and then, one of
    ``#choices`` instead), then one of ``#choices`` when several moves join the two."""
    rng.choice(page.query_selector_all(".piece.playable, #actions button")).click()
    targets = page.query_selector_all(".piece.target")
    if targets and not (
        page.query_selector("#choices:not([hidden]) button") and rng.random() < 0.3
    ):
        rng.choice(targets).click()
    choices = page.query_selector_all("#choices:not([hidden]) button")
    if choices:
        rng.choice(choices).click()


def play_by_clicking(page: object, rng: random.Random) -> int:
    """Play until the result banner shows: mostly a random button of the notation list
    (``#moves``), every third move on the pieces instead. The number of moves."""
    for moves in range(MAX_CLICKS):
        wait_for_a_move(page)
        if page.is_visible("#result"):
            return moves
        shown = version(page)
        listed = page.query_selector_all("#moves button")
        if moves % 3 == 2 or not listed:
            click_a_move(page, rng)
        else:
            rng.choice(listed).click()
        page.wait_for_function(
            f"Number(document.body.dataset.version) > {shown}", timeout=MOVE_TIMEOUT_MS
        )
    raise AssertionError(f"no result after {MAX_CLICKS} moves")


def api(server: str, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
    """A request to the server's API behind the page's back."""
    data = None if body is None else json.dumps(body).encode()
    headers = {"Content-Type": "application/json"}
    request = urllib.request.Request(server + path.lstrip("/"), data=data, headers=headers)
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.load(response)


def new_table(server: str, game: str, seats: list[str], pace: float = 0) -> dict[str, Any]:
    return api(server, "/api/tables", {"game": game, "seats": seats, "seed": 7, "pace": pace})


@pytest.mark.parametrize("game", envs.names())
def test_a_game_is_played_to_its_end_by_clicking_and_then_replayed(
    server: str, browser: object, game: str
) -> None:
    page = browser.new_page(viewport=DESKTOP)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    start_from_lobby(page, server, game)
    assert page.text_content("#title") == envs.spec(game).title
    assert play_by_clicking(page, random.Random(1)) > 0
    banner = page.text_content("#result")
    assert "Game over" in banner and not re.search(r"[+-]1\b", banner)
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


def test_a_bad_token_shows_the_servers_message_and_stops_reading(
    server: str, browser: object
) -> None:
    table = new_table(server, "regicide", ["human", "random"])
    page = browser.new_page(viewport=DESKTOP)
    reads: list[str] = []
    page.on(
        "request",
        lambda request: reads.append(request.url) if "/api/tables/" in request.url else None,
    )
    page.goto(f"{server}table/{table['id']}?token=not-the-token")
    page.wait_for_function("document.querySelector('#error').textContent.trim() !== ''")
    page.wait_for_timeout(2500)
    assert len(reads) == 1 and page.query_selector_all("[data-piece]") == []
    page.goto(f"{server}table/no-such-table?token=x")
    page.wait_for_function("document.querySelector('#error').textContent.trim() !== ''")
    assert "Failed" not in page.text_content("#error")
    page.close()


def test_a_click_on_a_piece_no_move_names_says_why_and_does_nothing(
    server: str, browser: object
) -> None:
    page = browser.new_page(viewport=DESKTOP)
    start_from_lobby(page, server, "kaleva")
    wait_for_a_move(page)
    shown, log = version(page), page.text_content("#log")
    idle = page.query_selector_all("#table [data-piece]:not(.playable)")
    idle[0].click()
    why = page.text_content("#why")
    assert why.startswith("Nothing to do with") or why == "It is not your turn"
    page.wait_for_timeout(300)
    assert version(page) == shown and page.text_content("#log") == log
    source = page.query_selector(".piece.playable")
    source.focus()
    page.keyboard.press("Enter")  # a disc: selected, its squares marked
    assert "selected" in source.get_attribute("class")
    targets = page.query_selector_all(".piece.target")
    assert targets
    page.keyboard.press("Enter")  # again: deselected
    assert page.query_selector_all(".piece.selected, .piece.target") == []
    page.close()


def test_a_stale_page_rereads_the_table_instead_of_sending_an_old_move(
    server: str, browser: object
) -> None:
    table = new_table(server, "gold_and_dust", ["human", "random"])
    link = table["links"]["0"]
    token = link.split("token=")[1]
    page = browser.new_page(viewport=DESKTOP)
    held: list[object] = []  # the page's waiting reads, never answered: it hears of nothing
    page.route(re.compile(r".*/api/tables/.*after=.*"), lambda route: held.append(route))
    answers: list[int] = []
    page.on("response", lambda response: answers.append(response.status))
    page.goto(server + link.lstrip("/"))
    wait_for_a_move(page)
    shown = version(page)
    view = api(server, f"/api/tables/{table['id']}?token={token}")["view"]
    action = view["moves"][0]["action"]
    api(server, f"/api/tables/{table['id']}/moves", {"token": token, "action": action})
    moved = api(server, f"/api/tables/{table['id']}?token={token}")["version"]
    assert moved > shown
    click_a_move(page, random.Random(2))
    page.wait_for_function(f"Number(document.body.dataset.version) >= {moved}")
    assert 409 in answers and page.text_content("#error") == ""
    page.close()


def test_a_spectator_sees_no_moves_and_cannot_play(server: str, browser: object) -> None:
    table = new_table(server, "hkk", ["random", "random"], pace=0.5)
    page = browser.new_page(viewport=DESKTOP)
    page.goto(f"{server}table/{table['id']}?seat=0")
    page.wait_for_selector("[data-piece]")
    assert page.get_attribute("body", "data-version") is not None
    assert not page.is_visible("#moves") and page.query_selector_all("#moves button") == []
    assert page.query_selector_all(".piece.playable, #actions button") == []
    page.click(".zone-bottom [data-piece]")
    assert page.text_content("#why") == "Spectators watch only"
    page.close()


def test_a_server_out_of_reach_shows_reconnecting_until_it_answers(
    server: str, browser: object
) -> None:
    table = new_table(server, "regicide", ["random", "random"], pace=0.3)
    page = browser.new_page(viewport=DESKTOP)
    page.goto(f"{server}table/{table['id']}?seat=0")
    page.wait_for_selector("[data-piece]")
    page.route(re.compile(r".*/api/tables/.*"), lambda route: route.abort())
    page.wait_for_selector("#error:has-text('reconnecting')", timeout=MOVE_TIMEOUT_MS)
    page.unroute(re.compile(r".*/api/tables/.*"))
    page.wait_for_function(
        "document.querySelector('#error').textContent === ''", timeout=MOVE_TIMEOUT_MS
    )
    page.close()


@pytest.mark.parametrize("game", envs.names())
def test_the_table_fits_a_phone(server: str, browser: object, game: str, tmp_path: Path) -> None:
    page = browser.new_page(viewport=PHONE)
    start_from_lobby(page, server, game)
    wait_for_a_move(page)
    rng = random.Random(3)
    for _ in range(3):
        if page.is_visible("#result"):
            break
        shown = version(page)
        click_a_move(page, rng)
        page.wait_for_function(f"Number(document.body.dataset.version) > {shown}")
        wait_for_a_move(page)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    card = page.query_selector(".zone-bottom .card")
    if card is not None:
        card.hover()
        assert page.is_visible("#card-detail")
    page.screenshot(path=str(tmp_path / f"phone-{game}.png"), full_page=True)
    page.close()


def test_a_game_without_its_own_drawing_is_played_on_the_generic_table(
    server: str, browser: object
) -> None:
    page = browser.new_page(viewport=DESKTOP)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    not_found = {"status": 404, "content_type": "text/html", "body": "<h1>Not found</h1>"}
    page.route("**/static/games/**", lambda route: route.fulfill(**not_found))
    start_from_lobby(page, server, "regicide")
    rng = random.Random(4)
    for _ in range(MAX_CLICKS):
        wait_for_a_move(page)
        if page.is_visible("#result"):
            break
        shown = version(page)
        click_a_move(page, rng)
        page.wait_for_function(
            f"Number(document.body.dataset.version) > {shown}", timeout=MOVE_TIMEOUT_MS
        )
    assert page.is_visible("#result") and errors == []
    assert page.query_selector_all(".zone-bottom [data-piece], .zone-middle [data-piece]")
    page.close()
