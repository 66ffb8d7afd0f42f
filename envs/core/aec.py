"""The one PettingZoo AEC adapter: any ``Game`` plus an ``Encoder`` becomes an ``AECEnv``.

Every game module builds its env from this class, so the AEC conventions (dead steps,
cumulative rewards, action masks, seeding, illegal actions) are implemented and tested
once, here, and never per game.

The live engine state is ``env.unwrapped.game_state``. ``env.state()`` is PettingZoo's
global-state method (``AECEnv.state``): these games declare no global state vector, so it
raises ``NotImplementedError``, as PettingZoo classic's games do, and no ``state_space`` is
defined. The engine state used to be the attribute ``env.unwrapped.state``, which hid that
method. Until the next release, reading an attribute through ``env.unwrapped.state``
(``env.unwrapped.state.current_player``) still reaches the engine state, with a
``DeprecationWarning`` naming ``game_state``; calling ``state()`` is always PettingZoo's
method, and ``env.unwrapped.state`` itself is no ``State`` (an ``isinstance`` check or an
agent given it fails): read ``game_state``.
"""

from __future__ import annotations

import operator
import random
import warnings
from collections.abc import Callable, Mapping
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.error import ResetNeeded
from pettingzoo import AECEnv
from pettingzoo.utils.env_logger import EnvLogger
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

from tabletop.envs.core.protocol import (
    Encoder,
    Game,
    IllegalActionError,
    State,
    UnknownOptionError,
    check_options,
)
from tabletop.envs.core.spec import ENV_OPTIONS, GameSpec

ILLEGAL_ACTION_MODES = ("terminate", "raise")
DEFAULT_ILLEGAL_ACTION = "terminate"
"""PettingZoo classic's convention, which clients that step unmasked samples rely on (RLlib's
env pre-check, SuperSuit's wrappers, ``average_total_reward``): the game ends with -1 to the
offender and a warning. ``"raise"`` raises ``IllegalActionError`` instead (debugging,
training code that must never play an illegal move)."""
ILLEGAL_ACTION_REWARD = -1.0
"""What the offender gets under ``illegal_action="terminate"``, as in PettingZoo classic."""
MAX_LISTED_LEGAL_ACTIONS = 50
"""Error messages list at most this many legal actions, so that huge action sets stay readable."""
RESET_OPTIONS = frozenset({"state"})
"""The keys ``reset(options=...)`` accepts."""
API_TEST_PROBE = "options"
"""The key PettingZoo's ``api_test`` passes, ``reset(options={"options": 1})``, to see that
``reset`` takes options: accepted and ignored, so that every game passes that test, while
any other unknown key (a typo of ``"state"``) is an error."""


class _StateMethod:
    """``TabletopAEC.state``: PettingZoo's ``state()``, which for one version also answers
    attribute reads of the engine state (deprecated; see the module docstring)."""

    def __get__(self, env: TabletopAEC | None, owner: type | None = None) -> Any:
        return self if env is None else _BoundStateMethod(env)

    def __set__(self, env: TabletopAEC, value: Any) -> None:
        raise AttributeError(
            "env.state is PettingZoo's state() method; the engine state is env.game_state "
            "(start from a position with reset(options={'state': s}))"
        )


class _BoundStateMethod:
    """``env.state`` of one env: call it for PettingZoo's ``state()``; read an attribute
    through it for the engine state's, with a ``DeprecationWarning`` (until the next
    release, which drops this class and makes ``state`` a plain method)."""

    __slots__ = ("_env",)

    def __init__(self, env: TabletopAEC) -> None:
        self._env = env

    def __call__(self) -> np.ndarray:
        return self._env._global_state()

    def __getattr__(self, name: str) -> Any:
        warnings.warn(
            "env.unwrapped.state is PettingZoo's state() method; read the engine state as "
            "env.unwrapped.game_state (reading it through env.unwrapped.state stops working "
            "in the next release)",
            DeprecationWarning,
            stacklevel=2,
        )
        return getattr(self._env.game_state, name)


