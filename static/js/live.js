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

// The live push, once the page has loaded (stream.js).
if (document.getElementById("live-top")) {
  addEventListener("load", () => import("./stream.js").then((stream) => stream.start()));
}
