"""Regicide's heuristic: its solo jester flips and its strength over whole solo games (its
no-peek check is the conformance test of every game's heuristic)."""

from __future__ import annotations

from tabletop.envs.regicide.cards import FLIP
from tabletop.envs.regicide.engine import RegicideGame, RegicideState
from tabletop.envs.regicide.heuristic import RegicideHeuristic


def _attacked_by_a_king(hand: list[str]) -> RegicideState:
    """Solo, the king of clubs attacks for 20 after a club it is immune to."""
    state = RegicideGame(1).stacked_state(hands=[hand], castle=["KC"])
    state.apply(state.string_to_action("play 3C"))
    return state


def test_solo_flips_a_jester_rather_than_pay_with_nearly_the_whole_hand() -> None:
    state = _attacked_by_a_king(["3C", "10S", "9H", "2D"])  # 21 left, 21 to pay 20
    assert RegicideHeuristic().act(state, 0) == FLIP


def test_solo_pays_when_the_cover_leaves_a_fair_share_of_the_hand() -> None:
    state = _attacked_by_a_king(["3C", "10S", "9H", "2D", "4D"])  # 25 left, 21 pays 20
    action = RegicideHeuristic().act(state, 0)
    assert state.action_to_string(action) == "discard 10S"


def test_solo_games_defeat_eight_enemies_on_average() -> None:
    """Seeds 0-199: 8.24 enemies a game (the heuristic before e0b353a: 7.34)."""
    heuristic, defeated = RegicideHeuristic(), 0
    for seed in range(200):
        state = RegicideGame(1).new_state(seed=seed)
        while not state.is_terminal():
            state.apply(heuristic.act(state, 0))
        defeated += state.enemies_defeated
    assert defeated / 200 > 7.9
