"""Live tables: games being played through the web, whoever sits at each seat.

A ``LiveTable`` holds one game's state, its seats (a human, reached through a secret link,
or an agent) and its move log as each seat may read it; every change is written to the
``TableStore`` before it is answered, and a table is rebuilt from its stored seed and
actions after a restart. ``Tables`` is the server's set of them. Nothing here knows HTTP:
mistakes raise a ``TableError`` whose ``status`` the app answers with.

What a seat is shown follows the engines' information rules: its ``view`` and observer
texts, and of another seat's moves only those whose events tell it something (a move that
told it nothing is not listed, since that it happened would itself be news: the terminal
game does the same).

Agents do not live in the server: a table hands an ``AgentJob`` (the stored game and the
seat's agent spec) to an agent process (``AgentProcess`` running ``agent_process_main``),
whose ``AgentThinker`` keeps the table's state and agents between moves and answers with
the action; the app's ``AgentPool`` decides which process takes which move.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.context
import os
import random
import secrets
import signal
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from tabletop import envs
from tabletop.agents import make_agent
from tabletop.agents.registry import AGENT_KINDS
from tabletop.agents.shipped import PRETRAINED, pretrained_games
from tabletop.envs.core.cards.data import POOL_OPTION
from tabletop.envs.core.protocol import IllegalActionError, State, seat_name
from tabletop.envs.core.spec import DECKS_OPTION
from tabletop.web.store import StoredTable, TableStore

HUMAN = "human"
"""The seat spec of a person at the table."""
POLICY = "policy"
"""The agent kind of a saved policy: at the web table ``policy:NAME``, a name its operator
offers (``tabletop serve --policy NAME=PATH``), never a path."""
GUIDED = "guided"
"""The agent kind of the network-guided search, whose ``policy=`` is named as ``POLICY``'s."""
MAX_PACE = 10.0
"""The slowest pace a table may be given, in seconds between agent moves."""


class TableError(Exception):
    """A request the table refuses; ``status`` is the HTTP status that says why."""

    status = 400


class NotFoundError(TableError):
    status = 404


class ForbiddenError(TableError):
    status = 403


class ConflictError(TableError):
    """Right request, wrong moment: not this seat's turn, or the game is over."""

    status = 409


STALE_PAGE = "the game moved on since your page was drawn; it has been refreshed"
"""The refusal of a move sent from a page drawn at an older version than the viewer's."""


@dataclass(frozen=True)
class Viewer:
    """Who is looking: a seat (``observer``), or a spectator (``observer`` ``None`` when
    the table lets spectators see everything)."""

    observer: int | None
    seat: int | None
    """The seat this viewer may move for, if any."""


class MoveLog:
    """A game from its deal: the state, and each move as every observer is shown it."""

    def __init__(self, game: str, options: dict[str, Any], seed: int) -> None:
        self.game = envs.make_game(game, **game_options(options))
        self.state = self.game.new_state(seed=seed)
        self.entries: list[dict[str, Any]] = []
        """Per move: ``mover`` and, per observer key (``all`` or the seat number as text),
        the text and events as that observer is shown them."""

    def apply(self, action: int, text: str | None = None) -> str:
        """Play legal ``action`` and log it; returns its full text. A ``text`` given (a
        stored move) must be the one the rules give now: a changed rule or notation must
        not silently replay another game."""
        state = self.state
        mover = state.current_player
        full = state.action_to_string(action)
        if text is not None and full != text:
            raise TableError(f"stored move {len(self.entries)} was {text!r}, "
                             f"the rules now read it as {full!r}")  # fmt: skip
        observers: list[int | None] = [None, *range(self.game.num_players)]
        texts = {o: state.action_to_string(action, o) for o in observers}
        state.apply(action)
        entry: dict[str, Any] = {"mover": mover}
        for observer in observers:
            events = [event.text for event in state.last_events(observer)]
            if observer is None or observer == mover or events:
                entry[_key(observer)] = {"text": texts[observer], "events": events}
        self.entries.append(entry)
        return full

    def shown_to(self, observer: int | None, plies: int | None = None) -> list[dict[str, Any]]:
        """The first ``plies`` moves (all by default) as ``observer`` is shown them."""
        key = _key(observer)
        return [
            {"mover": entry["mover"], **entry[key]}
            for entry in self.entries[:plies]
            if key in entry
        ]


