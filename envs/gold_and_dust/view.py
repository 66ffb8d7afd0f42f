"""The structured view of a Gold & Dust position (``State.view``, format in ``core.view``),
so the web table can draw it: the information of ``render(observer)`` as data, and for
each legal move the pieces it is about. Ids are positional (a hand or board slot, never a
card), so that a face-down card's id tells nothing of what it is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tabletop.envs.core.view import area, hidden_piece, make_view, piece, player
from tabletop.envs.gold_and_dust.actions import HERO_TARGET, decode
from tabletop.envs.gold_and_dust.cards import UNIT, Card
from tabletop.envs.gold_and_dust.effects import BACK, FRONT
from tabletop.envs.gold_and_dust.notation import hand_labels, play_parts, unit_labels
from tabletop.envs.gold_and_dust.phases import OVER
from tabletop.envs.gold_and_dust.rendering import (
    DECISIONS,
    attack_text,
    card_traits,
    cost_text,
    status_line,
)

if TYPE_CHECKING:
    from tabletop.envs.gold_and_dust.engine import GoldDustState

UNIT_FLAGS = ("tapped", "resting", "moved", "dead")


def view(state: GoldDustState, observer: int | None = None) -> dict[str, Any]:
    """Both sides (heroes, hands, decks, rows, artifacts, graveyards), then the last move
    and its dice; ``observer`` sees the opponent's hand face down and no deck's cards."""
    areas = []
    for seat in (0, 1):
        areas += _side_areas(state, seat, shows_hand=observer in (None, seat))
    areas += _last_move_areas(state, observer)
    return make_view(
        state,
        observer,
        status=status_line(state),
        players=[player(seat, state.heroes[seat].name, _counters(state, seat)) for seat in (0, 1)],
        areas=areas,
        move_pieces=lambda action: move_pieces(state, action),
    )


def move_pieces(state: GoldDustState, action: int) -> list[str]:
    """The ids of the pieces ``action`` is about: the card played and its target, the unit
    that moves, shoots, attacks or strikes and what it hits, an attacker and its blocker;
    none for ``done``."""
    active, enemy = state.active, 1 - state.active
    match decode(action):
        case "done", ():
            return []
        case "play", (hand_slot, target):
            card = f"hand{active}/{hand_slot}"
            _, aimed = play_parts(state, hand_slot, target)
            if aimed is None:
                return [card]
            side = aimed[0]
            hit = _hero_id(side) if target == HERO_TARGET else _unit_id(side, target - 2)
            return [card, hit]
        case "move" | "attack", (slot,):
            return [_unit_id(active, slot)]
        case "shoot", (slot, target):
            return [_unit_id(active, slot), _shot_target_id(enemy, target)]
        case "block", (attacker, blocker):
            return [_unit_id(active, attacker), _unit_id(enemy, blocker)]
        case _, (target,):  # strike
            return [_unit_id(active, state.strikes[0]), _shot_target_id(enemy, target)]


def _hero_id(seat: int) -> str:
    return f"hero{seat}"


def _unit_id(seat: int, slot: int) -> str:
    """A unit by its board slot, which it keeps when it moves up."""
    return f"board{seat}/{slot}"


def _shot_target_id(seat: int, target: int) -> str:
    """Shots and strikes: 0 the Hero, 1 + unit slot."""
    return _hero_id(seat) if target == 0 else _unit_id(seat, target - 1)


def _counters(state: GoldDustState, seat: int) -> dict[str, int]:
    return {
        "HP": state.hp[seat],
        "gold": state.gold[seat],
        "dust": state.dust[seat],
        "hand": len(state.hand_cards[seat]),
        "deck": len(state.deck_cards[seat]),
        "next fatigue": state.fatigue[seat],
    }


# ----- one side of the table ------------------------------------------------------------------


def _side_areas(state: GoldDustState, seat: int, *, shows_hand: bool) -> list[dict[str, Any]]:
    """The Hero, the hand (face down unless shown), the deck as a pile, both rows of units,
    the lasting artifacts and the graveyard of ``seat``."""
    hand = _hand_pieces(state, seat) if shows_hand else _hidden_hand(state, seat)
    artifacts = [
        piece(f"artifacts{seat}/{i}", card.name, detail=_card_detail(card), tags=[card.kind])
        for i, card in enumerate(_cards(state, state.artifact_cards[seat]))
    ]
    graveyard = [
        piece(f"graveyard{seat}/{i}", card.name, detail=_card_detail(card), tags=[card.kind])
        for i, card in enumerate(_cards(state, state.grave_cards[seat]))
    ]
    whose = f"Player {seat}'s"
    deck_count = len(state.deck_cards[seat])
    return [
        area(f"hero{seat}", f"{whose} hero", [_hero_piece(state, seat)], owner=seat),
        area(f"hand{seat}", f"{whose} hand", hand, owner=seat),
        area(f"deck{seat}", f"{whose} deck", [], owner=seat, layout="pile", count=deck_count),
        area(f"front{seat}", f"{whose} first row", _row_pieces(state, seat, FRONT), owner=seat),
        area(f"back{seat}", f"{whose} second row", _row_pieces(state, seat, BACK), owner=seat),
        area(f"artifacts{seat}", f"{whose} artifacts", artifacts, owner=seat),
        area(f"graveyard{seat}", f"{whose} graveyard", graveyard, owner=seat, layout="pile"),
    ]


def _cards(state: GoldDustState, iids: list[int]) -> list[Card]:
    return [state.card(iid) for iid in iids]


def _hero_piece(state: GoldDustState, seat: int) -> dict[str, Any]:
    hero = state.heroes[seat]
    return piece(
        _hero_id(seat),
        hero.name,
        detail=f"passive: {hero.passive.text}",
        tags=["hero"],
        marks={"HP": f"{state.hp[seat]}/{hero.hp}"},
    )


def _hidden_hand(state: GoldDustState, seat: int) -> list[dict[str, Any]]:
    """Only how many cards the opponent holds (GD-9.3)."""
    return [hidden_piece(f"hand{seat}/{i}") for i in range(len(state.hand_cards[seat]))]


def _hand_pieces(state: GoldDustState, seat: int) -> list[dict[str, Any]]:
    """Each card under the name the notation uses, with its cost now (auras applied) and
    an ``unaffordable`` tag, as ``render`` marks it ``x``."""
    labels = hand_labels(state, seat)
    pieces = []
    for slot, card in enumerate(_cards(state, state.hand_cards[seat])):
        gold, dust = state.cost_of(seat, card)
        discount = (card.gold - gold) + (card.dust - dust)
        affordable = gold <= state.gold[seat] and dust <= state.dust[seat]
        marks: dict[str, int | str] = {"cost": cost_text(gold, dust)}
        if discount:
            marks["off"] = discount
        if card.kind == UNIT:
            marks |= {
                "attack": attack_text(card.attack, card),
                "armour": card.armour,
                "HP": card.hp,
            }
        tags = [card.kind] + ([] if affordable else ["unaffordable"])
        pieces.append(
            piece(
                f"hand{seat}/{slot}",
                labels[slot],
                detail=_card_detail(card),
                tags=tags,
                marks=marks,
            )
        )
    return pieces


def _row_pieces(state: GoldDustState, seat: int, row: int) -> list[dict[str, Any]]:
    labels = unit_labels(state, seat)
    return [
        _unit_piece(state, seat, slot, labels[slot])
        for slot, unit in enumerate(state.boards[seat])
        if unit is not None and unit.row == row
    ]


def _unit_piece(state: GoldDustState, seat: int, slot: int, label: str) -> dict[str, Any]:
    """A unit with its attack and armour now, its HP, its traits and flags as tags, and its
    part in the declared attack."""
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
    return piece(_unit_id(seat, slot), label, detail=_card_detail(card), tags=tags, marks=marks)


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


def _card_detail(card: Card) -> str:
    """What the card is and its text: ``melee unit 1+k3 arm 0 HP 5, ranged. <text>``."""
    if card.kind == UNIT:
        what = f"{card.role} unit {attack_text(card.attack, card)} arm {card.armour} "
        what += f"HP {card.hp}" + "".join(f", {trait}" for trait in card_traits(card))
    else:
        what = "lasting artifact" if card.persistent else card.kind
    return f"{what}. {card.text}"


# ----- the last move ------------------------------------------------------------------------


def _last_move_areas(state: GoldDustState, observer: int | None) -> list[dict[str, Any]]:
    """What the last move chose, in ``observer``'s words (``done`` leaves nothing), and the
    dice it rolled, which lie on the table until the next move (GD-3.4)."""
    events = state.last_events(observer)
    chosen = [
        piece("last_move", event.text, tags=[event.kind])
        for event in events[:1]
        if event.kind in DECISIONS
    ]
    dice = [
        piece(
            f"dice/{i}",
            f"{event.data['dice']} {event.data['total']}",
            detail=event.text,
            tags=[event.data["dice"]],
            marks={"total": event.data["total"]},
        )
        for i, event in enumerate(e for e in events if e.kind == "dice_rolled")
    ]
    return [area("last_move", "Last move", chosen), area("dice", "Dice", dice)]
