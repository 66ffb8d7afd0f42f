"""What Regicide tells its players: the events of a move per observer, and the help text.

The engine records each event with every fact (``EngineState._record``); ``describe_event``
turns a record into the ``Event`` one observer may read. Everything in Regicide happens face
up except drawing: another player's draw shows only its count, apart from the cards everyone
saw put on top of the tavern by an exact kill (RG-2.5), which are named to all.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tabletop.envs.core.protocol import Event
from tabletop.envs.regicide.cards import card_name

Described = tuple[str, dict[str, Any]]
"""An event's text and data for one observer."""


def describe_event(kind: str, facts: dict[str, Any], observer: int | None) -> Event:
    """The recorded event ``kind`` as ``observer`` may know it (``None``: all of it)."""
    try:
        describe = DESCRIBERS[kind]
    except KeyError:
        raise ValueError(f"regicide: no description for event kind {kind!r}") from None
    text, data = describe(facts, observer)
    return Event(kind, text, data)


def _cards_played(facts: dict[str, Any], observer: int | None) -> Described:
    names = [card_name(card) for card in facts["cards"]]
    shown = "a jester" if names == ["jester"] else "+".join(names)
    return f"Player {facts['player']} plays {shown}", {"player": facts["player"], "cards": names}


def _immunity_cancelled(facts: dict[str, Any], observer: int | None) -> Described:
    enemy, added = card_name(facts["enemy"]), facts["shields_added"]
    text = f"The {enemy}'s immunity is cancelled"
    if added:
        text += f"; its earlier spades now shield {added}, it attacks for {facts['attack']}"
    return text, {"enemy": enemy, "shields_added": added, "attack": facts["attack"]}


def _yielded(facts: dict[str, Any], observer: int | None) -> Described:
    return f"Player {facts['player']} yields", {"player": facts["player"]}


def _heal(facts: dict[str, Any], observer: int | None) -> Described:
    amount, moved = facts["amount"], facts["moved"]
    text = f"Hearts heal {amount}: {_count(moved)} go from the discard pile under the tavern"
    return text, {"amount": amount, "moved": moved}


def _cards_drawn(facts: dict[str, Any], observer: int | None) -> Described:
    """The drawer (and a spectator) reads the names; the others only the count and the
    publicly known cards among them."""
    player, cards, known = facts["player"], facts["cards"], facts["known"]
    shown = cards if observer in (None, player) else known
    names = [card_name(card) for card in sorted(shown)]  # a hand is a set: no draw order
    text = f"Player {player} draws {_count(len(cards))}"
    if names and len(shown) == len(cards):
        text += ": " + " ".join(names)
    elif names:
        text += ", among them " + " ".join(names) + " (known to everyone)"
    return text, {"player": player, "count": len(cards), "cards": names}


def _no_draw(facts: dict[str, Any], observer: int | None) -> Described:
    why = "the tavern is empty" if facts["tavern_empty"] else "every hand is full"
    text = f"Diamonds draw {facts['amount']}: no card is drawn, {why}"
    return text, {"amount": facts["amount"], "tavern_empty": facts["tavern_empty"]}


def _shields_raised(facts: dict[str, Any], observer: int | None) -> Described:
    enemy, amount, attack = card_name(facts["enemy"]), facts["amount"], facts["attack"]
    text = f"Spades shield {amount}: the {enemy} now attacks for {attack}"
    return text, {"enemy": enemy, "amount": amount, "attack": attack}


def _enemy_damaged(facts: dict[str, Any], observer: int | None) -> Described:
    enemy, damage, total, health = (
        card_name(facts["enemy"]),
        facts["damage"],
        facts["total"],
        facts["health"],
    )
    text = f"The {enemy} takes {damage} damage ({total}/{health})"
    return text, {"enemy": enemy, "damage": damage, "total": total, "health": health}


def _enemy_defeated(facts: dict[str, Any], observer: int | None) -> Described:
    enemy, exact = card_name(facts["enemy"]), facts["exact"]
    where = "face down on top of the tavern" if exact else "to the discard pile"
    text = f"The {enemy} is defeated{' exactly' if exact else ''}: it goes {where}"
    data = {"enemy": enemy, "exact": exact, "to": "tavern" if exact else "discard"}
    return text, data


def _new_enemy(facts: dict[str, Any], observer: int | None) -> Described:
    enemy, player = card_name(facts["enemy"]), facts["player"]
    text = f"The next enemy is the {enemy}; Player {player} plays again"
    return text, {"enemy": enemy, "player": player}


def _damage_suffered(facts: dict[str, Any], observer: int | None) -> Described:
    enemy, player, attack = card_name(facts["enemy"]), facts["player"], facts["attack"]
    if attack:
        text = f"The {enemy} attacks Player {player} for {attack}"
    else:
        text = f"The {enemy}'s attack is fully shielded: Player {player} discards nothing"
    return text, {"enemy": enemy, "player": player, "attack": attack}


def _card_discarded(facts: dict[str, Any], observer: int | None) -> Described:
    player, card, left = facts["player"], card_name(facts["card"]), facts["left"]
    status = f"{left} more to cover" if left else "damage covered"
    text = f"Player {player} discards {card} ({status})"
    return text, {"player": player, "card": card, "left": left}


def _jester_flipped(facts: dict[str, Any], observer: int | None) -> Described:
    player, discarded, left = facts["player"], facts["discarded"], facts["left"]
    text = (
        f"Player {player} flips a jester power: discards {_count(discarded)} and draws "
        f"back up ({left} left)"
    )
    return text, {"player": player, "discarded": discarded, "powers_left": left}


