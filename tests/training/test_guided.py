"""Guided search: PUCT with a network's priors and values over ISMCTS's determinizations.
It finds forced wins, follows its priors, keeps to its budget in any batch size, never
peeks, values each seat as the game's payoffs say, and is an agent by spec.

Hand-built positions are in "Ten", the hidden-hand game of ``test_ismcts``.
"""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("sb3_contrib", reason="needs the [train] extra")
import torch
from test_ismcts import FakeClock, TenGame

from tabletop import envs
from tabletop.agents import RandomAgent, make_agent, play_game
from tabletop.agents.guided import (
    Evaluation,
    GuidedAgent,
    GuidedSearch,
    GuidedSettings,
    NetworkEvaluator,
    NumpyForward,
    TorchForward,
)
from tabletop.agents.policy import (
    NetworkSpec,
    PolicyMismatchError,
    env_metadata,
    load_agent,
    new_policy,
    save_policy,
)
from tabletop.envs.core.protocol import State

TINY = NetworkSpec(net_arch=[8], activation="Tanh")


class RiggedEvaluator:
    """Priors that put ``favourite`` (when legal) at ``weight`` and share the rest; every
    value 0. Counts its calls and the positions of each."""

    def __init__(self, favourite: int | None = None, weight: float = 0.8) -> None:
        self.favourite, self.weight = favourite, weight
        self.batches: list[int] = []

    def evaluate(self, positions: Sequence[tuple[State, int]]) -> list[Evaluation]:
        self.batches.append(len(positions))
        return [self._one(state) for state, _mover in positions]

    def _one(self, state: State) -> Evaluation:
        legal = state.legal_actions()
        priors = np.full(len(legal), 1.0 / len(legal))
        if self.favourite in legal and len(legal) > 1:
            priors[:] = (1 - self.weight) / (len(legal) - 1)
            priors[legal.index(self.favourite)] = self.weight
        return Evaluation(priors, np.zeros(state.game.num_players))


def guided(evaluator, seed: int = 0, **settings) -> GuidedSearch:
    return GuidedSearch(evaluator, GuidedSettings(**settings), seed=seed)


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_finds_the_win_in_one_with_a_uniform_evaluator(players: int) -> None:
    mover = players - 1
    hands = [[1, 2]] * players
    hands[mover] = [2, 4, 6, 8]
    state = TenGame(players).position(hands, deck=[1, 3, 5, 7, 9], total=4, player=mover)
    result = guided(RiggedEvaluator(), iterations=40).search(state, mover)
    assert result.action == 6
    assert result.mean_value[6] == 1.0


@pytest.mark.parametrize("favourite", [1, 3])
def test_the_priors_steer_the_choice(favourite: int) -> None:
    """No move ends the game and every value is 0: at one iteration per move, the move
    the evaluator favours gets them all."""
    state = TenGame(2).position([[1, 2, 3], [1, 2]], deck=[4, 5, 6], total=0, player=0)
    result = guided(RiggedEvaluator(favourite), iterations=3, batch=1).search(state, 0)
    assert result.action == favourite
    assert result.visits[favourite] == 3


