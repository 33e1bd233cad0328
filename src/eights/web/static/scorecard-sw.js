// The score sheet's service worker (issue 30): the sheet opens, and keeps score, with no network and no server.
// Served from /scorecard-sw.js so that its scope is the whole site; it answers only the score sheet's
// requests and lets every other one (the table, its WebSocket) go to the network untouched.
//
// Everything is network first: a page online always gets the server's files and answers, and each is
// kept; with no server the last kept one answers. A sheet's page (/s/CODE) is the same page as /scorecard.
// The sheets themselves are not kept here: the page keeps its own copy and its changes (scorecard.js).

const SHELL = "eights-scorecard-shell-1";
const DATA = "eights-scorecard-data"; // the rules' scoring, also filled by the page
const FILES = [
  "/scorecard",
  "/scorecard.webmanifest",
  "/static/scorecard.js",
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

/** Whether the score sheet needs this request offline, and which cache keeps it. */
function keeper(url, request) {
  if (url.origin !== self.location.origin || request.method !== "GET") return null;
  const path = url.pathname;
  if (path === "/api/scoring") return DATA;
  if (path === "/scorecard" || path.startsWith("/s/") || FILES.includes(path)) return SHELL;
  return null;
}

async function networkFirst(request, cacheName, page) {
  const cache = await caches.open(cacheName);
  try {
    const answer = await fetch(request);
    if (answer.ok) await cache.put(page ? "/scorecard" : request, answer.clone());
    return answer;
  } catch (error) {
    const kept = (await caches.match(page ? "/scorecard" : request)) || null;
    if (kept) return kept;
    throw error;
  }
}

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  const cacheName = keeper(url, event.request);
  if (!cacheName) return;
  const page = event.request.mode === "navigate" && (url.pathname === "/scorecard" || url.pathname.startsWith("/s/"));
  event.respondWith(networkFirst(event.request, cacheName, page));
});
