// What this phone keeps (localStorage): the edit tokens and the list of its sheets, the sheets kept here
// (started with no server, or changed while the server could not be reached), the last copy of each sheet it
// edits, and the rules' scoring; and the line saying whether the phone can keep score with no network.

import { $ } from "../dom.js";
import * as scoring from "../scoring.js";
import { state } from "./state.js";

function stored(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null; // storage off: nothing is remembered
  }
}

export function store(key, value) {
  try {
    localStorage.setItem(key, value);
  } catch {
    // storage off: the page works, it forgets
  }
}

export const tokenOf = (code) => stored(`eights-sheet-${code}`);

export function mySheets() {
  try {
    const list = JSON.parse(stored("eights-sheets") || "[]");
    return Array.isArray(list) ? list : [];
  } catch {
    return [];
  }
}

export function remember(code, token, sheet) {
  if (token) store(`eights-sheet-${code}`, token);
  const entry = { code, title: sheet.title, players: sheet.players };
  store("eights-sheets", JSON.stringify([entry, ...mySheets().filter((s) => s.code !== code)].slice(0, 20)));
}

export function loadKept(key) {
  try {
    const data = JSON.parse(stored(key) || "null");
    return data && typeof data === "object" ? data : null;
  } catch {
    return null;
  }
}

export function forget(key) {
  try {
    localStorage.removeItem(key);
  } catch {
    // storage off
  }
}

/** The sheets started on this phone with no server, not sent yet: [{href, title, players}]. */
export function keptSheets() {
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

export const keptKey = () => (state.local.code ? `eights-offline-${state.local.code}` : `eights-kept-${state.local.id}`);

export function saveLocal() {
  const { rules, refused, ...record } = state.local;
  store(keptKey(), JSON.stringify(record));
}

/** The sheet a server view shows, as scoring.js keeps it. */
export function modelOf(view) {
  const rounds = view.rounds.map((r) => (r.deal == null ? { out: r.out, left: r.left } : { out: r.out, left: r.left, deal: r.deal }));
  return { players: view.players, first_dealer: view.first_dealer, rounds, finished: view.finished, undo: view.undo };
}

export function scoringUrl(preset, options) {
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
export async function loadRules(url) {
  if (!url) return null;
  return (await fetchRules(url)) || keptRules(url);
}

/** Say whether this phone can open the page and keep score at ``urls``' rules with no network: once the service
 * worker is active (so it has kept the page and its files), whether the page has kept the rules' scoring. */
export async function sayOffline(urls) {
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
