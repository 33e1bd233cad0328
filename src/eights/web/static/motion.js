// What moved, told from two successive `state`s of the same seat (and the new lines of narration), shown as
// motion: a played card flies from its seat to the pile, a drawn card from the stock to its hand, a new
// deal is dealt, the direction marker turns over once for each reverse, a skipped seat is marked (and stays
// marked for a moment through the states that follow), a chain's count pops as it grows. Only transforms
// and opacity move (Web Animations: no layout while a card flies), and nothing moves under
// prefers-reduced-motion. The states say what happened; nothing here decides a rule.

import { $ } from "./dom.js";
import { cardBack, cardFace } from "./cards.js";
import { play as sound } from "./sound.js";

const calm = matchMedia("(prefers-reduced-motion: reduce)");
const FLIGHT = 380; // ms a card takes from one place to another
const TURN_OVER = 450; // ms the direction marker takes to turn over
const SKIP_SHOWN = 1800; // ms a skipped seat stays marked
const skipUntil = new Map(); // "code/seat" → when its skip mark goes

let before = null; // the last table seen: {key, t}

/** The element a seat's cards come from or go to: your hand for your seat, else the seat. */
function seatBox(t, seat) {
  if (seat === t.seat && !$("hand-area").hidden) return $("hand");
  return $("seats").children[seat] || null;
}

/** A card (`node`) flying from `from` (an element) onto `to` (an element), `delay` ms from now. */
function fly(node, from, to, delay = 0) {
  if (!from || !to) return;
  const a = from.getBoundingClientRect();
  const b = to.getBoundingClientRect();
  if (!b.width || !a.width) return;
  node.classList.add("flying");
  const width = 56;
  const height = 78;
  node.style.width = `${width}px`;
  node.style.height = `${height}px`;
  node.style.left = `${b.left + b.width / 2 - width / 2}px`;
  node.style.top = `${b.top + b.height / 2 - height / 2}px`;
  document.body.append(node);
  const dx = a.left + a.width / 2 - (b.left + b.width / 2);
  const dy = a.top + a.height / 2 - (b.top + b.height / 2);
  const flight = node.animate(
    [
      { transform: `translate(${dx}px, ${dy}px) scale(.6) rotate(-12deg)`, opacity: 0.2 },
      { transform: "translate(0, 0) scale(1) rotate(0)", opacity: 1 },
    ],
    { duration: FLIGHT, delay, easing: "cubic-bezier(.2,.7,.3,1)", fill: "backwards" },
  );
  flight.finished.then(() => node.remove(), () => node.remove());
}

/** Every card in flight gone at once (the screen is about to hide the table). */
export function stopMotion() {
  for (const node of document.querySelectorAll(".flying")) node.remove();
}

/** A short pop of `node` (a skip's mark, a chain's count); its animation. */
export function pop(node) {
  return node.animate([{ transform: "scale(1.3)" }, { transform: "scale(1)" }], { duration: 320, easing: "ease-out" });
}

/**
 * Show what changed since the last state of this room seen from this seat. Called once the table is drawn,
 * so every element is where it ends.
 */
export function showChanges(code, t) {
  const key = `${code}/${t.seat}`;
  const last = before && before.key === key ? before.t : null;
  before = { key, t };
  if (!last) return;
  const moving = !calm.matches;
  const freshDeal =
    t.round !== last.round || (last.result && !t.result) || (last.round_end && !t.round_end && t.counts.every((n) => n === t.hand_size));
  if (freshDeal) {
    if (moving) deal(t);
    sound("draw");
    markSkipped(code, t, moving); // a starter that skips
  } else {
    const played = t.discard_count > last.discard_count || t.top?.code !== last.top?.code;
    if (played && t.top) {
      const fewer = t.counts.map((n, seat) => (n < last.counts[seat] ? seat : -1)).filter((seat) => seat >= 0);
      const by = fewer.includes(last.to_act) ? last.to_act : fewer[0];
      if (moving && by !== undefined) fly(cardFace(t.top, document.createElement("span")), seatBox(t, by), $("top-card"));
      sound("play");
    }
    const more = t.counts.map((n, seat) => n - (last.counts[seat] || 0));
    if (more.some((n) => n > 0)) sound("draw");
    if (moving) drawn(t, last, more);
    if (played) markSkipped(code, t, moving);
    if (played && t.reversed && moving) turnOver($("marker"), t.reversed);
  }
  if (t.chain > last.chain && moving) pop($("chain"));
  if (t.legal.length && !last.legal.length) sound("turn");
  if (t.round_end && !last.round_end) sound("end");
}

/** Whether seat `seat` of room `code` is still marked as skipped (the seats are drawn again at each state). */
export function skipShown(code, seat) {
  return (skipUntil.get(`${code}/${seat}`) || 0) > Date.now();
}

/** Mark the seats the last card to reach the pile skipped (the server says which) for a moment. */
function markSkipped(code, t, moving) {
  for (const seat of t.skipped) {
    const box = $("seats").children[seat];
    if (!box) continue;
    const key = `${code}/${seat}`;
    skipUntil.set(key, Date.now() + SKIP_SHOWN);
    box.classList.add("skipped");
    if (moving) pop(box.querySelector(".skip-mark"));
    setTimeout(() => {
      if (skipShown(code, seat)) return; // skipped again meanwhile
      skipUntil.delete(key);
      $("seats").children[seat]?.classList.remove("skipped");
    }, SKIP_SHOWN);
  }
}

/**
 * The direction marker turned over `times` times, a half-turn about its upright axis each: seen from
 * behind, the new arrow is the old one, so it turns from the old direction into the new (twice: back again).
 */
function turnOver(marker, times) {
  return marker.animate([{ transform: `perspective(8rem) rotateY(${180 * times}deg)` }, { transform: "perspective(8rem) rotateY(0)" }], {
    duration: TURN_OVER * Math.min(times, 3),
    easing: "ease-in-out",
  });
}

/** Cards drawn: a back from the stock to each seat that has more, your new cards face up into your hand. */
function drawn(t, last, more) {
  const had = new Set(last.hand.map((card) => card.code));
  more.forEach((n, seat) => {
    if (n <= 0) return;
    if (seat === t.seat) {
      const fresh = [...$("hand").children].filter((node) => !had.has(node.dataset.code)).slice(0, 6);
      fresh.forEach((node, i) => {
        const card = t.hand.find((c) => c.code === node.dataset.code);
        if (card) fly(cardFace(card, document.createElement("span")), $("stock"), node, i * 90);
      });
    } else {
      for (let i = 0; i < Math.min(n, 6); i++) fly(cardBack(), $("stock"), $("seats").children[seat], i * 90);
    }
  });
}

/** A new deal: a card to each seat in turn from the stock, a few rounds of it (each flight a transform). */
function deal(t) {
  const seats = t.names.length;
  const rounds = Math.min(t.hand_size, 3);
  let flights = 0;
  for (let r = 0; r < rounds; r++) {
    for (let k = 1; k <= seats; k++) {
      const seat = (t.dealer + k) % seats;
      const target = seatBox(t, seat);
      fly(cardBack(), $("stock"), target, flights * 60);
      flights += 1;
    }
  }
}
