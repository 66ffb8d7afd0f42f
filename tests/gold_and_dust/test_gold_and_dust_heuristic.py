"""The Gold & Dust heuristic values a card's effects by the appraisals registered on the
vocabulary, whenever the cards were loaded: registering an appraisal replaces the
vocabulary's primitive, so an effect loaded before the heuristic module still holds the
primitive without it, and the heuristic must look its appraisal up by name."""

from __future__ import annotations

import subprocess
import sys

PLAY = """
import hashlib
{first}
from tabletop.agents import RandomAgent, play_game
from tabletop.envs.gold_and_dust.heuristic import GoldDustHeuristic
moves = []
for seed in range(3):
    state = game.new_state(seed)
    play_game(state, [GoldDustHeuristic(), RandomAgent(seed)], lambda s, a: moves.append(a))
print(hashlib.sha256(repr(moves).encode()).hexdigest())
"""
CARDS_FIRST = "from tabletop.envs.gold_and_dust.engine import GoldDustGame\ngame = GoldDustGame()"
HEURISTIC_FIRST = (
    "import tabletop.envs.gold_and_dust.heuristic\n"
    "from tabletop.envs.gold_and_dust.engine import GoldDustGame\ngame = GoldDustGame()"
)


def moves_digest(first: str) -> str:
    script = PLAY.format(first=first)
    return subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    ).stdout


def test_cards_loaded_before_the_heuristic_play_as_cards_loaded_after() -> None:
    assert moves_digest(CARDS_FIRST) == moves_digest(HEURISTIC_FIRST)
