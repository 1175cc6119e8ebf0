// The arithmetic of the house rules builder's steppers (house.js uses it on the page).

// A number as a person typed it ("−5", "4,5"), or null when the field holds none.
export function number(text) {
  const value = Number.parseFloat(String(text).trim().replace(",", ".").replace("−", "-"));
  return Number.isFinite(value) ? value : null;
}

// The number after a tap on "-1", "+1" or "±" (an empty field counts as 0), within bounds.
export function step(value, how, low, high) {
  let next = how === "±" ? -(value ?? 0) : (value ?? 0) + Number(how);
  if (low !== null && next < low) next = low;
  if (high !== null && next > high) next = high;
  return next;
}