def _key(observer: int | None) -> str:
    return "all" if observer is None else str(observer)


def check_packaged_data(game: str, options: Mapping[str, Any]) -> None:
    """Card data a client of the server may choose: packaged decks by name, and the packaged
    pool (no ``pool`` option). Any text a client sends for either is refused before a game
    is built: the loaders read any path they are given, and a path from a client would let
    whoever reaches the server probe its files. Paths stay a command-line matter."""
    spec = envs.spec(game)
    if POOL_OPTION in spec.options and options.get(POOL_OPTION) is not None:
        raise TableError(
            f"option {POOL_OPTION}: the web table plays the packaged pool; a pool file is "
            "chosen on the command line, not by a browser"
        )
    decks = options.get(DECKS_OPTION)
    if DECKS_OPTION not in spec.options or decks is None:
        return
    names = (decks,) if isinstance(decks, str) else decks
    if not isinstance(names, list | tuple) or not all(
        isinstance(name, str) and name in spec.decks for name in names
    ):
        raise TableError(
            f"option {DECKS_OPTION}: the web table plays packaged decks, by name: "
            f"{', '.join(spec.decks)}; got {decks!r}"
        )


def agent_spec(seat: str, policies: Mapping[str, str]) -> str:
    """The agent spec a seat of a client stands for: an agent kind as written (``random``,
    ``ismcts:iterations=400``, ``pretrained``), or for ``policy:NAME`` the path of the policy
    its operator offers under that name; a guided search names its policy the same way
    (``guided:policy=NAME``, or ``policy=pretrained``). A path from a client, bare, as
    ``policy:PATH`` or as a guided search's policy, is refused before anything looks at it,
    as card files are (``check_packaged_data``)."""
    kind, _, name = seat.partition(":")
    kind = kind.strip().lower()
    if kind == POLICY and name.strip() in policies:
        return f"{POLICY}:{policies[name.strip()]}"
    if kind == GUIDED:
        return _guided_spec(seat, name, policies)
    if kind in AGENT_KINDS and kind != POLICY:
        return seat
    raise TableError(f"seat {seat!r}: {_seatable(policies)}")


def _guided_spec(seat: str, options: str, policies: Mapping[str, str]) -> str:
    """``guided:…`` with its ``policy=NAME`` made the operator's path (``pretrained`` kept);
    any other policy setting, or none, is refused."""
    settings = [part.strip() for part in options.split(",")]
    named = {
        index: setting.partition("=")[2].strip()
        for index, setting in enumerate(settings)
        if setting.partition("=")[0].strip() == POLICY
    }
    if named and all(value == PRETRAINED or value in policies for value in named.values()):
        for index, value in named.items():
            if value in policies:
                settings[index] = f"{POLICY}={policies[value]}"
        return f"{GUIDED}:" + ",".join(settings)
    raise TableError(
        f"seat {seat!r}: a guided search plays policy=pretrained (the game's shipped policy) "
        f"or policy=NAME of a policy its operator offers; {_seatable(policies)}"
    )


def _seatable(policies: Mapping[str, str]) -> str:
    offered = ", ".join(f"{POLICY}:{name}" for name in policies) or "none"
    return (
        f"the web table's agents are {', '.join(web_agent_kinds())} (with their options) and "
        f"the policies its operator offers by name ({offered}); a policy file is named on "
        "the command line (tabletop serve --policy NAME=PATH)"
    )


def web_agent_kinds(game: str | None = None) -> list[str]:
    """The agent kinds a client may seat by kind alone (all but ``policy``; for ``game``,
    ``pretrained`` only when it ships a policy)."""
    kinds = [kind for kind in AGENT_KINDS if kind != POLICY]
    if game is not None and game not in pretrained_games():
        kinds.remove(PRETRAINED)
    return kinds


def game_options(stored: dict[str, Any]) -> dict[str, Any]:
    """Stored (JSON) options back to game options: lists were tuples."""
    return {key: tuple(v) if isinstance(v, list) else v for key, v in stored.items()}


