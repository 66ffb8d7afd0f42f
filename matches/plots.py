"""The PNGs of ``tabletop eval`` (the results of each player count, and the learning curve
of every training run among the agents, read from the run's ``log.csv``), of ``tabletop
ladder`` and of ``tabletop balance``."""

from __future__ import annotations

import csv
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")  # files only: no display is needed, nor wanted in workers and CI

import matplotlib.pyplot as plt
import numpy as np

LOG_NAME = "log.csv"


def run_logs(specs: Sequence[str]) -> dict[str, Path]:
    """Agent spec -> training log, for the specs that are training run directories."""
    logs = {}
    for spec in specs:
        path = Path(spec.removeprefix("policy:"))
        if path.is_dir() and (path / LOG_NAME).is_file():
            logs[spec] = path / LOG_NAME
    return logs


def evaluation_figure(path: Path, game: str, specs: Sequence[str], results: Sequence[Any]) -> None:
    """One panel per player count (win-rate matrix, or team results), then one learning
    curve per training run among ``specs``."""
    logs = run_logs(specs)
    panels = len(results) + len(logs)
    figure, axes = plt.subplots(1, panels, figsize=(6.5 * panels, 5.2), squeeze=False)
    for ax, result in zip(axes[0], results, strict=False):
        if result.mode == "competitive":
            win_rate_matrix(ax, specs, result)
        else:
            team_bars(ax, result)
        ax.set_title(f"{game}, {result.num_players} players ({result.mode})")
    for ax, (spec, log) in zip(axes[0][len(results) :], logs.items(), strict=True):
        learning_curve(ax, log)
        ax.set_title(f"learning curve of {spec}")
    _save(figure, path)


def ladder_figure(path: Path, ladder: Any) -> None:
    """The PNG of ``tabletop ladder``: in a competitive game the ratings with their
    intervals (best on top) beside the win-rate matrix, in a cooperative one the team bars."""
    title = f"{ladder.game}, {ladder.num_players} players: {ladder.games} games per "
    if ladder.mode == "cooperative":
        figure, ax = plt.subplots(figsize=(6.5, 5.2))
        team_bars(ax, ladder)
        ax.set_title(title + "agent")
    else:
        size = 1.2 * len(ladder.agents) + 3
        figure, (rating_ax, matrix_ax) = plt.subplots(1, 2, figsize=(2 * size + 2, size))
        rating_bars(rating_ax, ladder)
        rating_ax.set_title(title + "pair")
        win_rate_matrix(matrix_ax, ladder.ranked(), ladder)
    _save(figure, path)


def rating_bars(ax: Any, ladder: Any) -> None:
    """Each agent's Elo rating as a point with its 95% interval, best on top, labelled with
    its time per decision."""
    ratings = ladder.ratings[::-1]
    elos = np.array([rating.elo for rating in ratings])
    lows = np.array([rating.ci95[0] for rating in ratings])
    highs = np.array([rating.ci95[1] for rating in ratings])
    errors = np.array([elos - lows, highs - elos]).clip(0)
    ax.errorbar(elos, range(len(ratings)), xerr=errors, fmt="o", capsize=4)
    labels = []
    for rating in ratings:
        mean_ms = ladder.times[rating.agent].mean_ms
        time = "" if mean_ms is None else f"\n{mean_ms:.3g} ms/decision"
        labels.append(_short(rating.agent) + time)
    ax.set_yticks(range(len(ratings)), labels)
    ax.set_ylim(-0.7, len(ratings) - 0.3)
    anchor = f"{ladder.anchor} = 0" if ladder.anchor else "mean 0"
    ax.set_xlabel(f"Elo ({anchor}), 95% interval")
    ax.grid(axis="x", alpha=0.3)


def _save(figure: Any, path: Path) -> None:
    """The figure laid out as a PNG at ``path`` (its directory made), then closed."""
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=110)
    plt.close(figure)


def win_rate_matrix(ax: Any, specs: Sequence[str], result: Any) -> None:
    """Cell (row a, column b): a's win rate and draw rate against b, as "win / draw"; the
    colour is the win rate; the diagonal is left blank."""
    index = {spec: i for i, spec in enumerate(specs)}
    wins = np.full((len(specs), len(specs)), np.nan)
    draws = np.full_like(wins, np.nan)
    for pair in result.pairs:
        a, b = index[pair.a], index[pair.b]
        wins[a, b], wins[b, a] = pair.win_rate, pair.loss_rate
        draws[a, b] = draws[b, a] = pair.draws / pair.games
    labels = [_short(spec) for spec in specs]
    _win_heatmap(
        ax,
        wins,
        labels,
        ("opponent", "agent (win rate / draw rate)"),
        lambda row, column: f"{wins[row, column]:.2f} / {draws[row, column]:.2f}",
    )


