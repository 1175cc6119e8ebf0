// The round being typed (a Tambouille match's counts too), kept on the phone as it is typed (localStorage: it survives a reload,
// the language switch, a visit to the rules and closing the browser), by the address its form
// posts to (draftKey: the game, and for a correction that round). Imported by
// round.js when a draft waits for the form or at the first touch of the form. A draft is
// dropped when its form is empty again: the round saved (the server draws a fresh form, or
// none once the game is over; kept offline, keep.js empties the form), or "Clear". If another
// phone saved the round meanwhile, the form stays at the round it was typed for and says so
// (`overtaken`): the table saves it as the next round, or discards it, on purpose; the server
// refuses it at its old number. A correction's draft is dropped once that round was corrected
// again (its `edits`).
import { fillForm, renumber } from "./keep.js";

// Where the round being typed on a form is kept: by the address the form posts to, which
// names the game (and, for a correction, the round).
export const draftKey = (action) => `tamalou-ref:draft:${new URL(action, "http://x").pathname}`;


// What the form's fields ([name, value] pairs) keep: everything but the CSRF token and the
// bookkeeping the page itself knows. Null when nothing is typed, picked or chosen.
const skipped = /^(csrfmiddlewaretoken|number|edits|save|.*-(TOTAL|INITIAL|MIN_NUM|MAX_NUM)_FORMS)$/;
const entered =
  /^(total_\d+|cards_\d+|count_\d+|penalty_cards|caller|counter_caller|emptied|penalty-\d+-(player|points|reason))$/;
export function draftOf(entries, { number, edits }) {
  const fields = entries.filter(([name, value]) => typeof value === "string" && !skipped.test(name));
  const typed = fields.some(([name, value]) => entered.test(name) && value.trim());
  return typed ? { number, edits, fields } : null;
}

// Whether a kept draft goes back into a form showing round `number` after `edits`
// corrections: a correction's draft only onto the round as it was when typed.
export const restores = (draft, { edits }) => Boolean(draft?.fields?.length) && draft.edits === edits;

// How many penalty rows the draft fills.
export const penaltyRows = (fields) =>
  Math.max(0, ...fields.map(([name]) => Number(/^penalty-(\d+)-/.exec(name)?.[1] ?? -1) + 1));

// --- on the page -------------------------------------------------------------------------

const roundForm = () => document.getElementById("round-form") || document.getElementById("counts-form");
const where = (form) => ({ number: form.elements.number.value, edits: form.elements.edits?.value || "" });

function read(form) {
  try {
    return JSON.parse(localStorage.getItem(draftKey(form.action)));
  } catch {
    return null;
  }
}

export function save(form) {
  const draft = draftOf([...new FormData(form).entries()], where(form));
  try {
    if (draft) localStorage.setItem(draftKey(form.action), JSON.stringify(draft));
    else localStorage.removeItem(draftKey(form.action));
  } catch {
    // no storage (a private window that refuses it): the form works as before
  }
}

export function drop(form) {
  try {
    localStorage.removeItem(draftKey(form.action));
  } catch {
    // nothing kept
  }
}

// Penalty rows up to `count`, each a copy of the first with its index (and emptied).
export function growPenalties(form, count) {
  const total = form.elements["penalty-TOTAL_FORMS"];
  const rows = form.querySelectorAll(".penalty-row");
  if (!total || !rows.length) return;
  for (let index = rows.length; index < count; index += 1) {
    const row = rows[0].cloneNode(true);
    for (const error of row.querySelectorAll(".error")) error.remove();
    row.querySelectorAll("[name], [id], [for], button[value]").forEach((element) => {
      for (const attribute of ["name", "id", "for", "value"]) {
        const text = element.getAttribute(attribute);
        if (text?.includes("penalty-0-")) element.setAttribute(attribute, text.replace("penalty-0-", `penalty-${index}-`));
      }
    });
    form.querySelectorAll(".penalty-row")[index - 1].after(row);
  }
  total.value = String(Math.max(Number(total.value), count));
}

function restore(form, draft) {
  growPenalties(form, penaltyRows(draft.fields));
  fillForm(form, draft.fields);
  const target = draft.fields.find(([name]) => name === "target")?.[1];
  if (target) form.querySelector(`button[name=choose][value="${target}"]`)?.click();
  const extras = form.querySelector("details.extras");
  if (extras && draft.fields.some(([name, value]) => /^(emptied|penalty-)/.test(name) && value.trim())) {
    extras.open = true;
  }
}

