"""The Mystic Cross: what a position's crosses give (keys, holding limits, combat values)
and how tokens move along them (KU-1.2): attracting inward (KU-7.2), recruiting from the
Pool (KU-7.3), pushing outward (KU-6) and tokens leaving with a card (KU-8).

Module-level functions taking the state; ``KultState`` binds the ones effects call.
Positions of a token: ``HUB``, a station 0-7 (stations 1-8), ``POOL``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from tabletop.envs.core.cards.pending import Decision
from tabletop.envs.kult.actions import CAST, HUB, NO_COLOUR, POOL, SCENE, decode, push_action
from tabletop.envs.kult.cards import BEING, PLACE, Card, Keys
from tabletop.envs.kult.zones import Attachment, Base

if TYPE_CHECKING:
    from tabletop.envs.kult.engine import KultState

CARD_ATTACH = ("card", "being", "place")
"""Influences that lie on a card (and leave and turn with it, KU-3.2, KU-5.1)."""


# ----- keys (KU-4) ------------------------------------------------------------------------


def permanent_keys(state: KultState, seat: int) -> list[int]:
    """The Arcanum's colours, the face-up Places' colours and Hub Influences' keys
    (KU-4.2): counts per colour."""
    k0, k1, k2, k3, k4 = state.arcana[seat].keys
    for base in state.crosses[seat]:
        if base is not None and base.face_up:
            card = base.card
            if card.kind == PLACE:
                c0, c1, c2, c3, c4 = card.colours
                k0, k1, k2, k3, k4 = k0 + c0, k1 + c1, k2 + c2, k3 + c3, k4 + c4
    for attachment in state.influences[seat]:
        extra = attachment.card.key_bonus
        if extra is not _NO_KEYS and any(extra):
            c0, c1, c2, c3, c4 = extra
            k0, k1, k2, k3, k4 = k0 + c0, k1 + c1, k2 + c2, k3 + c3, k4 + c4
    return [k0, k1, k2, k3, k4]


_NO_KEYS = (0, 0, 0, 0, 0)


def keys(state: KultState, seat: int) -> list[int]:
    """Every key ``seat`` controls now: permanent and temporary (KU-4.3)."""
    own = permanent_keys(state, seat)
    t0, t1, t2, t3, t4 = state.temp_keys[seat]
    return [own[0] + t0, own[1] + t1, own[2] + t2, own[3] + t3, own[4] + t4]


def can_pay(available: list[int], cost: Keys) -> bool:
    """KU-4.1: at least as many keys of each colour as the card shows symbols."""
    a0, a1, a2, a3, a4 = available
    c0, c1, c2, c3, c4 = cost
    return a0 >= c0 and a1 >= c1 and a2 >= c2 and a3 >= c3 and a4 >= c4


# ----- holding limits and combat values (KU-3.4, KU-3.6) -----------------------------------


def attachments_on(state: KultState, seat: int, station: int) -> list[Attachment]:
    """The Influences on the card at ``station`` of ``seat``'s cross."""
    return [
        a for a in state.influences[seat]
        if a.station == station and a.card.attach in CARD_ATTACH
    ]  # fmt: skip


def station_attachments(state: KultState, seat: int, station: int) -> list[Attachment]:
    """The Influences attached to the station itself (they stay when its card leaves)."""
    return [
        a for a in state.influences[seat] if a.station == station and a.card.attach == "station"
    ]


def hub_attachments(state: KultState, seat: int) -> list[Attachment]:
    return [a for a in state.influences[seat] if a.card.attach == "hub"]


def _static_sum(attachments: list[Attachment], name: str) -> int:
    total = 0
    for attachment in attachments:
        params = attachment.card.static(name)
        if params is not None:
            total += params.amount
    return total


_TOKEN_HOLDERS = (PLACE, BEING)


