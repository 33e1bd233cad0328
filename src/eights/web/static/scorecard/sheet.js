// The score sheet of a game played with real cards (issue 22). Online, every figure on it comes from the
// server, which scores with the engine's own rules: this page sends who went out and each other player's
// points or cards left, and shows what comes back. Only offline does it add up a hand (below).
//
// /scorecard starts a sheet; /s/CODE shows one. The browser that starts a sheet keeps its edit token
// (localStorage, or the edit link /s/CODE#e=TOKEN); without it the sheet is read-only. Every page on a
// sheet follows it live over /ws/sheets/CODE.
//
// Offline (issue 30): a service worker (/scorecard-sw.js) keeps the page and its files; the page keeps the
// rules' scoring data itself (localStorage), and says when this phone is ready to keep score with no network.
// A sheet started with no server is kept on this phone (/scorecard#kept=ID) and scored here by scoring.js
// from that data; a sheet with a code whose server cannot be reached goes on from the copy this phone kept,
// its changes queued. When the server answers again the page sends them; the server scores them again, and
// where it disagrees, or the sheet changed elsewhere meanwhile, the page says so and shows the server's sheet.

import { $, button, el, keepingFocus, labelled, select } from "../dom.js";
import * as scoring from "../scoring.js";
import { renderSVG } from "../vendor/uqr.js";

const SUIT_SYMBOLS = { C: "♣", D: "♦", H: "♥", S: "♠" };
const SUIT_WORDS = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
const MIN_PLAYERS = 2;
const MAX_PLAYERS = 8;
const FIRST_WAIT = 500; // ms before reconnecting the live feed; doubled each time, up to LAST_WAIT
const LAST_WAIT = 10000;
const CLOSE_NO_SHEET = 4004;
const SYNC_WAIT = 3000; // ms between tries to send what was kept offline

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
  if (token) store(`eights-sheet-${code}`, token);
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
  sayOffline(presets.data.presets.map((p) => scoringUrl(p.name, {})));
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

/** The sheets started on this phone with no server, not sent yet: [{href, title, players}]. */
function keptSheets() {
  const kept = [];
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      const record = key.startsWith("eights-kept-") ? loadKept(key) : null;
      if (record?.sheet?.players) kept.push({ href: `/scorecard#kept=${record.id}`, title: `${record.preset} (not sent yet)`, players: record.sheet.players });
    }
  } catch {
    // storage off: nothing kept
  }
  return kept;
}