def _turn_passed(facts: dict[str, Any], observer: int | None) -> Described:
    player, by, chosen = facts["player"], facts["by"], facts["chosen"]
    if chosen:
        text = f"Player {by} chooses Player {player} to go next"
    else:
        text = f"Player {player}'s turn"
    return text, {"player": player, "chosen_by": by if chosen else None}


def _game_won(facts: dict[str, Any], observer: int | None) -> Described:
    grade = facts["grade"]
    text = "The last King falls: the players win" + (f" ({grade})" if grade else "")
    return text, {"enemies_defeated": facts["enemies"], "grade": grade}


def _game_lost(facts: dict[str, Any], observer: int | None) -> Described:
    player, reason = facts["player"], facts["reason"]
    if reason == "cannot_pay":
        why = f"cannot cover the {facts['to_cover']} damage still due"
    else:
        why = "can neither play nor yield"
    text = f"Player {player} {why}: everyone loses"
    return text, {"player": player, "reason": reason}


def _count(cards: int) -> str:
    return f"{cards} card" if cards == 1 else f"{cards} cards"


DESCRIBERS: dict[str, Callable[[dict[str, Any], int | None], Described]] = {
    "cards_played": _cards_played,
    "immunity_cancelled": _immunity_cancelled,
    "yielded": _yielded,
    "heal": _heal,
    "cards_drawn": _cards_drawn,
    "no_draw": _no_draw,
    "shields_raised": _shields_raised,
    "enemy_damaged": _enemy_damaged,
    "enemy_defeated": _enemy_defeated,
    "new_enemy": _new_enemy,
    "damage_suffered": _damage_suffered,
    "card_discarded": _card_discarded,
    "jester_flipped": _jester_flipped,
    "turn_passed": _turn_passed,
    "game_won": _game_won,
    "game_lost": _game_lost,
}
"""Event kind -> its description; the engine records no other kind."""


HELP = """\
Regicide: together, defeat the 12 enemies of the castle (4 Jacks, then 4 Queens, then 4 Kings).

CARDS
  A card is its rank and suit letter: 5H, 10S, AC, KD. Ranks A (Ace, worth 1), 2-10, J, Q, K
  (a captured J/Q/K in hand is worth 10/15/20); "jester" is worth 0.
  Suits: S = spades (symbol ♠), H = hearts (♥), D = diamonds (♦), C = clubs (♣).
  Suit powers of a played card: ♥ heal (discard pile cards go under the tavern), ♦ draw
  (players draw in turn), ♣ double damage, ♠ shield (lower the enemy's attack).

MOVES (type them as shown; card order and case do not matter)
  play 5H        play one card
  play 5H+AC     play a combination: an Ace with one other card, or 2-4 cards of one rank
                 totalling 10 or less (play 2S+2H+2D)
  play jester    cancel the enemy's immunity, skip its attack, then choose who goes next
  yield          play nothing this turn (not when every other player just yielded; solo
                 only with the solo_yield option, and never twice in a row)
  discard 7S     pay the enemy's attack one card at a time
  done           stop discarding once the attack is covered
  flip jester    solo only: use a jester power to discard your hand and draw back up to 8
  next 2         after a jester: Player 2 goes next
  A move with no alternative is made for you.

THE PICTURE
  Enemy JC: damage 3/20, attack 10 (shields 0), immune to ♣
      the current enemy (here the Jack of clubs): damage dealt so far / its health; its
      attack after shields; "shields" is the spades' total; "immune to ♣" is the suit
      whose power it ignores ("nothing (jester played)" once a jester cancelled it).
  Enemy: none left, the last King fell    shown once the game is won.
  Castle: 10 left; tavern: 32 cards (top known: JH)
      enemies still face down; cards in the tavern (draw) deck; "top known" lists the
      defeated enemies everyone saw put on top of the tavern by an exact kill.
  Castle: 10 left; tavern: 20 cards; healed, next first: 2 of 5H 9C | 3 of 2S 4S 7D
      the heal batches under the tavern, the one drawn first first: how many of its
      cards are left in the tavern, and the cards it holds (less your own) still unseen,
      in the tavern or in the hand of whoever drew from it.
  In play: 5H AC      cards played against the current enemy.
  Discard (2): 10S 10C    the discard pile, face up: its size, then its cards.
  "-"                 an empty zone.
  Jester powers left: 2   solo only.
  Player 0: 5H 7C ... your hand; another player's hand shows only "N cards".
  "(known: JH)"       cards everyone knows that player holds: drawn from the known top of
                      the tavern, or the last unseen cards of a heal batch.
  "(yielded)"         that player yielded on their last turn.
  "; moves: play 4S, discard 8C"   that player's moves in their current or latest turn.
  "<- to move"        whose decision it is.
  Last line, the status:
    "Player 0: play"          step 1: play, yield (or flip a jester power)
    "Player 0 must discard 7 more"    paying the enemy's attack, 7 still due
    "Player 0: damage covered; discard more or done"
    "Player 0: choose next"   after a jester, pick who goes next
    "Game over: won/lost, enemies defeated 5"

EVENTS
  After each move you are told what happened: cards played, damage dealt, enemies defeated
  (an exact kill puts the enemy on top of the tavern), heals and draws (another player's
  draw shows only how many cards, except cards everyone knows), attacks,
  discards, jester powers, whose turn it is, and the end of the game.
"""
