// The round said aloud: a tap on the microphone button listens in the page's language (the
// browser's speech recognition), speech.js reads what the table said, and the form is filled
// through its own fields, each one filled marked as heard, with a line saying what was heard
// and what was not. Nothing is sent: the table checks, then taps Save. Imported by round.js at
// the first tap on the button; a tap while it listens stops it.
//
// The fields get `input` events as if typed: round.js adds up the totals, drafts.js keeps the
// round on the phone (a reload brings it back).
import { growPenalties } from "./drafts.js";
import { shownNumber } from "./picker.js";
import { bestReading, parseRound } from "./speech.js";

const QUIET_MS = 4000; // listening stops this long after the last thing heard

let listening = null;

// What the parser needs: the form's players (in seat order) and the game's words (#say-words,
// HandsForm.speech, in the page's language).
function contextOf(form) {
  const setup = JSON.parse(form.querySelector("#say-words").textContent);
  const seats = new Map();
  for (const box of form.querySelectorAll(".hand[data-seat]")) {
    seats.set(box.querySelector(".who").textContent.trim(), box.dataset.seat);
  }
  const lang = document.documentElement.lang || "fr";
  const context = { ...setup, lang, players: [...seats.keys()] };
  return { context, seats, texts: setup.texts, range: [setup.lowest, setup.highest] };
}

const fill = (text, values) => text.replace(/\{(\w+)\}/g, (all, key) => values[key] ?? all);

function typed(field, value) {
  field.value = value;
  field.classList.add("heard");
  field.dispatchEvent(new Event("input", { bubbles: true }));
}

function choose(form, name, value) {
  const radio = [...form.querySelectorAll(`input[name=${name}]`)].find((input) => input.value === value);
  if (!radio) return;
  radio.checked = true;
  radio.closest("label")?.classList.add("heard");
  radio.dispatchEvent(new Event("input", { bubbles: true }));
  radio.dispatchEvent(new Event("change", { bubbles: true }));
}

// The penalty row of `player`: theirs already, else an empty one, else a new one.
function penaltyRow(form, player) {
  const rows = () => [...form.querySelectorAll(".penalty-row")];
  const mine = (row) => row.querySelector("select[name$=-player]")?.value;
  const empty = (row) => !mine(row) && !row.querySelector("input[name$=-points]").value.trim();
  let row = rows().find((one) => mine(one) === player) || rows().find(empty);
  if (!row) {
    growPenalties(form, rows().length + 1);
    row = rows().at(-1);
    for (const field of row.querySelectorAll("input, select")) field.value = "";
  }
  return row;
}

// A player's hand emptied: no total, no cards (round.js redraws it, drafts.js keeps it so).
function emptied(form, seat) {
  const cards = form.elements[`cards_${seat}`];
  if (cards) cards.value = "";
  const total = form.elements[`total_${seat}`];
  total.value = "";
  total.dispatchEvent(new Event("input", { bubbles: true }));
}

// The form filled with what was heard; what was not is left as it was, except the hand of a
// player said with a number that cannot be placed (out of range, a half where the game has
// none, a number not read): that hand is emptied, not left with the number typed or heard
// before. The table said a new number for that player, so the old one is no longer what it
// means, and an empty hand is one Save asks about where an old number would be saved unnoticed.
// The line under the round's heading says all of it, naming each player not placed.
function show(form, heard, { seats, texts, lang, range }) {
  const number = (value) => shownNumber(value, lang);
  const said = [];
  for (const [name, seat] of seats) {
    if (!(name in heard.totals)) continue;
    const cards = form.elements[`cards_${seat}`];
    if (cards) cards.value = ""; // the total said replaces cards picked before
    typed(form.elements[`total_${seat}`], String(heard.totals[name]).replace(".", lang === "fr" ? "," : "."));
    said.push(`${name} ${number(heard.totals[name])}`);
  }
  const notPlaced = [...heard.outOfRange.map(({ player }) => player), ...heard.handUnread];
  for (const name of notPlaced) emptied(form, seats.get(name));
  // beyond the lowest or highest hand, or else within them but no hand's total (a half where
  // the game has none)
  const [lowest, highest] = range;
  const beyond = ({ value }) => value < lowest || value > highest;
  const listed = (found) => found.map(({ player, value }) => `${player} ${number(value)}`).join(", ");
  if (heard.caller) {
    choose(form, "caller", heard.caller);
    const question = form.querySelector(".who-called");
    if (question) question.hidden = true;
    said.push(fill(texts.called, { name: heard.caller }));
  }
  if (heard.counterCaller && form.querySelector("input[name=counter_caller]")) {
    choose(form, "counter_caller", heard.counterCaller);
    said.push(fill(texts.countered, { name: heard.counterCaller }));
  }
  for (const { player, points } of heard.penalties) {
    const row = penaltyRow(form, player);
    const select = row.querySelector("select[name$=-player]");
    select.value = player;
    select.classList.add("heard");
    select.dispatchEvent(new Event("input", { bubbles: true }));
    typed(row.querySelector("input[name$=-points]"), String(points));
    form.querySelector("details.extras")?.setAttribute("open", "");
    said.push(fill(texts.penalty, { name: player, points: number(points) }));
  }
  const lines = [];
  if (said.length) lines.push(["", fill(texts.heard, { list: said.join(", ") })]);
  const far = heard.outOfRange.filter(beyond);
  if (far.length) {
    const limits = { lowest: number(lowest), highest: number(highest) };
    lines.push(["missed", fill(texts.outOfRange, { ...limits, list: listed(far) })]);
  }
  const within = heard.outOfRange.filter((found) => !beyond(found));
  if (within.length) lines.push(["missed", fill(texts.notAHand, { list: listed(within) })]);
  if (heard.unknown.length) lines.push(["missed", fill(texts.unknown, { words: heard.unknown.join(", ") })]);
  // A hand filled before (typed, or heard at an earlier go) is not missing; one said with a
  // number out of range is named above, with its number.
  const named = new Set(heard.outOfRange.map(({ player }) => player));
  const empty = heard.noNumber.filter(
    (name) => !named.has(name) && !form.elements[`total_${seats.get(name)}`]?.value,
  );
  const ofHands = said.length || notPlaced.length;
  if (ofHands && empty.length) lines.push(["missed", fill(texts.noNumber, { names: empty.join(", ") })]);
  if (heard.penaltyUnread.length) {
    lines.push(["missed", fill(texts.penaltyUnread, { names: heard.penaltyUnread.join(", ") })]);
  }
  if (said.length) lines.push(["", texts.check]);
  return lines.length ? lines : [["missed", texts.nothing]]; // words, but nothing of the round
}

