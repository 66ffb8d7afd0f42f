"""Search guided by a network: AlphaZero's PUCT over the determinizations of ISMCTS.

The tree is the one of ``agents.ismcts`` (Cowling, Powley & Whitehouse, 2012): every
iteration starts from a fresh determinization, ``state.resample_hidden(player, rng)``, and
walks one shared tree whose nodes are action sequences, so the search reads nothing the
deciding player cannot see; a child is scored over the iterations in which it was
*available*. What changes is how a node is scored and a leaf valued (Silver et al., 2017):

- a network's policy head gives each action a prior (a softmax over the legal actions
  only), from the observation of the player to move, and a child is chosen by PUCT,
  ``Q + c * P * sqrt(N_available) / (1 + N)``;
- a leaf is valued by the value head instead of a rollout (a rollout may be mixed in, as
  AlphaGo did: ``(1 - mix) * v + mix * z``, played to the end or cut after ``depth`` plies
  and scored by the game's evaluation, as ISMCTS's); a terminal leaf by ``state.returns()``.

A node is a leaf, evaluated by the network, when some action legal in this iteration's
determinization has no prior yet: its first visit, or a later one where the re-drawn
hidden cards make a new action legal (an opponent holding another card). Each action keeps
the prior of the first evaluation that saw it legal. An unvisited child's Q is its
parent's mean value for the player to move (first-play value): an untried move is taken to
be as good as the position, so the priors order the untried moves, and a tried move is
kept while it does better than the position. With 0 instead, in a position the mover is
losing (every Q below 0) every untried move would look better than every tried one and the
search would try all moves once before the priors mattered.

``batch`` leaves go through one network call: after a leaf is chosen, its path carries a
virtual loss (a visit and a return of -1 for each chooser) until its value arrives, so the
next descents of the batch spread over other moves.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from tabletop import envs
from tabletop.agents.base import Agent, RandomAgent
from tabletop.agents.ismcts import DEFAULT_MAX_ROLLOUT_PLIES, SearchBudget, play_out
from tabletop.envs.core.protocol import Encoder, Game, State
from tabletop.envs.core.spec import Payoff

if TYPE_CHECKING:
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

    from tabletop.agents.policy import NumpyActor, NumpyCritic, PolicyAgent

DEFAULT_ITERATIONS = 200
"""Iterations per decision when neither an iteration nor a time budget is given."""

VIRTUAL_LOSS = 1.0
"""The return a pending leaf's choosers are charged until its value arrives."""

ROLLOUT_POLICIES = ("random", "heuristic")

ROOT = -1
"""``Node.player`` of the root, which no one chose."""


@dataclass(frozen=True)
class Evaluation:
    """A network's view of one position."""

    priors: np.ndarray
    """Probabilities over ``state.legal_actions()``, in that order (sum 1)."""
    values: np.ndarray
    """Shape (num_players,): expected return of each seat, roughly in [-1, 1]."""


class Evaluator(Protocol):
    """Priors and values of positions; ``positions`` are (state, player to move) pairs, all
    evaluated in one network pass. A state is a determinization: an evaluator may read it
    whole, since it holds only what the searcher may know or a re-deal of it."""

    def evaluate(self, positions: Sequence[tuple[State, int]]) -> list[Evaluation]: ...


Forward = Callable[[np.ndarray, list["np.ndarray | None"]], tuple[list[Any], np.ndarray]]
"""forward(observations (rows, ...), legal action ids per row or None) -> (each row's
logits of its legal actions, or None where none were asked; each row's value (rows,))."""


