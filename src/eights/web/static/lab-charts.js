// The figures of a lab (POST /api/lab) side by side, your rules against the plain preset: bars with their
// 95% intervals drawn here as SVG (no library, no inline style), each chart named and described for
// screen readers, and every figure in a table too. Loaded by lab.js when the first figures come.

import { el } from "./dom.js";

const SVG = "http://www.w3.org/2000/svg";
/** The chart's drawing box (it scales to its column: 320 px wide at the least). */
const W = 300;
const H = 190;
const PAD = { left: 40, right: 6, top: 10, bottom: 50 };

/** The answer of a lab that is done, as nodes: what it compared, the legend, the charts, the table, the budget. */
export function drawResults(answer, prefix) {
  const lab = answer.lab;
  const names = lab.variants.map((v) => v.name);
  const nodes = [el("p", answer.note)];
  const legend = el("ul", null, "lab-legend");
  legend.setAttribute("aria-label", "The colours of the charts");
  names.forEach((name, i) => {
    const item = el("li", null, `series-${i}`);
    const swatch = el("span", null, "swatch");
    swatch.setAttribute("aria-hidden", "true");
    const label = i === 0 && answer.compared ? `${name}: ${answer.changes.join(", ")}` : `${name} as it comes`;
    item.append(swatch, el("span", label));
    legend.append(item);
  });
  nodes.push(legend);
  const charts = el("div", null, "lab-charts");
  lab.charts.forEach((chart, i) => charts.append(drawChart(chart, `${prefix}lab-chart-${i}`)));
  nodes.push(charts);
  nodes.push(figureTable(lab, names));
  nodes.push(
    el(
      "p",
      `Budget: ${answer.budget.words}; each figure with its 95% interval (the thin line: the whiskers), "fixed" where the rules set the figure; the dashed line is what pure luck or a fair seat gives. ` +
        `The same test in a terminal: ${answer.compared ? `eights rules ${answer.preset} ${answer.changes.map((c) => `--option ${c}`).join(" ")} --save house.toml, then ` : ""}${answer.command}.`,
      "about lab-budget",
    ),
  );
  return nodes;
}

/** The figures as a table: a row per figure, a column per rule set (the charts' text alternative), and what
 * they rest on: where each comes from, its interval, what these games can see (the lab's notes). */
function figureTable(lab, names) {
  const details = el("details", null, "lab-table");
  details.append(el("summary", "The figures as a table"));
  const table = el("table");
  table.append(el("caption", "Each figure with its 95% interval"));
  const head = el("tr");
  head.append(scoped("th", "figure", "col"), ...names.map((n) => scoped("th", n, "col")));
  const thead = el("thead");
  thead.append(head);
  const tbody = el("tbody");
  for (const row of lab.rows) {
    const line = el("tr");
    line.append(scoped("th", row.label, "row"), ...row.cells.map((c) => el("td", c)));
    tbody.append(line);
  }
  table.append(thead, tbody);
  const wrap = el("div", null, "table-scroll");
  wrap.append(table);
  details.append(wrap, ...lab.notes.map((line) => el("p", line, "about lab-note")));
  return details;
}

function scoped(tag, text, scope) {
  const cell = el(tag, text);
  cell.scope = scope;
  return cell;
}

function svg(tag, attributes, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

/** A figure as words, as the table's cells (eights.lab.report.cell): `48.1% (44.2-51.9%)`, `12.3 (11.0-13.6)`,
 * `1.00 (by the rules)` for a figure the rules fix; `-` where no game gave it. */
function words(e, percent) {
  if (e.value === null) return "-";
  const scale = percent ? 100 : 1;
  const unit = percent ? "%" : "";
  const digits = percent || Math.abs(e.value) >= 10 ? 1 : 2;
  const f = (x) => (x * scale).toFixed(digits);
  if (e.method === "fixed") return `${f(e.value)}${unit} (by the rules)`;
  if (e.low === null) return `${f(e.value)}${unit} (one game: no interval)`;
  return `${f(e.value)}${unit} (${f(e.low)}-${f(e.high)}${unit})`;
}

/** Whether the figure was measured with an interval (not fixed by the rules, not from a single game). */
const measured = (e) => e.value !== null && e.low !== null;

/** Round steps for an axis from `low` to `high`: about four ticks. */
function ticks(low, high) {
  const span = high - low || 1;
  const raw = span / 4;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= raw);
  const out = [];
  for (let t = Math.ceil(low / step) * step; t <= high + step * 1e-9; t += step) out.push(Number(t.toFixed(10)));
  return { step, out };
}

