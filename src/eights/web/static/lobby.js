// A room's lobby: its code, link and QR code; its seats (a friend sits at an open one under a name); the
// host's rules, seats and away limit (sent as `setup`), and the Start button.

import { $, button, el, keepingFocus, labelled, saved, select } from "./dom.js";
import { anotherDeviceDialog, linkRow, rulesDialog } from "./dialogs.js";
import { levelChoices, playersSelect, rulesForm, seatLine, seatsFieldset } from "./setup.js";

let drawnFor = null; // what the seats and the host's form were last drawn from: redrawn only when that changes

/** Let the host's form be drawn again from the room (after the server refused a change). */
export function redrawLobby() {
  drawnFor = null;
}

/** The room as the host's form shows it. */
function configOf(catalog, room) {
  const preset = catalog.presets.find((p) => p.name === room.preset);
  const known = new Set((preset?.options || []).map((o) => o.key));
  const options = {};
  for (const text of room.options) {
    const at = text.indexOf("=");
    if (known.has(text.slice(0, at))) options[text.slice(0, at)] = text.slice(at + 1);
  }
  const seats = room.seats.map((s) => (s.kind === "computer" ? s.level : s.kind));
  return { preset: room.preset, options, players: seats.length, seats, away_seconds: room.away_seconds };
}

const seatWords = (s) =>
  s.kind === "open" ? "open seat" : s.kind === "computer" ? `computer (${s.level})` : `${s.name}${s.connected ? "" : " (away)"}`;

let shared = null; // the room whose link is shown

/** The room's link (the server's, as its QR code carries it), and a warning when it opens on this machine only. */
function share(key, link, host) {
  if (shared !== key) return;
  const nodes = [
    el("h2", host ? "Invite your friends" : "Invite others"),
    el("p", host ? "They scan the code, open this link, or type the room's code on the home page:" : "Others join with this link, or with the code on the home page:"),
    linkRow(link, "Copied: send it to your friends."),
  ];
  if (["localhost", "127.0.0.1", "[::1]"].includes(new URL(link).hostname)) {
    const words = "This link and its QR code open on this machine only: to play from other phones, start the server with " +
      "eights serve --host 0.0.0.0 (or give --public-url the address they reach it at).";
    const warning = el("p", words, "warning");
    warning.id = "lobby-local";
    nodes.push(warning);
  }
  $("lobby-share").replaceChildren(...nodes);
}

/** Draw the lobby of `state.room` for this seat (null: not seated) with `send` to talk to the server. */
export function drawLobby({ catalog, state, seat, send }) {
  const room = state.room;
  const host = seat !== null && seat === room.host_seat;
  $("lobby-code").textContent = room.code;
  const shareKey = `${room.code}:${host}`;
  if (shared !== shareKey) {
    shared = shareKey;
    share(shareKey, `${location.origin}/r/${room.code}`, host);
    fetch(`/api/rooms/${room.code}`)
      .then((answer) => answer.json())
      .then((info) => info.url && share(shareKey, info.url, host))
      .catch(() => {});
  }
  // the QR code is for the host to show friends; a friend's phone, already here, is shown its seat instead
  const qr = $("lobby-qr");
  qr.hidden = !host;
  if (host && !qr.src.endsWith(`/api/rooms/${room.code}/qr.svg`)) qr.src = `/api/rooms/${room.code}/qr.svg`;
  $("lobby").classList.toggle("hosting", host);

  const open = room.seats.filter((s) => s.kind === "open").length;
  const key = JSON.stringify([seat, host, room.preset, room.options, room.seats, room.away_seconds]);
  if (key !== drawnFor) {
    drawnFor = key;
    const nodes = host ? hostForm(catalog, room, send) : guestView(room, seat, send);
    keepingFocus(() => $("lobby-seats").replaceChildren(...nodes));
  }

  const actions = [];
  if (host) {
    const start = button("Start the game", () => send({ type: "start" }), "primary");
    start.id = "start";
    start.disabled = open > 0;
    actions.push(start);
    if (open) {
      actions.push(
        el("p", `${open === 1 ? "One seat is" : `${open} seats are`} still open: friends join with the link, or give the seat to a computer.`, "about"),
      );
    }
  } else if (seat !== null) {
    const mine = room.seats[seat];
    const yours = el("p", null, "your-seat");
    yours.id = "your-seat";
    yours.append("You sit in ", el("strong", `seat ${seat + 1}`), ` as ${mine?.name ?? ""}.`);
    actions.push(yours, el("p", open ? "Waiting for friends to sit and for the host to start…" : "Waiting for the host to start…", "about"));
  }
  if (seat !== null) {
    const device = button("Open my seat on another device", () => anotherDeviceDialog(room.code, saved.token(room.code)));
    device.id = "lobby-device";
    actions.push(device);
  }
  keepingFocus(() => $("lobby-actions").replaceChildren(...actions));
}