class NetworkEvaluator:
    """An actor-critic network as an ``Evaluator``.

    The value head predicts the return of the seat whose observation it sees, so the values
    of a position come from as many observations as the game's payoffs need (its
    ``GameSpec.payoff``): with identical payoffs one evaluation serves every seat; in a
    two-player zero-sum game the other seat gets its negative; otherwise every seat's own
    observation is evaluated, all rows in the same call. The priors come from the mover's
    observation.
    """

    def __init__(
        self,
        forward: Forward,
        encoder: Encoder,
        check: Callable[[Game], None] | None = None,
    ) -> None:
        self.forward = forward
        self.encoder = encoder
        self.check = check
        """Called with each position's game before it is encoded (a policy file refuses a
        game it was not trained for)."""
        self._payoffs: dict[str, Payoff] = {}

    @classmethod
    def of_policy(
        cls,
        policy: MaskableActorCriticPolicy,
        encoder: Encoder,
        game: Game,
        *,
        snapshot: bool = False,
    ) -> NetworkEvaluator:
        """The evaluator of ``policy`` with observations of ``encoder`` (``game`` names the
        payoffs). By default it reads the live torch module at every call, so it follows a
        network being trained; ``snapshot`` copies the weights into numpy when it can
        (several times faster per call, and blind to later training)."""
        envs.spec(game.name)  # a game the registry knows: its payoff is declared
        if snapshot:
            return cls(_network_forward(policy), encoder)
        return cls(TorchForward(policy), encoder)

    @classmethod
    def of_agent(cls, agent: PolicyAgent) -> NetworkEvaluator:
        """The evaluator of a loaded policy file: numpy where it can, torch otherwise, and
        the file's own check that a game fits it."""
        return cls(_network_forward(agent.policy), agent.encoder, agent._check_game)

    def evaluate(self, positions: Sequence[tuple[State, int]]) -> list[Evaluation]:
        observations: list[np.ndarray] = []
        asked: list[np.ndarray | None] = []
        for state, mover in positions:
            if self.check is not None:
                self.check(state.game)
            legal = np.asarray(state.legal_actions())
            for seat in self._seats(state.game, mover):
                observations.append(self.encoder.encode(state, seat))
                asked.append(legal if seat == mover else None)
        logits, values = self.forward(np.stack(observations), asked)
        evaluations, row = [], 0
        for state, mover in positions:
            seats = self._seats(state.game, mover)
            evaluations.append(
                Evaluation(_softmax(logits[row]), self._values(state.game, mover, values[row:]))
            )
            row += len(seats)
        return evaluations

    def _payoff(self, game: Game) -> Payoff:
        if game.name not in self._payoffs:
            self._payoffs[game.name] = envs.spec(game.name).payoff
        return self._payoffs[game.name]

    def _seats(self, game: Game, mover: int) -> list[int]:
        """The seats whose observations a position's values need, the mover's first."""
        payoff = self._payoff(game)
        if payoff is Payoff.IDENTICAL or (payoff is Payoff.ZERO_SUM and game.num_players <= 2):
            return [mover]
        return _all(game, mover)

    def _values(self, game: Game, mover: int, rows: np.ndarray) -> np.ndarray:
        """Each seat's value from the rows of ``_seats`` (first row: the mover's)."""
        players = game.num_players
        payoff = self._payoff(game)
        if payoff is Payoff.IDENTICAL:
            return np.full(players, float(rows[0]))
        seats = self._seats(game, mover)
        if len(seats) == 1:  # zero-sum, at most two players
            values = np.full(players, -float(rows[0]))
            values[mover] = float(rows[0])
            return values
        values = np.empty(players)
        values[seats] = rows[: len(seats)]
        return values


def _all(game: Game, mover: int) -> list[int]:
    return [mover, *(seat for seat in range(game.num_players) if seat != mover)]


def _softmax(logits: np.ndarray) -> np.ndarray:
    exps = np.exp(np.asarray(logits, np.float64) - np.max(logits))
    return exps / exps.sum()


def _network_forward(policy: MaskableActorCriticPolicy) -> Forward:
    """Numpy copies of the actor and the critic when numpy knows every layer, else torch."""
    from tabletop.agents.policy import NumpyActor, NumpyCritic

    actor, critic = NumpyActor.of(policy), NumpyCritic.of(policy)
    if actor is None or critic is None:
        return TorchForward(policy)
    return NumpyForward(actor, critic)


class NumpyForward:
    """A ``Forward`` of numpy copies of a network: one product a layer for the batch, and
    only the asked actions' rows of the output layer."""

    def __init__(self, actor: NumpyActor, critic: NumpyCritic) -> None:
        self.actor, self.critic = actor, critic

    def __call__(self, observations: np.ndarray, asked: list[Any]) -> tuple[list[Any], np.ndarray]:
        rows = [row for row, legal in enumerate(asked) if legal is not None]
        latent = self.actor.latent(observations[rows]) if rows else None
        weight, bias = self.actor.output
        logits: list[Any] = [None] * len(asked)
        for index, row in enumerate(rows):
            legal = asked[row]
            logits[row] = weight[legal] @ latent[index] + bias[legal]
        return logits, self.critic.values(observations)


