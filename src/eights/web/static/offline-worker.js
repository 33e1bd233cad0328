// The app's rooms with no server (eights.web.offline): the package's own Python on Pyodide in this worker,
// apart from the page's drawing. The page asks it what it would ask the server: an HTTP question
// ({kind: "api"}) or a connection's messages ({kind: "open" | "message" | "close"}); each answer and each
// message a room sends goes back by postMessage. Every room is kept in IndexedDB as it is played.

import { loadPyodide } from "./pyodide/pyodide.mjs";

const DB = "eights-app";
const STORE = "rooms";

function openDb() {
  return new Promise((resolve, reject) => {
    const asked = indexedDB.open(DB, 1);
    asked.onupgradeneeded = () => asked.result.createObjectStore(STORE, { keyPath: "code" });
    asked.onsuccess = () => resolve(asked.result);
    asked.onerror = () => reject(asked.error);
  });
}

function readAll(db) {
  return new Promise((resolve, reject) => {
    const asked = db.transaction(STORE).objectStore(STORE).getAll();
    asked.onsuccess = () => resolve(asked.result.map((row) => row.text));
    asked.onerror = () => reject(asked.error);
  });
}

const progress = (step, words) => postMessage({ kind: "progress", step, of: 4, words });

async function boot(pace) {
  const db = await openDb();
  const saved = await readAll(db);
  progress(1, "Loading Python…");
  const here = new URL("./", import.meta.url).href;
  const [pyodide, zip] = await Promise.all([
    loadPyodide({ indexURL: `${here}pyodide/` }),
    fetch(`${here}eights.zip`).then((answer) => answer.arrayBuffer()),
  ]);
  progress(2, "Loading the game…");
  pyodide.unpackArchive(zip, "zip", { extractDir: "/eights" });
  pyodide.runPython("import sys; sys.path.insert(0, '/eights')");
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
