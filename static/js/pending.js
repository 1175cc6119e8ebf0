// Rounds kept on the phone (imported by offline.js while some wait): shown on their sheet as
// pending, sent with the round form's own fields once the connection is back
// (scoring.game.views.sync_round scores them as usual). If another phone saved that round first,
// both are shown and the table chooses: keep theirs, add this one next, or replace theirs.
import { fillForm, renumber } from "./keep.js";
import { byNumber, extrasOf, formNumber, outcome, signed, syncBody, toSend } from "./queue.js";
import { allKept, dropKept, formIsEmpty, keptAt, pendingBox, putKept, roundForm, showBanner } from "./store.js";

const here = (round) => round.sheet === location.pathname;
const csrfToken = () => JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"];
const item = (...content) => {
  const li = document.createElement("li");
  li.append(...content);
  return li;
};
// A text of the page's (a data attribute) with its {placeholder} filled, as typed ($& and
// the like in a name stay as they are).
const say = (element, value, text = element.dataset.text) => {
  element.textContent = text.replace(/\{\w+\}/, () => value);
};
const name = (text) => {
  const strong = document.createElement("strong");
  strong.textContent = text;
  return strong;
};

async function draw() {
  const box = pendingBox();
  if (!box) return;
  const rounds = (await allKept()).filter(here).sort(byNumber);
  const list = box.querySelector(".pending-rounds");
  list.replaceChildren();
  rounds.forEach((round) => {
    const article = box.querySelector("#pending-round").content.firstElementChild.cloneNode(true);
    // Said at once by screen readers when shown (not in the template: the page has no alert).
    for (const text of article.querySelectorAll(".says")) text.setAttribute("role", "alert");
    article.dataset.id = round.id;
    say(article.querySelector("h3"), round.number);
    round.hands.forEach(({ name: who, hand }) => {
      article.querySelector(".pending-hands").append(item(name(who), ` ${hand || "–"}`));
    });
    const call = article.querySelector(".call");
    if (round.caller) say(call, round.caller);
    else call.textContent = call.dataset.nobody;
    const { emptied, penalties } = extrasOf(round.fields);
    const lang = document.documentElement.lang || "fr";
    const gone = article.querySelector(".pending-emptied");
    gone.hidden = !emptied.length;
    const names = new Intl.ListFormat(lang, { type: "conjunction" }).format(emptied);
    if (emptied.length) say(gone, names, emptied.length > 1 ? gone.dataset.many : gone.dataset.one);
    const fines = article.querySelector(".pending-penalties");
    fines.hidden = !penalties.length;
    fines.querySelector("ul").append(
      ...penalties.map(({ player, points, reason }) =>
        item(name(player || "—"), ` ${signed(points, lang) || "–"}`, reason ? ` (${reason})` : ""),
      ),
    );
    const answer = round.answer || {};
    article.querySelector(".waiting").hidden = round.state !== "waiting";
    const conflict = article.querySelector(".pending-conflict");
    conflict.hidden = round.state !== "conflict";
    if (round.state === "conflict") {
      say(conflict.querySelector("strong"), answer.conflict);
      conflict.querySelector(".theirs").innerHTML = answer.theirs || ""; // the server's own markup
      const next = conflict.querySelector("[data-action=next]");
      say(next, answer.next);
      next.hidden = !answer.next;
      conflict.querySelector("[data-action=replace]").hidden = !answer.theirs;
    }
    const refused = article.querySelector(".pending-refused");
    refused.hidden = round.state !== "refused";
    if (round.state === "refused") {
      refused.querySelector(".refusals").append(...(answer.errors || []).map((text) => item(text)));
      refused.querySelector("[data-action=fix]").hidden = !roundForm();
    }
    list.append(article);
  });
  box.hidden = rounds.length === 0;
  const form = roundForm();
  if (form) {
    const shown = Number(form.querySelector("input[name=number]").value);
    const number = formNumber(rounds, shown);
    if (number !== shown) renumber(form, number);
  }
}

// One round to the referee: "saved", "conflict", "refused", or "unsent" (try again later).
async function send(round, choice = {}) {
  let response;
  let answer;
  try {
    response = await fetch(round.sync, {
      method: "POST",
      body: syncBody(round, choice),
      credentials: "same-origin",
      headers: { "X-CSRFToken": csrfToken(), Accept: "application/json" },
    });
    answer = await response.json();
  } catch {
    return "unsent"; // no connection, or not the app's answer
  }
  const said = outcome(response.status, answer);
  if (said === "saved") await dropKept(round.id);
  if (said === "conflict" || said === "refused") {
    round.state = said;
    round.answer = answer;
    await putKept(round);
  }
  return said;
}

let sending = false;
async function sendAll(backOnline = false) {
  if (sending || !navigator.onLine) return;
  sending = true;
  let sent = 0;
  let savedHere = false;
  try {
    for (const round of toSend(await allKept())) {
      const said = await send(round);
      if (said === "unsent") break;
      sent += 1;
      savedHere = savedHere || (said === "saved" && here(round));
    }
  } finally {
    sending = false;
  }
  if (sent || backOnline) await settle(savedHere || (backOnline && Boolean(keptAt())));
}

// After a round reached the referee: the sheet as it is now, unless the form is in use.
async function settle(renew) {
  await draw();
  showBanner();
  const left = (await allKept()).some(here);
  if (renew && !left && navigator.onLine && formIsEmpty(roundForm())) location.reload();
}

document.addEventListener("click", async (event) => {
  const button = event.target.closest("#pending [data-action]");
  if (!button) return;
  const id = Number(button.closest("[data-id]").dataset.id);
  const round = (await allKept()).find((one) => one.id === id);
  const action = button.dataset.action;
  if (!round) return draw();
  if (action === "drop") {
    await dropKept(id);
    return settle(false);
  }
  if (action === "fix") {
    await dropKept(id);
    const form = roundForm();
    renumber(form, round.number);
    fillForm(form, round.fields);
    form.scrollIntoView({ block: "start" });
    return draw();
  }
  const answer = round.answer || {};
  button.disabled = true;
  const said = await send(
    round,
    action === "next" ? { number: answer.next } : { number: answer.conflict, replace: true, edits: answer.edits },
  );
  button.disabled = false;
  return said === "unsent" ? showBanner() : settle(said === "saved");
});

// A request that reached the server, or the browser's word: the connection is back.
document.addEventListener("htmx:afterRequest", (event) => {
  if (event.detail.successful) sendAll();
});
window.addEventListener("online", () => sendAll(true));

export const start = () => draw().then(() => sendAll());
