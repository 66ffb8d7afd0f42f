"""HKK's move notation both ways, and what happened as each player may know it.

An action is written with the positions the action space addresses and the names of the
cards there, as the player to move sees them: ``h3`` is hand slot 3, ``#2`` table position
2, ``my`` and ``their`` the mover's and the other player's table, ``grave`` the mover's
creature cards in their discard pile, counted from 0::

    pass                                   pay upkeep
    play h3 Fire Bolt on their #2 Ember Drake
    use #4 Flamecaller 1 on their #0 Stray Wolf
    sacrifice #1 Grub Swarm                guard #1 Ash Roc        reserve #0 Ash Roc
    choose my #3 Stray Wolf                choose nothing
    attack #0 Ash Roc at their #1 Hill Giant                attack #0 Ash Roc at player
    breathe #2 Ember Drake 3 at player     direct #1 Thunder Kite  regenerate #3 Mossback Troll

``string_to_action`` reads these back (case and spacing aside) among the legal actions.
Another player sees a card played from hand without its slot (the order of a hand is
hidden, HK-11.1).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from tabletop.envs.core.protocol import Event, IllegalActionError
from tabletop.envs.hkk.actions import PLAYER_TARGET, decode, decode_ref, enemy_ref
from tabletop.envs.hkk.cards import Card, Creature

if TYPE_CHECKING:
    from tabletop.envs.hkk.engine import HkkState

HELP = """HKK: bring the other player's life from 20 to 0. Creatures stand in your reserve
or your guard post (3 places); only the guard post attacks and defends.

VP are your magic points: they pay for most cards and many abilities (a card's cost is in
VP). You gain 1 on your first turn, 2 on your second, up to 5 a turn from your fifth, plus 1
for every two creatures in your reserve (HK-3.1); at most 20 (HK-2.1). Components: an
opponent's creature that dies gives you the components it shows (HK-5.1); they pay for
items (HK-9.2).