def holding_limit(state: KultState, seat: int, station: int) -> int:
    """How many tokens the card at ``station`` may hold (KU-3.4): its own limit, plus the
    Influences on it while it lies face up (KU-3.2: they modify it while face up, and turn
    with it, KU-5.1), those on its station and (Places and Beings) those on the Pool. A
    card turned face down keeps the tokens it holds (KU-5.1) even above the limit it has
    meanwhile; it just takes no more."""
    base = state.crosses[seat][station]
    if base is None:
        return 0
    return _limit(state, seat, station, base)


def _limit(state: KultState, seat: int, station: int, base: Base) -> int:
    card = base.card
    limit = card.holds
    attached = state.influences[seat]
    if attached:
        face_up = base.face_up
        for attachment in attached:
            if attachment.station == station:
                influence = attachment.card
                if influence.attach == "station" or (face_up and influence.attach in CARD_ATTACH):
                    limit += influence.holds_bonus
    pool = state.pool_influences
    if pool and card.kind in _TOKEN_HOLDERS:
        for attachment in pool:
            limit += attachment.card.holds_bonus
    return limit


def can_take(state: KultState, seat: int, station: int) -> bool:
    """Whether the card at ``station`` can receive a token now (face up or down, KU-6.2)."""
    base = state.crosses[seat][station]
    return base is not None and base.tokens < _limit(state, seat, station, base)


def takers(state: KultState, seat: int, stations: range) -> list[int]:
    """The stations among ``stations`` whose card can receive a token now."""
    cross = state.crosses[seat]
    return [
        s for s in stations
        if (base := cross[s]) is not None and base.tokens < _limit(state, seat, s, base)
    ]  # fmt: skip


def combat_value(state: KultState, seat: int, station: int) -> int:
    """A Being's combat value with every modifier (KU-3.6, KU-7.5): Influences on it and
    on its station (while it lies face up), on its controller's Hub (Beings in the Cast)
    and on the Pool. May be 0 or negative."""
    base = state.crosses[seat][station]
    value = base.card.combat
    face_up = base.face_up
    in_cast = station in CAST
    for attachment in state.influences[seat]:
        influence = attachment.card
        attach = influence.attach
        if attach == "hub":
            if in_cast:
                value += influence.combat_bonus
        elif attachment.station == station and (attach == "station" or face_up):
            value += influence.combat_bonus
    for attachment in state.pool_influences:
        value += attachment.card.combat_bonus
    return value


def face_up_card(state: KultState, seat: int, station: int) -> Card | None:
    """The card at a station if it lies face up (it can act, KU-5.1), else ``None``."""
    base = state.crosses[seat][station]
    return base.card if base is not None and base.face_up else None


# ----- attracting and recruiting (KU-7.2, KU-7.3) -----------------------------------------


def attractions(state: KultState, seat: int) -> list[tuple[int, int]]:
    """(from, to) of every legal attraction: a face-up Cast card's token onto a face-up
    Scene card that can take it, a face-up Scene card's token into the Hub."""
    cross = state.crosses[seat]
    moves = []
    targets: list[int] | None = None
    for source in _ATTRACT_SOURCES:
        base = cross[source]
        if base is None or not base.face_up or not base.tokens:
            continue
        if source < CAST.start:
            moves.append((source, HUB))
            continue
        if targets is None:
            targets = [
                s for s in SCENE
                if (scene := cross[s]) is not None and scene.face_up
                and scene.tokens < _limit(state, seat, s, scene)
            ]  # fmt: skip
        moves += [(source, target) for target in targets]
    return moves


_ATTRACT_SOURCES = (*CAST, *SCENE)


def attract(state: KultState, seat: int, source: int, target: int) -> None:
    """Move the token inward and turn the cards (KU-7.2): both, or only the Scene card
    when the token goes into the Hub (the Arcanum never turns)."""
    cross = state.crosses[seat]
    cross[source].tokens -= 1
    if target == HUB:
        state.hub_tokens[seat] += 1
    else:
        cross[target].tokens += 1
        turn_face_down(state, seat, target)
    turn_face_down(state, seat, source)
    state._record("token_attracted", player=seat, source=source, target=target)


