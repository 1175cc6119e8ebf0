// The rounds kept on this phone, as the pending code decides about them. A kept round is
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
