"""The lab's report: the charts as plain data, drawn with matplotlib (PNG or SVG), and an HTML page.

``panels(result)`` gives each chart as data (title, unit, groups along the axis, one series per rule
set, each bar a figure with its 95% interval, and the reference a game of pure luck would give); the
matplotlib drawing and the JSON of ``quick_lab`` both read it, so the browser and the files show
the same charts. A chart holds figures of one unit. matplotlib is the ``lab`` extra, imported only
to draw.
"""

from __future__ import annotations

import html
import io
import math
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from eights.lab.run import KINDS, SECONDS_PER_ACTION, SECONDS_PER_DEAL, LabResult, VariantFigures
from eights.stats import METHODS, Estimate

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure


#: SVG ids from a fixed salt, not a random one.
SVG_SALT = "eights-lab"
#: What the whiskers and the dashed line are, in the charts' legend.
WHISKERS = "95% interval"
REFERENCE = "fair seat or pure luck"
FIXED_WORDS = "set by the rules"


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


def seat_label(position: int) -> str:
    """A seat counted from the first dealer: ``dealer``, ``dealer +1`` (the dealer's left)..."""
    return "dealer" if position == 0 else f"dealer +{position}"


def panels(result: LabResult) -> list[Panel]:
    """The report's charts, in order: one unit each."""
    variants = result.variants
    n = result.players

    def each(*keys: str) -> list[tuple[str, list[Estimate]]]:
        return [(v.name, [v.figures[k] for k in keys]) for v in variants]

    return [
        Panel("Turns per game", "turns", ["turns"], each("turns")),
        Panel("Actions per game", "actions", ["actions"], each("actions")),
        Panel("Rounds per game", "rounds", ["rounds"], each("rounds")),
        Panel("Minutes at a person's pace", "minutes", ["minutes"], each("minutes")),
        Panel(
            "Who wins",
            "share of games won",
            ["first to act", *(seat_label(p) for p in range(n))],
            [(v.name, [v.figures["first_to_act_wins"], *v.seats]) for v in variants],
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
            "share of games, rounds, decisions",
            ["last round decides", "blocked rounds", "moves with one legal choice"],
            each("last_round_decides", "blocked_rounds", "one_legal_move"),
            percent=True,
        ),
        Panel("Lead changes per game", "lead changes", ["lead changes"], each("lead_changes")),
        Panel("Cards drawn per turn", "cards", ["cards drawn"], each("cards_drawn_per_turn")),
    ]


def draw_panel(ax: Axes, panel: Panel) -> None:
    """One chart: grouped bars, each measured figure with its 95% interval as whiskers; a figure
    fixed by the rules marked so, without whiskers."""
    count = max(1, len(panel.series))
    width = 0.8 / count
    scale = 100.0 if panel.percent else 1.0
    for i, (_, values) in enumerate(panel.series):
        color = f"C{i}"
        for g, e in enumerate(values):
            if math.isnan(e.value):
                continue
            x = g - 0.4 + width * (i + 0.5)
            ax.bar(x, e.value * scale, width * 0.92, color=color)
            if e.fixed:
                ax.annotate(
                    "fixed",
                    (x, e.value * scale),
                    ha="center",
                    va="bottom",
                    fontsize=6,
                    xytext=(0, 2),
                    textcoords="offset points",
                )
            elif not math.isnan(e.low):
                below, above = (e.value - e.low) * scale, (e.high - e.value) * scale
                ax.errorbar(x, e.value * scale, yerr=[[below], [above]], fmt="none", ecolor="0.15", capsize=3, lw=1)
    if panel.reference is not None:
        ax.axhline(panel.reference * scale, color="0.3", linestyle="--", linewidth=1)
    ax.set_xticks(range(len(panel.groups)), panel.groups, fontsize=8)
    ax.set_title(panel.title, fontsize=10)
    ax.set_ylabel(panel.unit + (" (%)" if panel.percent else ""), fontsize=8)
    ax.set_ylim(bottom=0)
    ax.margins(y=0.12)
    ax.tick_params(axis="y", labelsize=8)


