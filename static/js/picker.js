// The card picker's state without the page. A hand is the text of its hidden field of card
// codes ("7H KS 10D"); the picker's buttons tell each card's value and how many the deck has.

export const codes = (text) => text.split(/[\s,;]+/).filter(Boolean);

export const withCard = (text, code) => [...codes(text), code].join(" ");

export const withoutCard = (text, index) =>
  codes(text)
    .filter((_code, at) => at !== index)
    .join(" ");

// A typed total as the server reads it ("12", "-3", "−3", "4,5"), or null.
export function parseNumber(text) {
  const match = /^\s*([+\-−]?)([0-9]{1,12})(?:[.,]([0-9]{1,6}))?\s*$/.exec(text);
  if (!match) return null;
  const value = Number(`${match[2]}.${match[3] || 0}`);
  return match[1] === "-" || match[1] === "−" ? -value : value;
}

// A total as the page shows it: "–" for none, decimals the language's way, a real minus sign.
export function shownNumber(value, lang) {
  if (value === null) return "–";
  return value.toLocaleString(lang, { maximumFractionDigits: 1 }).replace("-", "−");
}

// How many times each card is held, over lists of card codes.
export function cardsUsed(hands) {
  const used = new Map();
  for (const hand of hands) {
    for (const code of hand) used.set(code, (used.get(code) || 0) + 1);
  }
  return used;
}

// Where the picker goes once the hand at `seat` has its `size` cards: the next hand after it
// ({ seat, cards, typed }) still short of cards with no typed total, else `seat` itself.
export function nextShortHand(hands, seat, size) {
  const start = hands.findIndex((hand) => hand.seat === seat);
  const next = hands.slice(start + 1).find((hand) => hand.cards < size && !hand.typed);
  return next ? next.seat : seat;
}

// A typed number with its sign changed by the ± key ("5" ↔ "-5", "" → "-"): iOS's decimal
// keypad has no minus key, so the sign is never typed (round.js's ± key).
export function negated(text) {
  const typed = text.trim();
  return /^[-−]/.test(typed) ? typed.slice(1) : `-${typed.replace(/^\+/, "")}`;
}
