// The Tambouille match sheet: the keypad's "next" key and the thinking timer (timer.js).
import { enterGoesOn } from "./next-field.js";
import { noteUnderHeading } from "./note.js";
import { clockAt } from "./timer.js";

// The keypad's Enter goes on to the next player's count; on the last one it saves.
enterGoesOn(/^count_\d+$/, "submit");

// The counts being typed stay on the phone (drafts.js, as a sheet's round): loaded at once when
// something is kept or was typed before this script ran, or at the first count typed.
let drafts;
const withDrafts = () => {
  drafts ||= import("./drafts.js").then((module) => module.start());
  return drafts;
};
const typed = (field) => field.type !== "hidden" && "defaultValue" in field && field.value !== field.defaultValue;
try {
  const counts = document.getElementById("counts-form");
  if (counts && (localStorage.length || [...counts.elements].some(typed))) withDrafts();
} catch {
  // no storage: no drafts
}
document.addEventListener("input", (event) => {
  if (event.target.closest?.("#counts-form")) withDrafts();
});

// No connection: the turn round is not saved (turn rounds are not kept offline); say so,
// next to the counts, which stay as typed.
document.addEventListener("htmx:sendError", (event) => {
  const f = event.detail.elt;
  if (!(f instanceof HTMLFormElement) || f.id !== "counts-form") return;
  noteUnderHeading(f, "error offline-alert", "alert", f.dataset.offline).scrollIntoView({ block: "center" });
});

// A refused turn round comes back with its messages: show the first one.
document.addEventListener("htmx:afterSwap", (event) => {
  const alert = document.querySelector("#counts-form [role=alert]");
  if (event.target.id === "game-body" && alert) alert.scrollIntoView({ block: "center" });
});

// The thinking timer: at the end of a turn, a visible change, a vibration and a beep where the
// phone allows them.
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

function tick() {
  const clock = document.getElementById("clock");
  if (!clock?.dataset.deadline) return;
  const { text, up, signal } = clockAt(Number(clock.dataset.deadline), Date.now(), signalled);
  clock.querySelector(".time").textContent = up ? clock.dataset.up : text;
  clock.classList.toggle("up", up);
  if (signal) {
    navigator.vibrate?.([300, 150, 300]);
    beep();
  }
}

document.addEventListener("DOMContentLoaded", () => {
  tick();
  setInterval(tick, 250);
});
document.addEventListener("htmx:afterSwap", tick);
document.addEventListener("visibilitychange", tick);
