"""HKK's structured picture (``State.view``, format in ``core.view``): what ``render`` shows,
as data a page can draw as a card table, with the legal moves naming the cards they are
about.

Each seat's side of the table is its guard post, its reserve, the cards beside them
(buildings, table items, skills, enchantments), its hand (face down to the other player),
its deck, discard pile and Void, and the player (what an attack at the player hits); a card
attached to another (an item on its carrier, an enchantment, a level-up, a body part) is
drawn with its carrier (``on``). The chain is a shared area while it is open. Every face-up
card carries its face from the card data (``card_face``): cost, printed figures, keywords
and full text; what play did to it (damage taken, counters, levels, its figures now) are
its ``marks``.

Pieces are named by place, never by card: ``hand<seat>/<slot>``, ``table<seat>/<position>``
(the table positions the action space addresses), ``discard<seat>/<i>``, ``void<seat>/<i>``,
``chain/<i>`` (from the bottom of the chain) and ``player<seat>`` (an attack's target)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from tabletop.envs.core.cards.phases import DRAW
from tabletop.envs.core.view import (
    Value,
    area,
    card_face,
    hidden_piece,
    last_move,
    make_view,
    piece,
    player,
)
from tabletop.envs.hkk import figures, plays
from tabletop.envs.hkk.actions import DECODED, PLAYER_TARGET, decode, decode_ref, enemy_ref
from tabletop.envs.hkk.cards import (
    Adventurer,
    Building,
    Card,
    Creature,
    Enchantment,
    Instant,
    Item,
    LevelUp,
    Modifier,
)
from tabletop.envs.hkk.combat import PLAYER, SpoilsChoice, StrikeBackChoice
from tabletop.envs.hkk.effects import Abilities
from tabletop.envs.hkk.galetki import EatChoice
from tabletop.envs.hkk.rendering import card_line
from tabletop.envs.hkk.steps import PHASE_NAMES
from tabletop.envs.hkk.turns import QUIET_TURNS, UpkeepChoice, UpkeepOrder
from tabletop.envs.hkk.zones import InPlay

if TYPE_CHECKING:
    from tabletop.envs.hkk.engine import HkkState

Places = dict[int, tuple[int, int]]
"""iid -> (seat, table position) of the cards on the tables."""
Played = tuple[int, tuple[int | str, ...], tuple["Card | None", ...]]
"""A seat's last play as ``HkkState.last_plays`` keeps it (``played``): the action, the
cards (iids) and players (piece ids) it named, and those cards (``None`` for a player)."""

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

PHASE_WORDS = {
    "upkeep": "Preparation: upkeep",
    "sacrifice": "Preparation: sacrifice monsters for components",
    "main": "Main phase",
    "swap": "Swap: move creatures between reserve and guard post",
    "before attacks": "Combat: before attacks",
    "declare": "Combat: declare attacks",
    "after attacks": "Combat: after attacks",
    "direct damage": "Combat: direct damage",
    "saving after breath": "Combat: saving lives after direct damage",
    "saving after strike": "Combat: saving lives after the strike",
    "main again": "Main phase, continued",
    "healing": "Healing",
    "over": "Game over",
}
"""Each step of ``PHASE_NAMES`` as the page's phase line says it (HK-3, HK-6)."""

AREA_ORDER = ("guard", "reserve", "beside", "player", "hand", "deck", "discard", "void")
"""A seat's areas from the middle of the table outwards: the guard posts face each other."""
AREA_TITLES = {
    "guard": "guard post",
    "reserve": "reserve",
    "beside": "buildings and other cards",
    "hand": "hand",
    "deck": "deck",
    "discard": "discard pile",
    "void": "Void",
}


