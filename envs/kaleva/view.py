"""Kaleva's structured view (``State.view``, format in ``core.view``): the information of
``render(observer)`` as data, so that the web table can draw the board as a board.

The board area is one grid: the five rows of squares between the two rows of card slots,
since a card fights for the discs of its column (KV-4.2) and the notation names squares and
slots by the same column letters. It is turned for the observer: Silver (and a spectator)
see their shield row at the bottom as ``render`` draws it; Bronze sees the board from the
other side, row 4 at the bottom and column ``f`` on the left. Its ``row_labels`` and
``col_labels`` are the notation's digits and letters in the order drawn, so every move's
text names the labels its squares and slots sit under."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from tabletop.envs.core.view import (
    area,
    card_face,
    hidden_piece,
    last_move,
    make_view,
    piece,
    player,
)
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
FIGHT_TEXT = (
    "Fights with value {value}: a disc moving from this card's column attacks with it, a "
    "disc standing in its column defends with it. The higher value wins, a tie goes to the "
    "attacker (KV-4.2, KV-4.3)."
)
ABILITIES = {
    TUURI: (
        "recognition",
        "Recognition: when your disc moves from or onto this card's column you may spend "
        "it (it goes to your discard pile) to turn one face-down enemy card face up; that "
        "card stays face up until it fights (KV-4.7).",
    ),
    TERNA: (
        "trickery",
        "Trickery: attacked by a higher card, the two discs change squares instead of one "
        "leaving the board (KV-4.6).",
    ),
}
"""The special cards' keyword and rule, in our words."""
PHASES = ("arrangement", "play", "Tuuri decision", "card swap", "game over")
"""The phase by ``engine.PHASE_NAMES`` index (setup, move, Tuuri, swap, over)."""
BOARD_ROWS = ROWS + 2
"""The board grid: a row of card slots above and below the five rows of squares."""


def view(state: KalevaState, observer: int | None = None) -> dict[str, Any]:
    """The position as ``observer`` may see it (everything for ``None``), like ``render``:
    the board with both rows of card slots, each player's cards to arrange, piles and lost
    discs, the latest fight, each player's last move and the outcome in words."""
    areas = [board_area(state, observer)]
    for seat in SEATS:
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
        phase=phase(state, observer),
        last_moves=last_moves(state, observer),
        outcome=outcome(state),
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


def phase(state: KalevaState, observer: int | None) -> str:
    """The step in words; the opponent of a mover pausing for a kept Tuuri sees ``play``
    (KV-4.7: the pause itself would show the Tuuri)."""
    index = min(state.phase, len(PHASES) - 1)
    if state.pause_hidden_from(observer):
        index = 1
    return PHASES[index]


def outcome(state: KalevaState) -> str | None:
    """The result in words from the game's end condition (KV-6), once it is over."""
    if not state.is_terminal():
        return None
    if state.end_reason == "turn_limit":
        return f"Draw: the turn limit of {state.game.turn_limit} plies was reached"
    winner = PLAYER_NAMES[state.winner] if state.winner is not None else "Nobody"
    loser = PLAYER_NAMES[1 - state.winner] if state.winner is not None else ""
    if state.end_reason == "shield":
        return f"{winner} wins: three discs in {loser}'s shield row"
    return f"{winner} wins: {loser} had no legal move"


def orientation(observer: int | None) -> tuple[bool, list[str], list[str]]:
    """Whether the board is turned (Bronze sees it from its own side), and the grid's row
    and column labels top to bottom and left to right: the notation's digits and letters,
    with no label for the rows of card slots."""
    turned = observer == BRONZE
    ranks = [str(row) for row in range(ROWS)]
    ranks = ranks if turned else ranks[::-1]
    files = list(COLUMN_LETTERS[::-1] if turned else COLUMN_LETTERS)
    return turned, ["", *ranks, ""], files


def square_cell(square: int, turned: bool) -> tuple[int, int]:
    """The grid cell of ``square``: below the top row of card slots."""
    row, col = ROW_OF[square], COL_OF[square]
    if turned:
        return row + 1, COLS - 1 - col
    return ROWS - row, col


def slot_cell(seat: int, col: int, turned: bool) -> tuple[int, int]:
    """The grid cell of ``seat``'s card slot on ``col``: the bottom row for the seat whose
    shield is drawn at the bottom, the top row for the other."""
    at_bottom = seat == (BRONZE if turned else SILVER)
    return (BOARD_ROWS - 1 if at_bottom else 0), (COLS - 1 - col if turned else col)


