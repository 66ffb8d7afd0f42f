"""The ``tabletop`` command: play driven through its input (bench: tests/training/test_bench.py)."""

from __future__ import annotations

import re
import subprocess
import sys
from importlib.metadata import entry_points

import pytest

from tabletop.envs import names
from tabletop.training.bench import wilson_interval
from tabletop.training.cli import main, parse_option_value

MENU_LINE = re.compile(r"^\s+(\d+)\. (.+)$", re.MULTILINE)
MAX_ANSWERS = 5_000
"""Far more human turns than a game lasts: a loop guard, not a game rule."""


class ScriptedHuman:
    """Stands in for ``input``: reads the menu just printed and answers from a script.

    Scripted answers come first (``"<first>"``/``"<last-text>"`` pick from the menu, other
    strings are typed as they are); then it alternates menu numbers and move texts until
    the game ends, or raises ``EOFError`` once the script is used up if ``then_eof``.
    """

    def __init__(self, capsys: pytest.CaptureFixture[str], script: list[str], then_eof: bool):
        self.capsys = capsys
        self.script = list(script)
        self.then_eof = then_eof
        self.transcript = ""
        self.answers: list[str] = []

    def __call__(self, prompt: str = "") -> str:
        self.transcript += self.capsys.readouterr().out + prompt
        if len(self.answers) >= MAX_ANSWERS:
            raise AssertionError("the game did not end")
        if not self.script and self.then_eof:
            raise EOFError
        menu = MENU_LINE.findall(self.transcript.rpartition("Your legal moves")[2])
        planned = (
            self.script.pop(0) if self.script else ("<first>", "<last-text>")[len(self.answers) % 2]
        )
        answer = {"<first>": "1", "<last-text>": menu[-1][1]}.get(planned, planned)
        self.answers.append(answer)
        self.transcript += answer + "\n"
        return answer

    def output(self) -> str:
        return self.transcript + self.capsys.readouterr().out


def play(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    args: list[str],
    script: list[str],
    then_eof: bool = False,
) -> tuple[int, ScriptedHuman]:
    human = ScriptedHuman(capsys, script, then_eof)
    monkeypatch.setattr("builtins.input", human)
    return main(["play", *args]), human


def test_console_script_runs_cli_main() -> None:
    (script,) = entry_points(group="console_scripts", name="tabletop")
    assert script.value == "tabletop.training.cli:main"


@pytest.mark.parametrize(
    ("text", "value"), [("true", True), ("False", False), ("2", 2), ("0.5", 0.5), ("flat", "flat")]
)
def test_option_values_are_typed(text: str, value: object) -> None:
    assert parse_option_value(text) == value
    assert type(parse_option_value(text)) is type(value)


def test_wilson_interval_stays_in_range_and_is_symmetric_at_one_half() -> None:
    assert wilson_interval(0, 10)[0] == 0.0
    assert wilson_interval(10, 10)[1] == pytest.approx(1.0)
    low, high = wilson_interval(50, 100)
    assert low == pytest.approx(1 - high)
    assert low == pytest.approx(0.4038, abs=1e-4)


def test_play_takes_numbers_and_texts_reprompts_bad_input_and_finishes(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    script = ["no such move", "0", "999", "<first>", "<last-text>"]
    args = ["regicide", "--players", "2", "--seed", "3"]
    status, human = play(monkeypatch, capsys, args, script)
    output = human.output()
    assert status == 0
    assert "cannot read action 'no such move'" in output
    assert "There is no move number 0." in output
    assert "There is no move number 999." in output
    first_menu = MENU_LINE.findall(output.partition("Your legal moves")[2])
    played = re.findall(r"^You play: (.+)$", output, re.MULTILINE)
    assert played[0] == first_menu[0][1]
    assert played[1] == human.answers[4]
    assert "Game over." in output
    assert "enemies_defeated" in output


def test_play_shows_the_human_only_their_own_hand(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["regicide", "--players", "2", "--seat", "1", "--agents", "random", "--seed", "4"]
    _, human = play(monkeypatch, capsys, args, [], then_eof=True)
    assert re.search(r"^Player 0: \d+ cards", human.output(), re.MULTILINE)


def test_play_leaves_quietly_at_end_of_input(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status, human = play(monkeypatch, capsys, ["regicide", "--seed", "1"], ["<first>"], True)
    assert status == 0
    assert "Input closed; game abandoned." in human.output()


def test_play_reads_real_stdin_until_it_closes() -> None:
    command = "from tabletop.training.cli import main; raise SystemExit(main())"
    result = subprocess.run(
        [sys.executable, "-c", command, "play", "regicide", "--players", "3", "--seed", "2"],
        input="nonsense\n",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert "cannot read action 'nonsense'" in result.stdout
    assert "Input closed; game abandoned." in result.stdout
    assert "Traceback" not in result.stderr


def test_watch_lets_agents_play_every_seat_to_the_end(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "regicide", "--watch", "--players", "3", "--seed", "1"]) == 0
    output = capsys.readouterr().out
    for seat in range(3):
        assert f"player {seat}: heuristic" in output
    assert "Player 0 (heuristic) plays: " in output or "Player 1 (heuristic) plays: " in output
    assert "Your move" not in output
    assert "Game over." in output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["chess"], f"unknown game 'chess'; known games: {names()[0]}"),
        (["regicide", "--agents", "minimax"], "unknown agent 'minimax'"),
        (["regicide", "--agents", "random,random,random"], "3 agents for 1 seats"),
        (["regicide", "--seat", "2"], "--seat must be in 0..1"),
        (["regicide", "--players", "9"], "num_players must be 1-4"),
        (["regicide", "--option", "colour=red"], "unknown option(s) ['colour']"),
    ],
)
def test_play_reports_setup_mistakes_without_a_traceback(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    assert main(["play", *args]) == 2
    assert message in capsys.readouterr().err


def test_malformed_game_option_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["play", "regicide", "--option", "players"])
    assert exit_info.value.code == 2
    assert "expected key=value" in capsys.readouterr().err
