"""How Gold & Dust tells people what happens: the events of an ``apply`` as one observer may
know them, and the help text for newcomers.

Every card is played face up (GD-9.3: the table, both graveyards and the resources are
public), so the hidden facts are the cards in a hand only: which cards a player draws, and
which one overflow shuffles back into the deck (GD-1.3). Those events name their cards to
their owner alone; every other event reads the same for every observer. The engine records
facts cheaply (card indices, unit labels); the words are made here, when someone asks.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from tabletop.envs.core.protocol import Event
from tabletop.envs.gold_and_dust.cards import Card

Facts = dict[str, Any]
Describer = Callable[[Facts, Sequence[Card], bool], tuple[str, Facts]]
"""(facts, the pool's cards, whether the observer may see the player's hand) -> (text, data)."""


def dice_text(count: int, sides: int) -> str:
    """``k6``, ``2k6``, ``k3``: the notation of the cards (GD-3.1)."""
    return f"{'' if count == 1 else count}k{sides}"


def _amounts(gold: int, dust: int) -> str:
    parts = [f"{gold} gold" if gold else "", f"{dust} dust" if dust else ""]
    return " and ".join(p for p in parts if p) or "nothing"


def _unit(player: int, label: str) -> str:
    return f"player {player}'s {label}"


def _sentence(text: str) -> str:
    """``text`` with a capital first letter (``str.capitalize`` would lower card names)."""
    return text[:1].upper() + text[1:]


def _targeted(facts: Facts) -> tuple[str, Facts]:
    """A target fact ``(side, label)`` (``label`` "Hero" for a Hero) as words and data."""
    target = facts["target"]
    if target is None:
        return "", {"target_player": None, "target": None}
    side, label = target
    return _unit(side, label), {"target_player": side, "target": label}


def _turn_started(facts: Facts, cards: Sequence[Card], sees: bool) -> tuple[str, Facts]:
    return f"Turn {facts['turn']}: player {facts['player']}'s turn", facts


def _resources_gained(facts: Facts, cards: Sequence[Card], sees: bool) -> tuple[str, Facts]:
    why = " (regeneration)" if facts["source"] == "regeneration" else ""
    return f"Player {facts['player']} gains {_amounts(facts['gold'], facts['dust'])}{why}", facts


def _card_played(facts: Facts, cards: Sequence[Card], sees: bool) -> tuple[str, Facts]:
    name = cards[facts["card"]].name
    words, target = _targeted(facts)
    on = f" on {words}" if words else ""
    paid = _amounts(facts["gold"], facts["dust"])
    data = {"player": facts["player"], "card": name, "gold": facts["gold"],
            "dust": facts["dust"], **target}  # fmt: skip
    return f"Player {facts['player']} plays {name}{on}, paying {paid}", data


def _cards_drawn(facts: Facts, cards: Sequence[Card], sees: bool) -> tuple[str, Facts]:
    player, drawn = facts["player"], facts["cards"]
    if sees:
        names = [cards[i].name for i in drawn]
        data = {"player": player, "count": len(drawn), "cards": names}
        return f"Player {player} draws {', '.join(names)}", data
    count = "a card" if len(drawn) == 1 else f"{len(drawn)} cards"
    return f"Player {player} draws {count}", {"player": player, "count": len(drawn)}


def _hand_overflow(facts: Facts, cards: Sequence[Card], sees: bool) -> tuple[str, Facts]:
    player = facts["player"]
    if sees:
        name = cards[facts["card"]].name
        text = f"Player {player}'s hand is full: {name} is shuffled back into the deck"
        return text, {"player": player, "card": name}
    text = f"Player {player}'s hand is full: a random card of it is shuffled back into the deck"
    return text, {"player": player}


def _fatigue(facts: Facts, cards: Sequence[Card], sees: bool) -> tuple[str, Facts]:
    text = (
        f"Player {facts['player']} must draw from an empty deck: fatigue deals "
        f"{facts['damage']} damage"
    )
    return text, facts


def _dice_rolled(facts: Facts, cards: Sequence[Card], sees: bool) -> tuple[str, Facts]:
    dice = dice_text(facts["count"], facts["sides"])
    data = {"dice": dice, "faces": list(facts["faces"]), "total": facts["total"]}
    return f"{dice} rolls {roll_text(facts['sides'], facts['faces'], facts['total'])}", data


def roll_text(sides: int, faces: Sequence[int], total: int) -> str:
    """``4``, ``3+5=8``; a k3 also shows the d6 faces it halved: ``2 (face 3)``."""
    if sides == 3:
        values = [(face + 1) // 2 for face in faces]
        shown = "+".join(map(str, values)) + (f"={total}" if len(faces) > 1 else "")
        return f"{shown} (face{'s' if len(faces) > 1 else ''} {', '.join(map(str, faces))})"
    return "+".join(map(str, faces)) + (f"={total}" if len(faces) > 1 else "")


def _damage_dealt(facts: Facts, cards: Sequence[Card], sees: bool) -> tuple[str, Facts]:
    absorbed = f" ({facts['amount']} - {facts['armour']} armour)" if facts["armour"] else ""
    text = (
        f"{_sentence(_unit(facts['player'], facts['target']))} takes {facts['taken']} "
        f"damage{absorbed}, HP {facts['hp']}"
    )
    return text, facts


def _unit_event(words: str) -> Describer:
    """Events about one unit that say nothing more than ``words`` after its name."""

    def describe(facts: Facts, cards: Sequence[Card], sees: bool) -> tuple[str, Facts]:
        return f"{_sentence(_unit(facts['player'], facts['unit']))} {words}", facts

    return describe


def _healed(facts: Facts, cards: Sequence[Card], sees: bool) -> tuple[str, Facts]:
    who = _sentence(_unit(facts["player"], facts["target"]))
    return f"{who} heals {facts['amount']}, HP {facts['hp']}", facts


def _unit_buffed(facts: Facts, cards: Sequence[Card], sees: bool) -> tuple[str, Facts]:
    changes = [f"{facts[key]:+d} {key}" for key in ("attack", "armour", "hp") if facts[key]]
    who = _sentence(_unit(facts["player"], facts["unit"]))
    return f"{who} gets {', '.join(changes).replace('hp', 'HP')}", facts


def _unit_moved(facts: Facts, cards: Sequence[Card], sees: bool) -> tuple[str, Facts]:
    who = _sentence(_unit(facts["player"], facts["unit"]))
    return f"{who} moves to the {facts['row']} row", facts


def _aimed(verb: str) -> Describer:
    """A unit's shot or strike at a target."""

    def describe(facts: Facts, cards: Sequence[Card], sees: bool) -> tuple[str, Facts]:
        words, target = _targeted(facts)
        who = _sentence(_unit(facts["player"], facts["unit"]))
        return f"{who} {verb} {words}", {"player": facts["player"], "unit": facts["unit"],
                                          **target}  # fmt: skip

    return describe


