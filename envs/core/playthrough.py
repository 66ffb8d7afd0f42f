"""Golden "playthrough" transcripts, after OpenSpiel's: one seeded game written out ply by
ply (state picture, legal actions, the action taken, rewards), kept in the repository so
that any change of rules behaviour shows up as a readable diff in review."""

from __future__ import annotations

import os
import random
from pathlib import Path

from tabletop.envs.core.protocol import Game

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
