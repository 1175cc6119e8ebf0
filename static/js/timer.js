// The thinking timer's arithmetic. The server gives the moment the turn's time is up (the
// deadline, milliseconds since 1970); what is left is computed from it at every tick, so it
// is right after the screen slept, after a reload, and on every phone.

// A time left as the clock shows it, rounded up to the second: 61000 → "1:01".
export function clockText(ms) {
  const seconds = Math.ceil(ms / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

// What the clock shows at `now`: the time left, or up (text null). `signal` is true once per
// deadline, when it passes while the page is open (not for a turn that ended 5 s ago or more);
// `signalled` remembers the deadlines already signalled.
export function clockAt(deadline, now, signalled) {
  const left = deadline - now;
  if (left > 0) return { text: clockText(left), up: false, signal: false };
  const signal = !signalled.has(deadline) && left > -5000;
  signalled.add(deadline);
  return { text: null, up: true, signal };
}
