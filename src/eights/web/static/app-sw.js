// The app's service worker (issue 39): every file of the app is kept at install, so that it opens and plays
// with no network after one visit. Its list and version are written in by the build (`eights site`).
// Cache first for the app's own files (the build's version names the cache: a new build keeps them anew);
// anything else (the server's API and rooms, when there is a server) goes to the network untouched.

const VERSION = null;
const FILES = [];

const CACHE = `eights-app-${VERSION}`;
const scope = new URL("./", self.location.href);
const kept = new Set(FILES.map((name) => new URL(name, scope).href));

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  const old = (name) => name.startsWith("eights-app-") && name !== CACHE;
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter(old).map((name) => caches.delete(name))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  url.search = "";
  url.hash = "";
  const page = request.mode === "navigate" && url.href.startsWith(scope.href) ? scope.href : null;
  if (!page && !kept.has(url.href)) return;
  event.respondWith(caches.match(page || url.href, { cacheName: CACHE }).then((copy) => copy || fetch(request)));
});
