// Sending what was kept on this phone once the server answers again (tried every few seconds and when the
// browser is back online); then the page shows the server's sheet, with a note saying where it differs.

import { $ } from "../dom.js";
import { api, problem } from "./basics.js";
import { forget, keptKey, remember, saveLocal } from "./keep.js";
import { localView } from "./offline.js";
import { state } from "./state.js";

const SYNC_WAIT = 3000; // ms between tries to send what was kept offline

let syncing = false;

/** Try to send what was kept here now, and again every SYNC_WAIT and whenever the browser is back online. */
export function keepSyncing() {
  trySync();
  window.addEventListener("online", trySync);
  setInterval(trySync, SYNC_WAIT);
}

/** Send what was kept here once the server answers; then show the server's sheet, saying where it differs. */
async function trySync() {
  const { local } = state;
  if (!local || local.refused || syncing || state.busy) return;
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
  const { local } = state;
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
  const { local } = state;
  const mine = localView();
  let revision = local.base;
  let theirs = null;
  while (local.ops.length) {
    const op = local.ops[0];
    const answer = await api(op.method, `/api/sheets/${local.code}/${op.path}`, { token: state.token, revision, ...(op.body || {}) });
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

/** Say what the page that sent what was kept here left to say (``leave``). */
export function sayNote() {
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
