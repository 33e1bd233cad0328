// The score sheet of a game played with real cards (issue 22). Every figure on it comes from the server,
// which scores with the engine's own rules: this page sends who went out and each other player's points
// or cards left, and shows what comes back. It never adds up a hand.
//
// /scorecard starts a sheet; /s/CODE shows one. The browser that starts a sheet keeps its edit token
// (localStorage, or the edit link /s/CODE#e=TOKEN); without it the sheet is read-only. Every page on a
// sheet follows it live over /ws/sheets/CODE.

import { $, button, el, keepingFocus, labelled, select } from "./dom.js";
import { renderSVG } from "./vendor/uqr.js";

const SUIT_SYMBOLS = { C: "♣", D: "♦", H: "♥", S: "♠" };
const SUIT_WORDS = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
const MIN_PLAYERS = 2;
const MAX_PLAYERS = 8;
const FIRST_WAIT = 500; // ms before reconnecting the live feed; doubled each time, up to LAST_WAIT
const LAST_WAIT = 10000;
const CLOSE_NO_SHEET = 4004;

// ----- small things ---------------------------------------------------------------------------------------

function stored(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null; // storage off: nothing is remembered
  }
}

function store(key, value) {
  try {
    localStorage.setItem(key, value);
  } catch {
    // storage off: the page works, it forgets
  }
}

const tokenOf = (code) => stored(`eights-sheet-${code}`);

function mySheets() {
  try {
    const list = JSON.parse(stored("eights-sheets") || "[]");
    return Array.isArray(list) ? list : [];
  } catch {
    return [];
  }
}

function remember(code, token, sheet) {
  store(`eights-sheet-${code}`, token);
  const entry = { code, title: sheet.title, players: sheet.players };
  store("eights-sheets", JSON.stringify([entry, ...mySheets().filter((s) => s.code !== code)].slice(0, 20)));
}

/** The one line saying what went wrong, until the next thing works (or a tap hides it). */
function problem(text) {
  const line = $("problem");
  line.textContent = text;
  line.hidden = !text;
  line.onclick = () => problem("");
}

