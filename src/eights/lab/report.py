"""The lab's report: the charts as plain data, drawn with matplotlib (PNG or SVG), and an HTML page.

``panels(result)`` gives each chart as data (title, groups along the axis, one series per rule set,
each bar a figure with its 95% interval, and the reference a game of pure luck would give); the
matplotlib drawing and the JSON of ``quick_lab`` both read it, so the browser and the files show
the same charts. matplotlib is the ``lab`` extra, imported only to draw.
"""

from __future__ import annotations

import html
import io
import math
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from eights.lab.run import Estimate, LabResult

if TYPE_CHECKING:
    from matplotlib.axes import Axes


#: SVG ids from a fixed salt, not a random one.
SVG_SALT = "eights-lab"


@dataclass(frozen=True, slots=True)
class Panel:
    """One chart: for each group along the axis, a bar per rule set."""

    title: str
    unit: str
    groups: list[str]
    #: (rule set, one estimate per group)
    series: list[tuple[str, list[Estimate]]]
    #: What a game of pure luck (or a fair seat) would give, drawn as a line; None for no line.
    reference: float | None = None
    percent: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "title": self.title,
            "unit": self.unit,
            "groups": self.groups,
            "series": [{"name": name, "values": [e.to_dict() for e in values]} for name, values in self.series],
            "reference": self.reference,
            "percent": self.percent,
        }


def seat_label(position: int, players: int) -> str:
    if position == 0:
        return "dealer"
    if position == 1:
        return "first player"
    return f"dealer +{position}"


def panels(result: LabResult) -> list[Panel]:
    """The report's charts, in order."""
    variants = result.variants
    n = result.players

    def each(*keys: str) -> list[tuple[str, list[Estimate]]]:
        return [(v.name, [v.figures[k] for k in keys]) for v in variants]

    return [
        Panel("Length of a game", "per game", ["turns", "rounds"], each("turns", "rounds")),
        Panel("Minutes at a person's pace", "minutes", ["minutes"], each("minutes")),
        Panel(
            "Win rate by seat",
            "share of games won",
            [seat_label(p, n) for p in range(n)],
            [(v.name, list(v.seats)) for v in variants],
            reference=1 / n,
            percent=True,
        ),
        Panel(
            "Luck against skill",
            "share of wins of the stronger player",
            ["expert beats normal", "normal beats easy"],
            each("expert_beats_normal", "normal_beats_easy"),
            reference=0.5,
            percent=True,
        ),
        Panel(
            "How the match goes",
            "share",
            ["last round decides", "blocked rounds", "moves with one legal choice"],
            each("last_round_decides", "blocked_rounds", "one_legal_move"),
            percent=True,
        ),
        Panel(
            "Lead changes and draws",
            "per game / per turn",
            ["lead changes per game", "cards drawn per turn"],
            each("lead_changes", "cards_drawn_per_turn"),
        ),
    ]


def draw_panel(ax: Axes, panel: Panel) -> None:
    """One chart: grouped bars with their 95% intervals as error bars."""
    groups = len(panel.groups)
    count = max(1, len(panel.series))
    width = 0.8 / count
    scale = 100.0 if panel.percent else 1.0
    for i, (name, values) in enumerate(panel.series):
        xs = [g - 0.4 + width * (i + 0.5) for g in range(groups)]
        ys = [0.0 if math.isnan(e.value) else e.value * scale for e in values]
        below = [0.0 if math.isnan(e.value) else (e.value - e.low) * scale for e in values]
        above = [0.0 if math.isnan(e.value) else (e.high - e.value) * scale for e in values]
        ax.bar(xs, ys, width * 0.92, yerr=[below, above], capsize=3, label=name)
    if panel.reference is not None:
        ax.axhline(panel.reference * scale, color="0.3", linestyle="--", linewidth=1)
    ax.set_xticks(range(groups), panel.groups, fontsize=8)
    ax.set_title(panel.title, fontsize=10)
    ax.set_ylabel(panel.unit + (" (%)" if panel.percent else ""), fontsize=8)
    ax.tick_params(axis="y", labelsize=8)
    ax.legend(fontsize=7)


