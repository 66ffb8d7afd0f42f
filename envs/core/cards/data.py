"""Game-independent helpers for card games whose cards are data files (TOML + pydantic).

A card game keeps its schema (pydantic models) and its meaning of the fields in its own
folder; what every such game needs the same way lives here: reading a TOML file, and turning
validation failures into one error format that names where the problem is, so that a person
editing a data file can fix it without reading Python:

    ``pool.toml: card 'Pikeman': field 'hp': Input should be greater than or equal to 1``

A file is also held to limits on its size and shape (``MAX_FILE_BYTES``, ``MAX_DEPTH``,
``MAX_ITEMS``, ``MAX_RECORDS``), so that a malformed or hostile file is refused at once with
the place of the problem, never parsed for half a minute or until the stack runs out.
"""

from __future__ import annotations

import json
import stat
import tomllib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from os import PathLike
from pathlib import Path
from typing import Any, Generic, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

ModelT = TypeVar("ModelT", bound=BaseModel)
CardT = TypeVar("CardT")

POOL_FORMAT = 1
"""The version of the pool file format (a pool file's ``format`` key)."""
MAX_FILE_BYTES = 1_048_576
"""The largest card or deck file read, in bytes (1 MiB; the largest packaged file, HKK's
pool, has 24 KB). Checked before reading, and no more than this is ever read, so a huge file
or a device is refused at once."""
MAX_DEPTH = 16
"""How deep tables and arrays may nest in a file, the file itself counting as one (the
packaged files nest 8 deep)."""
MAX_ITEMS = 32
"""Items an array may hold, except a top-level array of tables (the packaged files' longest
such array, a Kult card's ``stations``, holds 8)."""
MAX_RECORDS = 1_000
"""Records (``[[card]]``, ``[[hero]]``, ...) a top-level array of tables may hold (the
packaged pools hold at most 100)."""
POOL_OPTION = "pool"
"""The option of card games that names the pool file; see also ``spec.DECKS_OPTION``."""


