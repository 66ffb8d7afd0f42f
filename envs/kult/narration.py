"""How Kult tells people what happens: the events of an ``apply`` as one observer may
know them (KU-11.1), and the help text for newcomers.

Everything in a cross, the tokens, the Pool, the discard piles and the keys are public;
a card played from hand is shown as it is played. Hidden: the cards a player draws (named
to that player only) and the Hub cards (never named, not even to their owner). The engine
records facts cheaply (card indices, station numbers); the words are made here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from tabletop.envs.core.protocol import Event
from tabletop.envs.kult.cards import Card
from tabletop.envs.kult.notation import colour_name, station_name

Facts = dict[str, Any]
Describer = Callable[[Facts, Sequence[Card], bool], tuple[str, Facts]]
"""(facts, the pool's cards, whether the observer may see the player's hand) -> (text, data)."""

HAND_EVENTS = ("cards_drawn",)
"""Events naming cards only their player may know; ``KultState.resample_hidden`` forgets
them for the other players."""


def _where(seat: int, station: int | None) -> str:
    return f"p{seat}'s {station_name(station) if station is not None else 'Hub'}"


def _turn_started(facts: Facts, cards: Sequence[Card], sees: bool) -> tuple[str, Facts]:
    return f"Turn {facts['turn']}: player {facts['player']}", facts


def _cards_drawn(facts: Facts, cards: Sequence[Card], sees: bool) -> tuple[str, Facts]:
    player, drawn = facts["player"], facts["cards"]
    if sees and None not in drawn:
        names = [cards[i].name for i in drawn]
        return f"Player {player} draws {', '.join(names)}", {"player": player, "cards": names}
    count = "a card" if len(drawn) == 1 else f"{len(drawn)} cards"
    return f"Player {player} draws {count}", {"player": player, "count": len(drawn)}


def _deck_reshuffled(facts: Facts, cards: Sequence[Card], sees: bool) -> tuple[str, Facts]:
    return (f"Player {facts['player']} shuffles {facts['count']} discarded cards into a new "
            "deck"), facts  # fmt: skip


def _token_attracted(facts: Facts, cards: Sequence[Card], sees: bool) -> tuple[str, Facts]:
    source, target = station_name(facts["source"]), station_name(facts["target"])
    data = {"player": facts["player"], "source": source, "target": target}
    return f"Player {facts['player']} attracts a token {source}>{target}", data


def _token_recruited(facts: Facts, cards: Sequence[Card], sees: bool) -> tuple[str, Facts]:
    station = station_name(facts["station"])
    data = {"player": facts["player"], "station": station}
    return f"Player {facts['player']} recruits a token onto {station}", data


def _token_pushed(facts: Facts, cards: Sequence[Card], sees: bool) -> tuple[str, Facts]:
    source, target = station_name(facts["source"]), station_name(facts["target"])
    colour = None if facts["colour"] is None else colour_name(facts["colour"])
    gained = f", gaining {colour}" if colour else " to pay for an ability"
    data = {"player": facts["player"], "source": source, "target": target, "colour": colour}
    return f"Player {facts['player']} pushes a token {source}>{target}{gained}", data


def _card_played(facts: Facts, cards: Sequence[Card], sees: bool) -> tuple[str, Facts]:
    name = cards[facts["card"]].name
    where = _where(facts["seat"], facts["station"])
    data = {"player": facts["player"], "card": name, "seat": facts["seat"],
            "station": station_name(facts["station"])}  # fmt: skip
    return f"Player {facts['player']} plays {name} onto {where}", data


def _influence_attached(facts: Facts, cards: Sequence[Card], sees: bool) -> tuple[str, Facts]:
    name = cards[facts["card"]].name
    where = "the Pool" if facts["seat"] < 0 else _where(facts["seat"], facts["station"])
    station = None if facts["station"] is None else station_name(facts["station"])
    data = {"player": facts["player"], "card": name, "seat": facts["seat"], "station": station}
    return f"Player {facts['player']} attaches {name} to {where}", data


def _named(verb: str) -> Describer:
    def describe(facts: Facts, cards: Sequence[Card], sees: bool) -> tuple[str, Facts]:
        name = cards[facts["card"]].name
        station = facts.get("station")
        on = f" on {station_name(station)}" if station is not None else ""
        data = {"player": facts["player"], "card": name, "station": on.removeprefix(" on ") or None}
        return f"Player {facts['player']} {verb} {name}{on}", data

    return describe


def _cards_refreshed(facts: Facts, cards: Sequence[Card], sees: bool) -> tuple[str, Facts]:
    stations = [station_name(s) for s in facts["stations"]]
    text = f"Player {facts['player']} turns face up: {', '.join(stations)}"
    return text, {"player": facts["player"], "stations": stations}


def _keys_gained(facts: Facts, cards: Sequence[Card], sees: bool) -> tuple[str, Facts]:
    colours = [colour_name(c) for c in facts["colours"]]
    text = f"Player {facts['player']} gains temporary {', '.join(colours)}"
    return text, {"player": facts["player"], "colours": colours}


def _attack_declared(facts: Facts, cards: Sequence[Card], sees: bool) -> tuple[str, Facts]:
    attacker = station_name(facts["attacker"])
    target = _where(facts["seat"], facts["target"])
    data = {"player": facts["player"], "attacker": attacker, "seat": facts["seat"],
            "target": station_name(facts["target"])}  # fmt: skip
    return f"Player {facts['player']}'s {attacker} attacks {target}", data


RESULTS = {
    "attacker": "the attacker wins",
    "defender": "the defender wins",
    "tie": "a tie, no result",
    "cancelled": "cancelled, no result",
}


def _fight_resolved(facts: Facts, cards: Sequence[Card], sees: bool) -> tuple[str, Facts]:
    result = RESULTS[facts["result"]]
    return f"Fight {facts['attack']} against {facts['defence']}: {result}", facts


def _card_discarded(facts: Facts, cards: Sequence[Card], sees: bool) -> tuple[str, Facts]:
    name = cards[facts["card"]].name
    source = "hand" if facts.get("from_hand") else "play"
    data = {"seat": facts["seat"], "card": name, "owner": facts["owner"], "from": source}
    place = f"p{facts['seat']}'s {source}"
    return f"{name} is discarded from {place}", data


def _token_moved(facts: Facts, cards: Sequence[Card], sees: bool) -> tuple[str, Facts]:
    target = "the Pool" if facts["to_seat"] < 0 else _where(facts["to_seat"], facts["target"])
    data = {"seat": facts["seat"], "source": station_name(facts["source"]),
            "to_seat": facts["to_seat"], "target": station_name(facts["target"])}  # fmt: skip
    return f"A token leaves {_where(facts['seat'], facts['source'])} for {target}", data


def _game_over(facts: Facts, cards: Sequence[Card], sees: bool) -> tuple[str, Facts]:
    if facts["stalled"]:
        return "The game ends in a draw: nobody can act any more (KU-9.3)", facts
    if facts["winner"] is None:
        return f"The game ends in a draw after {facts['plies']} plies", facts
    return f"Player {facts['winner']} wins with {facts['tokens']} tokens in the Hub", facts


DESCRIBERS: dict[str, Describer] = {
    "turn_started": _turn_started,
    "cards_drawn": _cards_drawn,
    "deck_reshuffled": _deck_reshuffled,
    "token_attracted": _token_attracted,
    "token_recruited": _token_recruited,
    "token_pushed": _token_pushed,
    "card_played": _card_played,
    "influence_attached": _influence_attached,
    "command_played": _named("plays"),
    "card_turned": _named("turns"),
    "ability_invoked": _named("invokes"),
    "cards_refreshed": _cards_refreshed,
    "keys_gained": _keys_gained,
    "attack_declared": _attack_declared,
    "fight_resolved": _fight_resolved,
    "card_discarded": _card_discarded,
    "token_moved": _token_moved,
    "game_over": _game_over,
}


def describe_event(cards: Sequence[Card], kind: str, facts: Facts, observer: int | None) -> Event:
    """The event as ``observer`` may know it (``None``: everything)."""
    sees = observer is None or facts.get("player") == observer
    text, data = DESCRIBERS[kind](facts, cards, sees)
    return Event(kind, text, data)


HELP = """Kult: win tokens (people) into the Hub of your Mystic Cross; the first with the
target (5, or 10 in a "world" game) in their Hub wins.

Your cross: Scene stations Scene1-Scene4 around the Hub, Cast stations Cast5-Cast8.
Tokens move Pool -> Cast -> Scene -> Hub. Each turn: draw to 7, attract, recruit, actions,
attack, discard, refresh.
Moves:
  attract Cast5>Scene1   a token inward (both cards turn face down; into the Hub only the
                         Scene card does)
  recruit Cast6          a token from the Pool onto a face-up Cast card
  push Hub>Scene2 Skull  a token outward for a temporary key of that colour
  play Raven>Scene4      a base card onto a station (@p2: into player 2's cross)
  play Omen              a Command
  attach Hex>Cast6@p2    an Influence on a card, station (Scene2), Hub or the Pool
  turn Scene2            turn a card face down for its ability
  invoke Cast5           an ability paid by a push (then: push Hub>Scene1, no colour)
  attack Cast5>p1.Cast7  your Cast Being attacks a Being in p1's Cast
  discard Raven          discard a card from hand (the discard phase)
  done / pass            end the phase / pass in a Commands window
The picture: per player the Arcanum, Hub tokens, keys, hand, deck and discard sizes, and
each station: card, tokens (*n), face down (~), Influences [..]; then the Pool."""
