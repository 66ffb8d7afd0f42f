"""The one declared contract of a game: what every tool may know of it without playing it.

Each env module exports ``SPEC = GameSpec(...)`` (in the spirit of OpenSpiel's
``GameType``/``GameInfo`` and PettingZoo's ``EnvSpec``). The registry validates it when the
module is first loaded, the env constructors, the conformance suite, training, the bench and
``tabletop info`` read it, and nothing reads game facts from module attributes by name.
"""

from __future__ import annotations

import enum
import inspect
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from tabletop.envs.core.protocol import (
    Agent,
    Encoder,
    Game,
    State,
    UnknownOptionError,
    check_options,
)
from tabletop.envs.core.structure import ActionStructure

HeuristicFactory = Callable[[int | None], Agent]
"""factory(seed) -> the game's rule-based baseline agent."""

Evaluation = Callable[[State], Sequence[float]]
"""evaluate(state) -> each seat's estimated final return (returns so far included)."""

PLAYERS_OPTION = "num_players"
"""The option of games whose player count is configurable."""

DECKS_OPTION = "decks"
"""The option of card games that takes the decks in play, one per seat (``SPEC.decks``)."""


class Payoff(enum.Enum):
    """How the seats' returns relate (OpenSpiel's ``GameType.Utility``)."""

    ZERO_SUM = "zero-sum"
    """What one seat wins the others lose: seats play against each other."""
    IDENTICAL = "identical"
    """Every seat gets the same return: a cooperative game, one team."""
    GENERAL_SUM = "general-sum"
    """Anything else: each seat plays for itself."""


class GameSpecError(TypeError):
    """An env module whose ``SPEC`` is missing or inconsistent; names the module and field."""


@dataclass(frozen=True)
class OptionSpec:
    """One game option: its name, its default (read from the game class), a line of help
    and, when its values form a fixed set, those values: tools then offer a choice among
    them (the web lobby draws a select) instead of free text."""

    name: str
    default: Any
    help: str
    choices: tuple[Any, ...] = ()


@dataclass(frozen=True)
class GameSpec:
    """What a game is, declared once in its env module.

    ``options`` maps each keyword of ``game_class`` to one line of help; their defaults are
    read from the class's signature, so a default is written in one place only.
    """

    name: str
    """Registered, unversioned name, e.g. ``"regicide"``."""
    env_name: str
    """Versioned env name, the module's name, e.g. ``"regicide_v0"``."""
    title: str
    """The game's name for people, e.g. ``"Gold & Dust"``."""
    game_class: Callable[..., Game]
    """Called with the game options; builds the rules engine's game object."""
    encoders: Mapping[str, Encoder]
    """Encoder name -> encoder; ``"flat"`` is the default one."""
    heuristic: HeuristicFactory
    """The rule-based baseline agent of the game."""
    payoff: Payoff
    min_players: int
    max_players: int
    max_plies: int
    """The env's default truncation: a safety net far above any real game's length."""
    chance: bool
    """Whether the game has chance (shuffles, dice)."""
    hidden_information: bool
    """Whether any seat is kept from seeing part of the state."""
    options: Mapping[str, str] = field(default_factory=dict)
    """Game option name -> one line of help."""
    option_choices: Mapping[str, tuple[Any, ...]] = field(default_factory=dict)
    """Game option name -> its allowed values, for the options whose values form a fixed set:
    read them from the collection the game checks the option against, so that they are
    declared once. ``num_players`` needs none: its values are the player range."""
    bench_options: tuple[Mapping[str, Any], ...] = ({},)
    """The option sets that benchmarks and the conformance suite run, one row each."""
    render_modes: tuple[str, ...] = ("ansi", "human")
    metadata_of: Callable[[Game], Mapping[str, Any]] | None = None
    """Extra env metadata read from a configured game (e.g. the card data in use)."""
    decks: tuple[str, ...] = ()
    """A card game's packaged decks by name, each a valid item of its ``decks`` option
    (``DECKS_OPTION``: one deck per seat); empty for games without decks. ``tabletop
    balance`` plays them against each other, and counts the cards each seat plays from
    the game's ``card_played`` events (data ``player``: the seat, ``card``: its name)."""
    evaluate: Evaluation | None = None
    """The game's own estimate of a position, one value per seat in the scale of
    ``State.returns()`` (for a ±1 game, in [-1, 1]); search (``ismcts:depth=N``) scores its
    cut-off rollouts with it. It may read the whole state: search evaluates determinizations,
    which hold only what the searching seat may know or a re-deal of it. None: no evaluation,
    and search must play its rollouts out."""
    action_structures: Mapping[str, Callable[[Game], ActionStructure]] = field(default_factory=dict)
    """Encoder name -> the rows each action names in that encoder's observation of a game
    (``envs.core.structure``), for the encoders that lay cards out as rows; a policy that
    scores actions from their rows (``NetworkSpec.rows``) needs one."""

    @property
    def competitive(self) -> bool:
        """Seats play against each other (benchmarks pit agents), unless payoffs are identical."""
        return self.payoff is not Payoff.IDENTICAL

    @property
    def option_specs(self) -> tuple[OptionSpec, ...]:
        """Every game option with its default, help and allowed values, in declaration order."""
        defaults = _keyword_defaults(self.game_class)
        return tuple(
            OptionSpec(name, defaults[name], text, self._choices(name))
            for name, text in self.options.items()
        )

    def _choices(self, name: str) -> tuple[Any, ...]:
        """The allowed values of option ``name``, by default the player range for
        ``num_players``, so that every fixed set reaches tools one way; empty for a free value."""
        players = range(self.min_players, self.max_players + 1)
        return tuple(self.option_choices.get(name, players if name == PLAYERS_OPTION else ()))

    @property
    def default_players(self) -> int:
        """Players of a game built without options."""
        if PLAYERS_OPTION in self.options:
            return _keyword_defaults(self.game_class)[PLAYERS_OPTION]
        return self.min_players

    def new_game(self, **options: Any) -> Game:
        """The game configured by ``options``; unknown option names are an error naming them."""
        check_options(self.name, options, set(self.options))
        return self.game_class(**options)

    def env_metadata(self, game: Game) -> dict[str, Any]:
        """PettingZoo's ``metadata`` of an env playing ``game``."""
        metadata: dict[str, Any] = {
            "name": self.env_name,
            "render_modes": list(self.render_modes),
            "is_parallelizable": False,
            "render_fps": 1,
        }
        if self.metadata_of is not None:
            metadata.update(self.metadata_of(game))
        return metadata

    def validate(self, module_name: str) -> None:
        """Raise ``GameSpecError`` naming ``module_name`` and the field at fault."""
        problems = _problems(self, module_name)
        if problems:
            raise GameSpecError(f"{module_name}: " + "; ".join(f"SPEC.{p}" for p in problems))


