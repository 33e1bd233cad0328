// The felt, as the table and the review draw it: the seats around the oval (name, level, cards as a small fan
// of backs, score, turn, away ring), the stock, the pile and what the top card asks, and a hand fanned to fit
// its row. The table (table.js) and the review (review.js) both draw with it; neither imports the other.

import { $, el } from "./dom.js";
import { cardBack, cardFace } from "./cards.js";
import { skipShown } from "./motion.js";
import { suitBadge } from "./dialogs.js";

const awayUntil = new Map(); // "code/seat" -> {left, until}: the server's seconds left, and when (this page's clock) they run out

const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** Where seat `k` places from yours (clockwise) sits on the oval, in % of the felt: yours at the bottom. */
function place(k, seats) {
  const angle = Math.PI / 2 + (2 * Math.PI * k) / seats;
  return [50 + 44 * Math.cos(angle), 50 + 48 * Math.sin(angle)];
}

/** The seats around the oval: name, level, cards as a small fan of backs, score, turn, away ring. */
export function drawSeats(room, t) {
  const partner = new Map();
  for (const [a, b] of t.teams) {
    partner.set(a, b);
    partner.set(b, a);
  }
  const seats = t.names.length;
  const mine = t.seat ?? 0;
  $("felt").dataset.seats = String(seats);
  const items = t.names.map((name, seat) => {
    const info = room.seats[seat] || {};
    const item = el("li", null, "seat");
    const [x, y] = place((seat - mine + seats) % seats, seats);
    // across: the seat's middle, kept inside the felt; down: the seat's own point at the same fraction of
    // its height as its place is of the felt's (the top seat hangs from the top, yours stands on the bottom)
    item.style.left = `clamp(var(--seat-half), ${x.toFixed(1)}%, calc(100% - var(--seat-half)))`;
    item.style.top = `${y.toFixed(1)}%`;
    item.style.transform = `translate(-50%, -${y.toFixed(1)}%)`;
    const toAct = seat === t.to_act && !t.result;
    if (toAct) {
      item.classList.add("turn");
      item.setAttribute("aria-current", "true");
    }
    if (seat === t.seat) item.classList.add("mine");
    const head = el("span", null, "seat-head");
    head.append(el("span", name, "seat-name"));
    if (seat === t.seat) head.append(el("span", " (you)", "tag"));
    item.append(head);
    const about = el("span", null, "seat-about tag");
    if (info.kind === "computer") about.append(el("span", "computer, ", "sr-only"), el("span", info.level, "level"));
    if (seat === t.dealer) about.append(el("span", about.childNodes.length ? " · deals" : "deals")); // no dot before nothing
    if (about.childNodes.length) item.append(about);
    const facts = el("span", null, "seat-facts");
    if (toAct) facts.append(el("span", "▶ to play", "to-act"));
    const fan = el("span", null, "fan");
    fan.setAttribute("aria-hidden", "true");
    for (let i = 0; i < Math.min(t.counts[seat], 5); i++) fan.append(cardBack());
    const count = el("span", null, "count");
    count.append(plural(t.counts[seat], "card"));
    facts.append(fan, count);
    if (t.score_keeping) facts.append(el("span", plural(t.totals[seat], "point"), "points"));
    if (partner.has(seat)) facts.append(el("span", `team with ${t.names[partner.get(seat)]}`, "tag"));
    item.append(facts);
    const mark = el("span", "skipped", "skip-mark");
    mark.setAttribute("aria-hidden", "true");
    item.append(mark);
    if (skipShown(room.code, seat)) item.classList.add("skipped"); // still marked, through the next states
    const awayKey = `${room.code}/${seat}`;
    if (info.stand_in) {
      item.append(el("span", "Away: a computer (normal) plays for them until they are back.", "away"));
    } else if (info.kind === "person" && !info.connected) {
      item.append(el("span", "Away (not connected).", "away"));
    }
    // the away countdown, on the seat to act while its person is away: from the server's seconds left
    if (toAct && room.away_left != null) {
      const known = awayUntil.get(awayKey);
      if (!known || known.left !== room.away_left) awayUntil.set(awayKey, { left: room.away_left, until: Date.now() + room.away_left * 1000 });
      item.classList.add("waiting");
      item.dataset.awayUntil = String(awayUntil.get(awayKey).until);
      item.dataset.awayFor = String(room.away_seconds);
    } else {
      awayUntil.delete(awayKey);
    }
    return item;
  });
  $("seats").replaceChildren(...items);
  awayRings();
}

/** The away countdown: a ring on the seat that fills as the person's time away runs out. */
function awayRings() {
  for (const item of document.querySelectorAll("#seats .seat.waiting")) {
    const left = Math.max(0, Number(item.dataset.awayUntil) - Date.now()) / 1000;
    item.style.setProperty("--away", String(Math.min(1, 1 - left / Number(item.dataset.awayFor)).toFixed(3)));
  }
}
setInterval(awayRings, 1000);

export function drawCentre(t) {
  $("top-card").hidden = !t.top;
  $("stock-count").textContent = `${t.stock} in stock`;
  if (t.top) {
    const top = cardFace(t.top, el("span"));
    top.setAttribute("role", "img");
    top.setAttribute("aria-label", `top card: ${t.top.label}`);
    $("top-card").replaceChildren(top);
  }
  const suit = $("suit");
  if (t.active_suit) suit.replaceChildren(t.suit_named ? "Named suit: " : "Suit: ", suitBadge(t.active_suit));
  else suit.replaceChildren("Suit: none yet");
  // an 8 named the suit: shown on the pile itself (its words are said in #suit)
  const named = $("pile-suit");
  named.hidden = !(t.suit_named && t.active_suit);
  if (!named.hidden) named.replaceChildren(suitBadge(t.active_suit));
  const arrow = t.direction === 1 ? "↻" : "↺";
  $("direction").textContent = `Play goes ${t.direction === 1 ? "clockwise" : "counter-clockwise"} ${arrow}`;
  $("marker").textContent = arrow; // motion.js turns it over when a card reverses play
  const chain = t.chain;
  $("chain").hidden = !chain;
  $("chain").textContent = chain ? `+${chain}` : "";
  let round = `Round ${t.round}${t.rounds ? ` of ${t.rounds}` : ""}: ${plural(t.hand_size, "card")} dealt`;
  if (t.score_keeping) round += ` · ${t.lowest_wins ? "lowest" : "highest"} total wins`;
  $("round").textContent = round;
}

/** Fan the hand: the cards overlap so a row fits the width (each still shows its index), tilted a little. */
export function fanOut(hand, cards) {
  const room = hand.clientWidth - 12; // a little to spare: rounding must not push the last card to a new row
  const width = cards[0]?.offsetWidth || 50;
  const least = Math.max(30, width * 0.55); // how much of each card shows, at the least
  const perRow = Math.max(1, Math.min(cards.length, Math.floor((room - width) / least) + 1));
  const step = perRow > 1 ? Math.min(width + 4, (room - width) / (perRow - 1)) : width;
  hand.style.setProperty("--overlap", `${Math.max(0, width - step).toFixed(1)}px`);
  cards.forEach((card, i) => {
    const at = i % perRow;
    const inRow = Math.min(perRow, cards.length - i + at);
    const tilt = inRow > 1 ? ((at - (inRow - 1) / 2) / inRow) * 14 : 0;
    card.style.setProperty("--tilt", `${tilt.toFixed(1)}deg`);
    card.style.setProperty("--arc", `${(Math.abs(tilt) * 0.25).toFixed(2)}rem`);
  });
}
