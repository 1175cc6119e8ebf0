// A round as the table says it ("Léa douze, Marc sept, Nina moins deux, Zoé annonce"), read
// into the round form's fields: each player's hand total, the caller (and Tamoul's
// counter-caller), penalty points. Pure: no page, so node's test runner imports it. Loaded by
// say.js, itself imported at the first tap on the microphone.
//
// What the parser knows comes from the page (the round form's data attributes, translated on
// the server): the players of the round, the call words of every variant, the language's words
// for a call, a penalty, minus, a half, a counter-call, "by" and a correction, and whether the
// game has halves and negative totals. Number words (0–999) are this module's, in French
// (septante and nonante included) and English. Anything it cannot place is left out and named:
// a word that is no player's name, a player without a number it could read, a number no hand
// of the game can reach.

// --- words and names ---------------------------------------------------------------------

// A text as it is compared: no accents, no case, letters and digits only.
export const plain = (text) =>
  text
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();

const NUMBER_WORDS = {
  fr: {
    zero: 0, rien: 0, un: 1, une: 1, deux: 2, trois: 3, quatre: 4, cinq: 5, six: 6, sept: 7, huit: 8,
    neuf: 9, dix: 10, onze: 11, douze: 12, treize: 13, quatorze: 14, quinze: 15, seize: 16,
    vingt: 20, vingts: 20, trente: 30, quarante: 40, cinquante: 50, soixante: 60, septante: 70,
    huitante: 80, octante: 80, nonante: 90, cent: 100, cents: 100,
  },
  en: {
    zero: 0, nought: 0, nil: 0, nothing: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6,
    seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12, thirteen: 13, fourteen: 14,
    fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19, twenty: 20, thirty: 30,
    forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90, hundred: 100,
  },
};

// Words said between the names and numbers that mean nothing here ("Léa a fait douze", "c'est
// Zoé qui annonce", "Marc has seven").
const FILLERS = new Set(
  (
    "a à ai alors as au aussi avec bon c ca ce cest d de des dit du donc elle en enfin ensuite est et eu " +
    "euh fait fais hum il j l la le les lui m manche moi n ok puis qu que qui sa se son t ta tour y voila " +
    "total point points pts " +
    "and am an at er got had has have he her his i is it its made makes me my now of okay on round s " +
    "said says she so that thats the then uh um with"
  ).split(" "),
);

