// The table: every seat (name, cards, turn, totals, away), the piles, the active suit and direction, what
// is pending and what you are asked, your hand, and your moves. Every move offered is one of the server's
// `table.legal` moves (a stack: one of the ways it lists), sent back as its `action` text: nothing here
// decides a rule.

import { $, button, el, flash, keepingFocus, saved } from "./dom.js";
import { cardFace } from "./cards.js";
import { showChanges } from "./motion.js";
import { setSound, soundOn } from "./sound.js";
import { reviewButton } from "./review.js";
import { drawCentre, drawSeats, fanOut } from "./felt.js";
import { APP, request } from "./local.js";
import {
  anotherDeviceDialog,
  closeDialog,
  dialogKind,
  keysDialog,
  moveDialog,
  openDialog,
  rulesDialog,
  suitDialog,
} from "./dialogs.js";

const CARD_MOVES = new Set(["play", "drop", "bury"]);
const MARKS = { play: "playable", drop: "drop it", bury: "bury it" };

let autoOpened = null; // the version whose suit or player dialog opened by itself (once, so Escape works)
let shownRoundEnd = null; // the round end last shown (a dialog, once)

const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** Several face-up cards as text (a round end's hands). */
function cardsText(cards) {
  const line = el("span", null, "cards-text");
  if (!cards.length) line.textContent = "no cards";
  for (const card of cards) line.append(el("span", card.text, `suit-${card.suit || "joker"}`), " ");
  return line;
}

/**
 * Every move of the server's `legal`, a play with a `stack` once for each way to play it: its top card with,
 * under it, every count of each stack card from its `least` to its `most` (docs/protocol.md), in the order
 * the server's stacks are written (the stack's cards as listed, the top card last). The first way is the
 * move itself, as the server words it.
 */
export function movesOf(t) {
  const texts = new Map(t.hand.map((card) => [card.code, card.text]));
  const moves = [];
  for (const move of t.legal) {
    if (!move.stack) {
      moves.push(move);
      continue;
    }
    const top = move.cards[0];
    let ways = [[]];
    for (const { card, least, most } of move.stack) {
      ways = ways.flatMap((under) =>
        Array.from({ length: most - least + 1 }, (_, k) => [...under, ...Array(least + k).fill(card)]),
      );
    }
    moves.push(move);
    for (const under of ways.slice(1)) {
      const laid = [...under, top];
      const words = `play ${laid.map((code) => texts.get(code)).join(" ")} (${texts.get(top)} on top)`;
      moves.push({ kind: move.kind, action: `play ${laid.join(" ")}`, words, cards: [top, ...under] });
    }
  }
  return moves;
}

/**
 * Draw the table. `ui` holds {state, seat, hint, lastRoundEnd, busy}; `act(action)` sends a move, `send`
 * any other message.
 */
export function drawTable(ui, act, send) {
  const { room } = ui.state;
  const t = ui.state.table;
  const version = ui.state.version;
  drawSeats(room, t);
  drawCentre(t);
  document.documentElement.classList.toggle("four-colour", saved.choice("four-colour"));

  $("prompt").textContent = t.prompt;
  $("pending").replaceChildren(...t.pending.map((line) => el("li", line)));
  const hint = ui.hint && ui.hint.version === version ? ui.hint : null;
  $("hint-line").hidden = !hint;
  $("hint-line").textContent = hint ? hint.text : "";

  let roundEnd = null;
  if (!t.round_end && t.round === 1) ui.lastRoundEnd = null; // a new match
  if (t.round_end) {
    // kept after the server stops sending it (the next round's first move), to be looked at again
    ui.lastRoundEnd = { names: t.names, end: t.round_end, score: t.score_keeping };
    const key = JSON.stringify([room.code, t.round_end.round, t.round_end.hands.map((h) => h.map((c) => c.code))]);
    if (shownRoundEnd !== key) roundEnd = shownRoundEnd = key;
  }

  const moves = movesOf(t);
  const moveKey = moves.map((m) => m.action).join("|");
  if (dialogKind() === "moves" && $("dialog").dataset.moves !== moveKey) closeDialog("moves");
  // each part is drawn again only when what it shows changed (a screen reader hears no repeats)
  keepingFocus(() => {
    const handKey = [t.seat, t.hand.map((c) => c.code), moveKey, t.drawn?.code, hint?.action];
    if (changed("hand", handKey)) drawHand(t, moves, hint, act, moveKey);
    if (changed("moves", moveKey)) drawMoves(t, moves, act, moveKey);
    if (changed("tools", [room.code, t.seat, t.legal.length > 0, ui.lastRoundEnd?.end.round])) drawTools(ui, send);
  });
  $("table").classList.toggle("busy", ui.busy === version);

  const askNow = moves.filter((m) => m.kind === "suit" || m.kind === "choose");
  if (roundEnd) roundEndDialog(ui.lastRoundEnd);
  else if (askNow.length && autoOpened !== version && !$("dialog").open) {
    autoOpened = version;
    openMoves(askNow[0].kind, t, moves, act, moveKey);
  }
  drawResult(ui, room, t, act, send);
  showChanges(room.code, t);
}

/** Whether `key` differs from what the element `id` was last drawn from (and remember it). */
function changed(id, key) {
  const text = JSON.stringify(key);
  const node = $(id);
  if (node.dataset.drawnFrom === text) return false;
  node.dataset.drawnFrom = text;
  return true;
}

/** Your hand: each card a button with its spoken label; a card some move uses is raised and marked. */
function drawHand(t, moves, hint, act, moveKey) {
  const hand = $("hand");
  $("hand-area").hidden = t.seat === null;
  $("watching").hidden = t.seat !== null;
  const uses = new Map();
  for (const move of moves) {
    if (!CARD_MOVES.has(move.kind)) continue;
    for (const code of new Set(move.cards)) {
      // (a card of several packs may be in a stack twice: the way is listed once)
      if (!uses.has(code)) uses.set(code, []);
      uses.get(code).push(move);
    }
  }
  const before = [...hand.children];
  const focusedAt = before.indexOf(document.activeElement);
  const focused = focusedAt >= 0 ? before[focusedAt].dataset.code : null;
  const cards = t.hand.map((card) => {
    const node = cardFace(card, el("button"));
    node.type = "button";
    node.dataset.code = card.code;
    node.tabIndex = -1;
    const ways = uses.get(card.code) || [];
    let label = `${card.label}, ${card.text}`; // its words and what it shows: a voice that says "Q♣" finds it
    if (ways.length) {
      const alone = ways.find((m) => m.cards.length === 1);
      node.classList.add("marked");
      node.prepend(el("span", "▲", "mark"));
      label += alone ? `, ${MARKS[alone.kind]}` : ", playable with other cards";
      if (ways.length > 1) label += ` (${ways.length} ways)`;
      // one card alone: at once; a stack, or a choice of ways: from a list
      node.addEventListener("click", () =>
        ways.length === 1 && alone
          ? act(alone.action)
          : openMovesFor(`Play ${card.text}`, "Choose how to play it:", ways, act, moveKey),
      );
    } else {
      node.setAttribute("aria-disabled", "true");
    }
    if (t.drawn && t.drawn.code === card.code) {
      node.classList.add("drawn");
      label += ", just drawn";
    }
    if (hint && ways.some((m) => m.action === hint.action)) node.classList.add("hinted");
    node.setAttribute("aria-label", label);
    return node;
  });
  hand.replaceChildren(...cards);
  fanOut(hand, cards);
  const again = focused && (cards.find((c) => c.dataset.code === focused) || cards[Math.min(focusedAt, cards.length - 1)]);
  const start = again || cards.find((c) => c.classList.contains("marked")) || cards[0];
  if (start) start.tabIndex = 0;
  if (again) again.focus({ preventScroll: true });
  $("hand-title").textContent = `Your hand: ${plural(t.hand.length, "card")}`;
}

/** Arrow keys, Home and End move between the cards of your hand (one Tab stop for the whole hand). */
export function setUpHandKeys() {
  $("hand").addEventListener("keydown", (event) => {
    const cards = [...$("hand").querySelectorAll("button.card")];
    const at = cards.indexOf(document.activeElement);
    if (at < 0) return;
    const to = { ArrowLeft: at - 1, ArrowUp: at - 1, ArrowRight: at + 1, ArrowDown: at + 1, Home: 0, End: cards.length - 1 }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    const next = cards[Math.max(0, Math.min(cards.length - 1, to))];
    for (const card of cards) card.tabIndex = card === next ? 0 : -1;
    next.focus();
  });
}

function openMovesFor(title, about, moves, act, moveKey) {
  moveDialog(title, about, moves, act);
  $("dialog").dataset.moves = moveKey;
}

/** The dialog for a kind of move: a suit to name, a player to choose, a stack, a jack to drop, a card to bury. */
function openMoves(kind, t, moves, act, moveKey) {
  const these = moves.filter((m) => m.kind === kind && (kind !== "play" || m.cards.length > 1));
  if (kind === "suit") {
    suitDialog(t.prompt, these, act);
    $("dialog").dataset.moves = moveKey;
    return;
  }
  const titles = { choose: "Choose a player", play: "Play several cards", drop: "Drop a jack", bury: "Bury a card" };
  openMovesFor(titles[kind], t.prompt, these, act, moveKey);
}

/** The moves that are not a tap on one card: draw, pass, and the dialogs for the rest. */
function drawMoves(t, moves, act, moveKey) {
  const buttons = [];
  const stacks = moves.filter((m) => m.kind === "play" && m.cards.length > 1);
  const opener = (kind, words, id) => {
    const node = button(words, () => openMoves(kind, t, moves, act, moveKey));
    node.id = id;
    return node;
  };
  if (stacks.length) buttons.push(opener("play", `Play several cards… (${stacks.length})`, "move-stack"));
  for (const [kind, words] of [
    ["suit", "Name a suit…"],
    ["choose", "Choose a player…"],
    ["drop", "Drop a jack…"],
    ["bury", "Bury a card…"],
  ]) {
    if (moves.some((m) => m.kind === kind)) buttons.push(opener(kind, words, `move-${kind}`));
  }
  for (const move of moves) {
    if (move.kind === "draw" || move.kind === "pass") {
      const node = button(move.words, () => act(move.action), "move");
      node.id = `move-${move.kind}`;
      node.append(" ", el("kbd", move.kind[0]));
      node.setAttribute("aria-keyshortcuts", move.kind[0]);
      buttons.push(node);
    } else if (!["play", "suit", "choose", "drop", "bury"].includes(move.kind)) {
      buttons.push(button(move.words, () => act(move.action), "move")); // a kind this page does not know yet
    }
  }
  $("moves").replaceChildren(...buttons);
}

function drawTools(ui, send) {
  const { room, table: t } = ui.state;
  const tools = [];
  if (t.legal.length) {
    const hint = button("Hint", () => send({ type: "hint" }));
    hint.id = "tool-hint";
    hint.append(" ", el("kbd", "h"));
    tools.push(hint);
  }
  const rules = button("Rules", () => rulesDialog(room.preset, room.options));
  rules.id = "tool-rules";
  rules.append(" ", el("kbd", "r"));
  tools.push(rules);
  if (ui.lastRoundEnd) {
    const last = button("Last round's end", () => roundEndDialog(ui.lastRoundEnd));
    last.id = "tool-round";
    tools.push(last);
  }
  const keys = button("Keys", keysDialog);
  keys.id = "tool-keys";
  keys.append(" ", el("kbd", "?"));
  tools.push(keys);
  tools.push(toggle("tool-colours", "Four-colour deck", () => saved.choice("four-colour"), (on) => {
    saved.setChoice("four-colour", on);
    document.documentElement.classList.toggle("four-colour", on);
  }));
  tools.push(toggle("tool-sound", "Sound", soundOn, setSound));
  if (t.seat !== null && !APP) {
    const token = seatToken(room, t);
    const device = button("Open my seat on another device", () => anotherDeviceDialog(room.code, token));
    device.id = "tool-device";
    tools.push(device);
  }
  if (t.result && t.seat !== null) {
    // Only once the match is over, and only for its players: the record's seed deals every hand.
    const record = button("Download the record", () => downloadRecord(room.code, saved.token(room.code)));
    record.id = "tool-record";
    record.className = "record";
    tools.push(record);
  }
  $("tools").replaceChildren(...tools);
}

/** The token of the seat on screen: with people here (pass and play), of the one whose turn it is. */
function seatToken(room, t) {
  return saved.here(room.code).find((s) => s.seat === t.seat)?.token || saved.token(room.code);
}

/** A switch kept on this device: a button pressed or not (`aria-pressed`). */
function toggle(id, words, isOn, set) {
  const node = button(words, () => {
    const on = !isOn();
    set(on);
    node.setAttribute("aria-pressed", String(on));
  });
  node.id = id;
  node.classList.add("toggle");
  node.setAttribute("aria-pressed", String(isOn()));
  return node;
}

/** The finished match's record as a file (`eights replay` reads it), asked for with the seat's token. */
async function downloadRecord(code, token) {
  const answer = await request(`/api/rooms/${code}/record`, { headers: { "X-Seat-Token": token || "" } });
  if (!answer.ok) {
    const { error } = await answer.json().catch(() => ({ error: "the record could not be had" }));
    flash(error);
    return;
  }
  const name = /filename="([^"]+)"/.exec(answer.headers.get("Content-Disposition") || "")?.[1] || `eights-${code}.json`;
  const link = el("a");
  link.href = URL.createObjectURL(await answer.blob());
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10000);
}