def _win_heatmap(
    ax: Any,
    wins: np.ndarray,
    labels: Sequence[str],
    axis_labels: tuple[str, str],
    cell_text: Callable[[int, int], str],
    **text_style: Any,
) -> None:
    """Win rates of rows against columns coloured red to green, each played cell's
    ``cell_text(row, column)`` written on it and the cells not played (NaN) left blank:
    the matrix of ``tabletop eval`` and of ``tabletop balance``."""
    image = ax.imshow(wins, vmin=0, vmax=1, cmap="RdYlGn")
    ax.set_xticks(range(len(labels)), labels, rotation=30, ha="right")
    ax.set_yticks(range(len(labels)), labels)
    ax.set_xlabel(axis_labels[0])
    ax.set_ylabel(axis_labels[1])
    for (row, column), value in np.ndenumerate(wins):
        if not np.isnan(value):
            text = cell_text(row, column)
            ax.text(column, row, text, ha="center", va="center", **text_style)
    ax.figure.colorbar(image, ax=ax, fraction=0.046, label="win rate")


def team_bars(ax: Any, result: Any) -> None:
    """Per agent, the game's ``best_metric`` with its 95% interval as bars (the figure that
    separates the agents), and beside it each agent's win rate and mean stats."""
    teams = result.teams
    metric = teams[0].metric
    names = [_short(team.agent) for team in teams]
    means = [team.metric_mean for team in teams]
    intervals = [team.metric_ci95 or (team.metric_mean, team.metric_mean) for team in teams]
    errors = np.array(
        [[mean - low, high - mean] for mean, (low, high) in zip(means, intervals, strict=True)]
    ).T.clip(0)  # rounding can leave a rate a hair outside its own interval
    bars = ax.bar(names, means, yerr=errors, capsize=4, color="tab:green")
    ax.bar_label(bars, fmt="%.3g", label_type="center")
    label = "team win rate" if metric == "win_rate" else f"mean {metric}"
    ax.set_ylabel(f"{label} (95% CI)")
    ax.set_ylim(0, max(0.05, max(high for _, high in intervals) * 1.25))
    stat_keys = [key for key in teams[0].stats_mean if key not in ("won", metric)]
    lines = []
    for team in teams:
        figures = []
        if metric != "win_rate":
            low, high = team.win_ci95
            figures.append(f"win rate {team.win_rate:.3f} [{low:.3f}, {high:.3f}]")
        figures += [f"{key} {team.stats_mean.get(key, 0):.2f}" for key in stat_keys]
        lines.append(f"{_short(team.agent)}: " + ", ".join(figures))
    ax.text(0.02, 0.98, "\n".join(lines), transform=ax.transAxes, va="top", fontsize=8)


def learning_curve(ax: Any, log: Path) -> None:
    """Evaluation figures against training steps; baselines measured once are lines."""
    with log.open(newline="", encoding="utf-8") as file:
        rows = list(csv.DictReader(file))
    series: defaultdict[str, list[tuple[int, float, float, float]]] = defaultdict(list)
    baselines: dict[str, float] = {}
    metric = rows[0]["metric"] if rows else "win_rate"
    for row in rows:
        if row["phase"] == "eval":
            value, low, high = _curve_point(row, metric)
            series[row["opponent"]].append((int(row["step"]), value, low, high))
        elif row["phase"] == "baseline":
            baselines[row["opponent"]] = float(row["metric_value"])
    for opponent, points in series.items():
        steps, values, lows, highs = (list(column) for column in zip(*points, strict=True))
        label = f"vs {opponent}" if opponent != "self" else "learner team"
        ax.plot(steps, values, marker="o", label=label)
        if metric == "win_rate":
            ax.fill_between(steps, lows, highs, alpha=0.2)
    for name, value in baselines.items():
        ax.axhline(value, linestyle="--", color="grey")
        ax.text(0.01, value, f" {name}", transform=ax.get_yaxis_transform(), va="bottom")
    ax.set_xlabel("training steps")
    ax.set_ylabel("win rate (95% CI)" if metric == "win_rate" else f"mean {metric}")
    ax.legend(loc="lower right")