def legend(figure: Figure, names: list[str], reference: bool, columns: int) -> None:
    """One legend for the whole figure, under the charts (never over a bar): the rule sets' colours,
    the whiskers, the dashed line, the mark of a fixed figure."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    handles: list[Any] = [Patch(color=f"C{i}", label=name) for i, name in enumerate(names)]
    handles.append(
        Line2D([], [], color="0.15", marker="|", markersize=10, linestyle="none", label=f"whiskers: {WHISKERS}")
    )
    if reference:
        handles.append(Line2D([], [], color="0.3", linestyle="--", lw=1, label=f"dashed: {REFERENCE}"))
    handles.append(Line2D([], [], linestyle="none", label=f'"fixed": {FIXED_WORDS}, no interval'))
    ncols = len(handles) if columns > 1 else 2
    figure.legend(handles=handles, loc="outside lower center", ncols=ncols, fontsize=8, frameon=False)


def _figure(panel_list: list[Panel], columns: int, title: str) -> Figure:
    from matplotlib.figure import Figure

    rows = math.ceil(len(panel_list) / columns)
    figure = Figure(figsize=(5.2 * columns, 3.4 * rows + 0.8), layout="constrained")
    if title:
        figure.suptitle(title, fontsize=11)
    axes = figure.subplots(rows, columns, squeeze=False)
    for ax, panel in zip(axes.flat, panel_list, strict=False):
        draw_panel(ax, panel)
    for ax in list(axes.flat)[len(panel_list) :]:
        ax.set_visible(False)
    names = [name for name, _ in panel_list[0].series] if panel_list else []
    legend(figure, names, any(p.reference is not None for p in panel_list), columns)
    return figure


def points(share: float) -> str:
    """A share in points: ``2``, ``1.5``."""
    return f"{share * 100:.1f}".removesuffix(".0")


def games_words(result: LabResult) -> str:
    """``200 games of each kind``; ``games until every share is within +-2 points (at most 10000 of each kind)``."""
    if result.precision is None:
        return f"{result.games} games of each kind"
    within = f"within +-{points(result.precision)} points"
    return f"games until every share is {within} (at most {result.games} of each kind)"


def headline(result: LabResult) -> str:
    names = ", ".join(v.name for v in result.variants)
    note = " (stopped early: partial)" if result.partial else ""
    return (
        f"{names}: {result.players} players, {games_words(result)}, seed {result.seed}; "
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
    """``12.3 (11.0-13.6)``, ``0.73 (0.63-0.83)``, ``48.1% (44.2-51.9%)``, ``100.0% (by the rules)``;
    ``-`` where no game gave the figure."""
    if math.isnan(estimate.value):
        return "-"
    scale, unit = (100.0, "%") if percent else (1.0, "")
    d = 1 if percent or abs(estimate.value) >= 10 else 2
    value = f"{estimate.value * scale:.{d}f}{unit}"
    if estimate.fixed:
        return f"{value} (by the rules)"
    if math.isnan(estimate.low):
        return f"{value} (one game: no interval)"
    return f"{value} ({estimate.low * scale:.{d}f}-{estimate.high * scale:.{d}f}{unit})"


#: The table's rows, before and after the seats': label, figure key, shown as a percentage.
LENGTH_ROWS = (
    ("turns per game", "turns", False),
    ("rounds per game", "rounds", False),
    ("actions per game", "actions", False),
    ("minutes at a person's pace", "minutes", False),
)
MATCH_ROWS = (
    ("lead changes per game", "lead_changes", False),
    ("last round decides", "last_round_decides", True),
    ("blocked rounds", "blocked_rounds", True),
    ("cards drawn per turn", "cards_drawn_per_turn", False),
    ("moves with one legal choice", "one_legal_move", True),
    ("expert beats normal", "expert_beats_normal", True),
    ("normal beats easy", "normal_beats_easy", True),
)


def rows(result: LabResult) -> list[tuple[str, list[str]]]:
    """The figures as text, a row per figure and a column per rule set: length, who wins (the first to
    act, then each seat from the dealer), how the match goes, skill."""

    def row(label: str, key: str, percent: bool) -> tuple[str, list[str]]:
        return label, [cell(v.figures[key], percent) for v in result.variants]

    seats = [
        (f"{seat_label(p)} wins", [cell(v.seats[p], True) for v in result.variants]) for p in range(result.players)
    ]
    return [
        *(row(*r) for r in LENGTH_ROWS),
        row("first to act wins", "first_to_act_wins", True),
        *seats,
        *(row(*r) for r in MATCH_ROWS),
    ]


def markdown_table(result: LabResult) -> str:
    """The figures as a Markdown table, a column per rule set."""
    lines = [
        "| figure | " + " | ".join(f"`{v.name}`" for v in result.variants) + " |",
        "| --- |" + " --- |" * len(result.variants),
    ]
    lines += [f"| {label} | " + " | ".join(cells) + " |" for label, cells in rows(result)]
    return "\n".join(lines)


def power_words(v: VariantFigures) -> str:
    """``200 games can see a seat's edge of 8.6 points or more over the fair 25%, ...``"""
    power = v.power()
    seat, expert, base = power["seat"], power["expert_beats_normal"], power["normal_beats_easy"]

    def edge(part: dict[str, Any]) -> str:
        if part["edge"] is None or part["edge"] >= 1 - part["fair"]:
            return "no edge (too few games)"
        return f"an edge of {points(part['edge'])} points or more"

    words = f"{seat['games']} games can see {edge(seat)} for a seat over the fair {points(seat['fair'])}%"
    if expert["games"] == base["games"]:
        return words + f", and {expert['games']} skill games {edge(expert)} over 50%"
    return words + (
        f", {expert['games']} expert-normal games {edge(expert)} over 50%, "
        f"{base['games']} normal-easy games {edge(base)}"
    )


