// A round saved without a connection (imported by offline.js at that moment): kept on the
// phone, the form goes on to the next round. And a kept round put back into the form.
import { keptRound } from "./queue.js";
import { pendingBox, putKept } from "./store.js";

export function renumber(form, number) {
  const field = form.querySelector("input[name=number]");
  const old = field.value;
  field.value = String(number);
  form.querySelectorAll("h2, button[name=save]").forEach((element) => {
    element.textContent = element.textContent.replace(old, String(number));
  });
}

// The form with these fields (none: a fresh form), the picker back on the first player.
// The penalty rows' bookkeeping (penalty-TOTAL_FORMS…) describes the rows on the page: kept.
const bookkeeping = /^(number|csrfmiddlewaretoken|edits|target|.*-(TOTAL|INITIAL|MIN_NUM|MAX_NUM)_FORMS)$/;
export function fillForm(form, fields) {
  const values = new Map();
  for (const [name, value] of fields) values.set(name, [...(values.get(name) || []), value]);
  form.querySelectorAll("input, select").forEach((input) => {
    if (!input.name || bookkeeping.test(input.name)) return;
    const given = values.get(input.name) || [];
    if (input.type === "radio" || input.type === "checkbox") {
      input.checked = given.includes(input.value) || (!given.length && input.value === "");
    } else input.value = given[0] || "";
  });
  form.querySelector(".hand .who").click(); // round.js moves the picker and redraws
  form.querySelector("input[name^=total_]").dispatchEvent(new Event("input", { bubbles: true }));
}

export async function keep(form) {
  const hands = [...form.querySelectorAll(".hand[data-seat]")].map((box) => ({
    name: box.querySelector(".who").textContent.trim(),
    hand:
      [...box.querySelectorAll(".chips .chip")].map((chip) => chip.textContent.replace("✕", "").trim()).join(" ") ||
      box.querySelector("input[name^=total_]").value.trim(),
  }));
  const round = keptRound([...new FormData(form).entries()], {
    sheet: location.pathname,
    sync: pendingBox().dataset.sync,
    hands,
  });
  await putKept(round);
  fillForm(form, []); // its draft goes with it (drafts.js keeps only a form with something typed)
  renumber(form, round.number + 1);
}
