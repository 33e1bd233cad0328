// The page's one dialog (a native <dialog>: it keeps the focus inside and closes with Escape), and what
// it shows: a list of moves from the server's legal list, the four suits, the rules, the keys, and the
// link that opens your seat on another device.

import { $, button, copy, el } from "./dom.js";
import { renderSVG } from "./vendor/uqr.js";
import { request } from "./local.js";

const SUIT_WORDS = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
const SUIT_SYMBOLS = { C: "♣", D: "♦", H: "♥", S: "♠" };

let current = null; // {kind, keys} while open

/**
 * Open the dialog (closing any other). `kind` names what it shows, so that the table can close a move
 * dialog that no longer applies; `keys` maps a key (lower case) to what it does while the dialog is open.
 */
export function openDialog({ kind, title, body, keys = {} }) {
  const dialog = $("dialog");
  current = { kind, keys };
  $("dialog-title").textContent = title;
  $("dialog-body").replaceChildren(...body);
  if (!dialog.open) dialog.showModal();
  const first = $("dialog-body").querySelector("button, a[href], input, select");
  (first || $("dialog-close")).focus();
}

/** Close the dialog if it is open (and, with `kind`, only if it shows that). */
export function closeDialog(kind) {
  const dialog = $("dialog");
  if (!dialog.open || (kind && current?.kind !== kind)) return;
  current = null;
  dialog.close();
}

export const dialogKind = () => ($("dialog").open ? current?.kind : null);

export function setUpDialog() {
  const dialog = $("dialog");
  $("dialog-close").addEventListener("click", () => closeDialog());
  dialog.addEventListener("close", () => {
    if (!dialog.open) current = null; // closed by Escape
  });
  dialog.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey || !current) return;
    const run = current.keys[event.key.toLowerCase()];
    if (run) {
      event.preventDefault();
      run();
    }
  });
}

/** A suit's symbol and word, coloured by the four-colour deck: "♥ hearts". */
export function suitBadge(letter) {
  const badge = el("span", null, `suit-badge suit-${letter}`);
  badge.append(el("span", SUIT_SYMBOLS[letter], "symbol"), ` ${SUIT_WORDS[letter]}`);
  return badge;
}

/** Name a suit: a button for each suit move, keys C, D, H, S; `about`: the server's prompt. */
export function suitDialog(about, moves, act) {
  const keys = {};
  const list = el("div", null, "suit-choices");
  for (const move of moves) {
    const choice = button("", () => act(move.action), `suit-choice suit-${move.suit}`);
    choice.append(suitBadge(move.suit), el("kbd", move.suit));
    choice.setAttribute("aria-label", `${SUIT_WORDS[move.suit]} (key ${move.suit})`);
    keys[move.suit.toLowerCase()] = () => act(move.action);
    list.append(choice);
  }
  openDialog({
    kind: "moves",
    title: "Name a suit",
    body: [el("p", about), list],
    keys,
  });
}

/** A numbered list of moves (players to choose, stacks, jacks to drop, cards to bury): keys 1-9. */
export function moveDialog(title, about, moves, act) {
  const keys = {};
  const list = el("ol", null, "move-list");
  moves.forEach((move, index) => {
    const item = el("li");
    const choice = button(move.words, () => act(move.action), "move-choice");
    if (index < 9) {
      choice.prepend(el("kbd", String(index + 1)), " ");
      keys[String(index + 1)] = () => act(move.action);
    }
    item.append(choice);
    list.append(item);
  });
  openDialog({ kind: "moves", title, body: [...(about ? [el("p", about)] : []), list], keys });
}

/** The rules of `preset` with `options` ("k=v" texts), in plain words from the server. */
export async function rulesDialog(preset, options) {
  const query = new URLSearchParams({ preset });
  for (const option of options) query.append("option", option);
  let body;
  try {
    const answer = await request(`/api/rules?${query}`);
    const rules = await answer.json();
    if (!answer.ok) throw new Error(rules.error || "the rules could not be read");
    body = [el("p", rules.heading, "about")];
    for (const section of rules.sections) {
      body.push(el("h3", section.title));
      for (const line of section.lines) body.push(el("p", line));
    }
  } catch (problem) {
    body = [el("p", `The rules could not be shown: ${problem.message}`, "error")];
  }
  openDialog({ kind: "rules", title: "Rules", body });
}

/** The keys and the focus order, from the page's template. */
export function keysDialog() {
  openDialog({ kind: "keys", title: "Keys", body: [$("keys-help").content.cloneNode(true)] });
}

/** A QR code of `link`, drawn here (the link may carry a seat token, which no server should log). */
function qrImage(link, alt) {
  const image = el("img", null, "qr");
  image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(renderSVG(link, { ecc: "M", border: 2 }))}`;
  image.alt = alt;
  image.width = image.height = 200;
  return image;
}

/** A link (with a Copy button) and what Copy says when it worked. */
export function linkRow(link, copied) {
  const row = el("p", null, "link-row");
  const anchor = el("a", link, "link");
  anchor.href = link;
  const status = el("span", "", "copied");
  status.setAttribute("role", "status");
  row.append(
    anchor,
    " ",
    button("Copy", async () => {
      status.textContent = (await copy(link)) ? copied : "Copying is blocked here: select the link instead.";
    }),
    " ",
    status,
  );
  return row;
}

/** "Open my seat on another device": the room's link with the seat token after #, as text and QR. */
export function anotherDeviceDialog(code, token) {
  const link = `${location.origin}/r/${code}#t=${token}`;
  openDialog({
    kind: "device",
    title: "Open my seat on another device",
    body: [
      el("p", "Open this link (or scan the code) on your other device: it plays your seat from there, and this tab stops."),
      el("p", "Anyone with this link can play your seat: share it with nobody.", "warning"),
      linkRow(link, "Copied."),
      qrImage(link, "QR code of the link to your seat"),
    ],
  });
}
