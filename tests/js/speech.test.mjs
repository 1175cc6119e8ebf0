import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { bestReading, matchName, parseRound } from "../../static/js/speech.js";
import { GAMES, ROUNDS, SAID_ALONE } from "./spoken-rounds.mjs";

// The words the round form gives the parser (HandsForm.speech, in each language: a pytest
// checks the pages carry these).
const WORDS = JSON.parse(readFileSync(new URL("./speech-words.json", import.meta.url)));

function context(lang, game) {
  const { players, halves, negatives, counter } = GAMES[game];
  const words = { ...WORDS[lang] };
  if (!counter) delete words.counter;
  return { lang, players, halves, negatives, calls: WORDS.calls, words };
}

const five = (lang) => context(lang, "cabo");

// A spoken round read with its game's hand range, as the page gives it: its fields read as
// meant, or left empty and named (with the number said, for a hand out of range). Returns how
// many fields were read right and how many were left empty.
function checked(round) {
  const game = GAMES[round.game];
  const heard = parseRound(round.say, { ...context(round.lang, round.game), lowest: game.lowest, highest: game.highest });
  const left = { totals: [], unknown: [], penalties: [], outOfRange: {}, ...round.left };
  const where = `${round.lang}: ${round.say}`;
  let right = 0;
  let named = 0;
  for (const name of game.players) {
    if (left.totals.includes(name)) {
      assert.equal(heard.totals[name], undefined, `${where}: ${name} should be left empty`);
      assert.ok(heard.noNumber.includes(name), `${where}: ${name} should be named`);
      named += 1;
    } else {
      assert.equal(heard.totals[name], round.meant.totals[name], `${where}: ${name}`);
      assert.ok(!heard.noNumber.includes(name), where);
      right += 1;
    }
  }
  const outOfRange = Object.entries(left.outOfRange).map(([player, value]) => ({ player, value }));
  assert.deepEqual(heard.outOfRange, outOfRange, `${where}: numbers out of range`);
  assert.equal(heard.caller, round.meant.caller ?? null, `${where}: the caller`);
  assert.equal(heard.counterCaller, round.meant.counterCaller ?? null, `${where}: the counter-caller`);
  const penalties = Object.entries(round.meant.penalties || {})
    .filter(([player]) => !left.penalties.includes(player))
    .map(([player, points]) => ({ player, points }));
  assert.deepEqual(heard.penalties, penalties, `${where}: the penalties`);
  assert.deepEqual(heard.penaltyUnread, left.penalties, `${where}: penalties not read`);
  assert.deepEqual(heard.unknown, left.unknown, `${where}: names not understood`);
  return { right: right + 1 + penalties.length, named };
}

test("40 rounds as tables say them: every field read as meant, or left empty and named", () => {
  assert.ok(ROUNDS.length >= 40);
  let right = 0;
  let named = 0;
  for (const round of ROUNDS) {
    const fields = checked(round);
    right += fields.right;
    named += fields.named;
  }
  assert.ok(right > named * 10, `${right} fields right, ${named} left empty and named`);
});

test("a part of a round said alone: what it says is read, every player it leaves out is named", () => {
  for (const round of SAID_ALONE) checked(round);
});

const FRENCH = [
  "zéro", "un", "deux", "trois", "quatre", "cinq", "six", "sept", "huit", "neuf", "dix", "onze",
  "douze", "treize", "quatorze", "quinze", "seize", "dix-sept", "dix-huit", "dix-neuf",
];
const FRENCH_TENS = ["vingt", "trente", "quarante", "cinquante", "soixante"];

// Every number from 0 to 100 as a French speaker writes it out.
function french(n) {
  if (n < 20) return FRENCH[n];
  if (n === 100) return "cent";
  if (n < 70) {
    const tens = FRENCH_TENS[Math.floor(n / 10) - 2];
    const unit = n % 10;
    return unit === 0 ? tens : unit === 1 ? `${tens} et un` : `${tens}-${FRENCH[unit]}`;
  }
  if (n < 80) return n === 71 ? "soixante et onze" : `soixante-${FRENCH[n - 60]}`;
  return n === 80 ? "quatre-vingts" : `quatre-vingt-${FRENCH[n - 80]}`;
}

const ENGLISH = [
  "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
  "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen",
];
const ENGLISH_TENS = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"];

