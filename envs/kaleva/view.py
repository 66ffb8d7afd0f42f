"""Kaleva's structured view (``State.view``, format in ``core.view``): the information of
``render(observer)`` as data, so that the web table can draw the board, the card slots under
its columns and the piles, and make the discs, squares and cards of each move clickable."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from tabletop.envs.core.view import area, hidden_piece, make_view, piece, player
from tabletop.envs.kaleva.board import (
    BRONZE,
    CARD_NAMES,
    COL_OF,
    COLS,
    COLUMN_LETTERS,
    CORNERS,
    HOME_ROW,
    KEEP_TUURI,
    MOVE_BASE,
    MOVES,
    NO_SWAP,
    NUM_SQUARES,
    PLACE_BASE,
    PLAYER_NAMES,
    RETURN_BASE,
    ROW_OF,
    ROWS,
    SILVER,
    SWAP_BASE,
    SWAP_PAIRS,
    TERNA,
    TUURI,
    TUURI_BASE,
    card_text,
    square_name,
)

if TYPE_CHECKING:
    from tabletop.envs.kaleva.engine import KalevaState

SEATS = (SILVER, BRONZE)
COLOURS = ("silver", "bronze")
"""Each seat's colour, the style tag of its discs and cards."""
ABILITIES = {
    TUURI: "may reveal an enemy card (KV-4.7)",
    TERNA: "attacked by a higher card, swaps the two discs instead of losing (KV-4.6)",
}
"""The special cards' rules, for their detail."""


def view(state: KalevaState, observer: int | None = None) -> dict[str, Any]:
    """The position as ``observer`` may see it (everything for ``None``), like ``render``:
    the board, both players' cards (Bronze's side first, as drawn), the latest fight."""
    areas = [board_area(state, observer)]
    for seat in (BRONZE, SILVER):
        areas += player_areas(state, seat, observer)
    if state.last_fight is not None:
        areas.append(fight_area(state.last_fight))
    return make_view(
        state,
        observer,
        status=state.status_line(observer),
        players=[player(seat, PLAYER_NAMES[seat], counters(state, seat)) for seat in SEATS],
        areas=areas,
        move_pieces=lambda action: move_pieces(state, action),
    )


def counters(state: KalevaState, seat: int) -> dict[str, int | str]:
    """The public figures of ``seat``'s player line, and its discs in the enemy shield."""
    return {
        "in enemy shield": state.discs_in_shield(seat),
        "lost discs": state.lost[seat],
        "deck": len(state.decks[seat]),
        "discard": len(state.discards[seat]),
        "shown": "".join(card_text(card) for card in state.shown[seat]),
    }


def square_id(square: int) -> str:
    return f"board/{square_name(square)}"


def slot_id(seat: int, col: int) -> str:
    return f"cards{seat}/{col}"


def arrange_id(seat: int, index: int) -> str:
    return f"arrange{seat}/{index}"


def lost_id(seat: int, index: int) -> str:
    return f"lost{seat}/{index}"


# ----- areas ----------------------------------------------------------------------------------


def board_area(state: KalevaState, observer: int | None) -> dict[str, Any]:
    """One piece per square, row 4 (Bronze's shield) on top as ``render`` draws it: a disc
    tagged with its colour, or an empty square to click. The two squares of a move awaiting
    its Tuuri decision are tagged, unless ``observer`` must not know of the pause."""
    moving: dict[int, str] = {}
    if state.pending is not None and not state.pause_hidden_from(observer):
        moving = dict(zip(state.pending, ("moving_from", "moving_to"), strict=True))
    pieces = [_square_piece(state, square, moving) for square in range(NUM_SQUARES)]
    return area("board", "Board", pieces, layout="grid", rows=ROWS, cols=COLS)


def _square_piece(state: KalevaState, square: int, moving: dict[int, str]) -> dict[str, Any]:
    row, disc, name = ROW_OF[square], state.board[square], square_name(square)
    tags = [f"{COLOURS[seat]}_shield" for seat in SEATS if HOME_ROW[seat] == row]
    if disc in SEATS:
        label, detail = PLAYER_NAMES[disc][0], f"{PLAYER_NAMES[disc]} disc on {name}"
        tags += [COLOURS[disc], *(["frozen"] if state.is_frozen(square) else [])]
    else:
        label, detail = "", name
        tags.append("empty")
    tags += [moving[square]] if square in moving else []
    cell = (ROWS - 1 - row, COL_OF[square])
    return piece(square_id(square), label, detail=detail, tags=tags, cell=cell)


def player_areas(state: KalevaState, seat: int, observer: int | None) -> list[dict[str, Any]]:
    """``seat``'s card slots (a row under the board's columns), the cards it still has to
    arrange at setup (face down to the opponent), its deck, discard pile and lost discs."""
    name, sees_all = PLAYER_NAMES[seat], observer in (None, seat)
    slots = [_slot_piece(state, seat, col, sees_all) for col in range(COLS)]
    areas = [
        area(f"cards{seat}", f"{name}'s cards", slots, owner=seat, layout="grid", rows=1, cols=COLS)
    ]
    if state.unplaced[seat]:
        to_arrange = [
            _card_piece(arrange_id(seat, i), seat, card)
            if sees_all
            else hidden_piece(arrange_id(seat, i))
            for i, card in enumerate(sorted(state.unplaced[seat]))
        ]
        areas.append(area(f"arrange{seat}", f"{name}'s cards to arrange", to_arrange, owner=seat))
    return [*areas, *pile_areas(state, seat)]


