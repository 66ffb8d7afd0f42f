"""Evaluation numbers on rigged agents in a stacked game, team figures, and the outputs."""

from __future__ import annotations

import itertools
import json
import statistics
import time
from pathlib import Path

import pytest

pytest.importorskip("matplotlib", reason="needs the [train] extra")
import matplotlib.pyplot as plt
from countdown_v0 import ResignAgent, TakeOneAgent

from tabletop import envs
from tabletop.agents import make_agent, play_game
from tabletop.cli.evaluate import PlayerCountResult, evaluate, result_tables, save_json
from tabletop.cli.main import main
from tabletop.matches.plots import team_bars, win_rate_matrix
from tabletop.matches.records import GameRecord, read_records
from tabletop.matches.results import mean_interval, wilson_interval
from tabletop.matches.schedules import pair_arrangements
from tabletop.matches.standings import PairResult, team_result
from tabletop.training.config import game_settings


def test_rigged_round_robin_numbers(countdown: str) -> None:
    # start=5, both taking 1: the counter's parity hands every such game to seat 0
    agents = {"stubborn": TakeOneAgent(), "resigner": ResignAgent(), "stubborn2": TakeOneAgent()}
    (result,) = evaluate(countdown, agents, player_counts=[None], games=40, options={"start": 5})
    pairs = {(p.a, p.b): p for p in result.pairs}
    beats = pairs["stubborn", "resigner"]
    assert (beats.wins, beats.draws, beats.losses) == (40, 0, 0)
    assert beats.win_ci95 == wilson_interval(40, 40)
    assert pairs["resigner", "stubborn2"].losses == 40
    mirror = pairs["stubborn", "stubborn2"]
    assert (mirror.wins, mirror.losses) == (20, 20)  # seats swapped equally
    # seat 0 wins: half the games with a resigner (whoever sits there), all the mirror games
    assert result.first_seat["wins"] == 20 + 40 + 20 and result.first_seat["games"] == 120
    ordinal = {row["agent"]: row["ordinal"] for row in result.ratings}
    assert ordinal["resigner"] < min(ordinal["stubborn"], ordinal["stubborn2"])
    assert result.ratings[-1]["agent"] == "resigner"


def test_pair_arrangements_swap_every_seat() -> None:
    assert pair_arrangements("a", "b", 2) == [("a", "b"), ("b", "a")]
    three = pair_arrangements("a", "b", 3)
    assert len(three) == 6 and ("b", "a", "a") in three and ("b", "b", "a") in three


def test_cooperative_figures_match_direct_play() -> None:
    (result,) = evaluate("regicide", ["heuristic"], player_counts=[1], games=12, seed=3)
    (team,) = result.teams
    game = envs.make_game("regicide", num_players=1)
    agent = make_agent("heuristic", "regicide")
    states = [play_game(game.new_state(seed=3 + g), [agent]) for g in range(12)]
    enemies = sum(s.stats()["enemies_defeated"] for s in states) / 12
    wins = sum(s.returns()[0] > 0 for s in states)
    assert (team.games, team.wins) == (12, wins)
    assert team.stats_mean["enemies_defeated"] == pytest.approx(enemies)
    assert team.metric == game_settings("regicide").best_metric == "enemies_defeated"
    assert team.metric_mean == pytest.approx(enemies)


def record(seats: tuple[str, ...], returns: tuple[float, ...], stats: dict) -> GameRecord:
    """A game with these seats, returns and stats (its moves do not matter here)."""
    return GameRecord("solo", {}, 0, seats, (), (), returns, stats)


def test_distributions_count_games_without_the_stat_only_when_some_have_it() -> None:
    records = [
        record(("a",), (1.0,), {"grade": 0.0}),
        record(("a",), (-1.0,), {}),
        record(("a",), (1.0,), {"grade": 2.0}),
        record(("a",), (1.0,), {"grade": 0.0}),
    ]
    team = team_result("a", records, ["grade", "medal"], "win_rate")
    assert team.distributions == {"grade": {"-": 1, "0": 2, "2": 1}}
    assert (team.wins, team.win_rate) == (3, 0.75)


def test_workers_give_the_same_figures_for_deterministic_agents() -> None:
    one = evaluate("regicide", ["heuristic"], player_counts=[2], games=30, workers=1)
    two = evaluate("regicide", ["heuristic"], player_counts=[2], games=30, workers=2)
    assert one[0].teams == two[0].teams


