// A note under a form's heading: nothing to save (round.js imports it at that moment), no
// connection for a turn round (match.js).

// The form's note of this class under its heading (made the first time), saying `text`.
export function noteUnderHeading(form, className, role, text) {
  let note = form.querySelector(`.${className.split(" ").pop()}`);
  if (!note) {
    note = document.createElement("p");
    note.className = className;
    note.setAttribute("role", role);
    (form.querySelector(".round-head") || form.querySelector("h2")).after(note);
  }
  note.textContent = text;
  return note;
}