function english(n) {
  if (n < 20) return ENGLISH[n];
  if (n === 100) return "one hundred";
  const tens = ENGLISH_TENS[Math.floor(n / 10) - 2];
  return n % 10 ? `${tens}-${ENGLISH[n % 10]}` : tens;
}

test("every number from 0 to 100 in French words, with or without hyphens", () => {
  for (let n = 0; n <= 100; n += 1) {
    for (const said of [french(n), french(n).replaceAll("-", " ")]) {
      assert.equal(parseRound(`Marc ${said}`, five("fr")).totals.Marc, n, said);
    }
  }
});

test("Belgian and Swiss tens: septante, huitante, octante, nonante", () => {
  const heard = (said) => parseRound(`Marc ${said}`, five("fr")).totals.Marc;
  assert.equal(heard("septante-sept"), 77);
  assert.equal(heard("septante et un"), 71);
  assert.equal(heard("huitante-deux"), 82);
  assert.equal(heard("octante"), 80);
  assert.equal(heard("nonante-neuf"), 99);
});

test("every number from 0 to 100 in English words", () => {
  for (let n = 0; n <= 100; n += 1) {
    for (const said of [english(n), english(n).replaceAll("-", " ")]) {
      assert.equal(parseRound(`Marc ${said}`, five("en")).totals.Marc, n, said);
    }
  }
  assert.equal(parseRound("Marc a hundred", five("en")).totals.Marc, 100);
});

// Every number from 0 to 999 written out: the hundreds ("cent", "deux cents", "trois cent
// quarante"; "one hundred", "two hundred and five") then the rest as below a hundred.
function frenchHundreds(n) {
  if (n < 100) return french(n);
  const rest = n % 100;
  const head = n < 200 ? "cent" : `${FRENCH[Math.floor(n / 100)]} cent${rest ? "" : "s"}`;
  return rest ? `${head} ${french(rest)}` : head;
}

function englishHundreds(n) {
  if (n < 100) return english(n);
  const head = `${ENGLISH[Math.floor(n / 100)]} hundred`;
  return n % 100 ? `${head} and ${english(n % 100)}` : head;
}

test("every number from 0 to 999 in French and English words, hundreds included", () => {
  const fr = frenchHundreds;
  const en = englishHundreds;
  assert.equal(fr(200), "deux cents");
  assert.equal(fr(340), "trois cent quarante");
  assert.equal(en(205), "two hundred and five");
  for (let n = 0; n <= 999; n += 1) {
    for (const said of [fr(n), fr(n).replaceAll("-", " ")]) {
      assert.equal(parseRound(`Marc ${said}`, five("fr")).totals.Marc, n, said);
    }
    for (const said of [en(n), en(n).replace(" and ", " ")]) {
      assert.equal(parseRound(`Marc ${said}`, five("en")).totals.Marc, n, said);
    }
  }
  assert.equal(parseRound("Marc a hundred and fifty", five("en")).totals.Marc, 150);
  assert.equal(parseRound("Marc cent cinquante et demi", context("fr", "tamoul")).totals.Marc, 150.5);
});

test("numbers in digits, with a sign or a decimal comma, in either language", () => {
  const tamoul = context("fr", "tamoul");
  assert.equal(parseRound("Marc 12", five("fr")).totals.Marc, 12);
  assert.equal(parseRound("Marc -2", five("en")).totals.Marc, -2);
  assert.equal(parseRound("Marc −2", five("fr")).totals.Marc, -2);
  assert.equal(parseRound("Marc - 2", five("fr")).totals.Marc, -2);
  assert.equal(parseRound("Marc 4,5", tamoul).totals.Marc, 4.5);
  assert.equal(parseRound("Marc 4.5", tamoul).totals.Marc, 4.5);
  assert.equal(parseRound("Marc 4½", tamoul).totals.Marc, 4.5);
  assert.equal(parseRound("Marc 4,3", tamoul).totals.Marc, undefined); // only halves
});

test("a total no hand of the game can reach is left empty and named", () => {
  const koubo = { ...context("fr", "koubo"), lowest: -2, highest: 130 };
  const heard = parseRound("Nicolas 1213, Théo moins trois, Héloïse 130", koubo);
  assert.deepEqual(heard.totals, { Héloïse: 130 });
  assert.deepEqual(heard.noNumber, ["Nicolas", "Théo"]);
  // named with the number said, in seat order
  assert.deepEqual(heard.outOfRange, [
    { player: "Nicolas", value: 1213 },
    { player: "Théo", value: -3 },
  ]);
  assert.deepEqual(heard.handUnread, []);
  const hundred = parseRound("Théo cent cinquante", koubo);
  assert.deepEqual(hundred.totals, {});
  assert.deepEqual(hundred.outOfRange, [{ player: "Théo", value: 150 }]);
});

