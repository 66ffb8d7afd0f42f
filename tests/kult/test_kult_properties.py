"""Kult under random play: invariants after every step for 2, 3 and 4 players, the generic
checks of ``envs/core/checks.py`` (leaks through ``resample_hidden``, observer texts and
events, clone independence, notation, determinism), and a hypothesis test that any valid
card definitions load and play (KU-10.2: cards are data, the engine must cope).

The default run is cheap; ``KULT_RANDOM_GAMES=1000`` plays 1,000 random games per player
count (the issue's figure, a few minutes)."""

from __future__ import annotations

import os
import random
import tomllib
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from kult_positions import ViewEncoder

from tabletop.envs.core import checks
from tabletop.envs.core.cards.hidden import redeal
from tabletop.envs.core.cards.zones import Table
from tabletop.envs.kult import crosses, engine
from tabletop.envs.kult.actions import decode
from tabletop.envs.kult.cards import PLACE, data_path, parse_deck, parse_pool
from tabletop.envs.kult.engine import KultGame, KultState
from tabletop.envs.kult.turns import ACTIONS, ATTACK, ATTRACT, DISCARD, RECRUIT

RANDOM_GAMES = int(os.environ.get("KULT_RANDOM_GAMES", "15"))
PLAYERS = (2, 3, 4)
KINDS_BY_PHASE = {
    ATTRACT: {"done", "attract", "turn"},
    RECRUIT: {"done", "recruit", "turn"},
    ACTIONS: {"done", "push", "play", "attach", "command", "turn", "invoke"},
    ATTACK: {"done", "attack", "turn"},
    DISCARD: {"done", "discard", "turn"},
}


def face_up_keys(state: KultState, seat: int) -> list[int]:
    """Permanent keys computed afresh: the Arcanum, face-up Places, Hub Influences."""
    keys = list(state.arcana[seat].keys)
    for base in state.crosses[seat]:
        if base is not None and base.face_up and base.card.kind == PLACE:
            keys = [k + c for k, c in zip(keys, base.card.colours, strict=True)]
    for attachment in crosses.hub_attachments(state, seat):
        extra = attachment.card.static("keys")
        for colour in extra.colours if extra else ():
            keys[("skull", "eye", "rose", "crescent", "hourglass").index(colour)] += 1
    return keys


def invariants(state: KultState) -> None:
    """Tokens conserved (KU-2.4), holding limits (KU-3.4), unique cards (KU-3.5), no colour
    from a face-down card (KU-5.1), cards conserved, legal actions of the phase."""
    game = state.game
    assert state.pool_tokens >= 0 and min(state.hub_tokens) >= 0
    assert state.pool_tokens + state.tokens_placed() == game.tokens
    state.table.check_conservation()
    unique = Counter(
        entry.card.index for zone in ("cross", "influences", "pool_influences")
        for entries in state.table.zones[zone] for entry in entries
        if entry is not None and entry.card.unique
    )  # fmt: skip
    assert all(n == 1 for n in unique.values()), unique
    for seat in range(game.num_players):
        assert len(state.hands[seat]) <= 10
        assert crosses.permanent_keys(state, seat) == face_up_keys(state, seat)
        for station, base in enumerate(state.crosses[seat]):
            if base is not None and base.face_up:  # face down it keeps what it held (KU-5.1)
                assert 0 <= base.tokens <= state.holding_limit(seat, station)
    if state.is_terminal():
        return
    kinds = {decode(action)[0] for action in state.legal_actions()}
    if state.pending_push is not None or state.pending_token is not None:
        assert kinds == {"push"}
    elif state.phase in KINDS_BY_PHASE:
        assert kinds <= KINDS_BY_PHASE[state.phase], (state.phase, kinds)
    else:  # a Commands window
        assert kinds <= {"done", "command"} and "done" in kinds


@pytest.mark.parametrize("players", PLAYERS)
def test_random_games_keep_the_invariants(players: int) -> None:
    game = KultGame(num_players=players)
    summary = checks.run_random_games(
        game, games=RANDOM_GAMES, seed=players, invariant=invariants, deep_check_fraction=0.02
    )
    assert summary.games == RANDOM_GAMES
    assert all(plies <= game.ply_limit for plies in summary.plies)


@pytest.mark.parametrize("players", PLAYERS)
def test_generic_checks_leaks_texts_clones_notation_determinism(players: int) -> None:
    game = KultGame(num_players=players, ply_limit=80)
    checks.check_no_leak(game, ViewEncoder(), games=2, seed=3, min_sensitivity=0.5)
    checks.check_no_text_leak(game, {"view": ViewEncoder()}, games=1, seed=2)
    assert checks.check_clone_independence(game, games=2, seed=4) > 0
    assert checks.check_notation(game, games=1, seed=6) > 0
    assert checks.check_seed_determinism(game, games=2, seed=5, chance=True) > 0


