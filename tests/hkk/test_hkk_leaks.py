"""HK-11.1 against the kit's text-leak check with the galetki deck (body parts sacrificed
as shields, mutants fed, creatures raised from the discard pile) and the poison deck: two
moves that show a player the same must be narrated alike, so copies of a card in a hidden
hand or a discard pile are one play, and events say where on the table a card left from
and which copy of a card used its ability (two Herbalisms in the poison deck)."""

from __future__ import annotations

from tabletop.envs.core import checks
from tabletop.envs.hkk.encoders import ENCODERS
from tabletop.envs.hkk.engine import HkkGame


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