Moves name hand slots (h0, h1, ...), table positions (my #0, their #2, ...) and the cards
there: "play h3 Fire Bolt on their #2 Ember Drake", "use #4 Forge 1", "guard #1 Ash Roc",
"attack #0 Ash Roc at player", "breathe #2 Ember Drake 3 at their #0 Stray Wolf",
"regenerate #3 Mossback Troll", "choose my #1 Grub Swarm", "pay upkeep", "pass".

The picture shows each table card as #position Name damage/life, with A/P (active,
passive), G/R (guard post, reserve), and marks: dmg (damage taken), psn (poison counters),
+n (+1/+1 counters), Lv (levels), on #n (attached to). "#0 Ember Drake 4/3 G A dmg1": it
deals 4 damage when it strikes and has 3 life, as the figures are now (bonuses such as the
defender's +1/+1 of HK-4.3 included); it has taken 1 damage, so 2 more kill it (HK-4.2)."""


def _name(state: HkkState, seat: int, position: int) -> str:
    table = state.tables[seat]
    return f" {table[position].card.name}" if position < len(table) else ""


def ref_text(state: HkkState, seat: int, ref: int) -> str:
    where, index = decode_ref(ref)
    if where == "none":
        return "nothing"
    if where == "own":
        return f"my #{index}{_name(state, seat, index)}"
    if where == "enemy":
        return f"their #{index}{_name(state, 1 - seat, index)}"
    creatures = [i for i in state.discards[seat] if isinstance(state.card(i), Creature)]
    name = f" {state.card(creatures[index]).name}" if index < len(creatures) else ""
    return f"grave #{index}{name}"


def _aim(state: HkkState, seat: int, target: int) -> str:
    """An attack's or breath's target: the player, or a card of theirs."""
    if target == PLAYER_TARGET:
        return "player"
    return ref_text(state, seat, enemy_ref(target - 1))


def action_to_string(state: HkkState, action: int, observer: int | None = None) -> str:
    """The notation of ``action`` for the player to move (module docstring); another
    observer does not see the hand slot of a card played."""
    seat = state.player if state.player >= 0 else state.active
    kind, fields = decode(action)
    if kind == "pass":
        return "pass"
    if kind == "pay":
        return "pay upkeep"
    if kind == "play":
        slot, ref = fields
        hand = state.hands[seat]
        name = f" {state.card(hand[slot]).name}" if slot < len(hand) else ""
        where = f"h{slot}{name}" if observer in (None, seat) else name.strip() or "a card"
        on = f" on {ref_text(state, seat, ref)}" if ref else ""
        return f"play {where}{on}"
    if kind == "activate":
        position, ability, ref = fields
        on = f" on {ref_text(state, seat, ref)}" if ref else ""
        return f"use #{position}{_name(state, seat, position)} {ability + 1}{on}"
    if kind in ("sacrifice", "guard", "reserve", "direct", "regenerate"):
        return f"{kind} #{fields[0]}{_name(state, seat, fields[0])}"
    if kind == "choose":
        return f"choose {ref_text(state, seat, fields[0])}"
    if kind == "attack":
        position, target = fields
        return f"attack #{position}{_name(state, seat, position)} at {_aim(state, seat, target)}"
    position, amount, target = fields
    return (f"breathe #{position}{_name(state, seat, position)} {amount} at "
            f"{_aim(state, seat, target)}")  # fmt: skip


def _normal(text: str) -> str:
    return " ".join(text.lower().split())


def string_to_action(state: HkkState, text: str) -> int:
    """The legal action whose notation is ``text`` (case and spacing aside)."""
    wanted = _normal(text)
    for action in state.legal_actions():
        if _normal(action_to_string(state, action)) == wanted:
            return action
    raise IllegalActionError(f"hkk: no legal action reads {text!r}")


# ----- events ------------------------------------------------------------------------------


def _target_text(cards: Any, target: list[int] | None) -> str:
    if target is None:
        return ""
    seat, position, index = target
    where = f"player {seat}'s #{position} " if seat >= 0 else ""
    return f" on {where}{cards[index].name}"


def describe_event(
    state: HkkState, kind: str, facts: dict[str, Any], observer: int | None
) -> Event:
    """The event as ``observer`` may know it: every fact recorded is public (HK-11.1) but
    which cards were drawn, told to the drawer only (and to nobody in a determinization,
    where another player's draws are ``None``)."""
    cards = state.game.cards
    if kind == "cards_drawn":
        return _cards_drawn(cards, facts, observer)
    who = f"Player {facts['player']}" if "player" in facts else ""
    name = cards[facts["card"]].name if facts.get("card") is not None else ""
    targeted = ("card_played", "ability_used", "trigger_used")
    on = _target_text(cards, facts.get("target")) if kind in targeted else ""
    match kind:
        case "card_played":
            text = f"{who} plays {name}{on}"
        case "ability_used":
            text = f"{who} uses #{facts['position']} {name}'s ability {facts['ability'] + 1}{on}"
        case "creature_left":
            text = f"{who}'s #{facts['position']} {name} goes to the {facts['to']}"
        case "attack_declared":
            at = facts["defender"]
            target = "the player" if at is None else f"#{at[0]} {cards[at[1]].name}"
            text = f"{who}'s #{facts['position']} {name} attacks {target}"
        case "trigger_used":
            text = f"{who} uses the trigger of {name}{on}"
        case "trigger_declined":
            text = f"{who} lets the trigger of {name} go"
        case "regenerated":
            text = f"{who}'s #{facts['position']} {name} regenerates a point of life"
        case "strike_back_chosen":
            at = facts["attacker"]
            text = f"{who}'s #{facts['position']} {name} strikes back #{at[0]} {cards[at[1]].name}"
        case "direct_declared":
            aim = facts["target"]
            at = "the player" if aim == PLAYER_TARGET else f"#{aim - 1}"
            amount = facts["amount"]
            text = f"{who}'s #{facts['position']} {name} declares direct damage {amount} at {at}"
        case "item_taken":
            text = f"{who} takes {name} for a killer of its carrier"
        case "shielded":
            part = cards[facts["part"]].name
            text = f"{who} sacrifices #{facts['position']} {part}: {name} is shielded"
        case "upkeep":
            text = f"Upkeep of {who}'s #{facts['position']} {name}"
        case "cancelled":
            text = f"{who}'s {name} is cancelled"
        case "damage_dealt":
            amount = facts["amount"]
            dealt = f"{amount} damage" if amount else "no damage"
            striker = facts["striker"]
            by = _spot_text(cards, striker) if striker else f"the departed {name}"
            text = f"{by[0].upper()}{by[1:]} deals {dealt} to " + (
                f"player {facts['seat']}" if facts["target"] is None
                else _spot_text(cards, facts["target"])
            )  # fmt: skip
        case "turn_started":
            text = f"Turn {facts['turn']}: player {facts['player']}"
        case _:
            winner = facts.get("winner")
            text = "The game is a draw" if winner is None else f"Player {winner} wins"
    return Event(kind, text, _named_facts(cards, facts))


def _cards_drawn(cards: Sequence[Card], facts: dict[str, Any], observer: int | None) -> Event:
    player, drawn = facts["player"], facts["cards"]
    if observer in (None, player) and None not in drawn:
        names = [cards[index].name for index in drawn]
        data = {"player": player, "count": len(drawn), "cards": names}
        return Event("cards_drawn", f"Player {player} draws {', '.join(names)}", data)
    count = "a card" if len(drawn) == 1 else f"{len(drawn)} cards"
    data = {"player": player, "count": len(drawn)}
    return Event("cards_drawn", f"Player {player} draws {count}", data)


def _spot_text(cards: Sequence[Card], spot: list[int]) -> str:
    """``[seat, position, pool index]`` of a table card as words."""
    seat, position, index = spot
    return f"player {seat}'s #{position} {cards[index].name}"


def _named_facts(cards: Sequence[Card], facts: dict[str, Any]) -> dict[str, Any]:
    """The event's data with cards by name, not pool index, as every game's events read
    (a table of plays by card, a log a person reads)."""
    data = dict(facts)
    for key in ("card", "part"):
        if data.get(key) is not None:
            data[key] = cards[data[key]].name
    for key in ("defender", "target", "striker", "attacker"):  # [..., pool index]; an int: a place
        value = data.get(key)
        if isinstance(value, list | tuple):
            data[key] = [*value[:-1], cards[value[-1]].name]
    return data