class TorchForward:
    """A ``Forward`` of a torch network, read live at every call (a network being trained,
    or one numpy cannot copy, such as a pointer network)."""

    def __init__(self, policy: MaskableActorCriticPolicy) -> None:
        self.policy = policy

    def __call__(self, observations: np.ndarray, asked: list[Any]) -> tuple[list[Any], np.ndarray]:
        import torch

        policy = self.policy
        with torch.no_grad():
            features = policy.extract_features(torch.as_tensor(observations, dtype=torch.float32))
            if isinstance(features, tuple):  # actor and critic extract their own features
                latent_pi = policy.mlp_extractor.forward_actor(features[0])
                latent_vf = policy.mlp_extractor.forward_critic(features[1])
            else:
                latent_pi, latent_vf = policy.mlp_extractor(features)
            values = policy.value_net(latent_vf)[:, 0].numpy()
            rows = [row for row, legal in enumerate(asked) if legal is not None]
            logits: list[Any] = [None] * len(asked)
            if rows:
                width = max(len(asked[row]) for row in rows)
                padded = torch.tensor(  # padding repeats a row's first action: scored, unused
                    [[*asked[r], *[asked[r][0]] * (width - len(asked[r]))] for r in rows]
                )
                scores = policy.action_scores(latent_pi[rows], padded).numpy()
                for index, row in enumerate(rows):
                    logits[row] = scores[index, : len(asked[row])]
            return logits, values


@dataclass(frozen=True)
class GuidedSettings:
    """How a guided search searches; every setting checked when made."""

    iterations: int | None = DEFAULT_ITERATIONS
    seconds: float | None = None
    """With ``iterations``: whichever runs out first (``ismcts.SearchBudget``)."""
    c_puct: float = 1.5
    dirichlet_alpha: float = 0.0
    """Root noise: 0 for none (evaluation); expert iteration sets it to explore."""
    dirichlet_fraction: float = 0.25
    batch: int = 8
    """Leaves per network call (virtual loss keeps them apart)."""
    temperature: float = 0.0
    """0: the most visited move; above 0: sampled with weights visits ** (1 / T)."""
    rollout: str | None = None
    """None: leaves valued by the network alone; ``random`` or ``heuristic`` (the game's
    ``SPEC.heuristic``): a rollout's return mixed in with weight ``mix``."""
    mix: float = 0.5
    """The rollout's weight in a leaf's value, ``(1 - mix) * v + mix * z``."""
    depth: int | None = None
    """None: rollouts play to the end; a number: they stop after that many plies and
    ``z`` is the game's evaluation of the position (``GameSpec.evaluate``), as ISMCTS's
    ``depth``, so that long games afford a rollout at every leaf."""

    def __post_init__(self) -> None:
        problem = _settings_problem(self)
        if problem:
            raise ValueError(f"guided: {problem}")

    @property
    def budget(self) -> SearchBudget:
        return SearchBudget(self.iterations, self.seconds)


def _settings_problem(s: GuidedSettings) -> str | None:
    """What is wrong with settings ``s``, naming the setting and the value, or None."""
    if s.iterations is None and s.seconds is None:
        return "a budget needs iterations, seconds or both"
    checks = [
        (s.iterations is not None and s.iterations < 1, "iterations must be at least 1",
         s.iterations),
        (s.seconds is not None and not s.seconds > 0, "seconds must be positive", s.seconds),
        (not s.c_puct >= 0, "c must be at least 0", s.c_puct),
        (not s.dirichlet_alpha >= 0, "dirichlet_alpha must be at least 0", s.dirichlet_alpha),
        (not 0 <= s.dirichlet_fraction <= 1, "dirichlet_fraction must be in [0, 1]",
         s.dirichlet_fraction),
        (s.batch < 1, "batch must be at least 1", s.batch),
        (not s.temperature >= 0, "temperature must be at least 0", s.temperature),
        (s.rollout not in (None, *ROLLOUT_POLICIES),
         f"rollout must be one of {', '.join(ROLLOUT_POLICIES)}", s.rollout),
        (not 0 <= s.mix <= 1, "mix must be in [0, 1]", s.mix),
        (s.depth is not None and s.depth < 0, "depth must be at least 0", s.depth),
        (s.depth is not None and s.rollout is None, "depth needs a rollout to cut short",
         s.depth),
    ]  # fmt: skip
    return next((f"{message}, got {value!r}" for failed, message, value in checks if failed), None)


