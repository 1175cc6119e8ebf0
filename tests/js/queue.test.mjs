import assert from "node:assert/strict";
import { test } from "node:test";

import {
  byNumber,
  extrasOf,
  formNumber,
  keptRound,
  outcome,
  signed,
  syncBody,
  toSend,
} from "../../static/js/queue.js";

const kept = (id, number, state = "waiting") => ({ id, number, state, fields: [["number", String(number)]] });

test("rounds are sent oldest number first, then in the order they were kept", () => {
  const rounds = [kept(3, 5), kept(1, 4), kept(4, 4), kept(2, 6)];
  assert.deepEqual(
    rounds.sort(byNumber).map((round) => round.id),
    [1, 4, 3, 2],
  );
});

test("only waiting rounds are sent: a conflict or a refusal waits for the table", () => {
  const rounds = [kept(1, 3, "conflict"), kept(2, 5), kept(3, 4), kept(4, 6, "refused")];
  assert.deepEqual(
    toSend(rounds).map((round) => round.id),
    [3, 2],
  );
  assert.deepEqual(toSend([]), []);
});

test("a round kept offline has the form's fields, no CSRF token, and is sent as a save", () => {
  const entries = [
    ["csrfmiddlewaretoken", "secret"],
    ["number", "3"],
    ["total_0", "12"],
    ["cards_1", "KH 7S"],
    ["caller", "Léa"],
    ["photo", { name: "a file" }],
    ["save", ""],
  ];
  const round = keptRound(entries, { sheet: "/g/abc/", sync: "/g/abc/rounds/sync/", hands: [] });
  assert.deepEqual(round.fields, [
    ["number", "3"],
    ["total_0", "12"],
    ["cards_1", "KH 7S"],
    ["caller", "Léa"],
    ["save", "1"],
  ]);
  assert.equal(round.number, 3);
  assert.equal(round.caller, "Léa");
  assert.equal(round.state, "waiting");
  assert.equal(round.sync, "/g/abc/rounds/sync/");
});

test("a round kept without a caller says so with an empty caller", () => {
  const round = keptRound([["number", "1"]], { sheet: "/g/abc/", sync: "/s/", hands: [] });
  assert.equal(round.caller, "");
  assert.deepEqual(round.fields, [
    ["number", "1"],
    ["save", "1"],
  ]);
});

test("a round is sent at its own number, or at the number the table chose", () => {
  const round = { number: 4, fields: [["number", "4"], ["total_0", "3"]] };
  assert.equal(syncBody(round).toString(), "number=4&total_0=3");
  assert.equal(syncBody(round, { number: 6 }).toString(), "number=6&total_0=3");
});

test("replacing the other phone's round says which correction of it is replaced", () => {
  const round = { number: 4, fields: [["number", "4"]] };
  const body = syncBody(round, { number: 4, replace: true, edits: 0 });
  assert.equal(body.get("replace"), "1");
  assert.equal(body.get("edits"), "0");
  assert.equal(syncBody(round, { number: 5 }).has("replace"), false);
});

test("the server's answer decides what becomes of the round", () => {
  assert.equal(outcome(200, { saved: 4 }), "saved");
  assert.equal(outcome(409, { conflict: 4, next: 5 }), "conflict");
  assert.equal(outcome(400, { errors: ["Marc: ..."] }), "refused");
});

test("anything else leaves the round waiting, to be sent again", () => {
  assert.equal(outcome(200, {}), "unsent"); // not the app's answer
  assert.equal(outcome(200, null), "unsent");
  assert.equal(outcome(403, { detail: "CSRF" }), "unsent");
  assert.equal(outcome(500, null), "unsent");
  assert.equal(outcome(302, { saved: 1 }), "unsent");
});

test("the form goes on after the last round kept for the sheet", () => {
  assert.equal(formNumber([], 3), 3);
  assert.equal(formNumber([kept(1, 3), kept(2, 4)], 3), 5);
  assert.equal(formNumber([kept(2, 4), kept(1, 3)], 3), 5);
  assert.equal(formNumber([kept(1, 2)], 5), 5);
});

test("a kept round's emptied hands and penalty rows, as the form posted them", () => {
  const fields = [
    ["number", "3"],
    ["total_2", "0"],
    ["emptied", "Nina"],
    ["emptied", "Léa"],
    ["penalty-TOTAL_FORMS", "3"],
    ["penalty-1-player", "Léa"],
    ["penalty-1-points", " -2 "],
    ["penalty-1-reason", ""],
    ["penalty-0-player", "Marc"],
    ["penalty-0-points", "5"],
    ["penalty-0-reason", "wrong quick discard "],
    ["penalty-2-player", ""],
    ["penalty-2-points", ""],
    ["penalty-2-reason", ""],
  ];
  assert.deepEqual(extrasOf(fields), {
    emptied: ["Nina", "Léa"],
    penalties: [
      { player: "Marc", points: "5", reason: "wrong quick discard" },
      { player: "Léa", points: "-2", reason: "" },
    ],
  });
  assert.deepEqual(extrasOf([["penalty-0-points", "3"]]).penalties, [{ player: "", points: "3", reason: "" }]);
  assert.deepEqual(extrasOf([["number", "1"]]), { emptied: [], penalties: [] });
});

test("typed points are shown with their sign, the page's way", () => {
  assert.deepEqual(
    ["5", "+5", "-2", "−2", "2.5", "2,5", "05", "0", "abc", ""].map((typed) => signed(typed, "en")),
    ["+5", "+5", "−2", "−2", "+2.5", "+2.5", "+5", "0", "abc", ""],
  );
  assert.deepEqual(
    ["2.5", "-0,5", "1000"].map((typed) => signed(typed, "fr")),
    ["+2,5", "−0,5", "+1000"],
  );
});
