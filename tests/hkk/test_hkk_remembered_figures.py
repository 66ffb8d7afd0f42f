"""Figures are remembered while the position holds (``figures.remembered``): every change
they depend on, by a rule or by hand, must be seen at the next read."""

from __future__ import annotations

from hkk_positions import on_table, stacked

from tabletop.envs.hkk import figures


def test_hk_4_5_counters_written_by_hand_are_seen_at_once() -> None:
    state = stacked([{"guard": ["Hill Giant"]}, {}])
    giant = on_table(state, 0, "Hill Giant")
    assert figures.damage(state, giant) == 5
    giant.counters = 2
    assert (figures.damage(state, giant), figures.life(state, giant)) == (7, 7)


def test_hk_9_2_a_table_item_passive_or_gone_takes_its_bonus_with_it() -> None:
    state = stacked([{"guard": ["Hill Giant"], "beside": ["War Banner"]}, {}])
    giant, banner = on_table(state, 0, "Hill Giant"), on_table(state, 0, "War Banner")
    assert figures.damage(state, giant) == 6, "the banner's +1 to its guard post"
    banner.active = False
    assert figures.damage(state, giant) == 5, "a passive card gives nothing (HK-1.4)"
    banner.active = True
    giant.area = "reserve"
    assert figures.damage(state, giant) == 5, "the banner's group is the guard post"
    giant.area = "guard"
    assert figures.damage(state, giant) == 6
    state.leave(banner, "discard")
    assert figures.damage(state, giant) == 5


def test_hk_4_3_the_defence_bonus_follows_whose_turn_it_is() -> None:
    state = stacked([{"guard": ["Hill Giant"]}, {}])
    giant = on_table(state, 0, "Hill Giant")
    assert figures.life(state, giant) == 5
    state.active = 1
    assert figures.life(state, giant) == 6


def test_remembered_figures_are_a_clones_own() -> None:
    state = stacked([{"guard": ["Hill Giant"]}, {}])
    assert figures.damage(state, on_table(state, 0, "Hill Giant")) == 5
    other = state.clone()
    on_table(other, 0, "Hill Giant").boost = (3, 0)
    assert figures.damage(other, on_table(other, 0, "Hill Giant")) == 8
    assert figures.damage(state, on_table(state, 0, "Hill Giant")) == 5


def test_only_a_mark_that_changes_is_counted_and_by_its_own_position() -> None:
    state = stacked([{"guard": ["Hill Giant"]}, {}])
    giant = on_table(state, 0, "Hill Giant")
    before = state.mark_writes.count
    giant.boost = (0, 0)
    giant.active = giant.active
    assert state.mark_writes.count == before, "a mark written as it was changes nothing"
    other = state.clone()
    on_table(other, 0, "Hill Giant").counters = 1
    assert state.mark_writes.count == before, "a clone's cards count for the clone"
    assert other.mark_writes.count == 1
    giant.levels = 1
    assert state.mark_writes.count == before + 1