def pile_areas(state: KalevaState, seat: int) -> list[dict[str, Any]]:
    """``seat``'s deck (a count only), its discard pile (public values, sorted as ``render``
    writes them) and its discs off the board."""
    name, deck = PLAYER_NAMES[seat], len(state.decks[seat])
    discard = [
        _card_piece(f"discard{seat}/{i}", seat, card)
        for i, card in enumerate(sorted(state.discards[seat]))
    ]
    lost = [
        piece(lost_id(seat, i), name[0], detail=f"{name} disc off the board", tags=[COLOURS[seat]])
        for i in range(state.lost[seat])
    ]
    return [
        area(f"deck{seat}", f"{name}'s deck", [], owner=seat, layout="pile", count=deck),
        area(f"discard{seat}", f"{name}'s discard pile", discard, owner=seat),
        area(f"lost{seat}", f"{name}'s lost discs", lost, owner=seat),
    ]


def _slot_piece(state: KalevaState, seat: int, col: int, sees_all: bool) -> dict[str, Any]:
    """The card on ``col`` as ``render`` shows it: its value to its owner and, once face up,
    to everyone; else face down, labelled with its public mark, ``?o`` or ``?d``."""
    piece_id, mark, cell = slot_id(seat, col), state.public_mark(seat, col), (0, col)
    if mark == "--":
        detail = f"column {COLUMN_LETTERS[col]}"
        return piece(piece_id, "", detail=detail, tags=["empty"], cell=cell)
    face_up = state.revealed[seat][col]
    if sees_all or face_up:
        tags = ["face_up"] if face_up else []
        return _card_piece(piece_id, seat, state.slots[seat][col], tags=tags, cell=cell)
    return piece(piece_id, mark, face_down=True, tags=[COLOURS[seat]], cell=cell)


def _card_piece(
    piece_id: str,
    seat: int,
    card: int,
    *,
    tags: Sequence[str] = (),
    cell: tuple[int, int] | None = None,
) -> dict[str, Any]:
    """A card ``seat`` owns, face up: its value, and its name and ability as the detail."""
    detail = f"{card_text(card)} {CARD_NAMES[card]}"
    detail += f": {ABILITIES[card]}" if card in ABILITIES else ""
    return piece(piece_id, card_text(card), detail=detail, tags=[COLOURS[seat], *tags], cell=cell)


def fight_area(facts: dict[str, Any]) -> dict[str, Any]:
    """The latest fight (public: both cards were turned up, KV-4.2): the two cards, tagged
    ``won``, ``lost`` or, after Terna's trickery (KV-4.6), ``swapped``."""
    attacker, loser = facts["attacker"], facts["loser"]
    frm, to = square_name(facts["frm"]), square_name(facts["to"])
    if loser is None:
        outcome = "Terna's trickery swaps the discs"
    else:
        outcome = f"{PLAYER_NAMES[1 - loser]} wins"
    pieces = [
        _fight_card(attacker, facts["attack"], "attack", f"attacks from {frm}", loser),
        _fight_card(1 - attacker, facts["defence"], "defence", f"defends {to}", loser),
    ]
    return area("fight", f"Last fight: {frm}x{to}, {outcome}", pieces)


def _fight_card(seat: int, card: int, key: str, doing: str, loser: int | None) -> dict[str, Any]:
    result = "swapped" if loser is None else ("lost" if loser == seat else "won")
    detail = f"{PLAYER_NAMES[seat]} {doing} with {card_text(card)} {CARD_NAMES[card]}"
    return piece(f"fight/{key}", card_text(card), detail=detail, tags=[COLOURS[seat], result])


# ----- moves ----------------------------------------------------------------------------------


def move_pieces(state: KalevaState, action: int) -> list[str]:
    """The pieces a legal ``action`` of the player to decide is about, decoded by the action
    layout of ``board``: the card to arrange and its slot; the disc and the square it steps
    to; a lost disc and its corner; the Tuuri and the enemy card it reveals; the two cards
    swapped. ``keep tuuri`` and ``no swap`` are buttons."""
    seat = state.current_player
    if action < MOVE_BASE:
        value, col = divmod(action - PLACE_BASE, COLS)
        return [arrange_id(seat, sorted(state.unplaced[seat]).index(value)), slot_id(seat, col)]
    if action < RETURN_BASE:
        return [square_id(square) for square in MOVES[action - MOVE_BASE]]
    if action < TUURI_BASE:
        return [lost_id(seat, 0), square_id(CORNERS[action - RETURN_BASE])]
    if action < KEEP_TUURI:
        own, other = divmod(action - TUURI_BASE, COLS)
        return [slot_id(seat, own), slot_id(1 - seat, other)]
    if action in (KEEP_TUURI, NO_SWAP):
        return []
    return [slot_id(seat, col) for col in SWAP_PAIRS[action - SWAP_BASE]]
