"""The kit's trigger dispatch and continuous effects."""

from __future__ import annotations

from typing import Any

import pytest
from kit_table import POOL, ZONES, Def, Unit

from tabletop.envs.core.cards.continuous import Continuous, statics_in
from tabletop.envs.core.cards.events import Context, dispatch, resolve, triggers_of
from tabletop.envs.core.cards.vocabulary import Params, Vocabulary
from tabletop.envs.core.cards.zones import Table


class Tag(Params):
    tag: str


class Flag(Params):
    on: bool


class Amount(Params):
    amount: int


class Log:
    """A state that records what ran, and can be ended by an effect."""

    def __init__(self) -> None:
        self.ran: list[tuple[int, str]] = []
        self.over = False


VOCAB = Vocabulary("toy")
VOCAB.event("dies", "on_death", "the card dies")
VOCAB.event("turn_starts", "on_turn_start", "a turn starts")
VOCAB.static("aura", params=Amount)


@VOCAB.primitive("log", params=Tag)
def _log(state: Log, context: Context, effect: Any) -> None:
    state.ran.append((context.owner, effect.tag))


@VOCAB.primitive("end")
def _end(state: Log, context: Context, effect: Any) -> None:
    state.ran.append((context.owner, "end"))
    state.over = True


@VOCAB.condition("flag", params=Flag)
def _flag(state: Log, context: Context, params: Flag) -> bool:
    return params.on


def card(**fields: list[dict[str, Any]]) -> dict[str, Any]:
    record = {name: [VOCAB.parse_effect(e) for e in effects] for name, effects in fields.items()}
    return triggers_of(record, VOCAB.trigger_fields())


def log(tag: str, when: bool | None = None) -> dict[str, Any]:
    effect: dict[str, Any] = {"do": "log", "tag": tag}
    if when is not None:
        effect["when"] = {"is": "flag", "on": when}
    return effect


def test_triggers_are_gathered_by_event_name() -> None:
    triggers = card(on_death=[log("a")], on_turn_start=[])
    assert list(triggers) == ["dies"] and triggers["dies"][0].tag == "a"


def test_listeners_react_in_the_given_order_and_their_effects_in_order() -> None:
    state = Log()
    first = card(on_death=[log("a1"), log("a2")])
    deaf = card(on_turn_start=[log("never")])
    second = card(on_death=[log("b1")], on_turn_start=[log("t")])
    listeners = [(second, Context(1)), (deaf, Context(0)), (first, Context(0))]
    assert dispatch(state, "dies", listeners, lambda: state.over) == 2
    assert state.ran == [(1, "b1"), (0, "a1"), (0, "a2")]
    state.ran.clear()
    assert dispatch(state, "turn_starts", listeners, lambda: state.over) == 2
    assert state.ran == [(1, "t"), (0, "never")]
    assert dispatch(state, "leaves", listeners, lambda: state.over) == 0


def test_an_effect_whose_condition_fails_is_skipped() -> None:
    state = Log()
    triggers = card(on_death=[log("a", when=False), log("b", when=True), log("c")])
    dispatch(state, "dies", [(triggers, Context(0))], lambda: state.over)
    assert state.ran == [(0, "b"), (0, "c")]


def test_dispatch_stops_as_soon_as_the_game_is_over() -> None:
    state = Log()
    ends = card(on_death=[log("a"), {"do": "end"}, log("after")])
    later = card(on_death=[log("later")])
    fired = dispatch(state, "dies", [(ends, Context(0)), (later, Context(1))], lambda: state.over)
    assert state.ran == [(0, "a"), (0, "end")] and fired == 1
    resolve(state, Context(1), later["dies"], lambda: state.over)
    assert state.ran[-1] == (0, "end"), "nothing resolves once it is over"


def boosted(table: Table, cache: Continuous, calls: list[int], owner: int) -> int:
    def compute() -> int:
        calls.append(owner)
        statics = statics_in(table, [("table", owner)], active=lambda unit: unit.face_up)
        return sum(modifier.amount for name, modifier in statics if name == "aura")

    return cache.get(table, ("aura", owner), compute)


def test_a_continuous_effect_is_on_while_its_card_is_in_play_and_off_when_it_leaves() -> None:
    banner = Def(9, "Banner", (("aura", VOCAB.parse_static("aura", {"amount": 2})),))
    table = Table(2, ZONES)
    iid = table.create(banner, 0, "hand")
    plain = table.create(POOL[0], 0, "hand")
    cache, calls = Continuous(), []
    assert boosted(table, cache, calls, 0) == 0
    table.remove(iid, ("hand", 0))
    unit = Unit(iid, banner)
    table.put(unit, ("table", 0))
    assert boosted(table, cache, calls, 0) == 2 and boosted(table, cache, calls, 1) == 0
    assert calls == [0, 0, 1], "computed again once the card entered"
    table.move(plain, ("hand", 0), ("discard", 0))
    assert boosted(table, cache, calls, 0) == 2 and len(calls) == 3, "no lasting zone moved"
    computed = len(calls)
    table.move(unit, ("table", 0), ("discard", 0))
    assert boosted(table, cache, calls, 0) == 0 and len(calls) == computed + 1


def test_the_cache_holds_while_the_table_does_and_touch_invalidates_it() -> None:
    banner = Def(9, "Banner", (("aura", VOCAB.parse_static("aura", {"amount": 1})),))
    table = Table(2, ZONES)
    iid = table.create(banner, 0, "hand")
    table.remove(iid, ("hand", 0))
    unit = Unit(iid, banner)
    table.put(unit, ("table", 0))
    cache, calls = Continuous(), []
    assert [boosted(table, cache, calls, 0) for _ in range(3)] == [1, 1, 1] and calls == [0]
    unit.face_up = False  # a mark changes: not a move, so the game says so
    assert boosted(table, cache, calls, 0) == 1, "stale until touched"
    table.touch()
    assert boosted(table, cache, calls, 0) == 0 and calls == [0, 0]
    copy = cache.copy()
    assert copy.values == cache.values and copy.values is not cache.values


def test_statics_are_read_only_from_lasting_zones() -> None:
    """A zone whose moves do not change ``Table.version`` would leave cached figures
    stale: reading statics from it is an error, not a silent miss."""
    table = Table(2, ZONES)
    table.create(POOL[0], 0, "discard")
    with pytest.raises(ValueError, match="'discard' is not lasting"):
        list(statics_in(table, [("discard", 0)]))