class TabletopAEC(AECEnv):
    """A turn-based game as an AEC env with ``{"observation", "action_mask"}`` observations.

    The live engine state is ``env.unwrapped.game_state``. Treat it as read-only
    (``clone()`` it for search): the env follows it ply by ply.
    """

    game_state: State
    """The live engine state; it exists from the first ``reset`` on."""

    state = _StateMethod()
    """PettingZoo's ``state()`` (``_global_state``); see the module docstring."""

    def __init__(
        self,
        game: Game,
        encoder: Encoder,
        *,
        metadata: dict[str, Any],
        render_mode: str | None = None,
        max_plies: int | None = None,
        illegal_action: str = DEFAULT_ILLEGAL_ACTION,
    ) -> None:
        super().__init__()
        _check_choice("render_mode", render_mode, [None, *metadata["render_modes"]])
        _check_choice("illegal_action", illegal_action, ILLEGAL_ACTION_MODES)
        if max_plies is not None and (not isinstance(max_plies, int) or max_plies < 1):
            raise ValueError(f"max_plies must be None or a positive int, got {max_plies!r}")
        self.game = game
        self.encoder = encoder
        self.metadata = metadata
        self.render_mode = render_mode
        self.max_plies = max_plies
        self.illegal_action = illegal_action
        self.possible_agents = [f"player_{i}" for i in range(game.num_players)]
        self._player_of = {agent: i for i, agent in enumerate(self.possible_agents)}
        self._observation_spaces = {a: self._new_observation_space() for a in self.possible_agents}
        self._action_spaces = {a: spaces.Discrete(game.num_actions) for a in self.possible_agents}
        self._seed_stream = random.Random()
        self._episode_over = False
        self._plies = 0

    def _new_observation_space(self) -> spaces.Dict:
        shape = tuple(self.encoder.shape(self.game))
        return spaces.Dict(
            {
                "observation": spaces.Box(-np.inf, np.inf, shape, np.float32),
                "action_mask": spaces.Box(0, 1, (self.game.num_actions,), np.int8),
            }
        )

    def observation_space(self, agent: str) -> spaces.Dict:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        return self._action_spaces[agent]

    def _global_state(self) -> np.ndarray:
        """PettingZoo's ``state()``: a global view for centralized critics. None is declared:
        each seat's view is ``observe(agent)``, the whole position ``game_state``."""
        raise NotImplementedError(
            f"{self.metadata['name']} has no global state vector (PettingZoo's state()); "
            "observe(agent) is each seat's view, env.unwrapped.game_state the engine state"
        )

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new episode. ``reset(seed=s)`` plays ``game.new_state(seed=s)`` and restarts the
        stream that seeds later unseeded resets and the action spaces' ``sample``.

        ``options={"state": state}`` starts the episode from a clone of ``state`` instead (the
        caller's object is never touched): a live ``State`` of a game with this env's
        ``repr`` (same game, player count and options). A given ``seed`` then still
        restarts the stream and seeds the action spaces, but the state's chance events
        come from the random generator it carries, cloned with it. The episode counts
        rewards and ``max_plies`` from that position on. Any other key is rejected: game
        options are fixed when the env is built.
        """
        given = self._given_state(options)
        if seed is not None:
            self._seed_stream = random.Random(seed)
            for space in self._action_spaces.values():
                space.seed(self._seed_stream.getrandbits(32))
        if given is not None:
            self.game_state = given.clone()
        else:
            game_seed = seed if seed is not None else self._seed_stream.getrandbits(63)
            self.game_state = self.game.new_state(seed=game_seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self._skip_agent_selection = None
        self._episode_over = False
        self._plies = 0
        self.agent_selection = self.agents[0]  # replaced at once, unless the game is already over
        self._follow_state()
        self._render_if_human()

    def _given_state(self, options: dict[str, Any] | None) -> State | None:
        """The state that ``reset``'s ``options`` ask to start from, checked, or ``None``."""
        if options is None:
            return None
        if not isinstance(options, Mapping):
            raise TypeError(f"reset: options must be a dict, got {type(options).__name__}")
        asked = {key: value for key, value in options.items() if key != API_TEST_PROBE}
        check_options("reset", asked, set(RESET_OPTIONS))
        if "state" not in options:
            return None
        self._check_playable(options["state"])
        return options["state"]

    def _check_playable(self, state: Any) -> None:
        """``state`` must be a live position of this env's game and configuration. A
        finished game is refused: its episode would be over before its first step, with
        nothing to learn or play."""
        game = self.game
        if not isinstance(state, State):
            raise TypeError(
                f"reset: options['state'] must be a {game.name} State, got {type(state).__name__}"
            )
        if state.game.name != game.name:
            raise ValueError(
                f"reset: options['state'] is a state of {state.game.name!r}, "
                f"this env plays {game.name!r}"
            )
        if state.game.num_players != game.num_players:
            raise ValueError(
                f"reset: options['state'] has {state.game.num_players} players, "
                f"this env {game.num_players}"
            )
        if repr(state.game) != repr(game):
            raise ValueError(
                f"reset: options['state'] is of {state.game!r}, this env plays {game!r}"
            )
        if state.is_terminal():
            raise ValueError("reset: options['state'] is a finished game; give a live position")

    def step(self, action: Any) -> None:
        if not self.agents:
            raise _episode_over(action)
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        action_id = self._action_id(action)
        try:
            self.game_state.apply(action_id)
        except IllegalActionError:
            if self.illegal_action == "terminate":
                self._forfeit(agent)
                return
            raise IllegalActionError(self._illegal_action_message(action_id)) from None
        self._plies += 1
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict(zip(self.agents, self.game_state.rewards(), strict=True))
        self._accumulate_rewards()
        self._follow_state()
        self._render_if_human()

    def _follow_state(self) -> None:
        """Point ``agent_selection`` at the engine's current player, or end the episode
        (every agent then takes its dead step, seeing its final cumulative reward)."""
        if self.game_state.is_terminal():
            self._end_episode(self.terminations)
        elif self.max_plies is not None and self._plies >= self.max_plies:
            self._end_episode(self.truncations)
        else:
            self.agent_selection = self.possible_agents[self.game_state.current_player]

    def _end_episode(self, flags: dict[str, bool]) -> None:
        for agent in flags:
            flags[agent] = True
        self._episode_over = True
        self._deads_step_first()

    def _action_id(self, action: Any) -> int:
        """``action`` as an int. Non-integers always raise, whatever ``illegal_action`` says:
        they are bugs, not policy choices (legality is the engine's check, in ``step``).
        Booleans, Python's and NumPy's alike, are not action ids either, although Python
        would take ``True`` for 1: a mask or a flag passed as an action is a bug."""
        if not isinstance(action, bool | np.bool_):
            try:
                return operator.index(action)
            except TypeError:
                pass
        raise IllegalActionError(
            f"action {action!r} is not an action id (an int in range({self.game.num_actions}))"
        )

    def _illegal_action_message(self, action_id: int) -> str:
        state = self.game_state
        if 0 <= action_id < self.game.num_actions:
            named = f"action {action_id} ({state.action_to_string(action_id)!r}) is not legal"
        else:
            named = f"action {action_id} is out of range({self.game.num_actions})"
        legal = state.legal_actions()
        listed = ", ".join(
            f"{a} ({state.action_to_string(a)!r})" for a in legal[:MAX_LISTED_LEGAL_ACTIONS]
        )
        more = f", ... ({len(legal) - MAX_LISTED_LEGAL_ACTIONS} more)"
        more = more if len(legal) > MAX_LISTED_LEGAL_ACTIONS else ""
        return f"{self.agent_selection}: {named}; legal actions: {listed}{more}"

    def _forfeit(self, offender: str) -> None:
        """PettingZoo classic's answer to an illegal move: the offender gets -1, everyone
        else 0, and the episode is over for all (as a termination: the game ended by a
        rule, and learners must not bootstrap past it)."""
        EnvLogger.warn_on_illegal_move()
        self._cumulative_rewards[offender] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.rewards[offender] = ILLEGAL_ACTION_REWARD
        self._accumulate_rewards()
        self._end_episode(self.terminations)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``agent``'s encoded view; the mask is all zeros unless it is ``agent``'s move.
        Both arrays are new at every call, so callers may keep or modify them.

        The mask is set byte by byte in a ``bytearray`` that the array then wraps: about
        half the time of NumPy's assignment through a list of indices, which converts the
        list first (a step of a large action space sets its mask at every ``last()``)."""
        mask = bytearray(self.game.num_actions)
        player = self._player_of[agent]
        state = self.game_state
        if not self._episode_over and player == state.current_player:
            for action in state.legal_actions():
                mask[action] = 1
        return {
            "observation": self.encoder.encode(state, player),
            "action_mask": np.frombuffer(mask, np.int8),
        }

    def render(self) -> str | None:
        """``"ansi"`` returns the omniscient text picture, ``"human"`` prints it."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; nothing to render.")
            return None
        picture = self.game_state.render()
        if self.render_mode == "human":
            print(picture)
            return None
        return picture

    def _render_if_human(self) -> None:
        if self.render_mode == "human":
            self.render()

    def close(self) -> None:
        """Nothing to release: rendering is text."""


