// The review at the match's end (docs/protocol.md, "The review"): the server goes through your own decisions
// with the strongest computer player, in its worker processes, and this page follows it, then steps
// through them: the table drawn as you saw it at each decision (by the table's own drawing), your hand with
// the card you played and the card the strongest level plays marked, what your choice cost with its
// uncertainty, the mistakes marked, and each round's total. Everything shown comes from the server.

import { $, button, el, flash } from "./dom.js";
import { cardFace } from "./cards.js";
import { drawCentre, drawSeats, fanOut } from "./felt.js";

const POLL = 700; // ms between two looks at a review under way

let shown = null; // {code, room, review, at, onClose}: the review on screen
let asking = null; // the room code whose review is being asked for

const percent = (x) => `${Math.round(x * 100)}%`;

/** An amount in the review's unit: winning chances (a round's win = 100%; several wins past one) or points. */
function amount(review, x) {
  const size = Math.abs(x);
  if (review.unit !== "wins") return `${size.toFixed(1)} points`;
  return size < 1 ? `${percent(size)} of a win` : `${size.toFixed(2)} wins`;
}

/** What a decision's choice cost, in words, with its uncertainty (the estimate's standard error). */
function costWords(review, d) {
  if (d.played === d.best) return "No cost: the strongest level plays the same.";
  const spread = review.unit === "wins" ? percent(d.spread) : d.spread.toFixed(1);
  if (d.cost === 0 && d.spread === 0) return "No cost: both moves came to the same on every deal tried.";
  // A cost within twice its error of 0 is none that these deals can tell (eights.runs.review.cost_words).
  if (Math.abs(d.cost) <= 2 * d.spread) {
    return `No clear cost: ${d.cost < 0 ? "-" : "+"}${amount(review, d.cost)} (± ${spread}), too close to 0 to tell on these deals`;
  }
  if (d.cost >= 0) return `Cost: ${amount(review, d.cost)} lost (± ${spread})`;
  return `No cost: your move did better on these deals, by ${amount(review, d.cost)} (± ${spread})`;
}

/** A round's total cost, short. */
function totalWords(review, cost) {
  return `${cost >= 0 ? "lost" : "gained"} ${amount(review, cost)}`;
}

export const reviewing = () => shown !== null;

/** The Review button of the match's end, for the seat on screen (its token asks for its own seat only). */
export function reviewButton(code, token, room, onClose) {
  const node = button("Review my decisions", () => askFor(code, token, room, onClose, node));
  node.id = "review-button";
  return node;
}

async function ask(code, token, method) {
  const answer = await fetch(`/api/rooms/${code}/review`, { method, headers: { "X-Seat-Token": token || "" } });
  const body = await answer.json().catch(() => ({ error: "the server's answer could not be read" }));
  if (!answer.ok && answer.status !== 202) throw new Error(body.error || "the review could not be had");
  return body;
}

/** Ask for the review, show its progress until it is done (or stopped), then open it. */
async function askFor(code, token, room, onClose, node) {
  if (asking === code) return;
  asking = code;
  node.disabled = true;
  const bar = $("review-progress");
  const status = $("review-status");
  let stopping = null; // once Stop is pressed: whether it stopped the review (false: too late, it ended or is kept)
  $("review-stop").onclick = () => {
    stopping ||= ask(code, token, "DELETE").then(() => true, () => false);
  };
  status.hidden = false;
  status.textContent = "Asking for the review…";
  try {
    let answer = await ask(code, token, "POST");
    for (;;) {
      while (answer.state === "running" && !stopping) {
        $("review-wait").hidden = false;
        bar.max = Math.max(1, answer.total);
        bar.value = answer.done;
        status.textContent = `Reviewing your decisions: ${answer.done} of ${answer.total}`;
        await new Promise((done) => setTimeout(done, POLL));
        if (!stopping) answer = await ask(code, token, "GET");
      }
      if (!stopping || (await stopping)) break;
      stopping = null; // too late to stop: followed to its end
      answer = await ask(code, token, "GET");
    }
    if (stopping) {
      status.textContent = "Review stopped: nothing was kept. Review starts it again.";
    } else {
      status.textContent = "";
      status.hidden = true;
      open(code, room, answer, onClose);
    }
  } catch (problem) {
    status.textContent = `No review: ${problem.message}`;
    flash(problem.message);
  } finally {
    $("review-wait").hidden = true;
    node.disabled = false;
    if (!shown) node.focus(); // the Stop button it was on is gone
    asking = null;
  }
}

function open(code, room, review, onClose) {
  if (!review.decisions.length) {
    flash("You had no choice to make in this match: every move was the only one.");
    return;
  }
  // the seats as drawn in the review: no one away (that is now, not then)
  const seats = room.seats.map((s) => ({ ...s, connected: true, stand_in: false }));
  shown = { code, room: { ...room, seats }, review, at: 0, onClose };
  $("table").classList.add("reviewing");
  $("review").hidden = false;
  drawPanel();
  drawDecision();
  $("review-title").focus();
}

/** Leave the review: the table as it is now. */
export function closeReview() {
  if (!shown) return;
  const { onClose } = shown;
  shown = null;
  $("table").classList.remove("reviewing");
  $("review").hidden = true;
  $("review-body").replaceChildren();
  onClose();
  $("review-button")?.focus();
}

