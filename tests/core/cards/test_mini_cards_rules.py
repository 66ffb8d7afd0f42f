"""Mini Cards, the card game built from the kit alone (mini_cards/): its rules MC-1 to MC-4
on positions set up by hand, and its card data checked by the kit's vocabulary. The generic
checks run over it in tests/test_conformance.py, as over every registered game."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from mini_cards.cards import POOL, POOL_FILE, load_pool
from mini_cards.engine import MAIN, PASS, RESPOND, ZONES, MiniCardsGame, MiniCardsState

from tabletop.envs.core.cards.data import CardDataError
from tabletop.envs.core.cards.zones import Table

GAME = MiniCardsGame()
BY_NAME = {card.name: card for card in POOL}


def stacked(deck0: str, deck1: str, *, life: tuple[int, int] = (6, 6)) -> MiniCardsState:
    """A game whose decks hold these cards, top first (each player draws 2, then player 0
    draws 1 for the first turn)."""
    table = Table(2, ZONES)
    for seat, names in enumerate((deck0, deck1)):
        for name in reversed(names.split()):
            table.create(BY_NAME[name], seat, "deck")
    state = MiniCardsState(GAME, random.Random(0), table)
    state.life = list(life)
    state.settle()
    return state


def hand(state: MiniCardsState, seat: int) -> list[str]:
    return sorted(card.name for card in state.table.definitions("hand", seat))


def stack(state: MiniCardsState) -> list[str]:
    return [card.name for card in state.table.definitions("stack")]


def play(state: MiniCardsState, *moves: str) -> None:
    for move in moves:
        state.apply(state.string_to_action(move))


def test_mc_1_each_deck_holds_the_pool_and_each_player_draws() -> None:
    state = GAME.new_state(seed=4)
    table = state.table
    assert [len(table.zone("hand", seat)) for seat in (0, 1)] == [3, 2]
    assert [len(table.zone("deck", seat)) for seat in (0, 1)] == [7, 8]
    assert sum(table.census().values()) == 2 * sum(card.copies for card in POOL)
    assert state.life == [6, 6] and state.current_player == 0 and state.phase == MAIN
    table.check_conservation()


def test_mc_3_a_player_without_an_instant_passes_without_being_asked() -> None:
    state = stacked("Fireball Zap Banner Healer", "Banner Healer Banner")
    play(state, "play Fireball")
    assert state.current_player == 0 and state.phase == RESPOND, "player 1 was passed for"
    assert [e.kind for e in state.last_events()] == ["card_played"]
    play(state, "pass")
    assert state.life == [6, 4] and state.phase == MAIN
    assert state.table.definitions("discard", 0) == [BY_NAME["Fireball"]]


def test_mc_3_the_chain_resolves_the_last_answer_first() -> None:
    state = stacked("Fireball Banner Healer", "Mend Zap Banner", life=(6, 4))
    play(state, "play Fireball")
    zap, mend = (1 + BY_NAME[name].index for name in ("Zap", "Mend"))
    assert state.current_player == 1 and state.legal_actions() == [PASS, zap, mend]
    play(state, "play Mend")
    assert stack(state) == ["Fireball", "Mend"]
    assert state.current_player == 1, "player 0 holds no instant: passed for, back to player 1"
    play(state, "pass")
    assert [e.kind for e in state.last_events()] == ["card_resolved"], "Mend: 4 life, no heal"
    assert stack(state) == ["Fireball"] and state.current_player == 1
    play(state, "pass")
    assert state.life == [6, 2], "had Fireball resolved first, Mend would have healed"
    assert [e.kind for e in state.last_events()] == ["card_resolved", "damaged"]
    assert state.phase == MAIN and state.current_player == 0


def test_mc_2_units_react_when_their_owners_turn_starts_and_a_banner_boosts_damage() -> None:
    state = stacked("Healer Banner Zap Fireball Zap", "Banner Healer Zap Zap", life=(4, 6))
    play(state, "play Healer", "pass")  # player 1 holds no instant yet: passed for
    assert hand(state, 0) == ["Banner", "Fireball", "Zap"], "Healer drew when it resolved"
    play(state, "play Banner", "pass", "pass")
    assert [c.name for c in state.table.definitions("table", 0)] == ["Healer", "Banner"]
    assert state.active == 1 and state.life[0] == 4
    play(state, "pass")
    assert state.active == 0 and state.life[0] == 5, "the Healer heals at its owner's turn"
    play(state, "play Fireball", "pass", "pass")
    assert state.life[1] == 3, "Fireball 2, +1 for the Banner on the table"


def test_mc_4_a_player_at_0_life_loses_at_once() -> None:
    state = stacked("Fireball Zap Zap", "Banner Healer Banner", life=(6, 2))
    play(state, "play Fireball", "pass")
    assert state.is_terminal() and state.returns() == [1.0, -1.0] and state.life == [6, 0]
    assert [e.kind for e in state.last_events()][-2:] == ["damaged", "game_over"]


def test_resample_hidden_keeps_what_the_observer_saw() -> None:
    state = stacked("Fireball Zap Banner Healer", "Mend Zap Banner Healer Fireball")
    play(state, "play Fireball")
    assert state.current_player == 1
    rng = random.Random(1)
    for _ in range(20):
        twin = state.resample_hidden(0, rng)
        assert twin.render(0) == state.render(0) and twin.current_player == 1
        assert len(twin.legal_actions()) > 1, "player 1 still holds an instant"
    assert {tuple(hand(state.resample_hidden(0, rng), 1)) for _ in range(20)} != {("Mend", "Zap")}


@pytest.mark.parametrize(
    ("old", "new", "where"),
    [
        ('do = "damage", amount = 1', 'do = "burn", amount = 1', "'Zap': field 'on_play[0].do'"),
        ("amount = 2, to", 'amount = "2", to', "'Fireball': field 'on_play[0].amount'"),
        ('to = "opponent"', 'to = "everyone"', "'Fireball': field 'on_play[0].to'"),
        ('is = "life_below", amount = 4', 'is = "asleep"', "'Mend': field 'on_play[0].when.is'"),
        ("boost = {", "glow = {", "'Banner': field 'statics.glow'"),
        ('"spell"', '"spell"\nstatics = { boost = { amount = 1 } }', "'Fireball': field 'statics'"),
    ],
)
def test_the_pool_is_checked_by_the_vocabulary(
    tmp_path: Path, old: str, new: str, where: str
) -> None:
    text = POOL_FILE.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "pool.toml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(CardDataError) as error:
        load_pool(path)
    assert str(error.value).startswith(f"pool.toml: card {where}: ")


def test_the_game_uses_the_kit_and_no_code_of_another_game() -> None:
    source = "".join(path.read_text() for path in Path(__file__).parent.glob("mini_cards/*.py"))
    assert "gold_and_dust" not in source and "tabletop.envs.core.cards" in source