class LiveTable:
    """One game at the web table (see the module docstring)."""

    def __init__(
        self, stored: StoredTable, policies: Mapping[str, str] = MappingProxyType({})
    ) -> None:
        self.stored = stored
        self.moves = MoveLog(stored.game, stored.options, stored.seed)
        self.game = self.moves.game
        self.title = envs.spec(stored.game).title
        self.agent_specs: list[str | None] = [
            None if spec == HUMAN else agent_spec(spec, policies) for spec in stored.seats
        ]
        """Per seat: the agent spec its agent process builds (a policy's path resolved), or
        None for a person."""
        for seat, spec in enumerate(self.agent_specs):
            if spec is not None:  # built once here so that a bad spec is refused now
                make_agent(spec, stored.game, agent_seed(stored, seat))
        self.lock = threading.Lock()
        for action, text in zip(stored.actions, stored.action_texts, strict=True):
            self.moves.apply(action, text)

    @property
    def state(self) -> State:
        return self.moves.state

    # ----- who may look and act ---------------------------------------------------------

    def viewer(self, token: str | None, seat: int | None = None) -> Viewer:
        """The viewer a link's ``token`` (or, for a spectator, the ``seat`` whose view is
        asked) stands for; ``ForbiddenError`` when the link gives no such right."""
        stored = self.stored
        if token is not None:
            for number, secret in enumerate(stored.tokens):
                if secret is not None and secrets.compare_digest(secret, token):
                    return Viewer(number, number)
            raise ForbiddenError(
                f"this link's token opens no seat of table {stored.id}: the link is mistyped "
                "or cut short; ask whoever started the table for your seat's link"
            )
        if HUMAN in stored.seats and not self.over:
            raise ForbiddenError("a table with people at it is seen only through a seat's link")
        if seat is None:
            if not (stored.omniscient or self.over):
                raise ForbiddenError("this table shows spectators one seat's view: ask ?seat=N")
            return Viewer(None, None)
        if not 0 <= seat < self.game.num_players:
            raise TableError(f"seat must be in 0..{self.game.num_players - 1}, got {seat}")
        return Viewer(seat, None)

    @property
    def over(self) -> bool:
        return self.state.is_terminal()

    @property
    def agent_to_move(self) -> str | None:
        """The spec of the agent to move, None when a person is to move or the game is over."""
        if self.over:
            return None
        return self.agent_specs[self.state.current_player]

    # ----- what a viewer is shown -------------------------------------------------------

    def shown(self, viewer: Viewer) -> dict[str, Any]:
        """Everything the table page draws for ``viewer``."""
        return {
            "table": self.stored.id,
            "game": self.stored.game,
            "title": self.title,
            "seats": self.seat_labels(),
            "you": viewer.seat,
            "version": self.version(viewer),
            "pace": self.stored.pace,
            "view": self.state.view(viewer.observer),
            "log": self.moves.shown_to(viewer.observer),
            "result": result(self.state) if self.over else None,
        }

    def version(self, viewer: Viewer) -> int:
        """A number that grows exactly when what ``viewer`` may know changes: the moves for
        a spectator who sees everything; for a seat, twice the moves it is told of plus one
        while it is to move or once the game is over (a game may end on a move that tells
        the seat nothing, e.g. at a ply limit, and its end is news). A seat is never sent
        the count of all moves, nor woken by a move it may not know of: how often another
        seat decided can itself be news (a pause to decide on a hidden card)."""
        observer = viewer.observer
        if observer is None:
            return len(self.stored.actions)
        told = len(self.moves.shown_to(observer))
        return 2 * told + (self.over or self.state.current_player == observer)

    def seat_labels(self) -> list[str]:
        return [seat_name(self.game, seat, spec) for seat, spec in enumerate(self.stored.seats)]

    # ----- moves ------------------------------------------------------------------------

    def human_move(self, viewer: Viewer, action: Any, version: int | None = None) -> None:
        """``viewer``'s move ``action`` (an action id); refused, with nothing changed,
        when it is not theirs to make or not legal, or when ``version`` (the one the
        viewer's page was drawn at, if it says) is not the viewer's current one: the page
        chose its move in a position that is gone."""
        if viewer.seat is None:
            raise ForbiddenError("spectators cannot move")
        if version is not None and version != self.version(viewer):
            raise ConflictError(STALE_PAGE)
        if isinstance(action, bool) or not isinstance(action, int):
            raise TableError(f"action must be an action id (an int), got {action!r}")
        if self.over:
            raise ConflictError("the game is over")
        if self.state.current_player != viewer.seat:
            raise ConflictError(f"it is not seat {viewer.seat}'s turn")
        legal = self.state.legal_actions()
        if action not in legal:
            texts = ", ".join(self.state.action_to_string(a) for a in legal[:20])
            raise ConflictError(f"illegal move {action}; legal: {texts}")
        self.play(action)

    def agent_job(self) -> AgentJob | None:
        """What an agent process needs to choose the move of the agent to move (None if a
        person is to move or the game is over): the game as stored, never a live object."""
        spec = self.agent_to_move
        if spec is None:
            return None
        stored = self.stored
        seat = self.state.current_player
        return AgentJob(stored.id, stored.game, stored.options, stored.seed,
                        tuple(stored.actions), seat, spec, agent_seed(stored, seat))  # fmt: skip

    def agent_move(self, job: AgentJob, action: int) -> None:
        """Play the ``action`` an agent chose for ``job``, if the table still stands where
        the job was taken and the action is legal; otherwise ``ConflictError``."""
        if len(self.stored.actions) != len(job.actions) or self.agent_to_move is None:
            raise ConflictError(f"table {self.stored.id} moved on while its agent thought")
        if action not in self.state.legal_actions():
            raise ConflictError(f"the agent of seat {job.seat} chose illegal move {action}")
        self.play(action)

    def play(self, action: int) -> None:
        """Apply a legal ``action`` of the player to move and note it in the row."""
        stored = self.stored
        stored.action_texts.append(self.moves.apply(action))
        stored.actions.append(action)
        if self.over:
            stored.finished = True
            stored.returns = self.state.returns()
            stored.stats = self.state.stats()
            stored.outcome = outcome(self.state)

    def set_pace(self, pace: float) -> None:
        self.stored.pace = checked_pace(pace)


