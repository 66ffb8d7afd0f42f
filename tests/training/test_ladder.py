"""The ladder: Elo ratings of rigged agents, timed decisions in the records, the command's
files, and bad input refused before a game is played."""

from __future__ import annotations

import json
import math
import random
from dataclasses import replace
from pathlib import Path

import pytest

pytest.importorskip("matplotlib", reason="needs the [train] extra")
from countdown_v0 import ResignAgent, TakeOneAgent

from tabletop.agents import RandomAgent
from tabletop.cli.ladder import ladder
from tabletop.cli.main import main
from tabletop.matches.elo import PRIOR_DRAWS, elo_ratings
from tabletop.matches.records import DecisionTiming, GameRecord, append_records, read_records
from tabletop.matches.schedules import pair_schedule, play_schedule
from tabletop.matches.standings import decision_time


def test_a_rigged_winner_rates_above_the_loser_with_intervals_apart(
    countdown: str, tmp_path: Path
) -> None:
    # start=5: an agent taking one at a time beats one that resigns, in every seat
    agents = {"loser": ResignAgent(), "random": RandomAgent(1), "winner": TakeOneAgent()}
    result = ladder(countdown, agents, games=20, out=tmp_path, options={"start": 5}, samples=200)
    elo = {rating.agent: rating for rating in result.ratings}
    assert result.ranked()[0] == "winner" and result.ranked()[-1] == "loser"
    assert result.anchor == "random" and (elo["random"].elo, elo["random"].ci95) == (0, (0, 0))
    assert elo["winner"].ci95[0] > elo["loser"].ci95[1]
    beats = result.matrix["winner"]["loser"]
    assert (beats.games, beats.wins) == (20, 20) and result.matrix["loser"]["winner"].losses == 20
    for agent in agents:
        time = result.times[agent]
        assert time.decisions > 0 and time.mean_ms is not None and time.p95_ms is not None


def game(seats: tuple[str, str], seed: int, first_scores: float) -> GameRecord:
    """A game of two agents in which ``seats[0]`` scores ``first_scores`` (1, 0.5 or 0)."""
    returns = {1.0: (1.0, -1.0), 0.5: (0.0, 0.0), 0.0: (-1.0, 1.0)}[first_scores]
    return GameRecord("g", {}, seed, seats, (), (), returns, {})


def test_elo_is_the_likelihood_maximum_with_its_prior_and_ignores_game_order() -> None:
    records = [game(("a", "b"), g, 1.0) for g in range(28)]
    records += [game(("b", "a"), g, 0.5) for g in range(4)]  # two points to a
    records += [game(("b", "a"), g, 1.0) for g in range(8)]
    a_points, b_points = 28 + 2 + PRIOR_DRAWS / 2, 2 + 8 + PRIOR_DRAWS / 2
    gap = 400 * math.log10(a_points / b_points)
    ratings = elo_ratings(records, ["a", "b"], samples=0)
    assert [(r.agent, r.elo) for r in ratings] == [
        ("a", pytest.approx(gap / 2)),
        ("b", pytest.approx(-gap / 2)),
    ]
    anchored = elo_ratings(records, ["a", "b"], anchor="b", samples=0)
    assert anchored[0].elo == pytest.approx(gap) and anchored[1].elo == 0
    records += [game(("c", "a"), g, 0.0) for g in range(6)] + [game(("b", "c"), 0, 0.5)]
    labels = ["a", "b", "c"]
    for reordered in (records[::-1], random.Random(1).sample(records, len(records))):
        assert elo_ratings(reordered, labels, seed=5) == elo_ratings(records, labels, seed=5)


def test_an_interval_is_wide_after_few_games_even_when_all_were_won() -> None:
    few = elo_ratings([game(("a", "b"), g, 1.0) for g in range(4)], ["a", "b"], anchor="b")
    many = elo_ratings([game(("a", "b"), g, 1.0) for g in range(400)], ["a", "b"], anchor="b")
    assert few[0].ci95[0] < few[0].elo - 200  # four won games say little
    assert many[0].ci95[0] > few[0].elo


def test_the_gap_to_the_next_agent_has_an_interval_that_does_not_depend_on_the_anchor() -> None:
    """a wins 11 of 20 against b, and each beats r in all of theirs: relative to r, a's
    interval rides on r's one virtual draw; the a-b gap's spans 0 whatever the anchor."""
    records = [game(("a", "b"), g, float(g % 2 == 0 or g == 1)) for g in range(20)]
    records += [game((x, "r"), g, 1.0) for x in ("a", "b") for g in range(20)]
    anchored = elo_ratings(records, ["a", "b", "r"], anchor="r", samples=400)
    free = elo_ratings(records, ["a", "b", "r"], samples=400)
    for with_anchor, without in zip(anchored, free, strict=True):
        assert with_anchor.agent == without.agent
        if without.gap_to_next is None:
            assert with_anchor.gap_to_next is None and with_anchor.gap_ci95 is None
            continue
        assert with_anchor.gap_to_next == pytest.approx(without.gap_to_next)
        assert with_anchor.gap_ci95 == pytest.approx(without.gap_ci95, abs=1e-6)
    top, second, last = anchored
    assert top.gap_to_next == pytest.approx(top.elo - second.elo)
    assert top.gap_ci95[0] < 0 < top.gap_ci95[1]
    assert second.gap_ci95[0] > 0 and last.agent == "r"


