// Choosing the rules and the seats: the form both the home page (a new game) and the host's lobby use,
// built from the server's option space (GET /api/presets), never from a list of options kept here; and
// the home page itself.

import { $, button, el, keepingFocus, labelled, saved, select } from "./dom.js";
import { cardFace } from "./cards.js";
import { rulesDialog } from "./dialogs.js";
import { labPanel } from "./lab.js";
import { APP, request } from "./local.js";

let moreOpen = false; // "House rules" stays open across redraws

/** Each preset's picture: three cards of ours that say what is special in it. */
const PICTURES = {
  classic: ["8H", "KC", "8S"],
  action: ["QS", "AH", "2D"],
  race: ["2C", "4H", "JS"],
  derange: ["KD", "3C", "10H"],
  "baby-eating": ["KH", "JK", "GJ"],
};
const SUIT_SIGNS = { C: "♣", D: "♦", H: "♥", S: "♠" };

/** A preset's picture: its cards fanned (decorative: the preset's words say what it is). */
function presetPicture(name) {
  const picture = el("span", null, "preset-picture");
  picture.setAttribute("aria-hidden", "true");
  for (const code of PICTURES[name] || PICTURES.classic) {
    const joker = code === "GJ" || code === "JK";
    const suit = joker ? null : code.slice(-1);
    const text = joker ? code : code.slice(0, -1) + SUIT_SIGNS[suit];
    picture.append(cardFace({ code, text, suit, label: "" }, el("span")));
  }
  return picture;
}

const playersWords = (p) => `${p.min_players}-${p.max_players} players`;

const presetOf = (catalog, name) => catalog.presets.find((p) => p.name === name) || catalog.presets[0];

/** The options as "k=v" texts (for GET /api/rules and for showing). */
const optionTexts = (options) => Object.entries(options).map(([key, value]) => `${key}=${value}`);

/** A config for `preset` with its own defaults, `seat(i)` filling each seat. */
function freshConfig(catalog, name, seat) {
  const preset = presetOf(catalog, name);
  const players = preset.default_players;
  return { preset: preset.name, options: {}, players, seats: Array.from({ length: players }, (_, i) => seat(i)) };
}

/**
 * The rules form for `config` ({preset, options: {key: text} changed from the preset, players, seats}).
 * `change(newConfig)` is called on every change (`newSeat(index)` fills seats added when the number of
 * players grows). `prefix` keeps ids unique; `between` (nodes) goes between the game and its options;
 * `games`: the games' cards first (the home page draws them apart, above Play now).
 */
export function rulesForm({ catalog, config, prefix, newSeat, change }, between = [], games = true) {
  const preset = presetOf(catalog, config.preset);
  const form = el("div", null, "rules-form");
  if (games) form.append(gamesFieldset({ catalog, config, prefix, newSeat, change }));
  form.append(...between);

  // the few options that matter first, named and explained; the rest behind "House rules", in groups
  const main = el("fieldset", null, "options");
  main.append(el("legend", "Rules"));
  const more = el("details", null, "more-options");
  more.open = moreOpen;
  more.addEventListener("toggle", () => (moreOpen = more.open));
  more.append(el("summary", "House rules"), el("p", "Every other rule of the game, to play it your way.", "about"));
  const groups = new Map((catalog.groups || []).map((name) => [name, null]));
  for (const option of preset.options) {
    const control = optionControl(option, config, prefix, change);
    if (option.main) {
      main.append(control);
      continue;
    }
    let group = groups.get(option.group);
    if (!group) {
      group = el("fieldset", null, "option-group");
      group.append(el("legend", option.group || "Other rules"));
      groups.set(option.group, group);
    }
    group.append(control);
  }
  for (const group of groups.values()) if (group) more.append(group);
  if (main.children.length > 1) form.append(main);
  form.append(more, ...(APP ? [] : [labPanel(prefix, config)])); // a lab runs on the server
  return form;
}

/** The games, each a card of its own: its picture, its name, its character and its players (radio buttons). */
function gamesFieldset({ catalog, config, prefix, newSeat, change }) {
  const preset = presetOf(catalog, config.preset);
  const presets = el("fieldset", null, "presets");
  presets.append(el("legend", "Choose a game"));
  for (const p of catalog.presets) {
    const radio = document.createElement("input");
    radio.type = "radio";
    radio.name = `${prefix}preset`;
    radio.id = `${prefix}preset-${p.name}`;
    radio.value = p.name;
    radio.checked = p.name === preset.name;
    radio.addEventListener("change", () => {
      const players = Math.min(Math.max(config.players, p.min_players), p.max_players);
      change(resized({ ...config, preset: p.name, options: {} }, players, newSeat));
    });
    const choice = el("label", null, "preset");
    const words = el("span", null, "preset-words");
    const title = el("strong", p.title, "preset-title");
    const about = el("span", p.character, "about");
    const counts = el("span", playersWords(p), "preset-players");
    words.append(title, about, counts);
    choice.append(radio, presetPicture(p.name), words);
    presets.append(choice);
  }
  const read = button(`Read the rules of ${preset.title}`, () => rulesDialog(preset.name, optionTexts(config.options)), "link-button");
  const box = el("div", null, "games");
  box.append(presets, read);
  return box;
}

