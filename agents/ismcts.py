"""Single-observer information-set Monte Carlo tree search (SO-ISMCTS), for any game.

The search talks to a game only through the engine protocol (``resample_hidden``,
``legal_actions``, ``apply``, ``returns``, ``current_player``, ``is_terminal``), so it
knows no game. Hidden information is handled the ISMCTS way (Cowling, Powley & Whitehouse,
2012): every iteration starts from a fresh *determinization*, the real state with everything
the deciding player cannot see re-drawn by ``state.resample_hidden(player, rng)``, and walks
one shared tree whose nodes are action sequences. Because a determinization decides which
actions are legal, a child is scored by UCB1 over the iterations in which it was *available*
rather than over its parent's visits (the subset-armed bandit of ISMCTS). Chance happens
inside ``apply`` and is drawn from the determinization's own fresh generator, so the tree is
open-loop over chance: a node stands for "these actions were taken", whatever the dice said.

Every player maximises their own return (in a cooperative game they share it); each node
stores the return of the player who chose the action leading to it. A rollout plays to the
end, or, with a depth cap, stops after that many plies and scores the position with the
game's own evaluation (``GameSpec.evaluate``): long games then cost a few plies an iteration.
With a prior the tree leans towards the rollout policy's move at each node, so that few
iterations refine a strong policy rather than replace it by noise.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from tabletop import envs
from tabletop.agents.base import Agent
from tabletop.envs.core.protocol import State
from tabletop.envs.core.spec import Evaluation

DEFAULT_ITERATIONS = 1000
"""Iterations per decision when neither an iteration nor a time budget is given."""

DEFAULT_EXPLORATION = 0.7
"""UCB1 exploration constant; returns of the tabletop games are mostly in [-1, 1]."""

DEFAULT_MAX_ROLLOUT_PLIES = 2000
"""A rollout this long stops and scores the returns so far: a safety net for games whose
random play can wander (the AEC envs truncate at the same length); real games end sooner."""


@dataclass(frozen=True)
class SearchBudget:
    """When to stop searching: after ``iterations``, after ``seconds``, or whichever comes
    first when both are given."""

    iterations: int | None = DEFAULT_ITERATIONS
    seconds: float | None = None

    def __post_init__(self) -> None:
        if self.iterations is None and self.seconds is None:
            raise ValueError("ismcts: a budget needs iterations, seconds or both")
        if self.iterations is not None and self.iterations < 1:
            raise ValueError(f"ismcts: iterations must be at least 1, got {self.iterations}")
        if self.seconds is not None and not self.seconds > 0:
            raise ValueError(f"ismcts: seconds must be positive, got {self.seconds}")


class Node:
    """An action sequence from the root; statistics for the player who chose its last action."""

    __slots__ = ("player", "children", "visits", "available", "total")

    def __init__(self, player: int) -> None:
        self.player = player
        """Who chose the action leading here (whose return ``total`` sums)."""
        self.children: dict[int, Node] = {}
        self.visits = 0
        self.available = 0
        """Iterations in which the action leading here was legal when its parent was visited."""
        self.total = 0.0


@dataclass
class SearchResult:
    """What one search found: the chosen action and the root's statistics."""

    action: int
    iterations: int
    visits: dict[int, int]
    """Root action -> how many iterations went through it."""
    mean_return: dict[int, float]
    """Root action -> mean return of the deciding player after it."""
    root: Node


