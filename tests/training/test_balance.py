"""``tabletop balance``: a rigged pair of decks gives the matrix it must, the report survives
JSON, and the command refuses what it cannot play."""

from __future__ import annotations

import dataclasses
import json
import string
import tomllib
from pathlib import Path

import pytest

from tabletop import envs
from tabletop.cli.balance import (
    BalanceReport,
    deck_specs,
    load_json,
    play_all,
    schedule,
    summarise,
)
from tabletop.cli.main import main
from tabletop.envs.core.spec import GameSpecError, frozen_options
from tabletop.envs.gold_and_dust.cards import STARTER_POOL, data_path
from tabletop.matches.records import read_records

GAME = "gold_and_dust"
CARDS = 20  # distinct cards per deck, two copies each: 40 cards and a Hero (GD-1.1)
LETTERS = string.ascii_uppercase  # card names are letters only: "Colossus A"


def toml_value(value: object) -> str:
    """A value as TOML writes it inline (enough for the pool's hero records)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(map(toml_value, value)) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {toml_value(v)}" for k, v in value.items()) + " }"
    return str(value)


def rigged_pool(directory: Path) -> tuple[Path, Path, Path]:
    """A pool where the Giant's deck is cheap huge units that charge, and the Pauper can
    afford nothing at all: the Giant cannot lose. The pool file and the two decks. The
    Heroes are the packaged pool's first two, renamed and given new resources, so that
    their passives are written in whatever form the packaged pool uses."""
    packaged = tomllib.loads(data_path(STARTER_POOL).read_text(encoding="utf-8"))
    lines = ["format = 1", 'name = "Rigged"', 'version = "1"']
    resources = {"Giant": (50, 10), "Pauper": (0, 0)}
    for hero, record in zip(resources, packaged["hero"], strict=False):
        gold, regen = resources[hero]
        changed = {"name": hero, "gold": gold, "gold_regen": regen, "dust": 0, "dust_regen": 0}
        lines.append("[[hero]]")
        lines += [f"{key} = {toml_value(value)}" for key, value in {**record, **changed}.items()]
    for i in range(CARDS):
        lines += [
            "[[card]]", f'name = "Colossus {LETTERS[i]}"', 'kind = "unit"', 'text = "Huge."',
            "gold = 1", 'role = "melee"', "attack = 20", 'die = "k3"', "hp = 30",
            'keywords = ["charge"]',
            "[[card]]", f'name = "Mirage {LETTERS[i]}"', 'kind = "unit"', 'text = "Priceless."',
            "gold = 30", 'role = "melee"', "attack = 0", 'die = "k3"', "hp = 1",
        ]  # fmt: skip
    pool = directory / "pool.toml"
    pool.write_text("\n".join(lines) + "\n", encoding="utf-8")
    decks = []
    for stem, hero, card in (("giant", "Giant", "Colossus"), ("pauper", "Pauper", "Mirage")):
        entries = [f"{hero} = 1", *(f'"{card} {LETTERS[i]}" = 2' for i in range(CARDS))]
        deck = directory / f"{stem}.toml"
        deck.write_text(f'name = "{hero}"\n\n[cards]\n' + "\n".join(entries) + "\n")
        decks.append(deck)
    return pool, decks[0], decks[1]


@pytest.fixture(scope="module")
def rigged(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    return rigged_pool(tmp_path_factory.mktemp("rigged"))


def rigged_report(rigged: tuple[Path, Path, Path], games: int = 4) -> BalanceReport:
    pool, giant, pauper = rigged
    decks = {"giant": str(giant), "pauper": str(pauper)}
    options = {"pool": str(pool)}
    played = play_all(GAME, options, decks, "heuristic", schedule(list(decks), games, 0), 1)
    return summarise(
        played, game=GAME, agent="heuristic", games_per_order=games, seed=0,
        options=options, decks=decks,
    )  # fmt: skip


def test_the_deck_that_cannot_lose_wins_every_game_from_both_seats(
    rigged: tuple[Path, Path, Path],
) -> None:
    report = rigged_report(rigged)
    giant, pauper = report.matrix["giant"]["pauper"], report.matrix["pauper"]["giant"]
    assert (giant.games, giant.wins, giant.draws, giant.win_rate) == (8, 8, 0, 1.0)
    assert (pauper.games, pauper.wins, pauper.losses, pauper.win_rate) == (8, 0, 8, 0.0)
    assert set(report.matrix["giant"]) == {"pauper"}  # no mirror match on the diagonal
    assert report.mean["giant"].win_rate == 1.0 and report.mean["pauper"].win_rate == 0.0
    assert report.total_games == 8 and report.first_mover.games == 8
    assert report.seat_zero.win_rate == 0.5  # each deal is played from both seatings
    # The Pauper's turns are forced moves only (nothing to pay for): the Giant makes the
    # first decision of every game.
    assert report.first_mover.win_rate == 1.0
    assert report.plies > 0 and report.pair_plies["giant"]["pauper"] == report.plies


def test_card_figures_count_the_owner_s_plays(rigged: tuple[Path, Path, Path]) -> None:
    report = rigged_report(rigged)
    assert report.cards and {card.decks for card in report.cards} == {("giant",)}
    assert all(card.card.startswith("Colossus") for card in report.cards)  # Mirages unplayable
    assert sum(card.plays for card in report.cards) > 0
    for card in report.cards:
        assert card.games == 8 and card.played_in == card.when_played.games
        assert card.when_played.win_rate == 1.0
        assert card.when_not_played.win_rate in (1.0, None)
    assert [card.card for card in report.deck_cards] == [card.card for card in report.cards]


def test_the_report_survives_a_json_round_trip(rigged: tuple[Path, Path, Path]) -> None:
    report = rigged_report(rigged, games=2)
    assert BalanceReport.from_json(json.loads(json.dumps(report.to_json()))) == report


def test_the_command_prints_and_saves_the_matrix(
    rigged: tuple[Path, Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("matplotlib", reason="tabletop balance draws with the [train] extra")
    pool, giant, pauper = rigged
    out = tmp_path / "out"
    args = ["balance", GAME, "--decks", f"{giant},{pauper}", "--option", f"pool={pool}"]
    assert main([*args, "--games", "2", "--workers", "2", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "| giant  | -" in printed and "1.00 [0.51, 1.00] d0.00" in printed
    saved = load_json(out / "balance.json")
    assert saved == rigged_report(rigged, games=2)  # the same games with 2 workers or 1
    assert (out / "balance.png").stat().st_size > 0
    records = read_records(out / "games.jsonl")
    assert len(records) == 4 and {r.options["decks"] for r in records} == {
        (str(giant), str(pauper)),
        (str(pauper), str(giant)),
    }


def test_gold_and_dust_declares_its_packaged_decks() -> None:
    spec = envs.spec(GAME)
    assert spec.decks == ("warrior", "mage", "thief", "merchant", "assassin")
    without = {key: text for key, text in spec.options.items() if key != "decks"}
    broken = dataclasses.replace(spec, options=frozen_options(**without))
    with pytest.raises(GameSpecError, match=r"SPEC\.decks: packaged decks, but no 'decks'"):
        broken.validate("tabletop.envs.gold_and_dust_v0")
    twice = dataclasses.replace(spec, decks=("mage", "mage"))
    with pytest.raises(GameSpecError, match=r"SPEC\.decks: a deck is named twice"):
        twice.validate("tabletop.envs.gold_and_dust_v0")


def test_a_card_game_without_packaged_decks_needs_decks_named() -> None:
    spec = dataclasses.replace(envs.spec(GAME), decks=())
    with pytest.raises(ValueError, match=r"declares no packaged decks \(GameSpec\.decks\)"):
        deck_specs(spec, None)
    assert deck_specs(envs.spec(GAME), ["mage", "thief"]) == {"mage": "mage", "thief": "thief"}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([GAME, "--decks", "warrior,paladin"], "unknown deck 'paladin': neither a packaged deck"),
        ([GAME, "--decks", "warrior"], "at least two decks"),
        ([GAME, "--option", "decks=warrior,mage"], "choose the decks with --decks"),
        ([GAME, "--agent", "wizard"], "unknown agent 'wizard'"),
        ([GAME, "--games", "0"], "--games must be at least 1"),
        (["regicide"], "regicide takes no 'decks' option: it is not a card game"),
    ],
)
def test_usage_errors(args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["balance", *args]) == 2
    assert message in capsys.readouterr().err


def test_balance_is_a_listed_subcommand(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "balance" in capsys.readouterr().out
