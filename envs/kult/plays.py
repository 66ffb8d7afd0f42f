"""Playing cards and using abilities, with their legality (KU-4.4, KU-7.4, KU-5.2, KU-6.5).

The legal-action functions list action ids for one seat; the ``play_*`` functions apply
a legal one. A hand's cards are offered once per distinct card, from its first hand slot,
so two copies never make two actions that read the same.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tabletop.envs.core.cards.events import Context, resolve
from tabletop.envs.kult import crosses
from tabletop.envs.kult.actions import (
    COMMAND_BASE,
    DONE,
    HUB,
    INVOKE_BASE,
    MAX_PLAYERS,
    NO_COLOUR,
    NUM_COLOURS,
    PLAY_BASE,
    POOL_TARGET,
    STATIONS,
    TURN_BASE,
    attach_action,
    attach_target,
    push_action,
)
from tabletop.envs.kult.cards import BEING, COMMAND, INFLUENCE, NEUTRAL, PLACE, Card
from tabletop.envs.kult.effects import ANY
from tabletop.envs.kult.zones import IN_PLAY, Attachment, Base

if TYPE_CHECKING:
    from tabletop.envs.kult.engine import KultState


def distinct_hand(state: KultState, seat: int) -> list[tuple[int, Card]]:
    """(hand slot, card) of the first copy of each card in ``seat``'s hand."""
    seen: set[int] = set()
    cards = state.table.cards
    distinct = []
    for slot, iid in enumerate(state.hands[seat]):
        card = cards[iid]
        index = card.index
        if index not in seen:
            seen.add(index)
            distinct.append((slot, card))
    return distinct


def in_play(state: KultState, card: Card) -> bool:
    """Whether a copy of ``card`` lies in play anywhere (unique cards, KU-3.5)."""
    zones = state.table.zones
    index = card.index
    for zone in IN_PLAY:
        for entries in zones[zone]:
            for entry in entries:
                if entry is not None and entry.card.index == index:
                    return True
    return False


def may_play(state: KultState, seat: int, card: Card, available: list[int]) -> bool:
    """KU-4.4 and KU-3.5: allegiance yours or Neutral, the colours controlled, a unique
    card not in play yet."""
    allegiance = card.allegiance in (NEUTRAL, state.arcana[seat].allegiance)
    return (
        allegiance and crosses.can_pay(available, card.cost)
        and not (card.unique and in_play(state, card))
    )  # fmt: skip


def seat_offsets(state: KultState, into: str) -> range:
    """Seat offsets (0: the mover) a card may be played into (KU-7.4)."""
    if into == "own":
        return _OWN
    players = state.game.num_players
    return range(1, players) if into == "opponent" else range(players)


_OWN = range(1)


# ----- legal actions ----------------------------------------------------------------------


def card_plays(state: KultState, seat: int) -> list[int]:
    """Base cards onto empty stations their indicators allow (KU-1.3, KU-7.4) and
    Influences onto what they attach to (KU-3.2)."""
    return _hand_choices(state, seat, crosses.keys(state, seat), None)


def _hand_choices(
    state: KultState, seat: int, available: list[int], commands: list[int] | None
) -> list[int]:
    """The plays of ``card_plays``; with a ``commands`` list, the actions-phase Commands
    (timing ``ANY``) are appended to it in the same pass over the hand."""
    actions: list[int] = []
    allegiance = state.arcana[seat].allegiance
    a0, a1, a2, a3, a4 = available
    players = state.game.num_players
    cards = state.table.cards
    offered: set[int] = set()
    for slot, iid in enumerate(state.hands[seat]):
        # the checks read only the card: a copy that fails them fails for every slot, so
        # checking before skipping later copies offers what ``distinct_hand`` would
        card = cards[iid]
        if card.allegiance != NEUTRAL and card.allegiance != allegiance:
            continue
        c0, c1, c2, c3, c4 = card.cost
        if a0 < c0 or a1 < c1 or a2 < c2 or a3 < c3 or a4 < c4:
            continue
        index = card.index
        if index in offered:
            continue
        offered.add(index)
        if card.unique and in_play(state, card):
            continue
        kind = card.kind
        if kind == COMMAND:
            if commands is not None and card.timing == ANY:
                commands.append(COMMAND_BASE + slot)
        elif kind == INFLUENCE:
            actions += _attachments(state, seat, slot, card)
        else:  # a base card: the lookups of ``_stations`` and ``seat_offsets`` inlined
            stations = _STATION_ORDER.get(card.stations) or _stations(card)
            into = card.into
            for offset in _OWN if into == "own" else seat_offsets(state, into):
                cross = state.crosses[(seat + offset) % players]
                base = PLAY_BASE + (slot * MAX_PLAYERS + offset) * STATIONS
                actions += [base + s for s in stations if cross[s] is None]
    return actions


