// Offline (see the README): registers the service worker, says when a page is the copy kept on
// the phone, and keeps a round saved without a connection in IndexedDB (it survives closing
// the browser). pending.js, loaded only while rounds wait, shows and sends them.
(() => {
  const script = document.currentScript;
  const keptAt = document.documentElement.dataset.keptAt;
  const pendingBox = () => document.getElementById("pending");
  const roundForm = () => {
    const form = document.getElementById("round-form");
    return form && pendingBox() ? form : null; // the new round of a sheet, not a correction
  };

  if ("serviceWorker" in navigator && script.dataset.worker) {
    navigator.serviceWorker.register(script.dataset.worker).catch(() => {});
  }

  function showBanner() {
    const box = document.getElementById("offline-banner");
    if (keptAt) {
      const lang = document.documentElement.lang || "fr";
      const time = new Date(keptAt).toLocaleString(lang, { dateStyle: "medium", timeStyle: "short" });
      box.textContent = box.dataset.kept.replace("{time}", time);
    } else {
      box.textContent = box.dataset.offline;
    }
    box.hidden = !keptAt && navigator.onLine;
  }

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

  function renumber(form, number) {
    const field = form.querySelector("input[name=number]");
    const old = field.value;
    field.value = String(number);
    form.querySelectorAll("h2, button[name=save]").forEach((element) => {
      element.textContent = element.textContent.replace(old, String(number));
    });
  }

  // The form with these fields (none: a fresh form), the picker back on the first player.
  // The penalty rows' bookkeeping (penalty-TOTAL_FORMS…) describes the rows on the page: kept.
  const bookkeeping = /^(number|csrfmiddlewaretoken|edits|target|.*-(TOTAL|INITIAL|MIN_NUM|MAX_NUM)_FORMS)$/;
  function fillForm(form, fields) {
    const values = new Map();
    fields.forEach(([name, value]) => values.set(name, [...(values.get(name) || []), value]));
    form.querySelectorAll("input, select").forEach((input) => {
      if (!input.name || bookkeeping.test(input.name)) return;
      const given = values.get(input.name) || [];
      if (input.type === "radio" || input.type === "checkbox") {
        input.checked = given.includes(input.value) || (!given.length && input.value === "");
      } else input.value = given[0] || "";
    });
    form.querySelector(".hand .who").click(); // round.js moves the picker and redraws
    form.querySelector("input[name^=total_]").dispatchEvent(new Event("input", { bubbles: true }));
  }

  const formIsEmpty = (form) =>
    !form || [...form.querySelectorAll("input[name^=total_], input[name^=cards_]")].every((i) => !i.value.trim());

  // Anything typed or ticked on the page and not saved (a match's counts, a reason…).
  const typedOnPage = () =>
    [...document.querySelectorAll("main input:not([type=hidden]), main textarea")].some((field) =>
      field.type === "checkbox" || field.type === "radio"
        ? field.checked !== field.defaultChecked
        : field.value !== field.defaultValue);

  let loading = null;
  const showPending = () => {
    loading = loading || new Promise((resolve, reject) => {
      const element = document.createElement("script");
      element.src = script.dataset.pending;
      element.onload = resolve;
      element.onerror = () => { loading = null; reject(); };
      document.head.append(element);
    });
    return loading.then(() => window.tamalouPending.start());
  };

  window.tamalouOffline = { store, keptAt, roundForm, pendingBox, renumber, fillForm, formIsEmpty, showBanner };

  // A save that could not reach the server: the round stays on the phone, the form goes on.
  async function keepRound(form) {
    const data = new FormData(form);
    data.delete("csrfmiddlewaretoken");
    data.set("save", "1");
    const number = Number(data.get("number"));
    const hands = [...form.querySelectorAll(".hand[data-seat]")].map((box) => ({
      name: box.querySelector(".who").textContent.trim(),
      hand: [...box.querySelectorAll(".chips .chip")].map((chip) => chip.textContent.replace("✕", "").trim()).join(" ")
        || box.querySelector("input[name^=total_]").value.trim(),
    }));
    await store("readwrite", (s) => s.put({
      sheet: location.pathname,
      sync: pendingBox().dataset.sync,
      number,
      fields: [...data.entries()].filter(([, value]) => typeof value === "string"),
      hands,
      caller: data.get("caller") || "",
      state: "waiting",
    }));
    fillForm(form, []);
    renumber(form, number + 1);
    await showPending();
    pendingBox().scrollIntoView({ block: "start" });
  }

  document.addEventListener("htmx:sendError", (event) => {
    const form = roundForm();
    const trigger = event.detail.requestConfig && event.detail.requestConfig.triggeringEvent;
    if (form && event.detail.elt === form && trigger && trigger.submitter && trigger.submitter.name === "save") {
      keepRound(form).catch(() => {});
    }
    showBanner();
  });

  // Back online on a kept copy with nothing waiting: the page as it is now, unless in use.
  window.addEventListener("online", async () => {
    showBanner();
    const waiting = await store("readonly", (s) => s.count()).catch(() => 0);
    if (waiting) showPending().catch(() => {});
    else if (keptAt && formIsEmpty(roundForm()) && !typedOnPage()) location.reload();
  });
  window.addEventListener("offline", showBanner);
  showBanner();
  store("readonly", (s) => s.count())
    .then((waiting) => waiting && showPending())
    .catch(() => {});

  // The service worker keeps the sheets of this phone's games (named by the home page), the
  // page that was open when it first took over (it came from the network before it), and a
  // sheet again each time it changes on the screen (a round saved, a live update).
  const keep = (urls) => {
    const worker = navigator.serviceWorker && navigator.serviceWorker.controller;
    if (worker && navigator.onLine && urls.length) worker.postMessage({ keep: urls });
  };
  // The sheets of this phone's games and the pages of its house rules that the page links to.
  const games = () => [...document.querySelectorAll("a[href^='/g/'], a[href^='/h/']")].map((link) => link.href);
  const shown = () => (document.getElementById("live-top") || { dataset: {} }).dataset.etag;
  let version = shown();
  document.addEventListener("htmx:afterSettle", () => {
    if (shown() !== version) keep([location.href]);
    version = shown();
  });
  if (navigator.serviceWorker && !keptAt) {
    const first = !navigator.serviceWorker.controller;
    navigator.serviceWorker.addEventListener("controllerchange", () => keep(first ? [location.href, ...games()] : []), { once: true });
    if (!first) keep(games());
  }
})();