function status(form, lines) {
  let box = form.querySelector(".said");
  if (!box) {
    box = document.createElement("div");
    box.className = "said";
    box.setAttribute("role", "status");
    form.querySelector(".round-head").after(box);
  }
  box.replaceChildren(
    ...lines.map(([className, text]) => Object.assign(document.createElement("p"), { className, textContent: text })),
  );
}

function unmark(form) {
  for (const field of form.querySelectorAll(".heard")) field.classList.remove("heard");
}

export function listen(form, button) {
  if (listening) {
    listening.stop(); // a second tap: enough said
    return;
  }
  const { context, seats, texts, range } = contextOf(form);
  const Recognition = window.SpeechRecognition || window.webkitSpeechRecognition;
  const recognition = new Recognition();
  const lang = context.lang;
  recognition.lang = navigator.languages?.find((tag) => tag.toLowerCase().startsWith(lang)) || lang;
  recognition.continuous = true; // a whole round, with its pauses
  recognition.interimResults = false;
  recognition.maxAlternatives = 5;
  const label = button.lastChild.textContent;
  const parts = []; // the best reading of each result, in order
  let quiet;
  let heardAny = false;
  let failed = null; // why the recognizer gave up: not allowed, no connection

  recognition.onresult = (event) => {
    for (let index = event.resultIndex; index < event.results.length; index += 1) {
      const result = event.results[index];
      if (!result.isFinal) continue;
      const before = parts.slice(0, index).join(" ");
      const options = Array.from(result, (alternative) => `${before} ${alternative.transcript}`.trim());
      parts[index] = bestReading(options, context).transcript.slice(before.length).trim();
    }
    const heard = parseRound(parts.join(" "), context);
    heardAny = true;
    unmark(form);
    status(form, show(form, heard, { seats, texts, lang, range }));
    clearTimeout(quiet);
    if (!heard.noNumber.length && (heard.caller || !context.calls.length)) recognition.stop();
    else quiet = setTimeout(() => recognition.stop(), QUIET_MS);
  };
  recognition.onerror = (event) => {
    if (event.error === "not-allowed" || event.error === "service-not-allowed") failed = texts.refused;
    else if (event.error === "network") failed = texts.offline; // Chrome listens through a server
  };
  recognition.onend = () => {
    clearTimeout(quiet);
    listening = null;
    button.setAttribute("aria-pressed", "false");
    button.lastChild.textContent = label;
    if (failed) status(form, [["missed", failed]]);
    else if (!heardAny) status(form, [["missed", texts.nothing]]);
  };

  listening = recognition;
  unmark(form);
  status(form, [["", texts.listening]]);
  button.setAttribute("aria-pressed", "true");
  button.lastChild.textContent = ` ${texts.stop}`;
  try {
    recognition.start();
  } catch {
    recognition.onend();
  }
}

// A field the table then types in is no longer as heard.
document.addEventListener("input", (event) => {
  if (event.isTrusted) event.target.classList?.remove("heard");
});
