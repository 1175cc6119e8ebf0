// The rounds kept on this phone, as the pending code decides about them and shows them. A kept round is
// { id, sheet, sync, number, fields, hands, caller, state, answer }: `fields` are the round
// form's own fields, `state` is "waiting", "conflict" or "refused" (with the server's answer).

export const byNumber = (a, b) => a.number - b.number || a.id - b.id;

// The rounds to send, oldest number first (those in conflict or refused wait for the table).
export const toSend = (rounds) => rounds.filter((round) => round.state === "waiting").sort(byNumber);

// A round saved without a connection, from the form's fields ([name, value] pairs): no CSRF
// token (a fresh one goes with the send), and "save" as if its button had been tapped.
export function keptRound(entries, { sheet, sync, hands }) {
  const fields = entries.filter(
    ([name, value]) => typeof value === "string" && name !== "csrfmiddlewaretoken" && name !== "save",
  );
  fields.push(["save", "1"]);
  const number = Number(fields.find(([name]) => name === "number")?.[1]);
  const caller = fields.find(([name]) => name === "caller")?.[1] || "";
  return { sheet, sync, number, fields, hands, caller, state: "waiting" };
}

// What a kept round's fields hold beside its hands and caller: who emptied their hand, and
// each penalty row with something in it ({ player, points, reason }), in the form's order.
export function extrasOf(fields) {
  const emptied = fields.filter(([name]) => name === "emptied").map(([, value]) => value);
  const rows = new Map();
  for (const [name, value] of fields) {
    const field = /^penalty-(\d+)-(player|points|reason)$/.exec(name);
    if (!field) continue;
    const row = rows.get(Number(field[1])) || { player: "", points: "", reason: "" };
    rows.set(Number(field[1]), { ...row, [field[2]]: value.trim() });
  }
  const penalties = [...rows.keys()]
    .sort((a, b) => a - b)
    .map((n) => rows.get(n))
    .filter((row) => row.player || row.points || row.reason);
  return { emptied, penalties };
}

// Points as typed, with their sign, written in the page's language (`lang`): "5" is "+5",
// "-2.5" is "−2,5" in French; anything else (not a number) as typed.
export function signed(typed, lang) {
  const text = typed.trim();
  if (!/^[+\-−]?\d+([.,]\d+)?$/.test(text)) return text;
  const value = Number(text.replace(",", ".").replace("−", "-"));
  if (value === 0) return "0";
  const shown = Math.abs(value).toLocaleString(lang, { maximumFractionDigits: 6, useGrouping: false });
  return `${value < 0 ? "−" : "+"}${shown}`;
}

// What is sent for a round: its fields, at `choice.number` (the next free round) or replacing
// that round as it was after `choice.edits` corrections.
export function syncBody(round, choice = {}) {
  const body = new URLSearchParams(round.fields);
  body.set("number", String(choice.number || round.number));
  if (choice.replace) {
    body.set("replace", "1");
    body.set("edits", String(choice.edits));
  }
  return body;
}

// What the server's answer means: "saved", "conflict" (another phone saved that round first),
// "refused" (the referee said why), or "unsent" (not the app's answer: try again later).
export function outcome(status, answer) {
  if (status >= 200 && status < 300 && answer?.saved) return "saved";
  if (status === 409) return "conflict";
  if (status === 400) return "refused";
  return "unsent";
}

// The number the round form goes on with: after the last round kept for this sheet.
export function formNumber(rounds, shown) {
  const last = rounds.reduce((highest, round) => Math.max(highest, round.number), 0);
  return Math.max(shown, last + 1);
}