function drawMySheets() {
  const list = [...keptSheets(), ...mySheets().map((s) => ({ ...s, href: `/s/${s.code}` }))];
  $("my-sheets").hidden = !list.length;
  $("my-sheet-list").replaceChildren(
    ...list.map((s) => {
      const link = el("a", `${s.title}: ${s.players.join(", ")}`);
      link.href = s.href;
      if (s.href.startsWith("/scorecard#")) link.addEventListener("click", () => setTimeout(() => location.reload()));
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
  if (answer.status === 0) return keepOffline(body);
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
  const pending = loadKept(`eights-offline-${code}`);
  if (pending && token && (await goLocal(pending))) return;
  const answer = await api("GET", `/api/sheets/${code}`);
  if (answer.status === 0 && token) {
    const copy = loadKept(`eights-copy-${code}`);
    const kept = copy && { code, base: copy.revision, scoring_url: copy.scoring_url, sheet: modelOf(copy), ops: [] };
    if (kept && (await goLocal(kept))) return;
  }
  if (!answer.ok) {
    $("sheet").hidden = true;
    return problem(answer.data.error);
  }
  if (given) remember(code, token, answer.data);
  show(answer.data);
  setUpSheet();
  follow();
  sayNote();
}

// ----- kept offline ---------------------------------------------------------------------------------------

let local = null; // a sheet kept on this phone: {id?, code?, base?, preset?, options?, scoring_url, sheet, ops, rules}
let syncing = false;

function loadKept(key) {
  try {
    const data = JSON.parse(stored(key) || "null");
    return data && typeof data === "object" ? data : null;
  } catch {
    return null;
  }
}

function forget(key) {
  try {
    localStorage.removeItem(key);
  } catch {
    // storage off
  }
}

const keptKey = () => (local.code ? `eights-offline-${local.code}` : `eights-kept-${local.id}`);

function saveLocal() {
  const { rules, refused, ...record } = local;
  store(keptKey(), JSON.stringify(record));
}

/** The sheet a server view shows, as scoring.js keeps it. */
function modelOf(view) {
  const rounds = view.rounds.map((r) => (r.deal == null ? { out: r.out, left: r.left } : { out: r.out, left: r.left, deal: r.deal }));
  return { players: view.players, first_dealer: view.first_dealer, rounds, finished: view.finished, undo: view.undo };
}

function scoringUrl(preset, options) {
  const query = new URLSearchParams([["preset", preset], ...Object.entries(options).map(([k, v]) => ["option", `${k}=${v}`])]);
  return `/api/scoring?${query}`;
}

const asked = new Map(); // the rules' scoring asked of the server by this page: url -> promise of the scoring or null

/** The rules' scoring at ``url`` as this phone kept it, or null. */
function keptRules(url) {
  const data = loadKept(`eights-scoring-${url}`);
  return data?.format === scoring.FORMAT ? data : null;
}

/** The rules' scoring at ``url`` from the server, kept on this phone (localStorage) for offline; null when the
 * server cannot be reached or the phone cannot keep it. Asked once per page while it succeeds. */
function fetchRules(url) {
  if (!asked.has(url)) {
    const answer = (async () => {
      try {
        const response = await fetch(url);
        const data = response.ok ? await response.json() : null;
        if (data?.format !== scoring.FORMAT) throw new Error("no scoring");
        store(`eights-scoring-${url}`, JSON.stringify(data));
        return data;
      } catch {
        asked.delete(url); // asked again next time
        return null;
      }
    })();
    asked.set(url, answer);
  }
  return asked.get(url);
}

/** Keep the rules' scoring at each of ``urls`` on this phone; whether all of them are kept. */
async function keepScoring(urls) {
  await Promise.all(urls.filter(Boolean).map(fetchRules));
  return urls.every((url) => url && keptRules(url));
}

/** The rules' scoring from the server, or else as this phone kept it: the page scores from its own copy,
 * whatever the service worker has kept. */
async function loadRules(url) {
  if (!url) return null;
  return (await fetchRules(url)) || keptRules(url);
}

/** Say whether this phone can open the page and keep score at ``urls``' rules with no network: once the service
 * worker is active (so it has kept the page and its files), whether the page has kept the rules' scoring. */
async function sayOffline(urls) {
  if (!("serviceWorker" in navigator)) {
    // a browser keeps a site's files for offline use only over HTTPS (or from the machine itself)
    document.body.dataset.offline = "needs-https";
    $("offline-state").textContent =
      "This page keeps score with no network only when the site is opened over HTTPS: " +
      "here it needs the server, so ask whoever runs it to put it behind HTTPS.";
    $("offline-state").hidden = false;
    return;
  }
  const [kept] = await Promise.all([keepScoring(urls), navigator.serviceWorker.ready]);
  document.body.dataset.offline = kept ? "ready" : "missing";
  $("offline-state").textContent = kept
    ? "This phone now keeps score with no network too: it opens this page and keeps a sheet by itself, " +
      "and sends it when the server can be reached."
    : "This phone could not keep everything it needs to keep score with no network: " +
      "open this page again while it is connected.";
  $("offline-state").hidden = false;
}

/** Go on with a sheet kept on this phone, scored here; false when the rules' scoring is not kept here. */
async function goLocal(record) {
  const rules = await loadRules(record.scoring_url);
  if (!rules) return false;
  local = { ...record, rules };
  saveLocal();
  if (!token) token = "kept";
  $("sheet").hidden = false;
  show(localView());
  setUpSheet();
  trySync();
  window.addEventListener("online", trySync);
  setInterval(trySync, SYNC_WAIT);
  return true;
}

function localView() {
  return { ...scoring.view(local.rules, local.sheet), code: local.code ?? null, revision: local.base ?? null };
}

/** A sheet started with no server: kept on this phone until it can be sent. */
async function keepOffline(body) {
  const url = scoringUrl(body.preset, body.options);
  const rules = await loadRules(url);
  if (!rules) {
    return problem(
      "The server cannot be reached, and this phone has not kept the scoring of these rules: " +
        "start with the game's own options, or connect once with these.",
    );
  }
  const players = body.players;
  const empty = players.findIndex((name) => !name);
  if (empty >= 0) return problem(`Player ${empty + 1} has an empty name: give every player a name of at least one letter.`);
  const folded = players.map((name) => name.toLocaleLowerCase());
  const twice = players.find((name, i) => folded.indexOf(name.toLocaleLowerCase()) !== i);
  if (twice) return problem(`The name ${twice} is given twice: give every player a different name.`);
  if (!rules.tables[String(players.length)]) {
    return problem(`${players.length} players cannot play ${rules.title}; valid: ${Object.keys(rules.tables).join(", ")}.`);
  }
  const dealer = body.dealer || players[Math.floor(Math.random() * players.length)];
  const id = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
  const sheetData = { players, first_dealer: dealer, rounds: [], finished: false, undo: [] };
  const record = { id, preset: body.preset, options: body.options, scoring_url: url, sheet: sheetData, ops: [] };
  store(`eights-kept-${id}`, JSON.stringify(record));
  history.replaceState(null, "", `/scorecard#kept=${id}`);
  $("start").hidden = true;
  await goLocal(record);
}

async function openKept(id) {
  const record = loadKept(`eights-kept-${id}`);
  if (record && (await goLocal(record))) return;
  problem(record ? "This phone has not kept the scoring of this sheet's rules: connect once." : "This phone keeps no such sheet.");
  history.replaceState(null, "", "/scorecard");
  openStart();
}

/** A change made on the sheet kept here, scored here; refused in one line, changing nothing. */
function localChange(method, path, body) {
  const tail = path.split("/").slice(4); // ["rounds"], ["rounds", "3"], ["undo"] or ["finish"]
  const number = Number(tail[1]);
  const entry = body && "out" in body ? { out: body.out, left: body.left } : null;
  try {
    const { rules, sheet: kept } = local;
    let next;
    if (tail[0] === "undo") next = scoring.undo(rules, kept);
    else if (tail[0] === "finish") next = scoring.finish(rules, kept);
    else if (method === "POST") next = scoring.addRound(rules, kept, entry);
    else if (method === "PUT") next = scoring.editRound(rules, kept, number, entry);
    else next = scoring.deleteRound(rules, kept, number);
    local.sheet = next;
    local.ops.push({ method, path: tail.join("/"), body: entry });
  } catch (error) {
    problem(error.message);
    return false;
  }
  saveLocal();
  problem("");
  const ended = !sheet.over && scoring.isOver(local.rules, local.sheet);
  show(localView());
  if (ended) $("result").scrollIntoView({ block: "center" });
  return true;
}

/** Send what was kept here once the server answers; then show the server's sheet, saying where it differs. */
async function trySync() {
  if (!local || local.refused || syncing || busy) return;
  syncing = true;
  try {
    if (local.code) await sendChanges();
    else await sendKept();
  } finally {
    syncing = false;
  }
}

const totalsWords = (view) => view.players.map((name, seat) => `${name} ${view.totals[seat]}`).join(", ");

function agreement(mine, theirs) {
  const same =
    mine.rounds.length === theirs.rounds.length &&
    JSON.stringify(mine.totals) === JSON.stringify(theirs.totals) &&
    mine.over === theirs.over &&
    JSON.stringify(mine.winners) === JSON.stringify(theirs.winners);
  if (same) return null;
  return (
    `The server scored this sheet differently from this phone (here: ${totalsWords(mine)}; ` +
    `on the server: ${totalsWords(theirs)}). This is the server's sheet, which counts.`
  );
}

async function sendKept() {
  const mine = localView();
  const { players, first_dealer: dealer, rounds, finished } = local.sheet;
  const body = { preset: local.preset, options: local.options, players, dealer, rounds, finished };
  const answer = await api("POST", "/api/sheets", body);
  if (answer.status === 0) return; // still no server: kept here, tried again
  if (!answer.ok) {
    // Refused as it stands: asking again would be refused again, so the page stops until it is opened anew.
    local.refused = true;
    problem(`The server refused this sheet: ${answer.data.error}. It stays on this phone.`);
    return;
  }
  const { code: given, token: edit, sheet: theirs, refused } = answer.data;
  remember(given, edit, theirs);
  forget(keptKey());
  const differs = refused
    ? `The server refused ${refused}; the rounds before it were saved. This is the server's sheet, which counts.`
    : agreement(mine, theirs);
  leave(given, differs, `Sent to the server: the sheet now has a code, ${given}, and the server's totals agree with this phone's.`);
}

async function sendChanges() {
  const mine = localView();
  let revision = local.base;
  let theirs = null;
  while (local.ops.length) {
    const op = local.ops[0];
    const answer = await api(op.method, `/api/sheets/${local.code}/${op.path}`, { token, revision, ...(op.body || {}) });
    if (answer.status === 0) return;
    if (!answer.ok) {
      const count = local.ops.length;
      const changes = `${count} change${count === 1 ? "" : "s"} made on this phone ${count === 1 ? "was" : "were"} not sent`;
      const why =
        answer.status === 409
          ? `This sheet was changed on another device while this phone was offline: ${changes}.`
          : `The server refused a change made on this phone (${answer.data.error}): ${changes}.`;
      forget(keptKey());
      return leave(local.code, `${why} This is the server's sheet.`, null);
    }
    revision = answer.data.revision;
    theirs = answer.data;
    local.ops.shift();
    local.base = revision;
    saveLocal();
  }
  if (!theirs) {
    const answer = await api("GET", `/api/sheets/${local.code}`);
    if (answer.status === 0) return;
    theirs = answer.data;
  }
  forget(keptKey());
  leave(local.code, theirs.revision === undefined ? null : agreement(mine, theirs), "Sent to the server: its totals agree with this phone's.");
}

/** Show the server's sheet, with a note of what happened to what was kept here. */
function leave(sheetCode, differs, agrees) {
  try {
    sessionStorage.setItem("eights-sheet-note", JSON.stringify(differs ? { problem: differs } : { said: agrees }));
  } catch {
    // storage off: the sheet is shown without the note
  }
  if (location.pathname === `/s/${sheetCode}`) location.reload();
  else location.replace(`/s/${sheetCode}`);
}

function sayNote() {
  let note = null;
  try {
    note = JSON.parse(sessionStorage.getItem("eights-sheet-note") || "null");
    sessionStorage.removeItem("eights-sheet-note");
  } catch {
    return;
  }
  if (note?.problem) problem(note.problem);
  else if (note?.said) {
    $("said").textContent = note.said;
    $("said").hidden = false;
  }
}

/** Show the sheet as ``data`` has it. A round being entered that is now in the sheet, or a round being
 * changed that is gone, starts the form afresh; when that came from another device (``elsewhere``) and
 * something had been entered here, say so. */
function show(data, elsewhere = false) {
  const before = form;
  sheet = data;
  if (!local && code && token) {
    store(`eights-copy-${code}`, JSON.stringify(data));
    sayOffline([data.scoring_url]);
  }
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
    else chosen.append(el("span", sheet.keeps_points ? "none picked (no cards left: Points, 0)" : "none picked", "about"));
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
    if (hand.mode === "cards") {
      if (hand.cards.length) left[name] = hand.cards; // none picked: not given (Points 0 says none left)
    }
    else if (hand.points.trim()) left[name] = { points: hand.points.trim() }; // read by the scorecard's rule for points
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
  if (local) return localChange(method, path, body);
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

/** "No cards": no card left is 0 points where points are kept (an empty hand is a hand not given). */
function noCards() {
  if (!picking || !sheet.keeps_points) return closePicker([]);
  const { name } = picking;
  Object.assign(form.hands[name], { mode: "points", cards: [], points: "0" });
  picking = null;
  $("picker").close();
  drawEntry();
  $(`points-${sheet.players.indexOf(name)}`)?.focus();
}

/** Delete round `number` once the person says so: the rounds after it keep their dealer and cards. */
function askDelete(number) {
  const dialog = $("delete-dialog");
  $("delete-title").textContent = `Delete round ${number}?`;
  $("delete-yes").onclick = () => {
    dialog.close();
    change("DELETE", `/api/sheets/${code}/rounds/${number}`);
  };
  $("delete-no").onclick = () => dialog.close();
  dialog.showModal();
  $("delete-no").focus();
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
  $("picker-clear").addEventListener("click", noCards);
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

if ("serviceWorker" in navigator) {
  navigator.serviceWorker.register("/scorecard-sw.js").catch(() => {}); // no worker: the page works online only
}
const path = /^\/s\/([\w-]+)$/.exec(location.pathname);
const kept = /^#kept=(\w+)$/.exec(location.hash);
if (path) openSheet(path[1]);
else if (kept) openKept(kept[1]);
else openStart();
