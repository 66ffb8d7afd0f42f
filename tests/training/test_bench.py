"""``tabletop bench``: interleaved speed rounds, per-round ratios, moves counted, like compared
with like, and the tables and JSON on tiny settings. No test asserts a timing."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from pettingzoo import AECEnv

from tabletop.cli import bench
from tabletop.cli.bench import (
    ENV_KINDS,
    MOVE_PARTS,
    PARTS_REFERENCE,
    REFERENCE_ENVS,
    aec_move_parts,
    aec_moves_per_second,
    env_speed,
    game_env,
    reference_env,
    reference_speeds,
    speed_measures,
    wrapper_count,
)
from tabletop.cli.main import main
from tabletop.cli.options import CommandError
from tabletop.envs import env_module
from tabletop.matches.results import Spread, interleaved_rounds, ratio_spread

TINY = ["--games", "3", "--seconds", "0.02", "--rounds", "2"]


def test_rounds_interleave_every_measure_and_reverse_the_order_every_other_round() -> None:
    calls: list[str] = []

    def measure(name: str) -> Callable[[], float]:
        def run() -> float:
            calls.append(name)
            return float(len(calls))

        return run

    values = interleaved_rounds({name: measure(name) for name in "ABC"}, 3)
    assert calls == list("ABCCBAABC")
    assert values == {"A": [1.0, 6.0, 7.0], "B": [2.0, 5.0, 8.0], "C": [3.0, 4.0, 9.0]}


def test_a_ratio_is_the_median_of_per_round_ratios_not_the_ratio_of_medians() -> None:
    ours, reference = [10.0, 30.0, 40.0], [5.0, 10.0, 20.0]  # ratios 2, 3, 2
    assert ratio_spread(ours, reference) == Spread(median=2.0, low=2.0, high=3.0)
    assert Spread.of(ours).median / Spread.of(reference).median == 3.0


def test_a_spread_is_median_min_and_max() -> None:
    assert Spread.of([4.0, 1.0, 3.0, 10.0]) == Spread(median=3.5, low=1.0, high=10.0)


def test_ratios_need_matching_rounds_and_a_spread_needs_values() -> None:
    with pytest.raises(ValueError, match="2 numerators for 3 denominators"):
        ratio_spread([1.0, 2.0], [1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="at least one value"):
        Spread.of([])


class _Clock:
    """A stand-in for ``time``: every read of ``perf_counter`` advances it by one second,
    so a measurement of ``seconds`` runs for a known number of clock reads."""

    def __init__(self) -> None:
        self.now = 0.0

    def perf_counter(self) -> float:
        self.now += 1.0
        return self.now


class _StepCounter:
    """Passes everything to an env and counts its ``step`` calls with and without an action."""

    def __init__(self, env: AECEnv) -> None:
        self.env = env
        self.moves = self.dead_steps = 0

    def step(self, action: int | None) -> None:
        if action is None:
            self.dead_steps += 1
        else:
            self.moves += 1
        self.env.step(action)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.env, name)


@pytest.mark.parametrize("kind", ENV_KINDS)
def test_leduc_counts_moves_not_the_dead_steps_that_end_a_hand(
    monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    clock = _Clock()
    monkeypatch.setattr(bench, "time", SimpleNamespace(perf_counter=clock.perf_counter))
    env = _StepCounter(reference_env("leduc_holdem_v4", kind))
    rate = aec_moves_per_second(env, seconds=4.0, seed=0)  # type: ignore[arg-type]
    # Clock reads: the start (1), one every 64 steps (2, 3, 4, 5: the loop ends once four
    # seconds have passed), the end (6).
    assert clock.now == 6.0
    assert env.moves + env.dead_steps == 3 * 64
    assert env.dead_steps > 0  # hands ended within the 192 steps
    assert rate == env.moves / 5.0


def test_our_env_loop_counts_moves_as_the_reference_loop_does(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Regicide solo: a game's one dead step is not counted either."""
    clock = _Clock()
    monkeypatch.setattr(bench, "time", SimpleNamespace(perf_counter=clock.perf_counter))
    env = _StepCounter(game_env(env_module("regicide"), {"num_players": 1}, "wrapped"))
    rate = aec_moves_per_second(env, seconds=40.0, seed=0)  # type: ignore[arg-type]
    assert env.dead_steps > 0
    assert rate == env.moves / (clock.now - 1.0)


