// The round being entered or edited: its form's data, drawing it, and the body a save sends.

import { $, button, el, keepingFocus, labelled } from "../dom.js";
import { cardText } from "./basics.js";
import { openPicker } from "./picker.js";
import { state } from "./state.js";

/** A form for the next round, or for round ``editing`` with what it has. */
export function freshForm(editing = null) {
  const { sheet } = state;
  const hands = {};
  const round = editing ? sheet.rounds[editing - 1] : null;
  for (const name of sheet.players) {
    const left = round ? round.left[name] : undefined;
    if (typeof left === "number") hands[name] = { mode: "points", cards: [], points: String(left) };
    else hands[name] = { mode: "cards", cards: left ? [...left] : [], points: "" };
  }
  const out = round ? round.out : undefined; // undefined: not said yet; null: blocked
  return { round: sheet.next?.round ?? null, editing, out, hands };
}

/** Draw the round's form as ``state.form`` has it. */
export function drawEntry() {
  const { sheet, form } = state;
  const editing = form.editing ? sheet.rounds[form.editing - 1] : null;
  const cards = editing ? editing.hand_size : sheet.next?.hand_size;
  const dealer = editing ? editing.dealer : sheet.next?.dealer;
  const number = editing ? editing.round : sheet.next?.round;
  $("entry-title").textContent = `${editing ? "Edit round" : "Round"} ${number}: ${dealer} dealt ${cards} card${cards === 1 ? "" : "s"}`;
  $("cancel-edit").hidden = !editing;
  $("save-round").textContent = editing ? `Save round ${number}` : "Save round";

  const choices = sheet.players.map((name, index) => outChoice(`out-${index}`, name, name));
  choices.push(outChoice("out-blocked", "Blocked", null));
  $("out-choices").replaceChildren(...choices);

  const hands = $("hands");
  if (form.out === undefined) {
    const then = sheet.keeps_points ? "then give everyone else's cards or points" : "a blocked round needs everyone's cards";
    hands.replaceChildren(el("p", `Tap who went out (or Blocked); ${then}.`, "about"));
    return;
  }
  if (!sheet.keeps_points && form.out !== null) {
    hands.replaceChildren(el("p", "No points in these rules: the player who went out wins the game.", "about"));
    return;
  }
  hands.replaceChildren(
    ...sheet.players.map((name, index) => (name === form.out ? null : handRow(name, index))).filter(Boolean),
  );
}

function outChoice(id, words, value) {
  const choice = button(words, () => {
    state.form.out = value;
    keepingFocus(drawEntry);
  }, "out-choice");
  choice.id = id;
  choice.setAttribute("aria-pressed", String(state.form.out === value));
  return choice;
}

function handRow(name, index) {
  const { sheet, form } = state;
  const hand = form.hands[name];
  const row = el("div", null, "hand-row");
  row.dataset.player = name;
  const head = el("div", null, "hand-head");
  head.append(el("strong", name, "hand-name"));
  const modes = el("div", null, "modes");
  modes.setAttribute("role", "group");
  modes.setAttribute("aria-label", `${name}: cards or points`);
  for (const [mode, words] of [["cards", "Cards"], ["points", "Points"]]) {
    const choice = button(words, () => {
      hand.mode = mode;
      keepingFocus(drawEntry);
    }, "mode");
    choice.id = `mode-${mode}-${index}`;
    choice.setAttribute("aria-pressed", String(hand.mode === mode));
    modes.append(choice);
  }
  head.append(modes);
  row.append(head);
  if (hand.mode === "points") {
    const input = document.createElement("input");
    input.id = `points-${index}`;
    input.inputMode = "numeric";
    input.value = hand.points;
    input.placeholder = "points";
    input.addEventListener("input", () => (hand.points = input.value));
    row.append(labelled(`${name}'s points`, input, "inline points"));
  } else {
    const chosen = el("p", null, "chosen");
    if (hand.cards.length) chosen.append(...hand.cards.map((c) => cardText(c)));
    else chosen.append(el("span", sheet.keeps_points ? "none picked (no cards left: Points, 0)" : "none picked", "about"));
    const pick = button(hand.cards.length ? "Change cards" : "Pick cards", () => openPicker(name, drawEntry), "pick");
    pick.id = `pick-${index}`;
    const line = el("div", null, "cards-line");
    line.append(chosen, pick);
    row.append(line);
  }
  return row;
}

/** What saving the round sends: who went out and the others' cards or points. */
export function roundBody() {
  const { sheet, form, token } = state;
  const left = {};
  for (const name of sheet.players) {
    if (name === form.out) continue;
    if (!sheet.keeps_points && form.out !== null) continue;
    const hand = form.hands[name];
    if (hand.mode === "cards") {
      if (hand.cards.length) left[name] = hand.cards; // none picked: not given (Points 0 says none left)
    }
    else if (hand.points.trim()) left[name] = { points: hand.points.trim() }; // read by the scorecard's rule for points
  }
  return { token, revision: sheet.revision, out: form.out, left };
}
