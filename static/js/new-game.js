// The new-game form. The keyboard's Enter goes on to the next name, and in any other field (a
// house rule, the rules' name) closes the keyboard: it never sends the form (whose first button,
// without JavaScript, is Start the game).
//
// The player rows are this module's: without it the page is a plain list of as many names as
// the variant takes, the empty ones left out. With it, the spare rows are hidden (and disabled:
// not sent) and a row's buttons (add, remove, move up, deals first) change the rows on the
// phone; nothing is sent, so no answer can overwrite a name typed meanwhile. Each row keeps its
// number, its labels and its buttons; the names, their errors and the dealer move between rows.
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

document.addEventListener("click", (event) => {
  const button = event.target.closest("#players button[data-row]");
  if (!button) return;
  event.preventDefault();
  const players = button.closest("#players");
  const rows = [...players.querySelectorAll(".player-row")];
  const dealer = players.querySelector("input[name=dealer]");
  const least = Number(players.dataset.least);
  const most = Math.min(Number(players.dataset.most), rows.length);
  const after = rowAction(
    rows.filter((row) => !row.hidden).map(held),
    Number(dealer.value) || 0,
    button.dataset.row,
    { least, most, blank: { name: "", invalid: null, errors: [] } },
  );
  const removable = after.rows.length > least;
  rows.forEach((row, i) => {
    show(row, after.rows[i], { isDealer: i === after.dealer, removable });
  });
  dealer.value = String(after.dealer);
  const add = players.querySelector("button[data-row=add]");
  add.hidden = after.rows.length >= most;
  if (button.dataset.row === "add") rows[after.rows.length - 1].querySelector("input").focus();
  else if (button.hidden || button.closest("[hidden]")) add.focus(); // its row went
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
