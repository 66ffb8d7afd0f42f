"""``tabletop search``: its games, its log of game records and its report."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tabletop.cli.main import main
from tabletop.cli.search import Setting, measured_seat, report, won
from tabletop.matches.records import read_records


def test_the_game_must_be_named(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["search", "--agent", "random", "--games", "1"]) == 2
    assert "--game is required; registered games: " in capsys.readouterr().err


def test_search_is_a_listed_subcommand(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "search" in capsys.readouterr().out


def test_the_log_reports_what_the_run_printed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "games.jsonl"
    args = ["search", "--game", "regicide", "--players", "1", "--agent", "heuristic"]
    assert main([*args, "--games", "3", "--seed", "5", "--log", str(log)]) == 0
    printed = capsys.readouterr().out
    records = read_records(log)
    assert sorted(record.seed for record in records) == [5, 6, 7]
    assert all(measured_seat(record) is None for record in records)
    assert all(record.timing[0].decisions == len(record.actions) for record in records)
    assert {Setting.of(record) for record in records} == {
        Setting("regicide", (("num_players", 1),), "heuristic")
    }
    assert printed.strip() == report(records).strip()
    assert main(["search", "--report", str(log)]) == 0
    assert capsys.readouterr().out == printed


def test_a_search_counts_its_iterations_per_decision(tmp_path: Path) -> None:
    log = tmp_path / "games.jsonl"
    args = ["search", "--game", "regicide", "--players", "1", "--agent", "ismcts:iterations=5"]
    main([*args, "--games", "1", "--log", str(log)])
    ((timing,),) = [record.timing for record in read_records(log)]
    assert timing.iterations == 5 * timing.decisions


def test_against_an_opponent_each_seed_is_played_from_every_seat(tmp_path: Path) -> None:
    log = tmp_path / "games.jsonl"
    args = ["search", "--game", "kaleva", "--agent", "heuristic", "--opponent", "random"]
    main([*args, "--seed", "40", "--games", "2", "--log", str(log)])
    records = read_records(log)
    assert sorted((record.seed, measured_seat(record)) for record in records) == [
        (40, 0),
        (40, 1),
        (41, 0),
        (41, 1),
    ]
    for record in records:
        seat = measured_seat(record)
        assert record.seats[seat] == "heuristic" and record.seats[1 - seat] == "random"
        assert record.timing[1 - seat] is None
    assert sum(won(record) for record in records) >= 3  # the heuristic beats random ~99%


def test_the_report_refuses_records_that_measured_no_seat(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("openskill", reason="tabletop eval rates with the [train] extra")
    log = tmp_path / "games.jsonl"
    main(["eval", "kaleva", "--games", "2", "--out", str(tmp_path)])
    capsys.readouterr()
    assert main(["search", "--report", str(log)]) == 2
    refusal = "measured the seats of 2 different agents (heuristic, random): not a record of"
    assert refusal in capsys.readouterr().err
    untimed = [{**json.loads(line), "timing": []} for line in log.read_text().splitlines()]
    log.write_text("".join(json.dumps(record) + "\n" for record in untimed))
    assert main(["search", "--report", str(log)]) == 2
    assert "measured no seat: not a record of tabletop search" in capsys.readouterr().err
    log.write_text(json.dumps({"seed": 1}) + "\n")
    assert main(["search", "--report", str(log)]) == 2
    assert "line 1: not a game record" in capsys.readouterr().err
