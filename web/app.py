"""The web table's HTTP side: pages, the JSON API, and the agents' moves off the event loop.

Pages are static files (``web/static``) whose scripts ask the API; the API answers JSON and
every refusal is a 4xx with ``{"detail": message}`` (also under ``error``, the key of the
first pages) and nothing changed; an unknown page is an HTML page that leads back to the
lobby. A JSON body is read into a request model (``NewTableBody``, ...), which refuses a
missing, unknown or mistyped field before anything is done; ``request_problem`` words the
refusal. Views are plain JSON data already, so they are sent as ``JSONResponse``
(FastAPI's generic encoding of a returned dict took ten times as long as building the view).

Agents think in processes (``AgentPool``), one move at a time per table at the table's
pace: a long search holds one process and no thread of the server, so neither the server's
answers nor other tables wait for it; a table is stored after every move (``store``), and
on start the app takes up the live tables where they stood.

    GET  /                          lobby          GET  /api/games
    POST /api/tables                a new table (JSON: game, options, seats, seed, pace, omniscient)
                                    (card games: packaged decks by name, the packaged pool)
    GET  /table/{id}?token=...      table page     GET  /api/tables/{id}?token=..|seat=N[&after=V]
    POST /api/tables/{id}/moves     JSON: token, action, version (optional: the page's, 409 if
                                    the game moved on since)
    POST /api/tables/{id}/pace      JSON: token (a seat's, or none for an agents-only table), pace
    GET  /replays                   finished games GET  /api/replays
    GET  /replay/{id}               replay page    GET  /api/replays/{id}?ply=N
    POST /api/replays               a game record (a line of ``tabletop eval --out``'s games.jsonl)
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
import os
from collections.abc import AsyncIterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager, suppress
from dataclasses import replace
from functools import cache, partial
from importlib.resources import files
from pathlib import Path
from types import MappingProxyType
from typing import Annotated, Any

from fastapi import Body, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field, StringConstraints
from starlette.exceptions import HTTPException

from tabletop import envs
from tabletop.envs.core.cards.data import POOL_OPTION
from tabletop.envs.core.options import parse_option_value
from tabletop.envs.core.spec import DECKS_OPTION, GameSpec, OptionSpec
from tabletop.web.replays import Replays, import_record, import_records
from tabletop.web.store import TableStore
from tabletop.web.tables import (
    HUMAN,
    POLICY,
    AgentCrashError,
    AgentError,
    AgentJob,
    AgentProcess,
    LiveTable,
    TableError,
    Tables,
    Viewer,
    agent_process_context,
    web_agent_kinds,
)

STATIC = files("tabletop.web") / "static"
AGENT_PROCESSES = (os.cpu_count() or 1) + 2
"""Agent processes at most: a few more than cores, so that a table or two searching for
seconds leave processes free for the others' quick moves (the system shares the cores)."""
LONG_POLL_SECONDS = 20.0
"""The longest a reader asking for what comes after its version (``?after=V``) waits."""
RETRY_SECONDS = 30.0
"""The longest wait before a table tries again an agent move that failed (the waits double
from one second up to it)."""
LOG = logging.getLogger("tabletop.web")


def create_app(
    db: str | Path = ":memory:",
    records: Sequence[str | Path] = (),
    policies: Mapping[str, str | Path] = MappingProxyType({}),
    agent_processes: int = AGENT_PROCESSES,
) -> FastAPI:
    """The web table over the SQLite file ``db``, with the game records of the files
    ``records`` imported as replays, offering the saved ``policies`` (name -> path) as
    agents (``policy:NAME``), its agents thinking in up to ``agent_processes`` processes."""
    store = TableStore(db)
    for path in records:
        import_records(store, path)
    tables = Tables(store, {name: str(path) for name, path in policies.items()})
    pool = AgentPool(agent_processes)
    runner = AgentRunner(tables, pool)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await pool.fill()
        for table in tables.live():
            runner.wake(table)
        yield
        await runner.stop()
        pool.close()
        store.close()

    app = FastAPI(title="tabletop", lifespan=lifespan)
    app.state.tables = tables
    app.state.runner = runner
    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")
    _add_error_handlers(app)
    _add_pages(app)
    _add_table_api(app, tables, runner)
    _add_replay_api(app, tables)
    return app