// Levenshtein's distance between two plain texts.
function distance(a, b) {
  let row = Array.from({ length: b.length + 1 }, (_value, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const next = [i];
    for (let j = 1; j <= b.length; j += 1) {
      next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    row = next;
  }
  return row[b.length];
}

// The player a spoken word (or words) names, as a person would hear it: the name itself
// whatever its accents and case ("zoe", "ZOÉ"), its first syllable or more ("Max" for Maxime,
// "Marie" for Marie-Claire), or else the one closest name (one letter off, two in a long name:
// "Marco" for Marc). Null when none, or when two names fit as well.
export function matchName(spoken, players) {
  const said = plain(spoken).replace(/ /g, "");
  if (said.length < 2) return null;
  const names = players.map((name) => ({ name, key: plain(name).replace(/ /g, "") })).filter((p) => p.key);
  const only = (found) => (found.length === 1 ? found[0].name : null);
  const exact = names.filter((p) => p.key === said);
  if (exact.length) return only(exact);
  if (said.length >= 3) {
    const starts = names.filter((p) => p.key.startsWith(said));
    if (starts.length) return only(starts);
  }
  const far = names.map((p) => ({ ...p, off: distance(said, p.key) }));
  const best = Math.min(...far.map((p) => p.off));
  const allowed = said.length >= 7 ? 2 : said.length >= 4 ? 1 : 0;
  if (best > allowed) return null;
  return only(far.filter((p) => p.off === best));
}

// --- tokens --------------------------------------------------------------------------------

// The transcript in pieces: numbers in digits ("12", "-2", "4,5"), words (plain), and breaks
// (a comma or full stop the recognizer wrote). A hyphen joins words ("dix-sept", "Jean-Pierre")
// and is cut; before digits ("-2", "- 2") it is a minus.
function tokens(transcript) {
  const found = [];
  const pattern = /([+\-−]?) ?(\d+)(?:[.,](\d+))?(½)?|([\p{L}\p{M}]+)|([,.;:!?]+)|(½)/gu;
  for (const match of transcript.matchAll(pattern)) {
    const [, sign, whole, decimals, halfSign, word, stop, half] = match;
    if (whole !== undefined) {
      let value = Number(`${whole}.${decimals || 0}`) + (halfSign ? 0.5 : 0);
      if (sign === "-" || sign === "−") value = -value;
      found.push({ kind: "digits", value, text: match[0] });
    } else if (word !== undefined) {
      const text = plain(word);
      if (text) found.push({ kind: "word", text, raw: word });
    } else if (stop !== undefined) found.push({ kind: "break" });
    else if (half !== undefined) found.push({ kind: "word", text: "½", raw: half });
  }
  return found;
}

// The keyword phrases ({kind: ["a dit", "annonce"]}) as plain word lists, longest first.
function phrases(words) {
  const list = [];
  for (const [kind, texts] of Object.entries(words)) {
    for (const text of texts) {
      const parts = plain(text).split(" ").filter(Boolean);
      if (parts.length) list.push({ kind, parts });
    }
  }
  list.push({ kind: "half", parts: ["½"] });
  return list.sort((a, b) => b.parts.length - a.parts.length);
}

function phraseAt(list, pieces, at) {
  return list.find((phrase) => phrase.parts.every((part, k) => pieces[at + k]?.text === part)) || null;
}

// A number said in words from `at` ("vingt et un", "quatre-vingt-dix-sept", "soixante douze",
// "twenty one", "cent cinquante", "deux cents", "trois cent quarante", "a hundred and five"):
// its value and where it ends, or null.
function numberWords(pieces, at, lang) {
  const table = NUMBER_WORDS[lang] || NUMBER_WORDS.fr;
  const value = (k) => (pieces[k]?.kind === "word" ? table[pieces[k].text] : undefined);
  let hundreds = 0;
  let end = at;
  if (value(at) === 100) {
    hundreds = 100;
    end = at + 1;
  } else if (value(at) >= 1 && value(at) <= 9 && value(at + 1) === 100) {
    hundreds = value(at) * 100; // "deux cents", "three hundred"
    end = at + 2;
  }
  if (!hundreds) return belowHundred(pieces, at, lang);
  const and = lang === "en" && pieces[end]?.text === "and" ? 1 : 0; // "a hundred and five"
  const rest = belowHundred(pieces, end + and, lang);
  // "cent zéro" is no number: the zero is a number of its own
  return rest && rest.value > 0 ? { value: hundreds + rest.value, end: rest.end } : { value: hundreds, end };
}

// A number from 0 to 99 said in words from `at`, or null.
function belowHundred(pieces, at, lang) {
  const table = NUMBER_WORDS[lang] || NUMBER_WORDS.fr;
  const value = (k) => (pieces[k]?.kind === "word" ? table[pieces[k].text] : undefined);
  let v = value(at);
  if (v === undefined || v >= 100) return null;
  let end = at + 1;
  if (lang !== "en" && v === 4 && value(end) === 20) {
    v = 80; // quatre-vingt(s)
    end += 1;
  }
  if (v >= 20 && v % 10 === 0) {
    const next = value(end);
    if (lang !== "en" && pieces[end]?.text === "et" && [1, 11].includes(value(end + 1))) {
      return { value: v + value(end + 1), end: end + 2 }; // vingt et un, soixante et onze
    }
    if (next >= 1 && next <= 9) return { value: v + next, end: end + 1 };
    if (lang !== "en" && (v === 60 || v === 80) && next >= 10 && next <= 19) {
      if (next === 10 && [7, 8, 9].includes(value(end + 1))) return { value: v + 10 + value(end + 1), end: end + 2 };
      return { value: v + next, end: end + 1 };
    }
    return { value: v, end };
  }
  if (lang !== "en" && v === 10 && [7, 8, 9].includes(value(end))) return { value: 10 + value(end), end: end + 1 };
  return { value: v, end };
}

// --- the transcript read -------------------------------------------------------------------

// What each piece is: a player's name, a word that is nobody's, a number, a keyword (call,
// penalty, penaltyAfter, minus, half, counter, by, correction), or a break.
function items(transcript, context) {
  const pieces = tokens(transcript);
  const keywords = phrases({ ...context.words, call: [...(context.words.call || []), ...(context.calls || [])] });
  const found = [];
  let at = 0;
  while (at < pieces.length) {
    const piece = pieces[at];
    if (piece.kind === "break") {
      found.push({ kind: "break" });
      at += 1;
      continue;
    }
    if (piece.kind === "digits") {
      found.push({ kind: "number", value: piece.value });
      at += 1;
      continue;
    }
    const keyword = phraseAt(keywords, pieces, at);
    if (keyword) {
      found.push({ kind: keyword.kind });
      at += keyword.parts.length;
      continue;
    }
    const number = numberWords(pieces, at, context.lang);
    if (number) {
      found.push({ kind: "number", value: number.value, word: piece.text });
      at = number.end;
      continue;
    }
    const name = nameAt(pieces, at, context.players);
    if (name) {
      found.push({ kind: "name", name: name.name });
      at = name.end;
      continue;
    }
    if (!FILLERS.has(piece.text)) {
      const last = found[found.length - 1];
      if (last?.kind === "unknown" && last.end === at) {
        last.text += ` ${piece.raw}`;
        last.end = at + 1;
      } else found.push({ kind: "unknown", text: piece.raw, end: at + 1 });
    }
    at += 1;
  }
  return found;
}

// The player named by the words from `at`: three, two words ("Jean Pierre") or one.
function nameAt(pieces, at, players) {
  for (let size = 3; size >= 1; size -= 1) {
    const words = pieces.slice(at, at + size);
    if (words.length < size || words.some((piece) => piece.kind !== "word")) continue;
    const spoken = words.map((piece) => piece.text).join(" ");
    if (size === 1 && FILLERS.has(spoken)) {
      // a filler is a filler, unless it is a name of the game as it is
      const name = players.find((player) => plain(player).replace(/ /g, "") === spoken);
      return name ? { name, end: at + 1 } : null;
    }
    const name = size === 1 ? matchName(spoken, players) : multiWordName(spoken, players);
    if (name) return { name, end: at + size };
  }
  return null;
}

// A name of several words said whole (or one letter off): never a run of a name and others.
function multiWordName(spoken, players) {
  const said = spoken.replace(/ /g, "");
  const fits = players.filter((player) => {
    const key = plain(player);
    return key.includes(" ") && distance(said, key.replace(/ /g, "")) <= (said.length >= 7 ? 1 : 0);
  });
  return fits.length === 1 ? fits[0] : null;
}

// Numbers with their sign and half: "moins deux" → −2, "douze et demi" → 12.5, "demi" → 0.5.
// A minus with no number after it is a number not read. Penalty points said before their words
// ("deux points de pénalité", "two penalty points") become a penalty holding them, so that
// they go, like any penalty, to the name said next when "pour"/"for" says so ("deux points de
// pénalité pour Nina"); those words with no number before them are a penalty word like any
// other, its points said after it or not at all ("points de pénalité pour Nina").
function numbers(list) {
  const out = [];
  for (let k = 0; k < list.length; k += 1) {
    const item = list[k];
    if (item.kind === "minus") {
      const next = list[k + 1];
      if (next?.kind === "number") {
        const half = list[k + 2]?.kind === "half" ? 0.5 : 0;
        out.push({ kind: "number", value: -(next.value + half) });
        k += half ? 2 : 1;
      } else if (next?.kind === "half") {
        out.push({ kind: "number", value: -0.5 });
        k += 1;
      } else out.push({ kind: "unread" });
    } else if (item.kind === "number") {
      if (item.word === "une" && list[k + 1]?.kind === "penalty") continue; // "une pénalité": no number
      if (list[k + 1]?.kind === "half") {
        out.push({ kind: "number", value: item.value + 0.5 });
        k += 1;
      } else out.push(item);
    } else if (item.kind === "half") out.push({ kind: "number", value: 0.5 });
    else if (item.kind === "penaltyAfter") {
      const before = out.at(-1);
      if (before?.kind === "number" || before?.kind === "unread") {
        out.pop();
        out.push({ kind: "penalty", points: before.kind === "number" ? before.value : null });
      } else out.push({ kind: "penalty" });
    } else out.push(item);
  }
  return out;
}

// The pieces grouped by the player (or unknown word) they are said of. A call or a penalty
// said before any name goes to the first one ("Tamalou par Zoé", "annonce Zoé"); so does a call
// or a penalty followed by "by"/"for" ("pénalité de cinq pour Marc", "deux points de pénalité
// pour Nina": the last one said), and a penalty word said last before a name, its points not
// said yet ("Léa douze, pénalité Marc cinq"), and a call word said last before a name
// after a pause the recognizer wrote ("Léa douze, annonce Zoé"; without the comma, Léa called).
// A number said before any name is nobody's.
const forNext = (item) => ["call", "counter", "penalty"].includes(item.kind);
function segments(list) {
  const groups = [];
  let carried = [];
  let current = null;
  let afterBreak = false;
  for (const item of list) {
    if (item.kind === "name" || item.kind === "unknown") {
      const last = current?.items.at(-1);
      const penaltyWord = last?.kind === "penalty" && !("points" in last);
      if (penaltyWord || (last?.kind === "call" && last.afterBreak)) carried.push(current.items.pop());
      if (!current) carried = carried.slice(Math.max(0, carried.findIndex(forNext)), carried.some(forNext) ? undefined : 0);
      current = { who: item, items: carried.map(({ afterBreak: _said, ...rest }) => rest) }; // placed
      carried = [];
      groups.push(current);
    } else if (item.kind === "by") {
      const start = current ? current.items.findLastIndex(forNext) : -1;
      if (start >= 0) carried.push(...current.items.splice(start));
    } else if (item.kind !== "break") {
      (current ? current.items : carried).push(afterBreak ? { ...item, afterBreak } : item);
    }
    afterBreak = item.kind === "break";
  }
  return groups;
}

// What one group says of its player: a hand total (or none, or one not read), a call, a
// penalty (or one not read).
function meaning(items) {
  const said = { hand: undefined, call: false, counter: false, penalty: undefined };
  const used = new Set();
  items.forEach((item, k) => {
    if (item.kind === "call") said.call = true;
    if (item.kind === "counter") said.counter = true;
    if (item.kind === "penalty" && "points" in item) said.penalty = item.points;
    else if (item.kind === "penalty") {
      const after = items.findIndex((x, j) => j > k && (x.kind === "number" || x.kind === "unread"));
      const stop = items.findIndex((x, j) => j > k && x.kind === "penalty");
      if (after >= 0 && (stop < 0 || after < stop)) {
        used.add(after);
        said.penalty = items[after].kind === "number" ? items[after].value : null;
      } else said.penalty = null;
    }
  });
  const corrected = items.findLastIndex((item) => item.kind === "correction");
  const hands = items.filter(
    (item, k) => (item.kind === "number" || item.kind === "unread") && !used.has(k) && k > corrected,
  );
  if (hands.length === 1) said.hand = hands[0].kind === "number" ? hands[0].value : null;
  else if (hands.length > 1) said.hand = null; // two numbers for one hand: neither is sure
  return said;
}

// Whether a number can be a hand total (between the lowest and highest a hand of the game can
// reach, when the page says them) or penalty points: a minus only where the deck has negative
// cards, a half only where the game has halves.
function possible(value, context, [lowest, highest]) {
  if (value === null || value === undefined) return false;
  if (value < 0 && !context.negatives) return false;
  if (!Number.isInteger(value) && !(context.halves && Number.isInteger(value * 2))) return false;
  return value >= lowest && value <= highest;
}

const handRange = (context) => [context.lowest ?? -1000, context.highest ?? 1000];
const PENALTY_RANGE = [-999, 999]; // the referee's MAX_PENALTY

// The round said in `transcript`, for `context`:
//   players: the names of the round, in seat order; lang: "fr" or "en";
//   calls: every variant's call word; words: {call, penalty, penaltyAfter, minus, half,
//   counter, by, correction}: the language's phrases; halves, negatives: what the game allows;
//   lowest, highest: the hand totals a hand of the game can reach.
// Returns the totals heard ({name: number}), the caller and counter-caller (or null), the
// penalties ({player, points}), the words that named nobody (said with a number or a call),
// the players left without a total (noNumber), and of those, the ones said with a number no
// hand of the game can reach (outOfRange: {player, value}, in seat order) and the ones said
// with a number it could not read (handUnread: "Léa moins", "Léa trois quatre"); and the
// players whose penalty had no number it could read. The same player said twice: the last
// wins.
export function parseRound(transcript, context) {
  const heard = { totals: {}, caller: null, counterCaller: null, penalties: {}, unknown: [], penaltyUnread: [] };
  const notPlaced = {}; // name → the number said that no hand can reach, or null: none read
  for (const group of segments(numbers(items(transcript, context)))) {
    const said = meaning(group.items);
    const something = said.hand !== undefined || said.call || said.counter || said.penalty !== undefined;
    if (group.who.kind === "unknown") {
      if (something && !heard.unknown.includes(group.who.text)) heard.unknown.push(group.who.text);
      continue;
    }
    const name = group.who.name;
    if (said.hand !== undefined) {
      if (possible(said.hand, context, handRange(context))) {
        heard.totals[name] = said.hand;
        delete notPlaced[name];
      } else {
        delete heard.totals[name];
        notPlaced[name] = said.hand;
      }
    }
    if (said.counter && context.words.counter?.length) heard.counterCaller = name;
    else if (said.call) heard.caller = name;
    if (said.penalty !== undefined) {
      if (said.penalty !== 0 && possible(said.penalty, context, PENALTY_RANGE)) {
        heard.penalties[name] = said.penalty;
        heard.penaltyUnread = heard.penaltyUnread.filter((n) => n !== name);
      } else {
        delete heard.penalties[name];
        if (!heard.penaltyUnread.includes(name)) heard.penaltyUnread.push(name);
      }
    }
  }
  return {
    totals: heard.totals,
    caller: heard.caller,
    counterCaller: heard.counterCaller,
    penalties: Object.entries(heard.penalties).map(([player, points]) => ({ player, points })),
    unknown: heard.unknown,
    noNumber: context.players.filter((name) => !(name in heard.totals)),
    outOfRange: context.players
      .filter((name) => typeof notPlaced[name] === "number")
      .map((player) => ({ player, value: notPlaced[player] })),
    handUnread: context.players.filter((name) => notPlaced[name] === null),
    penaltyUnread: heard.penaltyUnread,
  };
}

// How much of the round a reading leaves out: the best of a recognizer's alternatives is the
// one that leaves out least.
export const leftOut = (heard) => heard.noNumber.length + heard.unknown.length + heard.penaltyUnread.length;

export function bestReading(transcripts, context) {
  let best = null;
  for (const transcript of transcripts) {
    const heard = parseRound(transcript, context);
    if (!best || leftOut(heard) < leftOut(best.heard)) best = { transcript, heard };
  }
  return best;
}
