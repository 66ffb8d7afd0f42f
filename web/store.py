"""The web table's games in SQLite: every table as it stands, so nothing is lost.

A table is stored as what rebuilds it exactly: the game, its options, the seed of the deal,
the seat specs and their secret tokens, and the actions played so far (a ``Game`` promises
that the same seed and actions give the same game). A table is written when it is made and
after every move, in one transaction each, so a server killed at any moment restarts with
every game as its last move left it. A finished table also keeps the returns, stats and
result in words (``outcome``) of its ending, which is what the replay list shows; records
that ``tabletop eval`` saved are imported as finished tables with no tokens (replays only).
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    options TEXT NOT NULL,
    seed INTEGER NOT NULL,
    seats TEXT NOT NULL,
    tokens TEXT NOT NULL,
    omniscient INTEGER NOT NULL,
    pace REAL NOT NULL,
    actions TEXT NOT NULL,
    action_texts TEXT NOT NULL,
    finished INTEGER NOT NULL,
    returns TEXT,
    stats TEXT,
    created REAL NOT NULL,
    outcome TEXT
)
"""
COLUMNS = (
    "id", "game", "options", "seed", "seats", "tokens", "omniscient", "pace", "actions",
    "action_texts", "finished", "returns", "stats", "created", "outcome",
)  # fmt: skip
"""The row's columns, in the order ``save`` writes them and ``_stored`` reads them."""
ADDED_COLUMNS = {"outcome": "TEXT"}
"""Columns added since the first schema: a file written before them gains them, empty."""


@dataclass
class StoredTable:
    """One table's row: what rebuilds the game and who may play which seat."""

    id: str
    game: str
    options: dict[str, Any]
    seed: int
    seats: list[str]
    """Per seat: ``human`` or an agent spec."""
    tokens: list[str | None]
    """Per seat: the secret of a human seat's link, ``None`` for an agent."""
    omniscient: bool
    """Whether spectators see everything (only tables without human seats allow it)."""
    pace: float
    """Seconds between two agent moves."""
    created: float
    actions: list[int] = field(default_factory=list)
    action_texts: list[str] = field(default_factory=list)
    """Each action's full text, as it was played (checked again on replay)."""
    finished: bool = False
    returns: list[float] | None = None
    stats: dict[str, float] | None = None
    outcome: str | None = None
    """A finished game's result in words; None for a row finished before it was kept."""


class TableStore:
    """The SQLite file of a server (``:memory:`` for tests); safe to share across threads."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._lock = threading.Lock()
        self._connection = sqlite3.connect(self.path, check_same_thread=False)
        # Write-ahead logging: a commit appends to the log instead of rewriting pages
        # through a rollback journal, and (synchronous NORMAL) survives a killed server.
        self._connection.execute("PRAGMA journal_mode=WAL")
        self._connection.execute("PRAGMA synchronous=NORMAL")
        with self._transaction() as cursor:
            cursor.execute(SCHEMA)
            present = {row[1] for row in cursor.execute("PRAGMA table_info(tables)")}
            for name, kind in ADDED_COLUMNS.items():
                if name not in present:
                    cursor.execute(f"ALTER TABLE tables ADD COLUMN {name} {kind}")

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Cursor]:
        with self._lock, self._connection:
            yield self._connection.cursor()

    def save(self, table: StoredTable) -> None:
        """Insert or replace the whole row (a table's row is small: ids, not states)."""
        row = (
            table.id, table.game, json.dumps(table.options), table.seed, json.dumps(table.seats),
            json.dumps(table.tokens), int(table.omniscient), table.pace,
            json.dumps(table.actions), json.dumps(table.action_texts), int(table.finished),
            None if table.returns is None else json.dumps(table.returns),
            None if table.stats is None else json.dumps(table.stats), table.created,
            table.outcome,
        )  # fmt: skip
        with self._transaction() as cursor:
            cursor.execute(_INSERT, row)

    def load(self, table_id: str) -> StoredTable | None:
        with self._transaction() as cursor:
            row = cursor.execute(f"{_SELECT} WHERE id = ?", (table_id,)).fetchone()
        return None if row is None else _stored(row)

    def all(self, *, finished: bool | None = None) -> list[StoredTable]:
        """Every table, newest first; only finished or only live ones when asked."""
        query = _SELECT
        if finished is not None:
            query += f" WHERE finished = {int(finished)}"
        with self._transaction() as cursor:
            rows = cursor.execute(query + " ORDER BY created DESC").fetchall()
        return [_stored(row) for row in rows]

    def close(self) -> None:
        self._connection.close()


_INSERT = (
    f"INSERT OR REPLACE INTO tables ({', '.join(COLUMNS)}) VALUES ({', '.join('?' * len(COLUMNS))})"
)
_SELECT = f"SELECT {', '.join(COLUMNS)} FROM tables"


def _stored(row: tuple[Any, ...]) -> StoredTable:
    (table_id, game, options, seed, seats, tokens, omniscient, pace, actions, texts, finished,
     returns, stats, created, outcome) = row  # fmt: skip
    return StoredTable(
        id=table_id,
        game=game,
        options=json.loads(options),
        seed=seed,
        seats=json.loads(seats),
        tokens=json.loads(tokens),
        omniscient=bool(omniscient),
        pace=pace,
        created=created,
        actions=json.loads(actions),
        action_texts=json.loads(texts),
        finished=bool(finished),
        returns=None if returns is None else json.loads(returns),
        stats=None if stats is None else json.loads(stats),
        outcome=outcome,
    )
