// Live sheets poll every 2 s with the version they show (If-None-Match); an unchanged game
// answers 304 Not Modified, which htmx leaves alone (see the htmx-config meta in base.html).
// A hidden page asks for nothing; shown again, it asks at once (the "visible" event of its
// live part's hx-trigger).
document.addEventListener("htmx:configRequest", (event) => {
  const etag = event.detail.elt.dataset.etag;
  if (etag && event.detail.verb === "get") {
    event.detail.headers["If-None-Match"] = etag;
  }
});

// An answer for an element a save's answer has replaced since (a live part asked for by the
// old #live-top, still on the way): the page shows newer already, and the answer's story and
// history would find no place (htmx:oobErrorNoTarget). It is dropped. The element is no longer
// in the page, so its events do not reach the document: it is listened to itself.
const listened = new WeakSet();
document.addEventListener("htmx:beforeRequest", (event) => {
  const elt = event.detail.elt;
  if (listened.has(elt)) return;
  listened.add(elt);
  elt.addEventListener("htmx:beforeSwap", (swap) => {
    if (!elt.isConnected) swap.detail.shouldSwap = false;
  });
});

// A live update or a save redraws the history: the older rounds a phone had opened are opened
// again (their rest fetched again, as when they were opened), and the oldest rounds of a long
// game, once shown ("Show rounds 1 to N"), are shown again: not closed under the thumb.
let opened = [];
let asking = [];
let earlierShown = false;
let redrawn = false;
document.addEventListener("htmx:beforeRequest", (event) => {
  if (event.detail.elt.closest(".earlier")) earlierShown = true;
});
document.addEventListener("htmx:beforeSwap", (event) => {
  if (!event.detail.shouldSwap || !event.detail.serverResponse.includes('id="history"')) return;
  const open = document.querySelectorAll("#history article.round[id] > details[open]");
  opened = [...open].map((details) => details.parentElement.id);
  // A question the phone has open among the game's actions ("End the game now?") stays open.
  asking = [...document.querySelectorAll("#game-actions details[open] form")].map((form) => form.action);
  redrawn = true;
});
document.addEventListener("htmx:afterSettle", () => {
  if (!redrawn) return;
  redrawn = false;
  for (const id of opened.splice(0)) {
    document.querySelector(`#${CSS.escape(id)} > details:not([open])`)?.setAttribute("open", "");
  }
  for (const form of document.querySelectorAll("#game-actions details form")) {
    if (asking.includes(form.action)) form.closest("details").setAttribute("open", "");
  }
  asking = [];
  if (earlierShown) document.querySelector("#history .earlier a")?.click();
});

// The offline side (offline.js: the service worker, the offline banner, rounds kept on the
// phone), once the page has loaded: nothing of it draws the page, and it stays out of a
// sheet's first load (its budget: docs/performance.md).
addEventListener("load", () => import("./offline.js"));

// The Share button of a share panel, once it is opened (share.js).
document.addEventListener(
  "toggle",
  (event) => {
    if (event.target.matches?.("details.share") && event.target.open) {
      import("./share.js").then((share) => share.offer(event.target));
    }
  },
  true, // toggle does not bubble
);
document.addEventListener("htmx:beforeRequest", (event) => {
  if (document.hidden && event.detail.elt.id === "live-top") event.preventDefault();
});
document.addEventListener("visibilitychange", () => {
  if (!document.hidden) document.getElementById("live-top")?.dispatchEvent(new Event("visible"));
});
