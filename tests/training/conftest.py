"""Fixtures of the training tests."""

from __future__ import annotations

import pytest

from tabletop import envs


@pytest.fixture
def countdown(monkeypatch: pytest.MonkeyPatch) -> str:
    """The stacked test game (countdown_v0.py) in the registry, in this process only."""
    monkeypatch.setitem(envs.REGISTRY, "countdown", "countdown_v0")
    return "countdown"
