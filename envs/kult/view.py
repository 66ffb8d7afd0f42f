"""Kult's structured view (``KultState.view``, format in ``core.view``): the information of
``render(observer)`` as data, so the web table draws each seat's Mystic Cross as a cross
(the four Scene stations around the Hub, the Cast column beside, KU-1.1) with tokens as
marks on the cards, its hand, Hub card, deck and discard pile, and the shared Pool; every
face-up card with its face from the card data; each move as the card or station picked
first and the station, Hub or Pool it goes to. A hand is face down to everyone but its
owner; decks and Hub cards are piles nobody sees into (the omniscient view shows the Hub
cards, as ``render`` does)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tabletop.envs.core.cards.phases import DRAW
from tabletop.envs.core.view import (
    area,
    card_face,
    hidden_piece,
    last_move,
    make_view,
    piece,
    player,
)
from tabletop.envs.kult import crosses
from tabletop.envs.kult.actions import HUB, POOL, STATIONS, decode
from tabletop.envs.kult.cards import BEING, DEFAULT_HOLDS, NEUTRAL, PLACE, Arcanum, Card
from tabletop.envs.kult.notation import move_text, mover, station_name
from tabletop.envs.kult.rendering import keys_text
from tabletop.envs.kult.turns import PHASE_NAMES

if TYPE_CHECKING:
    from tabletop.envs.kult.combat import Fight
    from tabletop.envs.kult.engine import KultState, Move
    from tabletop.envs.kult.zones import Attachment

CROSS_ROWS, CROSS_COLS = 4, 4
HUB_CELL = (1, 1)
CELLS = ((0, 1), (1, 2), (2, 1), (1, 0), (0, 3), (1, 3), (2, 3), (3, 3))
"""Each station's cell of the cross grid: Scene 1-4 north, east, south and west of the Hub
(``HUB_CELL``), Cast 5-8 a column beside it (KU-1.1)."""
PHASES_IN_WORDS = {
    "attract": "Attract: {who} moves tokens inward",
    "recruit window": "Recruit: the others may play Commands first",
    "recruit": "Recruit: {who} takes tokens from the Pool onto Cast cards",
    "actions": "Actions: {who} plays cards onto stations and Influences",
    "attack": "Attack: {who} may attack with a Being of its Cast",
    "fight window": "Fight: Commands may change the fight",
    "discard": "Discard: {who} may discard a card",
    "over": "Game over",
}
"""The phase of the turn in words (KU-7), by ``PHASE_NAMES``."""
ATTACHED_TO = {
    "card": "on a card",
    "being": "on a Being",
    "place": "on a Place",
    "station": "on a station",
    "hub": "on a Hub",
    "pool": "on the Pool",
}


def view(state: KultState, observer: int | None = None) -> dict[str, Any]:
    """What ``observer`` may see of the position (everything for ``None``), as data."""
    seats = range(state.game.num_players)
    areas: list[dict[str, Any]] = []
    for seat in seats:
        areas += _seat_areas(state, seat, observer)
    areas += [_pool_area(state), _fight_area(state)]
    return make_view(
        state,
        observer,
        status=_status(state),
        players=[_player(state, seat) for seat in seats],
        areas=areas,
        move_pieces=lambda action: move_pieces(state, action),
        move_ends=lambda action: move_ends(state, action),
        phase=phase_text(state),
        last_moves=_last_moves(state),
        outcome=outcome_text(state),
    )


# ----- piece ids: positions, never card identities -------------------------------------------


def station_id(seat: int, station: int) -> str:
    """A station of ``seat``'s cross, e.g. ``cross1/Cast5``."""
    return f"cross{seat}/{station_name(station)}"


def hand_id(seat: int, slot: int) -> str:
    return f"hand{seat}/{slot}"


def position_id(seat: int, where: int) -> str:
    """A token's position: ``seat``'s Hub (``HUB``), the Pool (``POOL``) or a station."""
    if where == HUB:
        return f"hub{seat}"
    return "pool" if where == POOL else station_id(seat, where)


def move_ends(state: KultState, action: int) -> tuple[str | None, str | None]:
    """``(source, target)`` of a legal action: where tokens come from and go to; the hand
    card played and the station, Hub or Pool it goes to; the attacking Being and the one
    it attacks; the station recruited onto, turned or invoked, the Command played or the
    card discarded alone; neither for ``done`` (``pass``)."""
    return _ends(state.game.num_players, mover(state), action)


