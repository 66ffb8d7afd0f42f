"""The web table's API through FastAPI's test client: every refusal is a 4xx that changes
nothing, a seat's link reads and moves for that seat only, a seat's view over HTTP leaks
nothing (unchanged by ``resample_hidden``), a restarted server takes up a game where it
stood, and finished games and ``tabletop eval`` records replay move by move."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient

from tabletop import envs
from tabletop.agents import RandomAgent
from tabletop.cli.main import main
from tabletop.matches.records import append_records, play_record
from tabletop.web.app import create_app
from tabletop.web.store import TableStore

WAIT_SECONDS = 60.0


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(":memory:")) as test_client:
        yield test_client


def new_table(client: TestClient, **settings: Any) -> dict[str, Any]:
    body = {"game": "kaleva", "seats": ["human", "random"], "seed": 3, "pace": 0, **settings}
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    return response.json()


def token_of(table: dict[str, Any], seat: int) -> str:
    return table["links"][str(seat)].split("token=")[1]


def shown(client: TestClient, table: dict[str, Any], seat: int) -> dict[str, Any]:
    response = client.get(f"/api/tables/{table['id']}", params={"token": token_of(table, seat)})
    assert response.status_code == 200, response.text
    return response.json()


def wait_for_turn(client: TestClient, table: dict[str, Any], seat: int) -> dict[str, Any]:
    """What ``seat`` is shown once it is to move or the game is over (agents move in the
    background)."""
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        data = shown(client, table, seat)
        if data["result"] is not None or data["view"]["to_move"] == seat:
            return data
        time.sleep(0.01)
    raise AssertionError(f"seat {seat} never got a turn: {data['view']['status']}")


def plies(client: TestClient, table: dict[str, Any]) -> int:
    """The moves played at ``table``, as the server holds them (no seat is told this)."""
    return len(client.app.state.tables.get(table["id"]).stored.actions)


def move(client: TestClient, table: dict[str, Any], seat: int, action: Any) -> Any:
    return client.post(
        f"/api/tables/{table['id']}/moves", json={"token": token_of(table, seat), "action": action}
    )


def play_out(client: TestClient, table: dict[str, Any], seat: int) -> dict[str, Any]:
    """Play ``seat``'s first listed move whenever it is to move, until the game ends; what
    ``seat`` is shown at the end, with ``moves_made`` added."""
    made = 0
    while True:
        data = wait_for_turn(client, table, seat)
        if data["result"] is not None:
            return {**data, "moves_made": made}
        response = move(client, table, seat, data["view"]["moves"][0]["action"])
        assert response.status_code == 200, response.text
        made += 1


# ----- the lobby's data and bad settings ------------------------------------------------


def test_pages_are_served_and_the_lobby_lists_every_game_with_its_options(
    client: TestClient,
) -> None:
    for page in ("/", "/table/x", "/replays", "/replay/x", "/static/view.js"):
        assert client.get(page).status_code == 200, page
    games = client.get("/api/games").json()
    assert [game["name"] for game in games] == envs.names()
    hkk = next(game for game in games if game["name"] == "hkk")
    assert "decks" in [option["name"] for option in hkk["options"]]
    assert {"human", "random", "heuristic", "ismcts"} <= set(hkk["agents"])


def test_an_option_with_a_fixed_set_of_values_is_a_choice_of_them_in_the_lobby(
    client: TestClient,
) -> None:
    """Kult's game type is a choice of the values the game accepts, not free text; the player
    count is a choice of the player range."""
    kult = next(game for game in client.get("/api/games").json() if game["name"] == "kult")
    entries = {option["name"]: option for option in kult["options"]}
    assert entries["game_type"] == {
        "name": "game_type",
        "default": "continent",
        "help": envs.spec("kult").options["game_type"],
        "kind": "choice",
        "choices": ["continent", "world"],
    }
    assert entries["num_players"]["kind"] == "choice"
    assert entries["num_players"]["choices"] == [2, 3, 4]
    assert entries["ply_limit"]["kind"] == "int" and "choices" not in entries["ply_limit"]


@pytest.mark.parametrize(
    ("body", "status", "message"),
    [
        ({"game": "chess", "seats": ["human", "random"]}, 404, "unknown game 'chess'"),
        ({"game": "kaleva", "seats": ["human"]}, 400, "has 2 seats, got 1"),
        ({"game": "kaleva", "seats": ["human", "wizard"]}, 400, "wizard"),
        ({"game": "kaleva", "options": {"colour": "red"}, "seats": ["human", "random"]}, 400,
         "colour"),
        ({"game": "hkk", "options": {"decks": "skyfire,nope"}, "seats": ["human", "random"]}, 400,
         "nope"),
        ({"game": "kult", "options": {"game_type": "galaxy"}, "seats": ["human", "random"]}, 400,
         "game_type must be one of ['continent', 'world'], got 'galaxy'"),
        ({"game": "kaleva", "seats": ["human", "random"], "pace": 60}, 400, "pace must be"),
        ({"game": "kaleva", "seats": ["human", "random"], "omniscient": True}, 400,
         "without human seats"),
        ({"game": "kaleva", "seats": ["human", "random"], "colour": 1}, 400, "unknown field"),
        ({"seats": ["human", "random"]}, 400, "missing field(s): game"),
        ({"game": "kaleva", "seats": "human"}, 400, "seats must be a list"),
        (["kaleva"], 400, "must be a JSON object"),
    ],
)  # fmt: skip
def test_bad_table_settings_are_refused_with_the_reason_and_make_no_table(
    client: TestClient, body: Any, status: int, message: str
) -> None:
    response = client.post("/api/tables", json=body)
    assert response.status_code == status
    assert message in response.json()["error"]
    assert client.app.state.tables.store.all() == []


def test_malformed_json_and_missing_tables_are_4xx(client: TestClient) -> None:
    headers = {"content-type": "application/json"}
    response = client.post("/api/tables", content=b"{not json", headers=headers)
    assert response.status_code == 400
    assert "not JSON" in response.json()["error"]
    assert client.get("/api/tables/nope").status_code == 404
    assert client.get("/api/replays/nope").status_code == 404


# ----- seats, tokens and moves ------------------------------------------------------------


def test_a_seat_link_reads_only_its_seat_and_moves_only_on_its_turn(client: TestClient) -> None:
    table = new_table(client, seats=["human", "human"])
    first = shown(client, table, 0)
    to_move = first["view"]["to_move"]
    waiting = 1 - to_move
    assert first["you"] == 0 and first["view"]["observer"] == 0
    assert shown(client, table, 1)["view"]["observer"] == 1
    assert shown(client, table, waiting)["view"]["moves"] == []
    action = shown(client, table, to_move)["view"]["moves"][0]["action"]
    refused = move(client, table, waiting, action)
    assert refused.status_code == 409 and "not seat" in refused.json()["error"]
    forged_body = {"token": "guess", "action": action}
    forged = client.post(f"/api/tables/{table['id']}/moves", json=forged_body)
    assert forged.status_code == 403
    assert client.get(f"/api/tables/{table['id']}").status_code == 403  # no spectators
    assert client.get(f"/api/tables/{table['id']}", params={"seat": 0}).status_code == 403
    assert plies(client, table) == 0  # nothing changed
    assert move(client, table, to_move, action).status_code == 200
    assert plies(client, table) == 1


def test_a_seat_is_not_told_of_moves_it_may_not_know_of(client: TestClient) -> None:
    """A move whose events tell a seat nothing (an HKK player passing priority, say) leaves
    what that seat is sent as it was, its version too, unless the turn came to the seat:
    the count of all moves is never sent, since how often another seat decided can be
    news."""
    table = new_table(client, game="hkk", seats=["human", "human"], seed=4)
    live = client.app.state.tables.get(table["id"])
    rng = random.Random(0)
    silent = 0
    while not live.over and silent < 20:
        before = shown(client, table, 0)
        mover = live.state.current_player
        live.play(rng.choice(live.state.legal_actions()))
        after = shown(client, table, 0)
        told = (
            mover == 0 or live.state.last_events(0) or live.state.current_player == 0 or live.over
        )
        if not told:
            silent += 1
            assert (after["version"], after["log"]) == (before["version"], before["log"])
        else:
            assert after["version"] > before["version"]
    assert silent == 20


def test_illegal_and_malformed_moves_are_refused_and_change_nothing(client: TestClient) -> None:
    table = new_table(client, seats=["human", "human"])
    seat = shown(client, table, 0)["view"]["to_move"]
    legal = [m["action"] for m in shown(client, table, seat)["view"]["moves"]]
    illegal = next(a for a in range(10_000) if a not in legal)
    assert move(client, table, seat, illegal).status_code == 409
    assert move(client, table, seat, "1").status_code == 400
    assert move(client, table, seat, True).status_code == 400
    missing = client.post(f"/api/tables/{table['id']}/moves", json={"action": legal[0]})
    assert missing.status_code == 400 and "token" in missing.json()["error"]
    assert plies(client, table) == 0


@pytest.mark.parametrize("name", envs.names())
def test_a_human_plays_every_game_to_its_end_against_the_random_agent(
    client: TestClient, name: str
) -> None:
    seats = ["human"] + ["random"] * (envs.spec(name).default_players - 1)
    table = new_table(client, game=name, seats=seats, seed=11)
    end = play_out(client, table, 0)
    assert end["result"]["returns"] == client.app.state.tables.get(table["id"]).state.returns()
    # The log lists every own move; another's only when it told this seat something.
    assert [entry["mover"] for entry in end["log"]].count(0) == end["moves_made"]
    assert len(end["log"]) <= plies(client, table)
    assert end["version"] == 2 * len(end["log"]) + 1  # the end is news, whoever moved last
    assert end["view"]["to_move"] is None and end["view"]["moves"] == []


@pytest.mark.parametrize("name", envs.names())
def test_a_seat_s_view_over_http_is_unchanged_when_its_hidden_cards_are_redrawn(
    client: TestClient, name: str
) -> None:
    """The leak check of ``view`` over HTTP: at each of the human's turns, what the page
    receives equals the view of every ``resample_hidden`` of the server's position."""
    seats = ["human"] + ["heuristic"] * (envs.spec(name).default_players - 1)
    table = new_table(client, game=name, seats=seats, seed=5)
    rng = random.Random(0)
    for _ in range(8):
        data = wait_for_turn(client, table, 0)
        if data["result"] is not None:
            break
        state = client.app.state.tables.get(table["id"]).state
        for _ in range(3):
            redrawn = state.resample_hidden(0, rng)
            assert json.loads(json.dumps(redrawn.view(0))) == data["view"]
        action = rng.choice(data["view"]["moves"])["action"]
        assert move(client, table, 0, action).status_code == 200


