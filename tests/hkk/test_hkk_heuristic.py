"""HKK's heuristic: legal moves only, the decisions its docstring promises on positions
built by hand (HK-3.4's swap, HK-6.2's attacks and break-through, HK-4.2's life-saving
window, HK-8.4's answers, HK-6.4's breath), a match it wins clearly against random play
with seats swapped, and the same move whatever ``resample_hidden`` re-draws of what its
seat cannot see (HK-11.1)."""

from __future__ import annotations

import itertools
import random

from hkk_positions import HOLD, act, declare_state, stacked

from tabletop.agents.base import RandomAgent, play_game
from tabletop.envs.core import checks
from tabletop.envs.hkk import heuristic
from tabletop.envs.hkk.cards import PACKAGED_DECKS
from tabletop.envs.hkk.effects import VOCAB
from tabletop.envs.hkk.engine import HkkGame, HkkState
from tabletop.envs.hkk.heuristic import HkkHeuristic

PAIRS = list(itertools.product(PACKAGED_DECKS, repeat=2))


class Checked(HkkHeuristic):
    """The heuristic, asserting that every move it makes is legal and its seat's."""

    def act(self, state: HkkState, player: int) -> int:
        action = super().act(state, player)
        assert player == state.current_player
        assert action in state.legal_actions(), state.render()
        return action


def chosen(state: HkkState) -> str:
    return state.action_to_string(HkkHeuristic().act(state, state.current_player))


def decide(state: HkkState, plies: int) -> list[str]:
    """The heuristic's next ``plies`` moves (the engine takes forced ones)."""
    moves = []
    for _ in range(plies):
        action = HkkHeuristic().act(state, state.current_player)
        moves.append(state.action_to_string(action))
        state.apply(action)
    return moves


def test_beats_random_play_in_at_least_90_percent_with_seats_swapped() -> None:
    """100 games over every pair of packaged decks, the heuristic at seat 0 in half."""
    wins = 0
    for number in range(100):
        first, second = PAIRS[number % len(PAIRS)]
        seat = number % 2
        agents = [RandomAgent(number), RandomAgent(number)]
        agents[seat] = Checked()
        state = play_game(HkkGame(decks=(first, second)).new_state(number), agents)
        wins += state.returns()[seat] > 0
    assert wins >= 90


def test_hk_11_1_never_decides_on_hidden_cards() -> None:
    for first, second in (("venom", "stronghold"), ("devourers", "skyfire"),
                          ("skyfire", "venom"), ("stronghold", "devourers")):  # fmt: skip
        report = checks.check_agent_never_peeks(
            HkkGame(decks=(first, second)), HkkHeuristic, games=2, seed=3, twins=2
        )
        assert report.hidden_differences > 0 and report.decisions > 50


def test_the_same_position_gets_the_same_move_in_self_play() -> None:
    state = HkkGame(decks=("stronghold", "devourers")).new_state(5)
    rng = random.Random(5)
    while not state.is_terminal():
        first = Checked().act(state, state.current_player)
        assert HkkHeuristic().act(state.clone(), state.current_player) == first
        state.apply(first if rng.random() < 0.8 else rng.choice(state.legal_actions()))


def test_hk_6_2_breaks_through_an_empty_guard_post_to_the_player() -> None:
    state = declare_state(["Hill Giant", "Ash Roc"], [])
    assert decide(state, 2) == ["attack #0 Hill Giant at player", "attack #1 Ash Roc at player"]
    assert state.life[1] == 20 - 5 - 3  # the rest of the combat ran by itself (HK-8.5)


def test_hk_6_2_kills_the_guard_it_can_and_breaks_through_with_the_rest() -> None:
    """A Stray Wolf (2/2 with the defence bonus) dies to the Hill Giant, which survives;
    with the guard post attacked, the Ash Roc goes through."""
    state = declare_state(["Hill Giant", "Ash Roc"], ["Stray Wolf"])
    moves = decide(state, 2)
    assert moves == ["attack #0 Hill Giant at their #0 Stray Wolf", "attack #1 Ash Roc at player"]


def test_hk_6_2_does_not_attack_into_a_defender_that_kills_it_for_nothing() -> None:
    """An Ash Roc (3/2) against an Iron Golem (4/6 with the bonus, magic defence) only
    dies: it stays home."""
    state = declare_state(["Ash Roc"], ["Iron Golem"])
    assert chosen(state) == "pass"


def test_hk_3_4_the_guard_post_takes_the_strongest_active_creatures() -> None:
    """Room for three: the active Hill Giant joins; the passive Iron Golem cannot."""
    mine = {"guard": ["Stray Wolf", "Kiln Salamander", "Marsh Adder"],
            "reserve": ["Hill Giant", {"card": "Iron Golem", "active": False}], **HOLD}  # fmt: skip
    state = stacked([mine, {"guard": ["Stray Wolf"]}], phase="swap")
    assert decide(state, 2) == ["reserve #0 Stray Wolf", "guard #3 Hill Giant"]


def test_main_phase_develops_the_reserve_with_the_best_creature_it_can_pay() -> None:
    mine = {"hand": ["Stray Wolf", "Hill Giant", "Old Lore"], "vp": 5}
    state = stacked([mine, {"guard": ["Stray Wolf"]}])
    assert chosen(state) == "play h1 Hill Giant"