def move_pieces(state: KultState, action: int) -> list[str]:
    """The pieces a legal action is about: its source and target (none for ``done``)."""
    return [end for end in move_ends(state, action) if end is not None]


def _ends(players: int, seat: int, action: int) -> tuple[str | None, str | None]:
    kind, fields = decode(action)
    if kind in ("attract", "push"):
        return position_id(seat, fields[0]), position_id(seat, fields[1])
    if kind in ("recruit", "turn", "invoke"):
        return station_id(seat, fields[0]), None
    if kind in ("play", "attach"):
        slot, offset, where = fields
        return hand_id(seat, slot), position_id((seat + offset) % players, where)
    if kind in ("command", "discard"):
        return hand_id(seat, fields[0]), None
    if kind == "attack":
        attacker, offset, target = fields
        return station_id(seat, attacker), station_id((seat + offset) % players, target)
    return None, None


# ----- status, phase, last moves, outcome ------------------------------------------------------


def _status(state: KultState) -> str:
    """Turn, phase and who decides (or who won), and a push owed for an ability."""
    if state.is_terminal():
        won = state.winner in range(state.game.num_players)
        who = f"over, p{state.winner} wins" if won else "over, a draw"
    else:
        who = f"p{state.player} decides"
    text = f"Turn {state.turn}, p{state.active}'s {PHASE_NAMES[state.phase]} phase, {who}"
    if state.pending_push is not None:
        text += f"; push owed for {station_name(state.pending_push)}'s ability"
    return text


def phase_text(state: KultState) -> str:
    """The phase in words, naming the active player; a push owed or a Command's answer."""
    name = PHASE_NAMES[state.phase]
    text = PHASES_IN_WORDS.get(name, name).format(who=f"p{state.active}")
    if state.pending_push is not None:
        text += f"; a push is owed for {station_name(state.pending_push)}'s ability"
    elif state.window is not None and not state.is_terminal():
        text += f"; p{state.player} may answer with a Command"
    return text


def outcome_text(state: KultState) -> str | None:
    """The end in words (KU-9): the winner and its Hub, or why nobody won."""
    if not state.is_terminal():
        return None
    if state.winner != DRAW:
        seat = state.winner
        return (
            f"p{seat} ({state.arcana[seat].name}) wins: {state.hub_tokens[seat]} Population "
            f"tokens in its Hub (the target is {state.game.target})"
        )
    if state.stalled():
        return "Draw: no player has had a decision to make for many rounds"
    return f"Draw: the limit of {state.game.ply_limit} plies was reached"


def _last_moves(state: KultState) -> list[dict[str, Any]]:
    """Each seat's last move but ``done`` in notation (every move is public, KU-11.1) and
    the stations, Hub or Pool it moved from and to."""
    return [
        last_move(played.seat, _move_text(state, played), _moved(state, played))
        for played in state.last_plays
        if played is not None
    ]


def _move_text(state: KultState, played: Move) -> str:
    name = None if played.card is None else state.game.cards[played.card].name
    return move_text(state.game.num_players, played.seat, played.action, name, played.window)


def _moved(state: KultState, played: Move) -> list[str]:
    """The places a move touched, as they are now: a hand card played is now on its
    target, so only the target is named; a Command or a discard names no place."""
    source, target = _ends(state.game.num_players, played.seat, played.action)
    on_table = [end for end in (source, target) if end is not None and not end.startswith("hand")]
    return on_table


def _player(state: KultState, seat: int) -> dict[str, Any]:
    arcanum = state.arcana[seat]
    counters = {
        "Hierarchy": arcanum.hierarchy,
        "Hub": state.hub_tokens[seat],
        "keys": keys_text(crosses.permanent_keys(state, seat)),
        "temporary keys": keys_text(state.temp_keys[seat]),
        "hand": len(state.hands[seat]),
        "deck": len(state.decks[seat]),
        "discard": len(state.discards[seat]),
    }
    return player(seat, f"p{seat} {arcanum.name}", counters)


# ----- card faces ----------------------------------------------------------------------------


