// The house rules builder's stepper arithmetic (static/js/house.js): node --test tests/js
import assert from "node:assert/strict";
import { test } from "node:test";
import { step } from "../../static/js/house.js";

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

test("a step stays within the setting's bounds", () => {
  assert.equal(step(50, "+1", -50, 50), 50);
  assert.equal(step(-50, "-1", -50, 50), -50);
  assert.equal(step(0, "-1", 0, 100), 0);
  assert.equal(step(5.5, "+1", 0, 100), 6.5);
});
