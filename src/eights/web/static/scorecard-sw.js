// The score sheet's service worker (issue 30): the sheet opens, and keeps score, with no network and no server.
// Served from /scorecard-sw.js so that its scope is the whole site; it answers only the score sheet's
// requests and lets every other one (the table, its WebSocket) go to the network untouched.
//
// The files are kept at install: a worker that is active (navigator.serviceWorker.ready) has them all, so a
// phone that opened the page once opens it again with no network. Then every answer is network first: online,
// the server's files and answers, each kept anew; with no server, the last kept one. A sheet's page (/s/CODE)
// is the same page as /scorecard. The sheets and the rules' scoring are not kept here: the page keeps its
// own copies (scorecard/keep.js), so that it never depends on this worker's cache for a figure.

const SHELL = "eights-scorecard-shell-2";
const FILES = [
  "/scorecard",
  "/scorecard.webmanifest",
  "/static/scorecard.js",
  "/static/scorecard/basics.js",
  "/static/scorecard/changes.js",
  "/static/scorecard/entry.js",
  "/static/scorecard/keep.js",
  "/static/scorecard/live.js",
  "/static/scorecard/offline.js",
  "/static/scorecard/picker.js",
  "/static/scorecard/share.js",
  "/static/scorecard/sheet.js",
  "/static/scorecard/start.js",
  "/static/scorecard/state.js",
  "/static/scorecard/sync.js",
  "/static/scoring.js",
  "/static/dom.js",
  "/static/vendor/uqr.js",
  "/static/style.css",
  "/static/scorecard.css",
  "/static/icons/scorecard.svg",
  "/static/icons/scorecard-192.png",
  "/static/icons/scorecard-512.png",
  "/api/presets",
];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(SHELL).then((cache) => cache.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  const old = (name) => name.startsWith("eights-scorecard-shell-") && name !== SHELL;
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter(old).map((name) => caches.delete(name))))
      .then(() => self.clients.claim()),
  );
});

/** Whether the score sheet needs this request with no network (it is then kept here). */
function needed(url, request) {
  if (url.origin !== self.location.origin || request.method !== "GET") return false;
  const path = url.pathname;
  return path === "/scorecard" || path.startsWith("/s/") || FILES.includes(path);
}

async function networkFirst(request, page) {
  const cache = await caches.open(SHELL);
  try {
    const answer = await fetch(request);
    if (answer.ok) await cache.put(page ? "/scorecard" : request, answer.clone());
    return answer;
  } catch (error) {
    const copy = await caches.match(page ? "/scorecard" : request);
    if (copy) return copy;
    throw error;
  }
}

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (!needed(url, event.request)) return;
  const page = event.request.mode === "navigate" && (url.pathname === "/scorecard" || url.pathname.startsWith("/s/"));
  event.respondWith(networkFirst(event.request, page));
});
