// Small things the score sheet's modules share: the line saying what went wrong, asking the server, and a
// card as text.

import { $, el } from "../dom.js";

const SUIT_SYMBOLS = { C: "♣", D: "♦", H: "♥", S: "♠" };
export const SUIT_WORDS = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };

/** The one line saying what went wrong, until the next thing works (or a tap hides it). */
export function problem(text) {
  const line = $("problem");
  line.textContent = text;
  line.hidden = !text;
  line.onclick = () => problem("");
}

/** Ask the server; the answer is {ok, status, data}, with a refusal's one line as data.error. */
export async function api(method, path, body) {
  let response;
  try {
    response = await fetch(path, {
      method,
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    return { ok: false, status: 0, data: { error: "the server cannot be reached: check the connection and try again" } };
  }
  let data = {};
  try {
    data = await response.json();
  } catch {
    data = {};
  }
  if (!response.ok && !data.error) {
    const detail = Array.isArray(data.detail) ? data.detail[0] : null;
    data.error = detail ? `${detail.loc.slice(1).join(" ")}: ${detail.msg}` : `the server said ${response.status}`;
  }
  return { ok: response.ok, status: response.status, data };
}

/** A card's face as text: rank and suit symbol, coloured by suit; a joker by its name. */
export function cardText(text, className = "card-text") {
  const suit = /[CDHS]$/.test(text) && text.length > 1 ? text.slice(-1) : null;
  const node = el("span", suit ? text.slice(0, -1) + SUIT_SYMBOLS[suit] : text, `${className} suit-${suit || "joker"}`);
  return node;
}

export function cardWords(text) {
  const suit = /[CDHS]$/.test(text) && text.length > 1 ? text.slice(-1) : null;
  return suit ? `${text.slice(0, -1)} of ${SUIT_WORDS[suit]}` : text === "GJ" ? "Guarantee Joker" : "joker";
}
