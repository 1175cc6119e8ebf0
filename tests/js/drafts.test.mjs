import assert from "node:assert/strict";
import { test } from "node:test";

import { draftKey, draftOf, penaltyRows, restores } from "../../static/js/drafts.js";
import { negated } from "../../static/js/picker.js";

const round = { number: "4", edits: "" };

test("a draft keeps every control of the round form but the token and the bookkeeping", () => {
  const kept = [
    ["target", "1"],
    ["cards_0", "7H KS"],
    ["total_1", "-3"],
    ["caller", "Léa"],
    ["counter_caller", ""],
    ["emptied", "Marc"],
    ["penalty-0-player", "Marc"],
    ["penalty-0-points", "5"],
    ["penalty-0-reason", "peeked"],
    ["penalty_cards", "2C"],
  ];
  const bookkeeping = [
    ["csrfmiddlewaretoken", "secret"],
    ["number", "4"],
    ["edits", ""],
    ["penalty-TOTAL_FORMS", "2"],
  ];
  assert.deepEqual(draftOf([...bookkeeping, ...kept], round), { number: "4", edits: "", fields: kept });
});

test("a form with nothing typed, picked or chosen has no draft", () => {
  const fresh = [
    ["number", "4"],
    ["target", "0"],
    ["cards_0", ""],
    ["total_0", "  "],
    ["caller", ""],
    ["penalty-0-player", ""],
  ];
  assert.equal(draftOf(fresh, round), null);
  assert.notEqual(draftOf([...fresh, ["caller", "Nina"]], round), null);
  assert.notEqual(draftOf([["penalty-2-reason", "late"]], round), null);
});

test("a new round's draft comes back whatever the number; a correction's only on the round it was typed on", () => {
  const draft = { number: "3", edits: "", fields: [["total_0", "5"]] };
  assert.equal(restores(draft, { number: "4", edits: "" }), true);
  assert.equal(restores({ ...draft, edits: "1" }, { number: "3", edits: "1" }), true);
  assert.equal(restores({ ...draft, edits: "1" }, { number: "3", edits: "2" }), false);
  assert.equal(restores(null, round), false);
  assert.equal(restores({ number: "3", edits: "" }, round), false);
});

test("the penalty rows a draft fills are counted from its fields", () => {
  assert.equal(penaltyRows([]), 0);
  assert.equal(penaltyRows([["penalty-0-points", "2"]]), 1);
  assert.equal(penaltyRows([["penalty-2-reason", ""], ["penalty-0-points", "2"], ["total_0", "1"]]), 3);
});

test("each game and each corrected round has its own draft, whatever the host or the anchor", () => {
  assert.equal(draftKey("http://table.example/g/AbC/#round-form"), "tamalou-ref:draft:/g/AbC/");
  assert.notEqual(draftKey("/g/AbC/"), draftKey("/g/XyZ/"));
  assert.equal(draftKey("/g/AbC/rounds/7/edit/"), "tamalou-ref:draft:/g/AbC/rounds/7/edit/");
});

test("the ± key changes the sign of what is typed, so the sign is never typed", () => {
  assert.equal(negated(""), "-");
  assert.equal(negated("-"), "");
  assert.equal(negated("5"), "-5");
  assert.equal(negated("-5"), "5");
  assert.equal(negated("−4,5"), "4,5");
  assert.equal(negated(" +2 "), "-2");
});
