import assert from "node:assert/strict";
import { test } from "node:test";

import { number, step } from "../../static/js/steps.js";

test("minus goes below zero: a negative value without a minus key", () => {
  let value = 0;
  for (let tap = 0; tap < 5; tap += 1) value = step(value, "-1", -100, 100);
  assert.equal(value, -5);
});

test("the sign button flips the number, an empty field counts as 0", () => {
  assert.equal(step(12, "±", -50, 50), -12);
  assert.equal(step(null, "+1", -50, 50), 1);
  assert.equal(step(null, "-1", 1, 999), 1); // rounds start at 1
});

test("a step stays within the setting's bounds, halves stay halves", () => {
  assert.equal(step(50, "+1", -50, 50), 50);
  assert.equal(step(-50, "-1", -50, 50), -50);
  assert.equal(step(0, "-1", 0, 100), 0);
  assert.equal(step(5.5, "+1", 0, 100), 6.5);
  assert.equal(step(3, "+1", null, null), 4);
});

test("numbers are read as people type them", () => {
  assert.equal(number("−5"), -5);
  assert.equal(number("4,5"), 4.5);
  assert.equal(number(" 12 "), 12);
  assert.equal(number(""), null);
  assert.equal(number("abc"), null);
});
