// The service worker (served at /sw.js by scoring.phone.views.service_worker, see scoring/phone/webapp.py).
// Static files come from its cache; pages come from the network while there is one (nothing
// stale once online) and are kept, per language, for when there is none: the rules of every
// variant, and each page this phone opened, among them the sheets of its games. A kept page is
// marked with the time it was kept (data-kept-at), which static/js/offline.js shows.
// Caches are named after the version of the code: a deploy installs a new worker, which keeps
// the pages again with the new files and deletes the old caches.
// Its configuration (scoring.phone.webapp.worker_config) is JSON in a string, so that this file is
// JavaScript before the server fills it in too (Biome lints it).
const CONFIG = JSON.parse("{{ config|escapejs }}");
const PREFIX = "tamalou-";
const STATIC = `${PREFIX}static-${CONFIG.version}`;
const PAGES = (language) => `${PREFIX}pages-${language}-${CONFIG.version}`;
const META = `${PREFIX}meta`; // the language of the phone, whatever the version
const LANGUAGE_KEY = "/sw.js?language";
// A game's sheet, or a saved set of house rules' page (both reached by their key).
const SHEET_PAGE = /^\/[gh]\/[A-Za-z0-9_-]+\/$/;

function stamp(html) {
  return html.replace(/<html(\s)/, `<html data-kept-at="${new Date().toISOString()}"$1`);
}

// Keeps a page in the cache of its language (the Content-Language the server answered).
async function keep(url, response, remember) {
  const type = response.headers.get("Content-Type") || "";
  if (response.status !== 200 || !type.startsWith("text/html")) return;
  const language = response.headers.get("Content-Language") || CONFIG.defaultLanguage;
  if (!CONFIG.languages.includes(language)) return;
  const body = stamp(await response.text());
  const kept = new Response(body, {
    headers: { "Content-Type": type, "Content-Language": language },
  });
  await (await caches.open(PAGES(language))).put(url, kept);
  if (remember) {
    await (await caches.open(META)).put(LANGUAGE_KEY, new Response(language));
  }
}

// A page fetched by the worker itself waits this long at most: a stalled answer never holds
// the worker's install or its taking over (the old caches go only after that).
const PATIENCE_MS = 10000;

// The page at this address again, as this phone sees it (its cookies, its language).
async function refresh(url) {
  try {
    const signal = AbortSignal.timeout(PATIENCE_MS);
    await keep(url, await fetch(url, { credentials: "same-origin", signal }), true);
  } catch {
    // offline again: the kept copy stays
  }
}

async function phoneLanguage() {
  const known = await (await caches.open(META)).match(LANGUAGE_KEY);
  return known ? known.text() : CONFIG.defaultLanguage;
}

async function kept(url) {
  const first = await phoneLanguage();
  const order = [first, ...CONFIG.languages.filter((language) => language !== first)];
  for (const language of order) {
    const cache = await caches.open(PAGES(language));
    // A rules page opened from a sheet carries its house settings: without a copy of that
    // very page, the variant's own page.
    const found = (await cache.match(url)) || (await cache.match(url, { ignoreSearch: true }));
    if (found) return found;
  }
  return null;
}

async function precache() {
  await (await caches.open(STATIC)).addAll(CONFIG.static);
  // The rules in every language: the request carries no cookie, only the language asked for.
  // One page at a time, so that a phone's first visit does not crowd the server.
  for (const language of CONFIG.languages) {
    for (const url of CONFIG.rules) {
      try {
        const response = await fetch(url, {
          signal: AbortSignal.timeout(PATIENCE_MS),
          credentials: "omit",
          headers: { "Accept-Language": language },
        });
        await keep(url, response, false);
      } catch {
        // kept on the next visit instead
      }
    }
  }
}

// The pages the old version kept, kept again with this version's files, then the old caches go.
async function replaceOldCaches() {
  const names = (await caches.keys()).filter((name) => name.startsWith(PREFIX) && name !== META);
  const current = [STATIC, ...CONFIG.languages.map(PAGES)];
  const old = names.filter((name) => !current.includes(name));
  const urls = new Set();
  for (const name of old.filter((name) => name.startsWith(`${PREFIX}pages-`))) {
    for (const request of await (await caches.open(name)).keys()) urls.add(request.url);
  }
  const rules = new Set(CONFIG.rules.map((url) => new URL(url, self.location.origin).href));
  await Promise.all([...urls].filter((url) => !rules.has(url)).map(refresh));
  await Promise.all(old.map((name) => caches.delete(name)));
}

self.addEventListener("install", (event) => {
  event.waitUntil(precache().then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(replaceOldCaches().then(() => self.clients.claim()));
});

// Pages the phone asks to keep: the sheets of its games (named by the home page, or open when
// they changed), and the page that was open when this worker took over.
self.addEventListener("message", (event) => {
  const urls = event.data?.keep || [];
  const own = urls
    .map((url) => new URL(url, self.location.origin))
    .filter((url) => url.origin === self.location.origin && !url.pathname.startsWith(CONFIG.staticPrefix))
    .filter((url) => SHEET_PAGE.test(url.pathname) || url.href === event.source.url);
  event.waitUntil(Promise.all(own.slice(0, 50).map((url) => refresh(url.href))));
});

async function page(event) {
  try {
    const response = await fetch(event.request);
    event.waitUntil(keep(event.request.url, response.clone(), true));
    return response;
  } catch {
    return (
      (await kept(event.request.url)) ||
      new Response("Hors connexion — Offline", {
        status: 503,
        headers: { "Content-Type": "text/plain; charset=utf-8" },
      })
    );
  }
}

async function fromCache(request) {
  const found = await caches.match(request, { cacheName: STATIC });
  return found || fetch(request);
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method === "GET" && url.pathname.startsWith(CONFIG.staticPrefix)) {
    event.respondWith(fromCache(request));
  } else if (request.method === "GET" && request.mode === "navigate") {
    event.respondWith(page(event));
  }
});
