"""Random valid card definitions (HK-10.2: cards are data) load and play: instants,
sorceries, creatures and enchantments composed at random from the vocabulary's primitives,
selectors and parameters, put in decks beside starter cards, play random games to the end
with the rules' invariants kept."""

from __future__ import annotations

import random
import tomllib
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from test_hkk_random_games import check_invariants

from tabletop.envs.core.cards.data import CardDataError
from tabletop.envs.hkk.cards import Deck, data_path, parse_pool
from tabletop.envs.hkk.effects import VOCAB
from tabletop.envs.hkk.engine import HkkGame

POOL_DATA = tomllib.loads(data_path("pool.toml").read_text(encoding="utf-8"))
FILLER = ("Stray Wolf", "Fire Bolt", "Hill Giant", "Ash Roc")
"""Starter cards beside the random ones: three copies each, to fill a deck of 30."""
MAX_PLIES = 3_000
"""The safety net here: random cards can keep life changing for ever (a life gain every
turn against damage every turn), which HK-2.3's quiet-turns draw never catches."""
NAMES = ("Random One", "Random Two", "Random Three", "Random Four", "Random Five", "Random Six")

PARAMETERS = {
    "amount": st.integers(1, 10),
    "form": st.sampled_from([None, "fire", "ice", "acid", "lightning"]),
    "cards": st.integers(1, 3),
    "counters": st.integers(1, 5),
    "levels": st.integers(1, 3),
    "damage": st.integers(-5, 5),
    "life": st.integers(-5, 5),
}


@st.composite
def effects(draw: st.DrawFn, answers: bool = False) -> dict[str, Any]:
    """One effect of any primitive (``cancel`` only where an answer is allowed)."""
    names = [n for n in VOCAB.primitives if answers or n != "cancel"]
    primitive = VOCAB.primitives[draw(st.sampled_from(names))]
    effect: dict[str, Any] = {"do": primitive.name}
    if primitive.selectors:
        effect["to"] = draw(st.sampled_from(primitive.selectors))
    for field in primitive.params.model_fields:
        value = draw(PARAMETERS[field])
        if value is not None:
            effect[field] = value
    if primitive.name == "boost" and not (effect["damage"] or effect["life"]):
        effect["life"] = 1
    return effect


ABILITIES = st.fixed_dictionaries({}, optional={
    "flying": st.booleans(), "invisible": st.booleans(), "magic_defence": st.booleans(),
    "poison": st.integers(0, 3), "regeneration": st.integers(0, 3),
    "immunity": st.lists(st.sampled_from(["fire", "ice", "poison"]), max_size=2, unique=True),
    "untargetable": st.lists(st.sampled_from(["instants", "spells"]), max_size=1),
})  # fmt: skip


@st.composite
def cards(draw: st.DrawFn, name: str) -> dict[str, Any]:
    """A random instant, sorcery, monster or enchantment lying on the table."""
    kind = draw(st.sampled_from(["instant", "sorcery", "monster", "enchantment"]))
    card: dict[str, Any] = {"name": name, "type": kind, "text": "Random.",
                            "cost": draw(st.integers(1, 5))}  # fmt: skip
    some = st.lists(effects(answers=kind == "instant"), min_size=1, max_size=2)
    if kind in ("instant", "sorcery"):
        card["on_play"] = draw(some)
    elif kind == "enchantment":
        card["on_upkeep"] = draw(st.lists(effects(), min_size=1, max_size=2))
    else:
        card |= {"damage": draw(st.integers(0, 5)), "life": draw(st.integers(1, 6)),
                 "components": draw(st.integers(0, 3)), "abilities": draw(ABILITIES)}  # fmt: skip
        if draw(st.booleans()):
            card["on_play"] = draw(st.lists(effects(), min_size=1, max_size=2))
        if draw(st.booleans()):  # one that costs something: a free one could be used forever
            passivate = draw(st.booleans())
            ability = {"vp": draw(st.integers(0 if passivate else 1, 3)), "passivate": passivate,
                       "effects": draw(st.lists(effects(), min_size=1, max_size=2))}  # fmt: skip
            card["activated"] = [ability]
        if draw(st.booleans()):
            card["direct"] = {"breath": draw(st.integers(1, 4))}
    return card


@settings(max_examples=15, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])  # fmt: skip
@given(data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_hk_10_2_random_cards_load_and_play(data: st.DataObject, seed: int) -> None:
    made = [data.draw(cards(name)) for name in NAMES]
    try:
        pool = parse_pool({**POOL_DATA, "card": [*POOL_DATA["card"], *made]}, "random.toml")
    except CardDataError:
        assume(False)  # a combination the card rules refuse (e.g. a poison-immune poisoner)
        raise
    chosen = [pool.card_named(name) for name in (*NAMES, *FILLER)]
    deck = Deck("random", "", "hypothesis", tuple(c.index for c in chosen for _ in range(3)))
    game = HkkGame(pool=pool, decks=(deck, deck), ply_limit=MAX_PLIES)
    state = game.new_state(seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        check_invariants(state, 2 * len(deck.cards))
        state.apply(rng.choice(state.legal_actions()))
    assert state.winner is not None