def _figure(panel_list: list[Panel], columns: int, title: str) -> Any:
    from matplotlib.figure import Figure

    rows = math.ceil(len(panel_list) / columns)
    figure = Figure(figsize=(5.2 * columns, 3.6 * rows), layout="constrained")
    figure.suptitle(title, fontsize=11)
    axes = figure.subplots(rows, columns, squeeze=False)
    for ax, panel in zip(axes.flat, panel_list, strict=False):
        draw_panel(ax, panel)
    for ax in list(axes.flat)[len(panel_list) :]:
        ax.set_visible(False)
    return figure


def headline(result: LabResult) -> str:
    names = ", ".join(v.name for v in result.variants)
    note = " (stopped early: partial)" if result.partial else ""
    return (
        f"{names}: {result.players} players, {result.games} games of each kind, seed {result.seed}; "
        f"skill: expert@{result.budget}{note}"
    )


def save_plot(result: LabResult, path: Path) -> None:
    """Every chart side by side in one file: PNG or SVG by its suffix.

    :raises ValueError: for another suffix.
    """
    kind = path.suffix.lower().lstrip(".")
    if kind not in ("png", "svg"):
        raise ValueError(f"--plot {path}: give a file ending in .png or .svg")
    import matplotlib

    figure = _figure(panels(result), 3, headline(result))
    # No date and fixed ids in the file: the same lab gives the same bytes.
    metadata = {"Date": None} if kind == "svg" else {"Software": None}
    with matplotlib.rc_context({"svg.hashsalt": SVG_SALT}):
        figure.savefig(path, format=kind, dpi=110, metadata=metadata)


def panel_svg(panel: Panel) -> str:
    """One chart as an SVG document (for the HTML page)."""
    import matplotlib

    figure = _figure([panel], 1, "")
    out = io.StringIO()
    with matplotlib.rc_context({"svg.hashsalt": SVG_SALT, "svg.fonttype": "none"}):
        figure.savefig(out, format="svg", metadata={"Date": None})
    text = out.getvalue()
    return text[text.index("<svg") :]


def cell(estimate: Estimate, percent: bool = False) -> str:
    """``12.3 (11.0-13.6)``, ``0.73 (0.63-0.83)``, ``48.1% (44.2-51.9%)``; ``-`` where no game gave the figure."""
    if math.isnan(estimate.value):
        return "-"
    scale, unit = (100.0, "%") if percent else (1.0, "")
    d = 1 if percent or abs(estimate.value) >= 10 else 2
    return f"{estimate.value * scale:.{d}f}{unit} ({estimate.low * scale:.{d}f}-{estimate.high * scale:.{d}f}{unit})"


#: The table's rows: label, figure key, shown as a percentage.
ROWS = (
    ("turns per game", "turns", False),
    ("rounds per game", "rounds", False),
    ("actions per game", "actions", False),
    ("minutes at a person's pace", "minutes", False),
    ("first player's edge", "first_player_edge", True),
    ("dealer's edge", "dealer_edge", True),
    ("lead changes per game", "lead_changes", False),
    ("last round decides", "last_round_decides", True),
    ("blocked rounds", "blocked_rounds", True),
    ("cards drawn per turn", "cards_drawn_per_turn", False),
    ("moves with one legal choice", "one_legal_move", True),
    ("expert beats normal", "expert_beats_normal", True),
    ("normal beats easy", "normal_beats_easy", True),
)


def rows(result: LabResult) -> list[tuple[str, list[str]]]:
    """The figures as text, a row per figure and a column per rule set (seat rates included)."""
    out = [(label, [cell(v.figures[key], percent) for v in result.variants]) for label, key, percent in ROWS]
    for position in range(result.players):
        label = f"wins: {seat_label(position, result.players)}"
        out.append((label, [cell(v.seats[position], True) for v in result.variants]))
    return out


