// The cards' pictures, drawn here in SVG (no third-party deck): a face has its corner index (rank and suit
// symbol, as text, so it reads at any size and is what the card's text says), pips or a court figure, and
// each joker its own picture (the Guarantee Joker in gold with a shield, the plain one in purple with a
// jester's star). Suits keep their symbol and their colour; the colours come from the page's style (two
// colours, or four with the four-colour deck). The back is back.svg beside the style sheet, a CSS background.

import { el } from "./dom.js";

const NS = "http://www.w3.org/2000/svg";
const W = 60; // the face's drawing units: 60 × 84, a card's 5:7
const H = 84;

/** The suits' symbols as shapes in a 10 × 10 box (font-free, so every phone draws them the same). */
const SHAPES = {
  H: ["path", { d: "M5 9.6C3.6 8.3.4 6 .4 3.3.4 1.6 1.7.4 3 .4c1 0 1.7.6 2 1.5.3-.9 1-1.5 2-1.5 1.3 0 2.6 1.2 2.6 2.9C9.6 6 6.4 8.3 5 9.6z" }],
  D: ["path", { d: "M5 .2 9 5 5 9.8 1 5z" }],
  S: ["path", { d: "M5 .2C3.6 2 .4 4 .4 6.2c0 1.3 1 2.2 2.3 2.2.9 0 1.6-.4 2-1-.1 1-.6 1.8-1.4 2.4h3.4C5.9 9.2 5.4 8.4 5.3 7.4c.4.6 1.1 1 2 1 1.3 0 2.3-.9 2.3-2.2C9.6 4 6.4 2 5 .2z" }],
  C: ["path", { d: "M5 .3a2.2 2.2 0 0 0-1.8 3.5A2.2 2.2 0 1 0 4.6 7.3c-.1.9-.6 1.7-1.3 2.4h3.4c-.7-.7-1.2-1.5-1.3-2.4a2.2 2.2 0 1 0 1.4-3.5A2.2 2.2 0 0 0 5 .3z" }],
};

/** Where the pips go for each number card (in face units; those below the middle stand upside down). */
const L = 22.5, M = 30, R = 37.5;
const PIPS = {
  2: [[M, 17], [M, 67]],
  3: [[M, 17], [M, 42], [M, 67]],
  4: [[L, 17], [R, 17], [L, 67], [R, 67]],
  5: [[L, 17], [R, 17], [M, 42], [L, 67], [R, 67]],
  6: [[L, 17], [R, 17], [L, 42], [R, 42], [L, 67], [R, 67]],
  7: [[L, 17], [R, 17], [M, 29.5], [L, 42], [R, 42], [L, 67], [R, 67]],
  8: [[L, 17], [R, 17], [M, 29.5], [L, 42], [R, 42], [M, 54.5], [L, 67], [R, 67]],
  9: [[L, 17], [R, 17], [L, 33.7], [R, 33.7], [M, 42], [L, 50.3], [R, 50.3], [L, 67], [R, 67]],
  10: [[L, 17], [R, 17], [M, 25.3], [L, 33.7], [R, 33.7], [L, 50.3], [R, 50.3], [M, 58.7], [L, 67], [R, 67]],
};

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(NS, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  node.append(...children);
  return node;
}

/** A suit's shape, `size` units wide, centred on (x, y), upside down when `flip`. */
function pip(suit, x, y, size = 10, flip = false) {
  const [tag, attrs] = SHAPES[suit];
  const s = size / 10;
  const turn = flip ? ` rotate(180 ${x} ${y})` : "";
  return svg(tag, { ...attrs, transform: `${turn} translate(${x - size / 2} ${y - size / 2}) scale(${s})`.trim() });
}

