"""Golden transcripts of seeded random Regicide games (see tabletop.envs.core.playthrough)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tabletop.envs.core.playthrough import check_playthrough
from tabletop.envs.regicide.engine import RegicideGame

GOLDEN = Path(__file__).parent / "playthroughs"


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_playthrough_matches_the_golden_file(players: int) -> None:
    path = GOLDEN / f"regicide_{players}p_seed7.txt"
    check_playthrough(RegicideGame(players), path, seed=7, action_seed=players)