def test_the_known_multiset_check_catches_a_redeal_that_forgets_a_reshuffled_pile(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """KU-11.1: a redeal that ignores what a reshuffled discard pile held (``Table.lost``)
    exchanges its cards with the owner's other unseen ones; the generic check says so."""
    game = KultGame()
    assert checks.check_known_multisets(game, games=1, seed=9) > 0

    def forgetful(table: Table, observer: int, rng: random.Random) -> list[int]:
        table.lost = {}
        return redeal(table, observer, rng)

    monkeypatch.setattr(engine, "redeal", forgetful)
    with pytest.raises(AssertionError, match="shuffled out of sight together"):
        checks.check_known_multisets(game, games=1, seed=9)


# ----- random card definitions ------------------------------------------------------------

POOL_DATA = tomllib.loads(data_path("pool.toml").read_text(encoding="utf-8"))
COLOURS = st.sampled_from(["skull", "eye", "rose", "crescent", "hourglass"])
STATIONS = st.lists(st.integers(1, 8), min_size=1, max_size=8, unique=True)
ANY_EFFECTS = [
    {"do": "gain_keys", "colours": ["eye"]},
    {"do": "draw", "cards": 1},
    {"do": "recruit", "tokens": 1},
    {"do": "special", "name": "tithe"},
]
COMMAND_EFFECTS = [
    *ANY_EFFECTS,
    {"do": "fight_bonus", "amount": 2, "to": "defender"},
    {"do": "cancel_fight"},
    {"do": "embargo"},
]
MODIFIERS = [
    ("being", {"combat": {"amount": -2}}),
    ("card", {"holds": {"amount": 1}}),
    ("station", {"combat": {"amount": 1}, "holds": {"amount": 1}}),
    ("hub", {"keys": {"colours": ["rose"]}}),
    ("pool", {"combat": {"amount": -1}}),
]


@st.composite
def card(draw: st.DrawFn) -> dict[str, Any]:
    kind = draw(st.sampled_from(["place", "being", "spell", "influence", "command"]))
    fields: dict[str, Any] = {"kind": kind, "cost": draw(st.lists(COLOURS, max_size=3))}
    if kind == "command":
        fields["on_play"] = [draw(st.sampled_from(COMMAND_EFFECTS))]
        return fields
    if kind == "influence":
        fields["attach"], fields["modifiers"] = draw(st.sampled_from(MODIFIERS))
        if fields["attach"] != "pool":
            fields["into"] = draw(st.sampled_from(["own", "opponent", "any"]))
        return fields
    fields["stations"] = draw(STATIONS)
    fields["into"] = draw(st.sampled_from(["own", "own", "opponent", "any"]))
    fields["unique"] = draw(st.booleans())
    fields["holds"] = draw(st.integers(0, 3))
    if kind == "place":
        fields["colours"] = draw(st.lists(COLOURS, min_size=1, max_size=2))
    if kind == "being":
        fields["combat"] = draw(st.integers(-3, 6))
    ability = draw(st.sampled_from(["", "on_turn", "on_push"]))
    if ability:
        fields[ability] = [draw(st.sampled_from(ANY_EFFECTS))]
        if draw(st.booleans()):
            fields[ability].append({"do": "discard_self"})
    return fields


NAMES = [f"Card {chr(ord('A') + i)}" for i in range(10)]
FILLERS = [
    {"name": f"Filler {chr(ord('A') + i)}", "kind": "being", "text": "f", "combat": 0,
     "stations": [5, 6, 7, 8]}
    for i in range(7)
]  # fmt: skip
"""Plain Beings that top a deck up to 30 cards when generated unique cards leave it short."""


def deck_list(cards: list[dict]) -> dict[str, int]:
    """Three copies of each generated card (one of a unique one), then fillers to 30."""
    listed = {name: 1 if c.get("unique") else 3 for name, c in zip(NAMES, cards, strict=True)}
    missing = 30 - sum(listed.values())
    for filler in FILLERS:
        if missing <= 0:
            break
        listed[filler["name"]] = min(3, missing)
        missing -= listed[filler["name"]]
    return listed


@settings(max_examples=15, deadline=None)
@given(st.lists(card(), min_size=10, max_size=10), st.integers(2, 4), st.integers(0, 2**16))
def test_random_valid_cards_load_and_play(cards: list[dict], players: int, seed: int) -> None:
    records = [{"name": n, "text": "generated", **c} for n, c in zip(NAMES, cards, strict=True)]
    data = {"format": 1, "name": "Generated", "version": "0", "arcanum": POOL_DATA["arcanum"],
            "card": records + FILLERS}  # fmt: skip
    pool = parse_pool(data, "<generated>")
    decks = [
        parse_deck(
            {"name": "d", "arcanum": arcanum["name"], "cards": deck_list(cards)}, pool, "<g>"
        )
        for arcanum in POOL_DATA["arcanum"][:players]
    ]
    game = KultGame(num_players=players, pool=pool, decks=decks, ply_limit=150)
    summary = checks.run_random_games(
        game, games=2, seed=seed, invariant=invariants, deep_check_fraction=0.05
    )
    assert summary.games == 2