def _attack_declared(facts: Facts, cards: Sequence[Card], sees: bool) -> tuple[str, Facts]:
    return f"Player {facts['player']} attacks with {facts['unit']}", facts


def _block_declared(facts: Facts, cards: Sequence[Card], sees: bool) -> tuple[str, Facts]:
    text = f"Player {facts['player']} blocks {facts['attacker']} with {facts['unit']}"
    return text, facts


def _fight(facts: Facts, cards: Sequence[Card], sees: bool) -> tuple[str, Facts]:
    player = facts["player"]
    text = (
        f"{_sentence(_unit(player, facts['unit']))} fights its blocker, "
        f"{_unit(1 - player, facts['blocker'])}"
    )
    return text, facts


def _game_won(facts: Facts, cards: Sequence[Card], sees: bool) -> tuple[str, Facts]:
    return f"Player {facts['player']} wins: player {facts['loser']}'s Hero has fallen", facts


def _game_drawn(facts: Facts, cards: Sequence[Card], sees: bool) -> tuple[str, Facts]:
    return f"The game is a draw: the turn limit is reached after {facts['turns']} turns", facts


DESCRIBERS: dict[str, Describer] = {
    "turn_started": _turn_started,
    "resources_gained": _resources_gained,
    "card_played": _card_played,
    "cards_drawn": _cards_drawn,
    "hand_overflow": _hand_overflow,
    "fatigue": _fatigue,
    "dice_rolled": _dice_rolled,
    "damage_dealt": _damage_dealt,
    "unit_destroyed": _unit_event("is destroyed"),
    "unit_died": _unit_event("dies and goes to the graveyard"),
    "healed": _healed,
    "unit_buffed": _unit_buffed,
    "unit_moved": _unit_moved,
    "unit_readied": _unit_event("is ready to attack"),
    "unit_shot": _aimed("shoots"),
    "attack_declared": _attack_declared,
    "block_declared": _block_declared,
    "fight": _fight,
    "unit_struck": _aimed("strikes"),
    "game_won": _game_won,
    "game_drawn": _game_drawn,
}
"""Event kind -> its describer; the engine records only these kinds."""


HAND_EVENTS = frozenset({"cards_drawn", "hand_overflow"})
"""Events about cards entering or leaving a hand: their cards are named to the owner only."""


def describe_event(cards: Sequence[Card], kind: str, facts: Facts, observer: int | None) -> Event:
    """The record ``(kind, facts)`` as ``observer`` may know it (``None``: all of it).
    Hand cards are named to their owner only, and to nobody where they are unknown
    (``None``: the records of a determinization); facts with no player are public."""
    sees = observer is None or facts.get("player") == observer
    if kind in HAND_EVENTS and None in facts.get("cards", [facts.get("card")]):
        sees = False
    text, data = DESCRIBERS[kind](facts, cards, sees)
    return Event(kind, text, _json_safe(data))


