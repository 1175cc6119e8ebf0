// Live sheets poll with the version they show (If-None-Match); an unchanged game answers
// 304 Not Modified, which htmx leaves alone (see the htmx-config meta in base.html).
document.addEventListener("htmx:configRequest", (event) => {
  const etag = event.detail.elt.dataset.etag;
  if (etag && event.detail.verb === "get") {
    event.detail.headers["If-None-Match"] = etag;
  }
});