/** The parts that stay while stepping: the buttons, each round's total, the mistakes. */
function drawPanel() {
  const { review } = shown;
  const prev = button("◀ Previous", () => step(shown.at - 1));
  prev.id = "review-prev";
  prev.setAttribute("aria-keyshortcuts", "ArrowLeft");
  const next = button("Next ▶", () => step(shown.at + 1));
  next.id = "review-next";
  next.setAttribute("aria-keyshortcuts", "ArrowRight");
  const mistake = button("Next mistake", nextMistake);
  mistake.id = "review-mistake";
  mistake.append(" ", el("kbd", "m"));
  mistake.setAttribute("aria-keyshortcuts", "m");
  const back = button("Back to the table", closeReview);
  back.id = "review-close";
  const nav = el("div", null, "buttons review-nav");
  nav.setAttribute("role", "group");
  nav.setAttribute("aria-label", "Step through your decisions");
  nav.append(prev, next, mistake);

  const rounds = el("table", null, "review-rounds");
  const caption = el("caption", `Each round's cost (${review.mistakes.length} ${review.mistakes.length === 1 ? "mistake" : "mistakes"} in all)`);
  const head = el("tr");
  head.append(el("th", "Round"), el("th", "Cost"), el("th", "Mistakes"));
  rounds.append(caption, head);
  for (const { round, cost } of review.rounds) {
    const row = el("tr");
    const count = review.decisions.filter((d) => d.round === round && d.mistake).length;
    row.append(el("td", String(round)), el("td", totalWords(review, cost)), el("td", String(count)));
    rounds.append(row);
  }
  const judged = el(
    "p",
    `Judged from what you saw: the strongest level's choice (${review.settings.iterations} search iterations), ` +
      `each move played out on ${review.settings.deals} deals of the cards you could not see.`,
    "about",
  );
  $("review-tools").replaceChildren(nav, rounds, judged, back);
}

function step(to) {
  const { review } = shown;
  shown.at = Math.max(0, Math.min(review.decisions.length - 1, to));
  drawDecision();
}

function nextMistake() {
  const { review, at } = shown;
  const after = review.decisions.findIndex((d, i) => i > at && d.mistake);
  const first = review.decisions.findIndex((d) => d.mistake);
  const to = after >= 0 ? after : first;
  if (to < 0) flash("No mistakes in this review.");
  else step(to);
}

/** One decision: the table as the seat saw it, the hand with the moves marked, the cost. */
function drawDecision() {
  const { review, at, room } = shown;
  const d = review.decisions[at];
  const t = d.table;
  drawSeats(room, t);
  drawCentre(t);
  const heading = `Decision ${at + 1} of ${review.decisions.length} · round ${d.round}, turn ${d.turn}`;
  const parts = [el("h3", heading, "review-step")];
  if (d.mistake) parts.push(el("p", "✗ Mistake: this choice clearly cost you (by more than twice its uncertainty).", "mistake-mark"));

  const hand = el("div", null, "hand review-hand");
  hand.setAttribute("role", "list");
  hand.setAttribute("aria-label", `Your hand then: ${t.hand.length} ${t.hand.length === 1 ? "card" : "cards"}`);
  const cards = t.hand.map((card) => {
    const node = cardFace(card, el("span"));
    node.setAttribute("role", "listitem");
    let label = card.label;
    if (d.played_cards.includes(card.code)) {
      node.classList.add("played");
      node.prepend(el("span", "▲", "mark"));
      label += ", you played it";
    }
    if (d.best_cards.includes(card.code)) {
      node.classList.add("best");
      node.append(el("span", "★", "best-mark"));
      label += ", the strongest level plays it";
    }
    node.setAttribute("aria-label", label);
    return node;
  });
  hand.append(...cards);
  parts.push(hand);

  const moves = el("dl", null, "review-moves");
  moves.append(el("dt", "▲ You"), el("dd", d.played_words));
  moves.append(el("dt", "★ Strongest"), el("dd", d.played === d.best ? "the same" : d.best_words));
  parts.push(moves);
  parts.push(el("p", costWords(review, d), d.mistake ? "review-cost costly" : "review-cost"));
  if (t.pending.length) {
    const pending = el("ul", null, "pending");
    pending.append(...t.pending.map((line) => el("li", line)));
    parts.push(pending);
  }
  $("review-body").replaceChildren(...parts);
  fanOut(hand, cards);
  const [prev, next] = [$("review-prev"), $("review-next")];
  prev.disabled = at === 0;
  next.disabled = at === review.decisions.length - 1;
  $("review-mistake").disabled = !review.mistakes.length;
  // a button that just went disabled under the focus hands it to the other way (else it falls to the page)
  if (prev.disabled && document.activeElement === prev) next.focus();
  if (next.disabled && document.activeElement === next) prev.focus();
}

/** Keys while reviewing: ← → step, m the next mistake, Escape back to the table. True when taken. */
export function reviewKey(event) {
  if (!shown) return false;
  const moves = { ArrowLeft: () => step(shown.at - 1), ArrowRight: () => step(shown.at + 1), m: nextMistake, Escape: closeReview };
  const move = moves[event.key];
  if (!move) return false;
  event.preventDefault();
  move();
  return true;
}