def _episode_over(action: Any) -> ResetNeeded:
    """The error of a step once every agent has left. PettingZoo's order enforcing only logs
    a warning, easy to miss, and the action would be dropped: stepping a finished episode is
    a bug of the caller's loop, so it is an error, Gymnasium's for "reset first"."""
    return ResetNeeded(
        f"step({action!r}) after the episode ended: every agent has taken its final step "
        "(env.agents is empty); call reset() to start a new game"
    )


def _check_choice(option: str, value: Any, allowed: list[Any] | tuple[Any, ...]) -> None:
    if value not in allowed:
        raise ValueError(f"{option}={value!r} is not supported; allowed: {list(allowed)}")


def resolve_encoder(encoders: Mapping[str, Encoder], name: str) -> Encoder:
    """The encoder registered as ``name`` in a game module's ``ENCODERS``."""
    try:
        return encoders[name]
    except KeyError:
        raise ValueError(f"unknown encoder {name!r}; known encoders: {sorted(encoders)}") from None


def wrap(raw: TabletopAEC) -> AECEnv:
    """The wrapped env a game module's ``env()`` returns: PettingZoo's order enforcing.

    PettingZoo classic also adds ``TerminateIllegalWrapper`` and ``AssertOutOfBoundsWrapper``;
    they are left out because the adapter handles illegal and out-of-range actions itself,
    with clearer errors, as its ``illegal_action`` says.
    """
    return _OrderEnforcing(raw)


