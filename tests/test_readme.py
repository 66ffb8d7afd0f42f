"""The README's main job is a command a newcomer runs, and runs again: the README says how
to rerun it, and that way is a valid command."""

from __future__ import annotations

import shlex
from pathlib import Path

from tabletop.cli.main import build_parser

README = (Path(__file__).parents[1] / "README.md").read_text(encoding="utf-8")


def main_job_train_command() -> list[str]:
    """The ``tabletop train`` part of the README's one-line main job."""
    (line,) = [line for line in README.splitlines() if "&& tabletop train " in line]
    (command,) = [part for part in line.split("&&") if part.strip().startswith("tabletop train")]
    return shlex.split(command)[1:]


def test_the_readme_says_how_to_rerun_its_main_job_and_that_way_parses() -> None:
    command = main_job_train_command()
    out = command[command.index("--out") + 1]
    rerun = README[README.index("&& tabletop train ") :].split("\n\n")[1]
    assert "--overwrite" in rerun and f"`{out}`" in rerun, rerun
    args = build_parser().parse_args([*command, "--overwrite"])
    assert args.overwrite and str(args.out) == out and not args.resume