class StrictModel(BaseModel):
    """A record of a data file: unknown keys are refused (a typo is an error, not an
    ignored field) and values are not coerced (``"3"`` is not a number)."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class PoolHeader(StrictModel):
    """The top-level keys of a pool file besides its arrays of cards."""

    format: int
    name: str = Field(min_length=1)
    version: str = Field(min_length=1)

    @field_validator("format", mode="before")
    @classmethod
    def _format(cls, value: Any) -> int:
        """Exactly the integer ``POOL_FORMAT``: ``1.0`` and ``true`` equal 1 in Python but
        are not the version the file is written in."""
        if type(value) is not int or value != POOL_FORMAT:
            scalar = isinstance(value, bool | int | float | str)
            written = json.dumps(value) if scalar else repr(value)  # as TOML writes it
            raise ValueError(f"the file format's version is {POOL_FORMAT} (an integer), "
                             f"got {written}")  # fmt: skip
        return value


class CardDataError(ValueError):
    """A card or deck file that cannot be used, with the place of the problem in the message."""


class FieldError(ValueError):
    """Raised by a schema's cross-field validator to say which field is at fault, so that
    the ``CardDataError`` names it although pydantic reports such errors without a field."""

    def __init__(self, field: str, problem: str) -> None:
        super().__init__(problem)
        self.field = field


def location(source: str, card: str | None = None, field: str | None = None) -> str:
    """``"file: card 'X': field 'y'"``, leaving out the parts that are not known."""
    parts = [source]
    if card is not None:
        parts.append(f"card {card!r}")
    if field:
        parts.append(f"field {field!r}")
    return ": ".join(parts)


def data_error(source: str, problem: str, card: str | None = None, field: str | None = None):
    """A ``CardDataError`` saying ``problem`` at ``location(source, card, field)``."""
    return CardDataError(f"{location(source, card, field)}: {problem}")


def read_toml(path: str | Path) -> dict[str, Any]:
    """The parsed file, within the limits of size and shape (see the module docstring).
    Every way a file can fail to be read becomes a ``CardDataError`` naming it: missing, a
    directory or a device, too large, unreadable (permissions, I/O), not UTF-8 (TOML files
    are UTF-8 by definition), not valid TOML, or nested too deep or too long."""
    path = Path(path)
    text = _read_text(path)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise CardDataError(f"{path.name}: not valid TOML: {error}") from None
    except RecursionError:
        raise CardDataError(
            f"{path.name}: tables and arrays nested too deep to read; card data nests at most "
            f"{MAX_DEPTH} deep"
        ) from None
    check_shape(data, path.name)
    return data


def _read_text(path: Path) -> str:
    """The file's text: a regular file of at most ``MAX_FILE_BYTES``, its size checked
    before reading and no more than one byte beyond it read (a file may grow meanwhile)."""
    if "\0" in str(path):
        raise CardDataError(f"{str(path)!r}: not a file name (it holds a NUL character)")
    try:
        info = path.stat()
        if stat.S_ISDIR(info.st_mode):
            raise CardDataError(f"{path}: is a directory, not a TOML file")
        if not stat.S_ISREG(info.st_mode):
            raise CardDataError(f"{path}: not a regular file (a device, a pipe or a socket)")
        _check_size(path, info.st_size)
        with path.open("rb") as file:
            raw = file.read(MAX_FILE_BYTES + 1)
    except FileNotFoundError:
        raise CardDataError(f"{path}: no such file") from None
    except OSError as error:
        raise CardDataError(f"{path}: cannot be read: {error.strerror or error}") from None
    _check_size(path, len(raw))
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise CardDataError(
            f"{path.name}: not UTF-8 text (byte {error.start}: {error.reason}); "
            "save the file as UTF-8"
        ) from None


def _check_size(path: Path, size: int) -> None:
    if size > MAX_FILE_BYTES:
        raise CardDataError(
            f"{path.name}: more than {MAX_FILE_BYTES:,} bytes ({size:,}); a card or deck "
            "file is at most that large"
        )


def check_shape(data: dict[str, Any], source: str) -> None:
    """Refuse data nested deeper than ``MAX_DEPTH`` or with an array longer than
    ``MAX_ITEMS`` (``MAX_RECORDS`` for a top-level array of tables), naming the record (by
    its ``name``) and the field where it happens."""
    for key, value in data.items():
        if isinstance(value, list) and value and all(isinstance(r, dict) for r in value):
            if len(value) > MAX_RECORDS:
                raise data_error(
                    source, f"{len(value):,} entries; a file holds at most {MAX_RECORDS:,}",
                    field=key,
                )  # fmt: skip
            for index, record in enumerate(value):
                label = _label(record, "name", key, index)
                for name, inner in record.items():
                    _check_nested(inner, source, label, [name], depth=4)
        else:
            _check_nested(value, source, None, [key], depth=2)


def _check_nested(
    value: Any, source: str, label: str | None, loc: list[int | str], depth: int
) -> None:
    """``value``, found at ``loc`` and ``depth`` levels deep, within the limits."""
    if not isinstance(value, dict | list):
        return
    if depth > MAX_DEPTH:
        raise data_error(
            source, f"tables and arrays nested more than {MAX_DEPTH} deep", label, field_path(loc)
        )
    if isinstance(value, list) and len(value) > MAX_ITEMS:
        raise data_error(
            source, f"{len(value):,} items; an array holds at most {MAX_ITEMS}", label,
            field_path(loc),
        )  # fmt: skip
    items = value.items() if isinstance(value, dict) else enumerate(value)
    for key, inner in items:
        _check_nested(inner, source, label, [*loc, key], depth + 1)


def field_path(loc: Sequence[int | str]) -> str:
    """A pydantic error location as a readable field path, e.g. ``on_play[0].amount``."""
    text = ""
    for part in loc:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += f".{part}" if text else str(part)
    return text


def validate_record(
    model: type[ModelT], record: Any, source: str, label: str | None, field_prefix: str = ""
) -> ModelT:
    """``record`` validated as ``model``; the first failure becomes a ``CardDataError``
    naming ``source``, the record's ``label`` (e.g. a card name) and the failing field."""
    try:
        return model.model_validate(record)
    except ValidationError as error:
        first = error.errors()[0]
        loc = list(first["loc"])
        cause = first.get("ctx", {}).get("error")
        if isinstance(cause, FieldError):
            loc.append(cause.field)
        path = field_path([*([field_prefix] if field_prefix else []), *loc])
        message = first["msg"].removeprefix("Value error, ")
        raise data_error(source, message, label, path or None) from None


def validate_records(
    model: type[ModelT], records: Any, source: str, table: str, key: str = "name"
) -> list[ModelT]:
    """Each record of the array of tables ``table`` validated as ``model``; errors name the
    record by its ``key`` field (or its position when that is missing)."""
    if not isinstance(records, list) or not all(isinstance(r, dict) for r in records):
        raise data_error(source, f"[[{table}]] must be an array of tables", field=table)
    return [
        validate_record(model, record, source, _label(record, key, table, index))
        for index, record in enumerate(records)
    ]


def _label(record: dict[str, Any], key: str, table: str, index: int) -> str:
    value = record.get(key)
    return value if isinstance(value, str) and value else f"{table} #{index + 1}"