def square_id(square: int) -> str:
    return f"board/{square_name(square)}"


def slot_id(seat: int, col: int) -> str:
    return f"cards{seat}/{COLUMN_LETTERS[col]}"


def arrange_id(seat: int, index: int) -> str:
    return f"arrange{seat}/{index}"


def lost_id(seat: int, index: int) -> str:
    return f"lost{seat}/{index}"


# ----- areas ----------------------------------------------------------------------------------


def board_area(state: KalevaState, observer: int | None) -> dict[str, Any]:
    """One piece per square (a disc tagged with its colour, or an empty square to click)
    and per card slot, turned for ``observer``. The two squares of a move awaiting its
    Tuuri decision are tagged, unless ``observer`` must not know of the pause."""
    turned, row_labels, col_labels = orientation(observer)
    moving: dict[int, str] = {}
    if state.pending is not None and not state.pause_hidden_from(observer):
        moving = dict(zip(state.pending, ("moving_from", "moving_to"), strict=True))
    pieces = [_square_piece(state, square, moving, turned) for square in range(NUM_SQUARES)]
    for seat in SEATS:
        sees_all = observer in (None, seat)
        pieces += [_slot_piece(state, seat, col, sees_all, turned) for col in range(COLS)]
    return area(
        "board",
        "Board",
        pieces,
        layout="grid",
        rows=BOARD_ROWS,
        cols=COLS,
        row_labels=row_labels,
        col_labels=col_labels,
    )


def _square_piece(
    state: KalevaState, square: int, moving: dict[int, str], turned: bool
) -> dict[str, Any]:
    row, disc, name = ROW_OF[square], state.board[square], square_name(square)
    tags = ["square", *(f"{COLOURS[seat]}_shield" for seat in SEATS if HOME_ROW[seat] == row)]
    if disc in SEATS:
        label, detail = f"{PLAYER_NAMES[disc]} {name}", f"{PLAYER_NAMES[disc]} disc on {name}"
        tags += ["disc", COLOURS[disc], *(["frozen"] if state.is_frozen(square) else [])]
        detail += ", in the enemy shield: it stays to the end" if state.is_frozen(square) else ""
    else:
        label, detail = name, f"empty square {name}"
        tags.append("empty")
    tags += [moving[square]] if square in moving else []
    return piece(
        square_id(square), label, detail=detail, tags=tags, cell=square_cell(square, turned)
    )


def _slot_piece(
    state: KalevaState, seat: int, col: int, sees_all: bool, turned: bool
) -> dict[str, Any]:
    """The card on ``col`` as ``render`` shows it: face up to its owner and, once revealed,
    to everyone; else face down with its public mark, ``?o`` (one of the six shown at
    setup) or ``?d`` (drawn later)."""
    piece_id, mark, cell = (
        slot_id(seat, col),
        state.public_mark(seat, col),
        slot_cell(seat, col, turned),
    )
    where = f"{PLAYER_NAMES[seat]}'s card slot {COLUMN_LETTERS[col]}"
    if mark == "--":
        return piece(piece_id, "", detail=f"{where}, empty", tags=["slot", "empty"], cell=cell)
    face_up = state.revealed[seat][col]
    if sees_all or face_up:
        tags = ["slot", *(["face_up"] if face_up else [])]
        return card_piece(piece_id, seat, state.slots[seat][col], tags=tags, cell=cell)
    origin = "one of the six shown at setup" if mark == "?o" else "drawn from the deck later"
    detail = f"{where}: a face-down card, {origin}"
    return piece(
        piece_id, mark, detail=detail, face_down=True, tags=["slot", COLOURS[seat]], cell=cell
    )


def card_piece(
    piece_id: str,
    seat: int,
    card: int,
    *,
    tags: Sequence[str] = (),
    cell: tuple[int, int] | None = None,
) -> dict[str, Any]:
    """A card face up: its value as the label, its face from the card data."""
    name = CARD_NAMES[card]
    return piece(
        piece_id,
        card_text(card),
        detail=f"{PLAYER_NAMES[seat]}'s {card_text(card)} {name}",
        tags=[COLOURS[seat], *tags],
        cell=cell,
        card=kaleva_card_face(card),
    )


