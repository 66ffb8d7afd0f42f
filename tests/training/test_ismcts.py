"""ISMCTS: finds forced wins, is reproducible, never peeks, keeps to its budget, and is an
agent by spec.

Most positions are in "Ten", a tiny hidden-hand game defined here: small enough to build any
position by hand, with hidden hands, a hidden deck and chance draws inside ``apply``.
"""

from __future__ import annotations

import itertools
import random

import pytest

from tabletop import envs
from tabletop.agents import Agent, RandomAgent, make_agent, play_game
from tabletop.agents.ismcts import DEFAULT_ITERATIONS, ISMCTS, ISMCTSAgent, SearchBudget
from tabletop.envs.core.protocol import TERMINAL, IllegalActionError
from tabletop.envs.regicide.engine import RegicideGame
from tabletop.envs.regicide.heuristic import RegicideHeuristic

TARGET = 10


class TenGame:
    """Ten: cards 1-9; a turn plays one card from the hand onto a public total. Reaching
    exactly ten wins (+1, the others share -1), passing ten loses (-1, the others share +1).
    After a play the mover draws from the hidden deck. Action id = the card's value."""

    name = "ten"
    num_actions = TARGET

    def __init__(self, num_players: int) -> None:
        self.num_players = num_players

    def new_state(self, seed: int | None = None) -> TenState:
        rng = random.Random(seed)
        deck = [value for value in range(1, TARGET) for _ in range(2)]
        rng.shuffle(deck)
        hands = [sorted(deck.pop() for _ in range(3)) for _ in range(self.num_players)]
        return TenState(self, rng, hands, deck, total=0, player=0)

    def position(
        self, hands: list[list[int]], deck: list[int], total: int, player: int, seed: int = 0
    ) -> TenState:
        return TenState(self, random.Random(seed), [sorted(h) for h in hands], deck, total, player)


class TenState:
    def __init__(
        self,
        game: TenGame,
        rng: random.Random,
        hands: list[list[int]],
        deck: list[int],
        total: int,
        player: int,
    ) -> None:
        self.game, self.rng, self.hands, self.deck = game, rng, hands, deck
        self.total, self.player = total, player
        self._returns = [0.0] * game.num_players
        self._rewards = [0.0] * game.num_players

    @property
    def current_player(self) -> int:
        return self.player

    def is_terminal(self) -> bool:
        return self.player == TERMINAL

    def legal_actions(self) -> list[int]:
        return [] if self.is_terminal() else sorted(set(self.hands[self.player]))

    def apply(self, action: int) -> None:
        if action not in self.legal_actions():
            raise IllegalActionError(f"ten: illegal action {action}")
        mover = self.player
        self.hands[mover].remove(action)
        self.total += action
        if self.total >= TARGET:
            self._finish(mover, 1.0 if self.total == TARGET else -1.0)
            return
        if self.deck:
            self.hands[mover].append(self.deck.pop(self.rng.randrange(len(self.deck))))
        if not any(self.hands):
            self._finish(mover, 0.0)
            return
        self.player = (mover + 1) % self.game.num_players
        while not self.hands[self.player]:
            self.player = (self.player + 1) % self.game.num_players

    def _finish(self, mover: int, outcome: float) -> None:
        n = self.game.num_players
        self._rewards = [-outcome / (n - 1) if n > 1 else 0.0] * n
        self._rewards[mover] = outcome
        self._returns = list(self._rewards)
        self.player = TERMINAL

    def clone(self) -> TenState:
        other = TenState(
            self.game, random.Random(), [h[:] for h in self.hands], self.deck[:], self.total, 0
        )
        other.rng.setstate(self.rng.getstate())
        other.player, other._returns = self.player, self._returns[:]
        return other

    def rewards(self) -> list[float]:
        return list(self._rewards)

    def returns(self) -> list[float]:
        return list(self._returns)

    def resample_hidden(self, observer: int, rng: random.Random) -> TenState:
        """Re-deal the deck and the other hands; the pool is sorted first, so the result
        depends only on what ``observer`` sees and on ``rng``."""
        other = self.clone()
        others = [p for p in range(self.game.num_players) if p != observer]
        pool = sorted(self.deck + [card for p in others for card in self.hands[p]])
        rng.shuffle(pool)
        for p in others:
            size = len(self.hands[p])
            other.hands[p], pool = sorted(pool[:size]), pool[size:]
        other.deck = pool
        other.rng = random.Random(rng.getrandbits(64))
        return other