def view(state: HkkState, observer: int | None = None) -> dict[str, Any]:
    """The position as ``observer`` may see it (HK-11.1): everything for ``None``. The
    other seat's areas come first, outermost first; the chain between the two sides."""
    places = {e.iid: (seat, p) for seat in (0, 1) for p, e in enumerate(state.tables[seat])}
    bottom = 0 if observer is None else observer
    tables = _table_areas(state, observer, places)
    areas = _seat_areas(state, 1 - bottom, observer, tables)[::-1]
    if state.stack:
        areas.append(area("chain", "Chain (last played on top)", _chain(state, places)))
    areas += _seat_areas(state, bottom, observer, tables)
    return make_view(
        state,
        observer,
        status=_status(state, places),
        players=[player(seat, f"Player {seat}", _counters(state, seat)) for seat in (0, 1)],
        areas=areas,
        move_pieces=lambda action: move_pieces(state, action),
        move_ends=lambda action: move_ends(state, action),
        phase=phase(state),
        last_moves=_last_moves(state, places),
        outcome=outcome(state),
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


def phase(state: HkkState) -> str:
    """The step of the turn in words, whose turn it is, and an open chain."""
    if state.winner is not None:
        return PHASE_WORDS["over"]
    text = f"Player {state.active}'s turn {state.turn}: {PHASE_WORDS[PHASE_NAMES[state.phase]]}"
    if state.stack:
        count = len(state.stack.items)
        text += f"; the chain is open with {count} play{'s' * (count > 1)}: answer it or pass"
    return text


def outcome(state: HkkState) -> str | None:
    """The result in words from how the game ended (HK-2.3), ``None`` while it goes on."""
    if state.winner is None:
        return None
    life = state.life
    if state.winner != DRAW:
        loser = 1 - state.winner
        return f"Player {state.winner} wins: player {loser} is down to {life[loser]} life"
    if life[0] <= 0 and life[1] <= 0:
        return f"A draw: both players are out of life ({life[0]} and {life[1]})"
    if state.plies >= state.game.ply_limit:
        return f"A draw: the game reached its limit of {state.game.ply_limit} decisions"
    return f"A draw: both decks are empty and no life changed for {QUIET_TURNS} turns"


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


# ----- card faces ---------------------------------------------------------------------------


def face(card: Card) -> dict[str, Any]:
    """What the card's face says, from the card data alone: type line, cost (magic points;
    builders for a building, components for an item), printed figures, keywords, text."""
    return card_face(
        card.name,
        _kind(card),
        cost=_cost(card),
        stats=_stats(card),
        keywords=keywords(card),
        text=card.text,
    )


def _kind(card: Card) -> str:
    """The type line: the type (HK-1.3), a creature's subtypes, an item's subtype."""
    kind = card.TYPE.replace("level_up", "level-up").replace("_", " ")
    subtypes = getattr(card, "subtypes", ())
    if isinstance(card, Item) and card.subtype is not None:
        subtypes = (card.subtype,)
    return f"{kind} — {', '.join(subtypes)}" if subtypes else kind


def _cost(card: Card) -> Value | None:
    """Magic points (a number), or what a building or an item costs instead (HK-9)."""
    if isinstance(card, Building):
        return f"{card.builders} builder{'s' * (card.builders != 1)}"
    if isinstance(card, Item):
        return f"{card.components} component{'s' * (card.components != 1)}"
    return getattr(card, "cost", None)


def _stats(card: Card) -> dict[str, Value]:
    """The printed figures: a creature's damage, life and components, a building's
    structure, a level-up's levels, the bonus a card gives."""
    if isinstance(card, Creature):
        stats: dict[str, Value] = {"damage": card.damage, "life": card.life}
        if card.components:
            stats["components"] = card.components
        return stats
    if isinstance(card, Building):
        return {"structure": card.structure}
    if isinstance(card, LevelUp):
        return {"levels": card.levels}
    bonus = dict(getattr(card, "statics", ())).get("bonus")
    if bonus is None:
        return {}
    return {"bonus": f"{bonus.damage:+d}/{bonus.life:+d}"}


def keywords(card: Card) -> list[str]:
    """The card's keywords: its abilities (HK-7), direct damage, drawbacks, what it grants,
    where it goes and whether it answers."""
    words = ability_words(getattr(card, "abilities", Abilities()))
    if isinstance(card, Creature):
        if card.direct is not None:
            breath = card.direct.breath
            form = f" ({card.direct.form})" if card.direct.form else ""
            words.append(f"breath {breath}{form}" if breath else "direct damage")
        if card.item_use and not isinstance(card, Adventurer):
            words.append("uses items")
        words += [_drawback(drawback) for drawback in card.drawbacks]
    if isinstance(card, Modifier):
        grant = dict(card.statics).get("grant")
        if grant is not None:
            words += [f"grants {word}" for word in ability_words(grant)]
    if isinstance(card, Enchantment) and card.attach is not None:
        words.append(f"enchant {card.attach}")
    if isinstance(card, Instant) and card.reaction:
        words.append("reaction")
    return words


def ability_words(abilities: Abilities) -> list[str]:
    """The HK-7 abilities present, as a card says them."""
    words = []
    for name, value in abilities:
        if not value:
            continue
        if name == "immunity":
            words.append(f"immune to {', '.join(value)}")
        elif name in ("poison", "regeneration"):
            words.append(f"{name} {value}")
        elif name == "untargetable":
            words.append(f"not a target of {', '.join(value)}")
        elif name == "unaffected":
            words.append(f"unaffected by {', '.join(value)}")
        else:
            words.append(name.replace("_", " "))
    return words


def _drawback(drawback: Any) -> str:
    """A drawback (HK-7.11) in a few words."""
    if drawback.kind == "upkeep":
        paid = {"VP": drawback.vp, "life": drawback.life, "components": drawback.components}
        return "upkeep " + ", ".join(f"{amount} {what}" for what, amount in paid.items() if amount)
    if drawback.kind == "body_parts":
        return f"at most {drawback.count} body part{'s' * (drawback.count != 1)}"
    return f"weak against {drawback.ability.replace('_', ' ')}"


# ----- areas --------------------------------------------------------------------------------


def _seat_areas(
    state: HkkState, seat: int, observer: int | None, tables: dict[str, dict[str, Any]]
) -> list[dict[str, Any]]:
    """A seat's areas in ``AREA_ORDER``: guard post, reserve, cards beside them (from
    ``tables``), the player, hand (face down to the other player), deck, discard pile and
    Void."""
    titles = _titles(seat, observer)
    hand = state.hands[seat]
    if observer in (None, seat):
        held = [_card(f"hand{seat}/{slot}", state.card(iid)) for slot, iid in enumerate(hand)]
    else:
        held = [hidden_piece(f"hand{seat}/{slot}") for slot in range(len(hand))]
    deck = len(state.decks[seat])
    shown = {
        **{key: tables[f"{key}{seat}"] for key in ("guard", "reserve", "beside")},
        "player": area(f"player{seat}", f"Player {seat}", [_player(state, seat)], owner=seat),
        "hand": area(f"hand{seat}", titles["hand"], held, owner=seat),
        "deck": area(f"deck{seat}", titles["deck"], [], owner=seat, layout="pile", count=deck),
        "discard": _pile(state, seat, "discard", titles["discard"]),
        "void": _pile(state, seat, "void", titles["void"]),
    }
    return [shown[key] for key in AREA_ORDER]


def _titles(seat: int, observer: int | None) -> dict[str, str]:
    whose = "Your" if observer == seat else f"Player {seat}'s"
    return {key: f"{whose} {title}" for key, title in AREA_TITLES.items()}


def _table_areas(
    state: HkkState, observer: int | None, places: Places
) -> dict[str, dict[str, Any]]:
    """Both seats' guard posts, reserves and cards beside them by area id; a card attached
    to another lies in the area of the card that carries them all, on its carrier."""
    tables = {
        f"{key}{seat}": area(f"{key}{seat}", _titles(seat, observer)[key], [], owner=seat)
        for seat in (0, 1)
        for key in ("guard", "reserve", "beside")
    }
    for seat in (0, 1):
        for position, entry in enumerate(state.tables[seat]):
            where, host = _spot(state, seat, entry, places)
            shown = _entry(state, seat, position, entry, places, host)
            tables[where]["pieces"].append(shown)
    return tables


def _spot(
    state: HkkState, seat: int, entry: InPlay, places: Places
) -> tuple[str, tuple[int, int] | None]:
    """The area id a table card is drawn in (an attached card: that of the first card of
    its chain of carriers) and its carrier's place, if it has one."""
    host = places.get(entry.host) if entry.host is not None else None
    carrier, side = entry, seat
    while carrier.host is not None and carrier.host in places:
        side, position = places[carrier.host]
        carrier = state.tables[side][position]
    return ("beside" if carrier.area == "attached" else carrier.area) + str(side), host


def _player(state: HkkState, seat: int) -> dict[str, Any]:
    """The player as a piece: what an attack or a breath at the player hits."""
    marks = {"life": state.life[seat], "VP": state.vp[seat],
             "components": state.components[seat]}  # fmt: skip
    tags = ["player", "to-move"] if state.winner is None and state.player == seat else ["player"]
    return piece(f"player{seat}", f"Player {seat}", detail="Life, magic points (VP) and "
                 "components", tags=tags, marks=marks)  # fmt: skip


def _pile(state: HkkState, seat: int, zone: str, title: str) -> dict[str, Any]:
    """A public pile, face up, bottom card first."""
    iids = state.table.zones[zone][seat]
    cards = [_card(f"{zone}{seat}/{i}", state.card(iid)) for i, iid in enumerate(iids)]
    return area(f"{zone}{seat}", title, cards, owner=seat, layout="pile")


def _card(
    piece_id: str,
    card: Card,
    tags: tuple[str, ...] = (),
    marks: dict[str, Value] | None = None,
    on: str | None = None,
) -> dict[str, Any]:
    """A face-up card: its name, face, a player's line of it, type and colour, and
    ``tags``, ``marks`` and the carrier it lies ``on``."""
    tags = (card.TYPE, card.colour, *tags)
    return piece(piece_id, card.name, detail=card_line(card), tags=tags, marks=marks,
                 card=face(card), on=on)  # fmt: skip


def _entry(
    state: HkkState,
    seat: int,
    position: int,
    entry: InPlay,
    places: Places,
    host: tuple[int, int] | None,
) -> dict[str, Any]:
    """A table card with its area, active or passive, and the marks play left on it."""
    marks: dict[str, Value] = {}
    if figures.is_creature(entry):
        marks["damage/life"] = f"{figures.damage(state, entry)}/{figures.life(state, entry)}"
    counted = (("damage taken", entry.damage), ("poison", entry.poison),
               ("+1/+1", entry.counters), ("level", entry.levels))  # fmt: skip
    marks.update((mark, value) for mark, value in counted if value)
    if entry.boost != (0, 0):
        marks["boost"] = "{:+d}/{:+d}".format(*entry.boost)
    if state.fight is not None:
        marks.update(_combat_marks(state, entry.iid, places))
    tags = [entry.area, "active" if entry.active else "passive"]
    if entry.damage:
        tags.append("damaged")
    on = None if host is None else f"table{host[0]}/{host[1]}"
    return _card(f"table{seat}/{position}", entry.card, tags=tuple(tags), marks=marks, on=on)


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
            marks["target"] = _where(state, play.target, places)
        shown.append(_card(f"chain/{number}", state.card(play.iid), ("chain",), marks))
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


def move_ends(state: HkkState, action: int) -> tuple[str | None, str | None]:
    """The piece clicked first (the card played, the card acting) and the piece clicked
    second (its target); a choice is made by clicking the card chosen alone, and a pass,
    an upkeep paid or "choose nothing" are buttons."""
    pieces = move_pieces(state, action)
    if decode(action)[0] == "choose":
        return None, pieces[0] if pieces else None
    return (pieces[0] if pieces else None), (pieces[1] if len(pieces) > 1 else None)


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


# ----- last moves ---------------------------------------------------------------------------


def played(state: HkkState, action: int) -> Played:
    """Legal ``action`` of the player to move, before it is made, as ``last_plays`` keeps
    it: the action, the cards and players it names (by iid and piece id: a card's place
    changes) and the cards it names as they are now (its notation is written when a view
    asks, ``_notation``: a decision costs no text)."""
    seat = state.player
    kind, fields = DECODED[action]
    named: list[int | str] = []
    if kind == "play":
        named.append(state.hands[seat][fields[0]])
    elif kind not in ("pay", "choose"):
        named.append(state.tables[seat][fields[0]].iid)
    if kind in ("play", "activate", "choose"):
        target = plays.iid_of_ref(state, seat, fields[-1])
        named += [] if target is None else [target]
    elif kind in ("attack", "breath"):
        aim = fields[-1]
        named.append(f"player{1 - seat}" if aim == PLAYER_TARGET
                     else state.tables[1 - seat][aim - 1].iid)  # fmt: skip
    elif kind == "pay":
        choice = state.choice
        assert isinstance(choice, UpkeepChoice), "hkk: an upkeep is paid only when asked"
        named.append(choice.iid)
    cards = tuple(None if isinstance(one, str) else state.card(one) for one in named)
    return action, tuple(named), cards


def _notation(action: int, cards: tuple[Card | None, ...]) -> str:
    """The notation of a play as another player reads it (``notation.action_to_string``
    with the hand slot left out, HK-11.1), from the cards it named when it was made."""
    kind, fields = DECODED[action]
    if kind == "pay":
        return "pay upkeep"
    if kind == "choose":
        return f"choose {_ref_text(fields[0], cards[0] if cards else None)}"
    source = cards[0].name if cards[0] is not None else ""
    target = cards[1] if len(cards) > 1 else None
    if kind == "play":
        on = f" on {_ref_text(fields[1], target)}" if fields[1] else ""
        return f"play {source}{on}"
    if kind == "activate":
        on = f" on {_ref_text(fields[2], target)}" if fields[2] else ""
        return f"use #{fields[0]} {source} {fields[1] + 1}{on}"
    if kind in ("attack", "breath"):
        aim = fields[-1]
        at = "player" if aim == PLAYER_TARGET else _ref_text(enemy_ref(aim - 1), target)
        if kind == "attack":
            return f"attack #{fields[0]} {source} at {at}"
        return f"breathe #{fields[0]} {source} {fields[1]} at {at}"
    return f"{kind} #{fields[0]} {source}"  # sacrifice, guard, reserve, direct, regenerate


def _ref_text(ref: int, card: Card | None) -> str:
    """A ref as the notation writes it (``notation.ref_text``) with the card it named."""
    where, index = decode_ref(ref)
    if card is None:
        return "nothing"
    place = {"own": "my", "enemy": "their", "discard": "grave"}[where]
    return f"{place} #{index} {card.name}"


def _last_moves(state: HkkState, places: Places) -> list[dict[str, Any]]:
    """Each seat's last play but a pass, with the pieces it named that are still in sight."""
    shown = []
    for seat, kept in enumerate(state.last_plays):
        if kept is not None:
            action, named, cards = kept
            pieces = [_piece_of(state, one, places) for one in named]
            shown.append(last_move(seat, _notation(action, cards), [p for p in pieces if p]))
    return shown


def _piece_of(state: HkkState, named: int | str, places: Places) -> str | None:
    """Where a card a play named lies now, if it is face up (a player: their piece)."""
    if isinstance(named, str):
        return named
    if named in places:
        seat, position = places[named]
        return f"table{seat}/{position}"
    for zone in ("discard", "void"):
        for seat, pile in enumerate(state.table.zones[zone]):
            if named in pile:
                return f"{zone}{seat}/{pile.index(named)}"
    return _on_chain(state.stack.items, named)


def _on_chain(items: Sequence[Any], iid: int) -> str | None:
    """The chain piece of card ``iid`` played and waiting, if it is."""
    for number, item in enumerate(items):
        if item.what.iid == iid and item.what.ability < 0:
            return f"chain/{number}"
    return None