def recruits(state: KultState, seat: int) -> list[int]:
    """Cast stations that may still recruit this turn (KU-7.3): face up, able to take a
    token, not recruited onto yet this turn; none when the Pool is empty or an embargo
    holds."""
    if not state.pool_tokens or state.embargo:
        return []
    cross = state.crosses[seat]
    recruited = state.recruited
    return [
        station for station in CAST
        if station not in recruited and (base := cross[station]) is not None and base.face_up
        and base.tokens < _limit(state, seat, station, base)
    ]  # fmt: skip


def recruit(state: KultState, seat: int, station: int) -> None:
    """One token from the Pool onto the card (recruiting turns nothing, KU-7.3)."""
    state.pool_tokens -= 1
    state.crosses[seat][station].tokens += 1
    state.recruited.add(station)
    state._record("token_recruited", player=seat, station=station)


def recruit_extra(state: KultState, seat: int, tokens: int) -> None:
    """An effect's recruiting: up to ``tokens`` onto face-up Cast cards that can take one,
    in station order, not limited to one per card or by the recruit phase; none for the
    player whose turn is under an embargo ("they recruit nothing this turn")."""
    if state.embargo and seat == state.active:
        return
    for _ in range(tokens):
        target = next(
            (s for s in CAST if face_up_card(state, seat, s) and can_take(state, seat, s)), None
        )
        if target is None or not state.pool_tokens:
            return
        state.pool_tokens -= 1
        state.crosses[seat][target].tokens += 1
        state._record("token_recruited", player=seat, station=target)


# ----- pushing (KU-6) ---------------------------------------------------------------------


def push_moves(state: KultState, seat: int) -> list[tuple[int, int]]:
    """(from, to) of every push: Hub -> a Scene card that can take the token; Scene -> a
    Cast card; Cast -> the Pool. A ring none of whose cards can take it is skipped (Hub ->
    a Cast card, Scene -> the Pool, KU-6.3); face-down cards give and receive tokens."""
    cross = state.crosses[seat]
    cast = takers(state, seat, CAST)
    moves: list[tuple[int, int]] = []
    if state.hub_tokens[seat]:
        moves += [(HUB, target) for target in takers(state, seat, SCENE) or cast]
    for source in SCENE:
        base = cross[source]
        if base is not None and base.tokens:
            moves += [(source, target) for target in cast] if cast else [(source, POOL)]
    for source in CAST:
        base = cross[source]
        if base is not None and base.tokens:
            moves.append((source, POOL))
    return moves


def push(state: KultState, seat: int, source: int, target: int, colour: int | None) -> None:
    """Move the token outward; ``colour`` (an index of ``effects.COLOURS``) becomes a
    temporary key (KU-6.1), ``None`` when the push pays for an ability (KU-6.5)."""
    cross = state.crosses[seat]
    if source == HUB:
        state.hub_tokens[seat] -= 1
    else:
        cross[source].tokens -= 1
    if target == POOL:
        state.pool_tokens += 1
    else:
        cross[target].tokens += 1
    if colour is not None:
        state.temp_keys[seat][colour] += 1
    state.counters["pushes"] += 1
    state._record("token_pushed", player=seat, source=source, target=target, colour=colour)


# ----- face up, face down (KU-5, KU-7.7) ---------------------------------------------------


def turn_face_down(state: KultState, seat: int, station: int) -> None:
    """The card turns (its attached Influences with it, KU-5.1)."""
    state.crosses[seat][station].face_up = False


def refresh_cross(state: KultState, seat: int) -> None:
    """Every face-down card of the cross turns face up (KU-7.7; the Hub card stays)."""
    turned = [s for s, base in enumerate(state.crosses[seat]) if base and not base.face_up]
    for station in turned:
        state.crosses[seat][station].face_up = True
    if turned:
        state._record("cards_refreshed", player=seat, stations=turned)


# ----- leaving play (KU-7.5, KU-8) --------------------------------------------------------