@pytest.mark.parametrize(("iterations", "batch"), [(37, 1), (37, 8), (5, 16)])
def test_the_iteration_budget_is_exact_in_any_batch_size(iterations: int, batch: int) -> None:
    evaluator = RiggedEvaluator()
    state = TenGame(3).new_state(seed=1)
    result = guided(evaluator, iterations=iterations, batch=batch).search(state, 0)
    assert result.iterations == iterations
    assert sum(result.visits.values()) == iterations
    assert evaluator.batches[0] == 1  # the root's evaluation, before the iterations
    assert max(evaluator.batches[1:]) <= batch
    assert len(evaluator.batches) - 1 <= -(-iterations // batch)  # none if all terminal


def test_batches_find_the_same_win_with_the_same_visit_totals() -> None:
    state = TenGame(2).position([[2, 4, 6, 8], [1, 2]], deck=[1, 3, 5], total=4, player=0)
    one = guided(RiggedEvaluator(), iterations=48, batch=1).search(state, 0)
    eight = guided(RiggedEvaluator(), iterations=48, batch=8).search(state, 0)
    assert one.action == eight.action == 6
    assert sum(one.visits.values()) == sum(eight.visits.values()) == 48


def test_the_time_budget_is_a_ceiling() -> None:
    """The clock reads one second later at each look: batches of one, 5.5 s allowed."""
    state = TenGame(2).new_state(seed=1)
    timed = GuidedSearch(
        RiggedEvaluator(), GuidedSettings(iterations=None, seconds=5.5, batch=1),
        clock=FakeClock(),
    )  # fmt: skip
    assert timed.search(state, 0).iterations == 5
    both = GuidedSearch(RiggedEvaluator(), GuidedSettings(iterations=3, seconds=100, batch=1),
                        clock=FakeClock())  # fmt: skip
    assert both.search(state, 0).iterations == 3


def test_root_noise_and_temperature_are_seeded() -> None:
    state = TenGame(2).position([[1, 2, 3], [1, 2]], deck=[4, 5, 6], total=0, player=0)

    def priors(seed: int) -> dict[int, float]:
        settings = {"iterations": 4, "dirichlet_alpha": 0.3}
        return guided(RiggedEvaluator(), seed=seed, **settings).search(state, 0).priors

    assert priors(1) == priors(1) != priors(2)
    assert sum(priors(1).values()) == pytest.approx(1.0)
    assert guided(RiggedEvaluator(), iterations=4).search(state, 0).priors == {
        action: pytest.approx(1 / 3) for action in (1, 2, 3)
    }
    sampled = {
        guided(RiggedEvaluator(), seed=seed, iterations=9, temperature=1.0).search(state, 0).action
        for seed in range(12)
    }
    assert len(sampled) > 1  # nine visits spread over three moves: no single move every time


def network_evaluator(
    game_name: str, network: NetworkSpec = TINY, snapshot: bool = True
) -> NetworkEvaluator:
    """A fresh untrained network of ``game_name`` (flat encoder), its weights seeded."""
    env = envs.make(game_name)
    torch.manual_seed(0)
    policy = new_policy(env_metadata(env), network)
    raw = env.unwrapped
    return NetworkEvaluator.of_policy(policy, raw.encoder, raw.game, snapshot=snapshot)


def mid_game(game_name: str, seed: int, plies: int) -> State | None:
    rng, state = random.Random(seed), envs.make_game(game_name).new_state(seed=seed)
    for _ in range(plies):
        if state.is_terminal():
            return None
        state.apply(rng.choice(state.legal_actions()))
    return None if state.is_terminal() else state


@pytest.mark.parametrize("game_name", envs.names())
def test_no_game_lets_decisions_depend_on_what_the_searcher_cannot_see(game_name: str) -> None:
    """For every game: the search from a state and from a resampled twin (same view, other
    hidden cards and orders) spends its iterations identically, valued by a network."""
    evaluator, differed = network_evaluator(game_name), 0
    for seed, plies in itertools.product(range(3), (4, 20)):
        state = mid_game(game_name, seed, plies)
        if state is None:
            continue
        player = state.current_player
        twin = state.resample_hidden(player, random.Random(seed))
        differed += twin.render() != state.render()
        first = guided(evaluator, seed=seed, iterations=12, batch=4).search(state, player)
        second = guided(evaluator, seed=seed, iterations=12, batch=4).search(twin, player)
        assert (first.visits, first.mean_value) == (second.visits, second.mean_value)
    assert differed >= 3  # the twins really hid something else


@pytest.mark.parametrize(
    ("game_name", "plies", "rollout"),
    [("regicide", 6, {"mix": 0.5}), ("kult", 12, {"depth": 4})],
    ids=["played out", "cut after depth plies"],
)
def test_heuristic_rollouts_do_not_peek_either(game_name: str, plies: int, rollout: dict) -> None:
    state = mid_game(game_name, seed=2, plies=plies)
    assert state is not None
    player, evaluator = state.current_player, network_evaluator(game_name)
    twin = state.resample_hidden(player, random.Random(5))
    assert twin.render() != state.render()
    settings = {"iterations": 10, "batch": 2, "rollout": "heuristic", **rollout}
    first = guided(evaluator, seed=3, **settings).search(state, player)
    second = guided(evaluator, seed=3, **settings).search(twin, player)
    assert (first.visits, first.mean_value) == (second.visits, second.mean_value)


def test_depth_cuts_a_rollout_and_scores_it_with_the_games_evaluation() -> None:
    """Depth 0 with all the weight on the rollout: a leaf is worth exactly Kult's
    evaluation of the determinization; a rollout of a few plies plays that many at most."""
    state = mid_game("kult", seed=1, plies=9)
    assert state is not None
    evaluate = envs.spec("kult").evaluate
    search = guided(network_evaluator("kult"), iterations=4, rollout="heuristic", mix=1.0,
                    depth=0)  # fmt: skip
    leaf = state.clone()
    assert list(search._rollout(leaf)) == pytest.approx(list(evaluate(state)))
    assert leaf.render() == state.render()
    deeper = guided(network_evaluator("kult"), rollout="heuristic", depth=3)
    moved = state.clone()
    deeper._rollout(moved)
    assert 0 < moved.plies - state.plies <= 3


@pytest.mark.parametrize("game_name", envs.names())
def test_values_follow_the_games_payoffs(game_name: str) -> None:
    """Identical payoffs: one value for all; two-player zero-sum: the other seat gets the
    negative; otherwise each seat's value comes from its own observation."""
    state = mid_game(game_name, seed=1, plies=4)
    assert state is not None
    env = envs.make(game_name)
    torch.manual_seed(0)
    policy = new_policy(env_metadata(env), TINY)
    evaluator = NetworkEvaluator.of_policy(policy, env.unwrapped.encoder, state.game)
    mover = state.current_player
    values = evaluator.evaluate([(state, mover)])[0].values

    def own_value(seat: int) -> float:
        observation = torch.as_tensor(env.unwrapped.encoder.encode(state, seat)).unsqueeze(0)
        with torch.no_grad():
            return float(policy.predict_values(observation)[0, 0])

    payoff = envs.spec(game_name).payoff.value
    expected = {
        "identical": [own_value(mover)] * len(values),
        "zero-sum": [own_value(mover) if seat == mover else -own_value(mover) for seat in (0, 1)],
        "general-sum": [own_value(seat) for seat in range(len(values))],
    }[payoff]
    assert values == pytest.approx(expected, abs=1e-5)


@pytest.mark.parametrize(
    "network",
    [TINY, NetworkSpec(net_arch=[8], activation="ReLU", shared=[16])],
    ids=["plain", "shared trunk"],
)
def test_numpy_and_torch_evaluations_agree(network: NetworkSpec) -> None:
    env = envs.make("kult")
    torch.manual_seed(0)
    policy = new_policy(env_metadata(env), network)
    encoder, game = env.unwrapped.encoder, env.unwrapped.game
    live = NetworkEvaluator.of_policy(policy, encoder, game)
    numpy = NetworkEvaluator.of_policy(policy, encoder, game, snapshot=True)
    positions = [(s, s.current_player) for s in filter(None, (mid_game("kult", 1, n)
                                                            for n in (2, 9, 30)))]  # fmt: skip
    for ours, theirs in zip(numpy.evaluate(positions), live.evaluate(positions), strict=True):
        assert ours.priors == pytest.approx(theirs.priors, abs=1e-5)
        assert ours.values == pytest.approx(theirs.values, abs=1e-5)
        assert ours.priors.sum() == pytest.approx(1.0)


def test_a_pointer_network_evaluates_through_torch() -> None:
    evaluator = network_evaluator("hkk", NetworkSpec(net_arch=[8], activation="ReLU", rows=[8]))
    assert isinstance(evaluator.forward, TorchForward)  # numpy cannot copy it
    state = mid_game("hkk", seed=0, plies=10)
    assert state is not None
    result = guided(evaluator, iterations=6, batch=3).search(state, state.current_player)
    assert sum(result.visits.values()) == 6


def saved_tiny_policy(tmp_path: Path, game_name: str) -> Path:
    env = envs.make(game_name)
    torch.manual_seed(0)
    metadata = env_metadata(env)
    return save_policy(tmp_path / f"{game_name}.pt", new_policy(metadata, TINY), metadata, TINY)


@pytest.mark.parametrize("game_name", envs.names())
def test_the_spec_builds_an_agent_that_plays_a_whole_game(game_name: str, tmp_path: Path) -> None:
    path = saved_tiny_policy(tmp_path, game_name)
    spec = f"guided:policy={path},iterations=3,batch=2,c=2"
    agent = make_agent(spec, game_name, seed=1)
    assert isinstance(agent, GuidedAgent)
    assert agent.search.settings == GuidedSettings(iterations=3, batch=2, c_puct=2.0)
    game = envs.make_game(game_name)
    agents = [agent, *(RandomAgent(seat) for seat in range(1, game.num_players))]
    state = play_game(game.new_state(seed=2), agents)
    assert state.is_terminal()


def test_spec_settings_reach_the_search(tmp_path: Path) -> None:
    path = saved_tiny_policy(tmp_path, "regicide")
    agent = make_agent(
        f"guided:policy={path},seconds=0.5,rollout=heuristic,mix=0.25,temperature=1", "regicide"
    )
    assert agent.search.settings == GuidedSettings(
        iterations=None, seconds=0.5, rollout="heuristic", mix=0.25, temperature=1.0
    )
    kult = saved_tiny_policy(tmp_path, "kult")
    cut = make_agent(f"guided:policy={kult},rollout=heuristic,depth=8,mix=0.5", "kult")
    assert cut.search.settings == GuidedSettings(rollout="heuristic", depth=8, mix=0.5)
    plain = make_agent(f"guided:policy={path}", "regicide")
    assert plain.search.settings == GuidedSettings()
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    (run_dir / "best_policy.pt").write_bytes(path.read_bytes())
    assert isinstance(make_agent(f"guided:policy={run_dir}", "regicide"), GuidedAgent)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ("iterations=10", "missing setting policy"),
        ("policy={path},iterations=0", "iterations must be at least 1"),
        ("policy={path},seconds=-1", "seconds must be positive"),
        ("policy={path},depth=3", "depth needs a rollout to cut short"),
        ("policy={path},rollout=heuristic,depth=-1", "depth must be at least 0"),
        ("policy={path},rollout=heuristic,depth=4", "depth=4 for regicide: a depth cap needs"),
        ("policy={path},depth=many", "depth='many' is not a int"),
        ("policy={path},iterations", "bad setting 'iterations'"),
        ("policy={path},iterations=many", "iterations='many' is not a int"),
        ("policy={path},rollout=random,mix=1.5", r"mix must be in \[0, 1\]"),
        ("policy={path},mix=0.5", "mix needs a rollout"),
        ("policy={path},rollout=greedy", "rollout must be one of random, heuristic"),
        ("policy={path},batch=0", "batch must be at least 1"),
        ("policy={path},c=-1", "c must be at least 0"),
        ("policy={path},temperature=-0.5", "temperature must be at least 0"),
    ],
)
def test_bad_specs_are_refused_naming_the_setting(
    options: str, message: str, tmp_path: Path
) -> None:
    path = tmp_path / "never_read.pt"  # settings are checked before the policy is read
    with pytest.raises(ValueError, match=f"guided: .*{message}"):
        make_agent("guided:" + options.format(path=path), "regicide")


