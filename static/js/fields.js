// A form's fields set from [name, value] pairs, as a draft or a kept round holds them (keep.js
// for the round form, new-game.js): every named input and select but those `skipped` matches.
// A box or a radio is checked when its value is given (a radio of value "" when none of its
// group's is), any other field takes the first value given ("" when none). Returns the fields
// it changed.
export function setFields(form, fields, skipped) {
  const values = new Map();
  for (const [name, value] of fields) values.set(name, [...(values.get(name) || []), value]);
  const changed = [];
  form.querySelectorAll("input, select").forEach((input) => {
    if (!input.name || skipped.test(input.name)) return;
    const given = values.get(input.name) || [];
    if (input.type === "radio" || input.type === "checkbox") {
      const checked = given.includes(input.value) || (!given.length && input.value === "");
      if (input.checked !== checked) changed.push(input);
      input.checked = checked;
    } else {
      const value = given[0] || "";
      if (input.value !== value) changed.push(input);
      input.value = value;
    }
  });
  return changed;
}
