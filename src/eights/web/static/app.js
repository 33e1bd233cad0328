// The web table's page (docs/protocol.md): the home page at /, a room at /r/CODE (its lobby, then its
// table). This module routes, keeps the room's state as the server last sent it, and turns the server's
// messages and the player's keys into drawing and sending. The server is the only authority.

import { $, button, el, flash, saved } from "./dom.js";
import { closeDialog, keysDialog, rulesDialog, setUpDialog } from "./dialogs.js";
import { drawLobby, redrawLobby } from "./lobby.js";
import { connect } from "./net.js";
import { APP, connectLocal, request, startLocal } from "./local.js";
import { showHome } from "./setup.js";
import { closeReview, reviewKey, reviewing } from "./review.js";
import { drawTable, setUpHandKeys } from "./table.js";
import { stopMotion } from "./motion.js";

const ui = {
  catalog: null, // GET /api/presets
  code: null,
  seat: null, // from `welcome`: null while watching
  state: null, // the last `state` of the seat on screen
  log: null, // the narration held by the seat on screen: {from, lines}, from position `from` of the room's log
  logToEnd: false, // the narration's newest line is to be scrolled into sight once drawn
  hint: null, // {version, text, action}
  lastRoundEnd: null,
  busy: null, // the version a move was sent for (one move per version)
  net: null, // the connection of the seat on screen
  views: [], // one per connection: this device's seat, then each other person here (pass and play)
  shown: null, // the view on screen
  passing: null, // the view the phone is being passed to (its hand hidden until they are ready)
  ended: false, // the match's end was put on the screen of this device's own seat (the host's, in pass and play)
  here: [], // with several people here, at the match's end: each one's {seat, name, shown, pick()}
  hostHere: false, // this device holds the host's seat (with several people here, not always the one on screen)
};

// ----- the room ----------------------------------------------------------------------------------------

/** A connection of this page to the room, with the seat it holds and what the server last sent it. */
function openView(code, token) {
  const view = { seat: null, state: null, log: { from: 0, lines: [] }, net: null };
  view.net = (APP ? connectLocal : connect)({
    hello: () => ({ type: "hello", room: code, token: token() }),
    onMessage: (message) => receive(view, message),
    onStatus: (what) => status(view, what),
  });
  ui.views.push(view);
  return view;
}

function openRoom(code) {
  ui.code = code;
  const carried = new URLSearchParams(location.hash.slice(1)).get("t");
  if (carried) {
    saved.setToken(code, carried); // "open my seat on another device": this device now holds the seat
    saved.setHere(code, []); // only that seat: the others here stay on the device they were on
    history.replaceState(null, "", location.pathname);
  }
  if (saved.token(code)) saved.remember(code); // a seat here: offered again on the home page (Continue)
  $("home").hidden = true;
  $("room").hidden = false;
  $("room-note").textContent = APP ? "Dealing…" : `Opening room ${code}…`;
  show(openView(code, () => saved.token(code)));
  for (const { token } of saved.here(code)) openView(code, () => token);
}

/** Put `view` on screen: its state, its narration, its connection. */
function show(view) {
  ui.shown = view;
  ui.net = view.net;
  ui.state = view.state;
  ui.seat = view.seat;
  ui.log = view.log;
  ui.hint = null;
  ui.busy = null;
  $("log").replaceChildren(...view.log.lines.map((line) => el("li", line)));
  ui.logToEnd = true;
}

function status(view, what) {
  if (view !== ui.views[0]) return; // the other people here follow this device's first connection
  const banner = $("connection");
  banner.hidden = what === "open";
  $("room").classList.toggle("stopped", what === "replaced");
  if (what === "reconnecting") banner.replaceChildren("Reconnecting…");
  if (what === "replaced") {
    banner.replaceChildren(
      "Your seat is open in another tab or on another device. ",
      button("Play here", () => ui.views.forEach((v) => v.net.resume())),
    );
  }
}