def markdown_table(result: LabResult) -> str:
    """The figures as a Markdown table, a column per rule set."""
    lines = [
        "| figure | " + " | ".join(f"`{v.name}`" for v in result.variants) + " |",
        "| --- |" + " --- |" * len(result.variants),
    ]
    lines += [f"| {label} | " + " | ".join(cells) + " |" for label, cells in rows(result)]
    return "\n".join(lines)


def notes(result: LabResult) -> list[str]:
    """What the figures rest on, in words."""
    from eights.lab.run import SECONDS_PER_ACTION, SECONDS_PER_DEAL

    games = ", ".join(f"{v.name} {v.games['table']}/{v.games['skill']}/{v.games['base']}" for v in result.variants)
    lines = [
        "Each figure with its 95% interval. Length, seats, lead, blocked rounds, draws and one-choice moves "
        "come from games of normal players in every seat; seats are counted from the first dealer.",
        f"Skill: expert@{result.budget} (a smaller search budget than the expert's 1 s a move: {result.budget} "
        "iterations) against normal, and normal against easy (random moves), seats rotating and each deal "
        "played in every rotation; pure luck gives 50%.",
        f"Minutes: {SECONDS_PER_ACTION:g} s an action and {SECONDS_PER_DEAL:g} s to shuffle and deal a round.",
        f"Games played (normal table / expert-normal / normal-easy): {games}.",
    ]
    if result.partial:
        lines.append("Stopped early (Ctrl-C): the figures are those of the games played.")
    return lines


def html_report(result: LabResult) -> str:
    """A page on its own: the headline, the table of figures, and every chart side by side."""
    esc = html.escape
    head = "".join(f"<th>{esc(v.name)}</th>" for v in result.variants)
    body = "".join(
        f"<tr><th>{esc(label)}</th>" + "".join(f"<td>{esc(c)}</td>" for c in cells) + "</tr>"
        for label, cells in rows(result)
    )
    changes = "".join(
        f"<li><b>{esc(v.name)}</b>: {esc(v.title)}{esc(' with ' + ', '.join(v.changes)) if v.changes else ''}</li>"
        for v in result.variants
    )
    charts = "".join(f'<figure class="chart">{panel_svg(p)}</figure>' for p in panels(result))
    text = "".join(f"<p>{esc(line)}</p>" for line in notes(result))
    return (
        "<!doctype html>\n<html lang=en><head><meta charset=utf-8>"
        "<meta name=viewport content='width=device-width, initial-scale=1'>"
        f"<title>eights lab: {esc(', '.join(v.name for v in result.variants))}</title>"
        "<style>body{font-family:system-ui,sans-serif;margin:1.5rem;color:#222}"
        "table{border-collapse:collapse;font-size:.9rem}th,td{padding:.25rem .6rem;border-bottom:1px solid #ddd;"
        "text-align:right}th:first-child{text-align:left}"
        ".charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(420px,1fr));gap:1rem}"
        ".chart{margin:0}.chart svg{width:100%;height:auto}</style></head><body>"
        f"<h1>eights lab</h1><p>{esc(headline(result))}</p><ul>{changes}</ul>"
        f"<table><thead><tr><th>figure</th>{head}</tr></thead><tbody>{body}</tbody></table>"
        f"{text}<div class=charts>{charts}</div></body></html>\n"
    )


def save_html(result: LabResult, path: Path) -> None:
    path.write_text(html_report(result), encoding="utf-8")


def matplotlib_missing() -> str | None:
    """Why the charts cannot be drawn here, or None."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return "--plot and --html need matplotlib, the lab extra: pip install 'eights[lab]' (or -e '.[lab]' here)"
    return None
