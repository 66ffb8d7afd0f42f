"""``python -m tabletop.training.search_bench``: its games, its log and its report."""

from __future__ import annotations

import pytest

from tabletop.training.search_bench import main, read_logs, report


def test_the_game_must_be_named(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--agent", "random", "--games", "1"])
    assert exit_info.value.code == 2
    assert "--game is required; registered games: " in capsys.readouterr().err


def test_the_log_reports_what_the_run_printed(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "games.jsonl"
    args = ["--game", "regicide", "--players", "1", "--agent", "heuristic"]
    main([*args, "--games", "3", "--seed", "5", "--log", str(log)])
    printed = capsys.readouterr().out
    records = read_logs([str(log)])
    assert sorted(record.seed for record in records) == [5, 6, 7]
    assert all(record.decisions > 0 and record.seat is None for record in records)
    assert printed.strip() == report(records).strip()
    main(["--report", str(log)])
    assert capsys.readouterr().out == printed


def test_a_search_counts_its_iterations_per_decision(tmp_path) -> None:
    log = tmp_path / "games.jsonl"
    args = ["--game", "regicide", "--players", "1", "--agent", "ismcts:iterations=5"]
    main([*args, "--games", "1", "--log", str(log)])
    (record,) = read_logs([str(log)])
    assert record.iterations == 5 * record.decisions


def test_against_an_opponent_each_seed_is_played_from_every_seat(tmp_path) -> None:
    log = tmp_path / "games.jsonl"
    args = ["--game", "kaleva", "--agent", "heuristic", "--opponent", "random", "--seed", "40"]
    main([*args, "--games", "2", "--log", str(log)])
    records = read_logs([str(log)])
    assert sorted((record.seed, record.seat) for record in records) == [
        (40, 0),
        (40, 1),
        (41, 0),
        (41, 1),
    ]
    assert sum(record.won for record in records) >= 3  # the heuristic beats random ~99%