class Node:
    """An action sequence from the root; ``totals`` sums every seat's value over the
    iterations through it."""

    __slots__ = ("player", "prior", "children", "visits", "available", "totals")

    def __init__(self, player: int, prior: float, players: int) -> None:
        self.player = player
        """Who chose the action leading here (``ROOT`` for the root)."""
        self.prior = prior
        self.children: dict[int, Node] = {}
        self.visits = 0
        self.available = 0
        """Selections at the parent in which the action leading here was legal."""
        self.totals = [0.0] * players


@dataclass
class Leaf:
    """Where a descent stopped: the path from the root and the determinization there."""

    path: list[Node]
    state: State


@dataclass
class GuidedResult:
    """What one search found."""

    action: int
    iterations: int
    visits: dict[int, int]
    """Every legal root action -> iterations through it (the policy target of expert
    iteration)."""
    root_value: float
    """Mean value for the searching player at the root (its evaluation and every iteration)."""
    mean_value: dict[int, float]
    """Visited root action -> the searching player's mean value after it."""
    priors: dict[int, float]
    """Root action -> its prior, root noise included."""


class GuidedSearch:
    """The search: ``search(state, player)`` returns a ``GuidedResult``. ``clock`` is
    injectable so tests can check the time budget without timing anything."""

    def __init__(
        self,
        evaluator: Evaluator,
        settings: GuidedSettings | None = None,
        seed: int | None = None,
        *,
        clock: Callable[[], float] = time.perf_counter,
        max_rollout_plies: int = DEFAULT_MAX_ROLLOUT_PLIES,
    ) -> None:
        self.evaluator = evaluator
        self.settings = settings or GuidedSettings()
        self.rng = random.Random(seed)
        self.noise_rng = np.random.default_rng(seed)
        self.clock = clock
        self.max_rollout_plies = max_rollout_plies
        self._rollout_agents: dict[str, Agent] = {}

    def search(self, state: State, player: int) -> GuidedResult:
        """Search from ``player``'s information set at ``state`` (where ``player`` moves)."""
        if state.is_terminal() or state.current_player != player:
            raise ValueError(f"guided: player {player} is not to move in this state")
        root = self._expanded_root(state.resample_hidden(player, self.rng))
        budget = self.settings.budget
        done, started = 0, self.clock()
        while True:  # at least one iteration, so that there is always an answer
            size = self.settings.batch
            if budget.iterations is not None:
                size = min(size, budget.iterations - done)
            leaves = [self._descend(root, state.resample_hidden(player, self.rng))
                      for _ in range(size)]  # fmt: skip
            self._run_batch(leaves)
            done += size
            if budget.iterations is not None and done >= budget.iterations:
                break
            if budget.seconds is not None and self._next_would_overrun(started, done):
                break
        return self._result(root, state.legal_actions(), player, done)

    def _expanded_root(self, state: State) -> Node:
        """The root with a child for every legal action, their priors (noise included)
        and the root's value from one evaluation of a determinization."""
        root = Node(ROOT, 1.0, state.game.num_players)
        (evaluation,) = self.evaluator.evaluate([(state, state.current_player)])
        root.visits = 1
        root.totals = self._expand(Leaf([root], state), evaluation)
        self._add_root_noise(root)
        return root

    def _next_would_overrun(self, started: float, done: int) -> bool:
        """Whether another batch at the mean speed so far would end past the time budget:
        the budget is a ceiling on the whole search, not a point to pass by a batch."""
        now = self.clock()
        assert self.settings.seconds is not None
        return now + (now - started) / done * self.settings.batch > started + self.settings.seconds

    def _descend(self, root: Node, state: State) -> Leaf:
        """Choose children by PUCT down to a terminal state or a node with a legal action
        that has no prior yet; the path carries a virtual loss until ``_run_batch``."""
        path, node = [root], root
        while not state.is_terminal():
            legal = state.legal_actions()
            if any(action not in node.children for action in legal):
                break
            action = self._select(node, legal, state.current_player)
            state.apply(action)
            node = node.children[action]
            path.append(node)
        for visited in path:
            visited.visits += 1
            if visited.player != ROOT:
                visited.totals[visited.player] -= VIRTUAL_LOSS
        return Leaf(path, state)

    def _select(self, node: Node, legal: list[int], mover: int) -> int:
        """The legal child with the best PUCT score over its availability; counts it."""
        first_play = node.totals[mover] / node.visits if node.visits else 0.0
        c_puct = self.settings.c_puct
        best_score, best_action = -math.inf, legal[0]
        for action in legal:
            child = node.children[action]
            child.available += 1
            q = child.totals[mover] / child.visits if child.visits else first_play
            score = q + c_puct * child.prior * math.sqrt(child.available) / (1 + child.visits)
            if score > best_score:
                best_score, best_action = score, action
        return best_action

    def _run_batch(self, leaves: list[Leaf]) -> None:
        """Evaluate the non-terminal leaves in one call, give their new actions priors,
        and back every leaf's values up its path (lifting the virtual loss)."""
        open_leaves = [leaf for leaf in leaves if not leaf.state.is_terminal()]
        positions = [(leaf.state, leaf.state.current_player) for leaf in open_leaves]
        evaluations = iter(self.evaluator.evaluate(positions) if positions else [])
        for leaf in leaves:
            if leaf.state.is_terminal():
                values = leaf.state.returns()
            else:
                values = self._expand(leaf, next(evaluations))
            for visited in leaf.path:
                if visited.player != ROOT:
                    visited.totals[visited.player] += VIRTUAL_LOSS
                for seat, value in enumerate(values):
                    visited.totals[seat] += value

    def _expand(self, leaf: Leaf, evaluation: Evaluation) -> list[float]:
        """Children for the leaf's legal actions that have none; the leaf's values (the
        network's, with a rollout's return mixed in when asked)."""
        state, node = leaf.state, leaf.path[-1]
        mover = state.current_player
        players = state.game.num_players
        for action, prior in zip(state.legal_actions(), evaluation.priors, strict=True):
            if action not in node.children:
                node.children[action] = Node(mover, float(prior), players)
        values = [float(value) for value in evaluation.values]
        if self.settings.rollout is None:
            return values
        mix, returns = self.settings.mix, self._rollout(state)
        return [(1 - mix) * value + mix * z for value, z in zip(values, returns, strict=True)]

    def _rollout(self, state: State) -> Sequence[float]:
        """Play the determinization on with the rollout policy: to the end (the returns so
        far at the safety limit), or ``depth`` plies and the game's evaluation."""
        agent = self._rollout_agent(state.game)
        if self.settings.depth is None:
            return play_out(state, agent, self.rng, self.max_rollout_plies)
        evaluate = envs.spec(state.game.name).evaluate
        if evaluate is None:
            raise ValueError(f"guided: depth needs {state.game.name}'s GameSpec.evaluate")
        return play_out(state, agent, self.rng, self.settings.depth, evaluate)

    def _rollout_agent(self, game: Game) -> Agent:
        """The rollout policy for ``game``, made once per game and seeded from the search."""
        if game.name not in self._rollout_agents:
            seed = self.rng.getrandbits(32)
            self._rollout_agents[game.name] = (
                envs.spec(game.name).heuristic(seed)
                if self.settings.rollout == "heuristic"
                else RandomAgent(seed)
            )
        return self._rollout_agents[game.name]

    def _add_root_noise(self, root: Node) -> None:
        """Dirichlet noise on the root's priors, so self-play tries moves the network
        rules out."""
        alpha, fraction = self.settings.dirichlet_alpha, self.settings.dirichlet_fraction
        if alpha <= 0 or fraction == 0:
            return
        children = list(root.children.values())
        noise = self.noise_rng.dirichlet([alpha] * len(children))
        for child, eta in zip(children, noise, strict=True):
            child.prior = (1 - fraction) * child.prior + fraction * float(eta)

    def _result(self, root: Node, legal: list[int], player: int, iterations: int) -> GuidedResult:
        children = {action: root.children[action] for action in legal}
        visits = {action: child.visits for action, child in children.items()}
        means = {
            action: child.totals[player] / child.visits
            for action, child in children.items()
            if child.visits
        }
        return GuidedResult(
            action=self._choose(visits, means),
            iterations=iterations,
            visits=visits,
            root_value=root.totals[player] / root.visits,
            mean_value=means,
            priors={action: child.prior for action, child in children.items()},
        )

    def _choose(self, visits: dict[int, int], means: dict[int, float]) -> int:
        """Temperature 0: the most visited action (ties: the better mean, then the lower
        id); otherwise one sampled with weights visits ** (1 / T)."""
        temperature = self.settings.temperature
        visited = [action for action in visits if visits[action]]
        if temperature == 0:
            return max(visited, key=lambda a: (visits[a], means[a], -a))
        logs = np.log([visits[action] for action in visited]) / temperature
        weights = np.exp(logs - logs.max())
        return self.rng.choices(visited, weights=weights.tolist())[0]