def test_timed_games_keep_every_decision_and_the_same_moves() -> None:
    schedule = pair_schedule("random", "heuristic", 2, 2, seed=3)
    agents = {"random": "random", "heuristic": "heuristic"}
    plain = play_schedule("kaleva", {}, agents, schedule)
    timed = play_schedule("kaleva", {}, agents, schedule, workers=2, timed=True)
    assert [r.actions for r in timed] == [r.actions for r in plain]
    assert all(r.timing == () for r in plain)
    for record in timed:
        assert sum(t.decisions for t in record.timing) == len(record.actions)
        assert all(len(t.seconds_each) == t.decisions for t in record.timing)
    times = [decision_time(agent, timed) for agent in agents]
    assert sum(time.decisions for time in times) == sum(len(r.actions) for r in timed)
    assert all(time.p95_ms is not None and time.p95_ms >= 0 for time in times)


def test_decision_time_without_each_decision_has_no_percentile(tmp_path: Path) -> None:
    old = game(("a", "b"), 0, 1.0).to_json()
    old["timing"] = [{"decisions": 4, "seconds": 0.02, "iterations": 0}, None]
    path = tmp_path / "old.jsonl"
    path.write_text(json.dumps(old) + "\n")
    (record,) = read_records(path)  # a record written before each decision was kept
    assert record.timing[0] == DecisionTiming(4, 0.02, 0)
    time = decision_time("a", [record])
    assert (time.decisions, time.mean_ms, time.p95_ms) == (4, pytest.approx(5.0), None)
    assert decision_time("b", [record]).mean_ms is None
    each = replace(record, timing=(DecisionTiming(2, 0.003, 0, (0.001, 0.002)), None))
    assert decision_time("a", [each]).p95_ms == pytest.approx(1.95)


def test_ladder_command_writes_json_markdown_png_and_records(tmp_path: Path, capsys) -> None:
    argv = ["ladder", "kaleva", "--agents", "random,heuristic", "--games", "4"]
    assert main([*argv, "--workers", "1", "--out", str(tmp_path)]) == 0
    printed = capsys.readouterr().out
    document = json.loads((tmp_path / "ladder.json").read_text())
    assert document["mode"] == "competitive" and set(document["agents"]) == {"random", "heuristic"}
    assert document["command"].startswith("tabletop ladder kaleva --agents random,heuristic")
    assert document["settings"]["games"] == 4 and "commit" in document
    assert document["started"] <= document["date"], "the games begin before the ladder is written"
    cell = document["win_matrix"]["heuristic"]["random"]
    assert cell["games"] == 4 and cell["wins"] + cell["draws"] + cell["losses"] == 4
    assert document["win_matrix"]["random"]["heuristic"]["wins"] == cell["losses"]
    assert {r["agent"] for r in document["ratings"]} == {"random", "heuristic"}
    assert document["decision_time"]["heuristic"]["decisions"] > 0
    table = (tmp_path / "ladder.md").read_text()
    assert table in printed and "| rank | agent" in table and "vs heuristic" in table
    assert (tmp_path / "ladder.png").read_bytes()[:4] == b"\x89PNG"
    records = read_records(tmp_path / "games.jsonl")
    assert len(records) == 4 and all(len(r.timing) == 2 for r in records)

    (tmp_path / "ladder.md").unlink()
    assert main(["ladder", "kaleva", "--recount", str(tmp_path)]) == 0
    recounted = json.loads((tmp_path / "ladder.json").read_text())
    for key in ("ratings", "win_matrix", "decision_time", "command", "commit", "started", "date"):
        assert recounted[key] == document[key], key
    assert "commit" in recounted["recounted"] and (tmp_path / "ladder.md").read_text() == table
    assert len(read_records(tmp_path / "games.jsonl")) == 4, "a recount plays nothing"


def test_a_recount_is_refused_without_a_ladder_or_with_agents(tmp_path: Path, capsys) -> None:
    assert main(["ladder", "kaleva", "--recount", str(tmp_path)]) == 2
    assert "no ladder there" in capsys.readouterr().err
    assert main(["ladder", "kaleva", "--recount", str(tmp_path), "--agents", "random"]) == 2
    assert "takes its agents from" in capsys.readouterr().err
    assert main(["ladder", "kaleva"]) == 2
    assert "--agents is required" in capsys.readouterr().err


