"""The structured picture of a position (``State.view``): what a page draws, for any game.

``render(observer)`` is text for a terminal; ``view(observer)`` is the same information as
JSON-ready data, so that one page script can draw every game without knowing its rules:
areas of pieces (cards, discs, tokens) laid out in rows, grids or face-down piles, a few
counters per player, and, for the player to move, the legal moves, each naming the pieces
it is about (the page makes those pieces clickable). The information rules are those of
``render``: ``observer=None`` shows everything, a seat sees only what that player may, and
the generic checks (``checks.check_no_text_leak``) prove that a seat's view is unchanged
when ``resample_hidden`` re-draws what the seat cannot see.

A view is a dict (``make_view`` builds it, ``check_view`` checks one):

- ``game`` (the game's name), ``observer`` (a seat, or ``None``), ``status`` (one line:
  whose turn, which step), ``to_move`` (the seat to move; ``None`` once the game is over);
- ``players``: one ``{"seat", "name", "counters"}`` per seat, ``counters`` a dict of short
  label -> number or text (life, gold, cards in hand);
- ``areas``: ``{"id", "title", "owner", "layout", "pieces"}`` each (``owner`` a seat or
  ``None`` for a shared area); ``layout`` is ``row`` (pieces side by side), ``grid``
  (also ``rows`` and ``cols``; each piece has a ``cell`` ``[row, col]``, row 0 drawn on
  top; optionally ``row_labels`` and ``col_labels``, the board's rank and file names as
  the notation writes them, top to bottom and left to right) or ``pile`` (also ``count``:
  the cards in it, face-down ones included);
- a piece: ``{"id", "label", "detail", "face_down", "tags", "marks"}``; ``id`` is unique
  in the view, ``label`` short text, ``detail`` a longer text (a card's rules), ``tags``
  style hints (``passive``, ``damaged``, a suit or a colour), ``marks`` small label ->
  number or text badges (damage, counters); a face-up card also has ``card``, its face
  from the card data (``card_face``: name, kind, cost, stats, keywords, rule text), so a
  page draws it as a card; a face-down piece never has one; ``on`` (optional) is the id
  of the piece this one is attached to (an item on its carrier), drawn on it;
- ``moves``: the legal moves when the observer is the player to move (every seat's turn
  for ``observer=None``): ``{"action", "text", "pieces", "source", "target"}``, ``text``
  the notation ``action_to_string(action, observer)``, ``pieces`` the ids of the pieces
  the move is about (none for a button such as ``pass``), ``source`` the piece a player
  picks first (the card played, the disc moved) and ``target`` the piece picked second
  (where it goes, what it hits), each ``None`` when the move has none; empty for anyone
  else;
- ``phase``: the step of the turn in a few words (``""`` when the game has none);
  ``last_moves``: the last move of each seat that has moved, ``{"seat", "text",
  "pieces"}`` (its notation as the observer may read it, the pieces it moved from and to,
  as they are now); ``outcome``: once the game is over, its result in words ("Silver wins:
  all discs lost"), else ``None``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from tabletop.envs.core.protocol import TERMINAL, State, seat_name

Value = int | float | str
LAYOUTS = ("row", "grid", "pile")


def piece(
    piece_id: str,
    label: str,
    *,
    detail: str = "",
    face_down: bool = False,
    tags: Iterable[str] = (),
    marks: Mapping[str, Value] | None = None,
    cell: tuple[int, int] | None = None,
    card: Mapping[str, Any] | None = None,
    on: str | None = None,
) -> dict[str, Any]:
    """One piece of an area; ``cell`` places it in a grid area, ``card`` (``card_face``)
    is the face of a face-up card, ``on`` the piece it is attached to."""
    if card is not None and face_down:
        raise ValueError(f"piece {piece_id!r}: a face-down card shows no face")
    made: dict[str, Any] = {
        "id": piece_id,
        "label": label,
        "detail": detail,
        "face_down": face_down,
        "tags": list(tags),
        "marks": dict(marks or {}),
    }
    if cell is not None:
        made["cell"] = list(cell)
    if card is not None:
        made["card"] = dict(card)
    if on is not None:
        made["on"] = on
    return made


CARD_FACE_KEYS = ("name", "kind", "cost", "stats", "keywords", "text")


def card_face(
    name: str,
    kind: str,
    *,
    cost: Value | None = None,
    stats: Mapping[str, Value] | None = None,
    keywords: Iterable[str] = (),
    text: str = "",
) -> dict[str, Any]:
    """What a card's face says, from the card data: its ``name``, ``kind`` (unit, spell,
    building...), ``cost`` (``None`` for a card without one), ``stats`` in print order
    (``{"attack": 3, "health": 2}``), ``keywords`` and full rule ``text``. The page draws
    the short form on the card and all of it on hover or tap."""
    return {
        "name": name,
        "kind": kind,
        "cost": cost,
        "stats": dict(stats or {}),
        "keywords": list(keywords),
        "text": text,
    }


def last_move(seat: int, text: str, pieces: Sequence[str] = ()) -> dict[str, Any]:
    """A seat's last move for ``make_view(last_moves=...)``: its notation as the observer
    may read it and the ids of the pieces it moved from and to, as they are now."""
    return {"seat": seat, "text": text, "pieces": list(pieces)}


def hidden_piece(piece_id: str, label: str = "?") -> dict[str, Any]:
    """A card the observer may not see (an opponent's hand card): only that it is there."""
    return piece(piece_id, label, face_down=True)


def area(
    area_id: str,
    title: str,
    pieces: Sequence[dict[str, Any]],
    *,
    owner: int | None = None,
    layout: str = "row",
    rows: int | None = None,
    cols: int | None = None,
    count: int | None = None,
    row_labels: Sequence[str] | None = None,
    col_labels: Sequence[str] | None = None,
) -> dict[str, Any]:
    """An area of pieces; a ``grid`` needs ``rows`` and ``cols`` (and may name them with
    ``row_labels`` and ``col_labels``), a ``pile`` its ``count``."""
    made: dict[str, Any] = {
        "id": area_id,
        "title": title,
        "owner": owner,
        "layout": layout,
        "pieces": list(pieces),
    }
    if layout == "grid":
        made["rows"], made["cols"] = rows, cols
        if row_labels is not None:
            made["row_labels"] = list(row_labels)
        if col_labels is not None:
            made["col_labels"] = list(col_labels)
    if layout == "pile":
        made["count"] = len(pieces) if count is None else count
    return made


def player(seat: int, name: str, counters: Mapping[str, Value]) -> dict[str, Any]:
    return {"seat": seat, "name": name, "counters": dict(counters)}


def make_view(
    state: State,
    observer: int | None,
    *,
    status: str,
    players: Sequence[dict[str, Any]],
    areas: Sequence[dict[str, Any]],
    move_pieces: Callable[[int], Sequence[str]],
    move_ends: Callable[[int], tuple[str | None, str | None]] | None = None,
    phase: str = "",
    last_moves: Sequence[dict[str, Any]] = (),
    outcome: str | None = None,
) -> dict[str, Any]:
    """The view dict; ``move_pieces(action)`` names the pieces a legal move is about, and
    ``move_ends(action)`` its source and target (by default the first two pieces it names).
    Moves are listed only for the player to move (or everyone, ``observer=None``), in the
    observer's notation, so a seat's view never depends on another seat's options."""
    to_move = state.current_player
    shows_moves = to_move != TERMINAL and observer in (None, to_move)
    moves = []
    for action in state.legal_actions() if shows_moves else ():
        pieces = list(move_pieces(action))
        source, target = (move_ends or _first_two(pieces))(action)
        moves.append(
            {
                "action": action,
                "text": state.action_to_string(action, observer),
                "pieces": pieces,
                "source": source,
                "target": target,
            }
        )
    return {
        "game": state.game.name,
        "observer": observer,
        "status": status,
        "phase": phase,
        "to_move": None if to_move == TERMINAL else to_move,
        "players": list(players),
        "areas": list(areas),
        "moves": moves,
        "last_moves": list(last_moves),
        "outcome": (outcome or plain_outcome(state)) if to_move == TERMINAL else None,
    }


def plain_outcome(state: State) -> str:
    """The result in words from the returns alone, for a game that gives none of its own:
    who scored best, or that all scored the same."""
    returns = state.returns()
    best = max(returns)
    winners = [seat for seat, value in enumerate(returns) if value == best]
    if len(winners) == len(returns):
        return "Game over: every player scores " + f"{best:g}"
    names = " and ".join(seat_name(state.game, seat) for seat in winners)
    return f"{names[0].upper()}{names[1:]} {'wins' if len(winners) == 1 else 'win'}"


def _first_two(pieces: Sequence[str]) -> Callable[[int], tuple[str | None, str | None]]:
    """The default ends of a move: the first piece it names, then the second."""
    ends = (pieces[0] if pieces else None, pieces[1] if len(pieces) > 1 else None)
    return lambda action: ends


def text_view(state: State, observer: int | None) -> dict[str, Any]:
    """The plainest view: ``render(observer)`` as one piece, moves as buttons. For games
    whose picture is only text (the test suite's small games); it shows exactly what
    ``render`` shows, so it leaks nothing ``render`` does not."""
    picture = state.render(observer)
    return make_view(
        state,
        observer,
        status=picture.splitlines()[0] if picture else "",
        players=[player(seat, f"player {seat}", {}) for seat in range(state.game.num_players)],
        areas=[area("position", "Position", [piece("position", picture)])],
        move_pieces=lambda action: (),
    )


def check_view(view: Any, where: str = "") -> None:
    """Raise ``AssertionError`` naming the first thing of ``view`` that breaks the format
    above (the page relies on it), and make sure it survives a JSON round trip."""
    place = f" ({where})" if where else ""
    assert isinstance(view, dict), f"a view is a dict, got {type(view).__name__}{place}"
    for key in VIEW_KEYS:
        assert key in view, f"view lacks {key!r}{place}"
    assert json.loads(json.dumps(view)) == view, f"view does not survive JSON{place}"
    for seat in view["players"]:
        assert set(seat) == {"seat", "name", "counters"}, f"bad player entry {seat}{place}"
    ids: set[str] = set()
    for shown in view["areas"]:
        _check_area(shown, ids, place)
    carriers = [item for shown in view["areas"] for item in shown["pieces"] if "on" in item]
    for item in carriers:
        assert item["on"] in ids, f"piece {item['id']!r} is on a piece not in the view{place}"
    for move in view["moves"]:
        assert set(move) == MOVE_KEYS, f"bad move entry {move}{place}"
        ends = [end for end in (move["source"], move["target"]) if end is not None]
        unknown = [p for p in (*move["pieces"], *ends) if p not in ids]
        assert not unknown, f"move {move['text']!r} names pieces not in the view {unknown}{place}"
    for shown in view["last_moves"]:
        assert set(shown) == {"seat", "text", "pieces"}, f"bad last move {shown}{place}"
        unknown = [p for p in shown["pieces"] if p not in ids]
        assert not unknown, f"last move {shown['text']!r} names pieces not in the view{place}"
    over = view["to_move"] is None
    assert isinstance(view["outcome"], str) == over, f"an outcome exactly when over{place}"


VIEW_KEYS = (
    "game",
    "observer",
    "status",
    "phase",
    "to_move",
    "players",
    "areas",
    "moves",
    "last_moves",
    "outcome",
)
MOVE_KEYS = {"action", "text", "pieces", "source", "target"}


def _check_card(item: dict[str, Any], place: str) -> None:
    """A face-up card's face has every field; a face-down piece has none."""
    if "card" not in item:
        return
    assert not item["face_down"], f"face-down piece {item['id']!r} shows a card face{place}"
    face = item["card"]
    assert tuple(face) == CARD_FACE_KEYS, f"card {item['id']!r}: bad face keys {list(face)}{place}"
    assert isinstance(face["stats"], dict) and isinstance(face["keywords"], list), (
        f"card {item['id']!r}: stats is a dict, keywords a list{place}"
    )


def _check_area(shown: dict[str, Any], ids: set[str], place: str) -> None:
    assert shown.get("layout") in LAYOUTS, f"area {shown.get('id')!r}: bad layout{place}"
    for key in ("id", "title", "owner", "pieces"):
        assert key in shown, f"area lacks {key!r}: {shown}{place}"
    grid = shown["layout"] == "grid"
    for item in shown["pieces"]:
        for key in ("id", "label", "detail", "face_down", "tags", "marks"):
            assert key in item, f"piece lacks {key!r}: {item}{place}"
        assert item["id"] not in ids, f"piece id {item['id']!r} twice in the view{place}"
        _check_card(item, place)
        ids.add(item["id"])
        if grid:
            row, col = item["cell"]
            assert 0 <= row < shown["rows"] and 0 <= col < shown["cols"], (
                f"piece {item['id']!r} outside the grid {shown['id']!r}{place}"
            )
    if grid:
        for key, size in (("row_labels", shown["rows"]), ("col_labels", shown["cols"])):
            labels = shown.get(key, [""] * size)
            assert len(labels) == size, f"grid {shown['id']!r}: {key} is not one per line{place}"
    if shown["layout"] == "pile":
        assert shown["count"] >= len(shown["pieces"]), f"pile {shown['id']!r} count{place}"