def test_eval_command_prints_tables_and_writes_json_and_png(tmp_path: Path, capsys) -> None:
    status = main(
        ["eval", "kaleva", "--agents", "random,heuristic", "--games", "6", "--out", str(tmp_path)]
    )
    assert status == 0
    printed = capsys.readouterr().out
    assert "| random " in printed and "first seat wins" in printed
    document = json.loads((tmp_path / "results.json").read_text())
    (result,) = document["results"]
    assert result["mode"] == "competitive" and result["pairs"][0]["games"] == 6
    rows = table_rows(printed.split("first seat wins")[1], "agent")  # the ratings
    for agent in ("random", "heuristic"):  # every decision is timed
        timing = result["decision_time"][agent]
        assert timing["decisions"] > 0 and timing["mean_ms"] > 0 and timing["p95_ms"] > 0
        assert rows[agent][MS] == f"{timing['mean_ms']:.3g} / {timing['p95_ms']:.3g}"
    assert (tmp_path / "results.png").read_bytes()[:4] == b"\x89PNG"
    records = read_records(tmp_path / "games.jsonl")
    assert len(records) == 6 and {r.game for r in records} == {"kaleva"}
    assert sorted(r.seats for r in records)[0] == ("heuristic", "random")
    assert (
        sum(r.side_outcome("heuristic") == "win" for r in records) == result["pairs"][0]["losses"]
    )


MS = "ms per decision (mean / p95)"


