// Live push (scoring/live/push.py): one Server-Sent Events stream per open sheet tells each new ETag
// of its live part; the phone then fetches that part with the ETag it shows (If-None-Match), as
// its polling does, so a stream lost and opened again catches up from the page's own ETag.
// While the stream is up the 3-second polls are skipped; without one (a WSGI server answers
// 204, a proxy that buffers never delivers an event, an error, a limit) they go on as before.
// A hidden page closes its stream (and does not poll); shown again, the stream's first event
// catches it up. Loaded by live.js once the page has loaded: not part of the first load.

// The stream of a live part's address: /g/KEY/live/ → /g/KEY/stream/.
export const streamUrl = (liveUrl) => liveUrl.replace(/live\/(\?.*)?$/, "stream/");

// What to do with an ETag the stream told: fetch the live part when the page shows another
// and that ETag was not asked for yet (a stale event answered 304 is not asked again).
export const toFetch = (told, shown, asked) => Boolean(told) && told !== shown && told !== asked;

// Whether a poll (a request of the live part that the stream did not ask for) may go.
export const mayPoll = ({ streaming, hidden }) => !streaming && !hidden;

export function start() {
  let source = null;
  let streaming = false;
  let told = "";
  let asked = "";
  const top = () => document.getElementById("live-top");
  const check = () => {
    const live = top();
    if (live && toFetch(told, live.dataset.etag, asked)) {
      asked = told;
      live.dispatchEvent(new Event("stream"));
    }
  };
  const open = () => {
    const live = top();
    if (!live || source || document.hidden) return;
    source = new EventSource(streamUrl(live.getAttribute("hx-get")));
    source.addEventListener("state", (event) => {
      streaming = true;
      told = event.data;
      check();
    });
    source.addEventListener("error", () => {
      streaming = false; // polls go on while the browser tries again (or for good: closed)
      if (source?.readyState === EventSource.CLOSED) source = null;
    });
  };
  const close = () => {
    source?.close();
    source = null;
    streaming = false;
  };
  document.addEventListener("visibilitychange", () => (document.hidden ? close() : open()));
  document.addEventListener("htmx:confirm", (event) => {
    if (event.detail.elt.id !== "live-top" || event.detail.triggeringEvent?.type === "stream") return;
    if (!mayPoll({ streaming, hidden: document.hidden })) event.preventDefault();
  });
  document.addEventListener("htmx:afterRequest", (event) => {
    if (event.detail.elt.id === "live-top" && event.detail.failed) asked = ""; // ask again
  });
  document.addEventListener("htmx:afterSettle", check);
  open();
}
