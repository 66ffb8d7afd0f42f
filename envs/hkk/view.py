"""HKK's structured picture (``State.view``, format in ``core.view``): what ``render`` shows,
as data a page can draw, with the legal moves naming the cards they are about.

Pieces are named by place, never by card: ``hand<seat>/<slot>``, ``table<seat>/<position>``
(the table positions the action space addresses), ``discard<seat>/<i>``, ``void<seat>/<i>``,
``chain/<i>`` (from the bottom of the chain) and ``player<seat>`` (an attack's target)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tabletop.envs.core.view import Value, area, hidden_piece, make_view, piece, player
from tabletop.envs.hkk import figures, plays
from tabletop.envs.hkk.actions import PLAYER_TARGET, decode, decode_ref
from tabletop.envs.hkk.cards import Card
from tabletop.envs.hkk.combat import PLAYER, SpoilsChoice, StrikeBackChoice
from tabletop.envs.hkk.galetki import EatChoice
from tabletop.envs.hkk.steps import PHASE_NAMES
from tabletop.envs.hkk.turns import UpkeepChoice, UpkeepOrder
from tabletop.envs.hkk.zones import InPlay

if TYPE_CHECKING:
    from tabletop.envs.hkk.engine import HkkState

Places = dict[int, tuple[int, int]]
"""iid -> (seat, table position) of the cards on the tables."""

CHOICE_NAMES = {
    plays.BuildersChoice: "choose the builders of",
    plays.OptionalChoice: "may use the trigger of",
    StrikeBackChoice: "choose whom to strike back with",
    SpoilsChoice: "may give a killer",
    EatChoice: "feed the galetki",
    UpkeepOrder: "choose the next upkeep",
    UpkeepChoice: "pay the upkeep of",
}
"""The pending decisions (``state.choice``) as the status line says them."""


def view(state: HkkState, observer: int | None = None) -> dict[str, Any]:
    """The position as ``observer`` may see it (HK-11.1): everything for ``None``."""
    places = {e.iid: (seat, p) for seat in (0, 1) for p, e in enumerate(state.tables[seat])}
    areas = [area("players", "Players", [piece(f"player{s}", f"Player {s}") for s in (0, 1)])]
    for seat in (0, 1):
        areas += _seat_areas(state, seat, observer, places)
    areas.append(area("chain", "Chain", _chain(state, places)))
    return make_view(
        state,
        observer,
        status=_status(state, places),
        players=[player(seat, f"Player {seat}", _counters(state, seat)) for seat in (0, 1)],
        areas=areas,
        move_pieces=lambda action: move_pieces(state, action),
    )


def _counters(state: HkkState, seat: int) -> dict[str, Value]:
    return {
        "life": state.life[seat],
        "VP": state.vp[seat],
        "components": state.components[seat],
        "hand": len(state.hands[seat]),
        "deck": len(state.decks[seat]),
        "discard": len(state.discards[seat]),
        "void": len(state.voids[seat]),
    }


def _status(state: HkkState, places: Places) -> str:
    """The step, and who decides what (the winner once over)."""
    if state.winner is not None:
        end = "a draw" if state.winner < 0 else f"player {state.winner} wins"
        return f"Turn {state.turn}: game over, {end}"
    text = f"Turn {state.turn}, player {state.active}'s {PHASE_NAMES[state.phase]}: "
    text += f"player {state.player} to move"
    choice = state.choice
    if choice is None:
        return text
    subject = _subject(choice)
    about = "" if subject is None else f" {_where(state, subject, places)}"
    return f"{text} ({CHOICE_NAMES[type(choice)]}{about})"


def _subject(choice: plays.Choice) -> int | None:
    """The card a pending decision is about: the defender striking back, the building, the
    trigger's card, the item or the upkeep's card; none for a meal or the upkeep order."""
    if isinstance(choice, StrikeBackChoice):
        return choice.defenders[0]
    return getattr(choice, "iid", None)


def _where(state: HkkState, iid: int, places: Places) -> str:
    """A card by its seat and table position, or by name once it is off the tables."""
    if iid not in places:
        return state.card(iid).name
    seat, position = places[iid]
    return f"player {seat}'s #{position} {state.card(iid).name}"


# ----- areas --------------------------------------------------------------------------------


def _seat_areas(
    state: HkkState, seat: int, observer: int | None, places: Places
) -> list[dict[str, Any]]:
    """A seat's hand (face down to the other player), table, deck, discard pile and Void."""
    hand = state.hands[seat]
    if observer in (None, seat):
        held = [_card(f"hand{seat}/{slot}", state.card(iid)) for slot, iid in enumerate(hand)]
    else:
        held = [hidden_piece(f"hand{seat}/{slot}") for slot in range(len(hand))]
    table = [_entry(state, seat, p, e, places) for p, e in enumerate(state.tables[seat])]
    deck = len(state.decks[seat])
    return [
        area(f"hand{seat}", f"Player {seat}'s hand", held, owner=seat),
        area(f"table{seat}", f"Player {seat}'s table", table, owner=seat),
        area(f"deck{seat}", f"Player {seat}'s deck", [], owner=seat, layout="pile", count=deck),
        _pile(state, seat, "discard"),
        _pile(state, seat, "void"),
    ]