def notes(result: LabResult) -> list[str]:
    """What the figures rest on, in words: where they come from, the intervals, the power."""
    games = ", ".join(f"{v.name} {'/'.join(str(v.games[k]) for k in KINDS)}" for v in result.variants)
    lines = [
        "Length, who wins, lead, blocked rounds, draws and one-choice moves come from games of normal players in "
        "every seat. First to act: the seat that made the match's first decision (a starter card can change it); "
        "dealer: the first round's; dealer +1 is the dealer's left, and so on. A shared win counts 1/k to each.",
        f"Skill: expert@{result.budget} (a smaller search budget than the expert's 1 s a move: {result.budget} "
        "iterations) against normal, and normal against easy (random moves), seats rotating and each deal "
        "played in every rotation; pure luck gives 50%.",
        f"Minutes: {SECONDS_PER_ACTION:g} s an action and {SECONDS_PER_DEAL:g} s to shuffle and deal a round.",
        "95% intervals: " + "; ".join(METHODS.values()) + ".",
        f"Games played (normal table / expert-normal / normal-easy): {games}.",
    ]
    if result.precision is not None:
        lines.append(
            f"Played in stages until every share's interval reached at most {points(result.precision)} points on "
            f"either side (half its width), each rule set and kind on its own, {result.games} games at most."
        )
    powers = [(v.name, power_words(v)) for v in result.variants]
    if len({words for _, words in powers}) == 1:
        lines.append(f"Power: {powers[0][1]} (4 times in 5, at the 95% level); smaller edges may go unseen.")
    else:
        each = "; ".join(f"{name}: {words}" for name, words in powers)
        lines.append(f"Power (4 times in 5, at the 95% level; smaller edges may go unseen): {each}.")
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
        f"<table><thead><tr><th>figure (95% interval)</th>{head}</tr></thead><tbody>{body}</tbody></table>"
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
