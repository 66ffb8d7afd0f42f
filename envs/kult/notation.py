"""Kult's action notation, both ways (docs/games/kult.md, "Notation").

Stations are named as KU-1.1 numbers them, ``Scene1``-``Scene4`` and ``Cast5``-``Cast8``,
besides ``Hub`` and ``Pool``; cards by their pool name, seats absolutely as ``p0``-``p3``
(``@p2`` for a card played into another player's cross, ``p3.Cast7`` for a target):

``attract Cast5>Scene1``, ``attract Scene2>Hub``, ``recruit Cast6``,
``push Hub>Scene2 Skull`` (``push Cast5>Pool`` pays for an ability), ``play Raven>Scene4``,
``play Changeling>Cast6@p2``, ``play Omen`` (a Command), ``attach Hex>Cast6@p2``,
``attach Silver Crown>Hub``, ``attach Plague Year>Pool``, ``turn Scene2``,
``invoke Cast5``, ``attack Cast5>p3.Cast7``, ``discard Raven``, ``done`` (``pass`` in a
Commands window).

Every action is public once played (a card played from hand is shown, KU-11.1), so an
observer's text is the full notation.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from tabletop.envs.core.protocol import IllegalActionError
from tabletop.envs.kult.actions import (
    COMMAND_BASE,
    DISCARD_BASE,
    DONE,
    HUB,
    INVOKE_BASE,
    NO_COLOUR,
    POOL,
    POOL_TARGET,
    RECRUIT_BASE,
    TURN_BASE,
    attach_action,
    attach_target,
    attack_action,
    attract_action,
    decode,
    play_action,
    push_action,
)
from tabletop.envs.kult.effects import COLOURS

if TYPE_CHECKING:
    from tabletop.envs.kult.engine import KultState


def station_name(station: int) -> str:
    """``Scene1`` … ``Cast8``, ``Hub``, ``Pool`` for a position (KU-1.1)."""
    if station == HUB:
        return "Hub"
    if station == POOL:
        return "Pool"
    return f"Scene{station + 1}" if station < 4 else f"Cast{station + 1}"


def colour_name(colour: int) -> str:
    return COLOURS[colour].capitalize()


def mover(state: KultState) -> int:
    """Whose action texts are read: the player to move (the active one once over)."""
    return state.active if state.is_terminal() else state.player


def slot_card(state: KultState, seat: int, action: int) -> int | None:
    """The pool index of the hand card an action plays or discards (``None``: no card, or
    an empty slot)."""
    kind, fields = decode(action)
    if kind not in ("play", "attach", "command", "discard"):
        return None
    hand = state.hands[seat]
    return state.table.cards[hand[fields[0]]].index if fields[0] < len(hand) else None


def action_to_string(state: KultState, action: int, observer: int | None = None) -> str:
    """The notation of ``action`` for the player to move; every move is public, so every
    observer reads the same text."""
    seat = mover(state)
    card = slot_card(state, seat, action)
    name = state.game.cards[card].name if card is not None else None
    return move_text(state.game.num_players, seat, action, name, state.window is not None)


def move_text(players: int, seat: int, action: int, name: str | None, window: bool) -> str:
    """The notation of ``seat``'s ``action`` playing or discarding card ``name`` (``None``:
    an empty hand slot, ``slot<n>``), ``pass`` for ``done`` in a Commands ``window``."""
    kind, fields = decode(action)
    if kind == "done":
        return "pass" if window else "done"
    if name is None:
        name = f"slot{fields[0]}"
    at = (
        ""
        if kind not in ("play", "attach") or fields[1] <= 0
        else f"@p{(seat + fields[1]) % players}"
    )
    if kind == "attract":
        return f"attract {station_name(fields[0])}>{station_name(fields[1])}"
    if kind == "recruit":
        return f"recruit {station_name(fields[0])}"
    if kind == "push":
        source, target, colour = fields
        shown = "" if colour == NO_COLOUR else f" {colour_name(colour)}"
        return f"push {station_name(source)}>{station_name(target)}{shown}"
    if kind == "play":
        return f"play {name}>{station_name(fields[2])}{at}"
    if kind == "attach":
        where = "Pool" if fields[1] < 0 else f"{station_name(fields[2])}{at}"
        return f"attach {name}>{where}"
    if kind == "command":
        return f"play {name}"
    if kind in ("turn", "invoke"):
        return f"{kind} {station_name(fields[0])}"
    if kind == "attack":
        attacker, offset, target = fields
        return (
            f"attack {station_name(attacker)}>p{(seat + offset) % players}.{station_name(target)}"
        )
    return f"discard {name}"


POSITION = {"hub": HUB, "pool": POOL}
POSITION.update({f"scene{s + 1}": s for s in range(4)})
POSITION.update({f"cast{s + 1}": s for s in range(4, 8)})
COLOUR_OF = {name: index for index, name in enumerate(COLOURS)}
TARGET = re.compile(r"^(?P<where>\w+?)(?:@p(?P<seat>\d))?$")


def string_to_action(state: KultState, text: str) -> int:
    """The action id of ``text`` (the notation above; case and spacing are free)."""
    words = text.strip().split(maxsplit=1)
    if not words:
        raise IllegalActionError("kult: empty action text")
    verb, rest = words[0].lower(), (words[1].strip() if len(words) > 1 else "")
    try:
        action = _PARSERS[verb](state, rest) if verb in _PARSERS else None
    except (KeyError, ValueError):
        action = None
    if action is None:
        raise IllegalActionError(
            f"kult: cannot read {text!r}; e.g. 'attract Cast5>Scene1', 'push Hub>Scene2 Skull', "
            "'play Raven>Scene4', 'attach Hex>Cast6@p2', 'attack Cast5>p1.Cast7', 'done'"
        )
    return action


def _position(word: str) -> int:
    return POSITION[word.strip().lower()]


def _pair(rest: str) -> tuple[str, str]:
    source, sep, target = rest.rpartition(">")
    if not sep:
        raise ValueError(rest)
    return source.strip(), target.strip()


def _hand_slot(state: KultState, name: str) -> int:
    """The first hand slot of the player to move holding a card of that name."""
    seat = mover(state)
    cards = state.table.cards
    for slot, iid in enumerate(state.hands[seat]):
        if cards[iid].name.lower() == name.lower():
            return slot
    raise ValueError(name)


def _offset(state: KultState, seat_text: str | None) -> int:
    if seat_text is None:
        return 0
    players = state.game.num_players
    seat = int(seat_text)
    if seat >= players:
        raise ValueError(seat_text)
    return (seat - mover(state)) % players


def _done(state: KultState, rest: str) -> int | None:
    return DONE if not rest else None


def _attract(state: KultState, rest: str) -> int:
    source, target = (_position(word) for word in _pair(rest))
    if not 0 <= source < 8 or target not in (HUB, 0, 1, 2, 3):
        raise ValueError(rest)
    return attract_action(source, target)


def _recruit(state: KultState, rest: str) -> int:
    station = _position(rest)
    if station not in range(4, 8):
        raise ValueError(rest)
    return RECRUIT_BASE + station - 4


def _push(state: KultState, rest: str) -> int:
    move, _, colour = rest.partition(" ")
    if ">" not in move:  # a name with spaces never appears in a push
        raise ValueError(rest)
    source, target = _pair(move)
    shade = COLOUR_OF[colour.strip().lower()] if colour.strip() else NO_COLOUR
    return push_action(_position(source), _position(target), shade)


def _play(state: KultState, rest: str) -> int:
    if ">" not in rest:
        return COMMAND_BASE + _hand_slot(state, rest)
    name, where = _pair(rest)
    match = TARGET.match(where)
    if match is None:
        raise ValueError(where)
    station = _position(match["where"])
    if not 0 <= station < 8:
        raise ValueError(where)
    return play_action(_hand_slot(state, name), _offset(state, match["seat"]), station)


def _attach(state: KultState, rest: str) -> int:
    name, where = _pair(rest)
    slot = _hand_slot(state, name)
    if where.lower() == "pool":
        return attach_action(slot, POOL_TARGET)
    match = TARGET.match(where)
    if match is None:
        raise ValueError(where)
    station = _position(match["where"])
    if station == POOL:
        raise ValueError(where)
    return attach_action(slot, attach_target(_offset(state, match["seat"]), station))


def _station_verb(base: int) -> Callable[[KultState, str], int]:
    def parse(state: KultState, rest: str) -> int:
        station = _position(rest)
        if not 0 <= station < 8:
            raise ValueError(rest)
        return base + station

    return parse


def _attack(state: KultState, rest: str) -> int:
    source, target = _pair(rest)
    seat_text, _, station = target.partition(".")
    if not seat_text.lower().startswith("p"):
        raise ValueError(target)
    attacker, defender = _position(source), _position(station)
    if attacker not in range(4, 8) or defender not in range(4, 8):
        raise ValueError(rest)
    return attack_action(attacker, _offset(state, seat_text[1:]), defender)


def _discard(state: KultState, rest: str) -> int:
    return DISCARD_BASE + _hand_slot(state, rest)


_PARSERS = {
    "done": _done,
    "pass": _done,
    "attract": _attract,
    "recruit": _recruit,
    "push": _push,
    "play": _play,
    "attach": _attach,
    "turn": _station_verb(TURN_BASE),
    "invoke": _station_verb(INVOKE_BASE),
    "attack": _attack,
    "discard": _discard,
}
