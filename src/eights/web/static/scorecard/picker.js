// The card picker: the cards left in one player's hand, tapped on the rules' pack (a dialog).

import { $, button, el } from "../dom.js";
import { SUIT_WORDS, cardText, cardWords } from "./basics.js";
import { state } from "./state.js";

let picking = null; // {name, counts: Map, redraw: what draws the round's form again when the picker closes}

/** Open the picker on ``name``'s cards; ``redraw`` draws the round's form again once it closes. */
export function openPicker(name, redraw) {
  picking = { name, counts: new Map(), redraw };
  for (const card of state.form.hands[name].cards) picking.counts.set(card, (picking.counts.get(card) || 0) + 1);
  $("picker-title").textContent = `${name}'s cards left`;
  const box = $("picker-cards");
  box.replaceChildren();
  const groups = new Map();
  for (const card of state.sheet.pack) {
    const key = card.suit || "joker";
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(card);
  }
  for (const [suit, cards] of groups) {
    const group = el("div", null, "picker-suit");
    group.setAttribute("role", "group");
    group.setAttribute("aria-label", suit === "joker" ? "jokers" : SUIT_WORDS[suit]);
    for (const card of cards) group.append(pickerCard(card));
    box.append(group);
  }
  drawChosen();
  const dialog = $("picker");
  dialog.showModal();
  box.querySelector("button")?.focus();
}

function pickerCard({ card, copies }) {
  const node = button("", () => {
    const count = ((picking.counts.get(card) || 0) + 1) % (copies + 1);
    if (count) picking.counts.set(card, count);
    else picking.counts.delete(card);
    markCard(node, card, copies);
    drawChosen();
  }, "pick-card");
  node.append(cardText(card, "face"));
  node.dataset.card = card;
  markCard(node, card, copies);
  return node;
}

function markCard(node, card, copies) {
  const count = picking.counts.get(card) || 0;
  node.setAttribute("aria-pressed", String(count > 0));
  node.setAttribute("aria-label", `${cardWords(card)}${copies > 1 ? `, ${count} of ${copies}` : ""}`);
  node.querySelector(".count")?.remove();
  if (count > 1 || (count && copies > 1)) node.append(el("span", `×${count}`, "count"));
}

function pickedCards() {
  const cards = [];
  for (const { card } of state.sheet.pack) for (let i = 0; i < (picking.counts.get(card) || 0); i++) cards.push(card);
  return cards;
}

function drawChosen() {
  const cards = pickedCards();
  const line = $("picker-chosen");
  line.replaceChildren(el("span", cards.length ? `${cards.length} card${cards.length === 1 ? "" : "s"}: ` : "No cards chosen."));
  line.append(...cards.map((c) => cardText(c)));
}

function closePicker(cards) {
  if (!picking) return;
  const { name, redraw } = picking;
  if (cards) state.form.hands[name].cards = cards;
  picking = null;
  $("picker").close();
  redraw();
  $(`pick-${state.sheet.players.indexOf(name)}`)?.focus();
}

/** "No cards": no card left is 0 points where points are kept (an empty hand is a hand not given). */
function noCards() {
  if (!picking || !state.sheet.keeps_points) return closePicker([]);
  const { name, redraw } = picking;
  Object.assign(state.form.hands[name], { mode: "points", cards: [], points: "0" });
  picking = null;
  $("picker").close();
  redraw();
  $(`points-${state.sheet.players.indexOf(name)}`)?.focus();
}

/** What the picker's buttons (and Esc) do. */
export function setUpPicker() {
  $("picker-done").addEventListener("click", () => closePicker(pickedCards()));
  $("picker-clear").addEventListener("click", noCards);
  $("picker").addEventListener("cancel", () => closePicker(null));
}
