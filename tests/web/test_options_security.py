"""No path a client sends reaches the server's file system: a browser chooses card data only
among the packaged pools and decks, by name (issue 31). Each probe is refused with a 4xx
naming the option, and the file-system calls made while answering it are recorded to show
that the probed path was never looked at."""

from __future__ import annotations

import builtins
import io
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient

from tabletop import envs
from tabletop.agents import RandomAgent, shipped
from tabletop.cli.options import CommandError
from tabletop.cli.serve import offered_policies
from tabletop.envs.gold_and_dust.cards import data_path
from tabletop.envs.hkk.cards import load_pool
from tabletop.matches.records import append_records, play_record
from tabletop.web.app import create_app
from tabletop.web.replays import import_records
from tabletop.web.store import TableStore

CARD_GAMES = ("gold_and_dust", "kult", "hkk")
PROBES = {
    "absolute": "/etc/hostname",
    "relative": "../../../../etc/passwd",
    "device": "/dev/zero",
    "directory": "/etc",
}
"""Paths a hostile client might name, by kind."""


class FileSystemCalls:
    """Records every path that ``open``, ``os.open``, ``os.stat`` and friends are given
    while installed (``pathlib`` reads and looks through them too)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.paths: list[str] = []
        for module, name in ((io, "open"), (builtins, "open"), (os, "open"), (os, "stat"),
                             (os, "lstat"), (os, "scandir"), (os, "listdir")):  # fmt: skip
            monkeypatch.setattr(module, name, self._recording(getattr(module, name)))

    def _recording(self, function: Any) -> Any:
        def recorded(path: Any = ".", *args: Any, **kwargs: Any) -> Any:
            if isinstance(path, str | os.PathLike):
                self.paths.append(os.path.normpath(os.path.abspath(os.fspath(path))))
            return function(path, *args, **kwargs)

        return recorded

    def touched(self, probe: str) -> bool:
        """Whether the path ``probe`` (or anything in it) was looked at."""
        wanted = os.path.normpath(os.path.abspath(probe))
        return any(path == wanted or path.startswith(wanted + os.sep) for path in self.paths)


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(":memory:")) as test_client:
        yield test_client


def refused(client: TestClient, game: str, option: str, value: Any) -> str:
    """Ask for a table of ``game`` with ``option`` set to ``value``; the refusal's message,
    after checking it is a 4xx naming the option that made no table."""
    seats = ["random"] * envs.spec(game).default_players
    response = client.post(
        "/api/tables", json={"game": game, "options": {option: value}, "seats": seats}
    )
    assert 400 <= response.status_code < 500, response.text
    message = response.json()["error"]
    assert f"option {option}" in message
    assert client.app.state.tables.store.all() == []
    return message


def test_the_recorder_sees_a_path_the_loader_reads(monkeypatch: pytest.MonkeyPatch) -> None:
    """The proof below means something: a loader given a probe does look at it."""
    calls = FileSystemCalls(monkeypatch)
    with pytest.raises(ValueError, match="is a directory"):
        load_pool(PROBES["directory"])
    assert calls.touched(PROBES["directory"])


@pytest.mark.parametrize("game", CARD_GAMES)
@pytest.mark.parametrize("kind", PROBES)
def test_a_pool_path_from_a_client_is_refused_and_not_read(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, game: str, kind: str
) -> None:
    calls = FileSystemCalls(monkeypatch)
    message = refused(client, game, "pool", PROBES[kind])
    assert "packaged pool" in message
    assert not calls.touched(PROBES[kind])


@pytest.mark.parametrize("game", CARD_GAMES)
@pytest.mark.parametrize("kind", PROBES)
@pytest.mark.parametrize("form", ["list", "text"])
def test_a_deck_path_from_a_client_is_refused_and_not_read(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, game: str, kind: str, form: str
) -> None:
    """Beside a packaged deck, as a JSON list or as the command line's ``a,b`` text."""
    spec = envs.spec(game)
    decks = [spec.decks[0], PROBES[kind], *spec.decks[1 : spec.default_players - 1]]
    value = decks if form == "list" else ",".join(decks)
    calls = FileSystemCalls(monkeypatch)
    message = refused(client, game, "decks", value)
    assert f"packaged decks, by name: {', '.join(spec.decks)}" in message
    assert not calls.touched(PROBES[kind])


