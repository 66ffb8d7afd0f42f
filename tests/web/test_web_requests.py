"""The request models of the web API: a body or query the models refuse is a 400 whose
``{"detail": message}`` (also under ``error``) names the field and what it must be, and
nothing changes."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient

from tabletop.web.app import create_app

TABLE = {"game": "kaleva", "seats": ["human", "random"], "seed": 3, "pace": 0}


def refusal(message: str) -> dict[str, str]:
    return {"detail": message, "error": message}


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(":memory:")) as test_client:
        yield test_client


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({**TABLE, "seed": True}, "seed must be an integer, got True"),
        ({**TABLE, "seed": "3"}, "seed must be an integer, got '3'"),
        ({**TABLE, "pace": None}, "pace must be a number, got None"),
        ({**TABLE, "omniscient": 1}, "omniscient must be true or false, got 1"),
        ({**TABLE, "options": []}, "options must be an object, got []"),
        ({**TABLE, "seats": ["human", " "]}, "seats must be a list of seat specs (human or an "
         "agent), got ['human', ' ']"),
        ({**TABLE, "colour": 1, "art": 2}, "unknown field(s): art, colour; known: game, seats, "
         "options, seed, pace, omniscient"),
        ({}, "missing field(s): game, seats"),
        (3, "the request body must be a JSON object, got 3"),
    ],
)  # fmt: skip
def test_a_mistyped_field_is_named_with_what_it_must_be(
    client: TestClient, body: Any, message: str
) -> None:
    response = client.post("/api/tables", json=body)
    assert (response.status_code, response.json()) == (400, refusal(message))
    assert client.app.state.tables.store.all() == []


def test_seat_specs_are_read_without_surrounding_blanks(client: TestClient) -> None:
    response = client.post("/api/tables", json={**TABLE, "seats": [" human ", "random "]})
    assert response.status_code == 201
    assert response.json()["seats"] == ["player 0 (Silver, human)", "player 1 (Bronze, random)"]


def test_a_body_not_sent_as_json_is_refused(client: TestClient) -> None:
    """A JSON body must say so (``Content-Type: application/json``): a page of another site
    can post text without the browser asking this server first."""
    text = json.dumps(TABLE).encode()
    for headers in ({"content-type": "text/plain"}, {}):
        response = client.post("/api/tables", content=text, headers=headers)
        assert response.status_code == 400
        assert "application/json" in response.json()["error"]
    response = client.post("/api/tables", content=b"", headers={"content-type": "application/json"})
    assert response.json() == refusal("the request body is not JSON: it is empty")
    assert client.app.state.tables.store.all() == []


def test_query_parameters_and_unknown_paths_answer_in_the_same_shape(client: TestClient) -> None:
    response = client.get("/api/replays/x", params={"ply": "last"})
    assert response.status_code == 400
    assert response.json()["error"].startswith("ply: Input should be a valid integer")
    assert client.get("/api/nothing").json() == refusal("no such API path: GET /api/nothing")
    assert client.delete("/api/tables").status_code == 405
