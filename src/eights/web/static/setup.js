// Choosing the rules and the seats: the form both the home page (a new game) and the host's lobby use,
// built from the server's option space (GET /api/presets), never from a list of options kept here; and
// the home page itself.

import { $, button, el, keepingFocus, labelled, saved, select } from "./dom.js";
import { rulesDialog } from "./dialogs.js";
import { labPanel } from "./lab.js";

let moreOpen = false; // "More options" stays open across redraws

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
 * players grows). `prefix` keeps ids unique; `between` (nodes) goes between the game and its options.
 */
export function rulesForm({ catalog, config, prefix, newSeat, change }, between = []) {
  const preset = presetOf(catalog, config.preset);
  const form = el("div", null, "rules-form");

  const presets = el("fieldset", null, "presets");
  presets.append(el("legend", "Game"));
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
    words.append(el("strong", p.title), el("span", p.summary, "about"));
    choice.append(radio, words);
    presets.append(choice);
  }
  presets.append(button("Read the rules", () => rulesDialog(preset.name, optionTexts(config.options)), "link-button"));
  form.append(presets, ...between);

  const main = el("fieldset", null, "options");
  main.append(el("legend", "Options"));
  const more = el("details", null, "more-options");
  more.open = moreOpen;
  more.addEventListener("toggle", () => (moreOpen = more.open));
  more.append(el("summary", "More options"));
  for (const option of preset.options) {
    (option.main ? main : more).append(optionControl(option, config, prefix, change));
  }
  if (main.children.length > 1) form.append(main);
  form.append(more, labPanel(prefix, config));
  return form;
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
    control = select(null, option.choices.map((c) => [c, c.replaceAll("_", " ")]), value);
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
  if (option.zero) {
    // what 0 means, said beside the box (0 is rarely a count here: no target, as the deal, the fewest packs)
    const note = el("small", option.zero, "zero-note");
    note.id = `${control.id}-zero`;
    control.setAttribute("aria-describedby", note.id);
    line.append(note);
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

/** The home page: your name, the rules and seats, then a game against the computer or a room. */
export function showHome(catalog) {
  $("home").hidden = false;
  $("name").value = saved.name();
  let config = freshConfig(catalog, catalog.presets[0].name, (i) => (i === 0 ? "me" : "normal"));
  const names = {}; // the names typed for the seats of people here (pass and play), kept across redraws

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
    keepingFocus(() => {
      $("new-game-rules").replaceChildren(rulesForm(form, [playersSelect(form)]));
      $("new-game-seats").replaceChildren(seatsFieldset(config, seatRow));
    });
  }
  draw();

  $("new-game").addEventListener("submit", (event) => {
    event.preventDefault();
    const here = config.seats.map((who, i) => (who === "here" ? (names[i] ?? `Player ${i + 1}`).trim() : null));
    create(config, config.seats, true, here.filter((name) => name !== null));
  });
  $("new-room").addEventListener("click", () => create(config, config.seats.map((s, i) => (i === 0 ? "me" : "open")), false));
  $("join").addEventListener("submit", (event) => {
    event.preventDefault();
    const code = $("join-code").value.trim().toUpperCase();
    if (code) location.assign(`/r/${encodeURIComponent(code)}`);
  });
}

/** POST /api/rooms (`names`: those of the seats "here"), keep the seat tokens, and open the room. */
async function create(config, seats, start, names = []) {
  const name = $("name").value.trim();
  saved.setName(name);
  const problem = $("setup-error");
  problem.textContent = "";
  let answer;
  let body;
  try {
    answer = await fetch("/api/rooms", {
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
  location.assign(`/r/${body.code}`);
}
