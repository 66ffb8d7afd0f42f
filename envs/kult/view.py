"""Kult's structured view (``KultState.view``, format in ``core.view``): the information of
``render(observer)`` as data, so the web table draws each seat's Hub, hand, Mystic Cross,
deck and discard pile and the shared Pool, and makes the cards and stations of a move
clickable. A hand is face down to everyone but its owner; decks and Hub cards are piles
nobody sees into (the omniscient view shows the Hub cards, as ``render`` does)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tabletop.envs.core.view import area, hidden_piece, make_view, piece, player
from tabletop.envs.kult import crosses
from tabletop.envs.kult.actions import CAST, HUB, POOL, STATIONS, decode
from tabletop.envs.kult.cards import BEING, Card
from tabletop.envs.kult.notation import mover, station_name
from tabletop.envs.kult.rendering import keys_text
from tabletop.envs.kult.turns import PHASE_NAMES

if TYPE_CHECKING:
    from tabletop.envs.kult.combat import Fight
    from tabletop.envs.kult.engine import KultState
    from tabletop.envs.kult.zones import Attachment


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


def move_pieces(state: KultState, action: int) -> list[str]:
    """The pieces a legal action is about: the hand card it plays or discards, the stations,
    Hub or Pool it moves tokens between or targets, the attacker and the Being attacked;
    none for ``done`` (``pass``)."""
    seat = mover(state)
    kind, fields = decode(action)
    if kind in ("attract", "push"):
        return [position_id(seat, fields[0]), position_id(seat, fields[1])]
    if kind in ("recruit", "turn", "invoke"):
        return [station_id(seat, fields[0])]
    if kind in ("play", "attach"):
        slot, offset, where = fields
        target = (seat + offset) % state.game.num_players
        return [hand_id(seat, slot), position_id(target, where)]
    if kind in ("command", "discard"):
        return [hand_id(seat, fields[0])]
    if kind == "attack":
        attacker, offset, target = fields
        defender = (seat + offset) % state.game.num_players
        return [station_id(seat, attacker), station_id(defender, target)]
    return []


# ----- status and players --------------------------------------------------------------------


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


# ----- a seat's areas ------------------------------------------------------------------------


def _seat_areas(state: KultState, seat: int, observer: int | None) -> list[dict[str, Any]]:
    """The seat's Hub (its Arcanum and tokens), Hub card, hand, cross, Influences in play,
    deck and discard pile."""
    cards = state.table.cards
    hub_cards = state.hub_cards[seat] if observer is None else []
    hub_card = [_card_piece(f"hubcard{seat}/{i}", cards[iid]) for i, iid in enumerate(hub_cards)]
    cross = [_station_piece(state, seat, station) for station in range(STATIONS)]
    influences = [
        _influence_piece(f"influences{seat}/{i}", a.card, station_name(a.station))
        for i, a in enumerate(state.influences[seat])
    ]
    discard = [
        _card_piece(f"discard{seat}/{i}", cards[iid]) for i, iid in enumerate(state.discards[seat])
    ]
    title = f"p{seat} "
    return [
        area(f"hub{seat}", title + "Hub", _hub_pieces(state, seat), owner=seat),
        area(f"hubcard{seat}", title + "Hub card", hub_card, owner=seat, layout="pile",
             count=len(state.hub_cards[seat])),
        area(f"hand{seat}", title + "hand", _hand_pieces(state, seat, observer), owner=seat),
        area(f"cross{seat}", title + "Mystic Cross", cross, owner=seat, layout="grid",
             rows=2, cols=4),
        area(f"influences{seat}", title + "Influences", influences, owner=seat),
        area(f"deck{seat}", title + "deck", [], owner=seat, layout="pile",
             count=len(state.decks[seat])),
        area(f"discard{seat}", title + "discard pile", discard, owner=seat, layout="pile"),
    ]  # fmt: skip


def _hub_pieces(state: KultState, seat: int) -> list[dict[str, Any]]:
    """The Arcanum (public from the start) and the Hub, with its tokens and Influences."""
    arcanum = state.arcana[seat]
    hub_marks = _marks(state.hub_tokens[seat], crosses.hub_attachments(state, seat))
    return [
        piece(
            f"arcanum{seat}",
            arcanum.name,
            detail=f"Arcanum, keys {keys_text(list(arcanum.keys))}, hand size "
            f"{arcanum.hand_size}: {arcanum.text}",
            tags=("arcanum", arcanum.allegiance),
            marks={"Hierarchy": arcanum.hierarchy},
        ),
        piece(f"hub{seat}", "Hub", tags=("hub",), marks=hub_marks),
    ]


def _hand_pieces(state: KultState, seat: int, observer: int | None) -> list[dict[str, Any]]:
    """The owner's (and the omniscient) view shows the cards, anyone else their backs."""
    hand = state.hands[seat]
    if observer not in (None, seat):
        return [hidden_piece(hand_id(seat, slot)) for slot in range(len(hand))]
    cards = state.table.cards
    return [_card_piece(hand_id(seat, slot), cards[iid]) for slot, iid in enumerate(hand)]


def _station_piece(state: KultState, seat: int, station: int) -> dict[str, Any]:
    """A station, empty or with its base card (``turned`` when face down: still public),
    its tokens, a Being's combat value and the Influences on the card and the station."""
    base = state.crosses[seat][station]
    cell = (0, station) if station < CAST.start else (1, station - CAST.start)
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
    return piece(
        station_id(seat, station),
        base.card.name,
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


def _influence_piece(piece_id: str, card: Card, on: str) -> dict[str, Any]:
    """An Influence in play and what it lies on (a station, a Hub, the Pool)."""
    return piece(piece_id, card.name, detail=_card_detail(card), tags=_card_tags(card),
                 marks={"on": on})  # fmt: skip


# ----- cards ---------------------------------------------------------------------------------


def _card_piece(piece_id: str, card: Card) -> dict[str, Any]:
    marks = {"cost": keys_text(list(card.cost))} if any(card.cost) else {}
    return piece(piece_id, card.name, detail=_card_detail(card), tags=_card_tags(card),
                 marks=marks)  # fmt: skip


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


# ----- shared areas --------------------------------------------------------------------------


def _pool_area(state: KultState) -> dict[str, Any]:
    """The Pool: its tokens and the Influences attached to it."""
    pieces = [piece("pool", "Pool", tags=("pool",), marks={"tokens": state.pool_tokens})]
    pieces += [
        _influence_piece(f"pool/{i}", a.card, "Pool") for i, a in enumerate(state.pool_influences)
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
