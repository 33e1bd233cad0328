// Drawing the sheet: its title, the result, the totals, what is next, the round form (entry.js), the rounds
// played and the tools.

import { $, button, el, keepingFocus } from "../dom.js";
import { cardText, problem } from "./basics.js";
import { drawEntry, freshForm } from "./entry.js";
import { sayOffline, store } from "./keep.js";
import { state } from "./state.js";

let askDelete = null; // what a round's Delete button does: deleting is a change (changes.js), a module above

/** Have a round's Delete button call ``ask(number)`` (scorecard.js gives it ``askDelete`` of changes.js). */
export function onDelete(ask) {
  askDelete = ask;
}

/** Show the sheet as ``data`` has it. A round being entered that is now in the sheet, or a round being
 * changed that is gone, starts the form afresh; when that came from another device (``elsewhere``) and
 * something had been entered here, say so. */
export function show(data, elsewhere = false) {
  const before = state.form;
  state.sheet = data;
  const { sheet, local, code, token } = state;
  if (!local && code && token) {
    store(`eights-copy-${code}`, JSON.stringify(data));
    sayOffline([data.scoring_url]);
  }
  if (!state.form || (!state.form.editing && state.form.round !== (sheet.next?.round ?? null))) state.form = freshForm();
  if (state.form.editing && state.form.editing > sheet.rounds.length) state.form = freshForm();
  if (elsewhere && before && state.form !== before && begun(before)) {
    problem(
      before.editing
        ? `Round ${before.editing} was deleted on another device while you were changing it here.`
        : `Round ${before.round} was entered on another device while you were entering it here: ` +
            "check it in the list; what you had begun was cleared.",
    );
  }
  keepingFocus(drawSheet);
}

/** Whether anything was entered on ``entry`` (a form). */
function begun(entry) {
  return (
    Boolean(entry.editing) ||
    entry.out !== undefined ||
    Object.values(entry.hands).some((hand) => hand.cards.length > 0 || hand.points !== "")
  );
}

/** Draw the sheet as ``state.sheet`` has it. */
export function drawSheet() {
  const { sheet, form, local, code, token } = state;
  const editor = Boolean(token);
  document.body.dataset.rounds = sheet.rounds.length;
  document.body.dataset.revision = sheet.revision;
  $("sheet-title").textContent = `${sheet.title}: ${sheet.players.join(", ")}`;
  const teams = sheet.teams.length ? ` Teams: ${sheet.teams.join(", ")}.` : "";
  $("sheet-scoring").textContent = `${sheet.scoring[0].toUpperCase()}${sheet.scoring.slice(1)}.${teams}`;
  $("following").hidden = editor;
  drawResult();
  drawStandings();
  $("next").textContent = nextWords();
  $("entry").hidden = !editor || (sheet.over && !form.editing);
  if (!$("entry").hidden) drawEntry();
  drawRounds(editor);
  $("undo").hidden = !editor || !sheet.can_undo;
  $("finish").hidden = !editor || sheet.over || !sheet.rounds.length;
  $("csv").href = `/api/sheets/${code}/sheet.csv`;
  $("csv").hidden = Boolean(local);
  $("share").hidden = Boolean(local);
  document.body.dataset.kept = local ? (local.code ? "changes" : "sheet") : "";
  if (local) {
    $("connection").textContent = local.code
      ? "The server cannot be reached: changes are kept on this phone and sent when it can be."
      : "Kept on this phone: the server has not got this sheet yet. It is sent when the server can be reached.";
    $("connection").hidden = false;
  }
}

function nextWords() {
  const { sheet } = state;
  if (!sheet.next) return sheet.next_words;
  const { round, dealer, hand_size: cards } = sheet.next;
  const of = sheet.schedule.length ? ` of ${sheet.schedule.length}` : "";
  return `Round ${round}${of}: ${dealer} deals ${cards} card${cards === 1 ? "" : "s"} each.`;
}

function drawResult() {
  const { sheet } = state;
  const box = $("result");
  box.hidden = !sheet.over;
  if (!sheet.over) return;
  const verb = sheet.winners.length > 1 ? "win" : "wins";
  const early = sheet.finished_early ? " (finished early)" : "";
  box.replaceChildren(el("p", `${sheet.winners.join(" and ")} ${verb}${early}`, "winner-line"));
}

function drawStandings() {
  const { sheet } = state;
  const table = $("standings");
  const word = sheet.keeps_points ? "Total" : "Games won";
  const head = el("tr");
  head.append(el("th", "#"), el("th", "Player"), el("th", word, "number"));
  const body = sheet.standings.map((s) => {
    const row = el("tr", null, sheet.rounds.length && s.place === 1 ? "leader" : "");
    row.append(el("td", String(s.place)), el("th", s.name), el("td", String(s.total), "number"));
    row.dataset.player = s.name;
    return row;
  });
  const thead = el("thead");
  thead.append(head);
  const tbody = el("tbody");
  tbody.append(...body);
  table.replaceChildren(thead, tbody);
}

function drawRounds(editor) {
  const { sheet } = state;
  const list = $("rounds");
  const items = [...sheet.rounds].reverse().map((round) => {
    const item = el("li", null, "round");
    item.dataset.round = round.round;
    const how = round.blocked ? "blocked" : `${round.out} went out`;
    const head = el("div", null, "round-head");
    head.append(el("strong", `Round ${round.round}`));
    item.append(head, el("p", `${round.dealer} dealt ${round.hand_size} · ${how}`, "about round-how"));
    const lines = el("table", null, "round-lines");
    sheet.players.forEach((name, seat) => {
      const row = el("tr");
      const points = sheet.keeps_points ? `+${round.points[seat]}` : round.points[seat] ? "won" : "";
      row.append(el("th", name), breakdownCell(round.lines[seat]), el("td", points, "number"), el("td", String(round.totals[seat]), "number total"));
      lines.append(row);
    });
    item.append(lines);
    if (editor) {
      const tools = el("div", null, "buttons round-tools");
      const edit = button("Edit", () => {
        state.form = freshForm(round.round);
        keepingFocus(drawSheet);
        $("entry").scrollIntoView({ block: "start" });
        $("out-choices").querySelector('[aria-pressed="true"]')?.focus();
      });
      edit.id = `edit-${round.round}`;
      edit.setAttribute("aria-label", `Edit round ${round.round}`);
      const remove = button("Delete", () => askDelete(round.round));
      remove.id = `delete-${round.round}`;
      remove.setAttribute("aria-label", `Delete round ${round.round}`);
      tools.append(edit, remove);
      head.append(tools);
    }
    return item;
  });
  list.replaceChildren(...items);
  if (!items.length) list.append(el("li", "No round entered yet.", "about"));
}

/** "8H 50 + KS 20 = 70" from the server, with the cards drawn as cards. */
function breakdownCell(text) {
  const cell = el("td", null, "breakdown");
  for (const part of text.split(" ")) {
    cell.append(/^(10|[2-9AJQK])[CDHS]$|^(JK|GJ)$/.test(part) ? cardText(part) : part, " ");
  }
  return cell;
}
