// When the connection comes and goes. Registers the service worker (/sw.js), says when a page
// is the copy kept on the phone, and keeps a round saved without a connection: in IndexedDB
// (it survives closing the browser), shown on its sheet as pending, sent with the round form's
// own fields once the connection is back (scoring.views.sync_round scores it as usual). If
// another phone saved that round first, both are shown and the table chooses.
(() => {
  const script = document.currentScript;
  const banner = () => document.getElementById("offline-banner");
  const pendingBox = () => document.getElementById("pending");
  const roundForm = () => {
    const form = document.getElementById("round-form");
    return form && pendingBox() ? form : null; // the new round of a sheet, not a correction
  };
  const keptAt = document.documentElement.dataset.keptAt;

  if ("serviceWorker" in navigator && script && script.dataset.worker) {
    navigator.serviceWorker.register(script.dataset.worker).catch(() => {});
  }

  // --- the banner -----------------------------------------------------------------------

  function showBanner() {
    const box = banner();
    if (!box) return;
    if (keptAt) {
      const lang = document.documentElement.lang || "fr";
      const time = new Date(keptAt).toLocaleString(lang, { dateStyle: "medium", timeStyle: "short" });
      box.textContent = box.dataset.kept.replace("{time}", time);
      box.hidden = false;
    } else if (!navigator.onLine) {
      box.textContent = box.dataset.offline;
      box.hidden = false;
    } else {
      box.hidden = true;
    }
  }

  // --- the rounds kept on the phone -----------------------------------------------------

  function store(mode, work) {
    return new Promise((resolve, reject) => {
      const opening = indexedDB.open("tamalou-ref", 1);
      opening.onupgradeneeded = () =>
        opening.result.createObjectStore("pending", { keyPath: "id", autoIncrement: true });
      opening.onerror = () => reject(opening.error);
      opening.onsuccess = () => {
        const db = opening.result;
        const transaction = db.transaction("pending", mode);
        const request = work(transaction.objectStore("pending"));
        transaction.oncomplete = () => {
          db.close();
          resolve(request.result);
        };
        transaction.onerror = () => reject(transaction.error);
      };
    });
  }
  const allPending = () => store("readonly", (s) => s.getAll());
  const putPending = (round) => store("readwrite", (s) => s.put(round));
  const dropPending = (id) => store("readwrite", (s) => s.delete(id));

  const csrfToken = () => {
    try {
      return JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"];
    } catch (error) {
      return "";
    }
  };

  // What the round shows while it waits: each hand as entered (card names or the total).
  function handsOf(form) {
    return [...form.querySelectorAll(".hand[data-seat]")].map((box) => ({
      name: box.querySelector(".who").textContent.trim(),
      hand:
        [...box.querySelectorAll(".chips .chip")].map((chip) => chip.textContent.replace("✕", "").trim()).join(" ") ||
        box.querySelector("input[name^=total_]").value.trim(),
    }));
  }

  function renumber(form, number) {
    const field = form.querySelector("input[name=number]");
    const old = field.value;
    field.value = String(number);
    form.querySelectorAll("h2, button[name=save]").forEach((element) => {
      element.textContent = element.textContent.replace(old, String(number));
    });
  }

  function clearForm(form) {
    form.querySelectorAll("input[name^=total_], input[name^=cards_], input[name=penalty_cards], .penalty-row input")
      .forEach((input) => { input.value = ""; });
    form.querySelectorAll(".penalty-row select").forEach((select) => { select.selectedIndex = 0; });
    form.querySelectorAll("input[type=checkbox]").forEach((box) => { box.checked = false; });
    const nobody = form.querySelector("input[name=caller][value='']");
    if (nobody) nobody.checked = true;
    const counter = form.querySelector("input[name=counter_caller][value='']");
    if (counter) counter.checked = true;
    const first = form.querySelector(".hand .who");
    if (first) first.click(); // round.js: the picker goes back to the first player
    const total = form.querySelector("input[name^=total_]");
    if (total) total.dispatchEvent(new Event("input", { bubbles: true })); // round.js redraws
  }

  const formIsEmpty = (form) =>
    !form || [...form.querySelectorAll("input[name^=total_], input[name^=cards_]")].every((i) => !i.value.trim());

  async function keepRound(form) {
    const data = new FormData(form);
    data.delete("csrfmiddlewaretoken");
    data.set("save", "1");
    const number = Number(data.get("number"));
    const caller = data.get("caller");
    await putPending({
      sheet: location.pathname,
      sync: pendingBox().dataset.sync,
      number,
      fields: [...data.entries()].filter(([, value]) => typeof value === "string"),
      hands: handsOf(form),
      caller: caller || "",
      keptAt: new Date().toISOString(),
      state: "waiting",
    });
    clearForm(form);
    renumber(form, number + 1);
    await draw();
    pendingBox().scrollIntoView({ block: "start" });
  }

  // A save that could not reach the server: the round stays on the phone.
  document.addEventListener("htmx:sendError", (event) => {
    const form = roundForm();
    const trigger = event.detail.requestConfig && event.detail.requestConfig.triggeringEvent;
    const submitter = trigger && trigger.submitter;
    if (form && event.detail.elt === form && submitter && submitter.name === "save") {
      keepRound(form).catch(() => {});
    }
    showBanner();
  });

  function fillForm(form, round) {
    const values = new Map();
    round.fields.forEach(([name, value]) => values.set(name, [...(values.get(name) || []), value]));
    form.querySelectorAll("input, select").forEach((input) => {
      if (!input.name || ["number", "csrfmiddlewaretoken", "edits", "target"].includes(input.name)) return;
      const given = values.get(input.name) || [];
      if (input.type === "radio" || input.type === "checkbox") input.checked = given.includes(input.value);
      else input.value = given[0] || "";
    });
    const total = form.querySelector("input[name^=total_]");
    if (total) total.dispatchEvent(new Event("input", { bubbles: true }));
  }

  async function draw() {
    const box = pendingBox();
    if (!box) return;
    const here = (await allPending()).filter((round) => round.sheet === location.pathname);
    here.sort((a, b) => a.number - b.number || a.id - b.id);
    const list = box.querySelector(".pending-rounds");
    const template = box.querySelector("#pending-round");
    list.replaceChildren();
    here.forEach((round) => {
      const article = template.content.firstElementChild.cloneNode(true);
      // Said at once by screen readers when shown (not in the template: the page has no alert).
      article.querySelectorAll(".says").forEach((text) => text.setAttribute("role", "alert"));
      article.dataset.id = round.id;
      const title = article.querySelector("h3");
      title.textContent = title.dataset.text.replace("{n}", round.number);
      const hands = article.querySelector(".pending-hands");
      round.hands.forEach(({ name, hand }) => {
        const item = document.createElement("li");
        const who = document.createElement("strong");
        who.textContent = name;
        item.append(who, ` ${hand || "–"}`);
        hands.append(item);
      });
      const call = article.querySelector(".call");
      call.textContent = round.caller ? call.dataset.text.replace("{name}", round.caller) : call.dataset.nobody;
      const answer = round.answer || {};
      article.querySelector(".waiting").hidden = round.state !== "waiting";
      const conflict = article.querySelector(".pending-conflict");
      conflict.hidden = round.state !== "conflict";
      if (round.state === "conflict") {
        const strong = conflict.querySelector("strong");
        strong.textContent = strong.dataset.text.replace("{n}", answer.conflict);
        conflict.querySelector(".theirs").innerHTML = answer.theirs || ""; // the server's own markup
        const next = conflict.querySelector("[data-action=next]");
        next.textContent = next.dataset.text.replace("{n}", answer.next);
        next.hidden = !answer.next;
        conflict.querySelector("[data-action=replace]").hidden = !answer.theirs;
      }
      const refused = article.querySelector(".pending-refused");
      refused.hidden = round.state !== "refused";
      if (round.state === "refused") {
        const reasons = refused.querySelector(".refusals");
        (answer.errors || []).forEach((text) => {
          const item = document.createElement("li");
          item.textContent = text;
          reasons.append(item);
        });
        refused.querySelector("[data-action=fix]").hidden = !roundForm();
      }
      list.append(article);
    });
    box.hidden = here.length === 0;
    const form = roundForm();
    const last = here.length ? here[here.length - 1].number : 0;
    if (form && Number(form.querySelector("input[name=number]").value) <= last) renumber(form, last + 1);
  }

  // --- sending ---------------------------------------------------------------------------

  async function send(round, choice = {}) {
    const body = new URLSearchParams(round.fields);
    body.set("number", String(choice.number || round.number));
    if (choice.replace) {
      body.set("replace", "1");
      body.set("edits", String(choice.edits));
    }
    body.set("csrfmiddlewaretoken", csrfToken());
    let response;
    let answer = null;
    try {
      response = await fetch(round.sync, {
        method: "POST",
        body,
        credentials: "same-origin",
        headers: { "X-CSRFToken": csrfToken(), Accept: "application/json" },
      });
      answer = await response.json();
    } catch (error) {
      return "unsent"; // no connection, or not our answer: try again later
    }
    if (response.ok && answer.saved) {
      await dropPending(round.id);
      return "saved";
    }
    if ((response.status === 409 || response.status === 400) && answer) {
      round.state = response.status === 409 ? "conflict" : "refused";
      round.answer = answer;
      await putPending(round);
      return round.state;
    }
    return "unsent";
  }

  let sending = false;
  async function sendAll(backOnline = false) {
    if (sending || !navigator.onLine) return;
    sending = true;
    let sent = 0;
    let savedHere = false;
    try {
      const waiting = (await allPending()).filter((round) => round.state === "waiting");
      waiting.sort((a, b) => a.number - b.number || a.id - b.id);
      for (const round of waiting) {
        const outcome = await send(round);
        if (outcome === "unsent") break;
        sent += 1;
        if (outcome === "saved" && round.sheet === location.pathname) savedHere = true;
      }
    } catch (error) {
      // IndexedDB unavailable: nothing was kept either
    } finally {
      sending = false;
    }
    if (sent || backOnline) await settle(savedHere || (backOnline && Boolean(keptAt)));
  }

  // After a round reached the referee (or the connection came back to a kept copy): the page
  // as it is now, unless the form is in use.
  async function settle(renew) {
    await draw();
    showBanner();
    const left = (await allPending()).some((round) => round.sheet === location.pathname);
    if (renew && !left && navigator.onLine && formIsEmpty(roundForm())) location.reload();
  }

  document.addEventListener("click", async (event) => {
    const button = event.target.closest("#pending [data-action]");
    if (!button) return;
    const id = Number(button.closest("[data-id]").dataset.id);
    const round = (await allPending()).find((one) => one.id === id);
    if (!round) return draw();
    const answer = round.answer || {};
    const action = button.dataset.action;
    if (action === "drop") {
      await dropPending(id);
      return settle(false);
    }
    if (action === "fix") {
      const form = roundForm();
      await dropPending(id);
      if (form) {
        renumber(form, round.number);
        fillForm(form, round);
        form.scrollIntoView({ block: "start" });
      }
      return draw();
    }
    button.disabled = true;
    const choice = action === "next"
      ? { number: answer.next }
      : { number: answer.conflict, replace: true, edits: answer.edits };
    const outcome = await send(round, choice);
    if (outcome === "unsent") {
      button.disabled = false;
      return showBanner();
    }
    return settle(outcome === "saved");
  });

  // The home page names this phone's games: the service worker keeps their sheets, and the
  // page that was open when it first took over (it came from the network before it).
  function keepPages(first) {
    const worker = navigator.serviceWorker && navigator.serviceWorker.controller;
    if (!worker || !navigator.onLine || keptAt) return;
    const links = [...document.querySelectorAll("a[href^='/g/']")].map((link) => link.href);
    worker.postMessage({ keep: first ? [location.href, ...links] : links });
  }

  // A request that reached the server: the connection is back.
  document.addEventListener("htmx:afterRequest", (event) => {
    if (event.detail.successful && !sending) sendAll();
  });
  window.addEventListener("online", () => sendAll(true));
  window.addEventListener("offline", showBanner);
  showBanner();
  draw().then(sendAll).catch(() => {});
  if (navigator.serviceWorker) {
    const first = !navigator.serviceWorker.controller;
    navigator.serviceWorker.addEventListener("controllerchange", () => keepPages(first), { once: true });
    if (!first) keepPages(false);
  }
})();