def card_face_of(card: Card) -> dict[str, Any]:
    """A card as the pool prints it (KU-3, KU-4): the keys it needs, a Being's combat
    value, the keys a Place gives, what it holds when not the default, the stations it
    may occupy; its allegiance, uniqueness and where it may be played as keywords."""
    stats: dict[str, int | str] = {}
    if card.kind == BEING:
        stats["combat"] = card.combat
    if card.kind == PLACE:
        stats["gives"] = keys_text(list(card.colours))
    if card.is_base and card.holds != DEFAULT_HOLDS[card.kind]:
        stats["holds"] = card.holds
    if card.stations:
        stats["stations"] = " ".join(str(s + 1) for s in sorted(card.stations))
    keywords = [] if card.allegiance == NEUTRAL else [card.allegiance]
    keywords += ["unique"] if card.unique else []
    if card.attach is not None:
        keywords.append(ATTACHED_TO[card.attach])
    if card.into != "own":
        keywords.append(f"into {card.into} cross" if card.into != "any" else "into any cross")
    return card_face(
        card.name,
        card.kind,
        cost=keys_text(list(card.cost)) if any(card.cost) else "free",
        stats=stats,
        keywords=keywords,
        text=card.text,
    )


def arcanum_face(arcanum: Arcanum) -> dict[str, Any]:
    """A Major Arcana card (KU-2): Hierarchy, its permanent keys, hand size, allegiance."""
    stats = {
        "Hierarchy": arcanum.hierarchy,
        "keys": keys_text(list(arcanum.keys)),
        "hand": arcanum.hand_size,
    }
    return card_face(
        arcanum.name, "arcanum", stats=stats, keywords=[arcanum.allegiance], text=arcanum.text
    )


def _card_piece(piece_id: str, card: Card, **extra: Any) -> dict[str, Any]:
    """A face-up card; ``extra`` (tags, marks, cell, a longer detail...) overrides."""
    fields = {"detail": _card_detail(card), "tags": _card_tags(card), **extra}
    return piece(piece_id, card.name, card=card_face_of(card), **fields)


def _card_tags(card: Card) -> list[str]:
    return [card.kind, card.allegiance]


def _card_detail(card: Card) -> str:
    """Kind, cost, stations, combat value and colours given, then the card's text."""
    facts = [card.kind.capitalize()]
    if any(card.cost):
        facts.append(f"cost {keys_text(list(card.cost))}")
    if card.stations:
        facts.append("stations " + " ".join(str(s + 1) for s in sorted(card.stations)))
    if card.kind == BEING:
        facts.append(f"combat {card.combat}")
    if any(card.colours):
        facts.append(f"gives {keys_text(list(card.colours))}")
    return f"{', '.join(facts)}: {card.text}"


# ----- a seat's areas ------------------------------------------------------------------------


def _seat_areas(state: KultState, seat: int, observer: int | None) -> list[dict[str, Any]]:
    """The seat's cross (its Hub in the middle), Hub card, hand, Influences in play (each
    drawn on what it is attached to), deck and discard pile."""
    cards = state.table.cards
    hub_cards = state.hub_cards[seat] if observer is None else []
    hub_card = [_card_piece(f"hubcard{seat}/{i}", cards[iid]) for i, iid in enumerate(hub_cards)]
    cross = [_station_piece(state, seat, station) for station in range(STATIONS)]
    cross.append(_hub_piece(state, seat))
    influences = [
        _influence_piece(f"influences{seat}/{i}", a, position_id(seat, a.station))
        for i, a in enumerate(state.influences[seat])
    ]
    discard = [
        _card_piece(f"discard{seat}/{i}", cards[iid]) for i, iid in enumerate(state.discards[seat])
    ]
    title = f"p{seat} "
    return [
        area(f"cross{seat}", title + "Mystic Cross", cross, owner=seat, layout="grid",
             rows=CROSS_ROWS, cols=CROSS_COLS),
        area(f"hubcard{seat}", title + "Hub card", hub_card, owner=seat, layout="pile",
             count=len(state.hub_cards[seat])),
        area(f"hand{seat}", title + "hand", _hand_pieces(state, seat, observer), owner=seat),
        area(f"influences{seat}", title + "Influences", influences, owner=seat),
        area(f"deck{seat}", title + "deck", [], owner=seat, layout="pile",
             count=len(state.decks[seat])),
        area(f"discard{seat}", title + "discard pile", discard, owner=seat, layout="pile"),
    ]  # fmt: skip


def _hub_piece(state: KultState, seat: int) -> dict[str, Any]:
    """The Hub in the middle of the cross with the Arcanum lying on it (public from the
    start, KU-2.1), its tokens (the race to the target, KU-9.1) and Influences."""
    arcanum = state.arcana[seat]
    marks = _marks(state.hub_tokens[seat], crosses.hub_attachments(state, seat))
    marks.setdefault("tokens", 0)
    return piece(
        f"hub{seat}",
        "Hub",
        detail=f"The Hub of p{seat}, under {arcanum.name}: Arcanum, keys "
        f"{keys_text(list(arcanum.keys))}, hand size {arcanum.hand_size}: {arcanum.text}",
        tags=("hub", "arcanum", arcanum.allegiance),
        marks=marks,
        cell=HUB_CELL,
        card=arcanum_face(arcanum),
    )


