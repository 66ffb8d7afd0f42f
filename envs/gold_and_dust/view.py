"""The structured view of a Gold & Dust position (``State.view``, format in ``core.view``),
so the web table can draw it: the information of ``render(observer)`` as data, every
face-up card with its face from the card data, and for each legal move the piece a player
picks first and the one it goes to or hits. Ids are positional (a hand or board slot,
never a card), so that a face-down card's id tells nothing of what it is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

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
from tabletop.envs.gold_and_dust.actions import DECODED, HERO_TARGET, NO_TARGET, decode
from tabletop.envs.gold_and_dust.cards import UNIT, Card, Hero
from tabletop.envs.gold_and_dust.effects import ALLY, BACK, FRONT
from tabletop.envs.gold_and_dust.notation import hand_labels, unit_labels
from tabletop.envs.gold_and_dust.phases import OVER
from tabletop.envs.gold_and_dust.rendering import (
    DECISIONS,
    attack_text,
    card_traits,
    cost_text,
    status_line,
)

if TYPE_CHECKING:
    from tabletop.envs.core.engine import EventRecord
    from tabletop.envs.gold_and_dust.engine import GoldDustState

UNIT_FLAGS = ("tapped", "resting", "moved", "dead")
STEPS = {
    "main": "Deploy: {who} plays cards and moves units up",
    "shoot": "Ranged attack: {who}'s second row shoots",
    "attack": "Attack: {who} declares attackers",
    "block": "Block: {foe} chooses blockers",
    "strike": "Strike: {who} picks what each unblocked attacker hits",
}
"""The step of the turn in words (GD-4.2 B to F), by ``phase_name``."""

Ref = int | str
"""A piece a decision was about, as the engine keeps it: a card instance id (it may move,
die or be buried since) or a Hero's piece id."""


class Played(NamedTuple):
    """A seat's last decision but ``done`` (``GoldDustState.last_plays``): its event
    record (public: every card is played face up, GD-9.3) and the pieces it moved from and
    to, found again wherever they are when the view is drawn."""

    record: EventRecord
    ends: tuple[Ref, ...]


def view(state: GoldDustState, observer: int | None = None) -> dict[str, Any]:
    """Both sides (Hero, hand, deck, rows, artifacts, graveyard) and the dice of the last
    move; ``observer`` sees the opponent's hand face down and no deck's cards."""
    areas = []
    for seat in (0, 1):
        areas += _side_areas(state, seat, shows_hand=observer in (None, seat))
    areas.append(_dice_area(state, observer))
    return make_view(
        state,
        observer,
        status=status_line(state),
        players=[player(seat, state.heroes[seat].name, _counters(state, seat)) for seat in (0, 1)],
        areas=areas,
        move_pieces=lambda action: move_pieces(state, action),
        move_ends=lambda action: move_ends(state, action),
        phase=phase_text(state),
        last_moves=_last_moves(state, observer),
        outcome=outcome_text(state),
    )


# ----- moves: what is picked first, and what it goes to or hits -----------------------------


def move_ends(state: GoldDustState, action: int) -> tuple[str | None, str | None]:
    """``(source, target)`` of a move: the card played and the unit or Hero it aims at;
    the unit that moves up, attacks (no target: it is a choice of that unit), shoots or
    strikes and what it hits; for a block the defender's blocker, then the attacker it
    stops. ``done`` is a button: neither."""
    active, enemy = state.active, 1 - state.active
    match decode(action):
        case "done", ():
            return None, None
        case "play", (hand_slot, target):
            return f"hand{active}/{hand_slot}", _play_target_id(state, hand_slot, target)
        case "move" | "attack", (slot,):
            return _unit_id(active, slot), None
        case "shoot", (slot, target):
            return _unit_id(active, slot), _shot_target_id(enemy, target)
        case "block", (attacker, blocker):
            return _unit_id(enemy, blocker), _unit_id(active, attacker)
        case _, (target,):  # strike
            return _unit_id(active, state.strikes[0]), _shot_target_id(enemy, target)


def move_pieces(state: GoldDustState, action: int) -> list[str]:
    """The ids of the pieces ``action`` is about (its ends); none for ``done``."""
    return [end for end in move_ends(state, action) if end]