@pytest.mark.parametrize("game", CARD_GAMES)
@pytest.mark.parametrize("option", ["pool", "decks"])
@pytest.mark.parametrize("value", [1, [1, 2], {"a": "b"}, True, "pool.toml"])
def test_other_card_option_values_from_a_client_are_refused(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, game: str, option: str, value: Any
) -> None:
    calls = FileSystemCalls(monkeypatch)
    refused(client, game, option, value)
    assert not calls.touched("pool.toml")


@pytest.mark.parametrize("game", CARD_GAMES)
def test_packaged_decks_by_name_make_a_table(client: TestClient, game: str) -> None:
    spec = envs.spec(game)
    decks = list(reversed(spec.decks[: spec.default_players]))
    seats = ["random"] * spec.default_players
    body = {"game": game, "options": {"decks": decks, "pool": None}, "seats": seats}
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    table = client.app.state.tables.get(response.json()["id"])
    assert [deck.name for deck in table.game.decks] == [
        envs.make_game(game, decks=(name,) * spec.default_players).decks[0].name for name in decks
    ]


def test_the_lobby_is_not_offered_a_pool_option(client: TestClient) -> None:
    for game in client.get("/api/games").json():
        assert "pool" not in [option["name"] for option in game["options"]], game["name"]


@pytest.mark.parametrize("option", ["pool", "decks"])
def test_a_game_record_naming_a_file_is_refused_and_the_file_not_read(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, option: str
) -> None:
    """A record posted to ``/api/replays`` would be replayed with its options: the same
    rule holds for it."""
    kaleva = envs.make_game("kaleva")
    record = play_record(kaleva, {}, 4, ("random", "random"), [RandomAgent(1), RandomAgent(2)])
    probe = PROBES["absolute"]
    value = probe if option == "pool" else [probe, probe]
    document = {**record.to_json(), "game": "hkk", "options": {option: value}}
    calls = FileSystemCalls(monkeypatch)
    response = client.post("/api/replays", json=document)
    assert response.status_code == 400
    assert f"option {option}" in response.json()["error"]
    assert not calls.touched(probe)
    assert client.app.state.tables.store.all() == []


def test_a_stored_table_naming_a_file_is_not_resumed_and_the_file_not_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A table stored before card options were checked is kept, explained, and not built."""
    db = tmp_path / "games.sqlite"
    with TestClient(create_app(db)) as client:
        table = client.post("/api/tables", json={"game": "hkk", "seats": ["human", "random"]})
        table_id, link = table.json()["id"], table.json()["links"]["0"]
    store = TableStore(db)
    stored = store.load(table_id)
    stored.options = {"pool": PROBES["absolute"]}
    store.save(stored)
    store.close()
    calls = FileSystemCalls(monkeypatch)
    with TestClient(create_app(db)) as client:
        response = client.get(link.replace("/table/", "/api/tables/"))
    assert response.status_code == 409
    assert "option pool" in response.json()["error"]
    assert not calls.touched(PROBES["absolute"])


SEAT_FORMS = {
    "bare": "{}",
    "policy:": "policy:{}",
    "guided": "guided:policy={},iterations=8",
    "guided, policy later": "guided:iterations=8,policy={}",
    "guided, after a good one": "guided:policy=pretrained,policy={}",
}
"""How a seat may name a policy; the probe goes where the policy's name would."""


@pytest.mark.parametrize("kind", PROBES)
@pytest.mark.parametrize("form", SEAT_FORMS)
def test_a_seat_naming_a_path_is_refused_and_not_read(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, kind: str, form: str
) -> None:
    """A seat is an agent kind or a policy the operator offers by name, never a file: a
    guided search's policy included."""
    seat = SEAT_FORMS[form].format(PROBES[kind])
    calls = FileSystemCalls(monkeypatch)
    response = client.post("/api/tables", json={"game": "kaleva", "seats": ["human", seat]})
    assert response.status_code == 400
    message = response.json()["error"]
    assert f"seat {seat!r}" in message and "tabletop serve --policy NAME=PATH" in message
    assert not calls.touched(PROBES[kind])
    assert client.app.state.tables.store.all() == []


