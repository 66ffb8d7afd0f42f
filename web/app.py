"""The web table's HTTP side: pages, the JSON API, and the agents' moves off the event loop.

Pages are static files (``web/static``) whose scripts ask the API; the API answers JSON and
every refusal is a 4xx with ``{"error": message}`` and nothing changed. Views are plain
JSON data already, so they are sent as ``JSONResponse`` (FastAPI's generic encoding of a
returned dict took ten times as long as building the view). Agents move in a
thread pool, one move at a time per table at the table's pace, so a slow search holds up
only its own table; a table is stored after every move (``store``), and on start the app
takes up the live tables where they stood.

    GET  /                          lobby          GET  /api/games
    POST /api/tables                a new table (JSON: game, options, seats, seed, pace, omniscient)
                                    (card games: packaged decks by name, the packaged pool)
    GET  /table/{id}?token=...      table page     GET  /api/tables/{id}?token=..|seat=N[&after=V]
    POST /api/tables/{id}/moves     JSON: token, action
    POST /api/tables/{id}/pace      JSON: token (a seat's, or none for an agents-only table), pace
    GET  /replays                   finished games GET  /api/replays
    GET  /replay/{id}               replay page    GET  /api/replays/{id}?ply=N
    POST /api/replays               a game record (a line of ``tabletop eval --out``'s games.jsonl)
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager, suppress
from functools import partial
from importlib.resources import files
from pathlib import Path
from types import MappingProxyType
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles

from tabletop import envs
from tabletop.envs.core.cards.data import POOL_OPTION
from tabletop.envs.core.options import parse_option_value
from tabletop.web.replays import Replays, import_record, import_records
from tabletop.web.store import TableStore
from tabletop.web.tables import (
    HUMAN,
    POLICY,
    LiveTable,
    TableError,
    Tables,
    Viewer,
    web_agent_kinds,
)

STATIC = files("tabletop.web") / "static"
AGENT_WORKERS = 2
"""Threads computing agents' moves (the machine's cores; more would only queue)."""
LONG_POLL_SECONDS = 20.0
"""The longest a reader asking for what comes after its version (``?after=V``) waits."""


def create_app(
    db: str | Path = ":memory:",
    records: Sequence[str | Path] = (),
    policies: Mapping[str, str | Path] = MappingProxyType({}),
) -> FastAPI:
    """The web table over the SQLite file ``db``, with the game records of the files
    ``records`` imported as replays, offering the saved ``policies`` (name -> path) as
    agents (``policy:NAME``)."""
    store = TableStore(db)
    for path in records:
        import_records(store, path)
    tables = Tables(store, {name: str(path) for name, path in policies.items()})
    pool = ThreadPoolExecutor(AGENT_WORKERS, thread_name_prefix="agent")
    runner = AgentRunner(tables, pool)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        for table in tables.live():
            runner.wake(table)
        yield
        await runner.stop()
        pool.shutdown(wait=True, cancel_futures=True)
        store.close()

    app = FastAPI(title="tabletop", lifespan=lifespan)
    app.state.tables = tables
    app.state.runner = runner
    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")

    @app.exception_handler(TableError)
    async def refused(_request: Request, error: TableError) -> JSONResponse:
        return JSONResponse({"error": str(error)}, status_code=error.status)

    _add_pages(app)
    _add_table_api(app, tables, runner)
    _add_replay_api(app, tables)
    return app


PAGES = {
    "/": "lobby.html",
    "/table/{table_id}": "table.html",
    "/replays": "replays.html",
    "/replay/{table_id}": "replay.html",
}
"""Path -> its page; a page reads the table id from its own address."""


def _add_pages(app: FastAPI) -> None:
    for path, name in PAGES.items():
        page = partial(_page, (STATIC / name).read_text(encoding="utf-8"))
        app.add_api_route(path, page, methods=["GET"], response_class=HTMLResponse)


async def _page(html: str) -> HTMLResponse:
    return HTMLResponse(html)


def _add_table_api(app: FastAPI, tables: Tables, runner: AgentRunner) -> None:
    @app.get("/api/games")
    async def games() -> list[dict[str, Any]]:
        return [game_entry(name, tables.policies) for name in envs.names()]

    @app.post("/api/tables", status_code=201)
    async def new_table(request: Request) -> dict[str, Any]:
        fields = _fields(await _json_body(request), required=("game", "seats"),
                         optional=("options", "seed", "pace", "omniscient"))  # fmt: skip
        table = tables.create(
            _text(fields["game"], "game"),
            parse_options(fields.get("options", {})),
            _seats(fields["seats"]),
            seed=_optional_int(fields.get("seed"), "seed"),
            omniscient=_flag(fields.get("omniscient", False), "omniscient"),
            pace=_number(fields.get("pace", 0.5), "pace"),
        )
        runner.wake(table)
        return links(table)

    @app.get("/api/tables/{table_id}")
    async def shown(
        table_id: str, token: str | None = None, seat: int | None = None, after: int | None = None
    ) -> JSONResponse:
        """What the viewer is shown; with ``after``, once the viewer's ``version`` is past
        it (or after ``LONG_POLL_SECONDS``): the page learns of a move as it is made."""
        table = tables.get(table_id)
        viewer = table.viewer(token, seat)
        if after is not None:
            await runner.changed(table, viewer, after)
        with table.lock:
            return JSONResponse(table.shown(viewer))

    @app.post("/api/tables/{table_id}/moves")
    async def move(table_id: str, request: Request) -> JSONResponse:
        fields = _fields(await _json_body(request), required=("token", "action"), optional=())
        table = tables.get(table_id)
        viewer = table.viewer(_text(fields["token"], "token"))
        with table.lock:
            table.human_move(viewer, fields["action"])
            tables.save(table)
            answer = table.shown(viewer)
        runner.moved(table)
        return JSONResponse(answer)

    @app.post("/api/tables/{table_id}/pace")
    async def pace(table_id: str, request: Request) -> dict[str, float]:
        fields = _fields(await _json_body(request), required=("pace",), optional=("token",))
        table = tables.get(table_id)
        token = fields.get("token")
        table.viewer(None if token is None else _text(token, "token"), seat=0)
        with table.lock:
            table.set_pace(_number(fields["pace"], "pace"))
            tables.save(table)
        return {"pace": table.stored.pace}


def _add_replay_api(app: FastAPI, tables: Tables) -> None:
    replays = Replays(tables.store)

    @app.get("/api/replays")
    async def finished() -> list[dict[str, Any]]:
        return [
            {"id": s.id, "game": s.game, "options": s.options, "seats": s.seats,
             "plies": len(s.actions), "returns": s.returns, "created": s.created}
            for s in tables.store.all(finished=True)
        ]  # fmt: skip

    @app.get("/api/replays/{table_id}")
    async def replay(table_id: str, ply: int | None = None) -> JSONResponse:
        return JSONResponse(replays.frame(table_id, ply))

    @app.post("/api/replays", status_code=201)
    async def add_record(request: Request) -> dict[str, str]:
        return {"id": import_record(tables.store, await _json_body(request))}


class AgentRunner:
    """Plays the agents' moves of every table, each in the thread pool, one table's moves
    one after another at its pace; the event loop only waits for them. It also tells the
    readers waiting for a table's next move (``changed``) when one is made."""

    def __init__(self, tables: Tables, pool: ThreadPoolExecutor) -> None:
        self.tables = tables
        self.pool = pool
        self._running: dict[str, asyncio.Task[None]] = {}
        self._moves: dict[str, asyncio.Condition] = {}

    def _condition(self, table: LiveTable) -> asyncio.Condition:
        return self._moves.setdefault(table.stored.id, asyncio.Condition())

    async def changed(self, table: LiveTable, viewer: Viewer, after: int) -> None:
        """Return once ``viewer``'s version of ``table`` is past ``after``, or
        ``LONG_POLL_SECONDS`` have passed."""

        def past() -> bool:
            return table.version(viewer) > after

        condition = self._condition(table)
        async with condition:
            with suppress(TimeoutError):
                await asyncio.wait_for(condition.wait_for(past), LONG_POLL_SECONDS)

    def moved(self, table: LiveTable) -> None:
        """A move was made at ``table``: wake its readers, and its agents if one is to move."""
        condition = self._condition(table)

        async def notify() -> None:
            async with condition:
                condition.notify_all()

        asyncio.get_running_loop().create_task(notify())
        self.wake(table)

    def wake(self, table: LiveTable) -> None:
        """Make sure the agents of ``table`` are moving if one of them is to move."""
        task = self._running.get(table.stored.id)
        if task is None or task.done():
            self._running[table.stored.id] = asyncio.get_running_loop().create_task(
                self._play_agents(table)
            )

    async def _play_agents(self, table: LiveTable) -> None:
        loop = asyncio.get_running_loop()
        while table.agent_to_move is not None:
            await asyncio.sleep(table.stored.pace)
            action = await loop.run_in_executor(self.pool, table.agent_action)
            with table.lock:  # (only this task moves for the table's agents)
                table.play(action)
                self.tables.save(table)
            self.moved(table)

    async def stop(self) -> None:
        for task in self._running.values():
            task.cancel()
        await asyncio.gather(*self._running.values(), return_exceptions=True)