function receive(view, message) {
  const onScreen = view === ui.shown;
  switch (message.type) {
    case "welcome":
      view.seat = message.seat;
      if (onScreen) ui.seat = message.seat;
      if (message.token && view === ui.views[0]) {
        saved.setToken(ui.code, message.token);
        saved.remember(ui.code); // a seat taken in the lobby: offered again on the home page
      }
      break;
    case "state":
      keepLog(view, message.log_from, message.log);
      view.state = message;
      if (onScreen) {
        ui.busy = null;
        ui.state = message;
      }
      if (!choose() && onScreen) {
        draw();
        if (ui.logToEnd) $("log-box").scrollTop = $("log-box").scrollHeight; // now shown: the newest line in sight
      }
      break;
    case "hint":
      if (!onScreen) break;
      ui.hint = { version: ui.state?.version, text: message.text, action: message.action };
      draw();
      break;
    case "error":
      if (onScreen || message.code === "no_room") refused(message);
      break;
    default: // pong, replaced (the socket closes next)
  }
}

/**
 * With several people at this device: the one whose move it is gets the screen, after a pass-the-phone
 * screen that hides every hand until they say they are ready. True when the screen changed here.
 */
function choose() {
  if (ui.views.length < 2) return false;
  if (ended()) return true;
  if (ui.passing) return false;
  const moves = (view) => view.state?.table?.legal.length > 0;
  if (moves(ui.shown)) return false;
  const next = ui.views.find((view) => view !== ui.shown && moves(view));
  if (!next) return false;
  ui.passing = next;
  closeDialog();
  stopMotion(); // a card still flying would cross the screen that hides every hand
  const name = next.state.table.names[next.state.table.seat];
  $("pass-name").textContent = name;
  $("pass-ready").textContent = `I am ${name}: show my cards`;
  $("pass-ready").disabled = true; // a double tap of the one passing the phone does not go through
  setTimeout(() => ($("pass-ready").disabled = false), 600);
  $("table").hidden = true;
  $("hand").replaceChildren(); // gone, not just out of sight: drawn again for the next person once ready
  delete $("hand").dataset.drawnFrom;
  $("pass").hidden = false;
  $("pass-ready").focus();
  return true;
}

/**
 * The match is over with several people here: the screen goes back to this device's own seat (the one that
 * made the room: its host), once, with no pass-the-phone screen (nothing is hidden any more); the result
 * then lets each person here look at their own (`ui.here`). True when the screen changed here.
 */
function ended() {
  const own = ui.views[0];
  const over = own.state?.room.phase === "over";
  if (!over) ui.ended = false;
  if (!over || ui.ended) return false;
  ui.ended = true;
  ui.passing = null;
  $("pass").hidden = true;
  show(own);
  draw();
  return true;
}

function ready() {
  const view = ui.passing;
  if (!view) return;
  ui.passing = null;
  $("pass").hidden = true;
  show(view);
  draw();
  $("log-box").scrollTop = $("log-box").scrollHeight;
}

function refused({ code, message }) {
  ui.busy = null;
  if (code === "bad_token") {
    saved.setToken(ui.code, null);
    flash("This device's seat token is not one of this room's: you watch as a spectator.");
    ui.net.hello();
  } else if (code === "no_room") {
    ui.views.forEach((view) => view.net.stop());
    $("room-note").replaceChildren(`There is no room ${ui.code}: check the code or the link. `, homeLink());
    $("lobby").hidden = $("table").hidden = true;
  } else if (code === "stale") {
    flash("The table moved on before your move arrived: look again."); // a fresh state follows
  } else {
    if (ui.state?.room.phase === "lobby") redrawLobby(); // a refused setup: show the room as it is
    flash(message);
    draw();
  }
}

function homeLink() {
  const link = el("a", "Start a new game");
  link.href = APP ? "./" : "/";
  return link;
}

/** Keep a view's narration: a state's lines start at `from`; what overlaps is replaced, a gap starts anew.
 * The list on the page follows the view on screen. */
