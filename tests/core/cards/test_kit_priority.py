"""The kit's round of passing priority, and the chain answered in such rounds."""

from __future__ import annotations

from tabletop.envs.core.cards.chain import Chain, Pending
from tabletop.envs.core.cards.priority import PriorityRound


def test_priority_goes_round_the_seats_until_all_passed_in_a_row() -> None:
    round_ = PriorityRound((2, 0, 1))
    assert (round_.holder, round_.passes) == (2, 0)
    assert not round_.passed() and round_.holder == 0
    assert not round_.passed() and round_.holder == 1
    round_.answered(1)  # an answer: the seat after it has priority, passing starts again
    assert (round_.holder, round_.passes) == (2, 0)
    assert not round_.passed() and not round_.passed()
    assert round_.passed(), "the third pass in a row closes a round of three seats"


def test_acting_unanswered_keeps_priority_and_starts_the_passing_again() -> None:
    round_ = PriorityRound((0, 1))
    assert not round_.passed() and round_.holder == 1
    round_.acted()
    assert (round_.holder, round_.passes) == (1, 0)
    assert not round_.passed() and round_.passed()


def test_a_round_restarts_from_a_given_seat_and_its_copy_is_independent() -> None:
    round_ = PriorityRound((0, 1, 2), holder=1)
    assert round_.after(1) == 2 and round_.after(2) == 0
    round_.passed()
    copy = round_.copy()
    copy.restart(0)
    assert (copy.holder, copy.passes, copy.seats) == (0, 0, (0, 1, 2))
    assert (round_.holder, round_.passes) == (2, 1)


def test_a_closing_pass_may_start_the_next_round_at_once() -> None:
    round_ = PriorityRound((0, 1))
    assert not round_.passed(1) and (round_.holder, round_.passes) == (1, 1)
    assert round_.passed(0), "the round closes"
    assert (round_.holder, round_.passes) == (0, 0), "and the next one starts with seat 0"
    assert not round_.passed(0) and round_.holder == 1


def _pass(chain: Chain, round_: PriorityRound) -> Pending | None:
    """The holder passes: when that closes the round the top item resolves (returned) and
    priority starts again from its controller's left."""
    if not round_.passed():
        return None
    item = chain.pop()
    round_.restart(round_.after(item.controller))
    return item


def _push(chain: Chain, round_: PriorityRound, controller: int, what: str) -> None:
    chain.push(controller, what)
    round_.answered(controller)


def test_the_chain_resolves_last_in_first_out_once_everyone_passed() -> None:
    chain, round_ = Chain(), PriorityRound((0, 1))
    assert not chain
    _push(chain, round_, 0, "bolt")
    assert chain and round_.holder == 1 and chain.top == Pending(0, "bolt")
    assert _pass(chain, round_) is None and round_.holder == 0
    _push(chain, round_, 0, "boost")  # the controller answers its own card
    assert round_.holder == 1 and round_.passes == 0
    _push(chain, round_, 1, "counter")
    assert round_.holder == 0
    resolved = []
    while chain:
        item = _pass(chain, round_) or _pass(chain, round_)
        assert item is not None
        resolved.append(item)
    assert resolved == [Pending(1, "counter"), Pending(0, "boost"), Pending(0, "bolt")]


def test_with_three_players_priority_goes_round_from_the_controllers_left() -> None:
    chain, round_ = Chain(), PriorityRound((0, 1, 2))
    _push(chain, round_, 1, "spell")
    seen = [round_.holder]
    for _ in range(2):
        assert _pass(chain, round_) is None
        seen.append(round_.holder)
    assert seen == [2, 0, 1]
    _push(chain, round_, 1, "answer")
    assert round_.holder == 2 and round_.passes == 0
    assert _pass(chain, round_) is None and _pass(chain, round_) is None
    assert _pass(chain, round_) == Pending(1, "answer")
    assert round_.holder == 2, "the spell below: priority again from the controller's left"
    assert [_pass(chain, round_) for _ in range(3)][-1] == Pending(1, "spell")
    assert not chain


def test_a_copied_chain_is_independent() -> None:
    chain = Chain()
    chain.push(0, "bolt")
    copy = chain.copy()
    copy.push(1, "counter")
    assert chain.items == [Pending(0, "bolt")]
    assert copy.pop() == Pending(1, "counter") and [item.what for item in copy.items] == ["bolt"]