def checked_pace(pace: float) -> float:
    if not 0 <= pace <= MAX_PACE:
        raise TableError(f"pace must be 0-{MAX_PACE:g} seconds, got {pace}")
    return pace


def result(state: State) -> dict[str, Any]:
    """The end of a game as the result banner shows it: in words (``outcome``), with the
    returns and stats behind them."""
    return {"outcome": outcome(state), "returns": state.returns(), "stats": state.stats()}


def outcome(state: State) -> str:
    """A finished game's result in words, as its view says it ("Silver wins: ...")."""
    return state.view(None)["outcome"]


def agent_seed(stored: StoredTable, seat: int) -> int:
    """The seed of a seat's agent: one per table and seat, so a table's agents differ."""
    return stored.seed + 1 + seat


@dataclass(frozen=True)
class AgentJob:
    """One agent move to choose, as sent to an agent process: the table's game as stored
    (game, options, seed, the actions so far), the seat and its agent."""

    table: str
    game: str
    options: dict[str, Any]
    seed: int
    actions: tuple[int, ...]
    seat: int
    agent: str
    """The agent spec (a policy's path resolved)."""
    agent_seed: int
    lease: int = 0
    """Which stay of the table in its agent process this is: a table whose moves go to
    another process gets a new lease, and its agents there start afresh (as after a
    restart) instead of carrying on from a stay that missed moves."""


