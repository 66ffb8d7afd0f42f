"""Agents on the engine: spec resolution, seeded randomness, hidden information, play_game,
and the one definition of a game's outcome."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

import pytest
from core.toy_game import ToyGame

from tabletop import envs
from tabletop.agents import (
    Agent,
    RandomAgent,
    agent_identity,
    make_agent,
    play_game,
    split_agent_specs,
)
from tabletop.agents.ismcts import ISMCTS, SearchBudget
from tabletop.agents.outcome import DRAW, LOSS, WIN, outcome, side_outcome, team_outcome
from tabletop.envs import make_game
from tabletop.envs.core.protocol import State


class RecordingAgent:
    """Wraps an agent to record its moves and count its resets."""

    def __init__(self, inner: Agent) -> None:
        self.inner = inner
        self.moves: list[int] = []
        self.resets = 0

    def reset(self) -> None:
        self.resets += 1
        self.inner.reset()

    def act(self, state: State, player: int) -> int:
        action = self.inner.act(state, player)
        self.moves.append(action)
        return action


def new_regicide_state(num_players: int = 2, seed: int = 5) -> State:
    return make_game("regicide", num_players=num_players).new_state(seed=seed)


def test_make_agent_rejects_unknown_spec_and_lists_known_ones() -> None:
    with pytest.raises(ValueError, match=r"'minimax'.*random.*heuristic"):
        make_agent("minimax", "regicide")


def test_make_agent_random_is_a_seeded_random_agent() -> None:
    agent = make_agent("random", "regicide", seed=1)
    assert isinstance(agent, RandomAgent)
    assert isinstance(agent, Agent)


def test_make_agent_heuristic_comes_from_the_env_module() -> None:
    agent = make_agent("heuristic", "regicide", seed=1)
    assert isinstance(agent, Agent)
    state = play_game(new_regicide_state(), [agent, agent])
    assert state.is_terminal()


def test_random_agents_with_the_same_seed_play_the_same_game() -> None:
    def moves(seed: int) -> list[int]:
        agents = [RecordingAgent(RandomAgent(seed + seat)) for seat in range(3)]
        play_game(new_regicide_state(num_players=3), agents)
        return [move for agent in agents for move in agent.moves]

    assert moves(seed=11) == moves(seed=11)


def test_random_agent_decides_the_same_when_hidden_cards_are_redealt() -> None:
    state = new_regicide_state(num_players=3)
    rng = random.Random(0)
    while not state.is_terminal():
        player = state.current_player
        redealt = state.resample_hidden(player, rng)
        action = RandomAgent(seed=7).act(state, player)
        assert RandomAgent(seed=7).act(redealt, player) == action
        state.apply(action)


def test_play_game_reaches_the_end_and_resets_each_agent_once() -> None:
    agents = [RecordingAgent(RandomAgent(seat)) for seat in range(2)]
    state = new_regicide_state()
    assert play_game(state, agents) is state
    assert state.is_terminal()
    assert [agent.resets for agent in agents] == [1, 1]
    assert any(agent.moves for agent in agents)


def test_play_game_wants_one_agent_per_seat() -> None:
    with pytest.raises(ValueError, match="1 agents for a 2-player game"):
        play_game(new_regicide_state(), [RandomAgent()])


def test_agent_specs_split_at_commas_but_keep_their_options() -> None:
    assert split_agent_specs("ismcts:iterations=2000,c=0.7,heuristic, random") == [
        "ismcts:iterations=2000,c=0.7",
        "heuristic",
        "random",
    ]
    assert split_agent_specs("runs/a=b/policy.pt,random") == ["runs/a=b/policy.pt", "random"]


def test_an_agent_has_one_identity_however_its_spec_is_written() -> None:
    assert agent_identity("ISMCTS:iterations=50, c=1") == agent_identity("ismcts:c=1,iterations=50")
    assert agent_identity("runs/kaleva") == agent_identity("policy:runs/kaleva")
    assert agent_identity(" random ") == "random"
    assert agent_identity("ismcts:iterations=50") != agent_identity("ismcts:iterations=51")


def test_a_spec_with_nothing_after_its_colon_is_refused() -> None:
    with pytest.raises(ValueError, match="nothing after ':'; write 'random'"):
        make_agent("random:", "kaleva")


def test_play_game_shows_each_move_before_it_is_applied() -> None:
    seen: list[tuple[int, int, bool]] = []
    agents = [RecordingAgent(RandomAgent(seat)) for seat in range(2)]

    def note(state: State, action: int) -> None:
        seen.append((state.current_player, action, action in state.legal_actions()))

    play_game(new_regicide_state(), agents, on_move=note)
    assert all(legal for _, _, legal in seen)
    assert sorted(action for _, action, _ in seen) == sorted(agents[0].moves + agents[1].moves)


@pytest.mark.parametrize(
    ("returns", "side", "expected"),
    [
        ([1.0, -1.0], 0, WIN),
        ([1.0, -1.0], 1, LOSS),
        ([0.5, 0.5, -1.0], 0, DRAW),
        ([2.0, 3.0, -1.0], (0, 2), LOSS),
        ([3.0, 1.0, 2.0], [1, 0], WIN),
    ],
)
def test_a_side_wins_with_its_best_return_strictly_above_the_others_best(
    returns: list[float], side: int | tuple[int, ...], expected: str
) -> None:
    assert side_outcome(returns, side) == expected
    assert outcome(returns, side, cooperative=False) == expected


def test_a_side_of_every_seat_has_no_one_to_beat() -> None:
    with pytest.raises(ValueError, match="no one to beat"):
        side_outcome([1.0, 1.0], (0, 1))


@pytest.mark.parametrize(
    ("returns", "expected"),
    [
        ([1.0, 1.0], WIN),
        ([-1.0, -1.0], LOSS),
        ([0.0], DRAW),
        ([1.0, -0.5], LOSS),
        ([2.0, 0.0], DRAW),
    ],
)
def test_a_team_wins_when_every_seat_gains_and_loses_when_any_loses(
    returns: list[float], expected: str
) -> None:
    assert team_outcome(returns) == expected
    assert outcome(returns, 1 % len(returns), cooperative=True) == expected


# ----- ISMCTS with a depth cap and the game's evaluation ---------------------------------


def played_card_wins(card: int) -> Callable[[State], list[float]]:
    """A toy evaluation: whoever has played ``card`` onto the pile wins (+1, the rest -1);
    nobody has yet: 0 to all. Nothing like the real game, so only it can explain a choice."""

    def evaluate(state: State) -> list[float]:
        seats = range(state.game.num_players)
        owner = next((player for played, player in state.pile if played == card), None)
        return [0.0 if owner is None else 1.0 if seat == owner else -1.0 for seat in seats]

    return evaluate


@pytest.mark.parametrize("favoured", [1, 2])
def test_a_depth_cap_scores_the_cut_off_rollout_with_the_evaluation(favoured: int) -> None:
    """Player 0 holds 1 and 2 (seed 1); with depth 0 every iteration is scored by the
    evaluation alone, so the card it favours is the move, whichever it is."""
    state = ToyGame().new_state(seed=1)
    assert state.legal_actions() == [1, 2]
    search = ISMCTS(SearchBudget(200), depth=0, evaluate=played_card_wins(favoured), seed=0)
    result = search.search(state, 0)
    assert result.action == favoured
    assert result.mean_return[favoured] == 1.0


class CountingAgent(RandomAgent):
    """A random rollout policy that counts the plies it plays."""

    plies = 0

    def act(self, state: State, player: int) -> int:
        self.plies += 1
        return super().act(state, player)


def test_a_rollout_stops_after_depth_plies_and_is_evaluated_once() -> None:
    calls: list[int] = []

    def evaluate(state: State) -> Sequence[float]:
        calls.append(len(state.pile))
        return [0.0, 0.0]

    rollout = CountingAgent(seed=0)
    search = ISMCTS(SearchBudget(1), rollout=rollout, depth=3, evaluate=evaluate, seed=0)
    search.search(ToyGame(deck_size=30, hand_size=5).new_state(seed=1), 0)
    assert rollout.plies == 3
    assert len(calls) == 1


def test_a_rollout_that_ends_within_the_depth_scores_the_real_returns() -> None:
    def evaluate(state: State) -> Sequence[float]:
        raise AssertionError("a finished game is never evaluated")

    search = ISMCTS(SearchBudget(50), depth=1000, evaluate=evaluate, seed=0)
    assert search.search(ToyGame().new_state(seed=1), 0).iterations == 50


def test_a_depth_cap_without_an_evaluation_is_refused() -> None:
    with pytest.raises(ValueError, match="depth cap needs"):
        ISMCTS(SearchBudget(10), depth=4)
    with pytest.raises(ValueError, match="regicide declares none"):
        make_agent("ismcts:depth=4", "regicide")


@pytest.mark.parametrize(
    ("spec", "message"),
    [("ismcts:depth=-1", "depth must be at least 0"), ("ismcts:depth=two", "is not a int")],
)
def test_the_depth_option_is_checked(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make_agent(spec, "kult")


def test_a_guided_setting_given_twice_is_refused_not_overwritten() -> None:
    with pytest.raises(ValueError, match="guided: setting policy given twice"):
        make_agent("guided:policy=pretrained,policy=runs/x", "kult")


def test_the_depth_option_uses_the_evaluation_the_game_declares() -> None:
    agent = make_agent("ismcts:iterations=20,rollout=heuristic,depth=6", "kult", seed=0)
    assert agent.search.depth == 6
    assert agent.search.evaluate is envs.spec("kult").evaluate
    assert make_agent("ismcts:iterations=20", "kult").search.evaluate is None
    state = make_game("kult").new_state(seed=3)
    assert agent.act(state, state.current_player) in state.legal_actions()
    assert agent.last_result.iterations == 20


class HighestCard:
    """A rollout policy for the toy game: the highest card (2 in the opening of seed 1)."""

    def reset(self) -> None:
        """Nothing to forget."""

    def act(self, state: State, player: int) -> int:
        return max(state.legal_actions())


@pytest.mark.parametrize(("evaluation", "expected"), [(None, 2), (1, 1)])
def test_a_prior_keeps_the_policys_move_unless_the_search_finds_a_better_one(
    evaluation: int | None, expected: int
) -> None:
    """Where the evaluation cannot tell the moves apart the policy's 2 is played; where it
    says that 1 wins, 1 is played all the same."""
    evaluate = played_card_wins(evaluation) if evaluation else lambda state: [0.0, 0.0]
    search = ISMCTS(
        SearchBudget(200), rollout=HighestCard(), depth=0, evaluate=evaluate, prior=1.0, seed=0
    )
    assert search.search(ToyGame().new_state(seed=1), 0).action == expected


def test_a_prior_needs_a_rollout_policy() -> None:
    with pytest.raises(ValueError, match="prior needs a rollout policy"):
        ISMCTS(SearchBudget(10), prior=1.0)
    with pytest.raises(ValueError, match="prior must be at least 0"):
        make_agent("ismcts:prior=-1", "kult")
    assert make_agent("ismcts:rollout=heuristic,prior=2", "kult").search.prior == 2.0
