// What the offline modules share about the page: the offline banner and the round form of a
// sheet (the new round, where rounds entered offline are kept; not a correction).

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
  if (kept) {
    const lang = document.documentElement.lang || "fr";
    const time = new Date(kept).toLocaleString(lang, { dateStyle: "medium", timeStyle: "short" });
    box.textContent = box.dataset.kept.replace("{time}", time);
  } else {
    box.textContent = box.dataset.offline;
  }
  box.hidden = !kept && navigator.onLine;
}

export const formIsEmpty = (form) =>
  !form || [...form.querySelectorAll("input[name^=total_], input[name^=cards_]")].every((i) => !i.value.trim());