ENV_OPTIONS = frozenset({"render_mode", "max_plies", "illegal_action", "encoder"})
"""The options every env constructor takes besides its game's own: a game option of one of
these names could never reach the game through the env."""


def frozen_options(**help_lines: str) -> Mapping[str, str]:
    """An immutable option -> help mapping, for ``GameSpec(options=...)``."""
    return MappingProxyType(dict(help_lines))


def _keyword_defaults(game_class: Callable[..., Game]) -> dict[str, Any]:
    return {
        name: parameter.default
        for name, parameter in inspect.signature(game_class).parameters.items()
        if parameter.default is not inspect.Parameter.empty
    }


def _problems(spec: GameSpec, module_name: str) -> list[str]:
    """Everything wrong with ``spec``, as ``field: reason`` lines."""
    problems = []
    if spec.env_name != module_name.rpartition(".")[2]:
        problems.append(f"env_name: {spec.env_name!r} is not the module's name")
    if not spec.env_name.startswith(f"{spec.name}_v"):
        problems.append(f"env_name: {spec.env_name!r} is not {spec.name!r} plus a version")
    if "flat" not in spec.encoders:
        problems.append(f"encoders: no 'flat' encoder among {sorted(spec.encoders)}")
    if not 1 <= spec.min_players <= spec.max_players:
        problems.append(f"min_players/max_players: {spec.min_players}-{spec.max_players}")
    if spec.max_plies < 1:
        problems.append(f"max_plies: must be positive, got {spec.max_plies}")
    if not spec.bench_options:
        problems.append("bench_options: at least one option set ({} for the defaults)")
    defaults = _keyword_defaults(spec.game_class)
    undeclared = sorted(set(defaults) - set(spec.options))
    unknown = sorted(set(spec.options) - set(defaults))
    if undeclared or unknown:
        problems.append(
            f"options: declared {sorted(spec.options)}, but the game class takes {sorted(defaults)}"
            " (every keyword, each with a default)"
        )
    elif shadowed := sorted(ENV_OPTIONS & set(spec.options)):
        problems.append(f"options: {shadowed} are env options; the env would never pass them on")
    elif (spec.min_players != spec.max_players) != (PLAYERS_OPTION in spec.options):
        problems.append(f"options: a game with a player range takes {PLAYERS_OPTION!r}")
    elif not spec.min_players <= spec.default_players <= spec.max_players:
        problems.append(f"options: default {PLAYERS_OPTION} {spec.default_players} out of range")
    return problems + _bench_problems(spec) + _deck_problems(spec) + _choice_problems(spec)


def _bench_problems(spec: GameSpec) -> list[str]:
    problems = []
    for options in spec.bench_options:
        try:
            check_options(spec.name, dict(options), set(spec.options))
        except UnknownOptionError as error:
            problems.append(f"bench_options: {error}")
    return problems


def _choice_problems(spec: GameSpec) -> list[str]:
    """Choices of undeclared options, and defaults outside their choices: tools offer the
    declared values, so a default that is not one of them could not be offered."""
    problems = [
        f"option_choices: {name!r} is not a declared option"
        for name in sorted(set(spec.option_choices) - set(spec.options))
    ]
    defaults = _keyword_defaults(spec.game_class)
    for name, choices in spec.option_choices.items():
        if name in defaults and defaults[name] not in choices:
            problems.append(f"option_choices: default {name}={defaults[name]!r} not in {choices!r}")
    return problems


def _deck_problems(spec: GameSpec) -> list[str]:
    if not spec.decks:
        return []
    problems = []
    if DECKS_OPTION not in spec.options:
        problems.append(f"decks: packaged decks, but no {DECKS_OPTION!r} option to choose them")
    if not all(isinstance(name, str) and name.strip() for name in spec.decks):
        problems.append(f"decks: every deck name must be non-empty text, got {spec.decks!r}")
    elif len(set(spec.decks)) != len(spec.decks):
        problems.append(f"decks: a deck is named twice in {spec.decks!r}")
    return problems


def seedless(agent_class: Callable[[], Agent]) -> HeuristicFactory:
    """The heuristic factory of a baseline that decides deterministically and takes no seed."""

    def build(seed: int | None) -> Agent:
        del seed  # nothing random to seed
        return agent_class()

    build.__qualname__ = f"seedless({agent_class.__name__})"
    return build