def test_move_parts_share_each_step_time_between_last_scan_and_step_per_move(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Leduc: each step reads the clock four times (before ``last()``, before the scan,
    before ``step()``, after it) and the loop's test once more, one second apart; dead
    steps' time counts as the loop's, per move chosen."""
    clock = _Clock()
    monkeypatch.setattr(bench, "time", SimpleNamespace(perf_counter=clock.perf_counter))
    env = _StepCounter(reference_env("leduc_holdem_v4", "wrapped"))
    parts = aec_move_parts(env, seconds=200.0, seed=0)  # type: ignore[arg-type]
    steps = env.moves + env.dead_steps
    assert env.dead_steps > 0
    assert list(parts) == list(MOVE_PARTS)
    for part in MOVE_PARTS:
        assert parts[part] == pytest.approx(1e6 * steps / env.moves)
    assert clock.now == 1 + 5 * steps


def test_references_and_our_envs_come_wrapped_as_made_and_raw_without_wrappers() -> None:
    for name in REFERENCE_ENVS:
        wrapped, raw = reference_env(name, "wrapped"), reference_env(name, "raw")
        assert wrapper_count(wrapped) == 3  # PettingZoo classic: illegal, bounds, order
        assert wrapper_count(raw) == 0
        assert type(raw) is type(wrapped.unwrapped)
    module = env_module("kaleva")
    assert wrapper_count(game_env(module, {}, "wrapped")) == wrapper_count(module.env())
    assert wrapper_count(game_env(module, {}, "raw")) == 0


def test_every_env_figure_has_a_reference_of_the_same_kind_in_the_same_rounds() -> None:
    module = env_module("regicide")
    game = module.SPEC.new_game(num_players=1)
    measures = speed_measures(module, {"num_players": 1}, game, 0, 0.1)
    env_names = {name for name in measures if "/" in name}
    assert env_names == {f"{env}/{kind}" for env in ["env", *REFERENCE_ENVS] for kind in ENV_KINDS}
    assert {"engine_apply", "engine_loop", "ismcts"} <= measures.keys()


def test_our_wrapped_env_is_compared_with_wrapped_references_and_raw_with_raw() -> None:
    rounds = {
        "env/wrapped": [2.0, 4.0],
        "env/raw": [9.0, 9.0],
        "connect_four_v3/wrapped": [1.0, 1.0],
        "connect_four_v3/raw": [3.0, 3.0],
        "leduc_holdem_v4/wrapped": [2.0, 2.0],
        "leduc_holdem_v4/raw": [9.0, 9.0],
    }
    wrapped, raw = (env_speed(kind, 0, rounds) for kind in ("wrapped", "raw"))
    assert wrapped.vs_reference == {
        "connect_four_v3": Spread(3.0, 2.0, 4.0),
        "leduc_holdem_v4": Spread(1.5, 1.0, 2.0),
    }
    assert raw.vs_reference == {
        "connect_four_v3": Spread(3.0, 3.0, 3.0),
        "leduc_holdem_v4": Spread(1.0, 1.0, 1.0),
    }
    assert raw.moves_per_s == Spread(9.0, 9.0, 9.0)


def test_reference_rows_pool_the_rounds_of_every_setting() -> None:
    names = [f"{env}/{kind}" for env in REFERENCE_ENVS for kind in ENV_KINDS]
    first = SimpleNamespace(rounds={name: [1.0, 2.0] for name in names})
    second = SimpleNamespace(rounds={name: [3.0, 10.0] for name in names})
    pooled = reference_speeds([first, second])  # type: ignore[list-item]
    assert pooled == dict.fromkeys(names, Spread(2.5, 1.0, 10.0))


def test_bench_prints_engine_env_and_play_tables_and_saves_json(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    json_path = tmp_path / "bench.json"
    assert main(["bench", "--only", "regicide", *TINY, "--json", str(json_path)]) == 0
    output = capsys.readouterr().out
    for column in ["engine apply/s", "engine loop/s", "ISMCTS iterations/s", "AEC moves/s"]:
        assert column in output
    for column in ["vs connect_four_v3 (same env)", "vs leduc_holdem_v4 (same env)"]:
        assert column in output
    for column in ["win rate", "95% CI", "mean stats"]:
        assert column in output
    cells = re.sub(" +", " ", output)
    for name in REFERENCE_ENVS:
        assert f"| {name} | pettingzoo | wrapped | 3 |" in cells
        assert f"| {name} | pettingzoo | raw | 0 |" in cells
    settings = [dict(options) for options in env_module("regicide").SPEC.bench_options]
    # per setting: an engine row, a wrapped and a raw env row, two play rows
    assert output.count("| regicide ") == 5 * len(settings)
    figures = json.loads(json_path.read_text())
    assert figures["settings"]["rounds"] == 2
    assert set(figures["reference_moves_per_s"]) == {
        f"{name}/{kind}" for name in REFERENCE_ENVS for kind in ENV_KINDS
    }
    assert [result["options"] for result in figures["results"]] == settings
    result = figures["results"][0]
    assert all(len(values) == 2 for values in result["rounds"].values())
    assert [env["kind"] for env in result["envs"]] == list(ENV_KINDS)
    assert [play["games"] for play in result["play"]] == [3, 3]


def test_bench_parts_prints_a_move_s_parts_beside_the_reference_s_and_saves_them(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    json_path = tmp_path / "bench.json"
    args = ["bench", "--only", "kaleva", "--games", "2", "--seconds", "0.02", "--rounds", "2"]
    assert main([*args, "--parts", "--json", str(json_path)]) == 0
    output = capsys.readouterr().out
    for column in [*(f"{part} us" for part in MOVE_PARTS), "move us"]:
        assert column in output
    assert f"| {PARTS_REFERENCE} | beside kaleva |" in re.sub(" +", " ", output)
    figures = json.loads(json_path.read_text())
    assert figures["settings"]["parts"] is True
    (result,) = figures["results"]
    assert set(result["move_parts"]) == {"env", PARTS_REFERENCE}
    for parts in result["move_parts"].values():
        assert list(parts) == list(MOVE_PARTS)
        assert all(microseconds > 0 for microseconds in parts.values())


def test_bench_pits_heuristic_against_random_with_seats_rotating_in_a_competitive_game(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert env_module("kaleva").SPEC.competitive
    json_path = tmp_path / "bench.json"
    args = ["bench", "--only", "kaleva", "--games", "6", "--seconds", "0.02", "--rounds", "1"]
    assert main([*args, "--json", str(json_path)]) == 0
    output = capsys.readouterr().out
    for column in ["agents (seats rotate)", "win rate", "draw rate", "loss rate", "95% CI"]:
        assert column in output
    assert "| heuristic vs random " in output
    assert output.count("| kaleva ") == 4  # engine, wrapped and raw env, match; no team rows
    (result,) = json.loads(json_path.read_text())["results"]
    assert result["play"] == []
    assert result["move_parts"] == {}  # measured with --parts only
    (match,) = result["matches"]
    assert match["games_by_seat"] == [3, 3]
    assert match["wins"] + match["draws"] + match["losses"] == 6
    assert sum(match["wins_by_seat"]) == match["wins"]
    low, high = match["win_ci95"]
    assert low <= match["win_rate"] <= high


def test_only_takes_a_comma_separated_list_of_games_in_order() -> None:
    """``--only a,b`` measures both games in one run (their figures then compare)."""
    names = ["gold_and_dust", "kaleva", "regicide"]
    assert bench._selected_games(names, None) == names
    assert bench._selected_games(names, "regicide") == ["regicide"]
    assert bench._selected_games(names, "regicide, kaleva,regicide") == ["regicide", "kaleva"]
    with pytest.raises(CommandError, match="names no game"):
        bench._selected_games(names, " , ")


def test_bench_rejects_an_unknown_game_and_zero_rounds(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--only", "chess", "--games", "1", "--seconds", "0.01"]) == 2
    assert "unknown game 'chess'" in capsys.readouterr().err
    assert main(["bench", "--only", "kaleva,chess", "--games", "1", "--seconds", "0.01"]) == 2
    assert "unknown game 'chess'" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_info:
        main(["bench", "--rounds", "0"])
    assert exit_info.value.code == 2
    assert "expected a positive integer, got '0'" in capsys.readouterr().err