/** The match's end: the server's lines, the review of your decisions, the rematch (the host), a new game. */
function drawResult(ui, room, t, act, send) {
  const box = $("result");
  box.hidden = !t.result;
  // the host's, or any seat's while the host's seat is at this device too (pass and play)
  const host = t.seat !== null && (t.seat === room.host_seat || Boolean(ui.hostHere));
  const here = ui.here || []; // each person at this device (pass and play): to see their own result
  if (!t.result || !changed("result", [t.result, host, t.seat, here.map((p) => p.seat)])) return;
  const parts = [el("h2", t.result.lines[0]), ...t.result.lines.slice(1).map((line) => el("p", line.trim()))];
  if (here.length > 1) {
    const people = el("div", null, "buttons people-here");
    people.setAttribute("role", "group");
    people.setAttribute("aria-label", "Whose hand and review this shows");
    for (const person of here) {
      const pick = button(person.name, person.pick, "toggle");
      pick.id = `here-${person.seat}`;
      pick.setAttribute("aria-pressed", String(person.shown));
      people.append(pick);
    }
    parts.push(el("p", "Everyone at this phone: each sees their hand and reviews their own decisions.", "about"), people);
  }
  const buttons = el("div", null, "buttons");
  if (t.seat !== null && !APP) buttons.append(reviewButton(room.code, seatToken(room, t), room, () => drawTable(ui, act, send)));
  if (host) {
    const again = button("Rematch", () => send({ type: "rematch" }), "primary");
    again.id = "rematch";
    buttons.append(again);
  } else {
    parts.push(el("p", "The host may start a rematch at this table.", "about"));
  }
  const home = el("a", "New game", "button-link");
  home.href = APP ? "./" : "/";
  buttons.append(home);
  parts.push(buttons);
  keepingFocus(() => box.replaceChildren(...parts));
}

/** A round's end: every hand, its points and the totals, and the next round's deal. */
function roundEndDialog({ names, end, score }) {
  const table = el("table", null, "round-end");
  const head = el("tr");
  const values = score && end.values; // each hand's value: where the points come from
  for (const words of ["Player", "Cards left", ...(values ? ["Value"] : []), ...(score ? ["Points", "Total"] : [])]) head.append(el("th", words));
  table.append(head);
  names.forEach((name, seat) => {
    const row = el("tr", null, end.winners.includes(seat) ? "winner" : "");
    row.append(el("th", end.winners.includes(seat) ? `${name} ★` : name));
    const hand = el("td");
    hand.append(cardsText(end.hands[seat]));
    row.append(hand);
    if (values) row.append(el("td", String(end.values[seat])));
    if (score) row.append(el("td", `${end.points[seat] > 0 ? "+" : ""}${end.points[seat]}`), el("td", String(end.totals[seat])));
    table.append(row);
  });
  const body = [table];
  if (values && end.scoring) body.push(el("p", `Scoring: ${end.scoring}.`, "about"));
  if (end.next) body.push(el("p", end.lines.at(-1), "headline"));
  openDialog({ kind: "round", title: end.lines[0], body });
}
