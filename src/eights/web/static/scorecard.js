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
//
// This module is the page: which sheet to open, and what the sheet's controls do. The rest is in
// static/scorecard/, one concern a module, listed here from the top down: each imports only modules below it,
// never one above (tests/web/test_page_modules.py checks there is no cycle). Where a lower module must call
// one above, it is given the function (goLocal, askDelete, the picker's redraw).
//
//   start.js     the start form: the game, its options, the players, the first dealer; this phone's sheets
//   changes.js   sending a change (a round saved or deleted, undo, finish), to the server or the kept copy
//   live.js      the live feed (/ws/sheets/CODE)
//   sync.js      sending what was kept here once the server answers
//   offline.js   a sheet kept on this phone, scored here
//   sheet.js     drawing the sheet: totals, result, what is next, the rounds played, the tools
//   entry.js     the round being entered or edited
//   picker.js    the card picker
//   share.js     the read-only link, its QR code and the edit link
//   keep.js      what this phone keeps (localStorage), and whether it can keep score with no network
//   basics.js    the problem line, asking the server, a card as text
//   state.js     the state the modules share (code, token, sheet, busy, form, local)

import { $, keepingFocus } from "./dom.js";
import { api, problem } from "./scorecard/basics.js";
import { askDelete, change, saveRound } from "./scorecard/changes.js";
import { freshForm } from "./scorecard/entry.js";
import { loadKept, loadRules, modelOf, remember, saveLocal, tokenOf } from "./scorecard/keep.js";
import { follow } from "./scorecard/live.js";
import { localView } from "./scorecard/offline.js";
import { setUpPicker } from "./scorecard/picker.js";
import { setUpShare } from "./scorecard/share.js";
import { drawSheet, onDelete, show } from "./scorecard/sheet.js";
import { openStart } from "./scorecard/start.js";
import { state } from "./scorecard/state.js";
import { keepSyncing, sayNote } from "./scorecard/sync.js";

async function openSheet(sheetCode) {
  state.code = sheetCode;
  const given = /^#e=([\w-]+)$/.exec(location.hash);
  if (given) {
    state.token = given[1];
    history.replaceState(null, "", location.pathname);
  } else {
    state.token = tokenOf(sheetCode);
  }
  const { code, token } = state;
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

/** Go on with a sheet kept on this phone, scored here; false when the rules' scoring is not kept here. */
async function goLocal(record) {
  const rules = await loadRules(record.scoring_url);
  if (!rules) return false;
  state.local = { ...record, rules };
  saveLocal();
  if (!state.token) state.token = "kept";
  $("sheet").hidden = false;
  show(localView());
  setUpSheet();
  keepSyncing();
  return true;
}

async function openKept(id) {
  const record = loadKept(`eights-kept-${id}`);
  if (record && (await goLocal(record))) return;
  problem(record ? "This phone has not kept the scoring of this sheet's rules: connect once." : "This phone keeps no such sheet.");
  history.replaceState(null, "", "/scorecard");
  openStart(goLocal);
}

/** What the sheet's controls do, set up once the sheet is shown. */
function setUpSheet() {
  onDelete(askDelete); // a round's Delete button (sheet.js) asks, then sends the change (changes.js)
  $("entry").addEventListener("submit", saveRound);
  $("cancel-edit").addEventListener("click", () => {
    state.form = freshForm();
    keepingFocus(drawSheet);
  });
  $("undo").addEventListener("click", () => change("POST", `/api/sheets/${state.code}/undo`));
  $("finish").addEventListener("click", () => change("POST", `/api/sheets/${state.code}/finish`));
  setUpShare();
  setUpPicker();
}

if ("serviceWorker" in navigator) {
  navigator.serviceWorker.register("/scorecard-sw.js").catch(() => {}); // no worker: the page works online only
}
const path = /^\/s\/([\w-]+)$/.exec(location.pathname);
const kept = /^#kept=(\w+)$/.exec(location.hash);
if (path) openSheet(path[1]);
else if (kept) openKept(kept[1]);
else openStart(goLocal);
