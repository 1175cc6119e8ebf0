// What the offline modules share: the rounds kept on this phone, in IndexedDB (they survive
// closing the browser), and the page around them: the offline banner and the round form of a
// sheet (the new round, where rounds entered offline are kept; not a correction).

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

export const countKept = () => store("readonly", (kept) => kept.count());
export const allKept = () => store("readonly", (kept) => kept.getAll());
export const putKept = (round) => store("readwrite", (kept) => kept.put(round));
export const dropKept = (id) => store("readwrite", (kept) => kept.delete(id));

// When the page shown is the copy kept by the service worker: the time it was kept.
export const keptAt = () => document.documentElement.dataset.keptAt;

export const pendingBox = () => document.getElementById("pending");

export function roundForm() {
  const form = document.getElementById("round-form");
  return form && pendingBox() ? form : null;
}

export function showBanner() {
  const box = document.getElementById("offline-banner");
  const kept = keptAt();
  const lang = document.documentElement.lang || "fr";
  box.textContent = kept
    ? box.dataset.kept.replace("{time}", new Date(kept).toLocaleString(lang, { dateStyle: "medium", timeStyle: "short" }))
    : box.dataset.offline;
  box.hidden = !kept && navigator.onLine;
}

export const formIsEmpty = (form) =>
  !form || [...form.querySelectorAll("input[name^=total_], input[name^=cards_]")].every((i) => !i.value.trim());