/** A court card's figure: a panel, a crown (king), a coronet (queen) or a cap (jack), the suit, the letter. */
function court(rank, suit) {
  const g = svg("g");
  g.append(svg("rect", { x: 15, y: 11, width: 30, height: 62, rx: 3, class: "court-panel" }));
  const headwear = {
    K: "M21 34 21 22 25.5 28 30 19 34.5 28 39 22 39 34z",
    Q: "M21 34c0-6 2-10 4-10s1 4 5 4 3-4 5-4 4 4 4 10z",
    J: "M21 34c2-9 7-13 13-13 3 0 5 2 6 4-3 0-4 1-5 3l4 6z",
  }[rank];
  g.append(svg("path", { d: headwear, class: "court-crown" }));
  g.append(svg("circle", { cx: 30, cy: 42, r: 7.5, class: "court-face" }));
  g.append(svg("path", { d: "M19 72c0-12 4-19 11-19s11 7 11 19z", class: "court-robe" }));
  g.append(pip(suit, 30, 63, 9));
  return g;
}

/** A joker's picture: the plain one a purple star, the Guarantee Joker a gold shield with a G. */
function joker(code) {
  const g = svg("g");
  if (code === "GJ") {
    g.append(svg("rect", { x: 8, y: 8, width: 44, height: 68, rx: 4, class: "gj-frame" }));
    g.append(svg("path", { d: "M30 20 45 26c0 14-5 25-15 32-10-7-15-18-15-32z", class: "gj-shield" }));
  } else {
    const star = [];
    for (let i = 0; i < 10; i++) {
      const r = i % 2 ? 7 : 16;
      const a = (Math.PI / 5) * i - Math.PI / 2;
      star.push(`${(30 + r * Math.cos(a)).toFixed(1)} ${(40 + r * Math.sin(a)).toFixed(1)}`);
    }
    g.append(svg("path", { d: `M${star.join("L")}z`, class: "jk-star" }));
    g.append(svg("circle", { cx: 30, cy: 40, r: 4, class: "jk-eye" }));
  }
  return g;
}

/** The picture of a face (decorative: the card's words are its label, its index its text). */
function facePicture(card) {
  const picture = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "face", "aria-hidden": "true", focusable: "false" });
  if (!card.suit) {
    picture.append(joker(card.code));
    return picture;
  }
  const rank = card.text.slice(0, -1);
  if (PIPS[rank]) {
    for (const [x, y] of PIPS[rank]) picture.append(pip(card.suit, x, y, 10, y > 42));
  } else if (rank === "A") {
    picture.append(pip(card.suit, 30, 42, 26));
  } else {
    picture.append(court(rank, card.suit));
  }
  // the index again in the far corner, upside down, as on a real card (its rank drawn by the style: below)
  const corner = svg("g", { transform: `rotate(180 ${W / 2} ${H / 2})`, class: "far-index" });
  corner.append(pip(card.suit, 6.5, 20, 7));
  picture.append(corner);
  return picture;
}

/** Words drawn on the picture: the style writes them (`content: attr(data-words)`), so that the card's only
 * text is its index, which its spoken label repeats (a voice that says what it sees names the card). */
function drawnWords(words, kind) {
  const node = el("span", null, `drawn-words ${kind}`);
  node.dataset.words = words;
  node.setAttribute("aria-hidden", "true");
  return node;
}

/**
 * Make `node` (a span or a button) a face-up card: the picture, then the corner index as text (a `.rank`
 * and a `.pip`: the suit's symbol; a joker's index is its short name).
 */
export function cardFace(card, node) {
  node.classList.add("card", "face-up", `suit-${card.suit || "joker"}`);
  if (!card.suit) node.classList.add(`joker-${card.code}`);
  const index = el("span", null, "index");
  if (card.suit) index.append(el("span", card.text.slice(0, -1), "rank"), el("span", card.text.slice(-1), "pip"));
  else index.append(el("span", card.text, "rank"));
  node.append(facePicture(card), index);
  if (card.suit) node.append(drawnWords(card.text.slice(0, -1), "far-rank"));
  else if (card.code === "GJ") node.append(drawnWords("G", "gj-letter"), drawnWords("GUARANTEE", "joker-word"));
  else node.append(drawnWords("JOKER", "joker-word"));
  return node;
}

/** A card back (a hidden card: no label, hidden from screen readers). */
export function cardBack() {
  const back = el("span", null, "card back");
  back.setAttribute("aria-hidden", "true");
  return back;
}