class Tables:
    """The server's live tables, each kept in memory once made or loaded, and stored.

    A stored table that cannot be rebuilt any more (an agent's policy file gone, a rule
    that now reads a stored move differently) does not stop the server: its row stays as
    it is, and asking for it answers why it cannot be resumed."""

    def __init__(
        self, store: TableStore, policies: Mapping[str, str] = MappingProxyType({})
    ) -> None:
        self.store = store
        self.policies = dict(policies)
        """Name -> path of the saved policies the operator offers (``policy:NAME`` seats)."""
        self._tables: dict[str, LiveTable] = {}
        self._lock = threading.Lock()
        self.unresumable: dict[str, str] = {}
        """Table id -> why its stored game could not be rebuilt."""
        for stored in store.all(finished=False):
            try:
                self._tables[stored.id] = _built(stored, self.policies)
            except TableError as error:
                self.unresumable[stored.id] = str(error)

    def live(self) -> list[LiveTable]:
        with self._lock:
            return [table for table in self._tables.values() if not table.over]

    def create(
        self, game: str, options: dict[str, Any], seats: Sequence[str], *, seed: int | None = None,
        omniscient: bool = False, pace: float = 0.5,
    ) -> LiveTable:  # fmt: skip
        """A new table; bad settings raise ``TableError`` naming them."""
        if game not in envs.names():
            raise NotFoundError(f"unknown game {game!r}; known games: {', '.join(envs.names())}")
        checked_pace(pace)
        if omniscient and HUMAN in seats:
            raise TableError("only a table without human seats may show spectators everything")
        stored = StoredTable(
            id=secrets.token_hex(6),
            game=game,
            options=dict(options),
            seed=random.SystemRandom().randrange(2**31) if seed is None else seed,
            seats=list(seats),
            tokens=[secrets.token_urlsafe(16) if spec == HUMAN else None for spec in seats],
            omniscient=omniscient,
            pace=pace,
            created=time.time(),
        )
        table = _built(stored, self.policies)
        self.store.save(stored)
        with self._lock:
            self._tables[stored.id] = table
        return table

    def get(self, table_id: str) -> LiveTable:
        with self._lock:
            table = self._tables.get(table_id)
        if table is not None:
            return table
        if table_id in self.unresumable:
            raise ConflictError(f"table {table_id} cannot be resumed: {self.unresumable[table_id]}")
        stored = self.store.load(table_id)
        if stored is None:
            raise NotFoundError(
                f"no table {table_id!r} on this server: the link is mistyped, or the table "
                "was started on another server"
            )
        table = _built(stored, self.policies)
        with self._lock:
            return self._tables.setdefault(table_id, table)

    def save(self, table: LiveTable) -> None:
        self.store.save(table.stored)


def _built(stored: StoredTable, policies: Mapping[str, str]) -> LiveTable:
    """The table of ``stored``, its game and seats checked: a bad option, seat count or
    agent spec becomes a ``TableError`` naming it. Its card options and seats are checked
    first (``check_packaged_data``, ``agent_spec``), also for a table stored before they
    were, so that no table of a client ever reads a file it named."""
    check_packaged_data(stored.game, stored.options)
    for seat in stored.seats:
        if seat != HUMAN:
            agent_spec(seat, policies)
    try:
        game = envs.make_game(stored.game, **game_options(stored.options))
        if len(stored.seats) != game.num_players:
            raise TableError(
                f"{stored.game} with these options has {game.num_players} seats, "
                f"got {len(stored.seats)}"
            )
        return LiveTable(stored, policies)
    except (KeyError, ValueError, TypeError, OSError, IllegalActionError) as error:
        raise TableError(str(error.args[0] if error.args else error)) from error


# ----- agents in processes ---------------------------------------------------------------


class AgentError(Exception):
    """An agent could not choose a move: it raised (``str`` says what), or its process
    died (``AgentCrashError``). The table's runner says so and tries the move again."""


class AgentCrashError(AgentError):
    """The agent process stopped in the middle of a move (killed, out of memory, a crash
    in native code); a new process takes the table's next try."""


WORKER_NICENESS = 5
"""How much lower an agent process's CPU priority is than the server's (POSIX ``nice``):
a long search takes the cores the server leaves idle, not the time it answers in."""
KEPT_TABLES = 64
"""Tables whose game and agents an agent process keeps between moves."""


class _KeptTable:
    """A table as an agent process keeps it: the state after ``actions``, and the agents
    of its current lease (built on a seat's first move in it)."""

    def __init__(self, job: AgentJob, state: State) -> None:
        self.lease = job.lease
        self.state = state
        self.actions: list[int] = []
        self.agents: dict[int, Any] = {}


