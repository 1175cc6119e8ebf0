// The round form on the phone itself. Without this script every picker button is a submit
// button that the server answers; with it, a tap on a card shows at once: the card goes into
// the player's hidden field of card codes, a chip appears, the total is added up from the
// values the server wrote on the buttons, spent cards are greyed, and the picker moves on to
// the next player once a hand has its usual size. Saving still goes to the server.
(() => {
  const form = () => document.getElementById("round-form");

  const seatOf = (element) => element.closest("[data-seat]");
  const cardsField = (f, seat) =>
    f.querySelector(seat === f.dataset.penaltyTarget ? "input[name=penalty_cards]" : `input[name=cards_${seat}]`);
  const codes = (input) => input.value.split(/[\s,;]+/).filter(Boolean);
  const pickButton = (f, code) => f.querySelector(`.picker button[data-card="${code}"]`);

  function target(f) {
    return f.querySelector("input[name=target]").value || f.querySelector(".hand").dataset.seat;
  }

  function setTarget(f, seat) {
    f.querySelector("input[name=target]").value = seat;
    f.querySelectorAll("[data-seat]").forEach((box) => {
      const on = box.dataset.seat === seat;
      box.classList.toggle("target", on && box.classList.contains("hand"));
      const who = box.querySelector("button[name=choose]");
      if (who) who.setAttribute("aria-pressed", String(on));
    });
    const legend = f.querySelector(".picker legend");
    const box = f.querySelector(`.hand[data-seat="${seat}"]`);
    if (legend && box) {
      legend.textContent = f.dataset.addTo.replace("{name}", box.querySelector(".who").textContent);
    } else if (legend) {
      legend.textContent = f.querySelector(".penalty-cards .who").textContent;
    }
    f.querySelectorAll(".picker button[name=pick]").forEach((button) => {
      button.value = `${seat}:${button.dataset.card}`;
    });
  }

  function number(text) {
    const match = /^\s*([+\-−]?)([0-9]{1,12})(?:[.,]([0-9]{1,6}))?\s*$/.exec(text);
    if (!match) return null;
    const value = Number(`${match[2]}.${match[3] || 0}`);
    return match[1] === "-" || match[1] === "−" ? -value : value;
  }

  function shown(value) {
    if (value === null) return "–";
    const lang = document.documentElement.lang || "fr";
    return value.toLocaleString(lang, { maximumFractionDigits: 1 }).replace("-", "−");
  }

  // Chips, total and spent cards, all from the hidden fields of card codes.
  function redraw(f) {
    const used = {};
    f.querySelectorAll("[data-seat]").forEach((box) => {
      const input = cardsField(f, box.dataset.seat);
      if (!input) return;
      const chips = box.querySelector(".chips");
      chips.replaceChildren();
      let sum = 0;
      codes(input).forEach((code, index) => {
        used[code] = (used[code] || 0) + 1;
        const pick = pickButton(f, code);
        const name = pick ? pick.dataset.name : code;
        sum += pick ? Number(pick.dataset.value) : 0;
        const chip = document.createElement("button");
        chip.type = "submit";
        chip.name = "unpick";
        chip.value = `${box.dataset.seat}:${index}`;
        chip.className = `chip${pick && pick.classList.contains("red") ? " red" : ""}`;
        chip.dataset.card = code;
        chip.setAttribute("aria-label", f.dataset.remove.replace("{card}", name));
        chip.append(`${name} `);
        const cross = document.createElement("span");
        cross.setAttribute("aria-hidden", "true");
        cross.textContent = "✕";
        chip.append(cross);
        chips.append(chip);
      });
      const output = box.querySelector("output.total");
      if (output) {
        const typed = box.querySelector("input[name^=total_]");
        output.textContent = codes(input).length ? shown(sum) : shown(number(typed.value));
      }
    });
    f.querySelectorAll(".picker button[name=pick]").forEach((button) => {
      button.disabled = (used[button.dataset.card] || 0) >= Number(button.dataset.copies);
    });
  }

  function nextShortHand(f, seat) {
    const hands = [...f.querySelectorAll(".hand[data-seat]")];
    const size = Number(f.dataset.handSize);
    const start = hands.findIndex((box) => box.dataset.seat === seat);
    const next = hands.slice(start + 1).find((box) => {
      const typed = box.querySelector("input[name^=total_]").value.trim();
      return codes(cardsField(f, box.dataset.seat)).length < size && !typed;
    });
    return next ? next.dataset.seat : seat;
  }

  function keepInView(element) {
    const box = element.getBoundingClientRect();
    if (box.top < 0 || box.bottom > window.innerHeight) {
      element.scrollIntoView({ block: "nearest" });
    }
  }

  document.addEventListener("click", (event) => {
    const button = event.target.closest("button");
    const f = form();
    if (!button || !f || !f.contains(button)) return;
    if (button.name === "pick") {
      event.preventDefault();
      const seat = target(f);
      const input = cardsField(f, seat);
      input.value = [...codes(input), button.dataset.card].join(" ");
      redraw(f);
      if (seat !== f.dataset.penaltyTarget && codes(input).length >= Number(f.dataset.handSize)) {
        setTarget(f, nextShortHand(f, seat));
      }
      keepInView(f.querySelector(".picker"));
    } else if (button.name === "unpick") {
      event.preventDefault();
      const [seat, index] = button.value.split(":");
      const input = cardsField(f, seat);
      const kept = codes(input);
      kept.splice(Number(index), 1);
      input.value = kept.join(" ");
      setTarget(f, seat);
      redraw(f);
    } else if (button.name === "choose") {
      event.preventDefault();
      setTarget(f, button.value);
      keepInView(f.querySelector(".picker"));
    }
  });

  // A typed total shows at once; the keypad's "next" key goes on to the next player's total.
  document.addEventListener("input", (event) => {
    const f = form();
    if (f && f.contains(event.target) && event.target.name.startsWith("total_")) redraw(f);
  });
  document.addEventListener("keydown", (event) => {
    const f = form();
    const field = event.target;
    if (event.key !== "Enter" || !f || !f.contains(field) || !field.name.startsWith("total_")) return;
    event.preventDefault();
    const totals = [...f.querySelectorAll("input[name^=total_]")];
    const next = totals[totals.indexOf(field) + 1];
    if (next) next.focus();
    else field.blur();
  });

  // A tap on Save over a fresh form (a second tap after a save) has nothing to send: say so
  // here. Sent, its answer would redraw the form under the thumb, over what is being typed.
  const entered = /^(total_\d+|cards_\d+|penalty_cards|penalty-\d+-(player|points|reason))$/;
  document.addEventListener("htmx:confirm", (event) => {
    const f = event.detail.elt;
    const trigger = event.detail.triggeringEvent;
    if (!(f instanceof HTMLFormElement) || f.id !== "round-form") return;
    if (!trigger || !trigger.submitter || trigger.submitter.name !== "save") return;
    if ([...f.elements].some((field) => entered.test(field.name) && field.value.trim())) return;
    event.preventDefault();
    let hint = f.querySelector(".empty-hint");
    if (!hint) {
      hint = document.createElement("p");
      hint.className = "hint empty-hint";
      hint.setAttribute("role", "status");
      f.querySelector("h2").after(hint);
    }
    hint.textContent = f.dataset.empty;
  });

  // After the server redrew the form (a refusal, another penalty row), show what changed:
  // the first message, or the new row, rather than wherever the page happened to land.
  document.addEventListener("htmx:afterSwap", (event) => {
    const f = event.target;
    if (!(f instanceof Element) || f.id !== "round-form") return;
    const submitter = event.detail.requestConfig && event.detail.requestConfig.triggeringEvent
      && event.detail.requestConfig.triggeringEvent.submitter;
    const alert = f.querySelector("[role=alert]");
    const rows = f.querySelectorAll(".penalty-row");
    if (alert) alert.scrollIntoView({ block: "center" });
    else if (submitter && submitter.name === "add_penalty" && rows.length) {
      rows[rows.length - 1].scrollIntoView({ block: "center" });
    }
  });

  // The new-game form: the keyboard's Enter goes on to the next name instead of submitting
  // with the first button of the form (which chose player 1 as the dealer).
  document.addEventListener("keydown", (event) => {
    const field = event.target;
    if (event.key !== "Enter" || !field.name || !/^name_\d+$/.test(field.name)) return;
    const names = [...field.form.querySelectorAll("input[name^=name_]")];
    const next = names[names.indexOf(field) + 1];
    event.preventDefault();
    if (next) next.focus();
    else field.blur();
  });

  // A confirmation opened at the bottom of the page comes into view.
  document.addEventListener("toggle", (event) => {
    if (event.target.matches && event.target.matches("details.confirm") && event.target.open) {
      event.target.scrollIntoView({ block: "nearest" });
    }
  }, true);
})();
