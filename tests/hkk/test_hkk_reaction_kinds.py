"""HK-8.4: a reaction answers the card or ability on top of the chain, and its card data
says which kind (``answers``: a spell, an ability, a reaction or any); a player holding
only reactions that cannot answer the top item is not asked (HK-8.5)."""

from __future__ import annotations

import copy
import tomllib
from typing import Any

import pytest
from hkk_positions import act, texts

from tabletop.envs.core.cards.data import CardDataError
from tabletop.envs.hkk.cards import data_path, parse_pool
from tabletop.envs.hkk.engine import HkkGame, HkkState

POOL_DATA = tomllib.loads(data_path("pool.toml").read_text(encoding="utf-8"))


def pool_data(**answers: str) -> dict[str, Any]:
    """The starter pool with Unweave answering ``answers["unweave"]`` (if given) and an
    Echo Ward, a copy of Unweave answering ``answers["echo"]``, added."""
    data = copy.deepcopy(POOL_DATA)
    unweave = next(card for card in data["card"] if card["name"] == "Unweave")
    if "unweave" in answers:
        unweave["answers"] = answers["unweave"]
    data["card"].append({**unweave, "name": "Echo Ward", "answers": answers.get("echo", "any")})
    return data


def position(setups: list[dict[str, Any]], **answers: str) -> HkkState:
    game = HkkGame(pool=parse_pool(pool_data(**answers), "mine.toml"))
    return game.stacked_state(setups)


ATTACKER = {"hand": ["Fire Bolt", "Stray Wolf"], "vp": 5, "reserve": ["Master Smith"]}
DEFENDER = {"hand": ["Unweave"], "vp": 3, "reserve": ["Hill Giant"]}
MOVES = {
    "spell": "play h0 Fire Bolt on their #0 Hill Giant",
    "creature": "play h1 Stray Wolf",
    "ability": "use #0 Master Smith 1",
}


@pytest.mark.parametrize(
    ("kind", "answered"),
    [
        ("any", {"spell", "creature", "ability"}),
        ("spell", {"spell"}),
        ("ability", {"ability"}),
        ("reaction", set()),
    ],
)
def test_hk_8_4_a_reaction_is_offered_only_against_its_kind(kind: str, answered: set[str]) -> None:
    for move, text in MOVES.items():
        state = position([ATTACKER, DEFENDER], unweave=kind)
        act(state, text)
        asked = state.player == 1 and "play h0 Unweave" in texts(state)
        assert asked == (move in answered), (kind, move)


def test_hk_8_4_a_reaction_that_answers_reactions_answers_only_them() -> None:
    """Player 1's Unweave answers the Fire Bolt; player 0's Echo Ward (reactions only) may
    answer the Unweave, and cancels it: the Fire Bolt then resolves."""
    mine = {"hand": ["Fire Bolt", "Echo Ward", "Stray Wolf"], "vp": 7}
    state = position([mine, DEFENDER], echo="reaction")
    act(state, MOVES["spell"])
    assert state.player == 1, "Echo Ward cannot answer the own Fire Bolt"
    act(state, "play h0 Unweave")
    assert state.player == 0 and "play h0 Echo Ward" in texts(state)
    act(state, "play h0 Echo Ward")
    assert state.tables[1][0].damage == 3 and not state.stack, "the Fire Bolt hit"


def test_hk_10_2_only_a_reaction_says_what_it_answers() -> None:
    data = copy.deepcopy(POOL_DATA)
    bolt = next(card for card in data["card"] if card["name"] == "Fire Bolt")
    bolt["answers"] = "spell"
    with pytest.raises(CardDataError, match=r"card 'Fire Bolt': field 'answers': only a reaction"):
        parse_pool(data, "mine.toml")
    unweave = next(card for card in data["card"] if card["name"] == "Unweave")
    unweave["answers"] = "creature"
    bolt.pop("answers")
    with pytest.raises(CardDataError, match=r"card 'Unweave': field 'answers': "):
        parse_pool(data, "mine.toml")
