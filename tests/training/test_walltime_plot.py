"""The wall-time comparison figure of docs/training.md ("Defaults chosen by wall time")."""

from __future__ import annotations

from pathlib import Path

from tabletop.matches import plots

HEADER = "step,elapsed_s,phase,opponent,games,win_rate,ci_low,ci_high\n"


def write_log(path: Path, rows: list[str]) -> Path:
    path.write_text(HEADER + "".join(row + "\n" for row in rows), encoding="utf-8")
    return path


def test_walltime_figure_plots_only_evaluations_against_the_opponent(tmp_path, monkeypatch) -> None:
    log = write_log(tmp_path / "log.csv", [
        "2048,1.5,train,heuristic,10,0.1,0.0,0.3",
        "20480,30.0,eval,heuristic,100,0.4,0.3,0.5",
        "20480,30.0,eval,random,100,0.9,0.8,1.0",
        "40960,61.0,eval,heuristic,100,0.6,0.5,0.7",
    ])  # fmt: skip
    drawn = []
    monkeypatch.setattr(plots, "_save", lambda figure, path: drawn.append(figure))
    plots.walltime_figure(tmp_path / "out.png", "title", {"run": log})
    (line,) = [line for line in drawn[0].axes[0].get_lines() if line.get_label() == "run"]
    assert list(line.get_xdata()) == [30.0, 61.0]
    assert list(line.get_ydata()) == [0.4, 0.6]


def test_walltime_figure_writes_a_png(tmp_path) -> None:
    log = write_log(tmp_path / "log.csv", ["20480,30.0,eval,heuristic,100,0.4,0.3,0.5"])
    plots.walltime_figure(tmp_path / "figures" / "out.png", "title", {"a": log, "b": log})
    assert (tmp_path / "figures" / "out.png").read_bytes()[:4] == b"\x89PNG"