_STATION_ORDER: dict[frozenset[int], tuple[int, ...]] = {}


def _stations(card: Card) -> tuple[int, ...]:
    """A card's stations in order (cached by station set)."""
    order = _STATION_ORDER.get(card.stations)
    if order is None:
        order = _STATION_ORDER[card.stations] = tuple(sorted(card.stations))
    return order


def actions_phase(state: KultState, seat: int) -> list[int]:
    """Every choice of ``seat``'s actions phase, sorted: ``done``, card plays (KU-7.4),
    Commands, pushes for each colour (KU-6) and abilities (KU-5.2, KU-6.5)."""
    commands: list[int] = []
    actions = _hand_choices(state, seat, crosses.keys(state, seat), commands)
    actions += commands
    moves = crosses.push_moves(state, seat)
    for source, target in moves:
        first = push_action(source, target, 0)
        actions += range(first, first + NUM_COLOURS)
    actions += _abilities(state, seat, bool(moves))
    actions.append(DONE)
    actions.sort()
    return actions


def _attachments(state: KultState, seat: int, slot: int, card: Card) -> list[int]:
    if card.attach == "pool":
        return [attach_action(slot, POOL_TARGET)]
    actions = []
    attach = card.attach
    kind = _ATTACH_KINDS.get(attach)
    for offset in seat_offsets(state, card.into):
        if attach == "hub":
            actions.append(attach_action(slot, attach_target(offset, HUB)))
            continue
        cross = state.crosses[(seat + offset) % state.game.num_players]
        first = attach_action(slot, attach_target(offset, 0))  # the offset's 8 in a row
        # ``attachable``, inlined: it runs for every station and Influence in hand
        actions += [
            first + station
            for station, base in enumerate(cross)
            if attach == "station" or (base is not None and kind in (None, base.card.kind))
        ]
    return actions


_ATTACH_KINDS = {"being": BEING, "place": PLACE}
"""The kind of base card an Influence attached to ``being`` or ``place`` needs."""


def attachable(
    state: KultState, seat: int, station: int, attach: str, face_up: bool = False
) -> bool:
    """Whether an Influence attached to ``attach`` may go on ``station`` of ``seat``'s
    cross. A station always takes a station Influence; a card Influence needs a base card
    of the right kind there, face up or down (KU-3.2 attaches it to a base card and
    KU-4.4's conditions say nothing of its side; on a face-down card it does nothing until
    the card turns face up, KU-5.1). ``face_up``: only where it acts now, on a face-up card
    (what the heuristic looks for)."""
    if attach == "station":
        return True
    base = state.crosses[seat][station]
    if base is None or (face_up and not base.face_up):
        return False
    return attach == "card" or base.card.kind == _ATTACH_KINDS[attach]


def commands(state: KultState, seat: int, timings: tuple[float, ...]) -> list[int]:
    """Commands ``seat`` can pay for now whose timing is one of ``timings`` (its keys are
    counted only when it holds one: most answers in a Commands window are passes)."""
    cards = state.table.cards
    held = []
    offered: set[int] = set()
    for slot, iid in enumerate(state.hands[seat]):  # the first copy of each, as distinct_hand
        card = cards[iid]
        if card.kind == COMMAND and card.timing in timings and card.index not in offered:
            offered.add(card.index)
            held.append((slot, card))
    if not held:
        return []
    available = crosses.keys(state, seat)
    return [COMMAND_BASE + slot for slot, card in held if may_play(state, seat, card, available)]


def pushes(state: KultState, seat: int, paying: bool) -> list[int]:
    """Every push with each colour (KU-6.1), or without colour to pay (KU-6.5)."""
    colours = (NO_COLOUR,) if paying else range(NUM_COLOURS)
    return sorted(
        push_action(source, target, colour)
        for source, target in crosses.push_moves(state, seat) for colour in colours
    )  # fmt: skip


