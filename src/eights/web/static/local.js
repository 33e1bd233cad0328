// The app's own Python (offline-worker.js, eights.web.offline): in the installed app (`eights site`, or
// /app/ of `eights serve`) the page asks it what it would ask the server, with the same HTTP paths and the
// same messages (docs/protocol.md), and plays every game against the computer or passing the phone with
// no network. The worker starts after the page is drawn; `onProgress` hears how far it has come.

/** Whether this page is the app (its build marks it), rather than the server's table. */
export const APP = document.querySelector('meta[name="eights-app"]') !== null;

let worker = null;
let next = 1; // the number of the next question or connection
const answers = new Map(); // question number → resolve
const connections = new Map(); // connection number → onMessage
let progressOf = () => {};
let started = null;

/** Start the worker (once); resolves when its Python is ready. `pace`: seconds between computer moves. */
export function startLocal(onProgress, pace) {
  if (started) return started;
  progressOf = onProgress;
  worker = new Worker("./offline-worker.js", { type: "module" });
  started = new Promise((resolve, reject) => {
    worker.addEventListener("message", (event) => {
      const message = event.data;
      if (message.kind === "progress") progressOf(message);
      else if (message.kind === "ready") resolve();
      else if (message.kind === "failed") reject(new Error(message.words));
      else if (message.kind === "answer") {
        answers.get(message.id)?.(message.text);
        answers.delete(message.id);
      } else if (message.kind === "deliver") connections.get(message.id)?.(message.text);
    });
    worker.addEventListener("error", (event) => reject(new Error(event.message || "the game could not start")));
  });
  worker.postMessage({ kind: "start", pace });
  return started;
}

/** An HTTP question: to the app's own Python in the app, else to the server. Answers as fetch does. */
export async function request(url, init = {}) {
  if (!APP) return fetch(url, init);
  const id = next++;
  const text = await new Promise((resolve) => {
    answers.set(id, resolve);
    const token = init.headers?.["X-Seat-Token"] || "";
    worker.postMessage({ kind: "api", id, method: init.method || "GET", url, body: init.body || "", token });
  });
  const { status, body: json } = JSON.parse(text); // the body as text: a record's seed is more than a JS number
  return {
    ok: status < 400,
    status,
    headers: new Headers({ "Content-Type": "application/json" }),
    json: async () => JSON.parse(json),
    blob: async () => new Blob([json], { type: "application/json" }),
  };
}

/** A connection to a room of the app's own Python, as net.js's `connect` is to the server's. */
export function connectLocal({ hello, onMessage, onStatus }) {
  const id = next++;
  let open = true;
  connections.set(id, (text) => onMessage(JSON.parse(text)));
  worker.postMessage({ kind: "open", id });
  const send = (message) => {
    if (!open) return false;
    worker.postMessage({ kind: "message", id, text: JSON.stringify(message) });
    return true;
  };
  send(hello());
  setTimeout(() => onStatus("open"), 0);
  return {
    send,
    hello: () => send(hello()),
    resume: () => send(hello()),
    stop() {
      open = false;
      connections.delete(id);
      worker.postMessage({ kind: "close", id });
    },
  };
}