def kaleva_card_face(card: int) -> dict[str, Any]:
    """A character card's face (KV-1.3): its name, value and what it does."""
    keyword, ability = ABILITIES.get(card, ("", ""))
    text = FIGHT_TEXT.format(value=card)
    return card_face(
        CARD_NAMES[card],
        "character",
        stats={"value": card},
        keywords=[keyword] if keyword else [],
        text=f"{ability} {text}" if ability else text,
    )


def player_areas(state: KalevaState, seat: int, observer: int | None) -> list[dict[str, Any]]:
    """The cards ``seat`` still has to arrange at setup (face down to the opponent), its
    deck, discard pile and lost discs."""
    name, sees_all = PLAYER_NAMES[seat], observer in (None, seat)
    areas = []
    if state.unplaced[seat]:
        to_arrange = [
            card_piece(arrange_id(seat, i), seat, card)
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
        card_piece(f"discard{seat}/{i}", seat, card)
        for i, card in enumerate(sorted(state.discards[seat]))
    ]
    lost = [
        piece(
            lost_id(seat, i),
            name[0],
            detail=f"{name} disc off the board",
            tags=["disc", COLOURS[seat]],
        )
        for i in range(state.lost[seat])
    ]
    return [
        area(f"deck{seat}", f"{name}'s deck", [], owner=seat, layout="pile", count=deck),
        area(f"discard{seat}", f"{name}'s discard pile", discard, owner=seat, layout="pile"),
        area(f"lost{seat}", f"{name}'s lost discs", lost, owner=seat),
    ]


def fight_area(facts: dict[str, Any]) -> dict[str, Any]:
    """The latest fight (public: both cards were turned up, KV-4.2): the two cards, tagged
    ``won``, ``lost`` or, after Terna's trickery (KV-4.6), ``swapped``."""
    attacker, loser = facts["attacker"], facts["loser"]
    frm, to = square_name(facts["frm"]), square_name(facts["to"])
    if loser is None:
        result = "Terna's trickery swaps the discs"
    else:
        result = f"{PLAYER_NAMES[1 - loser]} wins"
    pieces = [
        _fight_card(attacker, facts["attack"], "attack", f"attacks from {frm}", loser),
        _fight_card(1 - attacker, facts["defence"], "defence", f"defends {to}", loser),
    ]
    return area("fight", f"Last fight: {frm}x{to}, {result}", pieces)


def _fight_card(seat: int, card: int, key: str, doing: str, loser: int | None) -> dict[str, Any]:
    result = "swapped" if loser is None else ("lost" if loser == seat else "won")
    made = card_piece(f"fight/{key}", seat, card, tags=[result])
    made["detail"] = f"{PLAYER_NAMES[seat]} {doing} with {card_text(card)} {CARD_NAMES[card]}"
    return made


# ----- last moves -----------------------------------------------------------------------------


def last_moves(state: KalevaState, observer: int | None) -> list[dict[str, Any]]:
    """Each player's latest placement, disc move or return (``engine.last_turns``) in the
    words the move log gives ``observer``: a card laid at setup is named only to its owner
    (KV-2.2); a move is public once complete, as its event tells everyone where it went."""
    shown = []
    for seat in SEATS:
        facts = state.last_turns[seat]
        if facts is None:
            continue
        kind, *rest = facts
        if kind == "place":
            col, card = rest
            seen = observer in (None, seat)
            text = (
                f"place {card_text(card)} {COLUMN_LETTERS[col]}"
                if seen
                else f"{PLAYER_NAMES[seat]} places a card on {COLUMN_LETTERS[col]}"
            )
            shown.append(last_move(seat, text, [slot_id(seat, col)]))
        elif kind == "move":
            frm, to, separator = rest
            text = f"{square_name(frm)}{separator}{square_name(to)}"
            shown.append(last_move(seat, text, [square_id(frm), square_id(to)]))
        else:
            (corner,) = rest
            shown.append(last_move(seat, f"return {square_name(corner)}", [square_id(corner)]))
    return shown


# ----- moves ----------------------------------------------------------------------------------


def move_pieces(state: KalevaState, action: int) -> list[str]:
    """The pieces a legal ``action`` of the player to decide is about, decoded by the action
    layout of ``board``: the card to arrange and its slot; the disc and the square it steps
    to; a lost disc and its corner; the Tuuri and the enemy card it reveals; the two cards
    swapped. The first is what a player clicks first (the move's source), the second where
    it goes (its target); ``keep tuuri`` and ``no swap`` name none, so they are buttons."""
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
