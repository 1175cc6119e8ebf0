import assert from "node:assert/strict";
import { test } from "node:test";

import {
  cardsUsed,
  codes,
  nextShortHand,
  parseNumber,
  shownNumber,
  withCard,
  withoutCard,
} from "../../static/js/picker.js";

test("a hand's field of card codes reads with spaces, commas or semicolons", () => {
  assert.deepEqual(codes("7H KS, 10D;JK"), ["7H", "KS", "10D", "JK"]);
  assert.deepEqual(codes("  "), []);
  assert.deepEqual(codes(""), []);
});

test("a picked card goes at the end of the hand", () => {
  assert.equal(withCard("", "KH"), "KH");
  assert.equal(withCard("7H, KS", "KH"), "7H KS KH");
});

test("a tapped chip removes that very card, not another copy of it", () => {
  assert.equal(withoutCard("7H KS 7H", 2), "7H KS");
  assert.equal(withoutCard("7H KS 7H", 0), "KS 7H");
  assert.equal(withoutCard("KH", 0), "");
});

test("a typed total reads as the server reads it", () => {
  assert.equal(parseNumber("12"), 12);
  assert.equal(parseNumber(" -3 "), -3);
  assert.equal(parseNumber("−3"), -3);
  assert.equal(parseNumber("+2"), 2);
  assert.equal(parseNumber("4,5"), 4.5);
  assert.equal(parseNumber("4.5"), 4.5);
  assert.equal(parseNumber("0"), 0);
});

test("what is not a total is none", () => {
  for (const text of ["", " ", "douze", "4,", ",5", "1.1234567", "1234567890123", "3 4", "--3"]) {
    assert.equal(parseNumber(text), null, text);
  }
});

test("a total shows in the page's language with a real minus sign, or a dash for none", () => {
  assert.equal(shownNumber(null, "fr"), "–");
  assert.equal(shownNumber(4.5, "fr"), "4,5");
  assert.equal(shownNumber(4.5, "en"), "4.5");
  assert.equal(shownNumber(-3, "en"), "−3");
  assert.equal(shownNumber(0, "fr"), "0");
  assert.equal(shownNumber(2.25, "en"), "2.3");
});

test("spent cards are counted over every hand and the penalty cards", () => {
  const used = cardsUsed([["7H", "KS"], ["7H"], [], ["JK", "JK"]]);
  assert.equal(used.get("7H"), 2);
  assert.equal(used.get("KS"), 1);
  assert.equal(used.get("JK"), 2);
  assert.equal(used.get("QD"), undefined);
});

const hand = (seat, cards, typed = false) => ({ seat, cards, typed });

test("a full hand sends the picker to the next hand still short of cards", () => {
  const hands = [hand("0", 4), hand("1", 4), hand("2", 1), hand("3", 0)];
  assert.equal(nextShortHand(hands, "0", 4), "2");
  assert.equal(nextShortHand(hands, "2", 4), "3");
});

test("a hand with a typed total is skipped", () => {
  const hands = [hand("0", 4), hand("1", 0, true), hand("2", 0)];
  assert.equal(nextShortHand(hands, "0", 4), "2");
});

test("the picker stays when no hand after this one is short (it does not go back)", () => {
  const hands = [hand("0", 2), hand("1", 4), hand("2", 4, false)];
  assert.equal(nextShortHand(hands, "1", 4), "1");
  assert.equal(nextShortHand(hands, "2", 4), "2");
});

test("a hand size of 3 (a variant's own) counts as full at 3", () => {
  const hands = [hand("0", 3), hand("1", 3), hand("2", 2)];
  assert.equal(nextShortHand(hands, "0", 3), "2");
  assert.equal(nextShortHand(hands, "0", 4), "1");
});