def _play_target_id(state: GoldDustState, hand_slot: int, target: int) -> str | None:
    """The Hero or unit a card is played on, on the side its card aims at."""
    hand = state.hand_cards[state.active]
    if target == NO_TARGET or hand_slot >= len(hand):
        return None
    aim = state.card(hand[hand_slot]).aim
    side = state.active if aim is not None and aim.side == ALLY else 1 - state.active
    return _hero_id(side) if target == HERO_TARGET else _unit_id(side, target - 2)


def _hero_id(seat: int) -> str:
    return f"hero{seat}"


def _unit_id(seat: int, slot: int) -> str:
    """A unit by its board slot, which it keeps when it moves up."""
    return f"board{seat}/{slot}"


def _shot_target_id(seat: int, target: int) -> str:
    """Shots and strikes: 0 the Hero, 1 + unit slot."""
    return _hero_id(seat) if target == 0 else _unit_id(seat, target - 1)


# ----- phase, last moves, outcome ----------------------------------------------------------


def phase_text(state: GoldDustState) -> str:
    """The step of the turn in words, naming whose it is."""
    if state.phase == OVER:
        return "Game over"
    who, foe = (
        f"player {seat} ({state.heroes[seat].name})" for seat in (state.active, 1 - state.active)
    )
    return STEPS[state.phase_name].format(who=who, foe=foe)


def outcome_text(state: GoldDustState) -> str | None:
    """The end in words (GD-9.1): whose Hero fell, or the turn limit."""
    if state.phase != OVER:
        return None
    if state.winner == DRAW:
        return f"Draw: the turn limit ({state.game.max_turns} turns) was reached"
    winner, loser = state.winner, 1 - state.winner
    heroes = state.heroes
    return (
        f"Player {winner} ({heroes[winner].name}) wins: player {loser}'s Hero "
        f"({heroes[loser].name}) has fallen"
    )


def played_ends(state: GoldDustState, action: int) -> tuple[Ref, ...] | None:
    """What a legal ``action`` is about, kept by the engine before it is played (on every
    move, so read from the fields without building ids): the instance ids of the card or
    unit and of the unit it hits, or a Hero's piece id; ``None`` for ``done``, which
    leaves the table as it is."""
    kind, fields = DECODED[action]
    active, enemy = state.active, 1 - state.active
    boards = state.boards
    if kind == "play":
        hand_slot, target = fields
        iid = state.hand_cards[active][hand_slot]
        if target == NO_TARGET:
            return (iid,)
        aim = state.table.cards[iid].aim
        side = active if aim is not None and aim.side == ALLY else enemy
        hit = _hero_id(side) if target == HERO_TARGET else boards[side][target - 2].iid
        return iid, hit
    if kind in ("move", "attack"):
        return (boards[active][fields[0]].iid,)
    if kind == "block":
        return boards[enemy][fields[1]].iid, boards[active][fields[0]].iid
    if kind == "done":
        return None
    slot, target = fields if kind == "shoot" else (state.strikes[0], fields[0])
    hit = _hero_id(enemy) if target == 0 else boards[enemy][target - 1].iid
    return boards[active][slot].iid, hit


def _last_moves(state: GoldDustState, observer: int | None) -> list[dict[str, Any]]:
    """Each seat's last decision in the observer's words, with its pieces where they are
    now (a unit that died is in the graveyard; a spell too, once cast)."""
    where = _positions(state)
    shown = []
    for seat, played in enumerate(state.last_plays):
        if played is None or played.record[0] not in DECISIONS:
            continue
        text = state._describe_event(*played.record, observer).text
        pieces = [ref if isinstance(ref, str) else where.get(ref) for ref in played.ends]
        shown.append(last_move(seat, text, [p for p in pieces if p]))
    return shown


def _positions(state: GoldDustState) -> dict[int, str]:
    """Instance id -> piece id for every public card on the table (units, artifacts,
    graveyards)."""
    where = {}
    for seat in (0, 1):
        for slot, unit in enumerate(state.boards[seat]):
            if unit is not None:
                where[unit.iid] = _unit_id(seat, slot)
        for zone in ("artifacts", "graveyard"):
            for i, iid in enumerate(state.table.zones[zone][seat]):
                where[iid] = f"{zone}{seat}/{i}"
    return where