def refusal(message: str, status: int, headers: Mapping[str, str] | None = None) -> JSONResponse:
    """An API refusal: the message under ``detail`` (the contract's key, FastAPI's too) and
    under ``error`` (the key pages and clients written before it read)."""
    return JSONResponse({"detail": message, "error": message}, status, headers)


def _add_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(TableError)
    async def refused(_request: Request, error: TableError) -> JSONResponse:
        return refusal(str(error), error.status)

    @app.exception_handler(RequestValidationError)
    async def malformed(request: Request, error: RequestValidationError) -> JSONResponse:
        return refusal(request_problem(error, _body_model(request)), 400)

    @app.exception_handler(HTTPException)
    async def http_refused(request: Request, error: HTTPException) -> Response:
        """FastAPI's own refusals (a body it cannot read, an unknown path) in the same shape;
        an unknown page (not under /api/) as a page a person can leave for the lobby."""
        if error.status_code == 404 and not request.url.path.startswith("/api/"):
            return HTMLResponse(_not_found_page(), 404)
        message = str(error.detail)
        if error.status_code == 404:
            message = f"no such API path: {request.method} {request.url.path}"
        return refusal(message, error.status_code, error.headers)


@cache
def _not_found_page() -> str:
    return (STATIC / "404.html").read_text(encoding="utf-8")


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

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> FileResponse:
        """The icon browsers ask for on their own, an SVG (which they all draw)."""
        return FileResponse(str(STATIC / "favicon.svg"), media_type="image/svg+xml")


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
    version: int | None = Field(default=None, description="an integer (the page's version)")


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
            table.human_move(viewer, body.action, body.version)
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
    async def finished() -> JSONResponse:
        return JSONResponse(replays.listing())

    @app.get("/api/replays/{table_id}")
    async def replay(table_id: str, ply: int | None = None) -> JSONResponse:
        return JSONResponse(replays.frame(table_id, ply))

    @app.post("/api/replays", status_code=201)
    async def add_record(document: Annotated[Any, Body()]) -> dict[str, str]:
        return {"id": import_record(tables.store, document)}


class AgentPool:
    """The agent processes (``AgentProcess``), ``size`` of them started with the server
    (``fill``) so that no move waits for a process to start. A table's move goes to the
    process that made its last one if that one is free (it keeps the table's game and
    agents), else to any free process,
    where the table gets a new lease and its agents start afresh: a table never waits for
    another table's search while a process is free. A process that dies is replaced by
    the next move that finds every other busy."""

    def __init__(self, size: int) -> None:
        if size < 1:
            raise ValueError(f"agent processes must be at least 1, got {size}")
        self.size = size
        self._processes: list[AgentProcess] = []
        self._homes: dict[str, tuple[AgentProcess, int]] = {}
        """Table id -> the process of its last move and its lease there."""
        self._leases = itertools.count(1)
        self._freed = asyncio.Event()
        self._pipes = ThreadPoolExecutor(size, thread_name_prefix="agent-pipe")
        """Threads that wait on the processes' pipes (one per busy process, GIL released)."""

    async def fill(self) -> None:
        """Start processes until there are ``size``: a server starts its agents before it
        takes requests, as a burst of first moves under load would wait for them."""
        missing = self.size - len(self._processes)
        for process in await asyncio.gather(*(self._started() for _ in range(missing))):
            process.busy = False
        self._freed.set()

    async def act(self, job: AgentJob) -> int:
        """The action the agent of ``job`` chooses; ``AgentError`` when it fails."""
        process, lease = await self._take(job.table)
        loop = asyncio.get_running_loop()
        try:
            action = await loop.run_in_executor(self._pipes, process.ask, replace(job, lease=lease))
        except (AgentCrashError, asyncio.CancelledError):
            self._drop(process)  # (cancelled: its answer would come to nobody)
            raise
        finally:
            process.busy = False
            self._freed.set()
        return action

    async def _take(self, table_id: str) -> tuple[AgentProcess, int]:
        """A free process for ``table_id`` (marked busy) and the table's lease in it."""
        while True:
            home = self._homes.get(table_id)
            if home is not None and home[0] in self._processes and not home[0].busy:
                home[0].busy = True
                return home
            process = next((p for p in self._processes if not p.busy), None)
            if process is None and len(self._processes) < self.size:
                process = await self._started()
            if process is not None:
                process.busy = True
                self._homes[table_id] = (process, next(self._leases))
                return self._homes[table_id]
            self._freed.clear()
            await self._freed.wait()

    async def _started(self) -> AgentProcess:
        process = AgentProcess(agent_process_context())
        self._processes.append(process)
        try:
            await asyncio.get_running_loop().run_in_executor(self._pipes, process.start)
        except BaseException:
            self._processes.remove(process)
            raise
        return process

    @property
    def pids(self) -> list[int]:
        """The running agent processes' ids (for an operator's ``ps``, and the tests)."""
        return [p.process.pid for p in self._processes if p.process.pid is not None and p.alive]

    def _drop(self, process: AgentProcess) -> None:
        if process in self._processes:
            self._processes.remove(process)
        process.stop()

    def close(self) -> None:
        """Stop every process (searches under way are dropped) and the pipes' threads."""
        for process in self._processes:
            process.stop()
        self._processes.clear()
        self._pipes.shutdown(wait=True, cancel_futures=True)