def test_a_policy_of_another_game_or_a_missing_file_is_refused_naming_it(
    tmp_path: Path,
) -> None:
    path = saved_tiny_policy(tmp_path, "kaleva")
    with pytest.raises(PolicyMismatchError, match=re.escape(str(path))):
        make_agent(f"guided:policy={path},iterations=5", "regicide")
    with pytest.raises(FileNotFoundError, match=r"nowhere\.pt"):
        make_agent(f"guided:policy={tmp_path / 'nowhere.pt'}", "regicide")


def test_a_loaded_policy_refuses_a_game_it_was_not_trained_for(tmp_path: Path) -> None:
    agent = load_agent(saved_tiny_policy(tmp_path, "kaleva"))
    search = GuidedSearch(NetworkEvaluator.of_agent(agent), GuidedSettings(iterations=2))
    state = envs.make_game("gold_and_dust").new_state(seed=0)
    with pytest.raises(PolicyMismatchError, match="game"):
        search.search(state, state.current_player)


def test_the_bench_measures_guided_search_with_a_fresh_network_of_the_training_shape() -> None:
    """The network is the one ``tabletop train`` builds for the game (here Kaleva's
    [network]: numpy layers of 128, 128), and the figure is iterations a second."""
    from tabletop.cli import bench
    from tabletop.training.config import game_settings

    module = envs.env_module("kaleva")
    measures = bench.speed_measures(module, {}, module.SPEC.new_game(), 0, 0.01)
    assert measures["guided"]() > 0
    evaluator = bench.fresh_network_evaluator("kaleva", {}, 0)
    assert isinstance(evaluator, NetworkEvaluator)
    assert isinstance(evaluator.forward, NumpyForward)
    widths = [bias.shape[0] for _weight, bias, _activation in evaluator.forward.actor.hidden]
    assert widths == game_settings("kaleva").network.net_arch