class AgentThinker:
    """An agent process's tables: each kept between moves (``KEPT_TABLES``, the least
    recently asked dropped), so a move replays only the moves since the last one, and a
    seat's agent goes on from its own last decision (a search that keeps its tree)."""

    def __init__(self) -> None:
        self._tables: dict[str, _KeptTable] = {}
        self._games: dict[str, Any] = {}

    def act(self, job: AgentJob) -> int:
        kept = self._kept(job)
        for action in job.actions[len(kept.actions) :]:
            kept.state.apply(action)
            kept.actions.append(action)
        agent = kept.agents.get(job.seat)
        if agent is None:
            agent = kept.agents[job.seat] = make_agent(job.agent, job.game, job.agent_seed)
            agent.reset()
        return int(agent.act(kept.state.clone(), job.seat))

    def _kept(self, job: AgentJob) -> _KeptTable:
        kept = self._tables.pop(job.table, None)
        if kept is None or list(job.actions[: len(kept.actions)]) != kept.actions:
            kept = _KeptTable(job, self._game(job).new_state(seed=job.seed))
        if kept.lease != job.lease:
            kept.lease, kept.agents = job.lease, {}
        self._tables[job.table] = kept  # (last: the most recently asked)
        while len(self._tables) > KEPT_TABLES:
            del self._tables[next(iter(self._tables))]
        return kept

    def _game(self, job: AgentJob) -> Any:
        """The game of ``job``'s rules and options, built once per process (a card game
        reads its card data when built)."""
        key = f"{job.game} {sorted(job.options.items())!r}"
        if key not in self._games:
            self._games[key] = envs.make_game(job.game, **game_options(job.options))
        return self._games[key]


def agent_process_main(connection: Any) -> None:
    """An agent process: answer each ``AgentJob`` received with ``("action", id)`` or
    ``("error", why)``, until the server's end of the pipe closes. Ctrl-C is the server's
    to handle (it stops its agent processes)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(os, "nice"):
        os.nice(WORKER_NICENESS)
    thinker = AgentThinker()
    while True:
        try:
            job = connection.recv()
        except EOFError:
            return
        try:
            answer: tuple[str, Any] = ("action", thinker.act(job))
        except Exception as error:  # any agent's failure is the server's to report
            answer = ("error", f"{type(error).__name__}: {error}")
        connection.send(answer)


def agent_process_context() -> multiprocessing.context.BaseContext:
    """Forkserver where the system has it: a new agent process is a fork of a clean server
    that has imported the games and agents once; spawn elsewhere."""
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    modules = {__name__}
    for name in envs.names():
        spec = envs.spec(name)
        modules |= {spec.game_class.__module__, spec.heuristic.__module__}
    context.set_forkserver_preload(sorted(modules))
    return context


class AgentProcess:
    """One agent process and the server's end of its pipe. ``ask`` blocks until the answer
    (call it off the event loop); one job at a time (``busy``)."""

    def __init__(self, context: multiprocessing.context.BaseContext) -> None:
        self._connection, child = context.Pipe()
        self._child = child
        self.process = context.Process(
            target=agent_process_main, args=(child,), name="tabletop-agent", daemon=True
        )
        self.busy = True
        """Starting counts as busy: nobody else is given the process until it is up."""

    def start(self) -> None:
        self.process.start()
        self._child.close()

    def ask(self, job: AgentJob) -> int:
        """The action the agent of ``job`` chooses; ``AgentError`` when it fails."""
        try:
            self._connection.send(job)
            kind, value = self._connection.recv()
        except (EOFError, OSError):
            self.process.join(timeout=1.0)
            raise AgentCrashError(
                f"the agent process (pid {self.process.pid}) stopped while choosing a move "
                f"for seat {job.seat} of table {job.table} (exit code {self.process.exitcode})"
            ) from None
        if kind == "error":
            raise AgentError(f"the agent {job.agent!r} of seat {job.seat} failed: {value}")
        return value

    @property
    def alive(self) -> bool:
        return self.process.is_alive()

    def stop(self) -> None:
        """End the process at once (a search may be under way: nothing of it is kept)."""
        if self.process.pid is not None:
            self.process.kill()
            self.process.join(timeout=5.0)
        self._connection.close()
