// The round form on the phone itself. The card picker, its chips, the choice of whose hand it
// fills, the ± keys and "Another penalty" are this script's alone: without JavaScript they are
// not shown (.js-only) and the table types each total. With it, a tap on a card shows at once:
// the card goes into the player's hidden field of card codes, a chip appears, the total is added
// up from the values the server wrote once for the picker (#picker-values), spent cards are
// greyed, and the picker moves on to the next player once a hand has its usual size (picker.js).
// Saving still goes to the server.
import { enterGoesOn } from "./next-field.js";
import {
  cardsUsed,
  codes,
  negated,
  nextShortHand,
  parseNumber,
  shownNumber,
  withCard,
  withoutCard,
} from "./picker.js";

// What only a script does is shown once one runs (app.css hides .js-only until then). This
// module is on every page (base.html), so it says so for the others' widgets too (house.js's
// steppers, new-game.js's player rows).
document.documentElement.classList.add("js");

const form = () => document.getElementById("round-form");
const cardsField = (f, seat) =>
  f.querySelector(seat === f.dataset.penaltyTarget ? "input[name=penalty_cards]" : `input[name=cards_${seat}]`);
// A card's button sends its code and shows its name; its value and copies: #picker-values.
const pickButton = (f, code) => f.querySelector(`.picker button[name=pick][value="${code}"]`);
const pickerValues = (f) => JSON.parse(f.querySelector("#picker-values")?.textContent || "{}");
const typedTotal = (box) => box.querySelector("input[name^=total_]");

function target(f) {
  return f.querySelector("input[name=target]").value || f.querySelector(".hand").dataset.seat;
}

function setTarget(f, seat) {
  f.querySelector("input[name=target]").value = seat;
  f.querySelectorAll("[data-seat]").forEach((box) => {
    const on = box.dataset.seat === seat;
    box.classList.toggle("target", on && box.classList.contains("hand"));
    box.querySelector("button[name=choose]")?.setAttribute("aria-pressed", String(on));
  });
  const legend = f.querySelector(".picker legend");
  const box = f.querySelector(`.hand[data-seat="${seat}"]`);
  if (legend) {
    legend.textContent = box
      ? f.dataset.addTo.replace("{name}", box.querySelector(".who").textContent)
      : f.querySelector(".penalty-cards").dataset.legend; // as the server writes it
  }
}

function chip(f, seat, code, index) {
  const pick = pickButton(f, code);
  const name = pick ? pick.firstChild.textContent : code;
  const button = Object.assign(document.createElement("button"), {
    type: "button",
    name: "unpick",
    value: `${seat}:${index}`,
    className: `chip${pick?.classList.contains("red") ? " red" : ""}`,
  });
  button.dataset.card = code;
  button.setAttribute("aria-label", f.dataset.remove.replace("{card}", name));
  const cross = Object.assign(document.createElement("span"), { textContent: "✕" });
  cross.setAttribute("aria-hidden", "true");
  button.append(`${name} `, cross);
  return button;
}

// Chips, totals and spent cards, all from the hidden fields of card codes.
function redraw(f) {
  const lang = document.documentElement.lang || "fr";
  const values = pickerValues(f);
  const hands = [];
  f.querySelectorAll("[data-seat]").forEach((box) => {
    const seat = box.dataset.seat;
    const input = cardsField(f, seat);
    if (!input) return;
    const hand = codes(input.value);
    hands.push(hand);
    box.querySelector(".chips").replaceChildren(...hand.map((code, index) => chip(f, seat, code, index)));
    const output = box.querySelector("output.total");
    if (output) {
      const sum = hand.reduce((total, code) => total + (values[code]?.[0] || 0), 0);
      output.textContent = shownNumber(hand.length ? sum : parseNumber(typedTotal(box).value), lang);
    }
  });
  const used = cardsUsed(hands);
  f.querySelectorAll(".picker button[name=pick]").forEach((button) => {
    button.disabled = (used.get(button.value) || 0) >= (values[button.value]?.[1] ?? 1);
  });
}

function nextSeat(f, seat) {
  const hands = [...f.querySelectorAll(".hand[data-seat]")].map((box) => ({
    seat: box.dataset.seat,
    cards: codes(cardsField(f, box.dataset.seat).value).length,
    typed: Boolean(typedTotal(box).value.trim()),
  }));
  return nextShortHand(hands, seat, Number(f.dataset.handSize));
}

function keepInView(element) {
  const box = element.getBoundingClientRect();
  if (box.top < 0 || box.bottom > window.innerHeight) {
    element.scrollIntoView({ block: "nearest" });
  }
}

// What is typed stays on the phone (drafts.js, the only user of localStorage): loaded at once
// when something is kept or was typed before this script ran (a quick thumb on a slow
// phone), or at the first touch of the form (a tap, typing).
let drafts;
const withDrafts = () => {
  drafts ||= import("./drafts.js").then((module) => {
    module.start();
    return module;
  });
  return drafts;
};
const changed = (field) =>
  field.type === "radio" || field.type === "checkbox"
    ? field.checked !== field.defaultChecked
    : field.type !== "hidden" && "defaultValue" in field && field.value !== field.defaultValue;
try {
  const f = form();
  if (f && (localStorage.length || [...f.elements].some(changed))) withDrafts();
} catch {
  // no storage: no drafts
}

