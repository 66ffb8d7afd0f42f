"""What the server sends for issue 34's table: the game's display name and help, results in
words, a stale page's move refused (409) with nothing changed, and every refusal a 4xx with
a message a page can show, an unknown page an HTML page that leads back to the lobby."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient

from tabletop import envs
from tabletop.web.app import create_app
from tabletop.web.store import TableStore
from tabletop.web.tables import STALE_PAGE

TABLE = {"game": "kaleva", "seats": ["human", "human"], "seed": 3, "pace": 0}


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(":memory:")) as test_client:
        yield test_client


def new_table(client: TestClient, **settings: Any) -> tuple[str, list[str]]:
    """A table's id and its seats' tokens."""
    response = client.post("/api/tables", json={**TABLE, **settings})
    assert response.status_code == 201, response.text
    table = response.json()
    return table["id"], [link.split("token=")[1] for link in table["links"].values()]


def test_the_games_list_gives_each_game_s_display_name_and_its_terminal_help(
    client: TestClient,
) -> None:
    for entry in client.get("/api/games").json():
        assert entry["title"] == envs.spec(entry["name"]).title
        assert entry["help"] == envs.make_game(entry["name"]).help_text()


def test_a_table_is_sent_with_its_display_name_and_its_result_in_words(
    client: TestClient,
) -> None:
    table_id, tokens = new_table(client, game="gold_and_dust")
    shown = client.get(f"/api/tables/{table_id}", params={"token": tokens[0]}).json()
    assert shown["title"] == "Gold & Dust" and shown["game"] == "gold_and_dust"
    assert set(shown) == {"table", "game", "title", "seats", "you", "version", "pace", "view",
                          "log", "result"}  # fmt: skip
    live = client.app.state.tables.get(table_id)
    while not live.over:
        live.play(live.state.legal_actions()[0])
    ended = client.get(f"/api/tables/{table_id}", params={"token": tokens[0]}).json()
    assert ended["result"]["outcome"] == ended["view"]["outcome"]
    assert "_" not in ended["result"]["outcome"]


def test_a_move_from_a_page_drawn_before_the_last_move_is_refused_and_changes_nothing(
    client: TestClient,
) -> None:
    table_id, tokens = new_table(client)
    path = f"/api/tables/{table_id}"
    first = client.get(path, params={"token": tokens[0]}).json()
    mover = first["view"]["to_move"]
    page = client.get(path, params={"token": tokens[mover]}).json()
    action = page["view"]["moves"][0]["action"]
    played = client.post(f"{path}/moves", json={"token": tokens[mover], "action": action,
                                                 "version": page["version"]})  # fmt: skip
    assert played.status_code == 200
    other = client.get(path, params={"token": tokens[0]}).json()["view"]["to_move"]
    seen = client.get(path, params={"token": tokens[other]}).json()
    reply = seen["view"]["moves"][0]["action"]
    stale = client.post(f"{path}/moves", json={"token": tokens[other], "action": reply,
                                               "version": seen["version"] - 1})  # fmt: skip
    assert (stale.status_code, stale.json()["detail"]) == (409, STALE_PAGE)
    assert len(client.app.state.tables.get(table_id).stored.actions) == 1
    assert client.get(path, params={"token": tokens[other]}).json() == seen
    current = client.post(f"{path}/moves", json={"token": tokens[other], "action": reply,
                                                 "version": seen["version"]})  # fmt: skip
    assert current.status_code == 200
    assert len(client.app.state.tables.get(table_id).stored.actions) == 2


def test_a_version_that_is_no_integer_is_refused_with_its_name(client: TestClient) -> None:
    table_id, tokens = new_table(client)
    body = {"token": tokens[0], "action": 0, "version": "3"}
    refused = client.post(f"/api/tables/{table_id}/moves", json=body)
    assert refused.status_code == 400 and "version must be an integer" in refused.json()["detail"]


def test_a_bad_token_or_an_unknown_table_is_a_4xx_that_says_what_was_wrong(
    client: TestClient,
) -> None:
    table_id, _ = new_table(client)
    bad_token = client.get(f"/api/tables/{table_id}", params={"token": "guess"})
    assert bad_token.status_code == 403
    assert f"token opens no seat of table {table_id}" in bad_token.json()["detail"]
    unknown = client.get("/api/tables/nope", params={"token": "guess"})
    assert unknown.status_code == 404 and "no table 'nope'" in unknown.json()["detail"]
    moved = client.post("/api/tables/nope/moves", json={"token": "guess", "action": 0})
    assert moved.status_code == 404 and "no table 'nope'" in moved.json()["detail"]
    assert client.get("/api/replays/nope").json()["detail"] == "no game 'nope'"


@pytest.mark.parametrize("path", ["/nope", "/tables/x/y", "/table/x/extra", "/static/none.js"])
def test_an_unknown_page_is_an_html_page_with_a_link_to_the_lobby(
    client: TestClient, path: str
) -> None:
    response = client.get(path)
    assert response.status_code == 404
    assert response.headers["content-type"].startswith("text/html")
    assert '<a href="/"' in response.text and "No such page" in response.text


def test_an_unknown_api_path_stays_json_with_a_message(client: TestClient) -> None:
    response = client.get("/api/nope/x")
    assert response.status_code == 404
    assert response.json()["detail"] == "no such API path: GET /api/nope/x"
    wrong_method = client.delete("/api/tables")
    assert wrong_method.status_code == 405 and wrong_method.json()["detail"]


def test_the_favicon_is_served(client: TestClient) -> None:
    response = client.get("/favicon.ico")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("image/svg+xml")
    assert response.text.lstrip().startswith("<svg")


def test_the_replay_list_says_each_result_in_words_under_the_game_s_display_name(
    tmp_path: Any,
) -> None:
    """Also for a game stored before results were kept in words: it is replayed once."""
    db = tmp_path / "games.sqlite"
    with TestClient(create_app(db)) as client:
        table_id, _ = new_table(client, game="gold_and_dust")
        live = client.app.state.tables.get(table_id)
        while not live.over:
            live.play(live.state.legal_actions()[0])
        client.app.state.tables.save(live)
        (entry,) = client.get("/api/replays").json()
        frame = client.get(f"/api/replays/{table_id}").json()
    assert entry["title"] == frame["title"] == "Gold & Dust"
    assert entry["outcome"] == frame["view"]["outcome"] == frame["result"]["outcome"]
    store = TableStore(db)
    stored = store.load(table_id)
    stored.outcome = None
    store.save(stored)
    store.close()
    with TestClient(create_app(db)) as client:
        assert client.get("/api/replays").json() == [entry]
    assert TableStore(db).load(table_id).outcome == entry["outcome"]