def _pile(state: HkkState, seat: int, zone: str) -> dict[str, Any]:
    """A public pile, face up, bottom card first."""
    iids = state.table.zones[zone][seat]
    cards = [_card(f"{zone}{seat}/{i}", state.card(iid)) for i, iid in enumerate(iids)]
    return area(f"{zone}{seat}", f"Player {seat}'s {zone}", cards, owner=seat, layout="pile")


def _card(
    piece_id: str, card: Card, tags: tuple[str, ...] = (), marks: dict[str, Value] | None = None
) -> dict[str, Any]:
    """A face-up card: its name, rules text, type and colour, and ``tags`` and ``marks``."""
    tags = (card.TYPE, card.colour, *tags)
    return piece(piece_id, card.name, detail=card.text, tags=tags, marks=marks)


def _entry(
    state: HkkState, seat: int, position: int, entry: InPlay, places: Places
) -> dict[str, Any]:
    """A table card with its area, active or passive, and the marks play left on it."""
    marks: dict[str, Value] = {}
    if figures.is_creature(entry):
        marks["D/L"] = f"{figures.damage(state, entry)}/{figures.life(state, entry)}"
    counted = (("dmg", entry.damage), ("psn", entry.poison), ("+1/+1", entry.counters),
               ("Lv", entry.levels))  # fmt: skip
    marks.update((mark, value) for mark, value in counted if value)
    if entry.boost != (0, 0):
        marks["boost"] = "{:+d}/{:+d}".format(*entry.boost)
    if entry.host in places:
        marks["on"] = f"#{places[entry.host][1]}"
    if state.fight is not None:
        marks.update(_combat_marks(state, entry.iid, places))
    tags = (entry.area, "active" if entry.active else "passive")
    return _card(f"table{seat}/{position}", entry.card, tags=tags, marks=marks)


def _combat_marks(state: HkkState, iid: int, places: Places) -> dict[str, Value]:
    """What a card does in the combat so far: its attack, strike-back, direct damage."""
    fight = state.combat
    marks: dict[str, Value] = {}
    if iid in fight.attacks:
        marks["attacks"] = _aim(fight.attacks[iid], places)
    if iid in fight.strikes_back:
        marks["strikes back"] = _aim(fight.strikes_back[iid], places)
    breaths = [f"{b.amount} at {_aim(b.target, places)}" for b in fight.breaths if b.iid == iid]
    if breaths:
        marks["direct"] = ", ".join(breaths)
    return marks


def _aim(target: int, places: Places) -> str:
    """An attack's or breath's target: the player, a table position, or gone."""
    if target == PLAYER:
        return "player"
    return f"#{places[target][1]}" if target in places else "gone"


def _chain(state: HkkState, places: Places) -> list[dict[str, Any]]:
    """The plays waiting on the chain, the bottom one first."""
    shown = []
    for number, item in enumerate(state.stack.items):
        play = item.what
        marks: dict[str, Value] = {"player": item.controller}
        if play.ability >= 0:
            marks["ability"] = play.ability + 1
        if play.target is not None:
            marks["on"] = _where(state, play.target, places)
        shown.append(_card(f"chain/{number}", state.card(play.iid), marks=marks))
    return shown


# ----- moves --------------------------------------------------------------------------------


def move_pieces(state: HkkState, action: int) -> list[str]:
    """The pieces legal ``action`` of the player to move is about (``actions.decode``)."""
    seat = state.player
    kind, fields = decode(action)
    if kind in ("pass", "pay"):
        return []
    if kind == "play":
        return [f"hand{seat}/{fields[0]}", *_ref_pieces(state, seat, fields[1])]
    if kind == "activate":
        return [f"table{seat}/{fields[0]}", *_ref_pieces(state, seat, fields[2])]
    if kind == "choose":
        return _ref_pieces(state, seat, fields[0])
    if kind in ("attack", "breath"):
        target = fields[-1]
        aim = f"player{1 - seat}" if target == PLAYER_TARGET else f"table{1 - seat}/{target - 1}"
        return [f"table{seat}/{fields[0]}", aim]
    return [f"table{seat}/{fields[0]}"]  # sacrifice, guard, reserve, direct, regenerate


def _ref_pieces(state: HkkState, seat: int, ref: int) -> list[str]:
    """The piece a ref (``actions``) names for ``seat``: none, a table card or a creature
    card of their discard pile."""
    where, index = decode_ref(ref)
    if where == "own":
        return [f"table{seat}/{index}"]
    if where == "enemy":
        return [f"table{1 - seat}/{index}"]
    if where == "discard":
        iid = plays.iid_of_ref(state, seat, ref)
        return [f"discard{seat}/{state.discards[seat].index(iid)}"]
    return []