// "Clear", once confirmed: the form and its draft emptied (a correction goes back to the round
// as stored, by its link; "Discard my round" after a conflict to the sheet as it is, by its link).
function clear(event) {
  const form = roundForm();
  const link = event.target.closest("a[data-clear]");
  if (!link || !form?.contains(link)) return;
  drop(form);
  event.stopImmediatePropagation(); // not kept again by keepTyped on the way out
  if (form.elements.edits?.value || link.closest(".conflict")) return;
  event.preventDefault();
  link.closest("details")?.removeAttribute("open"); // the question asked and answered
  form.querySelector("details.extras")?.removeAttribute("open");
  const held = form.querySelector(".overtaken:not([hidden])"); // nothing left to hold
  if (held) {
    held.hidden = true;
    renumber(form, Number(held.dataset.next));
  }
  fillForm(form, []);
  form.querySelector(".round-head").scrollIntoView({ block: "nearest" }); // not the picker's place
}

let started = false;
export function start() {
  const form = roundForm();
  if (!form || started) return;
  started = true;
  // The draft wins over what the page shows: the server's form, or what the browser put back
  // into some of its fields after Back (radios, hidden fields; not the typed totals).
  const draft = read(form);
  if (restores(draft, where(form))) {
    const next = Number(form.elements.number.value);
    restore(form, draft);
    // Typed for a round another phone saved since (the page was reloaded): held, as live.
    if (!draft.edits && Number(draft.number) < next) {
      renumber(form, Number(draft.number));
      overtaken(form, next);
    }
  }
  save(form);
  // A tap on a chip removes the chip itself (round.js draws them again): the form is looked
  // for on the tap's path as it was dispatched, not around the button, which is gone.
  const keepTyped = (event) => {
    const now = roundForm();
    if (now && event.composedPath().includes(now)) save(now);
  };
  document.addEventListener("click", clear);
  document.addEventListener("click", choose);
  document.addEventListener("input", keepTyped);
  document.addEventListener("click", keepTyped); // after round.js: a card picked or removed
  // The form redrawn by the server (a refusal, a save, a live number, a conflict): kept as shown.
  document.addEventListener("htmx:afterSettle", () => {
    const now = roundForm();
    if (now) save(now);
  });
  // The game's last round saved: the answer draws no form to go on typing in, and the round's
  // draft goes (or it would come back in the next round's form once the game is reopened).
  document.addEventListener("htmx:beforeSwap", (event) => {
    const now = roundForm();
    const { requestConfig, shouldSwap, serverResponse } = event.detail; // requestConfig.elt: the form
    if (now && requestConfig?.elt === now && shouldSwap && !serverResponse.includes(`id="${now.id}"`)) drop(now);
  });
  // A correction saved: the server sends the phone to the sheet.
  document.addEventListener("htmx:beforeOnLoad", (event) => {
    const now = roundForm();
    if (now && event.detail.elt === now && event.detail.xhr.getResponseHeader("HX-Redirect")) drop(now);
  });
}

// --- another phone saved this round, or ended the game -------------------------------------

const filled = (text, values) => text.replace(/\{(\w+)\}/g, (whole, name) => values[name] ?? whole);

// Round `number` of the form was saved from another phone, which the sheet now shows: a form
// with nothing typed goes on to round `next`; one with hands typed stays at its round (the
// server refuses it there) and says so, with the two ways on.
export function overtaken(form, next) {
  const notice = form.querySelector(".overtaken");
  const number = Number(form.elements.number.value);
  if (!draftOf([...new FormData(form).entries()], where(form)) || !notice) {
    renumber(form, next);
    return;
  }
  const values = { n: number, next };
  notice.querySelector(".says").textContent = filled(notice.dataset.says, values);
  notice.querySelector(".keeps").textContent = filled(notice.dataset.keeps, values);
  notice.querySelector("a").href = `#round-${number}`;
  notice.querySelector("[data-overtaken=save]").textContent = filled(notice.dataset.save, values);
  notice.dataset.next = String(next);
  if (notice.hidden) {
    notice.setAttribute("role", "alert"); // a page drawn with nothing to say has no alert
    notice.hidden = false;
    notice.scrollIntoView({ block: "center" });
  }
}

// The table's answer to `overtaken`: its hands saved as the next round, or discarded.
function choose(event) {
  const button = event.target.closest("[data-overtaken]");
  const form = roundForm();
  if (!button || !form?.contains(button)) return;
  const notice = button.closest(".overtaken");
  notice.hidden = true;
  renumber(form, Number(notice.dataset.next));
  if (button.dataset.overtaken === "discard") {
    drop(form);
    fillForm(form, []);
  } else {
    form.requestSubmit(form.querySelector("button[name=save]"));
  }
  save(form);
}

// The game was ended from another phone: no round is left to type. The form and its draft go
// (as when this phone saves the last round), and the form's place says why.
export function gameOver(form) {
  drop(form);
  const said = Object.assign(document.createElement("p"), { className: "callout", textContent: form.dataset.over });
  said.setAttribute("role", "status");
  form.replaceWith(said);
}
