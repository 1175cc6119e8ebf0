// Rounds kept on the phone (loaded by offline.js while some wait): shown on their sheet as
// pending, sent with the round form's own fields once the connection is back
// (scoring.views.sync_round scores them as usual). If another phone saved that round first,
// both are shown and the table chooses: keep theirs, add this one next, or replace theirs.
(() => {
  const { store, keptAt, roundForm, pendingBox, renumber, fillForm, formIsEmpty, showBanner } =
    window.tamalouOffline;
  const all = () => store("readonly", (s) => s.getAll());
  const put = (round) => store("readwrite", (s) => s.put(round));
  const drop = (id) => store("readwrite", (s) => s.delete(id));
  const here = (round) => round.sheet === location.pathname;
  const byNumber = (a, b) => a.number - b.number || a.id - b.id;
  const csrfToken = () => JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"];
  const item = (...content) => {
    const li = document.createElement("li");
    li.append(...content);
    return li;
  };
  const say = (element, value) => {
    element.textContent = element.dataset.text.replace(/\{\w+\}/, value);
  };

  async function draw() {
    const box = pendingBox();
    if (!box) return;
    const rounds = (await all()).filter(here).sort(byNumber);
    const list = box.querySelector(".pending-rounds");
    list.replaceChildren();
    rounds.forEach((round) => {
      const article = box.querySelector("#pending-round").content.firstElementChild.cloneNode(true);
      // Said at once by screen readers when shown (not in the template: the page has no alert).
      article.querySelectorAll(".says").forEach((text) => text.setAttribute("role", "alert"));
      article.dataset.id = round.id;
      say(article.querySelector("h3"), round.number);
      round.hands.forEach(({ name, hand }) => {
        const who = document.createElement("strong");
        who.textContent = name;
        article.querySelector(".pending-hands").append(item(who, ` ${hand || "–"}`));
      });
      const call = article.querySelector(".call");
      if (round.caller) say(call, round.caller);
      else call.textContent = call.dataset.nobody;
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
    const last = rounds.length ? rounds[rounds.length - 1].number : 0;
    if (form && Number(form.querySelector("input[name=number]").value) <= last) renumber(form, last + 1);
  }

  // One round to the referee: "saved", "conflict", "refused", or "unsent" (try again later).
  async function send(round, choice = {}) {
    const body = new URLSearchParams(round.fields);
    body.set("number", String(choice.number || round.number));
    if (choice.replace) {
      body.set("replace", "1");
      body.set("edits", String(choice.edits));
    }
    let response;
    let answer;
    try {
      response = await fetch(round.sync, {
        method: "POST",
        body,
        credentials: "same-origin",
        headers: { "X-CSRFToken": csrfToken(), Accept: "application/json" },
      });
      answer = await response.json();
    } catch (error) {
      return "unsent"; // no connection, or not the app's answer
    }
    if (response.ok && answer.saved) {
      await drop(round.id);
      return "saved";
    }
    if (response.status !== 409 && response.status !== 400) return "unsent";
    round.state = response.status === 409 ? "conflict" : "refused";
    round.answer = answer;
    await put(round);
    return round.state;
  }

  let sending = false;
  async function sendAll(backOnline = false) {
    if (sending || !navigator.onLine) return;
    sending = true;
    let sent = 0;
    let savedHere = false;
    try {
      const waiting = (await all()).filter((round) => round.state === "waiting").sort(byNumber);
      for (const round of waiting) {
        const outcome = await send(round);
        if (outcome === "unsent") break;
        sent += 1;
        savedHere = savedHere || (outcome === "saved" && here(round));
      }
    } finally {
      sending = false;
    }
    if (sent || backOnline) await settle(savedHere || (backOnline && Boolean(keptAt)));
  }

  // After a round reached the referee: the sheet as it is now, unless the form is in use.
  async function settle(renew) {
    await draw();
    showBanner();
    const left = (await all()).some(here);
    if (renew && !left && navigator.onLine && formIsEmpty(roundForm())) location.reload();
  }

  document.addEventListener("click", async (event) => {
    const button = event.target.closest("#pending [data-action]");
    if (!button) return;
    const id = Number(button.closest("[data-id]").dataset.id);
    const round = (await all()).find((one) => one.id === id);
    const action = button.dataset.action;
    if (!round) return draw();
    if (action === "drop") {
      await drop(id);
      return settle(false);
    }
    if (action === "fix") {
      await drop(id);
      const form = roundForm();
      renumber(form, round.number);
      fillForm(form, round.fields);
      form.scrollIntoView({ block: "start" });
      return draw();
    }
    const answer = round.answer || {};
    button.disabled = true;
    const outcome = await send(
      round,
      action === "next"
        ? { number: answer.next }
        : { number: answer.conflict, replace: true, edits: answer.edits },
    );
    button.disabled = false;
    return outcome === "unsent" ? showBanner() : settle(outcome === "saved");
  });

  // A request that reached the server, or the browser's word: the connection is back.
  document.addEventListener("htmx:afterRequest", (event) => {
    if (event.detail.successful) sendAll();
  });
  window.addEventListener("online", () => sendAll(true));

  window.tamalouPending = { start: () => draw().then(() => sendAll()) };
})();