function keepLog(view, from, lines) {
  const log = view.log;
  const onScreen = view === ui.shown;
  const list = $("log");
  if (from >= log.from && from <= log.from + log.lines.length) {
    const keep = from - log.from;
    if (keep < log.lines.length) {
      log.lines.length = keep;
      while (onScreen && list.children.length > keep) list.lastElementChild.remove();
    }
  } else {
    log.from = from;
    log.lines = [];
    if (onScreen) list.replaceChildren();
  }
  if (onScreen) ui.logToEnd = false;
  if (!lines.length) return;
  log.lines.push(...lines);
  if (!onScreen) return;
  const box = $("log-box");
  const atEnd = box.scrollHeight - box.scrollTop - box.clientHeight < 40;
  // many lines at once (a first state): add them silently, or a screen reader reads them all
  if (lines.length > 3) list.setAttribute("aria-live", "off");
  for (const line of lines) list.append(el("li", line));
  if (lines.length > 3) setTimeout(() => list.setAttribute("aria-live", "polite"), 0);
  ui.logToEnd = atEnd || lines.length > 3; // the newest line stays in sight (scrolled once the table is drawn)
}

function draw() {
  const state = ui.state;
  if (!state || ui.passing) return;
  const phase = state.room.phase;
  // the seat as the state shows it: the table says it; in the lobby, the host may have opened it again
  if (state.table) ui.seat = state.table.seat;
  else if (ui.seat !== null && state.room.seats[ui.seat]?.kind !== "person") ui.seat = null;
  $("room-note").textContent = "";
  if (reviewing()) {
    if (phase === "over") return; // the review keeps the screen until it is left, or a rematch starts
    closeReview();
  }
  $("lobby").hidden = phase !== "lobby";
  $("table").hidden = phase === "lobby";
  ui.hostHere = ui.views.some((view) => view.seat !== null && view.seat === state.room.host_seat);
  ui.here = phase === "over" && ui.views.length > 1 ? peopleHere() : [];
  if (phase === "lobby") {
    if (!ui.catalog) return; // on its way (main)
    drawLobby({ catalog: ui.catalog, state, seat: ui.seat, send });
    document.title = `Room ${state.room.code} · Crazy Eights`;
  } else {
    drawTable(ui, act, send);
    const t = state.table;
    const yours = t.legal.length > 0;
    const where = APP ? "Eights" : state.room.code;
    document.title = `${yours ? "Your turn" : t.result ? "Game over" : "Crazy Eights"} · ${where}`;
  }
}

/** Each person at this device with a seat, to put their result on screen (pass and play, at the end). */
function peopleHere() {
  return ui.views
    .filter((view) => view.state?.table && view.seat !== null)
    .map((view) => ({
      seat: view.seat,
      name: view.state.table.names[view.seat],
      shown: view === ui.shown,
      pick() {
        show(view);
        draw();
      },
    }));
}

/** Messages that change the room carry the version of the state on screen (the server refuses stale ones). */
const VERSIONED = new Set(["setup", "start", "act", "hint", "rematch"]);

function send(message) {
  // a rematch is the host's: with several people here, sent on the host's connection whoever is on screen
  const host = message.type === "rematch" && ui.views.find((v) => v.seat !== null && v.seat === ui.state.room.host_seat);
  const net = host ? host.net : ui.net;
  const out = VERSIONED.has(message.type) ? { ...message, version: (host || ui).state.version } : message;
  if (!net.send(out)) flash("Not connected: reconnecting, try again in a moment.");
}

/** Send one of the server's legal moves (once per state version: a double tap sends it once). */
function act(action) {
  const version = ui.state.version;
  if (ui.busy === version) return;
  ui.busy = version;
  $("table").classList.add("busy"); // at once: the hand and the moves wait for the server's answer
  closeDialog("moves");
  send({ type: "act", action });
}

// ----- keys ----------------------------------------------------------------------------------------------

function keys(event) {
  if (event.ctrlKey || event.metaKey || event.altKey || $("dialog").open || ui.passing) return;
  if (event.target.closest("input, select, textarea") || reviewKey(event)) return;
  if (event.key === "?") {
    keysDialog();
    return;
  }
  const t = ui.state?.table;
  if (!t) return;
  const key = event.key.toLowerCase();
  const move = (kind) => t.legal.find((m) => m.kind === kind);
  if (key === "d" && move("draw")) act(move("draw").action);
  else if (key === "p" && move("pass")) act(move("pass").action);
  else if (key === "h" && t.legal.length) send({ type: "hint" });
  else if (key === "r") rulesDialog(ui.state.room.preset, ui.state.room.options);
  else return;
  event.preventDefault();
}

// ----- start -------------------------------------------------------------------------------------------