def _counters(state: GoldDustState, seat: int) -> dict[str, int]:
    return {
        "HP": state.hp[seat],
        "gold": state.gold[seat],
        "dust": state.dust[seat],
        "hand": len(state.hand_cards[seat]),
        "deck": len(state.deck_cards[seat]),
        "next fatigue": state.fatigue[seat],
    }


# ----- card faces ----------------------------------------------------------------------------


def card_face_of(card: Card) -> dict[str, Any]:
    """A unit, spell or artifact as printed in the pool: cost in gold and dust, a unit's
    attack (base + die), armour and HP, its traits and keywords, the card's text."""
    if card.kind == UNIT:
        kind = f"{card.role} unit"
        stats: dict[str, int | str] = {
            "attack": attack_text(card.attack, card),
            "armour": card.armour,
            "HP": card.hp,
        }
    else:
        kind = "lasting artifact" if card.persistent else card.kind
        stats = {}
    return card_face(
        card.name,
        kind,
        cost=cost_text(card.gold, card.dust),
        stats=stats,
        keywords=[trait.replace("_", " ") for trait in card_traits(card)],
        text=card.text,
    )


def hero_face(hero: Hero) -> dict[str, Any]:
    """A Hero card (GD-2): hit points, resources at the start and per turn, its passive."""
    stats = {
        "HP": hero.hp,
        "gold": f"{hero.gold} (+{hero.gold_regen})",
        "dust": f"{hero.dust} (+{hero.dust_regen})",
    }
    text = f"Passive: {hero.passive.text} {hero.text}".strip()
    return card_face(hero.name, "hero", stats=stats, text=text)


def _card_detail(card: Card) -> str:
    """What the card is and its text: ``melee unit 1+k3 arm 0 HP 5, ranged. <text>``."""
    if card.kind == UNIT:
        what = f"{card.role} unit {attack_text(card.attack, card)} arm {card.armour} "
        what += f"HP {card.hp}" + "".join(f", {trait}" for trait in card_traits(card))
    else:
        what = "lasting artifact" if card.persistent else card.kind
    return f"{what}. {card.text}"


def _card_piece(
    piece_id: str, card: Card, label: str | None = None, **extra: Any
) -> dict[str, Any]:
    return piece(
        piece_id,
        label or card.name,
        detail=_card_detail(card),
        card=card_face_of(card),
        **{"tags": [card.kind], **extra},
    )


# ----- one side of the table ------------------------------------------------------------------


def _side_areas(state: GoldDustState, seat: int, *, shows_hand: bool) -> list[dict[str, Any]]:
    """The Hero, the hand (face down unless shown), the deck as a pile, both rows of units,
    the lasting artifacts and the graveyard of ``seat``."""
    hand = _hand_pieces(state, seat) if shows_hand else _hidden_hand(state, seat)
    artifacts = [
        _card_piece(f"artifacts{seat}/{i}", state.card(iid))
        for i, iid in enumerate(state.artifact_cards[seat])
    ]
    graveyard = [
        _card_piece(f"graveyard{seat}/{i}", state.card(iid))
        for i, iid in enumerate(state.grave_cards[seat])
    ]
    whose = f"Player {seat}'s"
    deck_count = len(state.deck_cards[seat])
    return [
        area(f"hero{seat}", f"{whose} Hero", [_hero_piece(state, seat)], owner=seat),
        area(f"hand{seat}", f"{whose} hand", hand, owner=seat),
        area(f"deck{seat}", f"{whose} deck", [], owner=seat, layout="pile", count=deck_count),
        area(f"front{seat}", f"{whose} first row", _row_pieces(state, seat, FRONT), owner=seat),
        area(f"back{seat}", f"{whose} second row", _row_pieces(state, seat, BACK), owner=seat),
        area(f"artifacts{seat}", f"{whose} artifacts", artifacts, owner=seat),
        area(f"graveyard{seat}", f"{whose} graveyard", graveyard, owner=seat, layout="pile"),
    ]


