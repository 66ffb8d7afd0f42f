"""A game's ``string_to_action`` given something other than a string refuses it as an
illegal action naming the game (``envs.core.engine.action_text``), not with an error from
deep in its notation."""

from __future__ import annotations

import pytest

from tabletop import envs
from tabletop.envs.core.engine import action_text
from tabletop.envs.core.protocol import IllegalActionError


def test_a_string_passes_through() -> None:
    assert action_text("some game", "pass") == "pass"


@pytest.mark.parametrize("game", ["kult", "hkk"])
@pytest.mark.parametrize("text", [5, None, b"pass"])
def test_a_card_game_refuses_an_action_text_that_is_not_a_string(game: str, text: object) -> None:
    state = envs.make_game(game).new_state(0)
    with pytest.raises(IllegalActionError, match=f"^{game}: an action text is a str"):
        state.string_to_action(text)
