"""What Regicide tells each player: observer action texts, the events of a move, help text."""

from __future__ import annotations

import re

import pytest

from tabletop.agents import RandomAgent
from tabletop.envs.core.protocol import Event
from tabletop.envs.regicide.engine import RegicideGame, RegicideState
from tabletop.envs.regicide.heuristic import RegicideHeuristic


def stacked(num_players: int = 2, **setup) -> RegicideState:
    return RegicideGame(num_players=num_players).stacked_state(**setup)


def act(state: RegicideState, *texts: str) -> None:
    for text in texts:
        state.apply(state.string_to_action(text))


def events(state: RegicideState, kind: str, observer: int | None = None) -> list[Event]:
    return [event for event in state.last_events(observer) if event.kind == kind]


# ----- action texts --------------------------------------------------------------------------


def test_every_move_is_public_so_every_observer_reads_the_full_text() -> None:
    state = stacked(3, hands=[["5H", "AC", "jester"], ["2C"], ["3C"]], castle=["KS"])
    for action in state.legal_actions():
        full = state.action_to_string(action)
        assert [state.action_to_string(action, o) for o in range(3)] == [full] * 3


@pytest.mark.parametrize("observer", [-1, 2, 7])
def test_an_observer_outside_the_table_is_an_error(observer: int) -> None:
    state = stacked()
    with pytest.raises(ValueError, match="observer must be None or a seat 0-1"):
        state.action_to_string(state.legal_actions()[0], observer)
    with pytest.raises(ValueError, match="observer"):
        state.last_events(observer)
    with pytest.raises(ValueError, match="observer"):
        state.render(observer)


# ----- events ------------------------------------------------------------------------------


def test_a_new_state_has_no_events() -> None:
    state = RegicideGame(3).new_state(seed=1)
    assert all(state.last_events(o) == [] for o in (None, 0, 1, 2))


def test_rg_4_2_another_players_draw_shows_only_a_count_the_drawer_sees_names() -> None:
    state = stacked(hands=[["4D", "9S"], ["2C"]], castle=["KS"], tavern=["10S", "10H", "9C", "9H"])
    act(state, "play 4D")  # draws: player 0 10S, player 1 10H, player 0 9C, player 1 9H
    (own,) = events(state, "cards_drawn", observer=0)[:1]
    assert own.text == "Player 0 draws 2 cards: 10S 9C"  # in card order: suits ♠♥♦♣
    assert own.data == {"player": 0, "count": 2, "cards": ["10S", "9C"]}
    (other,) = events(state, "cards_drawn", observer=1)[:1]
    assert other.text == "Player 0 draws 2 cards"
    assert other.data == {"player": 0, "count": 2, "cards": []}
    assert events(state, "cards_drawn")[1].data["cards"] == ["9H", "10H"]  # spectator: all


def test_rg_2_5_a_known_card_drawn_is_named_to_everyone() -> None:
    state = stacked(hands=[["10C", "3D", "10S", "9S"], ["2S", "4C"]], castle=["JH", "JC"])
    act(state, "play 10C")
    (defeated,) = events(state, "enemy_defeated", observer=1)
    assert defeated.data == {"enemy": "JH", "exact": True, "to": "tavern"}
    assert "on top of the tavern" in defeated.text
    act(state, "play 3D")  # draws: player 0 the JH (known), player 1, player 0
    (drawn,) = events(state, "cards_drawn", observer=1)[:1]
    assert drawn.data == {"player": 0, "count": 2, "cards": ["JH"]}
    assert drawn.text == "Player 0 draws 2 cards, among them JH (known to everyone)"


def test_rg_2_5_an_overkill_sends_the_enemy_to_the_discard_pile() -> None:
    state = stacked(hands=[["10C", "AC"], ["2S"]], castle=["JH", "JD"])
    act(state, "play 10C+AC")
    (defeated,) = events(state, "enemy_defeated", observer=1)
    assert defeated.data == {"enemy": "JH", "exact": False, "to": "discard"}
    (new,) = events(state, "new_enemy", observer=1)
    assert new.text == "The next enemy is the JD; Player 0 plays again"


def test_rg_4_1_heal_says_how_many_cards_moved() -> None:
    state = stacked(hands=[["10H", "9S", "9D", "9C"], ["2C"]], castle=["KS"])
    state.discard.extend(state.tavern[:7])
    del state.tavern[:7]
    act(state, "play 10H")
    (heal,) = events(state, "heal", observer=1)
    assert heal.data == {"amount": 10, "moved": 7}
    assert heal.text == "Hearts heal 10: 7 cards go from the discard pile under the tavern"


def test_rg_2_4_damage_suffered_discards_and_the_turn_passing() -> None:
    state = stacked(hands=[["2H", "7S", "5D", "4C"], ["3C"]], castle=["JC"])
    act(state, "play 2H")
    (attack,) = events(state, "damage_suffered", observer=1)
    assert attack.text == "The JC attacks Player 0 for 10"
    act(state, "discard 7S")
    assert [e.text for e in state.last_events(1)] == ["Player 0 discards 7S (3 more to cover)"]
    act(state, "discard 5D", "done")
    assert [(e.kind, e.data) for e in state.last_events(1)] == [
        ("turn_passed", {"player": 1, "chosen_by": None})
    ]


