// The Tambouille match sheet: the keypad's "next" key and the thinking timer.
//
// The keypad's Enter goes on to the next player's count; on the last one it saves.
document.addEventListener("keydown", (event) => {
  const field = event.target;
  if (event.key !== "Enter" || !field.form || !/^count_\d+$/.test(field.name || "")) return;
  const counts = [...field.form.querySelectorAll("input[name^=count_]")];
  const next = counts[counts.indexOf(field) + 1];
  if (next) {
    event.preventDefault();
    next.focus();
  }
});

// No connection: the turn round is not saved (turn rounds are not kept offline); say so,
// next to the counts, which stay as typed.
document.addEventListener("htmx:sendError", (event) => {
  const f = event.detail.elt;
  if (!(f instanceof HTMLFormElement) || f.id !== "counts-form") return;
  let alert = f.querySelector(".offline-alert");
  if (!alert) {
    alert = document.createElement("p");
    alert.className = "error offline-alert";
    alert.setAttribute("role", "alert");
    f.querySelector("h2").after(alert);
  }
  alert.textContent = f.dataset.offline;
  alert.scrollIntoView({ block: "center" });
});

// A refused turn round comes back with its messages: show the first one.
document.addEventListener("htmx:afterSwap", (event) => {
  const alert = document.querySelector("#counts-form [role=alert]");
  if (event.target.id === "game-body" && alert) alert.scrollIntoView({ block: "center" });
});

// The thinking timer of a Tambouille match. The server gives the moment the turn's time is
// up (data-deadline, milliseconds since 1970); the time left is computed from it on every
// tick, so it is right after the screen slept, after a reload, and on every phone.
// At the end: a visible change, a vibration and a beep where the phone allows them.
(() => {
  let audio = null;
  const signalled = new Set();

  // Browsers let a page make a sound only after a tap: get the sound ready on the first one.
  document.addEventListener("pointerdown", () => {
    if (audio === null && window.AudioContext) audio = new AudioContext();
    if (audio && audio.state === "suspended") audio.resume();
  });

  function beep() {
    if (audio === null || audio.state !== "running") return;
    const tone = audio.createOscillator();
    const volume = audio.createGain();
    tone.frequency.value = 880;
    volume.gain.setValueAtTime(0.3, audio.currentTime);
    volume.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.8);
    tone.connect(volume).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.8);
  }

  function shown(ms) {
    const seconds = Math.ceil(ms / 1000);
    return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
  }

  function tick() {
    const clock = document.getElementById("clock");
    if (clock === null || !clock.dataset.deadline) return;
    const deadline = Number(clock.dataset.deadline);
    const left = deadline - Date.now();
    const time = clock.querySelector(".time");
    if (left > 0) {
      time.textContent = shown(left);
      clock.classList.remove("up");
      return;
    }
    time.textContent = clock.dataset.up;
    clock.classList.add("up");
    // Signal each turn's end once, and only when it happens while the page is open.
    if (!signalled.has(deadline)) {
      signalled.add(deadline);
      if (left > -5000) {
        if (navigator.vibrate) navigator.vibrate([300, 150, 300]);
        beep();
      }
    }
  }

  document.addEventListener("DOMContentLoaded", () => {
    tick();
    setInterval(tick, 250);
  });
  document.addEventListener("htmx:afterSwap", tick);
  document.addEventListener("visibilitychange", tick);
})();