def search(iterations: int = 300, seed: int = 0, **options) -> ISMCTS:
    return ISMCTS(SearchBudget(iterations), seed=seed, **options)


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_finds_the_win_in_one_for_the_player_to_move(players: int) -> None:
    mover = players - 1
    hands = [[1, 2]] * players
    hands[mover] = [2, 4, 6, 8]
    state = TenGame(players).position(hands, deck=[1, 3, 5, 7, 9], total=4, player=mover)
    result = search().search(state, mover)
    assert result.action == 6
    assert result.mean_return[6] == 1.0


@pytest.mark.parametrize("players", [2, 4])
def test_avoids_the_move_that_hands_the_next_player_a_win(players: int) -> None:
    """Deck empty, so the unseen cards are 6 and 9s in the other hands. Playing 1 lets a
    next player holding the 6 make ten; after 2 every card they may hold busts."""
    hands = [[1, 2], [6, 9], *([[9]] * (players - 2))]
    state = TenGame(players).position(hands, deck=[], total=3, player=0)
    result = search().search(state, 0)
    assert result.action == 2
    assert result.mean_return[2] > result.mean_return[1]


def test_maximises_each_players_own_return() -> None:
    """Player 1's only win is 10 - 7 = 3; a search for player 0's sake would play 4 (bust)."""
    state = TenGame(2).position([[5], [3, 4, 1]], deck=[], total=7, player=1)
    assert search().search(state, 1).action == 3


def test_same_seed_same_decisions_over_a_whole_game() -> None:
    def moves(seed: int) -> list[int]:
        agent = ISMCTSAgent(search(iterations=40, seed=seed))
        recorded: list[int] = []
        state = TenGame(3).new_state(seed=5)
        while not state.is_terminal():
            action = agent.act(state, state.current_player)
            recorded.append(action)
            state.apply(action)
        return recorded

    assert moves(seed=1) == moves(seed=1)


def test_decides_the_same_in_states_that_differ_only_in_hidden_cards() -> None:
    state = TenGame(3).new_state(seed=2)
    twin = state.resample_hidden(0, random.Random(9))
    assert (twin.hands[1:], twin.deck) != (state.hands[1:], state.deck)
    first, second = search(seed=4).search(state, 0), search(seed=4).search(twin, 0)
    assert first.visits == second.visits
    assert first.mean_return == second.mean_return


def test_regicide_decisions_do_not_depend_on_other_hands_or_the_deck_order() -> None:
    state = RegicideGame(3, shaped_reward=True).new_state(seed=4)  # returns that vary
    player = state.current_player
    twin = state.resample_hidden(player, random.Random(1))
    assert twin.hands != state.hands and twin.hands[player] == state.hands[player]
    first = search(iterations=60, seed=2).search(state, player)
    second = search(iterations=60, seed=2).search(twin, player)
    assert first.visits == second.visits


@pytest.mark.parametrize("game_name", envs.names())
def test_no_game_lets_decisions_depend_on_what_the_searcher_cannot_see(game_name: str) -> None:
    """For every game: the search from a state and from a resampled twin (same view, other
    hidden cards and orders) spends its iterations identically, in mid-game positions."""
    game, rng, differed = envs.make_game(game_name), random.Random(7), 0
    for seed, plies in itertools.product(range(3), (4, 20)):
        state = game.new_state(seed=seed)
        for _ in range(plies):
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_actions()))
        if state.is_terminal():
            continue
        player = state.current_player
        twin = state.resample_hidden(player, random.Random(seed))
        differed += twin.render() != state.render()
        first = search(iterations=25, seed=seed).search(state, player)
        second = search(iterations=25, seed=seed).search(twin, player)
        assert (first.visits, first.mean_return) == (second.visits, second.mean_return)
    assert differed >= 3  # the twins really hid something else


def test_iteration_budget_is_exact() -> None:
    state = TenGame(2).new_state(seed=1)
    result = search(iterations=37).search(state, 0)
    assert result.iterations == 37
    assert sum(result.visits.values()) == 37


def second_decision_visits(players: int, reuse: bool) -> int:
    """Root visits at a player's second decision of a Ten game, 50 new iterations each."""
    agent = ISMCTSAgent(search(iterations=50), reuse=reuse)
    state = TenGame(players).position([[1, 2, 3]] * players, deck=[1, 2, 3, 4], total=0, player=0)
    state.apply(agent.act(state, 0))
    while state.current_player != 0:
        state.apply(state.legal_actions()[0])
    assert len(state.legal_actions()) > 1  # a real decision, so the agent searches
    agent.act(state, 0)
    assert agent.last_result is not None
    return sum(agent.last_result.visits.values())


