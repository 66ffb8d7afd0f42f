"""Fixtures shared by the browser tests of the web table: a real ``tabletop serve`` and a
Playwright Chromium. Without Chromium (or Playwright) the tests using them skip, unless
``TABLETOP_REQUIRE_BROWSER=1`` (set by ``.ci/run``) makes that a failure. Importable helpers
live in browser_support.py, since a conftest is not meant to be imported."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator

import pytest
from browser_support import CHROMIUM_FLAGS, chromium_path

from tabletop.cli.serve import start_in_subprocess


def _no_browser(reason: str) -> None:
    if os.environ.get("TABLETOP_REQUIRE_BROWSER") == "1":
        pytest.fail(f"{reason}, and TABLETOP_REQUIRE_BROWSER=1")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real ``tabletop serve`` on a free port; its base URL (ending in "/")."""
    process, url = start_in_subprocess(tmp_path_factory.mktemp("serve") / "games.sqlite")
    yield url
    process.terminate()
    try:  # (a page left open holds a waiting read, which uvicorn lets finish: up to 20 s)
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=10)


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    """A headless Chromium driven by Playwright, shared by a module's tests."""
    try:
        from playwright import sync_api
    except ImportError:
        _no_browser("no playwright (pip install playwright)")
    executable = chromium_path()
    if executable is None:
        _no_browser("no chromium on PATH (the OS package 'chromium')")
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_FLAGS)
        yield launched
        launched.close()