/** Words split into lines of about `width` letters (an axis label under its group). */
function wrap(text, width) {
  const lines = [];
  for (const word of text.split(" ")) {
    const last = lines.length ? lines[lines.length - 1] : null;
    if (last !== null && (last + " " + word).length <= width) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return lines;
}

/** One chart: for each group, a bar per rule set with its interval; the reference as a dashed line. */
function drawChart(chart, id) {
  const scale = chart.percent ? 100 : 1;
  const values = chart.series.flatMap((s) => s.values).filter((e) => e.value !== null);
  const lows = values.map((e) => (measured(e) ? e.low : e.value) * scale);
  const highs = values.map((e) => (measured(e) ? e.high : e.value) * scale);
  const reference = chart.reference === null ? null : chart.reference * scale;
  let low = Math.min(0, ...lows, reference ?? 0);
  let high = Math.max(0, ...highs, reference ?? 0);
  if (high === low) high = low + 1;
  const axis = ticks(low, high);
  low = Math.min(low, axis.out[0]);
  high = Math.max(high, axis.out[axis.out.length - 1]);
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const y = (v) => PAD.top + plotH * (1 - (v - low) / (high - low));
  const groupW = plotW / chart.groups.length;
  const barW = Math.min(34, (groupW * 0.8) / chart.series.length);

  const figure = el("figure", null, "lab-chart");
  const caption = el("figcaption", chart.title);
  caption.id = `${id}-title`;
  const spoken = chart.groups
    .map((group, g) => `${group}: ${chart.series.map((s) => `${s.name} ${words(s.values[g], chart.percent)}`).join(", ")}`)
    .join("; ");
  const drawing = svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-labelledby": caption.id, "aria-describedby": `${id}-desc` });
  drawing.append(svg("desc", { id: `${id}-desc` }, `${chart.unit}${chart.percent ? " (%)" : ""}. ${spoken}.`));
  for (const t of axis.out) {
    drawing.append(svg("line", { x1: PAD.left, x2: W - PAD.right, y1: y(t), y2: y(t), class: t === 0 ? "zero" : "grid" }));
    drawing.append(svg("text", { x: PAD.left - 4, y: y(t) + 3.5, class: "tick", "text-anchor": "end" }, `${Number(t.toFixed(2))}${chart.percent ? "%" : ""}`));
  }
  chart.groups.forEach((group, g) => {
    const middle = PAD.left + groupW * (g + 0.5);
    chart.series.forEach((series, i) => {
      const e = series.values[g];
      if (e.value === null) return;
      const x = middle - (barW * chart.series.length) / 2 + barW * i;
      const top = y(Math.max(0, e.value * scale));
      const bottom = y(Math.min(0, e.value * scale));
      const bar = svg("rect", { x: x + 1, y: top, width: barW - 2, height: Math.max(0.5, bottom - top), class: `bar series-${i}` });
      bar.append(svg("title", {}, `${series.name}, ${group}: ${words(e, chart.percent)}`));
      const mid = x + barW / 2;
      drawing.append(bar);
      if (e.method === "fixed") {
        drawing.append(svg("text", { x: mid, y: top - 3, class: "tick", "text-anchor": "middle" }, "fixed"));
      } else if (measured(e)) {
        const hi = y(e.high * scale);
        const lo = y(e.low * scale);
        drawing.append(
          svg("line", { x1: mid, x2: mid, y1: hi, y2: lo, class: "interval" }),
          svg("line", { x1: mid - 4, x2: mid + 4, y1: hi, y2: hi, class: "interval" }),
          svg("line", { x1: mid - 4, x2: mid + 4, y1: lo, y2: lo, class: "interval" }),
        );
      }
    });
    const label = svg("text", { x: middle, y: H - PAD.bottom + 14, class: "group", "text-anchor": "middle" });
    wrap(group, Math.max(8, Math.floor(groupW / 6.5))).slice(0, 3).forEach((line, n) => {
      label.append(svg("tspan", { x: middle, dy: n === 0 ? 0 : 12 }, line));
    });
    drawing.append(label);
  });
  if (reference !== null) {
    drawing.append(svg("line", { x1: PAD.left, x2: W - PAD.right, y1: y(reference), y2: y(reference), class: "reference" }));
  }
  figure.append(caption, drawing);
  return figure;
}
