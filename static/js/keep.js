// A round saved without a connection (imported by offline.js at that moment): kept on the
// phone, the form goes on to the next round. And a kept round put back into the form.
// Saved with nobody as the caller, it is asked about first, as the server would ask: kept
// only once the table answered that nobody called (the sync then does not ask again).
import { setFields } from "./fields.js";
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
  setFields(form, fields, bookkeeping);
  const question = form.querySelector(".who-called");
  if (question) question.hidden = true; // asked about the round that was in the form
  form.querySelector(".hand .who")?.click(); // round.js moves the picker and redraws
  form.querySelector("input[name^=total_]")?.dispatchEvent(new Event("input", { bubbles: true }));
}

// Whether the round must be asked about before it is kept (HandsForm.caller_forgotten): its
// variant's rounds end with a call (the question is on the form), nobody is the caller, the
// table has not answered yet, and no emptied hand ended the round where that ends it. If so,
// the question is shown beside the caller, as the server shows it.
export function asksWhoCalled(form) {
  const question = form.querySelector(".who-called");
  if (!question || form.elements.caller?.value || form.querySelector("input[name=nobody_called]")?.value) {
    return false;
  }
  if ("unlessEmptied" in question.dataset && form.querySelector("input[name=emptied]:checked")) return false;
  question.setAttribute("role", "alert");
  question.hidden = false;
  question.scrollIntoView({ block: "center" });
  return true;
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
