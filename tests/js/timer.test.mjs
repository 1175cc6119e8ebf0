import assert from "node:assert/strict";
import { test } from "node:test";

import { clockAt, clockText } from "../../static/js/timer.js";

test("the time left shows in minutes and seconds, rounded up to the second", () => {
  assert.equal(clockText(120000), "2:00");
  assert.equal(clockText(61000), "1:01");
  assert.equal(clockText(60001), "1:01");
  assert.equal(clockText(59001), "1:00");
  assert.equal(clockText(9000), "0:09");
  assert.equal(clockText(1), "0:01");
  assert.equal(clockText(300000), "5:00");
});

test("before the deadline the clock counts down from it, whatever happened before", () => {
  const signalled = new Set();
  const deadline = 1_700_000_120_000;
  assert.deepEqual(clockAt(deadline, deadline - 120000, signalled), { text: "2:00", up: false, signal: false });
  // The screen slept for 90 s: the next tick is still right.
  assert.deepEqual(clockAt(deadline, deadline - 29500, signalled), { text: "0:30", up: false, signal: false });
  assert.equal(signalled.size, 0);
});

test("the end of a turn is signalled once, at the first tick after it", () => {
  const signalled = new Set();
  const deadline = 1_700_000_000_000;
  assert.deepEqual(clockAt(deadline, deadline, signalled), { text: null, up: true, signal: true });
  assert.deepEqual(clockAt(deadline, deadline + 250, signalled), { text: null, up: true, signal: false });
  assert.deepEqual(clockAt(deadline, deadline + 10000, signalled), { text: null, up: true, signal: false });
});

test("a turn that ended 5 s ago or more (a reload, another phone) is up without a signal", () => {
  const deadline = 1_700_000_000_000;
  assert.equal(clockAt(deadline, deadline + 4999, new Set()).signal, true);
  assert.equal(clockAt(deadline, deadline + 5000, new Set()).signal, false);
  assert.equal(clockAt(deadline, deadline + 5000, new Set()).up, true);
});

test("each new turn gets its own signal", () => {
  const signalled = new Set();
  const first = 1_700_000_000_000;
  const second = first + 120000;
  assert.equal(clockAt(first, first + 100, signalled).signal, true);
  assert.equal(clockAt(second, first + 200, signalled).up, false);
  assert.equal(clockAt(second, second + 100, signalled).signal, true);
});
