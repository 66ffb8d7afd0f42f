"""The kit's state copies: ``bare_copy`` and ``copy_last_move`` give a copy that shares
nothing it may change, ``redealt_copy`` a determinization that keeps the observer's view
and blinds the hand cards it re-dealt."""

from __future__ import annotations

import random

import pytest
from kit_table import dealt, layout, views

from tabletop.envs.core.cards.copies import (
    bare_copy,
    copy_last_move,
    redealt_copy,
    unseen_hand_cards,
)
from tabletop.envs.core.cards.hidden import redeal

EVENTS = [
    ("cards_drawn", {"player": 1, "cards": [3, 4]}),
    ("discarded", {"player": 1, "card": 2}),
    ("cards_drawn", {"player": 0, "cards": [1]}),
]


class TinyGame:
    name = "tiny"


class TinyState:
    """The least a card game's state keeps: a table, its hands bound, the last move."""

    def __init__(self, seed: int, choices: int = 2) -> None:
        self.game = TinyGame()
        self.rng = random.Random(seed)
        self.table = dealt(seed)
        self._bind_zones()
        self.choices = choices
        self._rewards, self._returns, self._legal = [0.0, 0.5], [1.0, -1.0], [0, 1]
        self._events = list(EVENTS)

    def _bind_zones(self) -> None:
        self.hands = self.table.zones["hand"]

    def _copy(self, rng: random.Random) -> TinyState:
        other = bare_copy(TinyState, self, rng)
        other.choices = self.choices
        copy_last_move(self, other)
        return other

    def is_terminal(self) -> bool:
        return False

    def _compute_legal(self) -> list[int]:
        return list(range(self.choices))


def test_a_bare_copy_with_the_last_move_shares_nothing_it_may_change() -> None:
    state = TinyState(seed=1)
    rng = random.Random(7)
    other = state._copy(rng)
    assert type(other) is TinyState and other.game is state.game and other.rng is rng
    assert other.table is not state.table and layout(other.table) == layout(state.table)
    assert other.hands is other.table.zones["hand"], "the zones are bound to the copy's table"
    for name in ("_rewards", "_returns", "_legal", "_events"):
        assert getattr(other, name) == getattr(state, name)
        getattr(other, name).append(0)
        assert getattr(other, name) != getattr(state, name), name


@pytest.mark.parametrize("observer", [0, 1])
def test_a_redealt_copy_keeps_the_observers_view_and_blinds_other_hands(observer: int) -> None:
    state = TinyState(seed=3)
    before = layout(state.table)
    other = redealt_copy(state, observer, random.Random(5), ("cards_drawn",))
    assert views(other.table, observer) == views(state.table, observer)
    assert layout(state.table) == before, "the original is untouched"
    assert other.rng is not state.rng
    for (kind, facts), (_, seen) in zip(state._events, other._events, strict=True):
        blind = kind == "cards_drawn" and facts["player"] != observer
        assert seen["cards" if "cards" in facts else "card"] == (
            [None] * len(facts["cards"]) if blind else facts.get("cards", facts.get("card"))
        )


def test_a_redealt_copy_deals_with_the_given_redeal_and_draws_again_until_consistent() -> None:
    calls = []

    def counted(table, observer, rng):  # type: ignore[no-untyped-def]
        calls.append(observer)
        return redeal(table, observer, rng)

    redealt_copy(TinyState(seed=2), 1, random.Random(0), (), counted)
    assert calls == [1]
    with pytest.raises(RuntimeError, match="tiny: no consistent deal"):
        redealt_copy(TinyState(seed=2, choices=1), 1, random.Random(0), (), counted)
    assert len(calls) > 2


def test_unseen_hand_cards_blinds_only_other_players_hand_events() -> None:
    drawn, discarded, own = EVENTS
    kinds = ("cards_drawn", "discarded")
    assert unseen_hand_cards(drawn, 0, kinds) == ("cards_drawn", {"player": 1, "cards": [None] * 2})
    assert unseen_hand_cards(discarded, 0, kinds) == ("discarded", {"player": 1, "card": None})
    assert unseen_hand_cards(own, 0, kinds) is own
    assert unseen_hand_cards(discarded, 0, ("cards_drawn",)) is discarded
    assert drawn[1]["cards"] == [3, 4], "the record itself is untouched"
