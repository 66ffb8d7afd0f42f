"""HK-6.4: a direct-damage declaration is narrated and the picture after it renders (its
event's target is a strike target, not a card's ``[seat, position, index]``)."""

from __future__ import annotations

from hkk_positions import HOLD, act, stacked


def test_hk_6_4_a_breath_declared_is_narrated_and_rendered() -> None:
    mine = {"guard": ["Ember Drake"], **HOLD, "vp": 6}
    state = stacked([mine, {"guard": ["Stray Wolf"]}], phase="declare")
    act(state, "pass")
    breath = next(a for a in state.legal_actions() if "breathe" in state.action_to_string(a))
    state.apply(breath)
    texts = [event.text for event in state.last_events(1)]
    assert any("declares direct damage" in text for text in texts)
    assert "Last:" in state.render(1)