class AgentRunner:
    """Plays the agents' moves of every table through the ``AgentPool``, one table's moves
    one after another at its pace; the event loop only waits for them. A move that fails
    (the agent raised, its process died) is said in the server's log and tried again,
    after a wait that doubles up to ``RETRY_SECONDS``. It also tells the readers waiting
    for a table's next move (``changed``) when one is made."""

    def __init__(self, tables: Tables, pool: AgentPool) -> None:
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
        failures = 0
        while table.agent_to_move is not None:
            wait = min(RETRY_SECONDS, 2.0 ** (failures - 1)) if failures else table.stored.pace
            await asyncio.sleep(wait)
            with table.lock:
                job = table.agent_job()
            if job is None:
                return
            try:
                action = await self.pool.act(job)
                with table.lock:  # (only this task moves for the table's agents)
                    table.agent_move(job, action)
                    self.tables.save(table)
            except (AgentError, TableError) as error:
                failures += 1
                retry = min(RETRY_SECONDS, 2.0 ** (failures - 1))
                LOG.error("table %s: %s; trying again in %g s", job.table, error, retry)
                continue
            failures = 0
            self.moved(table)

    async def stop(self) -> None:
        for task in self._running.values():
            task.cancel()
        await asyncio.gather(*self._running.values(), return_exceptions=True)


def game_entry(name: str, policies: Mapping[str, str] = MappingProxyType({})) -> dict[str, Any]:
    """What the lobby offers of a game: its display name, its help (the terminal's ``help``
    text), its options (with defaults), seats and agents. The ``pool`` option is left out:
    the web table plays the packaged pool (``decks`` are the packaged decks' names,
    ``check_packaged_data``)."""
    spec = envs.spec(name)
    return {
        "name": name,
        "title": spec.title,
        "help": help_text(name),
        "min_players": spec.min_players,
        "max_players": spec.max_players,
        "default_players": spec.default_players,
        "options": [option_entry(spec, o) for o in spec.option_specs if o.name != POOL_OPTION],
        "decks": list(spec.decks),
        "agents": [
            HUMAN,
            *web_agent_kinds(name),
            *(f"{POLICY}:{policy}" for policy in policies),
        ],
    }


def option_entry(spec: GameSpec, option: OptionSpec) -> dict[str, Any]:
    """An option as the lobby's form control draws it: its ``kind`` (``bool``, ``int``,
    ``float``, ``text``, ``choice`` with its ``choices``, or ``decks``: one of ``choices``
    per seat) read from its declared allowed values (the player range of ``num_players``),
    the game's packaged decks, or else its default."""
    entry = {"name": option.name, "default": _json_ready(option.default), "help": option.help}
    if option.name == DECKS_OPTION:
        return {**entry, "kind": "decks", "choices": list(spec.decks)}
    if option.choices:
        return {**entry, "kind": "choice", "choices": [_json_ready(c) for c in option.choices]}
    kinds = ((bool, "bool"), (int, "int"), (float, "float"))
    kind = next((name for type_, name in kinds if isinstance(option.default, type_)), "text")
    return {**entry, "kind": kind}


@cache
def help_text(name: str) -> str:
    """The game's ``help_text()`` with its default options: what the terminal's ``help``
    prints, from the same source."""
    return envs.make_game(name).help_text()


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