def discard_from_cross(
    state: KultState, seat: int, station: int, tokens_to: tuple[int, int] | None = None
) -> None:
    """The card at ``station`` leaves play with the Influences on it, each to its owner's
    discard pile. Its tokens go to ``tokens_to`` (a fight's winner, KU-7.5) while it can
    hold them, else to the Pool; without a winner they go outward as KU-8.1 says, with no
    colour: from a Cast card to the Pool; from a Scene card onto a Cast card of the same
    cross that can take it, else to the Pool. When more than one Cast card can take it,
    the controller chooses (``StepOut``, a decision of ``state.pending``); the
    card waits on its station with its tokens until they have all stepped out, so every
    token is somewhere in sight at every decision."""
    if tokens_to is None and station in SCENE and state.crosses[seat][station].tokens:
        _step_out(state, seat, station)
    else:
        _leave(state, seat, station, tokens_to)


def token_targets(state: KultState, seat: int) -> list[int]:
    """Cast stations of ``seat`` that can take a token stepping out of the Scene (KU-8.1)."""
    return takers(state, seat, CAST)


def _step_out(state: KultState, seat: int, station: int) -> None:
    """The tokens of a Scene card leaving play step out one by one: onto the one Cast card
    that can take it, to the Pool when none can, or where the controller chooses; then
    the card leaves."""
    base = state.crosses[seat][station]
    while base.tokens:
        targets = token_targets(state, seat)
        if len(targets) > 1:
            state.pending.then(StepOut(seat, station))
            return
        base.tokens -= 1
        _move_token(state, seat, station, (seat, targets[0]) if targets else None)
    state.pending.done()
    _leave(state, seat, station, None)


@dataclass(frozen=True)
class StepOut(Decision):
    """KU-8.1: ``seat`` chooses the Cast card onto which a token of its Scene card at
    ``station``, leaving play, steps out (the pushes without colour onto those cards);
    the card's other tokens follow (``_step_out``), this decision again while it owes one."""

    seat: int
    station: int

    def legal(self, state: KultState) -> list[int]:
        return [push_action(self.station, target, NO_COLOUR)
                for target in token_targets(state, self.seat)]  # fmt: skip

    def apply(self, state: KultState, action: int) -> None:
        seat, station = self.seat, self.station
        state.crosses[seat][station].tokens -= 1
        _move_token(state, seat, station, (seat, decode(action)[1][1]))
        _step_out(state, seat, station)


def _leave(state: KultState, seat: int, station: int, tokens_to: tuple[int, int] | None) -> None:
    base: Base = state.crosses[seat][station]
    for attachment in attachments_on(state, seat, station):
        _to_discard(state, attachment, ("influences", seat))
    tokens = base.tokens
    if tokens:
        base.tokens = 0
    _to_discard(state, base, ("cross", seat))
    for _ in range(tokens):
        _token_leaves(state, seat, station, tokens_to)


def _to_discard(state: KultState, entry: Base | Attachment, zone: tuple[str, int]) -> None:
    """A card leaving a station of a cross, or an Influence on its card, goes to its
    owner's discard pile."""
    owner = state.table.owners[entry.iid]
    state.table.remove(entry, zone)
    state.table.put(entry.iid, ("discard", owner))
    state._record("card_discarded", seat=zone[1], card=entry.card.index, owner=owner)


def _token_leaves(
    state: KultState, seat: int, station: int, winner: tuple[int, int] | None
) -> None:
    """A token of a fight's loser (to the winner if it can hold it) or of a Cast card."""
    _move_token(state, seat, station, winner if winner is not None and can_take(state, *winner)
                else None)  # fmt: skip


def _move_token(state: KultState, seat: int, station: int, to: tuple[int, int] | None) -> None:
    if to is None:
        state.pool_tokens += 1
        to = (-1, POOL)
    else:
        state.crosses[to[0]][to[1]].tokens += 1
    state._record("token_moved", seat=seat, source=station, to_seat=to[0], target=to[1])