def test_an_agents_only_table_is_watched_whole_when_it_says_so(client: TestClient) -> None:
    table = new_table(client, seats=["random", "random"], omniscient=True)
    assert table["links"] == {} and table["spectate"] == f"/table/{table['id']}"
    watched = client.get(f"/api/tables/{table['id']}").json()
    assert watched["view"]["observer"] is None and watched["you"] is None
    one_seat = client.get(f"/api/tables/{table['id']}", params={"seat": 1}).json()
    assert one_seat["view"]["observer"] == 1
    paced = client.post(f"/api/tables/{table['id']}/pace", json={"pace": 0.2})
    assert paced.json() == {"pace": 0.2}


# ----- restarts and replays ------------------------------------------------------------------


def test_a_restarted_server_takes_up_a_game_where_it_stood(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    with TestClient(create_app(db)) as client:
        table = new_table(client, game="regicide", options={"num_players": 2},
                          seats=["human", "heuristic"], seed=8)  # fmt: skip
        for _ in range(3):
            data = wait_for_turn(client, table, 0)
            assert move(client, table, 0, data["view"]["moves"][-1]["action"]).status_code == 200
        before = wait_for_turn(client, table, 0)
    with TestClient(create_app(db)) as client:
        after = shown(client, table, 0)
        assert (after["version"], after["view"], after["log"]) == (
            before["version"],
            before["view"],
            before["log"],
        )
        assert play_out(client, table, 0)["result"] is not None


def test_a_finished_game_replays_forward_and_back(client: TestClient) -> None:
    table = new_table(client, seats=["human", "random"])
    assert client.get(f"/api/replays/{table['id']}").status_code == 404  # still being played
    end = play_out(client, table, 0)
    played = plies(client, table)
    (listed,) = client.get("/api/replays").json()
    assert listed["id"] == table["id"] and listed["plies"] == played
    first = client.get(f"/api/replays/{table['id']}", params={"ply": 0}).json()
    last = client.get(f"/api/replays/{table['id']}").json()
    assert first["ply"] == 0 and first["log"] == [] and first["result"] is None
    assert last["ply"] == played == len(last["log"]) and last["result"] == end["result"]
    assert last["view"]["observer"] is None
    middle = client.get(f"/api/replays/{table['id']}", params={"ply": 5}).json()
    assert len(middle["log"]) == 5
    beyond = client.get(f"/api/replays/{table['id']}", params={"ply": played + 1})
    assert beyond.status_code == 400


def test_an_eval_record_is_imported_and_replayed_and_a_forged_one_refused(
    client: TestClient,
) -> None:
    game = envs.make_game("kaleva")
    record = play_record(game, {}, 4, ("random", "random"), [RandomAgent(1), RandomAgent(2)])
    response = client.post("/api/replays", json=record.to_json())
    assert response.status_code == 201
    frame = client.get(f"/api/replays/{response.json()['id']}").json()
    assert frame["plies"] == len(record.actions)
    assert frame["result"]["returns"] == list(record.returns)
    forged = {**record.to_json(), "returns": [r + 1 for r in record.returns]}
    assert client.post("/api/replays", json=forged).status_code == 400
    assert client.post("/api/replays", json={"format": "other"}).status_code == 400


def test_a_records_file_is_imported_at_start_once_however_often_the_server_starts(
    tmp_path: Path,
) -> None:
    game = envs.make_game("kaleva")
    records = [
        play_record(game, {}, seed, ("random", "random"), [RandomAgent(seed), RandomAgent(9)])
        for seed in (1, 2)
    ]
    path = tmp_path / "games.jsonl"
    append_records(path, records)
    db = tmp_path / "games.sqlite"
    for _ in range(2):
        with TestClient(create_app(db, [path])) as client:
            listed = client.get("/api/replays").json()
    assert sorted(entry["plies"] for entry in listed) == sorted(len(r.actions) for r in records)


def test_serve_refuses_a_file_that_is_not_records(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "notes.jsonl"
    path.write_text('{"hello": 1}\n')
    assert main(["serve", "--db", str(tmp_path / "db.sqlite"), "--records", str(path)]) == 2
    assert "notes.jsonl" in capsys.readouterr().err


def test_a_stored_game_that_cannot_be_rebuilt_is_kept_and_explained(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    with TestClient(create_app(db)) as client:
        table = new_table(client, seats=["human", "random"])
        token = token_of(table, 0)
    store = TableStore(db)
    stored = store.load(table["id"])
    stored.seats[1] = str(tmp_path / "gone.pt")  # a policy file deleted since
    store.save(stored)
    store.close()
    with TestClient(create_app(db)) as client:
        response = client.get(f"/api/tables/{table['id']}", params={"token": token})
        assert response.status_code == 409
        assert "cannot be resumed" in response.json()["error"]
        assert "gone.pt" in response.json()["error"]
    assert TableStore(db).load(table["id"]).seats[1].endswith("gone.pt")  # nothing lost


def test_a_slow_search_holds_up_only_its_own_table(client: TestClient) -> None:
    """Agents think in processes: while one table's ISMCTS thinks about its first move
    (for longer than the test lasts, so the test does not race the machine's speed),
    another table plays ten moves; stopping the server drops the search."""
    slow = new_table(client, seats=["ismcts:seconds=120"] * 2, omniscient=True)
    table = new_table(client, seats=["human", "random"])
    for _ in range(10):
        data = wait_for_turn(client, table, 0)
        assert move(client, table, 0, data["view"]["moves"][0]["action"]).status_code == 200
    assert client.get(f"/api/tables/{slow['id']}").json()["version"] == 0