class ISMCTS:
    """The search itself: ``search(state, player)`` returns a ``SearchResult``.

    ``rollout`` is the agent that finishes an iteration's game after the tree (uniformly
    random when None), e.g. a game's heuristic; it is asked to act for every seat of a
    determinization, so it must not keep per-game memory that a rollout would spoil.
    ``depth`` caps a rollout's plies: a rollout still going then is scored by ``evaluate``
    (required with ``depth``) instead of being played out, so that games whose rollouts are
    long can still afford many iterations. ``prior`` biases the tree towards the rollout
    policy's move at each node (progressive bias, Chaslot et al. 2008): that child is tried
    first and its UCB1 score gets ``prior / (visits + 1)``, so that with few iterations a
    strong policy's move is kept unless the search finds a better one, instead of a move
    that won a few noisy rollouts. ``clock`` is injectable so tests can check the
    time budget without timing anything.
    """

    def __init__(
        self,
        budget: SearchBudget | None = None,
        exploration: float = DEFAULT_EXPLORATION,
        rollout: Agent | None = None,
        seed: int | None = None,
        max_rollout_plies: int = DEFAULT_MAX_ROLLOUT_PLIES,
        clock: Callable[[], float] = time.perf_counter,
        depth: int | None = None,
        evaluate: Evaluation | None = None,
        prior: float = 0.0,
    ) -> None:
        if exploration < 0:
            raise ValueError(f"ismcts: exploration must be >= 0, got {exploration}")
        if depth is not None and (depth < 0 or evaluate is None):
            raise ValueError(
                f"ismcts: a depth cap needs depth >= 0 and an evaluation, got depth={depth}"
            )
        if prior < 0 or (prior and rollout is None):
            raise ValueError(f"ismcts: a prior needs a rollout policy and >= 0, got {prior}")
        self.depth = depth
        self.evaluate = evaluate
        self.prior = prior
        self.budget = budget or SearchBudget()
        self.exploration = exploration
        self.rollout_agent = rollout
        self.max_rollout_plies = max_rollout_plies
        self.rng = random.Random(seed)
        self.clock = clock

    def search(self, state: State, player: int, root: Node | None = None) -> SearchResult:
        """Search from ``player``'s information set at ``state`` (where ``player`` moves),
        growing ``root`` (a tree kept from an earlier search) or a new tree."""
        if state.is_terminal() or state.current_player != player:
            raise ValueError(f"ismcts: player {player} is not to move in this state")
        if root is None:
            root = Node(player)
        iterations = 0
        limit = self.budget.iterations
        started = self.clock()
        deadline = None if self.budget.seconds is None else started + self.budget.seconds
        while True:  # at least one iteration, so that there is always an answer
            self._iterate(root, state.resample_hidden(player, self.rng))
            iterations += 1
            if limit is not None and iterations >= limit:
                break
            if deadline is not None and _next_would_overrun(started, self.clock(), iterations,
                                                            deadline):  # fmt: skip
                break
        return _result(root, state.legal_actions(), iterations)

    def _iterate(self, root: Node, state: State) -> None:
        """Select and expand down the tree in ``state`` (a determinization), roll out,
        and back the returns up the path."""
        path = [root]
        node = root
        while not state.is_terminal():
            mover = state.current_player
            child, action = self._select(node, state.legal_actions(), mover, self._favourite(state))
            state.apply(action)
            path.append(child)
            if child.visits == 0:
                break
            node = child
        returns = self._rollout(state)
        for visited in path[1:]:
            visited.visits += 1
            visited.total += returns[visited.player]

    def _favourite(self, state: State) -> int | None:
        """The rollout policy's move in ``state`` when the tree is biased towards it."""
        if not self.prior:
            return None
        return self.rollout_agent.act(state, state.current_player)

    def _select(
        self, node: Node, legal: list[int], mover: int, favourite: int | None
    ) -> tuple[Node, int]:
        """An untried legal action if there is one (expanding the tree; ``favourite``, the
        policy's move, first), else the legal child with the best UCB1 score over its
        availability plus the prior's bias for ``favourite``; counts availability."""
        children = node.children
        untried = [action for action in legal if action not in children]
        for action in legal:
            child = children.get(action)
            if child is not None:
                child.available += 1
        if untried:
            action = favourite if favourite in untried else self.rng.choice(untried)
            child = children[action] = Node(mover)
            child.available = 1
            return child, action
        best_score, best_action = -math.inf, legal[0]
        exploration = self.exploration
        for action in legal:
            child = children[action]
            score = child.total / child.visits + exploration * math.sqrt(
                math.log(child.available) / child.visits
            )
            if action == favourite:
                score += self.prior / (child.visits + 1)
            if score > best_score:
                best_score, best_action = score, action
        return children[best_action], best_action

    def _rollout(self, state: State) -> Sequence[float]:
        """Play on with the rollout policy (uniformly random without one)."""
        agent, rng = self.rollout_agent, self.rng
        if self.depth is None:
            return play_out(state, agent, rng, self.max_rollout_plies)
        return play_out(state, agent, rng, self.depth, self.evaluate)


def play_out(
    state: State,
    agent: Agent | None,
    rng: random.Random,
    plies: int,
    evaluate: Evaluation | None = None,
) -> Sequence[float]:
    """Play ``state`` on for at most ``plies`` plies, every seat's move ``agent``'s (or
    drawn by ``rng`` when None): the returns at the end; when cut off, ``evaluate``'s
    scores, or the returns so far without one (the safety limit of a full rollout)."""
    for _ in range(plies):
        if state.is_terminal():
            return state.returns()
        if agent is None:
            state.apply(rng.choice(state.legal_actions()))
        else:
            state.apply(agent.act(state, state.current_player))
    if evaluate is None or state.is_terminal():
        return state.returns()
    return evaluate(state)


def _next_would_overrun(started: float, now: float, iterations: int, deadline: float) -> bool:
    """Whether another iteration of the mean length so far would end past the deadline: a
    time budget is a ceiling on the whole search, not a point to pass by one iteration."""
    return now + (now - started) / iterations > deadline


def _result(root: Node, legal: list[int], iterations: int) -> SearchResult:
    """The most visited root action (ties: the better mean, then the lower id)."""
    children = {action: root.children[action] for action in legal if action in root.children}
    visits = {action: child.visits for action, child in children.items()}
    means = {action: child.total / child.visits for action, child in children.items()}
    action = max(visits, key=lambda a: (visits[a], means[a], -a))
    return SearchResult(
        action=action, iterations=iterations, visits=visits, mean_return=means, root=root
    )


