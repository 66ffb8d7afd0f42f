"""Helpers for the browser tests of the web table (tests/web/test_*browser*.py), importable
as ``from browser_support import ...`` (pytest puts tests/web on the path); the fixtures
``server`` and ``browser`` that go with them are in tests/web/conftest.py."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip
"""Flags for a headless Chromium as root on a machine with no outside network."""
MOVE_TIMEOUT_MS = 60_000
"""Long enough for an agent's move on a loaded CI machine."""


def chromium_path() -> str | None:
    """The OS Chromium, which Playwright drives (no browser download needed)."""
    return shutil.which("chromium") or shutil.which("chromium-browser")


def screenshot_folder(tmp_path: Path) -> Path:
    """Where screenshots go: ``TABLETOP_SCREENSHOTS`` when set (the docs' figures are made
    so), else the test's own folder."""
    folder = Path(os.environ.get("TABLETOP_SCREENSHOTS", tmp_path))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def start_from_lobby(page: object, server: str, game: str) -> None:
    """Start ``game`` in the lobby with seat 0 human, every other seat random (the lobby's
    default), agents at full speed, seed 7; open seat 0's table and wait until it is drawn."""
    page.goto(server)
    page.select_option("#game", game)
    page.fill("#seed", "7")
    page.fill("#pace", "0")
    page.click("#start")
    page.click('[data-link="0"]')
    page.wait_for_selector("#status")
