"""A built wheel, installed into a fresh venv outside the repository, plays every registered
game: the packaging finds every package and ships every data file (card pools, decks,
configs, pretrained policies) without anyone listing them by hand."""

from __future__ import annotations

import shutil
import site
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

from tabletop import envs
from tabletop.agents.shipped import PRETRAINED_DIR

REPO = Path(__file__).parents[1]
SOURCES = ("pyproject.toml", "setup.py", "README.md", "envs", "agents", "wrappers", "matches",
           "training", "web", "cli")  # fmt: skip
WEB_PAGES = ("lobby.html", "table.html", "replays.html", "replay.html", "view.js", "style.css")
CACHES = "__pycache__"

PLAY_EVERY_GAME = """
import random, sys
import tabletop.envs as envs
assert sys.prefix in envs.__file__, f"not the installed copy: {envs.__file__}"
for name in sys.argv[1:]:
    env = envs.make(name)
    env.reset(seed=0)
    rng = random.Random(0)
    for agent in env.agent_iter():
        _, _, terminated, truncated, _ = env.last()
        mask = env.observe(agent)["action_mask"]
        legal = [a for a, ok in enumerate(mask) if ok]
        env.step(None if terminated or truncated else rng.choice(legal))
    print(name, "played from", envs.env_module(name).__file__)
"""


def build_wheel(tmp_path: Path) -> Path:
    """The wheel of a copy of the sources (the build writes into its source tree)."""
    source = tmp_path / "source"
    source.mkdir()
    for name in SOURCES:
        if (REPO / name).is_dir():
            shutil.copytree(REPO / name, source / name, ignore=shutil.ignore_patterns(CACHES))
        else:
            shutil.copy2(REPO / name, source / name)
    dist = tmp_path / "dist"
    command = [sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(dist)]
    subprocess.run(command, cwd=source, check=True, capture_output=True)
    (wheel,) = dist.glob("tabletop-*.whl")
    return wheel


def fresh_venv(tmp_path: Path) -> Path:
    """A venv that sees this interpreter's installed dependencies (numpy, pettingzoo, …) but
    not the editable tabletop: a plain path line in a .pth file adds the directories without
    running the editable install's hook."""
    root = tmp_path / "venv"
    venv.create(root, with_pip=False)
    python = root / "bin" / "python"
    venv_site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    Path(venv_site, "dependencies.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    return python


def test_the_wheel_plays_every_registered_game_from_a_fresh_venv(tmp_path: Path) -> None:
    wheel = build_wheel(tmp_path)
    python = fresh_venv(tmp_path)
    install = [sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps"]
    subprocess.run([*install, "--no-index", str(wheel)], check=True, capture_output=True)
    played = subprocess.run(
        [str(python), "-c", PLAY_EVERY_GAME, *envs.names()],
        cwd=tmp_path,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.splitlines()
    assert [line.split()[0] for line in played] == envs.names()
    assert all(str(tmp_path / "venv") in line for line in played)
    shipped = set(zipfile.ZipFile(wheel).namelist())
    assert {f"tabletop/web/static/{page}" for page in WEB_PAGES} <= shipped
    assert "tabletop/cli/main.py" in shipped  # the console script's entry point
    pretrained = {f"tabletop/agents/pretrained/{path.name}" for path in PRETRAINED_DIR.iterdir()}
    assert pretrained and pretrained <= shipped  # the policies and their manifest