/** Ask the server; the answer is {ok, status, data}, with a refusal's one line as data.error. */
async function api(method, path, body) {
  let response;
  try {
    response = await fetch(path, {
      method,
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    return { ok: false, status: 0, data: { error: "the server cannot be reached: check the connection and try again" } };
  }
  let data = {};
  try {
    data = await response.json();
  } catch {
    data = {};
  }
  if (!response.ok && !data.error) {
    const detail = Array.isArray(data.detail) ? data.detail[0] : null;
    data.error = detail ? `${detail.loc.slice(1).join(" ")}: ${detail.msg}` : `the server said ${response.status}`;
  }
  return { ok: response.ok, status: response.status, data };
}

/** A card's face as text: rank and suit symbol, coloured by suit; a joker by its name. */
function cardText(text, className = "card-text") {
  const suit = /[CDHS]$/.test(text) && text.length > 1 ? text.slice(-1) : null;
  const node = el("span", suit ? text.slice(0, -1) + SUIT_SYMBOLS[suit] : text, `${className} suit-${suit || "joker"}`);
  return node;
}

function cardWords(text) {
  const suit = /[CDHS]$/.test(text) && text.length > 1 ? text.slice(-1) : null;
  return suit ? `${text.slice(0, -1)} of ${SUIT_WORDS[suit]}` : text === "GJ" ? "Guarantee Joker" : "joker";
}

// ----- starting a sheet -------------------------------------------------------------------------------------

const start = { catalog: null, preset: "derange", options: {}, players: ["", ""], dealer: "" };

async function openStart() {
  $("start").hidden = false;
  const presets = await api("GET", "/api/presets");
  if (!presets.ok) return problem(presets.data.error);
  start.catalog = presets.data;
  // Names are offered from the sheets this device keeps, never from the server's: the server holds
  // every device's sheets, and no one else's names are this page's to show.
  const kept = mySheets().map((s) => (Array.isArray(s.players) ? s.players.filter((n) => typeof n === "string") : []));
  const known = [...new Map(kept.flat().map((name) => [name.toLocaleLowerCase(), name])).values()];
  $("known-names").replaceChildren(...known.map((name) => new Option(name)));
  if (kept.length && kept[0].length >= MIN_PLAYERS) start.players = [...kept[0]];
  drawPresets();
  drawPlayers();
  drawMySheets();
  $("add-player").addEventListener("click", () => {
    start.players.push("");
    drawPlayers();
    $(`player-${start.players.length - 1}`).focus();
  });
  $("new-sheet").addEventListener("submit", startSheet);
}

const presetOf = (name) => start.catalog.presets.find((p) => p.name === name);

function drawPresets() {
  const box = $("sheet-presets");
  box.replaceChildren(el("legend", "Game"));
  for (const p of start.catalog.presets) {
    const radio = document.createElement("input");
    radio.type = "radio";
    radio.name = "preset";
    radio.id = `preset-${p.name}`;
    radio.value = p.name;
    radio.checked = p.name === start.preset;
    radio.addEventListener("change", () => {
      start.preset = p.name;
      start.options = {};
      keepingFocus(drawPresets);
      drawPlayers();
    });
    const words = el("span", null, "preset-words");
    words.append(el("strong", p.title), el("span", p.summary, "about"));
    const choice = el("label", null, "preset");
    choice.append(radio, words);
    box.append(choice);
  }
  const options = $("sheet-options");
  options.replaceChildren(el("legend", "Options"));
  const shown = presetOf(start.preset).options.filter((o) => o.main);
  options.hidden = !shown.length;
  for (const option of shown) options.append(optionControl(option));
}

/** A control for one of the preset's main options; only values changed from the preset are sent. */
function optionControl(option) {
  const id = `option-${option.key}`;
  const value = start.options[option.key] ?? option.value;
  const set = (text) => {
    if (text === option.value) delete start.options[option.key];
    else start.options[option.key] = text;
  };
  if (option.kind === "bool") {
    const box = document.createElement("input");
    box.type = "checkbox";
    box.id = id;
    box.checked = value === "true";
    box.addEventListener("change", () => set(box.checked ? "true" : "false"));
    const label = el("label", null, "check");
    label.append(box, el("span", option.label));
    return label;
  }
  let control;
  if (option.kind === "choice") {
    control = select(id, option.choices.map((c) => [c, c]), value);
    control.addEventListener("change", () => set(control.value));
  } else {
    control = document.createElement("input");
    control.id = id;
    control.value = value;
    if (option.kind === "int") control.inputMode = "numeric";
    control.addEventListener("input", () => set(control.value.trim()));
  }
  return labelled(option.label, control, "inline");
}

function drawPlayers() {
  const most = Math.min(MAX_PLAYERS, presetOf(start.preset)?.max_players || MAX_PLAYERS);
  const list = $("sheet-players");
  list.replaceChildren();
  start.players.forEach((name, index) => {
    const input = document.createElement("input");
    input.id = `player-${index}`;
    input.value = name;
    input.maxLength = 24;
    input.autocomplete = "off";
    input.setAttribute("list", "known-names");
    input.setAttribute("aria-label", `Player ${index + 1}`);
    input.placeholder = `Player ${index + 1}`;
    input.addEventListener("input", () => {
      start.players[index] = input.value;
      drawDealers();
    });
    const row = el("li", null, "player-field");
    row.append(input);
    if (start.players.length > MIN_PLAYERS) {
      const remove = button("✕", () => {
        start.players.splice(index, 1);
        drawPlayers();
      }, "quiet");
      remove.setAttribute("aria-label", `Remove player ${index + 1}`);
      row.append(remove);
    }
    list.append(row);
  });
  $("add-player").disabled = start.players.length >= most;
  drawDealers();
}

function drawDealers() {
  const names = start.players.map((n) => n.trim()).filter(Boolean);
  if (!names.includes(start.dealer)) start.dealer = "";
  const dealer = select("sheet-dealer", [["", "Draw at random"], ...names.map((n) => [n, n])], start.dealer);
  dealer.addEventListener("change", () => (start.dealer = dealer.value));
  $("sheet-dealer").replaceWith(dealer);
}

function drawMySheets() {
  const list = mySheets();
  $("my-sheets").hidden = !list.length;
  $("my-sheet-list").replaceChildren(
    ...list.map((s) => {
      const link = el("a", `${s.title}: ${s.players.join(", ")}`);
      link.href = `/s/${s.code}`;
      const item = el("li");
      item.append(link);
      return item;
    }),
  );
}

async function startSheet(event) {
  event.preventDefault();
  const players = start.players.map((n) => n.trim());
  const body = { preset: start.preset, options: start.options, players, dealer: start.dealer || null };
  $("start-sheet").disabled = true;
  const answer = await api("POST", "/api/sheets", body);
  $("start-sheet").disabled = false;
  if (!answer.ok) return problem(answer.data.error);
  remember(answer.data.code, answer.data.token, answer.data.sheet);
  location.assign(`/s/${answer.data.code}`);
}

// ----- a sheet ------------------------------------------------------------------------------------------

let code = null;
let token = null;
let sheet = null;
let busy = false;
let form = null; // {round, editing, out, hands: {name: {mode, cards, points}}}

function freshForm(editing = null) {
  const hands = {};
  const round = editing ? sheet.rounds[editing - 1] : null;
  for (const name of sheet.players) {
    const left = round ? round.left[name] : undefined;
    if (typeof left === "number") hands[name] = { mode: "points", cards: [], points: String(left) };
    else hands[name] = { mode: "cards", cards: left ? [...left] : [], points: "" };
  }
  const out = round ? round.out : undefined; // undefined: not said yet; null: blocked
  return { round: sheet.next?.round ?? null, editing, out, hands };
}

async function openSheet(sheetCode) {
  code = sheetCode;
  const given = /^#e=([\w-]+)$/.exec(location.hash);
  if (given) {
    token = given[1];
    history.replaceState(null, "", location.pathname);
  } else {
    token = tokenOf(code);
  }
  $("sheet").hidden = false;
  const answer = await api("GET", `/api/sheets/${code}`);
  if (!answer.ok) {
    $("sheet").hidden = true;
    return problem(answer.data.error);
  }
  if (given) remember(code, token, answer.data);
  show(answer.data);
  setUpSheet();
  follow();
}

/** Show the sheet as ``data`` has it. A round being entered that is now in the sheet, or a round being
 * changed that is gone, starts the form afresh; when that came from another device (``elsewhere``) and
 * something had been entered here, say so. */
function show(data, elsewhere = false) {
  const before = form;
  sheet = data;
  if (!form || (!form.editing && form.round !== (sheet.next?.round ?? null))) form = freshForm();
  if (form.editing && form.editing > sheet.rounds.length) form = freshForm();
  if (elsewhere && before && form !== before && begun(before)) {
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

function drawSheet() {
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
}

function nextWords() {
  if (!sheet.next) return sheet.next_words;
  const { round, dealer, hand_size: cards } = sheet.next;
  const of = sheet.schedule.length ? ` of ${sheet.schedule.length}` : "";
  return `Round ${round}${of}: ${dealer} deals ${cards} card${cards === 1 ? "" : "s"} each.`;
}

function drawResult() {
  const box = $("result");
  box.hidden = !sheet.over;
  if (!sheet.over) return;
  const verb = sheet.winners.length > 1 ? "win" : "wins";
  const early = sheet.finished_early ? " (finished early)" : "";
  box.replaceChildren(el("p", `${sheet.winners.join(" and ")} ${verb}${early}`, "winner-line"));
}

function drawStandings() {
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

// ----- entering a round -------------------------------------------------------------------------------

function drawEntry() {
  const editing = form.editing ? sheet.rounds[form.editing - 1] : null;
  const cards = editing ? editing.hand_size : sheet.next?.hand_size;
  const dealer = editing ? editing.dealer : sheet.next?.dealer;
  const number = editing ? editing.round : sheet.next?.round;
  $("entry-title").textContent = `${editing ? "Edit round" : "Round"} ${number}: ${dealer} dealt ${cards} card${cards === 1 ? "" : "s"}`;
  $("cancel-edit").hidden = !editing;
  $("save-round").textContent = editing ? `Save round ${number}` : "Save round";

  const choices = sheet.players.map((name, index) => outChoice(`out-${index}`, name, name));
  choices.push(outChoice("out-blocked", "Blocked", null));
  $("out-choices").replaceChildren(...choices);

  const hands = $("hands");
  if (form.out === undefined) {
    const then = sheet.keeps_points ? "then give everyone else's cards or points" : "a blocked round needs everyone's cards";
    hands.replaceChildren(el("p", `Tap who went out (or Blocked); ${then}.`, "about"));
    return;
  }
  if (!sheet.keeps_points && form.out !== null) {
    hands.replaceChildren(el("p", "No points in these rules: the player who went out wins the game.", "about"));
    return;
  }
  hands.replaceChildren(
    ...sheet.players.map((name, index) => (name === form.out ? null : handRow(name, index))).filter(Boolean),
  );
}

function outChoice(id, words, value) {
  const choice = button(words, () => {
    form.out = value;
    keepingFocus(drawEntry);
  }, "out-choice");
  choice.id = id;
  choice.setAttribute("aria-pressed", String(form.out === value));
  return choice;
}

function handRow(name, index) {
  const hand = form.hands[name];
  const row = el("div", null, "hand-row");
  row.dataset.player = name;
  const head = el("div", null, "hand-head");
  head.append(el("strong", name, "hand-name"));
  const modes = el("div", null, "modes");
  modes.setAttribute("role", "group");
  modes.setAttribute("aria-label", `${name}: cards or points`);
  for (const [mode, words] of [["cards", "Cards"], ["points", "Points"]]) {
    const choice = button(words, () => {
      hand.mode = mode;
      keepingFocus(drawEntry);
    }, "mode");
    choice.id = `mode-${mode}-${index}`;
    choice.setAttribute("aria-pressed", String(hand.mode === mode));
    modes.append(choice);
  }
  head.append(modes);
  row.append(head);
  if (hand.mode === "points") {
    const input = document.createElement("input");
    input.id = `points-${index}`;
    input.inputMode = "numeric";
    input.value = hand.points;
    input.placeholder = "points";
    input.addEventListener("input", () => (hand.points = input.value));
    row.append(labelled(`${name}'s points`, input, "inline points"));
  } else {
    const chosen = el("p", null, "chosen");
    if (hand.cards.length) chosen.append(...hand.cards.map((c) => cardText(c)));
    else chosen.append(el("span", "no cards", "about"));
    const pick = button(hand.cards.length ? "Change cards" : "Pick cards", () => openPicker(name), "pick");
    pick.id = `pick-${index}`;
    const line = el("div", null, "cards-line");
    line.append(chosen, pick);
    row.append(line);
  }
  return row;
}

function roundBody() {
  const left = {};
  for (const name of sheet.players) {
    if (name === form.out) continue;
    if (!sheet.keeps_points && form.out !== null) continue;
    const hand = form.hands[name];
    if (hand.mode === "cards") left[name] = hand.cards;
    else if (/^\s*[-+]?\d+\s*$/.test(hand.points)) left[name] = Number(hand.points);
    else if (hand.points.trim()) left[name] = hand.points;
  }
  return { token, revision: sheet.revision, out: form.out, left };
}

async function saveRound(event) {
  event.preventDefault();
  if (form.out === undefined) return problem("Say who went out first (or Blocked, when no one did).");
  const path = form.editing ? `/api/sheets/${code}/rounds/${form.editing}` : `/api/sheets/${code}/rounds`;
  const done = await change(form.editing ? "PUT" : "POST", path, roundBody());
  if (done) {
    form = freshForm();
    keepingFocus(drawSheet);
  }
}

/** Send a change; on success show the sheet as saved. A refusal shows its one line and changes nothing
 * (a stale change also shows the sheet as it is now). */
async function change(method, path, body) {
  if (busy) return false;
  busy = true;
  document.body.classList.add("busy");
  const answer = await api(method, path, body ?? { token, revision: sheet.revision });
  busy = false;
  document.body.classList.remove("busy");
  if (!answer.ok) {
    problem(answer.data.error);
    if (answer.data.sheet) show(answer.data.sheet);
    return false;
  }
  problem("");
  // What the change did beyond the figures, in words: a deleted round moves the later ones up.
  const said = typeof answer.data.said === "string" ? answer.data.said : "";
  $("said").textContent = said ? `${said[0].toUpperCase()}${said.slice(1)}.` : "";
  $("said").hidden = !said;
  const ended = !sheet.over && answer.data.over;
  show(answer.data);
  if (ended) $("result").scrollIntoView({ block: "center" });
  return true;
}

// ----- the card picker -------------------------------------------------------------------------------------

let picking = null; // {name, counts: Map}

function openPicker(name) {
  picking = { name, counts: new Map() };
  for (const card of form.hands[name].cards) picking.counts.set(card, (picking.counts.get(card) || 0) + 1);
  $("picker-title").textContent = `${name}'s cards left`;
  const box = $("picker-cards");
  box.replaceChildren();
  const groups = new Map();
  for (const card of sheet.pack) {
    const key = card.suit || "joker";
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(card);
  }
  for (const [suit, cards] of groups) {
    const group = el("div", null, "picker-suit");
    group.setAttribute("role", "group");
    group.setAttribute("aria-label", suit === "joker" ? "jokers" : SUIT_WORDS[suit]);
    for (const card of cards) group.append(pickerCard(card));
    box.append(group);
  }
  drawChosen();
  const dialog = $("picker");
  dialog.showModal();
  box.querySelector("button")?.focus();
}

function pickerCard({ card, copies }) {
  const node = button("", () => {
    const count = ((picking.counts.get(card) || 0) + 1) % (copies + 1);
    if (count) picking.counts.set(card, count);
    else picking.counts.delete(card);
    markCard(node, card, copies);
    drawChosen();
  }, "pick-card");
  node.append(cardText(card, "face"));
  node.dataset.card = card;
  markCard(node, card, copies);
  return node;
}

function markCard(node, card, copies) {
  const count = picking.counts.get(card) || 0;
  node.setAttribute("aria-pressed", String(count > 0));
  node.setAttribute("aria-label", `${cardWords(card)}${copies > 1 ? `, ${count} of ${copies}` : ""}`);
  node.querySelector(".count")?.remove();
  if (count > 1 || (count && copies > 1)) node.append(el("span", `×${count}`, "count"));
}

function pickedCards() {
  const cards = [];
  for (const { card } of sheet.pack) for (let i = 0; i < (picking.counts.get(card) || 0); i++) cards.push(card);
  return cards;
}

function drawChosen() {
  const cards = pickedCards();
  const line = $("picker-chosen");
  line.replaceChildren(el("span", cards.length ? `${cards.length} card${cards.length === 1 ? "" : "s"}: ` : "No cards chosen."));
  line.append(...cards.map((c) => cardText(c)));
}

function closePicker(cards) {
  if (!picking) return;
  const { name } = picking;
  if (cards) form.hands[name].cards = cards;
  picking = null;
  $("picker").close();
  drawEntry();
  $(`pick-${sheet.players.indexOf(name)}`)?.focus();
}

// ----- past rounds ----------------------------------------------------------------------------------------

function drawRounds(editor) {
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
        form = freshForm(round.round);
        keepingFocus(drawSheet);
        $("entry").scrollIntoView({ block: "start" });
        $("out-choices").querySelector('[aria-pressed="true"]')?.focus();
      });
      edit.id = `edit-${round.round}`;
      edit.setAttribute("aria-label", `Edit round ${round.round}`);
      const remove = button("Delete", () => change("DELETE", `/api/sheets/${code}/rounds/${round.round}`));
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

// ----- sharing, tools and the live feed ------------------------------------------------------------------

function openShare() {
  const link = `${location.origin}/s/${code}`;
  const view = $("view-link");
  view.textContent = link;
  view.href = link;
  $("view-qr").src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(renderSVG(link, { ecc: "M", border: 2 }))}`;
  $("copied").textContent = "";
  $("edit-share").hidden = !token;
  if (token) {
    const editLink = `${link}#e=${token}`;
    $("edit-link").textContent = editLink;
    $("edit-link").href = editLink;
  }
  $("share-dialog").showModal();
}

function setUpSheet() {
  $("entry").addEventListener("submit", saveRound);
  $("cancel-edit").addEventListener("click", () => {
    form = freshForm();
    keepingFocus(drawSheet);
  });
  $("undo").addEventListener("click", () => change("POST", `/api/sheets/${code}/undo`));
  $("finish").addEventListener("click", () => change("POST", `/api/sheets/${code}/finish`));
  $("share").addEventListener("click", openShare);
  $("share-close").addEventListener("click", () => $("share-dialog").close());
  $("copy-view").addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText($("view-link").href);
      $("copied").textContent = "Copied.";
    } catch {
      $("copied").textContent = "Copying is blocked here: select the link instead.";
    }
  });
  $("picker-done").addEventListener("click", () => closePicker(pickedCards()));
  $("picker-clear").addEventListener("click", () => closePicker([]));
  $("picker").addEventListener("cancel", () => closePicker(null));
}

/** Follow the sheet over a WebSocket: it sends the sheet at once and whenever it changes; reconnects by
 * itself (with backoff) when the connection or the server goes. */
function follow() {
  let wait = FIRST_WAIT;
  const open = () => {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}/ws/sheets/${code}`);
    socket.addEventListener("open", () => {
      wait = FIRST_WAIT;
      $("connection").hidden = true;
    });
    socket.addEventListener("message", (event) => {
      let data;
      try {
        data = JSON.parse(event.data);
      } catch {
        return;
      }
      if (data.error) problem(data.error);
      else if (data.revision !== sheet.revision) show(data, !busy); // while a change of ours is on its way, it may be ours
    });
    socket.addEventListener("close", (event) => {
      if (event.code === CLOSE_NO_SHEET) return;
      $("connection").textContent = "Reconnecting to the server…";
      $("connection").hidden = false;
      setTimeout(open, wait);
      wait = Math.min(wait * 2, LAST_WAIT);
    });
  };
  open();
}

const path = /^\/s\/([\w-]+)$/.exec(location.pathname);
if (path) openSheet(path[1]);
else openStart();