def listed_once(values: Sequence[Any]) -> Sequence[Any]:
    """``values`` as they are, if none is listed twice: for a list that is a set (keywords,
    subtypes), where a repeat can only be a mistake, never a stronger ability."""
    seen: list[Any] = []
    for value in values:
        if value in seen:
            raise ValueError(f"{value!r} is listed twice")
        seen.append(value)
    return values


def check_unique_names(names: Iterable[str], source: str) -> None:
    """Names identify cards in decks and in notation: two records may not share one
    (compared case-insensitively, as notation is read)."""
    seen: set[str] = set()
    for name in names:
        if name.lower() in seen:
            raise data_error(source, "the name is used twice", name, "name")
        seen.add(name.lower())


def find_named(entries: Iterable[Any], name: str) -> Any | None:
    """The entry called ``name``, compared case-insensitively as notation is read."""
    wanted = name.lower()
    return next((entry for entry in entries if entry.name.lower() == wanted), None)


@dataclass(frozen=True)
class CardPool(Generic[CardT]):
    """What every game's validated pool file has: its name and version (together the env's
    ``card_data_version``), the file it came from, and its cards by index, also found by
    name. A game's pool adds its other kinds of entry (heroes, Arcana)."""

    name: str
    version: str
    source: str
    cards: tuple[CardT, ...]

    @property
    def data_version(self) -> str:
        """What env metadata reports: the pool's name and version."""
        return f"{self.name} {self.version}"

    def card_named(self, name: str) -> CardT | None:
        return find_named(self.cards, name)


def card_data_metadata(game: Any) -> dict[str, str]:
    """Env metadata naming the pool a card game plays with (``game.pool``), so results
    name the cards they were measured on: ``GameSpec(metadata_of=card_data_metadata)``."""
    return {"card_data_version": game.pool.data_version}


@dataclass(frozen=True)
class PackagedData:
    """Where a game's packaged card data lies: ``<package>/data/`` holds its starter
    ``pool.toml`` and ``decks/<name>.toml`` for each of its packaged ``decks``."""

    package: str
    decks: tuple[str, ...]
    pool: str = "pool.toml"

    def path(self, *parts: str) -> Path:
        """A packaged data file, e.g. ``path("decks", "mage.toml")``."""
        return Path(str(resources.files(self.package).joinpath("data", *parts)))

    def pool_path(self, path: str | Path | None) -> Path:
        """A pool file given by path, or the starter pool for ``None``."""
        if path is None:
            return self.path(self.pool)
        if not isinstance(path, str | PathLike):
            raise CardDataError(
                f"option {POOL_OPTION}: a path to a pool file, got {type(path).__name__} {path!r}"
            )
        return Path(path)

    def deck_path(self, spec: str | Path) -> Path:
        """The file of a deck spec: a packaged deck's name, or a path to a TOML file."""
        if not isinstance(spec, str | PathLike):
            raise CardDataError(
                f"option decks: a deck is a packaged deck's name ({', '.join(self.decks)}) or "
                f"a path to a .toml file, got {type(spec).__name__} {spec!r}"
            )
        if isinstance(spec, str) and spec in self.decks:
            return self.path("decks", f"{spec}.toml")
        path = Path(spec)
        if not str(spec).strip() or (path.suffix != ".toml" and not path.exists()):
            raise CardDataError(
                f"deck {str(spec)!r} is neither a packaged deck ({', '.join(self.decks)}) "
                "nor a .toml file"
            )
        return path

    def read_pool(self, path: str | Path | None) -> tuple[dict[str, Any], str]:
        """The parsed pool file at ``path`` (``None``: the starter pool) and the name its
        errors give it."""
        path = self.pool_path(path)
        return read_toml(path), path.name

    def read_deck(self, spec: str | Path) -> tuple[dict[str, Any], str]:
        """The parsed deck file of ``spec`` (as ``deck_path``) and the name its errors
        give it."""
        path = self.deck_path(spec)
        return read_toml(path), path.name


# ----- pools ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class PoolTable:
    """One array of tables of a pool file (``[[card]]``, ``[[hero]]``, ...): its records
    are validated by ``schema``, or by ``schemas[record[kind]]`` where a record's
    ``kind`` field picks its schema; ``needed`` is the problem an empty table is."""

    key: str
    schema: type[BaseModel] | None = None
    schemas: Mapping[str, type[BaseModel]] | None = None
    kind: str = "type"
    needed: str = ""

    def validate(self, records: Any, source: str) -> list[Any]:
        if self.schema is not None:
            return validate_records(self.schema, records, source, self.key)
        if not isinstance(records, list) or not all(isinstance(r, dict) for r in records):
            raise data_error(source, f"[[{self.key}]] must be an array of tables", field=self.key)
        return [self._validate_one(record, source, index) for index, record in enumerate(records)]

    def _validate_one(self, record: dict[str, Any], source: str, index: int) -> Any:
        label = _label(record, "name", self.key, index)
        kind = record.get(self.kind)
        schema = (self.schemas or {}).get(kind) if isinstance(kind, str) else None
        if schema is None:
            known = ", ".join(self.schemas or {})
            raise data_error(source, f"unknown {self.key} {self.kind} {kind!r}; known: {known}",
                             label, self.kind)  # fmt: skip
        return validate_record(schema, record, source, label)


