"""The policies shipped with the package (agents/pretrained): each is listed with how it
was trained and how it plays, loads for its game, and plays legal moves; ``pretrained``
names it in every agent spec, and a game that ships none is refused by name."""

from __future__ import annotations

import tomllib

import pytest

pytest.importorskip("torch", reason="needs the [train] extra")

from tabletop import envs
from tabletop.agents import RandomAgent, make_agent, play_game
from tabletop.agents.policy import read_policy_file
from tabletop.agents.shipped import PRETRAINED_DIR

MANIFEST = PRETRAINED_DIR / "pretrained.toml"
ENTRY_KEYS = {
    "file", "command", "policy", "commit", "date", "against_heuristic", "evaluated_by",
}  # fmt: skip


def shipped() -> dict[str, dict[str, str]]:
    return tomllib.loads(MANIFEST.read_text(encoding="utf-8"))


def test_every_shipped_policy_is_listed_with_its_provenance_and_fits_its_game() -> None:
    entries = shipped()
    files = {path.name for path in PRETRAINED_DIR.glob("*.pt")}
    assert files and {entry["file"] for entry in entries.values()} == files
    for game, entry in entries.items():
        assert set(entry) == ENTRY_KEYS, game
        assert entry["file"] == f"{game}.pt" and game in envs.REGISTRY
        assert entry["command"].startswith(f"tabletop train {game}")
        assert entry["evaluated_by"].startswith(f"tabletop eval {game} --agents pretrained,")
        metadata, _, _ = read_policy_file(PRETRAINED_DIR / entry["file"])
        assert metadata.game == game


@pytest.mark.parametrize("game", sorted(shipped()))
def test_the_pretrained_agent_plays_a_whole_game_of_legal_moves(game: str) -> None:
    agent = make_agent("pretrained", game, seed=0)
    state = envs.make_game(game).new_state(seed=3)
    others = [RandomAgent(seat) for seat in range(1, state.game.num_players)]
    assert play_game(state, [agent, *others]).is_terminal()


def test_guided_search_takes_the_pretrained_policy() -> None:
    game = sorted(shipped())[0]
    agent = make_agent("guided:policy=pretrained,iterations=8", game, seed=0)
    state = envs.make_game(game).new_state(seed=4)
    assert agent.act(state, state.current_player) in state.legal_actions()


def test_a_game_without_a_pretrained_policy_is_refused_naming_the_games_with_one(
    countdown: str,
) -> None:
    with pytest.raises(FileNotFoundError, match=f"{countdown} ships no pretrained policy") as error:
        make_agent("pretrained", countdown)
    assert all(game in str(error.value) for game in shipped())
    with pytest.raises(ValueError, match="takes no options"):
        make_agent("pretrained:fast", countdown)
