// The start page: the form that starts a sheet (the game, its main options, the players and the first
// dealer) and the sheets this phone keeps.

import { $, button, el, keepingFocus, labelled, select } from "../dom.js";
import { api, problem } from "./basics.js";
import { keptSheets, mySheets, remember, sayOffline, scoringUrl } from "./keep.js";
import { keepOffline } from "./offline.js";

const MIN_PLAYERS = 2;
const MAX_PLAYERS = 8;

const start = { catalog: null, preset: "derange", options: {}, players: ["", ""], dealer: "" };

/** Open the start page; ``goLocal`` (scorecard.js) goes on with a sheet started with no server, kept here. */
export async function openStart(goLocal) {
  $("start").hidden = false;
  const presets = await api("GET", "/api/presets");
  if (!presets.ok) return problem(presets.data.error);
  start.catalog = presets.data;
  sayOffline(presets.data.presets.map((p) => scoringUrl(p.name, {})));
  // Names are offered from the sheets this device keeps, never from the server's: the server holds
  // every device's sheets, and no one else's names are this page's to show.
  const kept = mySheets().map((s) => (Array.isArray(s.players) ? s.players.filter((n) => typeof n === "string") : []));
  const known = [...new Map(kept.flat().map((name) => [name.toLocaleLowerCase(), name])).values()];
  $("known-names").replaceChildren(...known.map((name) => new Option(name)));
  if (kept.length && kept[0].length >= MIN_PLAYERS) start.players = [...kept[0]];
  drawPresets();
  drawPlayers();
  drawMySheets();
  $("add-player").addEventListener("click", () => {
    start.players.push("");
    drawPlayers();
    $(`player-${start.players.length - 1}`).focus();
  });
  $("new-sheet").addEventListener("submit", (event) => startSheet(event, goLocal));
}

const presetOf = (name) => start.catalog.presets.find((p) => p.name === name);

function drawPresets() {
  const box = $("sheet-presets");
  box.replaceChildren(el("legend", "Game"));
  for (const p of start.catalog.presets) {
    const radio = document.createElement("input");
    radio.type = "radio";
    radio.name = "preset";
    radio.id = `preset-${p.name}`;
    radio.value = p.name;
    radio.checked = p.name === start.preset;
    radio.addEventListener("change", () => {
      start.preset = p.name;
      start.options = {};
      keepingFocus(drawPresets);
      drawPlayers();
    });
    const words = el("span", null, "preset-words");
    words.append(el("strong", p.title), el("span", p.summary, "about"));
    const choice = el("label", null, "preset");
    choice.append(radio, words);
    box.append(choice);
  }
  const options = $("sheet-options");
  options.replaceChildren(el("legend", "Options"));
  const shown = presetOf(start.preset).options.filter((o) => o.main);
  options.hidden = !shown.length;
  for (const option of shown) options.append(optionControl(option));
}

/** A control for one of the preset's main options; only values changed from the preset are sent. */
function optionControl(option) {
  const id = `option-${option.key}`;
  const value = start.options[option.key] ?? option.value;
  const set = (text) => {
    if (text === option.value) delete start.options[option.key];
    else start.options[option.key] = text;
  };
  if (option.kind === "bool") {
    const box = document.createElement("input");
    box.type = "checkbox";
    box.id = id;
    box.checked = value === "true";
    box.addEventListener("change", () => set(box.checked ? "true" : "false"));
    const label = el("label", null, "check");
    label.append(box, el("span", option.label));
    return label;
  }
  let control;
  if (option.kind === "choice") {
    control = select(id, option.choices.map((c) => [c, c]), value);
    control.addEventListener("change", () => set(control.value));
  } else {
    control = document.createElement("input");
    control.id = id;
    control.value = value;
    if (option.kind === "int") control.inputMode = "numeric";
    control.addEventListener("input", () => set(control.value.trim()));
  }
  return labelled(option.label, control, "inline");
}

function drawPlayers() {
  const most = Math.min(MAX_PLAYERS, presetOf(start.preset)?.max_players || MAX_PLAYERS);
  const list = $("sheet-players");
  list.replaceChildren();
  start.players.forEach((name, index) => {
    const input = document.createElement("input");
    input.id = `player-${index}`;
    input.value = name;
    input.maxLength = 24;
    input.autocomplete = "off";
    input.setAttribute("list", "known-names");
    input.setAttribute("aria-label", `Player ${index + 1}`);
    input.placeholder = `Player ${index + 1}`;
    input.addEventListener("input", () => {
      start.players[index] = input.value;
      drawDealers();
    });
    const row = el("li", null, "player-field");
    row.append(input);
    if (start.players.length > MIN_PLAYERS) {
      const remove = button("✕", () => {
        start.players.splice(index, 1);
        drawPlayers();
      }, "quiet");
      remove.setAttribute("aria-label", `Remove player ${index + 1}`);
      row.append(remove);
    }
    list.append(row);
  });
  $("add-player").disabled = start.players.length >= most;
  drawDealers();
}

function drawDealers() {
  const names = start.players.map((n) => n.trim()).filter(Boolean);
  if (!names.includes(start.dealer)) start.dealer = "";
  const dealer = select("sheet-dealer", [["", "Draw at random"], ...names.map((n) => [n, n])], start.dealer);
  dealer.addEventListener("change", () => (start.dealer = dealer.value));
  $("sheet-dealer").replaceWith(dealer);
}

function drawMySheets() {
  const list = [...keptSheets(), ...mySheets().map((s) => ({ ...s, href: `/s/${s.code}` }))];
  $("my-sheets").hidden = !list.length;
  $("my-sheet-list").replaceChildren(
    ...list.map((s) => {
      const link = el("a", `${s.title}: ${s.players.join(", ")}`);
      link.href = s.href;
      if (s.href.startsWith("/scorecard#")) link.addEventListener("click", () => setTimeout(() => location.reload()));
      const item = el("li");
      item.append(link);
      return item;
    }),
  );
}

async function startSheet(event, goLocal) {
  event.preventDefault();
  const players = start.players.map((n) => n.trim());
  const body = { preset: start.preset, options: start.options, players, dealer: start.dealer || null };
  $("start-sheet").disabled = true;
  const answer = await api("POST", "/api/sheets", body);
  $("start-sheet").disabled = false;
  if (answer.status === 0) return keepOffline(body, goLocal);
  if (!answer.ok) return problem(answer.data.error);
  remember(answer.data.code, answer.data.token, answer.data.sheet);
  location.assign(`/s/${answer.data.code}`);
}