def game_entry(name: str, policies: Mapping[str, str] = MappingProxyType({})) -> dict[str, Any]:
    """What the lobby offers of a game: its options (with defaults), seats and agents. The
    ``pool`` option is left out: the web table plays the packaged pool (``decks`` are the
    packaged decks' names, ``check_packaged_data``)."""
    spec = envs.spec(name)
    return {
        "name": name,
        "title": spec.title,
        "min_players": spec.min_players,
        "max_players": spec.max_players,
        "default_players": spec.default_players,
        "options": [
            {"name": o.name, "default": _json_ready(o.default), "help": o.help}
            for o in spec.option_specs
            if o.name != POOL_OPTION
        ],
        "decks": list(spec.decks),
        "agents": [HUMAN, *web_agent_kinds(), *(f"{POLICY}:{policy}" for policy in policies)],
    }


def links(table: LiveTable) -> dict[str, Any]:
    """A new table's links: one per human seat, with its secret; a spectator's otherwise."""
    stored = table.stored
    seat_links = {
        str(seat): f"/table/{stored.id}?token={token}"
        for seat, token in enumerate(stored.tokens)
        if token is not None
    }
    return {
        "id": stored.id,
        "seats": table.seat_labels(),
        "links": seat_links,
        "spectate": None if seat_links else f"/table/{stored.id}",
    }