/** What a friend or a spectator sees: the rules, the seats, and a Sit button at each open seat. */
function guestView(room, seat, send) {
  const nodes = [el("p", room.rules_heading, "about")];
  if (room.options.length) nodes.push(el("p", `Changed: ${room.options.join(", ")}`, "about"));
  nodes.push(button("Read the rules", () => rulesDialog(room.preset, room.options), "link-button"));
  const hasOpen = room.seats.some((s) => s.kind === "open");
  let name = null;
  if (seat === null && hasOpen) {
    name = document.createElement("input");
    name.id = "sit-name";
    name.maxLength = 24;
    name.autocomplete = "nickname";
    name.value = saved.name();
    name.addEventListener("input", () => saved.setName(name.value.trim())); // kept if the seats are redrawn
    nodes.push(labelled("Your name", name));
  }
  const list = el("ol", null, "seat-list");
  for (const s of room.seats) {
    const item = el("li");
    let words = seatWords(s);
    if (s.seat === room.host_seat) words += " — host";
    if (s.seat === seat) words += " — you";
    item.append(el("span", words));
    if (s.kind === "open" && name) {
      const sit = button(`Sit here (seat ${s.seat + 1})`, () => {
        saved.setName(name.value.trim());
        send({ type: "sit", seat: s.seat, name: name.value.trim() });
      });
      sit.id = `sit-${s.seat}`;
      item.append(" ", sit);
    }
    list.append(item);
  }
  nodes.push(el("h3", "Seats"), list);
  if (seat === null && !hasOpen) nodes.push(el("p", "Every seat is taken: you are watching.", "about"));
  return nodes;
}

/** The host's form: rules and seats as in a new game, each seat open, a computer, or the person there. */
function hostForm(catalog, room, send) {
  const config = configOf(catalog, room);
  const change = (next) =>
    send({
      type: "setup",
      preset: next.preset,
      options: next.options,
      players: next.players,
      seats: next.seats,
      away_seconds: next.away_seconds,
    });

  function seatRow(index) {
    const there = room.seats[index];
    if (index === room.host_seat) return seatLine(index, `${there.name} (you, the host)`, null);
    const choices = [["open", "open: a friend sits here"], ...levelChoices(catalog)];
    if (there?.kind === "person") choices.unshift(["person", seatWords(there)]);
    const who = select(`room-seat-${index}`, choices, config.seats[index]);
    who.addEventListener("change", () => {
      const seats = [...config.seats];
      seats[index] = who.value;
      change({ ...config, seats });
    });
    return seatLine(index, "Plays:", who);
  }

  const away = document.createElement("input");
  away.type = "number";
  away.id = "room-away";
  away.min = "5";
  away.max = "3600";
  away.step = "5";
  away.inputMode = "numeric";
  away.value = String(room.away_seconds);
  away.addEventListener("change", () => change({ ...config, away_seconds: Number(away.value) }));
  const awayRow = labelled("Away limit (seconds): a computer plays for a person away this long on their turn", away, "inline");

  const form = { catalog, config, prefix: "room-", newSeat: () => "open", change };
  return [
    el("p", "You are the host: choose the seats and the rules, then start.", "about"),
    seatsFieldset(config, seatRow, [playersSelect(form)]),
    awayRow,
    rulesForm(form),
  ];
}
