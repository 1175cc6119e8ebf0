// "Enter goes to the next field", once for every form that wants it: the round's totals, the
// new game's names, a match's counts. The keypad's "next" key sends Enter.

// The field after `field` among `fields` (in page order), or null after the last one.
export const nextField = (fields, field) => fields[fields.indexOf(field) + 1] || null;

// Enter in a field whose name matches `names` focuses the next such field of its form (a
// disabled one, such as a new game's hidden player row, is skipped). On the last one, "blur"
// closes the keyboard (nothing is sent) and "submit" lets the form be sent.
export function enterGoesOn(names, last) {
  document.addEventListener("keydown", (event) => {
    const field = event.target;
    if (event.key !== "Enter" || !field.form || !names.test(field.name)) return;
    const next = nextField(
      [...field.form.elements].filter((one) => names.test(one.name) && !one.disabled),
      field,
    );
    if (next) next.focus();
    else if (last === "blur") field.blur();
    else return;
    event.preventDefault();
  });
}
