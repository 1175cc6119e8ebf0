// The new-game form. The keyboard's Enter goes on to the next name, and in any other field (a
// house rule, the rules' name) closes the keyboard: it never sends the form (whose first button,
// without JavaScript, is Start the game).
//
// The player rows are this module's: without it the page is a plain list of as many names as
// the variant takes, the empty ones left out. With it, the spare rows are hidden (and disabled:
// not sent) and a row's buttons (add, remove, move up, deals first) change the rows on the
// phone; nothing is sent, so no answer can overwrite a name typed meanwhile. Each row keeps its
// number, its labels and its buttons; the names, their errors and the dealer move between rows.
//
// What is typed is kept for the tab (sessionStorage) as it is typed: a reload or the language
// switch draws the same page again, and the form comes back as it was left (its rows, names,
// dealer and house rules). It is dropped when the form is sent (the server carries it on).
import { setFields } from "./fields.js";
import { enterGoesOn } from "./next-field.js";
import { rowAction } from "./players.js";

enterGoesOn(/^name_\d+$/, "blur");
document.addEventListener("keydown", (event) => {
  const field = event.target;
  if (event.key !== "Enter" || event.defaultPrevented || field.form?.id !== "new-game") return;
  if (field.tagName !== "INPUT") return;
  event.preventDefault();
  field.blur();
});

const ERRORS = ":scope > .error";

// What a shown row holds: its name as typed, and what was said about it.
const held = (row) => {
  const input = row.querySelector("input");
  return {
    name: input.value,
    invalid: input.getAttribute("aria-invalid"),
    errors: [...row.querySelectorAll(ERRORS)],
  };
};

function show(row, holds, { isDealer, removable }) {
  const input = row.querySelector("input");
  row.hidden = !holds;
  input.disabled = !holds; // a hidden row is not sent
  input.value = holds ? holds.name : "";
  if (holds?.invalid) input.setAttribute("aria-invalid", holds.invalid);
  else input.removeAttribute("aria-invalid");
  for (const error of row.querySelectorAll(ERRORS)) error.remove();
  if (holds) row.append(...holds.errors);
  const deals = row.querySelector("button[data-row^='deal-']");
  deals.classList.toggle("on", isDealer);
  deals.setAttribute("aria-pressed", String(isDealer));
  row.querySelector("button[data-row^='remove-']").hidden = !removable;
}

const BLANK = { name: "", invalid: null, errors: [] };

// The rows as `after` says (rowAction's answer): what each shown row holds, who deals.
function draw(players, after) {
  const rows = [...players.querySelectorAll(".player-row")];
  const most = Math.min(Number(players.dataset.most), rows.length);
  const removable = after.rows.length > Number(players.dataset.least);
  rows.forEach((row, i) => {
    show(row, after.rows[i], { isDealer: i === after.dealer, removable });
  });
  players.querySelector("input[name=dealer]").value = String(after.dealer);
  players.querySelector("button[data-row=add]").hidden = after.rows.length >= most;
  return rows;
}

document.addEventListener("click", (event) => {
  const button = event.target.closest("#players button[data-row]");
  if (!button) return;
  event.preventDefault();
  const players = button.closest("#players");
  const rows = [...players.querySelectorAll(".player-row")];
  const after = rowAction(
    rows.filter((row) => !row.hidden).map(held),
    Number(players.querySelector("input[name=dealer]").value) || 0,
    button.dataset.row,
    {
      least: Number(players.dataset.least),
      most: Math.min(Number(players.dataset.most), rows.length),
      blank: BLANK,
    },
  );
  draw(players, after);
  keep();
  if (button.dataset.row === "add") rows[after.rows.length - 1].querySelector("input").focus();
  else if (button.hidden || button.closest("[hidden]")) {
    players.querySelector("button[data-row=add]").focus(); // its row went
  }
});

// The spare rows (past those the page was drawn with, under More players without JavaScript)
// join the list, hidden, and wait for "Add a player".
const list = document.querySelector("#players .player-rows");
for (const row of document.querySelectorAll("#players .player-row[data-spare]")) {
  row.hidden = true;
  row.querySelector("input").disabled = true;
  list.append(row);
}
document.querySelector("#players .more-players")?.remove();

// --- what is typed, kept for the tab --------------------------------------------------------

const form = document.getElementById("new-game");
const KEY = `tamalou-ref:new-game:${location.pathname}${location.search}`;
// The form's [name, value] pairs as it stands, or (`drawnAs`) as the server drew it.
function fieldsOf(drawnAs = false) {
  const fields = [];
  for (const field of form.elements) {
    if (!field.name || field.disabled || field.tagName === "BUTTON" || field.name === "csrfmiddlewaretoken") continue;
    if (field.type === "checkbox" || field.type === "radio") {
      if (drawnAs ? field.defaultChecked : field.checked) fields.push([field.name, field.value]);
    } else if (field.tagName === "SELECT") {
      for (const option of field.options) {
        if (drawnAs ? option.defaultSelected : option.selected) fields.push([field.name, option.value]);
      }
    } else {
      fields.push([field.name, drawnAs ? field.defaultValue : field.value]);
    }
  }
  return fields;
}
const drawn = form ? JSON.stringify(fieldsOf(true)) : "";

function keep() {
  const fields = fieldsOf();
  try {
    if (JSON.stringify(fields) === drawn) sessionStorage.removeItem(KEY);
    else sessionStorage.setItem(KEY, JSON.stringify({ drawn, fields }));
  } catch {
    // no storage (a private window that refuses it): the form works as before
  }
}

function restore() {
  let kept = null;
  try {
    kept = JSON.parse(sessionStorage.getItem(KEY));
  } catch {
    return;
  }
  if (kept?.drawn !== drawn || !Array.isArray(kept.fields)) return; // another page drawn since
  const names = kept.fields.filter(([name]) => /^name_\d+$/.test(name)).map(([, name]) => name);
  draw(form.querySelector("#players"), {
    rows: names.map((name) => ({ ...BLANK, name })),
    dealer: Number(new Map(kept.fields).get("dealer")) || 0,
  });
  const changed = setFields(form, kept.fields, /^(csrfmiddlewaretoken|dealer|name_\d+)$/);
  // As if typed: the house rules mark their changes, and the sample round is drawn again.
  for (const field of changed) field.dispatchEvent(new Event("change", { bubbles: true }));
}

if (form) {
  restore();
  form.addEventListener("input", keep);
  form.addEventListener("change", keep);
  form.addEventListener("submit", () => {
    try {
      sessionStorage.removeItem(KEY);
    } catch {
      // nothing kept
    }
  });
}
