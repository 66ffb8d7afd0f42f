"""HKK's heuristic makes the recorded choices: ``GAMES`` games of random legal decks of the
starter pool, played by the heuristic with a random move now and then (so that positions
leave its own habits), each decision it takes checked against a digest of the choices the
heuristic made when the record was taken. The balance and evaluation figures rest on these
choices: a change of the heuristic's code that is not meant to change its play (a
refactoring) must leave every digest as it is.

The record (``heuristic_choices.json``) is written by running this file as a script; do
that only for a change of the heuristic's play that is meant, and say so in its commit."""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

from tabletop.envs.hkk.cards import DECK_MINIMUM, MAX_COPIES, Deck, load_pool
from tabletop.envs.hkk.engine import HkkGame
from tabletop.envs.hkk.heuristic import HkkHeuristic

RECORD = Path(__file__).with_name("heuristic_choices.json")
GAMES = 150
MAX_PLIES = 1_000
"""Decisions a game at most: enough for the late game, short enough for a quick test."""
RANDOM_MOVES = 0.3
"""The share of moves taken at random instead of the heuristic's."""
POOL = load_pool()


def random_deck(rng: random.Random) -> Deck:
    """A legal deck (HK-1.1) of the pool's cards drawn at random: every card of the pool
    meets the heuristic in some game."""
    cards: list[int] = []
    while len(cards) < DECK_MINIMUM:
        card = rng.randrange(len(POOL.cards))
        if cards.count(card) < MAX_COPIES:
            cards.append(card)
    return Deck(name="random", text="", source="test", cards=tuple(cards))


def choices(seed: int) -> list[int]:
    """The heuristic's choice at every decision with more than one legal action of game
    ``seed``."""
    rng = random.Random(seed)
    state = HkkGame(pool=POOL, decks=(random_deck(rng), random_deck(rng))).new_state(seed)
    heuristic, chosen = HkkHeuristic(), []
    while not state.is_terminal() and state.plies < MAX_PLIES:
        legal = state.legal_actions()
        action = heuristic.act(state, state.current_player)
        if len(legal) > 1:
            chosen.append(action)
        state.apply(rng.choice(legal) if rng.random() < RANDOM_MOVES else action)
    return chosen


def digest(actions: list[int]) -> str:
    return hashlib.sha256(json.dumps(actions).encode()).hexdigest()[:16]


def test_the_heuristic_makes_the_recorded_choices() -> None:
    record = json.loads(RECORD.read_text(encoding="utf-8"))
    assert len(record) == GAMES
    decisions = 0
    for seed, (count, expected) in enumerate(record):
        actions = choices(seed)
        assert (len(actions), digest(actions)) == (count, expected), f"game seed {seed}"
        decisions += count
    assert decisions > 20_000


if __name__ == "__main__":
    games = [json.dumps([len(a), digest(a)]) for a in map(choices, range(GAMES))]
    RECORD.write_text("[\n" + ",\n".join(games) + "\n]\n", encoding="utf-8")
