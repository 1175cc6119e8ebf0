// Live sheets: stream.js (the push, the polls' ETag), once the page has loaded.
if (document.getElementById("live-top")) {
  addEventListener("load", () => import("./stream.js").then((stream) => stream.start()));
}