def table_rows(text: str, first_header: str) -> dict[str, dict[str, str]]:
    """The rows of the table whose first header cell is ``first_header``, by their first
    cell, each row's cells by header."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"| {first_header} "))

    def cells(line: str) -> list[str]:
        return [cell.strip() for cell in line.strip("|").split("|")]

    header = cells(lines[start])
    rows = itertools.takewhile(lambda line: line.startswith("|"), lines[start + 2 :])
    return {row[0]: dict(zip(header, row, strict=True)) for row in map(cells, rows)}


SLEEP_S = 0.002


class SleepyTakeOneAgent(TakeOneAgent):
    """Takes one, after sleeping ``SLEEP_S`` on every decision."""

    def act(self, state, player: int) -> int:
        time.sleep(SLEEP_S)
        return super().act(state, player)


def test_timed_evaluation_reports_each_agents_time_per_decision(
    countdown: str, tmp_path: Path
) -> None:
    agents = {"sleepy": SleepyTakeOneAgent(), "resigner": ResignAgent(), "quick": TakeOneAgent()}
    (result,) = evaluate(
        countdown, agents, player_counts=[None], games=4, options={"start": 5},
        timed=True,
    )  # fmt: skip
    sleepy, quick = result.decision_time["sleepy"], result.decision_time["quick"]
    # sleepy decides in its games against both the resigner and quick, as seat 0 or 1
    assert sleepy.decisions > 4 and sleepy.mean_ms >= 1000 * SLEEP_S
    assert sleepy.p95_ms >= 1000 * SLEEP_S and quick.mean_ms < sleepy.mean_ms
    rows = table_rows(result_tables([result]).split("first seat wins")[1], "agent")
    assert set(rows) == set(agents)
    assert rows["sleepy"][MS] == f"{sleepy.mean_ms:.3g} / {sleepy.p95_ms:.3g}"
    save_json(tmp_path / "results.json", {}, [result])
    (saved,) = json.loads((tmp_path / "results.json").read_text())["results"]
    assert saved["decision_time"]["sleepy"]["mean_ms"] == sleepy.mean_ms
    untimed = evaluate(countdown, agents, player_counts=[None], games=2)
    assert untimed[0].decision_time["quick"].mean_ms is None
    untimed_rows = table_rows(result_tables(untimed).split("first seat wins")[1], "agent")
    assert {row[MS] for row in untimed_rows.values()} == {"-"}


def test_timed_cooperative_evaluation_reports_each_teams_time_per_decision() -> None:
    (result,) = evaluate("regicide", ["random"], player_counts=[1], games=2, timed=True)
    timing = result.decision_time["random"]
    assert timing.decisions > 0 and timing.mean_ms > 0 and timing.p95_ms > 0
    rows = table_rows(result_tables([result]), "agent")
    assert rows["random"][MS] == f"{timing.mean_ms:.3g} / {timing.p95_ms:.3g}"


def test_eval_command_rejects_bad_agents(capsys) -> None:
    assert main(["eval", "regicide", "--agents", "random,random"]) == 2
    assert "twice" in capsys.readouterr().err
    assert main(["eval", "regicide", "--agents", "minimax"]) == 2
    assert "unknown agent 'minimax'" in capsys.readouterr().err


def test_tables_show_each_player_count_with_intervals() -> None:
    results = evaluate("regicide", ["random"], player_counts=[1, 2], games=3)
    text = result_tables(results)
    assert "1 players (cooperative)" in text and "2 players (cooperative)" in text
    low, high = wilson_interval(0, 3)
    assert f"[{low:.3f}, {high:.3f}]" in text and "mean enemies_defeated" in text


def solo_records(enemies: list[float], wins: int = 0) -> list[GameRecord]:
    """One-seat games with these enemies defeated, the first ``wins`` of them won."""
    return [
        record(("a",), (1.0 if g < wins else -1.0,), {"enemies": e, "won": float(g < wins)})
        for g, e in enumerate(enemies)
    ]


def test_mean_interval_is_the_normal_approximation() -> None:
    low, high = mean_interval([1.0, 2.0, 3.0, 4.0])
    half_width = 1.959964 * statistics.stdev([1.0, 2.0, 3.0, 4.0]) / 2
    assert (low, high) == pytest.approx((2.5 - half_width, 2.5 + half_width))
    assert mean_interval([3.0]) is None


def test_team_figures_of_the_best_metric_and_an_unknown_metric() -> None:
    team = team_result("a", solo_records([2.0, 4.0, 6.0], wins=1), [], "enemies")
    assert (team.metric, team.metric_mean) == ("enemies", 4.0)
    assert team.metric_ci95 == mean_interval([2.0, 4.0, 6.0])
    by_wins = team_result("a", solo_records([2.0, 4.0, 6.0], wins=1), [], "win_rate")
    assert (by_wins.metric_mean, by_wins.metric_ci95) == (1 / 3, wilson_interval(1, 3))
    with pytest.raises(ValueError, match="best_metric 'medals' is not a stats"):
        team_result("a", solo_records([1.0]), [], "medals")


def test_cooperative_table_leads_with_the_best_metric_and_its_interval() -> None:
    teams = [
        team_result("trained", solo_records([6.0, 7.0, 8.0], wins=1), [], "enemies"),
        team_result("heuristic", solo_records([5.0], wins=0), [], "enemies"),
    ]
    table = result_tables([PlayerCountResult(1, "cooperative", teams=teams)])
    header, _, trained, heuristic = (
        [cell.strip() for cell in line.strip("|").split("|")] for line in table.splitlines()[1:5]
    )
    assert header[:6] == [
        "agent",
        "games",
        "mean enemies",
        "95% CI",
        "team win rate",
        "95% CI (win rate)",
    ]
    assert "mean enemies" not in header[6:]
    low, high = mean_interval([6.0, 7.0, 8.0])
    assert trained[:5] == ["trained", "3", "7.000", f"[{low:.3f}, {high:.3f}]", "0.333"]
    assert heuristic[:5] == ["heuristic", "1", "5.000", "-", "0.000"]  # one game: no interval


def test_win_rate_matrix_shows_draws_in_every_cell() -> None:
    pair = PairResult("a", "b", 10, 5, 3, 2, 0.5, (0.2, 0.8), 0.2, (0.05, 0.5))
    _, ax = plt.subplots()
    win_rate_matrix(ax, ["a", "b"], PlayerCountResult(2, "competitive", pairs=[pair]))
    assert sorted(text.get_text() for text in ax.texts) == ["0.20 / 0.30", "0.50 / 0.30"]
    assert "draw rate" in ax.get_ylabel()
    plt.close(ax.figure)


def test_team_bars_show_the_best_metric_with_the_win_rate_beside() -> None:
    teams = [
        team_result("trained", solo_records([6.0, 7.0, 8.0], wins=1), [], "enemies"),
        team_result("random", solo_records([0.0, 1.0, 2.0]), [], "enemies"),
    ]
    _, ax = plt.subplots()
    team_bars(ax, PlayerCountResult(1, "cooperative", teams=teams))
    assert [bar.get_height() for bar in ax.patches] == [7.0, 1.0]
    assert ax.get_ylabel() == "mean enemies (95% CI)"
    notes = "\n".join(text.get_text() for text in ax.texts)
    assert f"trained: win rate 0.333 [{wilson_interval(1, 3)[0]:.3f}" in notes
    plt.close(ax.figure)