// The microphone button, where the browser can listen (Chrome on Android, Safari on iOS): the
// table says the round and say.js fills the form, loaded at the first tap. Shown again on each
// form the server draws.
const offerSaying = () => {
  const say = form()?.querySelector("button[data-say]");
  if (say && ("SpeechRecognition" in window || "webkitSpeechRecognition" in window)) say.hidden = false;
};
offerSaying();
document.addEventListener("htmx:afterSettle", offerSaying);

// Clear is drafts.js's.
document.addEventListener("click", (event) => {
  const button = event.target.closest("button");
  const f = form();
  if (!button || !f?.contains(button)) return;
  withDrafts();
  if ("say" in button.dataset) {
    import("./say.js").then((say) => say.listen(f, button));
  } else if (button.name === "negate") {
    // The ± key: the sign changes in place and the keypad stays on the number.
    event.preventDefault();
    const input = f.elements[button.value];
    input.value = negated(input.value);
    input.focus();
    input.dispatchEvent(new Event("input", { bubbles: true }));
  } else if (button.name === "pick") {
    event.preventDefault();
    const seat = target(f);
    const input = cardsField(f, seat);
    input.value = withCard(input.value, button.value);
    redraw(f);
    if (seat !== f.dataset.penaltyTarget && codes(input.value).length >= Number(f.dataset.handSize)) {
      setTarget(f, nextSeat(f, seat));
    }
    keepInView(f.querySelector(".picker"));
  } else if (button.name === "unpick") {
    event.preventDefault();
    const [seat, index] = button.value.split(":");
    const input = cardsField(f, seat);
    input.value = withoutCard(input.value, Number(index));
    setTarget(f, seat);
    redraw(f);
  } else if (button.name === "choose") {
    event.preventDefault();
    setTarget(f, button.value);
    keepInView(f.querySelector(".picker"));  } else if (button.name === "add_penalty") {
    // Another penalty row, empty, under the others (as many as the server takes).
    event.preventDefault();
    withDrafts().then((drafts) => {
      const rows = f.querySelectorAll(".penalty-row");
      if (rows.length >= Number(f.elements["penalty-MAX_NUM_FORMS"]?.value || 16)) return;
      drafts.growPenalties(f, rows.length + 1);
      const row = [...f.querySelectorAll(".penalty-row")].at(-1);
      for (const field of row.querySelectorAll("input, select")) field.value = "";
      row.querySelector("select")?.focus();
      row.scrollIntoView({ block: "center" });
    });
  }
});

// A typed total shows at once; the keypad's "next" key goes on to the next player's total.
document.addEventListener("input", (event) => {
  const f = form();
  if (!f?.contains(event.target)) return;
  withDrafts();
  if (event.target.name.startsWith("total_")) redraw(f);
});
enterGoesOn(/^total_\d+$/, "blur");

// A tap on a total already typed selects it, so that what is typed next replaces it: the
// caret would land before a number written from the right (Backspace did nothing, 6 became 56).
// A tap only: the ± key's focus keeps its sign for what is typed next.
document.addEventListener("click", (event) => {
  const box = event.target;
  if (form()?.contains(box) && box.name?.startsWith("total_") && box.value) box.select();
});

// A tap on Save over a fresh form (a second tap after a save) has nothing to send: say so
// here. Sent, its answer would redraw the form under the thumb, over what is being typed.
// A hand ticked as emptied is entered: it needs no total (a round every hand emptied is one).
const entered = /^(total_\d+|cards_\d+|penalty_cards|penalty-\d+-(player|points|reason))$/;
const isEntered = (field) =>
  field.name === "emptied" ? field.checked : entered.test(field.name) && field.value.trim();
document.addEventListener("htmx:confirm", (event) => {
  const f = event.detail.elt;
  if (!(f instanceof HTMLFormElement) || f.id !== "round-form") return;
  if (event.detail.triggeringEvent?.submitter?.name !== "save") return;
  if ([...f.elements].some(isEntered)) return;
  event.preventDefault();
  import("./note.js").then((note) => note.noteUnderHeading(f, "hint empty-hint", "status", f.dataset.empty));
});

// After the server redrew the form with its refusals, show the first message rather than
// wherever the page happened to land.
document.addEventListener("htmx:afterSwap", (event) => {
  const f = event.target;
  if (!(f instanceof Element) || f.id !== "round-form") return;
  f.querySelector("[role=alert]")?.scrollIntoView({ block: "center" });
});

// A confirmation opened at the bottom of the page comes into view.
document.addEventListener(
  "toggle",
  (event) => {
    if (event.target.matches?.("details.confirm") && event.target.open) {
      event.target.scrollIntoView({ block: "nearest" });
    }
  },
  true,
);

// A live update: another phone saved a round, or ended the game (a sheet's form: a correction's
// page has no live part). A form with nothing typed goes on to the round now entered; one with
// hands typed is held at its round and says so (drafts.js), so that only a tap saves them as the
// next round. A game over leaves no round to type: the form makes way for the end of the game.
// This phone's own save on its way (htmx-request): its answer, not the live part, says.
document.addEventListener("htmx:afterSettle", () => {
  const f = form();
  const top = document.getElementById("live-top");
  if (!f || !top || f.elements.edits?.value || f.classList.contains("htmx-request")) return;
  if ("finished" in top.dataset) {
    withDrafts().then((module) => module.gameOver(f));
    return;
  }
  const next = Number(top.dataset.next);
  if (next > Number(f.elements.number.value)) withDrafts().then((module) => module.overtaken(f, next));
  else f.querySelector(".overtaken")?.setAttribute("hidden", ""); // that round deleted since
});