def test_rg_6_1_jester_cancels_immunity_and_its_player_chooses_who_goes_next() -> None:
    hands = [["6S", "10D", "10H"], ["jester", "2C"], ["5C", "10S"]]
    state = stacked(3, hands=hands, castle=["KS"])
    act(state, "play 6S", "discard 10D", "play jester")
    kinds = [e.kind for e in state.last_events(0)]
    assert kinds == ["cards_played", "immunity_cancelled"]
    assert state.last_events(0)[1].text == (
        "The KS's immunity is cancelled; its earlier spades now shield 6, it attacks for 14"
    )
    act(state, "next 2")
    assert [e.text for e in state.last_events(0)] == ["Player 1 chooses Player 2 to go next"]


def test_rg_7_2_a_flip_says_how_many_cards_were_discarded_and_drawn() -> None:
    state = stacked(1, hands=[["2H", "3H"]], castle=["KS"])
    act(state, "flip jester")
    flipped, drawn = state.last_events(0)
    assert flipped.data == {"player": 0, "discarded": 2, "powers_left": 1}
    assert drawn.kind == "cards_drawn" and drawn.data["count"] == 8


def test_rg_2_6_forced_moves_and_the_loss_are_narrated() -> None:
    """The solo_yield loss (RG-2.1): the move, then the forced yield, then the end."""
    state = RegicideGame(1, solo_yield=True).stacked_state(hands=[["10S"]], castle=["JD"])
    state.jester_powers = 0
    state.settle()
    act(state, "play 10S")
    assert [e.kind for e in state.last_events(0)] == [
        "cards_played", "shields_raised", "enemy_damaged", "damage_suffered", "turn_passed",
        "yielded", "damage_suffered", "turn_passed", "game_lost",
    ]  # fmt: skip
    assert state.last_events(0)[-1].text == "Player 0 can neither play nor yield: everyone loses"


def test_rg_2_4_a_hand_that_cannot_pay_is_named_in_the_loss() -> None:
    state = stacked(hands=[["2H", "3S", "4D"], ["9C"]], castle=["JC"])
    act(state, "play 2H")
    (lost,) = events(state, "game_lost", observer=1)
    assert lost.data == {"player": 0, "reason": "cannot_pay"}
    assert lost.text == "Player 0 cannot cover the 10 damage still due: everyone loses"


def test_rg_2_5_the_last_king_falling_wins() -> None:
    state = stacked(1, hands=[["10C", "AC"]], castle=["KH"])
    state.castle.clear()
    state.enemy_damage = 30
    act(state, "play 10C")
    (won,) = events(state, "game_won", observer=0)
    assert won.data == {"enemies_defeated": 1, "grade": "gold"}
    assert "Enemy: none left" in state.render(0)


# ----- help text ----------------------------------------------------------------------------

RENDER_CODES = (
    "damage",
    "attack",
    "shields",
    "immune to",
    "nothing (jester played)",
    "Enemy: none left",
    "Castle:",
    "tavern:",
    "top known:",
    "healed, next first:",
    "In play:",
    "Discard (",
    "Jester powers left:",
    "(known:",
    "(yielded)",
    "<- to move",
    "; moves:",
    "must discard",
    "damage covered; discard more or done",
    ": play",
    ": choose next",
    "Game over:",
    "♠",
    "♥",
    "♦",
    "♣",
)
"""Every fixed word or mark of the text picture a newcomer must be told about."""


def pictures() -> str:
    """Pictures of many positions, from every seat: random and heuristic games (the latter
    win some), plus a known card in another hand, so that every code shows up somewhere."""
    known = stacked(hands=[["10C", "3D", "10S", "9S"], ["2S", "4C"]], castle=["JH", "JC"])
    act(known, "play 10C", "play 3D")
    texts = [known.render(1)]
    for players in (1, 2, 3, 4):
        for seed in range(60):
            agent = RegicideHeuristic() if seed % 2 else RandomAgent(seed=seed)
            state = RegicideGame(players).new_state(seed=seed)
            while True:
                texts += [state.render(o) for o in range(players)]
                if state.is_terminal():
                    break
                state.apply(agent.act(state, state.current_player))
    return "\n".join(texts)


def test_help_text_explains_every_code_of_the_picture() -> None:
    seen, help_text = pictures(), RegicideGame(2).help_text()
    assert [code for code in RENDER_CODES if code not in seen] == []  # the list is current
    assert [code for code in RENDER_CODES if code not in help_text] == []


def test_help_text_shows_every_move_form_and_its_examples_parse() -> None:
    help_text = RegicideGame(2).help_text()
    state = stacked()
    examples = re.findall(
        r"^  ((?:play|discard|next|yield|done|flip)\b[^ ]*(?: \S+)?)", help_text, re.M
    )
    forms = {state.action_to_string(state.string_to_action(text)).split()[0] for text in examples}
    assert forms == {"play", "discard", "next", "yield", "done", "flip"}
    for suit in ("S = spades", "H = hearts", "D = diamonds", "C = clubs"):
        assert suit in help_text
