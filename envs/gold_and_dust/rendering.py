"""The text picture of a Gold & Dust position (``render``): the step, both sides as an
observer may see them, the declared attack, and the last move with the dice it rolled.

Module-level functions taking the state; ``GoldDustState`` binds ``render`` as a method.
``GoldDustGame.help_text`` (``narration.HELP``) explains every abbreviation used here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from tabletop.envs.gold_and_dust.cards import KEYWORDS, Card
from tabletop.envs.gold_and_dust.effects import BACK, FRONT
from tabletop.envs.gold_and_dust.narration import dice_text, roll_text
from tabletop.envs.gold_and_dust.notation import slot_name, unit_labels
from tabletop.envs.gold_and_dust.phases import DRAW, OVER

if TYPE_CHECKING:
    from tabletop.envs.gold_and_dust.engine import GoldDustState

DECISIONS = frozenset(
    {"card_played", "unit_moved", "unit_shot", "attack_declared", "block_declared", "unit_struck"}
)
"""Event kinds that record a player's choice; each is the first record of its ``apply``."""


def render(state: GoldDustState, observer: int | None = None) -> str:
    """Both sides, the step and the dice the last move rolled; ``observer`` sees the
    opponent's hand size only. Deck order is never shown (GD-9.3). Hand cards show
    their cost, what they are and their text; ``x`` marks those the player cannot
    afford now. ``GoldDustGame.help_text`` explains every abbreviation."""
    lines = [status_line(state)]
    for player in (0, 1):
        lines += _side_lines(state, player, show_hand=observer in (None, player))
    if state.attackers and state.phase != OVER:  # a finished game's last attack is history
        lines.append("Attack: " + _declared_attack(state))
    lines += _last_move_lines(state, observer)
    return "\n".join(lines)


def _last_move_lines(state: GoldDustState, observer: int | None) -> list[str]:
    """What the last move chose (``done`` leaves no line) and the dice it rolled: all
    of it public, and shown so that the picture holds every fact the events state
    (a heal at full health or a hit that armour absorbs changes nothing else)."""
    lines = []
    if state._events and state._events[0][0] in DECISIONS:
        kind, facts = state._events[0]
        lines.append("Last move: " + state._describe_event(kind, facts, observer).text)
    rolls = [facts for kind, facts in state._events if kind == "dice_rolled"]
    if rolls:  # the dice lie on the table until the next move (GD-3.4)
        lines.append("Dice: " + "; ".join(_roll_text(facts) for facts in rolls))
    return lines


def status_line(state: GoldDustState) -> str:
    if state.phase == OVER:
        result = "draw (turn limit)" if state.winner == DRAW else f"player {state.winner} won"
        return f"Game over after {state.turn} turns: {result}"
    return (
        f"Turn {state.turn}, player {state.active}'s turn; {state.phase_name} step, "
        f"player {state.current_player} decides"
    )


def _side_lines(state: GoldDustState, player: int, *, show_hand: bool) -> list[str]:
    cards = state.game.cards
    grave = ", ".join(cards[i].name for i in state.graveyards[player]) or "-"
    labels = unit_labels(state, player)
    rows = []
    for row, word in ((FRONT, "first row"), (BACK, "second row")):
        units = [
            _unit_text(state, player, slot, labels[slot])
            for slot, unit in enumerate(state.boards[player])
            if unit is not None and unit.row == row
        ]
        rows.append(f"  {word}: {'; '.join(units) or '-'}")
    artifacts = ", ".join(cards[i].name for i in state.artifacts[player]) or "-"
    hero = state.heroes[player]
    return [
        f"Player {player} ({hero.name}): HP {state.hp[player]}/{hero.hp}, "
        f"gold {state.gold[player]}, dust {state.dust[player]}, deck {len(state.decks[player])}, "
        f"next fatigue {state.fatigue[player]}",
        f"  passive: {hero.passive.text}",
        *_hand_lines(state, player, show_hand),
        *rows,
        f"  artifacts: {artifacts}",
        f"  graveyard: {grave}",
    ]


