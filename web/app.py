"""The web table's HTTP side: pages, the JSON API, and the agents' moves off the event loop.

Pages are static files (``web/static``) whose scripts ask the API; the API answers JSON and
every refusal is a 4xx with ``{"error": message}`` and nothing changed. A JSON body is read
into a request model (``NewTableBody``, ...), which refuses a missing, unknown or mistyped
field before anything is done; ``request_problem`` words the refusal. Views are plain
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
from typing import Annotated, Any

from fastapi import Body, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field, StringConstraints
from starlette.exceptions import HTTPException

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

    @app.exception_handler(RequestValidationError)
    async def malformed(request: Request, error: RequestValidationError) -> JSONResponse:
        return JSONResponse({"error": request_problem(error, _body_model(request))}, 400)

    @app.exception_handler(HTTPException)
    async def http_refused(_request: Request, error: HTTPException) -> JSONResponse:
        """FastAPI's own refusals (a body it cannot read, an unknown path) in the same shape."""
        return JSONResponse({"error": str(error.detail)}, error.status_code, error.headers)

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


class RequestBody(BaseModel):
    """A JSON body: typed fields, an unknown one refused. Strict, as JSON has types: ``"3"``
    is no seed and ``1`` no flag. Each field's ``description`` says what it must be, which
    a refusal quotes (``request_problem``)."""

    model_config = ConfigDict(extra="forbid", strict=True)


SeatSpec = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]


class NewTableBody(RequestBody):
    """``POST /api/tables``; ``tables.create`` checks the game, options and seats."""

    game: str = Field(description="a string")
    seats: list[SeatSpec] = Field(description="a list of seat specs (human or an agent)")
    options: dict[str, Any] = Field(default_factory=dict, description="an object")
    seed: int | None = Field(default=None, description="an integer")
    pace: float = Field(default=0.5, description="a number")
    omniscient: bool = Field(default=False, description="true or false")


class MoveBody(RequestBody):
    """``POST /api/tables/{id}/moves``; the table checks the action (an action id)."""

    token: str = Field(description="a string")
    action: Any = Field(description="an action id")


class PaceBody(RequestBody):
    """``POST /api/tables/{id}/pace``; no token at a table of agents only."""

    pace: float = Field(description="a number")
    token: str | None = Field(default=None, description="a string")


def _body_model(request: Request) -> type[RequestBody] | None:
    """The request model of the route ``request`` was for; None if it takes no such body."""
    body_field = getattr(request.scope.get("route"), "body_field", None)
    model = body_field.field_info.annotation if body_field else None
    return model if isinstance(model, type) and issubclass(model, RequestBody) else None


def request_problem(error: RequestValidationError, model: type[RequestBody] | None) -> str:
    """What is wrong with a request, worded for its sender: the body that is no JSON object,
    then the missing fields, then the unknown ones, then the first field of a wrong type.
    ``model`` is the route's request model: only one has fields to be missing or unknown."""
    errors = error.errors()
    body_errors = [e for e in errors if e["loc"][0] == "body"]
    if not body_errors:
        first = errors[0]
        return f"{first['loc'][-1]}: {first['msg']}, got {first['input']!r}"
    whole = [e for e in body_errors if len(e["loc"]) == 1 or e["type"] == "json_invalid"]
    if whole:
        return _body_problem(whole[0], error.body)
    assert model is not None, "a field refused in a body of no request model"
    missing = [str(e["loc"][1]) for e in body_errors if e["type"] == "missing"]
    if missing:
        return f"missing field(s): {', '.join(missing)}"
    unknown = sorted(str(e["loc"][1]) for e in body_errors if e["type"] == "extra_forbidden")
    if unknown:
        return f"unknown field(s): {', '.join(unknown)}; known: {', '.join(model.model_fields)}"
    name = str(body_errors[0]["loc"][1])
    return f"{name} must be {model.model_fields[name].description}, got {error.body[name]!r}"


def _body_problem(error: Any, body: Any) -> str:
    """A body that is not a JSON object as a whole: not JSON (``body`` is its text), none,
    or another value."""
    if error["type"] == "json_invalid":
        decoding = json.JSONDecodeError(error["ctx"]["error"], body, error["loc"][1])
        return f"the request body is not JSON: {decoding}"
    if error["type"] == "missing":
        return "the request body is not JSON: it is empty"
    if isinstance(error["input"], bytes):
        return "the request body must be JSON, sent as Content-Type: application/json"
    return f"the request body must be a JSON object, got {error['input']!r}"


def _add_table_api(app: FastAPI, tables: Tables, runner: AgentRunner) -> None:
    @app.get("/api/games")
    async def games() -> list[dict[str, Any]]:
        return [game_entry(name, tables.policies) for name in envs.names()]

    @app.post("/api/tables", status_code=201)
    async def new_table(body: NewTableBody) -> dict[str, Any]:
        table = tables.create(
            body.game,
            parse_options(body.options),
            body.seats,
            seed=body.seed,
            omniscient=body.omniscient,
            pace=body.pace,
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
    async def move(table_id: str, body: MoveBody) -> JSONResponse:
        table = tables.get(table_id)
        viewer = table.viewer(body.token)
        with table.lock:
            table.human_move(viewer, body.action)
            tables.save(table)
            answer = table.shown(viewer)
        runner.moved(table)
        return JSONResponse(answer)

    @app.post("/api/tables/{table_id}/pace")
    async def pace(table_id: str, body: PaceBody) -> dict[str, float]:
        table = tables.get(table_id)
        table.viewer(body.token, seat=0)
        with table.lock:
            table.set_pace(body.pace)
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
    async def add_record(document: Annotated[Any, Body()]) -> dict[str, str]:
        return {"id": import_record(tables.store, document)}


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


def parse_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """Game options from JSON: text as on the command line (``"skyfire,venom"`` is a pair),
    lists as tuples, numbers and flags as they are."""
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