def turn_abilities(state: KultState, seat: int) -> list[int]:
    """Face-up cards of ``seat``'s cross to turn for their ability (KU-5.2: at any time,
    that is at any decision of ``seat``'s own turn outside a Commands window)."""
    return [
        TURN_BASE + station for station, base in enumerate(state.crosses[seat])
        if base is not None and base.face_up and base.card.on_turn
    ]  # fmt: skip


def abilities(state: KultState, seat: int) -> list[int]:
    """Face-up cards to turn for their ability (KU-5.2) and push abilities (KU-6.5) not
    used yet this turn [decision: once per card and turn] while a push is possible (in
    the actions phase, where pushes are made)."""
    return _abilities(state, seat, None)


def _abilities(state: KultState, seat: int, can_push: bool | None) -> list[int]:
    actions = []
    pushers = []
    invoked = state.invoked
    for station, base in enumerate(state.crosses[seat]):
        if base is not None and base.face_up:
            card = base.card
            if card.on_turn:
                actions.append(TURN_BASE + station)
            if card.on_push and station not in invoked:
                pushers.append(station)
    if pushers and (crosses.push_moves(state, seat) if can_push is None else can_push):
        actions += [INVOKE_BASE + station for station in pushers]
    return actions


# ----- applying ---------------------------------------------------------------------------


def play_base(state: KultState, seat: int, slot: int, offset: int, station: int) -> None:
    """Put the card on the station, face up; played into another cross, it comes under
    that player's control (KU-7.4)."""
    target = (seat + offset) % state.game.num_players
    iid = state.table.pop(("hand", seat), slot)
    card = state.table.cards[iid]
    state.table.put(Base(iid, card), ("cross", target), station)
    state.counters["cards_played"] += 1
    state._record("card_played", player=seat, card=card.index, seat=target, station=station)


def play_influence(state: KultState, seat: int, slot: int, offset: int, station: int) -> None:
    """Attach the Influence to a card, station or Hub (``station`` ``HUB``) of a seat, or
    to the Pool (``offset`` -1)."""
    iid = state.table.pop(("hand", seat), slot)
    card = state.table.cards[iid]
    if offset < 0:
        state.table.put(Attachment(iid, card, HUB), ("pool_influences", 0))
        target = -1
    else:
        target = (seat + offset) % state.game.num_players
        state.table.put(Attachment(iid, card, station), ("influences", target))
    state.counters["cards_played"] += 1
    state._record(
        "influence_attached", player=seat, card=card.index, seat=target,
        station=station if offset >= 0 else None,
    )  # fmt: skip


def play_command(state: KultState, seat: int, slot: int) -> None:
    """The Command goes to its owner's discard pile and its effects resolve (KU-3.3)."""
    iid = state.table.take(("hand", seat), slot, ("discard", seat))
    card = state.table.cards[iid]
    state.counters["cards_played"] += 1
    state._record("command_played", player=seat, card=card.index)
    resolve(state, Context(seat), card.on_play, state.is_terminal)


def turn_for_ability(state: KultState, seat: int, station: int) -> None:
    """Turn the card face down and use its ability (KU-5.2)."""
    card = state.crosses[seat][station].card
    crosses.turn_face_down(state, seat, station)
    state._record("card_turned", player=seat, station=station, card=card.index)
    resolve(state, Context(seat, (seat, station)), card.on_turn, state.is_terminal)


def invoke(state: KultState, seat: int, station: int) -> None:
    """Ask for the push that pays the card's ability (KU-6.5): the next decision."""
    state.pending_push = station
    state.invoked.add(station)
    state._record("ability_invoked", player=seat, station=station,
                  card=state.crosses[seat][station].card.index)  # fmt: skip


def pay_push(state: KultState, seat: int, source: int, target: int) -> None:
    """The paying push, then the ability of the invoked card."""
    station, state.pending_push = state.pending_push, None
    crosses.push(state, seat, source, target, None)
    base = state.crosses[seat][station]
    if base is not None:
        resolve(state, Context(seat, (seat, station)), base.card.on_push, state.is_terminal)