/** What the table's page and the app's both set up first: the dialog, the keys, the pass-the-phone screen. */
function setUp() {
  setUpDialog();
  setUpHandKeys();
  document.addEventListener("keydown", keys);
  $("keys-button").addEventListener("click", keysDialog);
  $("pass-ready").addEventListener("click", ready);
}

async function main() {
  setUp();
  const room = location.pathname.match(/^\/r\/([A-Za-z0-9]{1,16})\/?$/);
  // a room's page connects at once: only its lobby needs the catalog, drawn once both are here
  const catalog = fetch("/api/presets").then((answer) => answer.json());
  if (room) openRoom(room[1].toUpperCase());
  try {
    ui.catalog = await catalog;
  } catch {
    $("main").prepend(el("p", "The server cannot be reached: reload the page in a moment.", "error"));
    return;
  }
  if (room) draw();
  else showHome(ui.catalog);
}

/** The app (`eights site`): drawn at once, its own Python started after, with a bar the first time; then the
 * home page with the games kept on this device (Continue) and, when its server answers, rooms with friends. */
async function appMain() {
  setUp();
  $("brand").href = "./";
  navigator.serviceWorker?.register("./app-sw.js").catch(() => {}); // (not on plain http from afar: it plays online)
  const loading = $("loading");
  loading.hidden = false;
  const pace = Number(new URLSearchParams(location.search).get("pace") ?? 0.7);
  const server = fetch(new URL("/api/presets", location.origin), { cache: "no-store" })
    .then((answer) => answer.ok && (answer.headers.get("Content-Type") || "").includes("json"))
    .catch(() => false);
  try {
    await startLocal(({ step, of, words }) => {
      $("loading-bar").max = of;
      $("loading-bar").value = step;
      $("loading-words").textContent = words;
    }, Number.isFinite(pace) ? pace : 0.7);
    ui.catalog = await (await request("/api/presets")).json();
  } catch (problem) {
    $("loading-words").textContent = `The game could not start here: ${problem.message}`;
    return;
  }
  loading.hidden = true;
  const matches = await (await request("/api/matches")).json();
  const online = await server;
  $("keep-score").parentElement.hidden = !online; // the score sheet is the server's
  showHome(ui.catalog, { openHere: (code) => openRoom(code), server: online });
  drawSaved(matches);
  $("watch").hidden = false;
  $("watch-file").addEventListener("change", async () => {
    const file = $("watch-file").files[0];
    if (!file) return;
    const answer = await request("/api/watch", { method: "POST", body: await file.text() });
    const body = await answer.json();
    if (!answer.ok) flash(body.error);
    else openRoom(body.code); // as a spectator: every hand stays hidden, the moves come at the table's pace
  });
}

/** The games kept on this device: Continue one not over; see how the others ended, and their records. */
function drawSaved(matches) {
  const box = $("saved-games");
  if (!matches.length) return;
  const list = el("ul", null, "saved-list");
  for (const match of matches.slice(0, 10)) {
    const item = el("li");
    const when = match.updated ? new Date(match.updated * 1000).toLocaleString() : "";
    const who = match.names.join(", ");
    const how = match.phase === "over" && match.result
      ? `won by ${match.result.winners.map((seat) => match.names[seat]).join(" and ")}`
      : `${match.moves} moves so far`;
    item.append(el("span", `${match.title} · ${who} · ${how} · ${when}`));
    const tokens = match.tokens;
    const mine = tokens[String(match.host_seat)];
    const take = () => {
      saved.setToken(match.code, mine);
      const here = Object.entries(tokens).filter(([seat]) => seat !== String(match.host_seat));
      saved.setHere(match.code, here.map(([seat, token]) => ({ seat: Number(seat), token })));
    };
    if (match.phase !== "over") {
      const go = button("Continue", () => {
        take();
        openRoom(match.code);
      }, "primary");
      go.classList.add("continue");
      item.append(" ", go);
    } else {
      item.append(" ", button("Look", () => {
        take();
        openRoom(match.code);
      }));
    }
    list.append(item);
  }
  box.replaceChildren(el("h2", "Games on this device"), list);
  box.hidden = false;
}

if (APP) appMain();
else main();
