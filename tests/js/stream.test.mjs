import assert from "node:assert/strict";
import { test } from "node:test";

import { mayPoll, streamUrl, toFetch } from "../../static/js/stream.js";

test("the stream of a live part is beside it", () => {
  assert.equal(streamUrl("/g/abc/live/"), "/g/abc/stream/");
  assert.equal(streamUrl("/s/xyz/live/"), "/s/xyz/stream/");
  assert.equal(streamUrl("/s/xyz/live/?lang=en"), "/s/xyz/stream/");
});

test("a told ETag that the page shows fetches nothing", () => {
  assert.equal(toFetch('"a"', '"a"', ""), false);
  assert.equal(toFetch("", '"a"', ""), false);
});

test("a new ETag fetches once, however often it is told", () => {
  assert.equal(toFetch('"b"', '"a"', ""), true);
  assert.equal(toFetch('"b"', '"a"', '"b"'), false);
  assert.equal(toFetch('"c"', '"a"', '"b"'), true);
});

test("polls go only while no stream is up and the page shows", () => {
  assert.equal(mayPoll({ streaming: false, hidden: false }), true);
  assert.equal(mayPoll({ streaming: true, hidden: false }), false);
  assert.equal(mayPoll({ streaming: false, hidden: true }), false);
});