def test_tree_reuse_keeps_the_chosen_subtree_in_one_player_games_only() -> None:
    assert second_decision_visits(players=1, reuse=False) == 50
    assert second_decision_visits(players=1, reuse=True) > 50
    assert second_decision_visits(players=2, reuse=True) == 50


class FakeClock:
    """Each reading is one second after the previous one."""

    def __init__(self) -> None:
        self.readings = itertools.count()

    def __call__(self) -> float:
        return float(next(self.readings))


def test_time_budget_stops_at_the_deadline() -> None:
    state = TenGame(2).new_state(seed=1)
    timed = ISMCTS(SearchBudget(iterations=None, seconds=5), clock=FakeClock())
    assert timed.search(state, 0).iterations == 5  # the clock reads 1, 2, ... after each one
    both = ISMCTS(SearchBudget(iterations=3, seconds=100), clock=FakeClock())
    assert both.search(state, 0).iterations == 3


def test_time_budget_is_a_ceiling_not_passed_by_the_last_iteration() -> None:
    """Iterations of one second in a budget of 5.5 s: a sixth would end at 6 s, past the
    budget, so the search stops after five (at 5 s)."""
    state = TenGame(2).new_state(seed=1)
    timed = ISMCTS(SearchBudget(iterations=None, seconds=5.5), clock=FakeClock())
    assert timed.search(state, 0).iterations == 5
    tiny = ISMCTS(SearchBudget(iterations=None, seconds=0.1), clock=FakeClock())
    assert tiny.search(state, 0).iterations == 1  # always one iteration, to have an answer


def test_bad_budgets_and_states_are_rejected() -> None:
    with pytest.raises(ValueError, match="iterations, seconds"):
        SearchBudget(iterations=None)
    with pytest.raises(ValueError, match="at least 1"):
        SearchBudget(iterations=0)
    with pytest.raises(ValueError, match="positive"):
        SearchBudget(seconds=0)
    state = TenGame(2).new_state(seed=1)
    with pytest.raises(ValueError, match="not to move"):
        search().search(state, 1)


def test_spec_sets_budget_exploration_and_rollout() -> None:
    agent = make_agent("ismcts:iterations=2000, c=0.5,rollout=heuristic,seconds=1", "regicide")
    assert isinstance(agent, ISMCTSAgent)
    assert agent.search.budget == SearchBudget(iterations=2000, seconds=1)
    assert agent.search.exploration == 0.5
    assert isinstance(agent.search.rollout_agent, RegicideHeuristic)
    timed = make_agent("ismcts:seconds=0.5", "regicide")
    assert timed.search.budget == SearchBudget(iterations=None, seconds=0.5)
    plain = make_agent("ismcts", "regicide")
    assert plain.search.budget == SearchBudget(iterations=DEFAULT_ITERATIONS)
    assert plain.search.rollout_agent is None
    assert not plain.reuse and make_agent("ismcts:reuse=true", "regicide").reuse


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("ismcts:depth=3", "bad option"),
        ("ismcts:iterations", "bad option"),
        ("ismcts:iterations=many", "not a int"),
        ("ismcts:c=high", "not a float"),
        ("ismcts:rollout=greedy", "rollout must be"),
        ("ismcts:reuse=1", "true/false"),
        ("ismcts:iterations=0", "at least 1"),
        ("ismcts:iterations=5,c=0.5,iterations=9", "option iterations given twice"),
    ],
)
def test_bad_spec_options_are_rejected(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make_agent(spec, "regicide")


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_agent_by_spec_plays_regicide_to_the_end(players: int) -> None:
    spec = "ismcts:iterations=8,c=1.0,rollout=heuristic"
    agents: list[Agent] = [make_agent(spec, "regicide", seed=s) for s in range(players)]
    state = play_game(RegicideGame(players).new_state(seed=3), agents)
    assert state.is_terminal()


def test_search_beats_random_play_at_ten() -> None:
    """Two-player Ten, the searcher in either seat against random play."""
    game, score = TenGame(2), 0.0
    for seed in range(20):
        for seat in (0, 1):
            agents: list[Agent] = [RandomAgent(seed), RandomAgent(seed)]
            agents[seat] = ISMCTSAgent(search(iterations=100, seed=seed))
            score += play_game(game.new_state(seed=seed), agents).returns()[seat]
    assert score > 10  # out of 40 games; random play against random scores about 0