class GuidedAgent:
    """The search as an ``Agent``: a forced move is played without searching, and each
    decision grows a tree of its own (freed after the move)."""

    def __init__(self, search: GuidedSearch) -> None:
        self.search = search
        self.last_result: GuidedResult | None = None

    def reset(self) -> None:
        """No per-game memory; the generator runs on so later games differ."""
        self.last_result = None

    def act(self, state: State, player: int) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        self.last_result = self.search.search(state, player)
        return self.last_result.action


OPTION_TYPES: dict[str, Callable[[str], Any]] = {
    "policy": str,
    "iterations": int,
    "seconds": float,
    "c": float,
    "batch": int,
    "rollout": str,
    "mix": float,
    "depth": int,
    "temperature": float,
}
"""Options of the ``guided:policy=PATH,key=value,...`` agent spec and each value's type."""

SETTING_OF_OPTION = {"c": "c_puct"}
"""Spec options whose ``GuidedSettings`` field has another name."""


def parse_options(text: str) -> dict[str, Any]:
    """``"policy=runs/kaleva,iterations=50"`` -> ``{"policy": "runs/kaleva",
    "iterations": 50}``, each option checked by name and type."""
    options: dict[str, Any] = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        key, separator, raw = (piece.strip() for piece in item.partition("="))
        if not separator or key not in OPTION_TYPES:
            raise ValueError(
                f"guided: bad setting {item!r}; write key=value with key one of "
                f"{', '.join(OPTION_TYPES)}, e.g. guided:policy=runs/kaleva,iterations=200"
            )
        if key in options:
            raise ValueError(f"guided: setting {key} given twice ({text!r})")
        try:
            options[key] = OPTION_TYPES[key](raw)
        except ValueError:
            kind = OPTION_TYPES[key].__name__
            raise ValueError(f"guided: setting {key}={raw!r} is not a {kind}") from None
    return options


