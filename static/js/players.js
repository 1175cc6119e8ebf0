// The new game's player rows as a tap on a row's button changes them (new-game.js uses it on the
// page; without JavaScript there are no such buttons, only a plain list of names): add a row,
// remove one, move one up, or choose who deals first.

// `rows` is what each row holds (any value), `dealer` the index of the row that deals first,
// `action` the button's data-row ("add", "remove-2", "up-1", "deal-3"). A row is added (as `blank`)
// up to `most` rows, removed down to `least`. Returns the rows and the dealer after the tap; the
// dealer follows its row when it moves, and is the first row again when its row is removed.
export function rowAction(rows, dealer, action, { least, most, blank }) {
  const [verb, index] = action.split("-");
  const i = /^\d{1,6}$/.test(index ?? "") ? Number(index) : -1;
  const next = [...rows];
  let deals = dealer;
  if (verb === "add" && next.length < most) {
    next.push(blank);
  } else if (verb === "remove" && i >= 0 && i < next.length && next.length > least) {
    next.splice(i, 1);
    if (dealer === i) deals = 0;
    else if (dealer > i) deals = dealer - 1;
  } else if (verb === "up" && i > 0 && i < next.length) {
    [next[i - 1], next[i]] = [next[i], next[i - 1]];
    if (dealer === i) deals = i - 1;
    else if (dealer === i - 1) deals = i;
  } else if (verb === "deal" && i >= 0 && i < next.length) {
    deals = i;
  }
  return { rows: next, dealer: deals };
}
