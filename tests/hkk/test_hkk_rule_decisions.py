"""The project's decisions where HKK's rules read two ways (docs/rules/hkk.md): a breath
from a creature that did not attack counts towards a building (HK-6.8), a body part does not
absorb a breath (HK-9.4), the turn the last card is drawn is a quiet turn (HK-2.3), and a
creature moved in the swap stays moved (HK-3.4)."""

from __future__ import annotations

import pytest
from hkk_positions import HOLD, act, names, stacked, step, texts


@pytest.mark.parametrize(("breath", "falls"), [(1, False), (2, True)])
def test_hk_6_8_a_breath_from_a_creature_that_did_not_attack_counts(breath: int, falls: bool):
    """The Ash Roc (3 damage) attacks the Eyrie (5 structure); the Ember Drake beside it
    does not attack but breathes at the Eyrie: 3 + 2 brings it down, 3 + 1 does not."""
    state = stacked([{**HOLD, "guard": ["Ash Roc", "Ember Drake"], "vp": 4},
                     {"beside": ["Eyrie"]}], phase="declare")  # fmt: skip
    act(state, "attack #0 Ash Roc at their #0 Eyrie", "pass")
    act(state, f"breathe #1 Ember Drake {breath} at their #0 Eyrie")
    assert step(state) == "main again"
    assert (names(state, "discard", 1) == ["Eyrie"]) == falls


def test_hk_9_4_a_body_part_does_not_absorb_a_breath() -> None:
    """The Ember Drake breathes 2 at a Galetki Stalker carrying Bone Spurs: its owner is
    never offered the body part, and the galetki takes the damage."""
    theirs = {"guard": [{"card": "Galetki Stalker", "attached": ["Bone Spurs"]}]}
    state = stacked([{**HOLD, "guard": ["Ember Drake"], "vp": 4}, theirs], phase="declare")
    act(state, "pass", "breathe #0 Ember Drake 2 at their #0 Galetki Stalker")
    assert step(state) == "main again" and state.player == 0, "player 1 was not asked"
    assert [(e.card.name, e.damage) for e in state.tables[1]] == [
        ("Galetki Stalker", 2),
        ("Bone Spurs", 0),
    ]


def test_hk_2_3_the_turn_the_last_card_is_drawn_is_a_quiet_turn() -> None:
    """Player 1's deck is empty; player 0 draws the last card of theirs and nobody's life
    changes in that turn: it is the first of the 10 quiet turns."""
    state = stacked([{"deck": ["Stray Wolf"]}, {"deck": [], **HOLD}], active=1, phase="healing")
    assert state.active == 0 and names(state, "hand", 0) == ["Stray Wolf"]
    assert not state.decks[0] and state.quiet_turns == 0
    while state.active == 0:
        act(state, "pass")
    assert state.quiet_turns == 1


def test_hk_3_4_a_creature_moved_in_the_swap_stays_moved() -> None:
    """A full guard post: the Stray Wolf leaves it and is not offered back; the Ember Drake
    takes its place, so the exchange is made, and is not offered back either."""
    mine = {**HOLD, "guard": ["Stray Wolf", "Ash Roc", "Hill Giant"], "reserve": ["Ember Drake"]}
    state = stacked([mine, {}], phase="swap")
    act(state, "reserve #0 Stray Wolf")
    assert texts(state) == ["pass", "guard #3 Ember Drake", "reserve #1 Ash Roc",
                            "reserve #2 Hill Giant"]  # fmt: skip
    act(state, "guard #3 Ember Drake")
    assert texts(state) == ["pass", "reserve #1 Ash Roc", "reserve #2 Hill Giant"]
    assert [e.area for e in state.tables[0]] == ["reserve", "guard", "guard", "guard"]