def _hand_pieces(state: KultState, seat: int, observer: int | None) -> list[dict[str, Any]]:
    """The owner's (and the omniscient) view shows the cards, anyone else their backs."""
    hand = state.hands[seat]
    if observer not in (None, seat):
        return [hidden_piece(hand_id(seat, slot)) for slot in range(len(hand))]
    cards = state.table.cards
    return [_card_piece(hand_id(seat, slot), cards[iid]) for slot, iid in enumerate(hand)]


def _station_piece(state: KultState, seat: int, station: int) -> dict[str, Any]:
    """A station in its cell of the cross, empty or with its base card (``turned`` when
    face down: still public, KU-11.1), its tokens, a Being's combat value now and the
    Influences on the card and the station."""
    base = state.crosses[seat][station]
    cell = CELLS[station]
    on = crosses.station_attachments(state, seat, station)
    if base is None:
        return piece(station_id(seat, station), station_name(station), tags=("empty",),
                     marks=_marks(0, on), cell=cell)  # fmt: skip
    marks = _marks(base.tokens, crosses.attachments_on(state, seat, station) + on)
    if base.card.kind == BEING:
        marks["combat"] = crosses.combat_value(state, seat, station)
    tags = [*_card_tags(base.card), *_fight_roles(state, seat, station)]
    if not base.face_up:
        tags.append("turned")
    return _card_piece(
        station_id(seat, station),
        base.card,
        detail=f"{station_name(station)}. {_card_detail(base.card)}",
        tags=tags,
        marks=marks,
        cell=cell,
    )


def _fight_roles(state: KultState, seat: int, station: int) -> list[str]:
    """``attacker`` / ``defender`` for the Beings of the fight being decided."""
    fight = state.fight
    if fight is None:
        return []
    return [
        role
        for role, fighter in (("attacker", fight.attacker), ("defender", fight.defender))
        if fighter == (seat, station)
    ]


def _marks(tokens: int, attachments: list[Attachment]) -> dict[str, int | str]:
    """Tokens and the names of the Influences on a station or Hub (only if any)."""
    marks: dict[str, int | str] = {"tokens": tokens} if tokens else {}
    if attachments:
        marks["influences"] = ", ".join(a.card.name for a in attachments)
    return marks


def _influence_piece(piece_id: str, attachment: Attachment, on: str) -> dict[str, Any]:
    """An Influence in play, drawn on what it lies on (a station, a Hub, the Pool)."""
    where = "Pool" if on == "pool" else ("Hub" if on.startswith("hub") else on.split("/")[1])
    return _card_piece(piece_id, attachment.card, marks={"on": where}, on=on)


# ----- shared areas --------------------------------------------------------------------------


def _pool_area(state: KultState) -> dict[str, Any]:
    """The Pool: its tokens and the Influences attached to it."""
    pieces = [piece("pool", "Pool", tags=("pool",), marks={"tokens": state.pool_tokens})]
    pieces += [
        _influence_piece(f"pool/{i}", a, "pool") for i, a in enumerate(state.pool_influences)
    ]
    return area("pool", "Pool", pieces)


def _fight_area(state: KultState) -> dict[str, Any]:
    """The fight being decided and the last decided one, if any (both public)."""
    fights = (("fight", "Fight", state.fight), ("last_fight", "Last fight", state.last_fight))
    return area(
        "fights", "Fights", [_fight_piece(i, label, f) for i, label, f in fights if f is not None]
    )


def _fight_piece(piece_id: str, label: str, fight: Fight) -> dict[str, Any]:
    (seat, attacker), (target, defender) = fight.attacker, fight.defender
    marks: dict[str, int | str] = {
        "attacker": f"p{seat}.{station_name(attacker)}",
        "defender": f"p{target}.{station_name(defender)}",
        "bonus": f"{fight.bonus[0]:+d}/{fight.bonus[1]:+d}",
    }
    if fight.values is not None:
        marks["values"] = f"{fight.values[0]} against {fight.values[1]}"
    if fight.result is not None:
        marks["result"] = fight.result
    tags = ("cancelled",) if fight.cancelled else ()
    return piece(piece_id, label, tags=tags, marks=marks)