def test_a_policy_the_operator_offers_is_seated_by_name(tmp_path: Path) -> None:
    torch = pytest.importorskip("torch")
    from tabletop.agents.policy import NetworkSpec, env_metadata, new_policy, save_policy

    env = envs.make("kaleva")
    metadata = env_metadata(env, training_steps=1, seed=0, game_options={})
    torch.manual_seed(0)
    network = NetworkSpec(net_arch=[8], activation="Tanh")
    path = save_policy(tmp_path / "p.pt", new_policy(metadata, network), metadata, network)
    with TestClient(create_app(":memory:", policies={"mine": path})) as client:
        kaleva = next(g for g in client.get("/api/games").json() if g["name"] == "kaleva")
        assert "policy:mine" in kaleva["agents"] and "policy" not in kaleva["agents"]
        body = {"game": "kaleva", "seats": ["policy:mine", "human"], "pace": 0}
        response = client.post("/api/tables", json=body)
        assert response.status_code == 201, response.text
        table = client.app.state.tables.get(response.json()["id"])
        assert table.agent_specs == [f"policy:{path}", None]  # the path, for the agents
        assert table.stored.seats == ["policy:mine", "human"]  # the name, not the path
        token = response.json()["links"]["1"].split("token=")[1]
        seen = client.get(f"/api/tables/{table.stored.id}", params={"token": token, "after": 0})
        assert seen.json()["log"][0]["mover"] == 0  # the policy moved, in its process
        body["seats"] = ["human", "policy:other"]
        assert "policy:mine" in client.post("/api/tables", json=body).json()["error"]
        body["seats"] = ["guided:iterations=4,policy=mine", "human"]
        response = client.post("/api/tables", json=body)
        assert response.status_code == 201, response.text
        table = client.app.state.tables.get(response.json()["id"])
        assert table.agent_specs == [f"guided:iterations=4,policy={path}", None]
        assert table.stored.seats == body["seats"]


def test_the_shipped_policy_is_seated_by_name_alone(
    client: TestClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("torch")
    for seat in ("pretrained", "guided:policy=pretrained,iterations=4"):
        body = {"game": "kult", "seats": [seat, "human"], "pace": 0}
        response = client.post("/api/tables", json=body)
        assert response.status_code == 201, response.text
        table = client.app.state.tables.get(response.json()["id"])
        assert table.agent_specs == [seat, None]
    monkeypatch.setattr(shipped, "PRETRAINED_DIR", tmp_path / "none shipped")
    body = {"game": "kult", "seats": ["pretrained", "human"]}
    error = client.post("/api/tables", json=body).json()["error"]
    assert "kult ships no pretrained policy" in error


@pytest.mark.parametrize(
    ("item", "problem"),
    [("mine", "takes NAME=PATH"), ("=x.pt", "takes NAME=PATH"), ("a:b=x.pt", "takes NAME=PATH"),
     ("mine=/no/such.pt", "no policy file or run directory")],
)  # fmt: skip
def test_serve_s_policy_flag_is_checked(item: str, problem: str) -> None:
    with pytest.raises(CommandError, match=problem):
        offered_policies([item])


def test_the_operator_s_own_records_file_may_still_name_deck_files(tmp_path: Path) -> None:
    """Records the server is started with (``tabletop serve --records``) come from its
    operator, not a client: their card options may name files."""
    deck = tmp_path / "mine.toml"
    deck.write_text(data_path("decks", "mage.toml").read_text(encoding="utf-8"))
    options = {"decks": (str(deck), "warrior"), "max_turns": 3}
    game = envs.make_game("gold_and_dust", **options)
    record = play_record(game, options, 1, ("random", "random"), [RandomAgent(1), RandomAgent(2)])
    append_records(tmp_path / "games.jsonl", [record])
    store = TableStore(":memory:")
    assert len(import_records(store, tmp_path / "games.jsonl")) == 1
    store.close()
