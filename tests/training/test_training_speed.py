"""``tabletop train GAME --fps-benchmark``: game and zero-cost runs interleaved, the ratio the
median of the per-round ratios. No test asserts a timing."""

from __future__ import annotations

import re
import statistics

import pytest

pytest.importorskip("sb3_contrib", reason="needs the [train] extra")
from tabletop.cli.main import main
from tabletop.training import speed

TINY_FLAGS = [
    "--set=ppo.n_steps=64",
    "--set=ppo.batch_size=64",
    "--set=ppo.n_epochs=1",
    "--set=network.net_arch=[16]",
]


def _figures(label: str, printed: str) -> list[int]:
    (line,) = re.findall(rf"^  each round, {label}: +(.+)$", printed, re.M)
    return [int(figure.replace(",", "")) for figure in line.split(", ")]


def test_fps_benchmark_prints_every_round_the_medians_and_the_ratio(capsys) -> None:
    assert main(["train", "kaleva", "--fps-benchmark", "--steps=128", "--envs=2", *TINY_FLAGS]) == 0
    printed = capsys.readouterr().out
    assert "128 MaskablePPO steps, 2 envs in one process, 3 interleaved rounds" in printed
    game, zero_cost = _figures("game env", printed), _figures("zero-cost env", printed)
    assert len(game) == len(zero_cost) == 3
    assert f"  game env:      {statistics.median(game):,} steps/s (median)" in printed
    ratio = float(re.search(r"game / zero-cost: ([\d.]+) \(median", printed).group(1))
    ratios = [g / z for g, z in zip(game, zero_cost, strict=True)]
    assert ratio == pytest.approx(statistics.median(ratios), abs=0.002)


def test_fps_ratio_is_the_median_of_ratios_within_rounds_that_alternate(
    monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    """Rounds run game, zero-cost / zero-cost, game / game, zero-cost. Other load slowed the
    third zero-cost run: the ratio of the medians (200 / 200 = 1.0) would be off, the median
    of the per-round ratios (0.5, 0.5, 2.0) is not."""
    figures = iter([100.0, 200.0, 400.0, 200.0, 300.0, 150.0])  # in the order they run
    kinds: list[str] = []
    monkeypatch.setattr(speed, "make_vec_env", lambda settings, seed: "game")
    monkeypatch.setattr(speed, "zero_cost_vec_env", lambda settings: "zero-cost")

    def steps_per_second(settings, vec_env: str) -> float:
        kinds.append(vec_env)
        return next(figures)

    monkeypatch.setattr(speed, "training_steps_per_second", steps_per_second)
    assert main(["train", "kaleva", "--fps-benchmark", "--steps=64", *TINY_FLAGS]) == 0
    assert kinds == ["game", "zero-cost", "zero-cost", "game", "game", "zero-cost"]
    printed = capsys.readouterr().out
    assert "  each round, game env:      100, 200, 300" in printed
    assert "  each round, zero-cost env: 200, 400, 150" in printed
    assert "  game env:      200 steps/s (median)" in printed
    assert "  zero-cost env: 200 steps/s (median)" in printed
    assert "game / zero-cost: 0.500 (median of the per-round ratios; min 0.500, max 2.000)" in (
        printed
    )