def _json_safe(data: Facts) -> Facts:
    return {key: list(value) if isinstance(value, tuple) else value for key, value in data.items()}


# ----- help ---------------------------------------------------------------------------------

HELP = """\
Gold & Dust: two Heroes fight with units, spells and artifacts; a Hero at 0 HP loses.

MOVES (type them as shown; case and spaces do not matter)
  done                     end the current step
  play Pikeman             play a card from your hand, paying its cost
  play Firebolt>Hero       ... at a target: Hero (the Hero of the side the card aims at)
  play Iron Helm>Pikeman   ... or a unit, by its name on the table
  move Pikeman up          a second-row unit goes to the first row (no attack this turn)
  shoot Archer>Wall        a ranged unit shoots an enemy unit or the enemy Hero
  attack Pikeman           declare a first-row unit an attacker
  block Pikeman with Wall  (the defender) block the attacking Pikeman with your Wall
  strike Pikeman>Hero      an unblocked attacker hits the enemy Hero or a second-row unit
  Units that share a name are told apart by their order on the table: Pikeman#1, Pikeman#2.
  Of two copies of a card in hand only the first is offered (both plays are the same).
  The other player's moves are told in words: "Player 1 plays Firebolt on player 0's Hero".

A TURN
  Automatic start: your units untap, you gain your Hero's gold and dust (not on your first
  turn), start-of-turn abilities act, you draw a card (a full hand of 5 first shuffles a
  random card of it back into the deck; an empty deck deals fatigue damage instead).
  Then: main step (play cards, move units up), shoot step (ranged units), attack step
  (declare attackers); the other player blocks; blocked fights are resolved; each unblocked
  attacker strikes. A step in which you have nothing to decide passes by itself.

THE PICTURE
  Turn 5, player 1's turn; main step, player 1 decides
      who plays the turn, the step, and who must decide now (the defender decides blocks);
      "Game over after N turns: ..." once the game has ended
  Player 0 (Warrior): HP 27/30, gold 6, dust 3, deck 30, next fatigue 1
      the Hero's hit points now/maximum; gold and dust to pay for cards with; cards left in
      the deck; the damage the next draw from an empty deck would deal
  passive: the Hero's own ability
  hand (3 cards): one card a line
    - Pikeman (2 gold): melee unit 1+k3 arm 1 HP 5. A cheap spear for the first row.
    - Firebolt (1 dust, 1 off): spell. Deal 1 + k6 damage to an enemy unit or the enemy Hero.
    x Catapult (8 gold, cannot afford): machine unit 1+2k6 arm 1 HP 10, ranged, immobile. ...
      the cost, after the Hero's discount ("1 off"); what the card is (a unit's base
      figures, as on the table below); its text. "x" and "cannot afford": it costs more gold
      or dust than the player has now. The other player's hand shows its size only
      ("hand: 5 cards"); "-" is an empty zone.
  first row / second row: units as  Pikeman 2+k3 arm 1 HP 4/5 (tapped)
      2+k3    attack: base attack 2 (buffs and auras included) plus a k3 die; a unit
              without a die shows its base attack alone
      arm 1   armour: absorbs that much of each hit
      HP 4/5  hit points now/maximum
      what the unit can do (see KEYWORDS) and its state:
      tapped  shot or attacked; cannot block until its owner's next turn
      resting blocked; may not attack in its owner's next turn
      moved   moved up this turn; may not attack (unless it has charge)
      dead    at 0 HP; goes to the graveyard at the end of the step
  artifacts: lasting artifacts on the table; graveyard: used cards and dead units
  Attack: Pikeman blocked by Wall, Swordsman
      this turn's attackers, and the blocker of each blocked one
  Last move: Player 1 plays Firebolt on player 0's Hero, paying 2 dust
      what the last move chose (none after "done")
  Dice: k6 4; k3 2 (face 3); 2k6 3+5=8
      the dice the last move rolled, in order (a k3 shows the d6 face it halved)

DICE AND DAMAGE
  k6 is a six-sided die, k3 a six-sided die halved and rounded up (1-3), 2k6 two dice
  added. A shot or an unblocked hit deals base attack + die, less the target's armour; a
  blocked attacker deals its base attack only, and a blocker that survives it hits back
  with its die only.

KEYWORDS
  ranged        shoots in the shoot step (any unit; the Hero from the first row, or when a
                row of the enemy is empty) instead of attacking
  pierce N      ignores N points of the target's armour
  charge        may attack on the turn it moves up
  vanguard      enters the first row
  sniper        may shoot the enemy Hero from any row
  death_strike  strikes back even when it dies blocking
  tireless      does not rest after blocking
  immobile      never moves up
  A spell is used once; a lasting artifact stays on the table; other artifacts act once.
"""
"""What ``GoldDustGame.help_text()`` returns."""
