// Live sheets poll with the version they show (If-None-Match); an unchanged game answers
// 304 Not Modified, which htmx leaves alone (see the htmx-config meta in base.html).
document.addEventListener("htmx:configRequest", (event) => {
  const etag = event.detail.elt.dataset.etag;
  if (etag && event.detail.verb === "get") {
    event.detail.headers["If-None-Match"] = etag;
  }
});

// A round drawn twice (a save's answer and a live update crossing): keep the first copy.
document.addEventListener("htmx:afterSettle", () => {
  const seen = new Set();
  document.querySelectorAll("#history article.round[id]").forEach((article) => {
    if (seen.has(article.id)) article.remove();
    else seen.add(article.id);
  });
});

// A live update redraws the history: the older rounds a viewer had opened are opened again
// (their rest fetched again, as when they were opened), and the oldest rounds of a long game,
// once shown ("Show rounds 1 to N"), are shown again: not closed under the viewer's thumb.
let opened = [];
let earlierShown = false;
let redrawn = false;
document.addEventListener("htmx:beforeRequest", (event) => {
  if (event.detail.elt.closest(".earlier")) earlierShown = true;
});
document.addEventListener("htmx:beforeSwap", (event) => {
  if (event.detail.elt.id !== "live-top" || !event.detail.shouldSwap) return;
  const open = document.querySelectorAll("#history article.round[id] > details[open]");
  opened = [...open].map((details) => details.parentElement.id);
  redrawn = true;
});
document.addEventListener("htmx:afterSettle", () => {
  if (!redrawn) return;
  redrawn = false;
  for (const id of opened.splice(0)) {
    document.querySelector(`#${CSS.escape(id)} > details:not([open])`)?.setAttribute("open", "");
  }
  if (earlierShown) document.querySelector("#history .earlier a")?.click();
});

// The offline side (offline.js: the service worker, the offline banner, rounds kept on the
// phone), once the page has loaded: nothing of it draws the page, and a sheet's first load
// stays within 40 KB (`make bench`: 40.2 KB with it loaded at once).
addEventListener("load", () => import("./offline.js"));

// The live push, once the page has loaded (stream.js).
if (document.getElementById("live-top")) {
  addEventListener("load", () => import("./stream.js").then((stream) => stream.start()));
}
