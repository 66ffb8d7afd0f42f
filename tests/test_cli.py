"""The ``tabletop`` command: play driven through its input, the games table and game info
(bench: tests/training/test_bench.py; search and replay: tests/training)."""

from __future__ import annotations

import re
import subprocess
import sys
from importlib.metadata import entry_points
from pathlib import Path

import pytest

pytest.importorskip("sb3_contrib", reason="needs the [train] extra")
from sb3_contrib import MaskablePPO

from tabletop.agents import AGENT_KINDS
from tabletop.cli.evaluate import PROGRESS_EVERY_S, Progress
from tabletop.cli.main import SUBCOMMANDS, build_parser, main
from tabletop.cli.options import game_options
from tabletop.cli.play import Seat
from tabletop.cli.play import play as play_table
from tabletop.envs import make, make_game, names
from tabletop.envs import spec as game_spec
from tabletop.envs.core.options import parse_option_value
from tabletop.envs.core.protocol import TERMINAL, Event
from tabletop.envs.core.spec import ENV_OPTIONS
from tabletop.matches.records import GameRecord
from tabletop.matches.results import wilson_interval
from tabletop.wrappers import SingleAgentEnv

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
    assert script.value == "tabletop.cli.main:main"


@pytest.mark.parametrize(
    ("text", "value"), [("true", True), ("False", False), ("2", 2), ("0.5", 0.5), ("flat", "flat")]
)
def test_option_values_are_typed(text: str, value: object) -> None:
    assert parse_option_value(text) == value
    assert type(parse_option_value(text)) is type(value)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("warrior,mage", ("warrior", "mage")),
        ("1, 2.5 ,TRUE", (1, 2.5, True)),
        ("warrior,", ("warrior",)),
        ("decks/my deck.toml", "decks/my deck.toml"),
    ],
)
def test_a_comma_makes_an_option_a_tuple_of_typed_items(text: str, value: object) -> None:
    assert parse_option_value(text) == value
    assert [type(item) for item in parse_option_value(text)] == [type(item) for item in value]


def test_game_options_from_the_command_line_carry_tuples() -> None:
    args = build_parser().parse_args(
        ["play", "gold_and_dust", "--option", "decks=warrior,mage", "--option", "deck=a/b.toml"]
    )
    assert game_options(args) == {"decks": ("warrior", "mage"), "deck": "a/b.toml"}


def test_an_empty_item_in_an_option_list_is_a_usage_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["play", "regicide", "--option", "decks=warrior,,mage"])
    assert exit_info.value.code == 2
    assert "decks: empty item in the list 'warrior,,mage'" in capsys.readouterr().err


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


@pytest.mark.parametrize("game", names())
def test_play_refuses_odd_answers_clearly_in_every_game(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], game: str
) -> None:
    """Regression: ``²`` (a digit to ``str.isdigit``) and a 5,000-digit number crashed
    ``parse_move`` in ``int()``; an empty line was answered "no action is written ''"; a
    1 MB line was refused and quoted back whole."""
    long_line = "x" * 1_000_000
    script = ["\u00b2", "9" * 5_000, "", long_line, "place \u00b2 a", "<first>"]
    status, human = play(monkeypatch, capsys, [game, "--seed", "7"], script, then_eof=True)
    output = human.output().replace(long_line, "<typed>").replace("9" * 5_000, "<typed>")
    assert status == 0
    assert "Traceback" not in output
    assert "No move was typed." in output
    assert "That answer is 5,000 characters long" in output
    assert "That answer is 1,000,000 characters long" in output
    assert max(len(line) for line in output.splitlines()) < 400
    assert output.count("Enter a number 1-") == 5
    assert "You play: " in output


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
    command = "from tabletop.cli.main import main; raise SystemExit(main())"
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
    args = ["play", "regicide", "--watch", "--players", "3", "--seed", "1", "--pace", "0"]
    assert main(args) == 0
    output = capsys.readouterr().out
    for seat in range(3):
        assert f"player {seat}: heuristic" in output
    assert re.search(r"^  Player [012] plays ", output, re.MULTILINE)
    assert not re.search(r"^player [012] \(heuristic\): play ", output, re.MULTILINE)  # once
    assert "Your move" not in output
    assert "Game over." in output