def walltime_figure(
    path: Path,
    title: str,
    logs: dict[str, Path],
    opponent: str = "heuristic",
    target: tuple[float, float] = (0.55, 600.0),
) -> None:
    """Win rate against ``opponent`` over the elapsed seconds of several runs (label -> their
    ``log.csv``), one line each with its 95% band, and the ``target`` (a win rate within
    seconds) as dashed lines: PPO settings compared by what a minute of training buys, not
    by steps/s."""
    figure, ax = plt.subplots(figsize=(8, 5))
    for label, log in logs.items():
        with log.open(newline="", encoding="utf-8") as file:
            rows = [row for row in csv.DictReader(file)
                    if row["phase"] == "eval" and row["opponent"] == opponent]  # fmt: skip
        seconds = [float(row["elapsed_s"]) for row in rows]
        (line,) = ax.plot(seconds, [float(row["win_rate"]) for row in rows], "o-", label=label)
        lows = [float(row["ci_low"]) for row in rows]
        highs = [float(row["ci_high"]) for row in rows]
        ax.fill_between(seconds, lows, highs, alpha=0.15, color=line.get_color())
    ax.axhline(target[0], linestyle="--", color="grey")
    ax.axvline(target[1], linestyle=":", color="grey")
    ax.set_ylim(0, 1)
    ax.set_xlim(left=0)  # a warm start shows as the time before the first evaluation
    ax.set_xlabel("elapsed seconds (warm start included)")
    ax.set_ylabel(f"win rate against {opponent} (95% CI)")
    ax.set_title(title)
    ax.legend(loc="lower right")
    _save(figure, path)


def _curve_point(row: dict[str, str], metric: str) -> tuple[float, float, float]:
    if metric == "win_rate":
        return float(row["win_rate"]), float(row["ci_low"]), float(row["ci_high"])
    value = float(row["metric_value"])
    return value, value, value


def _short(spec: str) -> str:
    """A label that fits under a matrix column: a run directory's last part."""
    return Path(spec).name if "/" in spec else spec


def balance_figure(path: Path, report: Any) -> None:
    """The PNG of ``tabletop balance``: the deck-vs-deck win matrix (row deck against column
    deck: win rate, its 95% interval and the draw rate; the diagonal, not played, blank) and
    each deck's mean win rate against the others with its interval."""
    labels = list(report.decks)
    wins = np.full((len(labels), len(labels)), np.nan)
    for row, row_label in enumerate(labels):
        for column, column_label in enumerate(labels):
            if column_label != row_label:
                wins[row, column] = report.matrix[row_label][column_label].win_rate
    size = 1.4 * len(labels) + 3
    figure, (matrix_ax, bar_ax) = plt.subplots(
        1, 2, figsize=(2 * size, size), gridspec_kw={"width_ratios": [1.25, 1]}
    )

    def cell_text(row: int, column: int) -> str:
        tally = report.matrix[labels[row]][labels[column]]
        low, high = tally.win_ci95
        return f"{wins[row, column]:.2f}\n[{low:.2f}, {high:.2f}]\nd {tally.draw_rate:.2f}"

    _win_heatmap(
        matrix_ax,
        wins,
        labels,
        ("opponent deck", "deck (win rate, 95% CI, draw rate)"),
        cell_text,
        fontsize=8,
    )
    matrix_ax.set_title(
        f"{report.game}: {report.agent}, {report.games_per_order} games per seating"
    )
    means = [report.mean[label].win_rate for label in labels]
    errors = np.array(
        [
            [mean - report.mean[label].win_ci95[0], report.mean[label].win_ci95[1] - mean]
            for label, mean in zip(labels, means, strict=True)
        ]
    ).T.clip(0)
    bars = bar_ax.bar(labels, means, yerr=errors, capsize=4, color="tab:blue")
    bar_ax.bar_label(bars, fmt="%.2f", label_type="center", color="white")
    bar_ax.axhline(0.5, linestyle="--", color="grey")
    bar_ax.set_ylim(0, 1)
    bar_ax.set_ylabel("mean win rate against the other decks (95% CI)")
    first = report.first_mover
    bar_ax.set_title(
        f"first to move wins {first.win_rate:.2f}; {report.plies:.0f} plies a game; "
        f"{report.total_games} games",
        fontsize=9,
    )
    bar_ax.tick_params(axis="x", rotation=30)
    _save(figure, path)
