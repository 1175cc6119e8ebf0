// The house rules builder's steppers (templates/widgets/stepper.html): a tap on −, + or ± changes
// the number in place, within the field's bounds, and marks the row changed from the variant's
// default. Without this module the buttons are not shown (.js-only): the number is typed.
import { number, step } from "./steps.js";

const markChanged = (input) => {
  const row = input.closest(".house");
  if (!row) return;
  const shown = number(input.value);
  const fallback = row.dataset.default;
  const changed = fallback === "" ? input.value.trim() !== "" : shown !== number(fallback);
  row.classList.toggle("changed", changed);
  const note = row.querySelector(".default");
  if (note) note.hidden = !changed && fallback !== ""; // a red and a black value: always said
};

document.addEventListener("click", (event) => {
  const button = event.target.closest("button[name=step]");
  if (!button) return;
  const [name, how] = button.value.split(":");
  const input = button.form?.elements.namedItem(name);
  if (!input) return;
  event.preventDefault();
  const bound = (key) => (key in input.dataset ? Number(input.dataset[key]) : null);
  input.value = String(step(number(input.value), how, bound("low"), bound("high")));
  input.dispatchEvent(new Event("change", { bubbles: true }));
});

document.addEventListener("input", (event) => markChanged(event.target));
document.addEventListener("change", (event) => markChanged(event.target));
