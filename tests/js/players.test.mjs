import assert from "node:assert/strict";
import { test } from "node:test";

import { rowAction } from "../../static/js/players.js";

const LIMITS = { least: 2, most: 8, blank: "" };

test("a player is added as an empty row, up to the most players", () => {
  assert.deepEqual(rowAction(["Léa", "Marc"], 1, "add", LIMITS), {
    rows: ["Léa", "Marc", ""],
    dealer: 1,
  });
  const four = ["A", "B", "C", "D"];
  assert.deepEqual(rowAction(four, 0, "add", { ...LIMITS, most: 4 }).rows, four);
});

test("moving a player up swaps two rows, and the dealer goes with its row", () => {
  const names = ["Léa", "Marc", "Nina"];
  assert.deepEqual(rowAction(names, 2, "up-2", LIMITS), {
    rows: ["Léa", "Nina", "Marc"],
    dealer: 1,
  });
  assert.deepEqual(rowAction(names, 1, "up-2", LIMITS).dealer, 2);
  assert.deepEqual(rowAction(names, 0, "up-2", LIMITS).dealer, 0);
  assert.deepEqual(rowAction(names, 0, "up-0", LIMITS).rows, names); // the first stays first
});

test("removing a row moves the later ones up; its dealer falls back to the first row", () => {
  const names = ["Léa", "Marc", "Nina", "Omar"];
  assert.deepEqual(rowAction(names, 3, "remove-1", LIMITS), {
    rows: ["Léa", "Nina", "Omar"],
    dealer: 2,
  });
  assert.deepEqual(rowAction(names, 1, "remove-1", LIMITS).dealer, 0);
  assert.deepEqual(rowAction(names, 0, "remove-3", LIMITS).dealer, 0);
  assert.deepEqual(rowAction(["Léa", "Marc"], 1, "remove-0", LIMITS).rows, ["Léa", "Marc"]);
});

test("the dealer is any row shown, and a button of no row changes nothing", () => {
  const names = ["Léa", "Marc", "Nina"];
  assert.equal(rowAction(names, 0, "deal-2", LIMITS).dealer, 2);
  for (const action of ["deal-3", "up-9", "remove-", "remove--1", "deal-1e3", "enter", ""]) {
    assert.deepEqual(rowAction(names, 1, action, LIMITS), { rows: names, dealer: 1 }, action);
  }
});

test("rows hold anything: what is typed and what was said about it move together", () => {
  const rows = [{ name: "Léa" }, { name: "x\u0007", errors: ["an invisible character"] }];
  const after = rowAction(rows, 0, "up-1", LIMITS).rows;
  assert.equal(after[0], rows[1]);
});

test("the rows given are not changed", () => {
  const names = ["Léa", "Marc", "Nina"];
  rowAction(names, 0, "remove-0", LIMITS);
  assert.deepEqual(names, ["Léa", "Marc", "Nina"]);
});
