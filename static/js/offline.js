// Offline (see the README): registers the service worker, says when a page is the copy kept on
// the phone. A round saved without a connection is kept on the phone by keep.js, imported at
// that moment; pending.js, imported only while rounds wait, shows and sends them.
import { countKept, formIsEmpty, keptAt, pendingBox, roundForm, showBanner } from "./store.js";

const script = document.querySelector("script[data-worker]");
if ("serviceWorker" in navigator && script) {
  navigator.serviceWorker.register(script.dataset.worker).catch(() => {});
}

// Anything typed or ticked on the page and not saved (a match's counts, a reason…).
const typedOnPage = () =>
  [...document.querySelectorAll("main input:not([type=hidden]), main textarea")].some((field) =>
    field.type === "checkbox" || field.type === "radio"
      ? field.checked !== field.defaultChecked
      : field.value !== field.defaultValue,
  );

const showPending = () => import("./pending.js").then((pending) => pending.start());

// A save that could not reach the server: the round stays on the phone, the form goes on;
// saved with nobody as the caller, once the table answered the question (keep.js).
async function keepRound(form, submitter) {
  const { asksWhoCalled, keep } = await import("./keep.js");
  if (submitter === "save" && asksWhoCalled(form)) return;
  await keep(form);
  await showPending();
  pendingBox().scrollIntoView({ block: "start" });
}

document.addEventListener("htmx:sendError", (event) => {
  const form = roundForm();
  const submitter = event.detail.requestConfig?.triggeringEvent?.submitter?.name;
  if (form && event.detail.elt === form && (submitter === "save" || submitter === "nobody_called")) {
    keepRound(form, submitter).catch(() => {});
  }
  showBanner();
});

// Back online on a kept copy with nothing waiting: the page as it is now, unless in use.
async function backOnline() {
  showBanner();
  const waiting = await countKept().catch(() => 0);
  if (waiting) showPending().catch(() => {});
  else if (keptAt() && formIsEmpty(roundForm()) && !typedOnPage()) location.reload();
}
window.addEventListener("online", backOnline);
// The server answered a kept copy (its live part): online, whatever the browser said before
// (the "online" event can come before the network works, and a reload then finds the copy again).
document.addEventListener("htmx:afterRequest", (event) => {
  if (event.detail.successful && keptAt()) backOnline().catch(() => {});
});
window.addEventListener("offline", showBanner);
showBanner();
countKept()
  .then((waiting) => waiting && showPending())
  .catch(() => {});

// The service worker keeps the sheets of this phone's games (named by the home page), the
// page that was open when it first took over (it came from the network before it), and a
// sheet again each time it changes on the screen (a round saved, a live update).
const keep = (urls) => {
  const worker = navigator.serviceWorker?.controller;
  if (worker && navigator.onLine && urls.length) worker.postMessage({ keep: urls });
};
// The sheets of this phone's games and the pages of its house rules that the page links to.
const games = () => [...document.querySelectorAll("a[href^='/g/'], a[href^='/h/']")].map((link) => link.href);
const shown = () => document.getElementById("live-top")?.dataset.etag;
let version = shown();
document.addEventListener("htmx:afterSettle", () => {
  if (shown() !== version) keep([location.href]);
  version = shown();
});
if (navigator.serviceWorker && !keptAt()) {
  const first = !navigator.serviceWorker.controller;
  navigator.serviceWorker.addEventListener("controllerchange", () => keep(first ? [location.href, ...games()] : []), {
    once: true,
  });
  if (!first) keep(games());
}