def test_watch_waits_its_pace_after_each_move_told(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Regression: --watch printed a whole game in two seconds. It waits one second a move
    by default, --pace seconds when given; a human's game waits only when asked."""
    waits: list[float] = []
    monkeypatch.setattr("tabletop.cli.play.time.sleep", waits.append)
    watch = ["play", "kaleva", "--watch", "--seed", "1"]
    assert main(watch) == 0
    assert len(waits) > 10 and set(waits) == {1.0}
    waits.clear()
    assert main([*watch, "--pace", "0.25"]) == 0
    assert len(waits) > 10 and set(waits) == {0.25}
    waits.clear()
    play(monkeypatch, capsys, ["kaleva", "--seed", "1"], ["<first>"] * 3, then_eof=True)
    assert waits == []
    assert main([*watch, "--pace", "-1"]) == 2
    assert "--pace must be 0 or more seconds, got -1.0" in capsys.readouterr().err


GEMS = ("ruby", "opal", "jade")


class GemGame:
    """A fake two-player game whose moves are secret: each player in turn hides a gem."""

    name = "gems"
    num_players = 2
    num_actions = len(GEMS)

    def player_name(self, seat: int) -> str:
        return ("North", "South")[seat]

    def help_text(self) -> str:
        return "Gems: hide one gem a turn; the others see only that you hid one."


class GemState:
    """Two turns each; the texts and events name the gem only for its owner (or None)."""

    def __init__(self) -> None:
        self.game = GemGame()
        self.hidden: list[tuple[int, int]] = []  # (player, gem)

    @property
    def current_player(self) -> int:
        return TERMINAL if self.is_terminal() else len(self.hidden) % 2

    def is_terminal(self) -> bool:
        return len(self.hidden) == 4

    def legal_actions(self) -> list[int]:
        return [] if self.is_terminal() else list(range(len(GEMS)))

    def _sees(self, observer: int | None, player: int) -> bool:
        return observer is None or observer == player

    def action_to_string(self, action: int, observer: int | None = None) -> str:
        mover = self.current_player
        if self._sees(observer, mover):
            return f"hide {GEMS[action]}"
        return f"{self.game.player_name(mover)} hides a gem"

    def string_to_action(self, text: str) -> int:
        return GEMS.index(text.removeprefix("hide "))

    def apply(self, action: int) -> None:
        self.hidden.append((self.current_player, action))

    def last_events(self, observer: int | None = None) -> list[Event]:
        player, gem = self.hidden[-1]
        shown = GEMS[gem] if self._sees(observer, player) else "a gem"
        return [Event("gem_hidden", f"{self.game.player_name(player)} hid {shown}")]

    def render(self, observer: int | None = None) -> str:
        lines = []
        for player in range(2):
            gems = " ".join(GEMS[gem] for owner, gem in self.hidden if owner == player)
            shown = gems if self._sees(observer, player) else "?"
            lines.append(f"{self.game.player_name(player)}: {shown}")
        return "\n".join(lines)


class Hides:
    """An agent that always hides the same gem."""

    def __init__(self, gem: str) -> None:
        self.gem = GEMS.index(gem)

    def reset(self) -> None:
        pass

    def act(self, state: GemState, player: int) -> int:
        return self.gem


def test_play_tells_the_human_other_players_moves_and_events_only_as_they_may_know_them(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    answers = iter(["help", "1", "hide opal"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    assert play_table(GemState(), [Seat("agent", Hides("jade")), Seat("you", None)], human=1)
    output = capsys.readouterr().out
    assert "player 0 (North, agent):" not in output  # its events tell its moves, once
    assert re.findall(r"^  North hid (.*)$", output, re.MULTILINE) == ["a gem"] * 2
    assert "North: ?" in output and "North: jade" not in output
    assert "You play: hide ruby\n  South hid ruby" in output
    assert "You play: hide opal\n  South hid opal" in output


class PausingGemState(GemState):
    """North first pauses over a hidden choice that tells South nothing (as Kaleva's Tuuri
    decision does), then hides its gem."""

    def __init__(self) -> None:
        super().__init__()
        self.paused = False

    def apply(self, action: int) -> None:
        if self.current_player == 0 and not self.paused:
            self.paused = True
            return
        self.paused = False
        super().apply(action)

    def last_events(self, observer: int | None = None) -> list[Event]:
        return [] if self.paused else super().last_events(observer)


def test_play_does_not_announce_a_decision_that_told_the_human_nothing(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Announcing North's pause would tell South that North faced a hidden choice."""
    answers = iter(["1", "1"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    seats = [Seat("agent", Hides("jade")), Seat("you", None)]
    assert play_table(PausingGemState(), seats, human=1)
    output = capsys.readouterr().out
    assert "player 0 (North, agent)" not in output
    assert output.count("  North hid a gem") == 2


def test_play_names_the_humans_seat_and_help_explains_the_game_and_how_to_answer(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    answers = iter(["HELP", "1", "1"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    play_table(GemState(), [Seat("random", Hides("opal")), Seat("you", None)], human=1)
    output = capsys.readouterr().out
    assert "Seats: player 0 (North): random, player 1 (South): you" in output
    assert "You are player 1 (South)." in output
    assert "Your legal moves (player 1 (South)):" in output
    assert GemGame().help_text() in output
    assert "type a move's number from the list, or its text" in output
    assert "Ctrl-D (end of input) leaves the game" in output


def test_watching_tells_every_move_and_event_in_full(capsys: pytest.CaptureFixture[str]) -> None:
    seats = [Seat("a", Hides("jade")), Seat("b", Hides("ruby"))]
    assert play_table(GemState(), seats, human=None)
    output = capsys.readouterr().out
    assert output.count("\n  North hid jade\n") == 2
    assert output.count("\n  South hid ruby\n") == 2
    assert "hide jade" not in output  # an agent's move is told by its events, once
    assert "South: ruby ruby" in output  # the spectator's picture shows everything


def test_watching_tells_a_decision_without_events_by_its_text(
    capsys: pytest.CaptureFixture[str],
) -> None:
    seats = [Seat("a", Hides("jade")), Seat("b", Hides("ruby"))]
    assert play_table(PausingGemState(), seats, human=None)
    output = capsys.readouterr().out
    assert output.count("player 0 (North, a): hide jade\n") == 2  # the pauses
    assert output.count("\n  North hid jade\n") == 2


def test_play_tells_the_human_where_kaleva_cards_are_laid_but_not_which(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """KV-2.2: the human at Bronze is told the column of each card Silver lays face down,
    never the card; a spectator (--watch) is told the card."""
    args = ["kaleva", "--seat", "1", "--agents", "heuristic", "--seed", "1"]
    _, human = play(monkeypatch, capsys, args, ["<first>"] * 5, then_eof=True)
    output = human.output()
    assert "You are player 1 (Bronze)." in output  # the game's own name for the seat
    events = re.findall(r"^  (Silver places .*)$", output, re.MULTILINE)
    assert events[:6] == [f"Silver places a card on {column}" for column in "abcdef"]
    assert "player 0 (Silver, heuristic):" not in output  # told by its events, once

    assert main(["play", "kaleva", "--watch", "--seed", "1", "--pace", "0"]) == 0
    watched = re.findall(r"^  Silver places (.*)$", capsys.readouterr().out, re.M)
    assert all(re.fullmatch(r"\d+ on [a-f]", text) for text in watched[:6])


DESCRIPTION = re.compile(r"^  ([^:\n]+): .*\bcosts\b", re.MULTILINE)
CARD_BLOCK = re.compile(r"^(New cards|Cards you can see):\n((?:  .*\n)+)", re.MULTILINE)


@pytest.mark.parametrize("game", ["hkk", "kult"])
def test_play_describes_each_card_the_seat_can_see_once_and_no_other(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], game: str
) -> None:
    """Regression: Kult and HKK showed no card's cost or text. Each card is described, from
    the card data, the first time it shows in the seat's picture, moves or events; 'cards'
    lists every card the seat can see. No other card is described (the other seat's hand
    would leak)."""
    args = [game, "--seed", "7", "--agents", "random"]
    _, human = play(monkeypatch, capsys, args, ["cards", *["<first>"] * 12], then_eof=True)
    output = human.output()
    assert "'cards' for the cards you can see" in output
    blocks = CARD_BLOCK.findall(output)
    new = [DESCRIPTION.findall(block) for title, block in blocks if title == "New cards"]
    listed = [DESCRIPTION.findall(block) for title, block in blocks if title != "New cards"]
    described = [name for names in new for name in names]
    assert described and len(described) == len(set(described))  # each once
    assert listed == [new[0]]  # 'cards' at the first decision: what it had just been shown
    lines = make_game(game).card_descriptions()
    assert all(f"  {lines[name]}\n" in output for name in described)
    told = CARD_BLOCK.sub("", output)
    for name in described:
        assert re.search(rf"(?<!\w){re.escape(name)}(?!\w)", told), name


def test_hkk_play_tells_each_move_once_with_its_damage_and_the_seats_own_draws(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Regression: an agent's move was printed as its text, as its event and again in the
    picture's "Last:" lines; draws read "draws 1 card(s)"; no attack said its damage. The
    seat is told the cards it draws, the other seat's draws only as a count (HK-11.1)."""
    args = ["hkk", "--seed", "7", "--agents", "heuristic"]
    _, human = play(monkeypatch, capsys, args, ["<first>"] * 60, then_eof=True)
    output = human.output()
    assert "player 1 (heuristic):" not in output
    events = re.findall(r"^  (Player .*)$", output, re.MULTILINE)
    assert events and not any(f"Last: {event}" in output for event in events)
    assert "card(s)" not in output
    assert re.search(r"^  Player 0 draws (?!a card|\d+ cards)\w", output, re.MULTILINE)
    assert re.search(r"^  Player 1 draws (a card|\d+ cards)$", output, re.MULTILINE)
    assert not re.search(r"^  Player 1 draws (?!a card|\d+ cards)", output, re.MULTILINE)
    assert re.search(r"^  Player \d's #\d+ .+ deals (\d+|no) damage to ", output, re.MULTILINE)


def test_hkk_help_explains_vp_and_the_damage_life_figures(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _, human = play(monkeypatch, capsys, ["hkk", "--seed", "7"], ["help"], then_eof=True)
    output = human.output()
    assert "VP are your magic points" in output
    assert "#position Name damage/life" in output
    assert "it\ndeals 4 damage when it strikes and has 3 life" in output
    assert "'cards' lists the cost and text of every card you can see." in output


def test_kult_first_picture_lists_no_last_moves(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Regression: before anyone had moved, Kult's picture listed the deal's forced moves
    as "Last moves"."""
    _, human = play(monkeypatch, capsys, ["kult", "--seed", "7"], [], then_eof=True)
    assert "Last moves" not in human.output()
    state = make_game("kult").new_state(seed=7)
    assert "Last moves" not in state.render(0)
    state.apply(state.legal_actions()[0])
    assert "Last moves" in state.render(0)


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


def test_play_help_lists_every_kind_of_agent(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    shown = "".join(capsys.readouterr().out.split())  # argparse wraps lines anywhere

    def listed(text: str) -> bool:
        return "".join(text.split()) in shown

    assert all(listed(kind.usage) for kind in AGENT_KINDS.values())
    assert listed(
        "ismcts[:iterations=...,seconds=...,c=...,rollout=...,reuse=...,depth=...,prior=...]"
    )
    assert listed("PATH (a saved policy: a .pt file or a training run directory)")


def test_play_refuses_a_missing_empty_or_wrong_policy_file_with_the_reason(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    def error_of(spec: str) -> str:
        assert main(["play", "regicide", "--agents", spec]) == 2
        return capsys.readouterr().err

    assert "no policy file or run directory at nowhere/p.pt" in error_of("nowhere/p.pt")
    assert "no policy file or run directory at gone" in error_of("policy:gone")
    (tmp_path / "empty.pt").touch()
    assert "empty.pt is empty, not a policy file" in error_of(str(tmp_path / "empty.pt"))
    env = SingleAgentEnv(make("regicide"), None, cooperative=True)
    MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=64).save(tmp_path / "checkpoint.zip")
    error = error_of(str(tmp_path / "checkpoint.zip"))
    assert f"pass its run directory ({tmp_path}) or the best_policy.pt in it" in error
    assert "Traceback" not in error


def test_malformed_game_option_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["play", "regicide", "--option", "players"])
    assert exit_info.value.code == 2
    assert "expected key=value" in capsys.readouterr().err


def test_help_lists_every_subcommand(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    shown = capsys.readouterr().out
    for command in ("play", "bench", "train", "eval", "search", "replay", "games", "info"):
        assert re.search(rf"^\s+{command}\s", shown, re.MULTILINE), command


def table_rows(text: str) -> list[list[str]]:
    """The cells of a printed table's body rows (after the header and its rule)."""
    lines = [line for line in text.splitlines() if line.startswith("|")]
    return [[cell.strip() for cell in line.strip("|").split("|")] for line in lines[2:]]


def test_games_lists_every_registered_game_from_its_spec(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["games"]) == 0
    rows = {row[0]: row for row in table_rows(capsys.readouterr().out)}
    assert sorted(rows) == names()
    for name, (_, env_name, title, players, payoff, actions, chance, hidden) in rows.items():
        spec = game_spec(name)
        assert (env_name, title, payoff) == (spec.env_name, spec.title, spec.payoff.value)
        assert int(actions) == spec.new_game().num_actions
        assert (chance, hidden) == tuple(
            "yes" if flag else "no" for flag in (spec.chance, spec.hidden_information)
        )
        assert players.startswith(str(spec.min_players))
    assert rows["regicide"][3:5] == ["1-4 (default 2)", "identical"]
    assert rows["kaleva"][3:5] == ["2", "zero-sum"]


def test_info_shows_the_spec_of_a_configured_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["info", "regicide", "--players", "4"]) == 0
    shown = capsys.readouterr().out
    spec = game_spec("regicide")
    game = spec.new_game(num_players=4)
    assert "players: 1-4 (default 2)" in shown
    assert "payoff: identical (one team)" in shown
    assert f"actions: {game.num_actions} (with options: num_players=4)" in shown
    assert f"max_plies: {spec.max_plies}" in shown
    for name, encoder in spec.encoders.items():
        assert f"| {name} " in shown
        assert re.search(
            rf"\| {name}\s+\| {encoder.version}\s+\| \({encoder.shape(game)[0]},", shown
        )
    for option in spec.option_specs:
        assert re.search(
            rf"\| {option.name}\s+\| {option.default}\s+\| {re.escape(option.help)}", shown
        )
    assert "bench settings:\n  num_players=1\n  num_players=2" in shown


def test_info_writes_tuple_options_as_the_command_line_takes_them(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["info", "gold_and_dust"]) == 0
    shown = capsys.readouterr().out
    assert re.search(r"\| decks\s+\| warrior,mage\s+\|", shown)
    assert "  decks=thief,thief\n" in shown
    assert "payoff: zero-sum (seats play against each other)" in shown


def test_info_refuses_unknown_games_and_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["info", "chess"]) == 2
    assert "unknown game 'chess'" in capsys.readouterr().err
    assert main(["info", "kaleva", "--option", "colour=red"]) == 2
    assert "unknown option(s) ['colour']" in capsys.readouterr().err


def test_info_lists_the_env_options_too(capsys: pytest.CaptureFixture[str]) -> None:
    """Regression: info listed only the game's own options, not those of its env, which
    ``tabletop train --option`` takes as well (encoder=entity)."""
    assert main(["info", "kaleva"]) == 0
    shown = capsys.readouterr().out.partition("env options")[2]
    for name in ENV_OPTIONS:
        assert re.search(rf"^\| {name}\s+\|", shown, re.MULTILINE), name
    assert re.search(r"^\| encoder\s+\| flat\s+\| the observation: flat, entity", shown, re.M)


def test_a_bad_flag_is_answered_with_the_subcommands_usage(
    capsys: pytest.CaptureFixture[str],
) -> None:
    for command in (["train", "kaleva"], ["play", "regicide"], ["eval", "kaleva"]):
        with pytest.raises(SystemExit) as exit_info:
            main([*command, "--bogus"])
        assert exit_info.value.code == 2
        error = capsys.readouterr().err
        assert error.startswith(f"usage: tabletop {command[0]} ")
        assert f"tabletop {command[0]}: error: unrecognized arguments: --bogus" in error


def test_players_on_a_game_of_fixed_player_count_says_the_count(
    capsys: pytest.CaptureFixture[str],
) -> None:
    for command in ("play", "info", "eval"):
        assert main([command, "kaleva", "--players", "3"]) == 2
        assert "kaleva is played by exactly 2 players, not 3" in capsys.readouterr().err
    assert main(["info", "kaleva", "--players", "2"]) == 0  # its own count is no mistake


def test_an_env_option_to_a_command_that_plays_the_engine_says_where_it_belongs(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Regression: ``eval --option encoder=entity`` answered the engine's "unknown
    option(s) ['encoder']", as if the game had no such thing."""
    for command in (["eval", "hkk", "--agents", "heuristic,random"], ["play", "hkk"],
                    ["search", "--game", "hkk"], ["balance", "hkk"]):  # fmt: skip
        assert main([*command, "--option", "encoder=entity"]) == 2
        error = capsys.readouterr().err
        assert "encoder: an env option, which `tabletop train` takes" in error, command


def test_a_file_that_is_not_a_policy_is_refused_without_torchs_advice(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Regression: torch's message told the user to load the file with weights_only=False,
    which would run code from it."""
    path = tmp_path / "notes.pt"
    path.write_text("not a policy\n")
    assert main(["play", "kaleva", "--agents", str(path)]) == 2
    error = capsys.readouterr().err
    assert f"{path} is not a tabletop policy file: torch cannot read it as one" in error
    assert "weights_only" not in error and "best_policy.pt" in error


def test_replay_says_what_a_game_record_file_is(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    def error_of(path: Path) -> str:
        assert main(["replay", str(path)]) == 2
        return capsys.readouterr().err

    notes = tmp_path / "notes.txt"
    notes.write_text("hello\n")
    error = error_of(notes)
    assert f"{notes}, line 1: not JSON; a game-record file holds one JSON record a line" in error
    assert "Expecting value" not in error
    assert f"{tmp_path} is a directory, not a game-record file\n" in error_of(tmp_path)
    (tmp_path / "games.jsonl").write_text("")
    assert f"not a game-record file: {tmp_path / 'games.jsonl'} is one" in error_of(tmp_path)
    binary = tmp_path / "data.bin"
    binary.write_bytes(bytes(range(128, 256)))
    assert "is not a game-record file: not text" in error_of(binary)
    assert f"no game-record file at {tmp_path / 'gone'}" in error_of(tmp_path / "gone")


@pytest.mark.parametrize("command", list(SUBCOMMANDS))
def test_help_shows_no_rst_literal_marks(capsys: pytest.CaptureFixture[str], command: str) -> None:
    with pytest.raises(SystemExit):
        main([command, "--help"])
    assert "``" not in capsys.readouterr().out


def test_eval_reports_games_done_per_pair_on_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", "kaleva", "--games", "2", "--agents", "random,heuristic"]) == 0
    captured = capsys.readouterr()
    assert "heuristic vs random: 2/2 games\n" in captured.err
    assert "games\n" not in captured.out


def test_eval_progress_reports_a_pair_when_done_and_otherwise_at_most_every_few_seconds(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    clock = [0.0]
    monkeypatch.setattr("tabletop.cli.evaluate.time.monotonic", lambda: clock[0])
    progress = Progress(games=3)
    record = GameRecord("kaleva", {}, 0, ("b", "a"), (), (), (1.0, -1.0), {})
    progress([record])
    clock[0] = PROGRESS_EVERY_S
    progress([record])
    progress([record])
    assert capsys.readouterr().err == "a vs b: 2/3 games\na vs b: 3/3 games\n"