test("a player said twice: the last number said decides whether it is placed", () => {
  const cabo = { ...five("fr"), lowest: -4, highest: 338 };
  const placed = parseRound("Léa 340, Marc 9, Léa 34", cabo);
  assert.deepEqual(placed.totals, { Marc: 9, Léa: 34 });
  assert.deepEqual(placed.outOfRange, []);
  const beyond = parseRound("Léa 34, Marc 9, Léa 340", cabo);
  assert.deepEqual(beyond.totals, { Marc: 9 });
  assert.deepEqual(beyond.outOfRange, [{ player: "Léa", value: 340 }]);
  assert.deepEqual(parseRound("Léa 340 non 34", cabo).totals, { Léa: 34 });
});

test("a player said with a number it cannot read is named apart from those not said", () => {
  const heard = parseRound("Léa moins, Marc trois quatre, Nina 5", five("fr"));
  assert.deepEqual(heard.totals, { Nina: 5 });
  assert.deepEqual(heard.handUnread, ["Léa", "Marc"]);
  assert.deepEqual(heard.outOfRange, []);
  assert.deepEqual(heard.noNumber, ["Léa", "Marc", "Omar", "Zoé"]);
  assert.deepEqual(parseRound("Léa moins, Léa 5", five("fr")).handUnread, []);
});

test("halves only where the game has them; negatives only where the deck has them", () => {
  const tamoul = context("fr", "tamoul");
  assert.equal(parseRound("Léa quatre et demi", tamoul).totals.Léa, 4.5);
  assert.equal(parseRound("Léa quatre et demie", tamoul).totals.Léa, 4.5);
  assert.equal(parseRound("Léa demi", tamoul).totals.Léa, 0.5);
  assert.equal(parseRound("Lea four and a half", context("en", "tamoul")).totals.Léa, 4.5);
  const cabo = parseRound("Léa quatre et demi, Marc moins deux", five("fr"));
  assert.deepEqual(cabo.totals, { Marc: -2 });
  assert.ok(cabo.noNumber.includes("Léa"));
  const tamoulMinus = parseRound("Léa moins deux", tamoul);
  assert.deepEqual(tamoulMinus.totals, {});
  assert.ok(tamoulMinus.noNumber.includes("Léa"));
  assert.equal(parseRound("Nina moins un et demi", { ...tamoul, negatives: true }).totals.Nina, -1.5);
});

test("names are heard as a person would: accents, case, a first syllable, the closest name", () => {
  const players = ["Léa", "Marc", "Maxime", "Jean-Pierre", "Zoé", "Héloïse"];
  assert.equal(matchName("lea", players), "Léa");
  assert.equal(matchName("ZOE", players), "Zoé");
  assert.equal(matchName("Heloise", players), "Héloïse");
  assert.equal(matchName("Max", players), "Maxime");
  assert.equal(matchName("Jean", players), "Jean-Pierre");
  assert.equal(matchName("Marco", players), "Marc");
  assert.equal(matchName("Mark", players), "Marc");
  assert.equal(matchName("Héloïze", players), "Héloïse");
  assert.equal(matchName("Ma", players), null); // Marc or Maxime: too short to say
  assert.equal(matchName("Mar", ["Marc", "Marie"]), null); // two names start so
  assert.equal(matchName("Bob", players), null);
  assert.equal(matchName("Lia", players), null); // a short name must be said whole
  assert.equal(matchName("Maxine", ["Maxime", "Maxence"]), "Maxime");
  assert.equal(matchName("Tom", ["Tim", "Tam"]), null);
});

test("a name it cannot match is named, and its number is nobody's", () => {
  const heard = parseRound("Léa 3, Robert 7, Marc 5", five("fr"));
  assert.deepEqual(heard.totals, { Léa: 3, Marc: 5 });
  assert.deepEqual(heard.unknown, ["Robert"]);
  assert.deepEqual(heard.noNumber, ["Nina", "Omar", "Zoé"]);
  // a word that says nothing of the round is not a name left out
  assert.deepEqual(parseRound("Alors voilà, Léa 3, merci", five("fr")).unknown, []);
});

