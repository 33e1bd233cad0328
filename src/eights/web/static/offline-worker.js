// The app's rooms with no server (eights.web.offline): the package's own Python on Pyodide in this worker,
// apart from the page's drawing; from its second start on, from a snapshot of its memory with the game's modules
// imported (Pyodide's memory snapshots), kept in IndexedDB. The page asks it what it would ask the server: an HTTP question
// ({kind: "api"}) or a connection's messages ({kind: "open" | "message" | "close"}); each answer and each
// message a room sends goes back by postMessage. Every room is kept in IndexedDB as it is played.

import { loadPyodide } from "./pyodide/pyodide.mjs";

const DB = "eights-app";
const STORE = "rooms";
// The Python's memory once the game's modules are imported, kept to start from the next time (the build's
// zip's hash is its key: a new build makes it anew).
const SNAPSHOTS = "snapshots";

function openDb() {
  return new Promise((resolve, reject) => {
    const asked = indexedDB.open(DB, 2);
    asked.onupgradeneeded = () => {
      const db = asked.result;
      if (!db.objectStoreNames.contains(STORE)) db.createObjectStore(STORE, { keyPath: "code" });
      if (!db.objectStoreNames.contains(SNAPSHOTS)) db.createObjectStore(SNAPSHOTS);
    };
    asked.onsuccess = () => resolve(asked.result);
    asked.onerror = () => reject(asked.error);
  });
}

function ask(request) {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

const progress = (step, words) => postMessage({ kind: "progress", step, of: 4, words });

async function boot(pace) {
  const db = await openDb();
  const saved = (await ask(db.transaction(STORE).objectStore(STORE).getAll())).map((row) => row.text);
  const here = new URL("./", import.meta.url).href;
  const zip = await (await fetch(`${here}eights.zip`)).arrayBuffer();
  const key = [...new Uint8Array(await crypto.subtle.digest("SHA-256", zip))].map((b) => b.toString(16)).join("");
  const kept = await ask(db.transaction(SNAPSHOTS).objectStore(SNAPSHOTS).get(key)).catch(() => undefined);
  progress(1, "Loading Python…");
  const indexURL = `${here}pyodide/`;
  let pyodide = null;
  if (kept) {
    // Pyodide's runtime fixes its first memory size itself: grown here to the snapshot's before it is put back
    const factory = (await import(`${indexURL}pyodide.asm.mjs`)).default;
    const createPyodideModule = (settings) => {
      settings.preRun = [...(settings.preRun || []), (module) => module.growMemory(kept.byteLength)];
      return factory(settings);
    };
    pyodide = await loadPyodide({ indexURL, _loadSnapshot: kept, createPyodideModule }).catch(() => null); // refused: anew
  }
  progress(2, "Loading the game…");
  if (pyodide) {
    pyodide.unpackArchive(zip, "zip", { extractDir: "/eights" }); // its files (the presets): not in the snapshot
    pyodide.runPython("import random; random.seed()"); // not the snapshot's sequence again
  } else {
    pyodide = await loadPyodide({ indexURL, _makeSnapshot: true });
    pyodide.unpackArchive(zip, "zip", { extractDir: "/eights" });
    // the game's modules imported and the presets' catalog made, in the snapshot: ready at once the next time
    pyodide.runPython("import sys; sys.path.insert(0, '/eights'); import eights.web.offline; eights.web.offline.presets_json()");
    try {
      const snapshot = pyodide.makeMemorySnapshot();
      const store = db.transaction(SNAPSHOTS, "readwrite").objectStore(SNAPSHOTS);
      store.clear();
      store.put(snapshot, key);
    } catch {
      // no snapshot this time (a runtime that cannot make one): the next start is a whole one again
    }
  }
  progress(3, "Shuffling…");
  const offline = pyodide.pyimport("eights.web.offline");
  const write = (code, text) => db.transaction(STORE, "readwrite").objectStore(STORE).put({ code, text });
  const deliver = (id, text) => postMessage({ kind: "deliver", id, text });
  const rooms = offline.Offline(write, deliver, pyodide.toPy(saved), pace);
  progress(4, "Ready");
  return { pyodide, rooms };
}

let ready = null;
const waiting = [];

self.addEventListener("message", async (event) => {
  const asked = event.data;
  if (asked.kind === "start") {
    ready = boot(asked.pace ?? 0.7);
    ready.then(
      () => postMessage({ kind: "ready" }),
      (error) => postMessage({ kind: "failed", words: String(error) }),
    );
    return;
  }
  waiting.push(asked);
  if (waiting.length > 1) return; // handled in order, one at a time, by the first
  const { rooms } = await ready;
  while (waiting.length) {
    const next = waiting[0];
    try {
      if (next.kind === "api") {
        const text = await rooms.api(next.method, next.url, next.body || "", next.token || "");
        postMessage({ kind: "answer", id: next.id, text });
      } else if (next.kind === "open") rooms.open(next.id);
      else if (next.kind === "message") await rooms.message(next.id, next.text);
      else if (next.kind === "close") await rooms.close(next.id);
    } catch (error) {
      const body = JSON.stringify({ error: String(error) });
      postMessage({ kind: "answer", id: next.id, text: JSON.stringify({ status: 500, body }) });
    }
    waiting.shift();
  }
});
