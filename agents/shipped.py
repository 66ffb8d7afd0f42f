"""The policies shipped with the package: ``agents/pretrained/GAME.pt``, named
``pretrained`` wherever an agent or a policy is named (``pretrained``, ``guided:policy=
pretrained``), so a strong opponent needs no training run. pretrained.toml beside them says
how each was trained and how it plays. Read without torch: the web lobby lists them."""

from __future__ import annotations

from pathlib import Path

PRETRAINED = "pretrained"
"""The agent spec, and the policy path, that name the game's shipped policy: never a file."""
PRETRAINED_DIR = Path(__file__).parent / "pretrained"
POLICY_SUFFIX = ".pt"
"""How a policy file's name ends: the files `tabletop train` writes and the shipped ones."""


def pretrained_games() -> list[str]:
    """The games that ship a policy, by registered name."""
    return sorted(path.stem for path in PRETRAINED_DIR.glob(f"*{POLICY_SUFFIX}"))


def pretrained_policy(game: str) -> Path:
    """The policy file shipped for ``game`` (a registered name); ``FileNotFoundError``
    naming the games that ship one when it does not."""
    path = PRETRAINED_DIR / f"{game}{POLICY_SUFFIX}"
    if not path.is_file():
        raise FileNotFoundError(
            f"{game} ships no pretrained policy (pretrained policies ship for "
            f"{', '.join(pretrained_games()) or 'no game'}); train one with "
            f"`tabletop train {game}`"
        )
    return path
