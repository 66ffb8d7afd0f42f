"""Replays: any finished game, stepped forward and back, seen whole (nothing is hidden
any more once a game is over).

A replay is rebuilt from the stored seed and actions, each action checked against the text
stored with it. Replayed games are kept (a few, least recently asked dropped first) with a
copy of the state every ``CHECKPOINT`` plies, so a step replays at most that many moves.
Game records (the ``games.jsonl`` lines that ``tabletop eval --out`` writes) are imported as
finished tables with no seat links, under an id made from the record itself (importing it
again changes nothing); an import is refused unless the record replays to its returns.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections import OrderedDict
from pathlib import Path
from typing import Any

from tabletop import envs
from tabletop.envs.core.protocol import IllegalActionError, State
from tabletop.matches.records import GameRecord, RecordError, read_records
from tabletop.web.store import StoredTable, TableStore
from tabletop.web.tables import (
    MoveLog,
    NotFoundError,
    TableError,
    check_packaged_data,
    outcome,
    result,
)

CHECKPOINT = 32
"""Plies between two kept copies of a replayed game's state."""
KEPT_REPLAYS = 8
"""Replayed games kept in memory."""


class Replay:
    """One finished game, replayed once: its move log and a state every ``CHECKPOINT``."""

    def __init__(self, stored: StoredTable) -> None:
        self.stored = stored
        self.moves = MoveLog(stored.game, stored.options, stored.seed)
        self.checkpoints: list[State] = [self.moves.state.clone()]
        for ply, (action, text) in enumerate(zip(stored.actions, stored.action_texts, strict=True)):
            self.moves.apply(action, text)
            if (ply + 1) % CHECKPOINT == 0:
                self.checkpoints.append(self.moves.state.clone())

    @property
    def plies(self) -> int:
        return len(self.stored.actions)

    def state_at(self, ply: int) -> State:
        """The position after ``ply`` moves."""
        state = self.checkpoints[ply // CHECKPOINT].clone()
        for action in self.stored.actions[ply - ply % CHECKPOINT : ply]:
            state.apply(action)
        return state

    def frame(self, ply: int) -> dict[str, Any]:
        """What the replay page draws at ``ply``."""
        state = self.state_at(ply)
        return {
            "table": self.stored.id,
            "game": self.stored.game,
            "title": envs.spec(self.stored.game).title,
            "seats": self.stored.seats,
            "ply": ply,
            "plies": self.plies,
            "view": state.view(None),
            "log": self.moves.shown_to(None, ply),
            "result": result(state) if state.is_terminal() else None,
        }


class Replays:
    """The finished games of a store, replayed on demand and kept (``KEPT_REPLAYS``)."""

    def __init__(self, store: TableStore) -> None:
        self.store = store
        self._kept: OrderedDict[str, Replay] = OrderedDict()
        self._lock = threading.Lock()

    def listing(self) -> list[dict[str, Any]]:
        """Every finished game, newest first, as the replay list shows it: the game's
        display name, the seats, the result in words and the length. A row stored before
        results were kept in words gets its words from a replay, once (they are stored)."""
        entries = []
        for stored in self.store.all(finished=True):
            if stored.outcome is None:
                stored.outcome = outcome(self._replay(stored.id).moves.state)
                self.store.save(stored)
            entries.append({
                "id": stored.id, "game": stored.game, "title": envs.spec(stored.game).title,
                "options": stored.options, "seats": stored.seats, "outcome": stored.outcome,
                "plies": len(stored.actions), "returns": stored.returns,
                "created": stored.created,
            })  # fmt: skip
        return entries

    def frame(self, table_id: str, ply: int | None) -> dict[str, Any]:
        """Frame ``ply`` (the end by default) of finished table ``table_id``."""
        replay = self._replay(table_id)
        if ply is None:
            ply = replay.plies
        if not 0 <= ply <= replay.plies:
            raise TableError(f"ply must be in 0..{replay.plies}, got {ply}")
        return replay.frame(ply)

    def _replay(self, table_id: str) -> Replay:
        with self._lock:
            if table_id in self._kept:
                self._kept.move_to_end(table_id)
                return self._kept[table_id]
        stored = self.store.load(table_id)
        if stored is None:
            raise NotFoundError(f"no game {table_id!r}")
        if not stored.finished:
            raise NotFoundError(f"game {table_id!r} is still being played: no replay yet")
        replay = Replay(stored)
        with self._lock:
            self._kept[table_id] = replay
            while len(self._kept) > KEPT_REPLAYS:
                self._kept.popitem(last=False)
        return replay


def import_record(store: TableStore, document: Any, *, packaged_data: bool = True) -> str:
    """Store a game record (one parsed line of a records file) as a finished table; its id.
    A record of an unknown game, with bad options, or that does not replay to its own
    returns is refused with the reason; so is, with ``packaged_data`` (a record a client
    sent), one whose card options are not packaged data (``check_packaged_data``)."""
    try:
        record = GameRecord.from_json(document)
    except RecordError as error:
        raise TableError(f"not a game record: {error}") from None
    if record.game not in envs.names():
        raise NotFoundError(f"unknown game {record.game!r}")
    if packaged_data:
        check_packaged_data(record.game, record.options)
    stored = StoredTable(
        id=record_id(record),
        game=record.game,
        options=dict(record.options),
        seed=record.seed,
        seats=list(record.seats),
        tokens=[None] * len(record.seats),
        omniscient=True,
        pace=0.0,
        created=time.time(),
        actions=list(record.actions),
        action_texts=list(record.action_texts),
        finished=True,
        returns=list(record.returns),
        stats=dict(record.stats),
    )
    stored.outcome = outcome(_checked_replay(stored).moves.state)
    store.save(stored)
    return stored.id


def record_id(record: GameRecord) -> str:
    """The same record always gets the same id."""
    text = json.dumps(record.to_json(), sort_keys=True)
    return "r" + hashlib.sha256(text.encode()).hexdigest()[:11]


def import_records(store: TableStore, path: str | Path) -> list[str]:
    """Import every record of a records file (``tabletop eval --out``'s ``games.jsonl``):
    the server's operator names the file, so its records' card options may name files."""
    try:
        records = read_records(path)
    except (OSError, RecordError) as error:
        raise TableError(f"{path}: {error}") from None
    return [import_record(store, record.to_json(), packaged_data=False) for record in records]


def _checked_replay(stored: StoredTable) -> Replay:
    """The replay of an imported record, which must reach the end and returns it claims."""
    try:
        replay = Replay(stored)
    except (KeyError, ValueError, TypeError, IllegalActionError) as error:
        raise TableError(f"the record does not replay: {error}") from None
    state = replay.moves.state
    if not state.is_terminal() or [float(r) for r in state.returns()] != stored.returns:
        raise TableError("the record does not replay to its end and returns")
    return replay