def read_pool(
    data: dict[str, Any], source: str, tables: Sequence[PoolTable]
) -> tuple[PoolHeader, dict[str, list[Any]]]:
    """A parsed pool file's header and the validated records of each of ``tables``: the
    header first, then every table, then that none is empty, then that no two records
    share a name (over all tables, as decks and notation find any of them by name)."""
    keys = {table.key for table in tables}
    header = {key: value for key, value in data.items() if key not in keys}
    meta = validate_record(PoolHeader, header, source, None)
    records = {table.key: table.validate(data.get(table.key, []), source) for table in tables}
    for table in tables:
        if not records[table.key]:
            raise data_error(source, table.needed, field=table.key)
    check_unique_names((record.name for table in tables for record in records[table.key]), source)
    return meta, records


# ----- decks ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class DeckRules:
    """A game's deck-building rules as data, which ``count_copies`` and ``check_deck_size``
    check. The ``*_rule`` texts are how an error states the rule, with its rule id:
    ``size_rule`` with ``{size}`` and ``{total}``, ``copies_rule`` with ``{limit}``."""

    size: int
    """The cards a deck holds (every listed card counts), exactly or at least."""
    exact: bool
    """``True``: exactly ``size`` cards; ``False``: at least ``size``."""
    max_copies: int
    """Copies of one card a deck may hold."""
    size_rule: str
    copies_rule: str
    unique_copies: int | None = None
    """Copies of a card whose ``unique`` is true a deck may hold (``None``: no such cards)."""
    unique_rule: str = ""


def count_copies(
    listed: Mapping[str, int],
    find: Callable[[str], Any | None],
    pool_name: str,
    rules: DeckRules,
    source: str,
    check_entry: Callable[[Any, int], None] | None = None,
) -> list[tuple[Any, int]]:
    """The pool entries a deck's ``[cards]`` lists (name -> copies) with their copies, in
    the order first listed. Names are found by ``find`` case-insensitively, as notation
    reads them, so copies are counted per entry, not per spelling. Each entry is held to
    ``rules``' copies, then to ``check_entry`` (a game's own rule, e.g. allegiance)."""
    counted: dict[int, _Listed] = {}  # by id(entry): pool entries need not be hashable
    for name, copies in listed.items():
        entry = find(name)
        if entry is None:
            raise data_error(source, f"not in the pool {pool_name!r}", name, "cards")
        if copies < 1:
            problem = f"{copies} copies; list a card with 1 to {rules.max_copies}"
            raise data_error(source, problem, name, "cards")
        record = counted.setdefault(id(entry), _Listed(entry))
        record.copies += copies
        record.spellings.append(name)
    for record in counted.values():
        _check_limit(record, rules, source)
        if check_entry is not None:
            check_entry(record.entry, record.copies)
    return [(record.entry, record.copies) for record in counted.values()]


@dataclass
class _Listed:
    """A pool entry of a deck: its copies over every spelling it is listed under."""

    entry: Any
    copies: int = 0
    spellings: list[str] = field(default_factory=list)


def _check_limit(listed: _Listed, rules: DeckRules, source: str) -> None:
    unique = rules.unique_copies is not None and getattr(listed.entry, "unique", False)
    limit = rules.unique_copies if unique else rules.max_copies
    if listed.copies > limit:
        rule = rules.unique_rule if unique else rules.copies_rule
        names = listed.spellings
        also = f" (listed as {', '.join(map(repr, names))})" if len(names) > 1 else ""
        problem = f"{listed.copies} copies{also}: {rule.format(limit=limit)}"
        raise data_error(source, problem, listed.entry.name, "cards")


def check_deck_size(total: int, rules: DeckRules, source: str) -> None:
    """A deck of ``total`` cards holds as many as ``rules`` ask."""
    refused = total != rules.size if rules.exact else total < rules.size
    if refused:
        problem = rules.size_rule.format(size=rules.size, total=total)
        raise data_error(source, problem, field="cards")


def deck_entries(counted: Sequence[tuple[Any, int]], rules: DeckRules, source: str) -> list[Any]:
    """Every copy of the entries ``count_copies`` counted, in order, once their total is
    held to ``rules``' size (``check_deck_size``): the deck as its game lists it."""
    check_deck_size(sum(copies for _, copies in counted), rules, source)
    return [entry for entry, copies in counted for _ in range(copies)]