/** The number of players, from the preset's range. */
export function playersSelect({ catalog, config, prefix, newSeat, change }) {
  const preset = presetOf(catalog, config.preset);
  const counts = [];
  for (let n = preset.min_players; n <= preset.max_players; n++) counts.push([String(n), String(n)]);
  const players = select(`${prefix}players`, counts, String(config.players));
  players.addEventListener("change", () => change(resized(config, Number(players.value), newSeat)));
  return labelled("Players", players, "inline");
}

/** The seats of `config`, a line each from `seatRow(index)`, after `first` (nodes) if given. */
export function seatsFieldset(config, seatRow, first = []) {
  const seats = el("fieldset", null, "seat-fields");
  seats.append(el("legend", "Seats"), ...first);
  for (let index = 0; index < config.players; index++) seats.append(seatRow(index));
  return seats;
}

function resized(config, players, newSeat) {
  const seats = config.seats.slice(0, players);
  while (seats.length < players) seats.push(newSeat(seats.length));
  return { ...config, players, seats };
}

/** One option's control, by its kind; a value equal to the preset's is not sent. */
function optionControl(option, config, prefix, change) {
  const value = config.options[option.key] ?? option.value;
  const set = (text) => {
    const options = { ...config.options };
    if (text === option.value) delete options[option.key];
    else options[option.key] = text;
    change({ ...config, options });
  };
  let control;
  if (option.kind === "bool") {
    control = document.createElement("input");
    control.type = "checkbox";
    control.checked = value === "true";
    control.addEventListener("change", () => set(control.checked ? "true" : "false"));
  } else if (option.kind === "choice") {
    const words = option.choice_words || option.choices.map((c) => c.replaceAll("_", " "));
    control = select(null, option.choices.map((c, i) => [c, words[i]]), value);
    control.addEventListener("change", () => set(control.value));
  } else {
    control = document.createElement("input");
    control.type = option.kind === "int" ? "number" : "text";
    if (option.kind === "int") control.inputMode = "numeric";
    if (option.kind === "list") control.placeholder = "none (a list: a,b,c)";
    control.value = value;
    control.addEventListener("change", () => set(control.value.trim()));
  }
  control.id = `${prefix}option-${option.key}`;
  const line = labelled(option.label, control, option.kind === "bool" ? "check" : "inline");
  // what it does and what 0 means (0 is rarely a count here: no target, as the deal, the fewest packs),
  // said beside the box and read with it
  const about = [option.about, option.zero].filter(Boolean).join(" ");
  if (about) {
    const note = el("small", about, "option-about");
    note.id = `${control.id}-about`;
    control.setAttribute("aria-describedby", note.id);
    const box = el("div", null, "option");
    box.append(line, note);
    return box;
  }
  return line;
}

/** A seat's line: its words and a control (or just words). */
export function seatLine(index, words, control) {
  const line = el("div", null, "seat-line");
  line.append(el("span", `Seat ${index + 1}`, "seat-number"));
  if (control) line.append(labelled(words, control, "inline"));
  else line.append(el("span", words, "seat-words"));
  return line;
}

/** A computer level in a player's words, where its name alone says too little. */
const LEVEL_WORDS = { learned: "learned (trained against normal)" };

/** Choices of a computer level: [value, words]. */
export const levelChoices = (catalog) =>
  catalog.levels.map((level) => [level, `computer: ${LEVEL_WORDS[level] ?? level}`]);

// ----- the home page -----------------------------------------------------------------------------------

/** The home page: Continue (the games this browser holds a seat in), your name, the games as cards, Play
 * now and Make a room, the setup (who plays, the rules, the house rules), and Join. In the app,
 * `openHere(code)` opens a game of the app's own Python (a room with friends needs the server: `server`
 * says whether it answers). */