class _OrderEnforcing(OrderEnforcingWrapper):
    """``OrderEnforcingWrapper`` with a one-call ``last()``: the inherited one fetches five
    attributes through two ``__getattr__`` layers, which cost about half the env steps/s of
    a cheap game in the bench loop."""

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            raise AttributeError("last() cannot be called before reset")
        return self.env.last(observe)

    def step(self, action: Any) -> None:
        """PettingZoo's order enforcing, but a step after every agent has left is the
        adapter's error (``_episode_over``) instead of a logged warning."""
        if self._has_reset and not self.env.agents:
            raise _episode_over(action)
        super().step(action)

    def __str__(self) -> str:
        """The env's name, e.g. ``<game>_v0``, as PettingZoo's own wrapper gives."""
        return str(self.env)


def env_constructors(spec: GameSpec) -> tuple[Callable[..., TabletopAEC], Callable[..., AECEnv]]:
    """The ``raw_env`` and ``env`` functions of a game module (PettingZoo's convention),
    built from its ``SPEC`` so that each module states only what is its own.

    Both take the env options ``render_mode``, ``max_plies`` (default ``spec.max_plies``),
    ``illegal_action`` and ``encoder`` (default ``"flat"``); every other keyword is a game
    option: an unknown one is an error that lists the env options too, as every one of
    them is accepted.
    """

    def raw_env(
        *,
        render_mode: str | None = None,
        max_plies: int | None = spec.max_plies,
        illegal_action: str = DEFAULT_ILLEGAL_ACTION,
        encoder: str = "flat",
        **game_options: Any,
    ) -> TabletopAEC:
        game = _new_game_listing_env_options(spec, game_options)
        return TabletopAEC(
            game,
            resolve_encoder(spec.encoders, encoder),
            metadata=spec.env_metadata(game),
            render_mode=render_mode,
            max_plies=max_plies,
            illegal_action=illegal_action,
        )

    def env(**options: Any) -> AECEnv:
        return wrap(raw_env(**options))

    return raw_env, env


def _new_game_listing_env_options(spec: GameSpec, game_options: dict[str, Any]) -> Game:
    """``spec.new_game(**game_options)``; its unknown-option error lists the env options too."""
    try:
        return spec.new_game(**game_options)
    except UnknownOptionError as error:
        if not set(error.unknown) <= set(game_options):
            raise  # about something nested inside an option, not the options themselves
        raise UnknownOptionError(spec.env_name, error.unknown, error.known | ENV_OPTIONS) from None