def test_an_agent_joins_a_ladder_playing_only_its_own_pairs(tmp_path: Path, capsys) -> None:
    """The first games stay as they were; the newcomer plays each agent on the ladder's
    deals; the figures count every game, and a recount keeps the extension's record."""
    argv = ["ladder", "kaleva", "--agents", "random,heuristic", "--games", "4", "--seed", "70"]
    assert main([*argv, "--out", str(tmp_path)]) == 0
    first = (tmp_path / "games.jsonl").read_text()
    newcomer = "ismcts:iterations=2"
    assert main(["ladder", "kaleva", "--agents", newcomer, "--extend", str(tmp_path)]) == 0
    assert (tmp_path / "games.jsonl").read_text().startswith(first)
    records = read_records(tmp_path / "games.jsonl")
    joined = [record for record in records if newcomer in record.seats]
    assert len(records) == 12 and len(joined) == 8
    assert sorted(record.seed for record in joined) == [70] * 4 + [71] * 4
    document = json.loads((tmp_path / "ladder.json").read_text())
    assert set(document["agents"]) == {"random", "heuristic", newcomer}
    assert document["win_matrix"][newcomer]["random"]["games"] == 4
    assert document["win_matrix"]["heuristic"]["random"]["games"] == 4
    assert document["command"].startswith("tabletop ladder kaleva --agents random,heuristic")
    (extension,) = document["extensions"]
    assert extension["agents"] == [newcomer] and "commit" in extension
    assert extension["command"].startswith(f"tabletop ladder kaleva --agents {newcomer} --extend")
    assert main(["ladder", "kaleva", "--recount", str(tmp_path)]) == 0
    recounted = json.loads((tmp_path / "ladder.json").read_text())
    assert recounted["extensions"] == document["extensions"]
    assert recounted["ratings"] == document["ratings"]
    capsys.readouterr()


def test_joining_a_ladder_is_refused_when_it_cannot_be_counted_as_asked(
    tmp_path: Path, capsys
) -> None:
    argv = ["ladder", "kaleva", "--agents", "random,heuristic", "--games", "2"]
    assert main([*argv, "--out", str(tmp_path)]) == 0
    before = (tmp_path / "games.jsonl").read_text()
    stray = read_records(tmp_path / "games.jsonl")[0]
    refused = {
        ("--agents", "heuristic"): "already in the ladder: heuristic",
        ("--agents", "Heuristic"): "already in the ladder: Heuristic",
        ("--agents", "ismcts:iterations=2", "--games", "8"): "--extend takes --games from DIR",
        ("--agents", "ismcts:iterations=2", "--recount", str(tmp_path)): "one at a time",
        ("--agents", "minimax"): "unknown agent 'minimax'",
    }
    for flags, message in refused.items():
        assert main(["ladder", "kaleva", *flags, "--extend", str(tmp_path)]) == 2
        assert message in capsys.readouterr().err, flags
    assert main(["ladder", "hkk", "--agents", "random", "--extend", str(tmp_path)]) == 2
    assert "holds a ladder of kaleva, not of hkk" in capsys.readouterr().err
    assert (tmp_path / "games.jsonl").read_text() == before, "nothing was played"
    append_records(tmp_path / "games.jsonl", [replace(stray, seats=("random", "ismcts"))])
    assert main(["ladder", "kaleva", "--agents", "ismcts", "--extend", str(tmp_path)]) == 2
    assert "already holds games of ismcts" in capsys.readouterr().err


def test_a_cooperative_ladder_ranks_by_the_best_metric_without_a_matrix(tmp_path: Path) -> None:
    argv = ["ladder", "regicide", "--agents", "random,heuristic", "--games", "3"]
    assert main([*argv, "--players", "1", "--out", str(tmp_path)]) == 0
    document = json.loads((tmp_path / "ladder.json").read_text())
    assert document["mode"] == "cooperative" and "win_matrix" not in document
    means = [team["metric_mean"] for team in document["teams"]]
    assert means == sorted(means, reverse=True) and len(means) == 2
    assert "mean enemies_defeated [95% CI]" in (tmp_path / "ladder.md").read_text()
    assert (
        main(["ladder", "regicide", "--agents", "ismcts:iterations=2", "--extend", str(tmp_path)])
        == 0
    )
    records = read_records(tmp_path / "games.jsonl")
    assert [record.seats for record in records[6:]] == [("ismcts:iterations=2",)] * 3
    document = json.loads((tmp_path / "ladder.json").read_text())
    assert len(records) == 9 and len(document["teams"]) == 3


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["kaleva", "--agents", "random,minimax"], "unknown agent 'minimax'"),
        (["kaleva", "--agents", "heuristic"], "a ladder needs at least two agents, got 1"),
        (["kaleva", "--agents", "random,heuristic", "--games", "0"], "--games must be at least 1"),
        (["kaleva", "--agents", "random,heuristic", "--option", "foo=1"], "unknown option(s)"),
        (["kaleva", "--agents", "random,random"], "names an agent twice"),
        (
            ["kaleva", "--agents", "ismcts:iterations=2,c=1,ISMCTS:c=1, iterations=2"],
            "names an agent twice",
        ),
    ],
)
def test_bad_input_is_refused_before_a_game_is_played(
    tmp_path: Path, capsys, arguments: list[str], message: str
) -> None:
    out = tmp_path / "ladder"
    assert main(["ladder", *arguments, "--out", str(out)]) == 2
    assert message in capsys.readouterr().err
    assert not out.exists()