def parse_options(options: Any) -> dict[str, Any]:
    """Game options from JSON: text as on the command line (``"skyfire,venom"`` is a pair),
    lists as tuples, numbers and flags as they are."""
    if not isinstance(options, dict):
        raise TableError(f"options must be an object, got {options!r}")
    parsed = {}
    for key, value in options.items():
        if isinstance(value, str):
            try:
                value = parse_option_value(value)
            except ValueError as error:
                raise TableError(f"option {key}: {error}") from None
        parsed[key] = tuple(value) if isinstance(value, list) else value
    return parsed


def _json_ready(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


async def _json_body(request: Request) -> Any:
    try:
        return json.loads(await request.body())
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise TableError(f"the request body is not JSON: {error}") from None


def _fields(body: Any, *, required: tuple[str, ...], optional: tuple[str, ...]) -> dict[str, Any]:
    """``body`` as a JSON object with exactly these keys (an unknown one is refused)."""
    if not isinstance(body, dict):
        raise TableError(f"the request body must be a JSON object, got {body!r}")
    missing = [key for key in required if key not in body]
    unknown = sorted(set(body) - set(required) - set(optional))
    if missing:
        raise TableError(f"missing field(s): {', '.join(missing)}")
    if unknown:
        raise TableError(f"unknown field(s): {', '.join(unknown)}; known: "
                         f"{', '.join((*required, *optional))}")  # fmt: skip
    return body


def _text(value: Any, name: str) -> str:
    if not isinstance(value, str):
        raise TableError(f"{name} must be a string, got {value!r}")
    return value


def _seats(value: Any) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(s, str) and s.strip() for s in value):
        raise TableError(f"seats must be a list of seat specs (human or an agent), got {value!r}")
    return [s.strip() for s in value]


def _optional_int(value: Any, name: str) -> int | None:
    if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
        raise TableError(f"{name} must be an integer, got {value!r}")
    return value


def _number(value: Any, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TableError(f"{name} must be a number, got {value!r}")
    return float(value)


def _flag(value: Any, name: str) -> bool:
    if not isinstance(value, bool):
        raise TableError(f"{name} must be true or false, got {value!r}")
    return value