class ISMCTSAgent:
    """The search as an ``Agent``, seeded and reproducible under an iteration budget (a time
    budget depends on the machine's speed).

    With ``reuse`` in a one-player game, the subtree below the chosen action becomes the
    next decision's starting tree: nobody else moves in between, so the next decision is a
    node of that subtree. This assumes ``act`` sees the consecutive decisions of one game
    (as ``play_game`` and the env loop do); ``reset`` drops the tree. With more players the
    others' moves in between are unknown to the agent, so every decision starts afresh.
    """

    def __init__(self, search: ISMCTS, reuse: bool = False) -> None:
        self.search = search
        self.reuse = reuse
        self.last_result: SearchResult | None = None
        self._kept: Node | None = None

    def reset(self) -> None:
        """Drop the kept tree; the generator runs on so later games differ."""
        self.last_result = None
        self._kept = None

    def act(self, state: State, player: int) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:  # nothing to search; a kept tree follows the forced move
            self._kept = self._kept and self._kept.children.get(legal[0])
            return legal[0]
        result = self.search.search(state, player, self._kept)
        self.last_result = result
        if self.reuse and state.game.num_players == 1:
            self._kept = result.root.children[result.action]
        return result.action


ROLLOUT_POLICIES = ("random", "heuristic")


def _parse_bool(text: str) -> bool:
    if text.lower() not in ("true", "false"):
        raise ValueError(text)
    return text.lower() == "true"


OPTION_TYPES: dict[str, Callable[[str], Any]] = {
    "iterations": int,
    "seconds": float,
    "c": float,
    "rollout": str,
    "reuse": _parse_bool,
    "depth": int,
    "prior": float,
}
"""Options of the ``ismcts:key=value,...`` agent spec and the type of each value."""


def make_ismcts_agent(game_name: str, seed: int | None, options: str = "") -> ISMCTSAgent:
    """The agent of spec ``ismcts:iterations=2000,c=0.7,rollout=heuristic,seconds=1,depth=8``
    for game ``game_name``. The budget is ``DEFAULT_ITERATIONS`` iterations when neither
    ``iterations`` nor ``seconds`` is given; with both, whichever runs out first. ``depth``
    needs the game's ``GameSpec.evaluate``: a game that declares none is refused rather than
    scored by its returns so far, which are 0 mid-game in most games and would make every
    cut-off rollout a draw."""
    chosen = parse_options(options)
    spec = envs.spec(game_name)
    seconds = chosen.get("seconds")
    iterations = chosen.get("iterations", None if seconds is not None else DEFAULT_ITERATIONS)
    rollout = None
    if chosen.get("rollout", "random") == "heuristic":
        rollout = spec.heuristic(seed)
    depth = chosen.get("depth")
    if depth is not None and spec.evaluate is None:
        raise ValueError(
            f"ismcts: bad option depth={depth} for {game_name}: a depth cap needs the game's "
            f"position evaluation (GameSpec.evaluate), and {game_name} declares none"
        )
    search = ISMCTS(
        SearchBudget(iterations, seconds),
        exploration=chosen.get("c", DEFAULT_EXPLORATION),
        rollout=rollout,
        seed=seed,
        depth=depth,
        evaluate=spec.evaluate if depth is not None else None,
        prior=chosen.get("prior", 0.0),
    )
    return ISMCTSAgent(search, reuse=chosen.get("reuse", False))


def parse_options(text: str) -> dict[str, Any]:
    """``"iterations=2000,c=0.7"`` -> ``{"iterations": 2000, "c": 0.7}``, each option
    checked by name and type (a whole number is fine where a float is expected)."""
    options: dict[str, Any] = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        key, separator, raw = (piece.strip() for piece in item.partition("="))
        if not separator or key not in OPTION_TYPES:
            raise ValueError(
                f"ismcts: bad option {item!r}; write key=value with key one of "
                f"{', '.join(OPTION_TYPES)}, e.g. ismcts:iterations=2000,c=0.7"
            )
        if key in options:
            raise ValueError(f"ismcts: option {key} given twice ({text!r})")
        options[key] = _convert(key, raw)
    return options


def _convert(key: str, raw: str) -> Any:
    wanted = OPTION_TYPES[key]
    try:
        value = wanted(raw)
    except ValueError:
        kind = "true/false" if wanted is _parse_bool else f"a {wanted.__name__}"
        raise ValueError(f"ismcts: option {key}={raw!r} is not {kind}") from None
    if key == "rollout" and value not in ROLLOUT_POLICIES:
        raise ValueError(f"ismcts: rollout must be one of {', '.join(ROLLOUT_POLICIES)}")
    if key in ("depth", "prior") and value < 0:
        raise ValueError(f"ismcts: {key} must be at least 0, got {value}")
    return value
