import assert from "node:assert/strict";
import { test } from "node:test";

import { nextField } from "../../static/js/next-field.js";

test("Enter goes to the field after this one, in page order", () => {
  assert.equal(nextField(["total_0", "total_1", "total_2"], "total_0"), "total_1");
  assert.equal(nextField(["total_0", "total_1", "total_2"], "total_1"), "total_2");
});

test("after the last field there is none", () => {
  assert.equal(nextField(["name_0", "name_1"], "name_1"), null);
  assert.equal(nextField(["count_0"], "count_0"), null);
});

test("fields are told apart by identity, not by what they hold", () => {
  const first = { value: "3" };
  const second = { value: "3" };
  assert.equal(nextField([first, second], first), second);
  assert.equal(nextField([first, second], second), null);
});