test("the same name twice takes the last; two numbers for one name take neither", () => {
  assert.equal(parseRound("Léa 3, Marc 5, Léa 4", five("fr")).totals.Léa, 4);
  assert.equal(parseRound("Léa 3, Marc 5, Léa moins", five("fr")).totals.Léa, undefined);
  const two = parseRound("Léa trois quatre, Marc 5", five("fr"));
  assert.equal(two.totals.Léa, undefined);
  assert.ok(two.noNumber.includes("Léa"));
  assert.equal(parseRound("Léa trois, pardon, quatre", five("fr")).totals.Léa, 4);
  assert.equal(parseRound("Lea three sorry four", five("en")).totals.Léa, 4);
  assert.equal(parseRound("Léa 3 annonce, Marc 5, Marc annonce", five("fr")).caller, "Marc");
});

test("the caller, by any call word of any variant, before or after the name", () => {
  for (const said of ["Zoé annonce", "Zoé a dit Tamalou", "Zoé Dutch", "annonce Zoé", "Gabo par Zoé", "c'est Zoé qui a dit Koubo"]) {
    assert.equal(parseRound(`Léa 3, ${said}`, five("fr")).caller, "Zoé", said);
  }
  assert.equal(parseRound("annonce Zoé, Léa 3", five("fr")).caller, "Zoé");
  assert.equal(parseRound("Léa 3 annonce Zoé 4", five("fr")).caller, "Léa"); // no pause written
  assert.equal(parseRound("Lea 3, Zoe called Cabo", five("en")).caller, "Zoé");
  assert.equal(parseRound("Lea 3, Zoe calls", five("en")).caller, "Zoé");
  assert.equal(parseRound("Lea 3, Dutch by Zoe", five("en")).caller, "Zoé");
  assert.equal(parseRound("Léa 3, Marc 4", five("fr")).caller, null);
});

test("a counter-call only where the variant has one", () => {
  const heard = parseRound("Léa 5 Tamoul, Marc contre 4", context("fr", "tamoul"));
  assert.equal(heard.caller, "Léa");
  assert.equal(heard.counterCaller, "Marc");
  assert.equal(parseRound("Léa 5 annonce, Marc contre 4", five("fr")).counterCaller, null);
});

test("penalty points, before or after their word, for the name said or the next one", () => {
  const points = (said, lang = "fr") => parseRound(said, five(lang)).penalties;
  assert.deepEqual(points("Marc pénalité cinq"), [{ player: "Marc", points: 5 }]);
  assert.deepEqual(points("Marc sept, pénalité cinq"), [{ player: "Marc", points: 5 }]);
  assert.deepEqual(points("Marc a une pénalité de deux"), [{ player: "Marc", points: 2 }]);
  assert.deepEqual(points("Marc sept et trois points de pénalité"), [{ player: "Marc", points: 3 }]);
  assert.deepEqual(points("Léa 4, pénalité de deux pour Marc, Marc 7"), [{ player: "Marc", points: 2 }]);
  assert.deepEqual(points("Léa 4, pénalité Marc deux"), [{ player: "Marc", points: 2 }]);
  assert.deepEqual(points("Marc penalty five", "en"), [{ player: "Marc", points: 5 }]);
  assert.deepEqual(points("Marc two penalty points", "en"), [{ player: "Marc", points: 2 }]);
  assert.deepEqual(points("deux points de pénalité pour Nina"), [{ player: "Nina", points: 2 }]);
  assert.deepEqual(points("Marc 7, deux points de pénalité pour Nina"), [{ player: "Nina", points: 2 }]);
  assert.deepEqual(points("Léa 4, points de pénalité pour Nina trois"), [{ player: "Nina", points: 3 }]);
  assert.deepEqual(points("two penalty points for Nina", "en"), [{ player: "Nina", points: 2 }]);
  assert.deepEqual(points("Marc 7 and two penalty points, Nina 3", "en"), [{ player: "Marc", points: 2 }]);
  assert.deepEqual(parseRound("points de pénalité pour Nina", five("fr")).penaltyUnread, ["Nina"]);
  assert.deepEqual(points("Marc pénalité moins deux"), [{ player: "Marc", points: -2 }]);
  const unread = parseRound("Marc 7, Marc pénalité", five("fr"));
  assert.deepEqual(unread.penalties, []);
  assert.deepEqual(unread.penaltyUnread, ["Marc"]);
  assert.equal(unread.totals.Marc, 7);
  assert.deepEqual(parseRound("Marc pénalité zéro", five("fr")).penaltyUnread, ["Marc"]);
  const hand = parseRound("Marc a une pénalité de deux", five("fr"));
  assert.equal(hand.totals.Marc, undefined); // "une" is no hand total
});