export function showHome(catalog, { openHere = null, server = true } = {}) {
  $("home").hidden = false;
  $("name").value = saved.name();
  let config = freshConfig(catalog, catalog.presets[0].name, (i) => (i === 0 ? "me" : "normal"));
  const names = {}; // the names typed for the seats of people here (pass and play), kept across redraws
  showContinue();

  function change(next) {
    config = next;
    draw();
  }

  function seatRow(index) {
    if (index === 0) return seatLine(index, "You", null);
    const choices = [...levelChoices(catalog), ["here", "a person here (pass the phone)"]];
    const level = select(`new-seat-${index}`, choices, config.seats[index]);
    level.addEventListener("change", () => {
      const seats = [...config.seats];
      seats[index] = level.value;
      change({ ...config, seats });
    });
    const line = seatLine(index, "Plays:", level);
    if (config.seats[index] === "here") {
      const name = el("input");
      name.id = `new-seat-name-${index}`;
      name.maxLength = 24;
      name.autocomplete = "off";
      name.placeholder = "1-24 letters";
      name.value = names[index] ?? `Player ${index + 1}`;
      name.addEventListener("input", () => (names[index] = name.value));
      line.append(labelled("Their name", name, "inline"));
    }
    return line;
  }

  function draw() {
    const form = { catalog, config, prefix: "new-", newSeat: () => "normal", change };
    const preset = presetOf(catalog, config.preset);
    const computers = config.seats.filter((who) => who !== "me" && who !== "here");
    const people = config.seats.filter((who) => who === "here").length;
    const levels = [...new Set(computers)].join(", ");
    let against = computers.length ? `you against ${computers.length === 1 ? "a computer" : `${computers.length} computers`} (${levels})` : "you";
    if (people) against += ` and ${people === 1 ? "a person" : `${people} people`} at this device`;
    $("play-now-about").textContent = `${preset.title}: ${against}.`;
    keepingFocus(() => {
      $("new-game-games").replaceChildren(gamesFieldset(form));
      const who = seatsFieldset(config, seatRow, [playersSelect(form)]);
      who.querySelector("legend").textContent = "Who plays";
      $("new-game-seats").replaceChildren(who);
      $("new-game-rules").replaceChildren(rulesForm(form, [], false));
    });
  }
  draw();

  $("new-game").addEventListener("submit", (event) => {
    event.preventDefault();
    const here = config.seats.map((who, i) => (who === "here" ? (names[i] ?? `Player ${i + 1}`).trim() : null));
    create(config, config.seats, true, here.filter((name) => name !== null), openHere);
  });
  $("new-room").addEventListener("click", () => create(config, config.seats.map((s, i) => (i === 0 ? "me" : "open")), false));
  if (APP && !server) {
    $("new-room").disabled = $("join").querySelector("button").disabled = true;
    $("new-room").closest(".play-bar").after(el("p", "Rooms with friends need the server (eights serve), which cannot be reached now: games against the computer and passing the phone work here with no network.", "about"));
  }
  $("join").addEventListener("submit", (event) => {
    event.preventDefault();
    const code = $("join-code").value.trim().toUpperCase();
    if (code) location.assign(new URL(`/r/${encodeURIComponent(code)}`, location.origin));
  });
}

/** The games this browser holds a seat in, as the server has them (POST /api/rooms/mine): each offered
 * again (Continue); those the server no longer has for that seat are forgotten. */
async function showContinue() {
  const held = saved.recent().map((code) => ({ code, token: saved.token(code) })).filter((r) => r.token);
  if (!held.length) return;
  let answer;
  try {
    const reply = await fetch("/api/rooms/mine", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ rooms: held }),
    });
    if (!reply.ok) return;
    answer = await reply.json();
  } catch {
    return; // no Continue: the rest of the page works
  }
  for (const code of answer.gone) saved.forget(code);
  const items = answer.games.map((game) => {
    const item = el("li", null, "continue-game");
    const link = el("a", null, "button-link primary");
    link.href = `/r/${game.code}`;
    link.id = `continue-${game.code}`;
    link.append(el("strong", "Continue"), el("span", ` ${game.title}`, "sr-only"));
    const words = el("span", null, "continue-words");
    const others = game.others.length ? ` with ${game.others.join(", ")}` : "";
    const where = game.phase === "lobby" ? "in the room, before the start" : "in play";
    words.append(el("strong", game.title), el("span", `You (${game.name})${others}: ${where}. Room ${game.code}.`, "about"));
    item.append(words, link);
    return item;
  });
  $("continue-list").replaceChildren(...items);
  $("continue").hidden = items.length === 0;
}

/** POST /api/rooms (`names`: those of the seats "here"), keep the seat tokens, and open the room: in the app, a
 * game against the computer is the app's own (`openHere`); a room with friends is the server's. */
async function create(config, seats, start, names = [], openHere = null) {
  const typed = $("name").value.trim();
  if (typed) saved.setName(typed);
  const name = typed || "Player 1"; // Play now with no name typed: a name that still reads well
  const problem = $("setup-error");
  problem.textContent = "";
  let answer;
  let body;
  try {
    const here = APP && start;
    answer = await (here ? request : fetch)(here ? "/api/rooms" : new URL("/api/rooms", location.origin), {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ name, preset: config.preset, options: config.options, players: seats.length, seats, names, start }),
    });
    body = await answer.json();
  } catch {
    problem.textContent = "The server cannot be reached: try again in a moment.";
    return;
  }
  if (!answer.ok) {
    problem.textContent = body.error || (body.detail || []).map((d) => `${d.loc.at(-1)}: ${d.msg}`).join("; ");
    return;
  }
  saved.setToken(body.code, body.token);
  saved.setHere(body.code, body.here || []); // the seats of the people here: a WebSocket each at the table
  if (APP && start) openHere(body.code);
  else location.assign(new URL(`/r/${body.code}`, location.origin));
}
