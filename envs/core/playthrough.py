"""Golden "playthrough" transcripts, after OpenSpiel's: one seeded game written out ply by
ply (state picture, legal actions, the action taken, rewards), kept in the repository so
that any change of rules behaviour shows up as a readable diff in review.

A transcript's first lines name the game (its ``repr``), the deal's seed and the seed of
the random actions, so a golden file is all the conformance suite needs to replay it: it
finds each game's files by convention (``tests/<name>/playthroughs/*.txt``) and rebuilds the
game from the ``GameSpec`` (``golden_options``).
"""

from __future__ import annotations

import ast
import os
import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tabletop.envs.core.protocol import Game
from tabletop.envs.core.spec import GameSpec

REGENERATE = "TABLETOP_REGENERATE"
"""Environment variable: set it to 1 to rewrite golden files instead of comparing."""


def playthrough(game: Game, *, seed: int, action_seed: int) -> str:
    """The transcript of the game ``game.new_state(seed)`` with uniformly random actions
    drawn from ``random.Random(action_seed)``."""
    rng = random.Random(action_seed)
    state = game.new_state(seed=seed)
    lines = [f"game: {game!r}", f"seed: {seed}", f"action_seed: {action_seed}", ""]
    ply = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        action = rng.choice(legal)
        lines += [
            f"--- ply {ply}, player {state.current_player} to move",
            state.render(),
            "legal: " + " | ".join(state.action_to_string(a) for a in legal),
            f"action: {state.action_to_string(action)}",
        ]
        state.apply(action)
        lines.append(f"rewards: {state.rewards()}")
        ply += 1
    lines += ["--- final", state.render(), f"returns: {state.returns()}", f"stats: {state.stats()}"]
    return "\n".join(lines) + "\n"


def check_playthrough(game: Game, path: Path, *, seed: int, action_seed: int) -> None:
    """Compare with the golden file; with TABLETOP_REGENERATE=1, rewrite it instead."""
    text = playthrough(game, seed=seed, action_seed=action_seed)
    if os.environ.get(REGENERATE) == "1":
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return
    assert path.exists(), f"{path} is missing; create it by running with {REGENERATE}=1"
    golden = path.read_text(encoding="utf-8")
    assert text == golden, (
        f"{path.name}: the game no longer plays as recorded; if the change is intended, "
        f"rerun the test with {REGENERATE}=1 and review the diff"
    )


@dataclass(frozen=True)
class GoldenHeader:
    """What a golden file records in its first lines: enough to play its game again."""

    game: str
    """The ``repr`` of the game played, which names its whole configuration."""
    seed: int
    action_seed: int


def read_header(path: Path) -> GoldenHeader:
    """The header of the golden file at ``path``; an error names the file and its first lines."""
    lines = path.read_text(encoding="utf-8").splitlines()[:3]
    fields = dict(line.partition(": ")[::2] for line in lines)
    try:
        return GoldenHeader(fields["game"], int(fields["seed"]), int(fields["action_seed"]))
    except (KeyError, ValueError) as error:
        raise ValueError(
            f"{path}: not a playthrough header (game:, seed:, action_seed:): {lines}"
        ) from error


def golden_options(spec: GameSpec, header: GoldenHeader) -> dict[str, Any]:
    """Options with which ``spec`` builds the game a golden file names: the defaults, a
    bench setting, the keyword arguments of the recorded ``repr`` when the game takes them
    all as options (``KalevaGame(turn_limit=60)``), or those of them it takes as written,
    the others left at their defaults (``HkkGame(pool='Starter pool 1.1', decks=('Skyfire',
    'Venom'), ply_limit=600)`` is built with ``ply_limit=600`` alone: the ``repr`` shows the
    default pool by its version and the default decks by their titles, forms those options
    do not take) — whichever builds a game of that ``repr``."""
    for options in _candidate_options(spec, header.game):
        if _built_repr(spec, options) == header.game:
            return dict(options)
    raise ValueError(
        f"{spec.name}: no options build {header.game} (tried the defaults, the bench settings "
        "and the keywords of that repr); record a game that one of them builds"
    )


def _candidate_options(spec: GameSpec, game_repr: str) -> Iterator[Mapping[str, Any]]:
    yield {}
    yield from spec.bench_options
    keywords = _repr_keywords(game_repr)
    if keywords is not None and set(keywords) <= set(spec.options):
        yield keywords
        # Those the game takes as written, each on its own, the others left at their
        # defaults: a repr may show a default in a form its option does not take (a pool
        # by its version, a deck by its title) beside options that differ from it.
        yield {key: value for key, value in keywords.items() if _takes(spec, key, value)}


def _takes(spec: GameSpec, key: str, value: Any) -> bool:
    """Whether the game is built with option ``key`` given as ``value`` alone."""
    try:
        spec.new_game(**{key: value})
    except (TypeError, ValueError, OSError):
        return False
    return True


def _built_repr(spec: GameSpec, options: Mapping[str, Any]) -> str | None:
    """The ``repr`` of the game ``options`` build; None when the game refuses them (a
    ``repr`` may show a value in a form its option does not take, e.g. a deck's title)."""
    try:
        return repr(spec.new_game(**options))
    except (TypeError, ValueError):
        return None


def _repr_keywords(game_repr: str) -> dict[str, Any] | None:
    """``{"turn_limit": 60}`` for ``"KalevaGame(turn_limit=60)"``; None unless the text is a
    call with literal keyword arguments only."""
    try:
        call = ast.parse(game_repr, mode="eval").body
        if not isinstance(call, ast.Call) or call.args:
            return None
        return {keyword.arg: ast.literal_eval(keyword.value) for keyword in call.keywords}
    except (SyntaxError, ValueError):
        return None


def check_golden(spec: GameSpec, path: Path) -> None:
    """Replay the golden file at ``path`` with the game ``spec`` builds for it and compare
    (``check_playthrough``; with TABLETOP_REGENERATE=1 it is rewritten instead)."""
    header = read_header(path)
    game = spec.new_game(**golden_options(spec, header))
    check_playthrough(game, path, seed=header.seed, action_seed=header.action_seed)