test("of a recognizer's alternatives, the one that leaves out least is read", () => {
  const best = bestReading(["Léa douze Marc set", "Léa douze Marc sept"], five("fr"));
  assert.equal(best.transcript, "Léa douze Marc sept");
  assert.deepEqual(best.heard.totals, { Léa: 12, Marc: 7 });
});

// A seeded generator (mulberry32): the same rounds on every run.
function generator(seed) {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

test("300 generated rounds, players in any order, numbers in words or digits: all read as said", () => {
  const random = generator(35);
  const pick = (list) => list[Math.floor(random() * list.length)];
  const words = { fr: french, en: english };
  const minus = { fr: "moins", en: "minus" };
  const calls = {
    fr: ["{name} annonce", "{name} a dit Cabo", "Tamalou par {name}", "c'est {name} qui annonce"],
    en: ["{name} calls", "{name} called Cabo", "Dutch by {name}", "{name} is the caller"],
  };
  const penalties = {
    fr: ["{name} pénalité {n}", "pénalité de {n} pour {name}", "{name} {n} points de pénalité"],
    en: ["{name} penalty {n}", "penalty of {n} for {name}", "{name} {n} penalty points"],
  };
  for (let round = 0; round < 300; round += 1) {
    const lang = pick(["fr", "en"]);
    const players = ["Léa", "Marc", "Nina", "Omar", "Zoé"];
    const order = [...players].sort(() => random() - 0.5);
    const totals = {};
    const parts = order.map((name) => {
      const size = Math.floor(random() * 101);
      const value = size && random() < 0.2 ? -size : size;
      totals[name] = value;
      const said = random() < 0.5 ? String(size) : words[lang](size);
      const spoken = random() < 0.5 ? name : name.normalize("NFD").replace(/\p{M}/gu, "");
      return `${spoken} ${value < 0 ? `${minus[lang]} ` : ""}${said}`;
    });
    const caller = pick(players);
    parts.splice(Math.floor(random() * (parts.length + 1)), 0, pick(calls[lang]).replace("{name}", caller));
    const fined = random() < 0.5 ? pick(players) : null;
    const points = 1 + Math.floor(random() * 20);
    if (fined) parts.push(pick(penalties[lang]).replace("{name}", fined).replace("{n}", words[lang](points)));
    const say = parts.join(random() < 0.5 ? ", " : " ");
    const heard = parseRound(say, five(lang));
    assert.deepEqual(heard.totals, totals, say);
    assert.equal(heard.caller, caller, say);
    assert.deepEqual(heard.penalties, fined ? [{ player: fined, points }] : [], say);
    assert.deepEqual([heard.unknown, heard.noNumber, heard.penaltyUnread], [[], [], []], say);
  }
});

test("300 generated rounds with a name the game does not have: its number goes to nobody", () => {
  const random = generator(36);
  const pick = (list) => list[Math.floor(random() * list.length)];
  const strangers = ["Bob", "Paul", "Hugo", "Inès", "Karim", "Tom", "Sacha", "Yann", "Lucie", "Rémi"];
  for (let round = 0; round < 300; round += 1) {
    const lang = pick(["fr", "en"]);
    const players = ["Léa", "Marc", "Nina", "Omar", "Zoé"];
    const missing = pick(players);
    const stranger = pick(strangers);
    const totals = {};
    const parts = [...players]
      .sort(() => random() - 0.5)
      .map((name) => {
        const value = Math.floor(random() * 101);
        if (name !== missing) totals[name] = value;
        return `${name === missing ? stranger : name} ${random() < 0.5 ? value : (lang === "fr" ? french : english)(value)}`;
      });
    const say = parts.join(random() < 0.5 ? ", " : " ");
    const heard = parseRound(say, five(lang));
    assert.deepEqual(heard.totals, totals, say);
    assert.deepEqual(heard.unknown, [stranger], say);
    assert.deepEqual(heard.noNumber, [missing], say);
  }
});