def settings_of(options: dict[str, Any]) -> GuidedSettings:
    """The search settings a spec's options ask for (all but ``policy``). The budget is
    ``DEFAULT_ITERATIONS`` unless ``iterations`` or ``seconds`` is given; ``mix`` needs a
    ``rollout`` to mix in."""
    if "mix" in options and "rollout" not in options:
        raise ValueError("guided: mix needs a rollout to mix in (rollout=random or heuristic)")
    fields = {SETTING_OF_OPTION.get(key, key): value for key, value in options.items()}
    fields.pop("policy", None)
    if "seconds" in fields and "iterations" not in fields:
        fields["iterations"] = None
    return GuidedSettings(**fields)


def make_guided_agent(game_name: str, seed: int | None, options: str = "") -> GuidedAgent:
    """The agent of spec ``guided:policy=PATH,iterations=200,c=1.5,batch=8`` for game
    ``game_name``. Every setting is checked before the policy is read; the policy file
    (or training run directory) must fit the game, as ``policy:PATH`` checks."""
    chosen = parse_options(options)
    settings = settings_of(chosen)
    if settings.depth is not None and envs.spec(game_name).evaluate is None:
        raise ValueError(
            f"guided: bad setting depth={settings.depth} for {game_name}: a depth cap needs "
            f"the game's position evaluation (GameSpec.evaluate), and {game_name} declares none"
        )
    if "policy" not in chosen:
        raise ValueError(
            "guided: missing setting policy=PATH (a .pt policy file, a training run "
            "directory or pretrained, the game's shipped policy), e.g. "
            "guided:policy=runs/kaleva,iterations=200"
        )
    from tabletop.agents.policy import load_agent

    agent = load_agent(chosen["policy"], game=game_name, seed=seed)
    return GuidedAgent(GuidedSearch(NetworkEvaluator.of_agent(agent), settings, seed))