def _hand_lines(state: GoldDustState, player: int, shown: bool) -> list[str]:
    """The hand, a card a line, or only its size for an opponent."""
    hand = state.hands[player]
    if not shown or not hand:
        return [f"  hand: {len(hand)} cards" if hand else "  hand: -"]
    return [f"  hand ({len(hand)} cards):"] + [
        _hand_card_text(state, player, state.game.cards[index]) for index in hand
    ]


def _hand_card_text(state: GoldDustState, player: int, card: Card) -> str:
    """``    - Pikeman (2 gold): melee unit 1+k3 arm 0 HP 5. <text>``; ``x`` instead of
    ``-`` and "cannot afford" when the cost exceeds the player's gold or dust."""
    gold, dust = state.cost_of(player, card)
    cost = cost_text(gold, dust)
    discount = (card.gold - gold) + (card.dust - dust)
    notes = [cost] + ([f"{discount} off"] if discount else [])
    affordable = gold <= state.gold[player] and dust <= state.dust[player]
    if not affordable:
        notes.append("cannot afford")
    if card.is_unit:
        what = f"{card.role} unit {attack_text(card.attack, card)} arm {card.armour} "
        what += f"HP {card.hp}" + "".join(f", {trait}" for trait in card_traits(card))
    else:
        what = "lasting artifact" if card.persistent else card.kind
    marker = "-" if affordable else "x"
    return f"    {marker} {card.name} ({', '.join(notes)}): {what}. {card.text}"


def _unit_text(state: GoldDustState, player: int, slot: int, label: str) -> str:
    unit = state.boards[player][slot]
    card = unit.card
    flags = card_traits(card) + [
        word
        for word, on in (
            ("tapped", unit.tapped), ("resting", unit.resting), ("moved", unit.moved),
            ("dead", unit.dead),
        )
        if on
    ]  # fmt: skip
    return (
        f"{label} {attack_text(state.attack_of(player, unit), card)} "
        f"arm {state.armour_of(player, unit)} HP {unit.hp}/{unit.max_hp}"
        + (f" ({', '.join(flags)})" if flags else "")
    )


def _declared_attack(state: GoldDustState) -> str:
    """The declared attackers in order, each with its blocker if it has one."""
    own, foe = unit_labels(state, state.active), unit_labels(state, 1 - state.active)
    parts = []
    for slot in state.attackers:
        blocker = state.blocks.get(slot)
        text = slot_name(own, slot)
        parts.append(
            text + (f" blocked by {slot_name(foe, blocker)}" if blocker is not None else "")
        )
    return ", ".join(parts)


def attack_text(attack: int, card: Card) -> str:
    """``2+k6``: base attack plus the card's die; ``2`` for a unit without a die."""
    return f"{attack}+{card.die_text()}" if card.dice[0] else str(attack)


def card_traits(card: Card) -> list[str]:
    """What a unit card can do beyond the rules: ranged, pierce, its keywords."""
    traits = ["ranged"] if card.ranged else []
    traits += [f"pierce {card.pierce}"] if card.pierce else []
    return traits + [word for word in KEYWORDS if getattr(card, word)]


def cost_text(gold: int, dust: int) -> str:
    """A cost: ``2 gold``, ``3 dust``, ``2 gold 1 dust``, ``free``."""
    parts = [f"{gold} gold" if gold else "", f"{dust} dust" if dust else ""]
    return " ".join(part for part in parts if part) or "free"


def _roll_text(facts: Mapping[str, Any]) -> str:
    """A ``dice_rolled`` record as the picture shows it: ``k6 4``, ``2k6 3+5=8``."""
    dice = dice_text(facts["count"], facts["sides"])
    return f"{dice} {roll_text(facts['sides'], facts['faces'], facts['total'])}"