def _hero_piece(state: GoldDustState, seat: int) -> dict[str, Any]:
    hero = state.heroes[seat]
    return piece(
        _hero_id(seat),
        hero.name,
        detail=f"passive: {hero.passive.text}",
        tags=["hero"] + (["damaged"] if state.hp[seat] < hero.hp else []),
        marks={"HP": f"{state.hp[seat]}/{hero.hp}"},
        card=hero_face(hero),
    )


def _hidden_hand(state: GoldDustState, seat: int) -> list[dict[str, Any]]:
    """Only how many cards the opponent holds (GD-9.3)."""
    return [hidden_piece(f"hand{seat}/{i}") for i in range(len(state.hand_cards[seat]))]


def _hand_pieces(state: GoldDustState, seat: int) -> list[dict[str, Any]]:
    """Each card under the name the notation uses; its cost now when an aura changes it
    (the printed one is on its face) and an ``unaffordable`` tag, as ``render`` marks it."""
    labels = hand_labels(state, seat)
    pieces = []
    for slot, iid in enumerate(state.hand_cards[seat]):
        card = state.card(iid)
        gold, dust = state.cost_of(seat, card)
        affordable = gold <= state.gold[seat] and dust <= state.dust[seat]
        marks = (
            {} if (gold, dust) == (card.gold, card.dust) else {"costs now": cost_text(gold, dust)}
        )
        tags = [card.kind] + ([] if affordable else ["unaffordable"])
        pieces.append(_card_piece(f"hand{seat}/{slot}", card, labels[slot], tags=tags, marks=marks))
    return pieces


def _row_pieces(state: GoldDustState, seat: int, row: int) -> list[dict[str, Any]]:
    labels = unit_labels(state, seat)
    return [
        _unit_piece(state, seat, slot, labels[slot])
        for slot, unit in enumerate(state.boards[seat])
        if unit is not None and unit.row == row
    ]


def _unit_piece(state: GoldDustState, seat: int, slot: int, label: str) -> dict[str, Any]:
    """A unit: its printed card, and as marks its attack and armour now, its HP and its
    part in the declared attack; its flags as tags."""
    unit = state.boards[seat][slot]
    card = unit.card
    flags = [flag for flag in UNIT_FLAGS if getattr(unit, flag)]
    tags = [*([card.role] if card.role else []), *card_traits(card), *flags]
    if unit.hp < unit.max_hp:
        tags.append("damaged")
    marks: dict[str, int | str] = {
        "attack": attack_text(state.attack_of(seat, unit), card),
        "armour": state.armour_of(seat, unit),
        "HP": f"{unit.hp}/{unit.max_hp}",
    }
    if state.phase != OVER:  # as in ``render``: a finished game's last attack is history
        _mark_attack(state, seat, slot, tags, marks)
    return _card_piece(_unit_id(seat, slot), card, label, tags=tags, marks=marks)


def _mark_attack(
    state: GoldDustState, seat: int, slot: int, tags: list[str], marks: dict[str, int | str]
) -> None:
    """Tag a declared attacker (with its place in the order and its blocker) or a blocker."""
    if seat == state.active and slot in state.attackers:
        tags.append("attacking")
        marks["attack order"] = state.attackers.index(slot) + 1
        blocker = state.blocks.get(slot)
        if blocker is not None:
            marks["blocked by"] = state.unit_label(1 - seat, blocker)
    elif seat != state.active and slot in state.blocks.values():
        attacker = next(a for a, b in state.blocks.items() if b == slot)
        tags.append("blocking")
        marks["blocks"] = state.unit_label(state.active, attacker)


# ----- the dice ------------------------------------------------------------------------------


def _dice_area(state: GoldDustState, observer: int | None) -> dict[str, Any]:
    """The dice the last move rolled, which lie on the table until the next move (GD-3.4)."""
    dice = [
        piece(
            f"dice/{i}",
            f"{event.data['dice']} {event.data['total']}",
            detail=event.text,
            tags=["die", event.data["dice"]],
            marks={"total": event.data["total"]},
        )
        for i, event in enumerate(e for e in state.last_events(observer) if e.kind == "dice_rolled")
    ]
    return area("dice", "Dice", dice)