def test_hk_4_2_heals_its_creature_in_the_life_saving_window() -> None:
    """A Fire Bolt brings the hurt Hill Giant (6/6 on the other's turn, 4 damage) below 0:
    Wild Growth saves it."""
    giant = {"card": "Hill Giant", "damage": 4}
    mine = {"guard": [giant], "hand": ["Wild Growth"], "vp": 5}
    theirs = {"guard": ["Ember Drake"], "hand": ["Fire Bolt", "Stray Wolf"], "vp": 5}
    state = stacked([mine, theirs], active=1)
    act(state, "play h0 Fire Bolt on their #0 Hill Giant")
    assert chosen(state) == "pass"  # healing before the damage saves nothing
    act(state, "pass")
    assert state.saving and state.current_player == 0
    assert chosen(state) == "play h0 Wild Growth on my #0 Hill Giant"


def test_hk_7_9_regenerates_its_creature_out_of_the_life_saving_window() -> None:
    """Frost Ray takes the hurt Mossback Troll (5/5 on the other's turn, 4 damage) to -1:
    two points of regeneration, a magic point each, bring it back to 1."""
    mine = {"guard": [{"card": "Mossback Troll", "damage": 4}], "vp": 5}
    theirs = {"guard": ["Stray Wolf"], "hand": ["Frost Ray", "Stray Wolf"], "vp": 5}
    state = stacked([mine, theirs], active=1)
    act(state, "play h0 Frost Ray on their #0 Mossback Troll")  # (the old damage: no answer)
    assert state.saving
    assert decide(state, 3) == ["regenerate #0 Mossback Troll"] * 2 + ["pass"]
    assert state.tables[0][0].card.name == "Mossback Troll" and state.vp[0] == 3


def test_hk_8_4_cancels_a_card_that_would_take_a_creature() -> None:
    mine = {"guard": ["Hill Giant"], "hand": ["Unweave"], "vp": 5}
    theirs = {"guard": ["Stray Wolf"], "hand": ["Banish", "Stray Wolf"], "vp": 9}
    state = stacked([mine, theirs], active=1)
    act(state, "play h0 Banish on their #0 Hill Giant")
    assert chosen(state) == "play h0 Unweave"


def test_hk_8_4_lets_a_harmless_card_through() -> None:
    mine = {"guard": ["Hill Giant"], "hand": ["Unweave"], "vp": 5}
    theirs = {"hand": ["Second Wind", "Stray Wolf"], "vp": 9}
    state = stacked([mine, theirs], active=1)
    act(state, "play h0 Second Wind")
    assert chosen(state) == "pass"


def test_hk_6_3_a_boost_before_the_strike_wins_the_fight() -> None:
    """The Hill Giant (5/5) attacks a Mossback Troll (5/5 with the bonus): both would die;
    Shield Ward's +3 life keeps the Giant alive, Tailwind's +2 damage changes nothing."""
    mine = {"guard": ["Hill Giant"], "hand": ["Tailwind", "Shield Ward"], "vp": 5}
    state = stacked([mine, {"guard": ["Mossback Troll"]}], phase="declare")
    act(state, "attack #0 Hill Giant at their #0 Mossback Troll")  # the last declaration
    assert chosen(state) == "play h1 Shield Ward on my #0 Hill Giant"


def test_hk_6_4_breathes_at_the_creature_it_kills() -> None:
    mine = {"guard": ["Ember Drake"], **HOLD, "vp": 6}
    state = stacked([mine, {"guard": ["Stray Wolf", "Iron Golem"]}], phase="declare")
    act(state, "pass")
    assert chosen(state).startswith("breathe")
    assert chosen(state).endswith("their #0 Stray Wolf")


def test_main_phase_keeps_boosts_for_fights_and_life_it_would_lose() -> None:
    """Shield Ward and Battle Cry wait for a fight; Second Wind at full life waits too."""
    mine = {"guard": ["Hill Giant"], "hand": ["Shield Ward", "Battle Cry", "Second Wind"],
            "vp": 9}  # fmt: skip
    state = stacked([mine, {"guard": ["Stray Wolf"]}])
    assert chosen(state) == "pass"


def test_hk_6_3_the_defender_answers_with_the_instant_that_saves_its_guard() -> None:
    """The other player's Hill Giant (5/5) attacks the Gate Warden (3/4 with the defence
    bonus), which would die: Shield Ward's +3 life keeps it alive."""
    mine = {"guard": ["Gate Warden"], "hand": ["Shield Ward", "Stray Wolf"], "vp": 5}
    state = stacked([mine, {"guard": ["Hill Giant"]}], active=1, phase="declare")
    act(state, "attack #0 Hill Giant at their #0 Gate Warden")
    assert state.current_player == 0
    assert chosen(state) == "play h0 Shield Ward on my #0 Gate Warden"


def test_every_primitive_has_an_appraisal_and_the_fight_tables_name_primitives() -> None:
    assert [n for n, p in VOCAB.primitives.items() if p.appraise is None] == []
    assert set(heuristic.FIGHT_CHANGES) | set(heuristic.KEPT_FOR_FIGHTS) <= set(VOCAB.primitives)
