"""Game records: written as JSON lines, read back, and replayed by ``tabletop replay``."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from tabletop import envs
from tabletop.agents import make_agent
from tabletop.cli.main import main
from tabletop.cli.replay import ReplayDivergedError, replay
from tabletop.matches.records import (
    DecisionTiming,
    GameRecord,
    RecordError,
    append_records,
    play_record,
    read_records,
)

DECKS = {"decks": ("thief", "mage")}


def gold_and_dust_record(seed: int = 3) -> GameRecord:
    game = envs.make_game("gold_and_dust", **DECKS)
    agents = [make_agent("heuristic", "gold_and_dust", 1), make_agent("random", "gold_and_dust", 2)]
    return play_record(game, DECKS, seed, ["heuristic", "random"], agents)


def test_a_record_holds_the_whole_game() -> None:
    record = gold_and_dust_record()
    state = envs.make_game("gold_and_dust", **DECKS).new_state(seed=3)
    for action, text in zip(record.actions, record.action_texts, strict=True):
        assert state.action_to_string(action) == text
        state.apply(action)
    assert state.is_terminal()
    assert record.returns == tuple(state.returns())
    assert record.stats == {k: float(v) for k, v in state.stats().items()}
    assert (record.game, record.seed, record.seats) == ("gold_and_dust", 3, ("heuristic", "random"))


def test_records_survive_json_lines_with_tuple_options_and_timing(tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    first = gold_and_dust_record(3)
    second = replace(gold_and_dust_record(4), timing=(DecisionTiming(9, 0.5, 90), None))
    append_records(path, [first])
    append_records(path, [second])
    assert read_records(path) == [first, second]
    assert read_records(path)[0].options["decks"] == ("thief", "mage")


def test_a_file_that_is_not_records_is_refused_naming_the_line(tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    append_records(path, [gold_and_dust_record()])
    with path.open("a") as file:
        file.write("{not json\n")
    with pytest.raises(RecordError, match=r"games.jsonl, line 2: "):
        read_records(path)
    document = gold_and_dust_record().to_json()
    del document["actions"]
    path.write_text(json.dumps(document) + "\n")
    with pytest.raises(RecordError, match="line 1: a game record with a missing or malformed"):
        read_records(path)


def test_replay_prints_every_move_and_the_end(capsys: pytest.CaptureFixture[str]) -> None:
    record = gold_and_dust_record()
    state = replay(record)
    printed = capsys.readouterr().out
    assert state.is_terminal() and tuple(state.returns()) == record.returns
    assert printed.startswith("gold_and_dust (decks=('thief', 'mage')), seed 3\n")
    assert f"{len(record.actions):>4}. " in printed and "Game over." in printed
    for text in record.action_texts:
        assert f": {text}\n" in printed


def test_replay_stops_where_a_move_reads_differently() -> None:
    record = gold_and_dust_record()
    texts = list(record.action_texts)
    texts[5] = "something else"
    with pytest.raises(ReplayDivergedError, match="move 6: recorded as 'something else'"):
        replay(replace(record, action_texts=tuple(texts)))
    with pytest.raises(ReplayDivergedError, match="not over"):
        replay(replace(record, actions=record.actions[:-1], action_texts=record.action_texts[:-1]))
    with pytest.raises(ReplayDivergedError, match="the replay returns"):
        replay(replace(record, returns=(0.0, 0.0)))


def test_replay_command_picks_a_game_and_explains_bad_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "games.jsonl"
    append_records(path, [gold_and_dust_record(3), gold_and_dust_record(4)])
    assert main(["replay", str(path), "--game-index", "1"]) == 0
    assert capsys.readouterr().out.startswith("gold_and_dust (decks=('thief', 'mage')), seed 4")
    assert main(["replay", str(path), "--game-index", "2"]) == 2
    assert "holds 2 games: --game-index must be in 0..1" in capsys.readouterr().err
    not_records = tmp_path / "results.json"
    not_records.write_text(json.dumps({"game": "kaleva", "results": []}) + "\n")
    assert main(["replay", str(not_records)]) == 2
    assert "line 1: not a game record" in capsys.readouterr().err
    assert main(["replay", str(tmp_path / "missing.jsonl")]) == 2
    assert "no game-record file at" in capsys.readouterr().err


def test_eval_records_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib", reason="tabletop eval draws with the [train] extra")
    args = ["--agents", "heuristic", "--players", "2", "--games", "2", "--out", str(tmp_path)]
    assert main(["eval", "regicide", *args]) == 0
    capsys.readouterr()
    assert main(["replay", str(tmp_path / "games.jsonl"), "--game-index", "1"]) == 0
    printed = capsys.readouterr().out
    assert printed.startswith("regicide (num_players=2), seed 1\n")
    assert "player 0 (heuristic)" in printed and "Game over." in printed
