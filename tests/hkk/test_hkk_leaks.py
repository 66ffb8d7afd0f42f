"""HK-11.1 against the kit's text-leak check with the galetki deck (body parts sacrificed
as shields, mutants fed, creatures raised from the discard pile) and the poison deck: two
moves that show a player the same must be narrated alike, so copies of a card in a hidden
hand or a discard pile are one play, and events say where on the table a card left from
and which copy of a card used its ability (two Herbalisms in the poison deck)."""

from __future__ import annotations

import itertools

from hkk_positions import act, stacked, texts

from tabletop.envs.core import checks
from tabletop.envs.hkk.encoders import ENCODERS
from tabletop.envs.hkk.engine import HkkGame, HkkState


def test_hk_11_1_moves_alike_to_a_player_are_narrated_alike() -> None:
    cases = (
        (("devourers", "skyfire"), 5),
        (("skyfire", "devourers"), 9),
        (("venom", "venom"), 105),
    )
    for decks, seed in cases:
        game = HkkGame(decks=decks)
        report = checks.check_no_text_leak(game, ENCODERS, games=1, seed=seed, actions_per_state=2)
        assert report is not None


def shown_after(state: HkkState, text: str, observer: int) -> tuple[str, str]:
    """(``render(observer)`` after the move ``text``, the move as ``observer`` reads it)."""
    after = state.clone()
    after.apply(after.string_to_action(text))
    return after.render(observer), state.action_to_string(state.string_to_action(text), observer)


def assert_told_apart(state: HkkState, observer: int) -> None:
    """The protocol's rule for every pair of legal moves: read differently by ``observer``,
    they leave ``observer`` different pictures."""
    shown = [shown_after(state, text, observer) for text in texts(state)]
    for (picture, text), (other_picture, other_text) in itertools.combinations(shown, 2):
        assert text == other_text or picture != other_picture, (text, other_text)


def test_hk_7_9_a_regeneration_wiped_by_the_turns_end_is_told() -> None:
    """Player 1 regenerates the Mossback Troll in the healing phase with 20 magic points:
    the end of the turn wipes the damage and the next income refills the magic points, so
    only the event (in the picture's last lines) tells it from a pass."""
    troll = {"card": "Mossback Troll", "damage": 1, "wounded": True}
    state = stacked([{}, {"reserve": [troll], "vp": 20}], phase="healing")
    assert texts(state) == ["pass", "regenerate #0 Mossback Troll"]
    assert_told_apart(state, 0)
    assert (
        "Last: Player 1's #0 Mossback Troll regenerates a point of life"
        in shown_after(state, "regenerate #0 Mossback Troll", 0)[0].splitlines()
    )


def test_hk_7_8_an_optional_triggers_target_is_told() -> None:
    """The Siege Breaker may make a building passive: on a passive Eyrie it changes nothing,
    so the trigger's event tells the choices (either Eyrie, or none) apart."""
    passive = {"card": "Eyrie", "active": False}
    state = stacked([{"hand": ["Siege Breaker", "Stray Wolf"], "vp": 5},
                     {"beside": [passive, passive]}])  # fmt: skip
    act(state, "play h0 Siege Breaker")
    assert texts(state) == ["pass", "choose their #0 Eyrie", "choose their #1 Eyrie"]
    assert_told_apart(state, 1)
