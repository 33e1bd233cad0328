// The web table's page: the new-game form, a room's lobby and the table, over the protocol in
// docs/protocol.md. Every move offered comes from the server's `table.legal`; nothing here decides a
// rule. Names from other people are shown with textContent only.

const $ = (id) => document.getElementById(id);
const el = (tag, text, cls) => {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (cls) node.className = cls;
  return node;
};

let presets = [];
let socket = null;
let state = null;
let code = null;
let retry = 500;

const tokenKey = (room) => `eights-token-${room}`;

// ----- the new-game form -------------------------------------------------------------------------

async function home() {
  $("home").hidden = false;
  $("name").value = localStorage.getItem("eights-name") || "";
  const answer = await (await fetch("/api/presets")).json();
  presets = answer.presets;
  const preset = $("preset");
  for (const p of presets) preset.append(new Option(`${p.title} (${p.name})`, p.name));
  preset.addEventListener("change", () => fillPreset(answer.levels));
  $("players").addEventListener("change", () => fillSeats(answer.levels));
  fillPreset(answer.levels);
  $("new-game").addEventListener("submit", (e) => { e.preventDefault(); create(true); });
  $("new-room").addEventListener("click", () => create(false));
}

function chosen() { return presets.find((p) => p.name === $("preset").value); }

function fillPreset(levels) {
  const p = chosen();
  $("preset-about").textContent = p.summary;
  const players = $("players");
  players.replaceChildren();
  for (let n = p.min_players; n <= p.max_players; n++) players.append(new Option(String(n), String(n)));
  players.value = String(p.default_players);
  const box = $("options");
  box.replaceChildren(el("legend", "Options"));
  for (const o of p.options.filter((o) => o.main)) {
    const label = el("label", o.label + " ");
    let input;
    if (o.kind === "bool") {
      input = document.createElement("input");
      input.type = "checkbox";
      input.checked = o.value === "true";
    } else if (o.kind === "choice") {
      input = document.createElement("select");
      for (const c of o.choices) input.append(new Option(c, c));
      input.value = o.value;
    } else {
      input = document.createElement("input");
      input.value = o.value;
    }
    input.dataset.key = o.key;
    input.dataset.start = o.value;
    label.append(input);
    box.append(label);
  }
  fillSeats(levels);
}

function fillSeats(levels) {
  const box = $("seats");
  box.replaceChildren(el("legend", "The other seats"));
  for (let seat = 1; seat < Number($("players").value); seat++) {
    const select = document.createElement("select");
    select.append(new Option("a friend (open seat)", "open"));
    for (const level of levels) select.append(new Option(`computer: ${level}`, level));
    select.value = "normal";
    const label = el("label", `Seat ${seat} `);
    label.append(select);
    box.append(label);
  }
}

async function create(start) {
  const name = $("name").value.trim();
  localStorage.setItem("eights-name", name);
  const options = {};
  for (const input of $("options").querySelectorAll("[data-key]")) {
    const value = input.type === "checkbox" ? String(input.checked) : input.value.trim();
    if (value !== input.dataset.start) options[input.dataset.key] = value;
  }
  let seats = ["me", ...[...$("seats").querySelectorAll("select")].map((s) => s.value)];
  if (start) seats = seats.map((s) => (s === "open" ? "normal" : s));
  const answer = await fetch("/api/rooms", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ name, preset: $("preset").value, options, seats, start }),
  });
  const body = await answer.json();
  if (!answer.ok) { $("setup-error").textContent = body.error || body.detail?.[0]?.msg || "That cannot be played."; return; }
  localStorage.setItem(tokenKey(body.code), body.token);
  location.href = `/r/${body.code}`;
}

// ----- the room ------------------------------------------------------------------------------------

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws`);
  socket.addEventListener("open", () => {
    retry = 500;
    $("status").textContent = "";
    send({ type: "hello", room: code, token: localStorage.getItem(tokenKey(code)) });
  });
  socket.addEventListener("message", (e) => receive(JSON.parse(e.data)));
  socket.addEventListener("close", (e) => {
    if (e.code === 4000) { $("status").textContent = "This seat is open in another tab or device."; return; }
    $("status").textContent = "Reconnecting…";
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 8000);
  });
}

function send(message) { if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message)); }
function act(action) { send({ type: "act", version: state.version, action }); }

function receive(m) {
  if (m.type === "welcome") {
    if (m.token) localStorage.setItem(tokenKey(code), m.token);
  } else if (m.type === "state") {
    if (m.log_from === 0 || !state) $("log").replaceChildren();
    state = m;
    for (const line of m.log) $("log").append(el("li", line));
    $("log").lastElementChild?.scrollIntoView({ block: "nearest" });
    draw();
  } else if (m.type === "error") {
    $("message").textContent = m.message;
    if (m.code === "bad_token") localStorage.removeItem(tokenKey(code));
  } else if (m.type === "hint") {
    $("message").textContent = m.text;
  }
}

function draw() {
  const room = state.room;
  $("lobby").hidden = room.phase !== "lobby";
  $("table").hidden = room.phase === "lobby";
  if (room.phase === "lobby") drawLobby(room); else drawTable(room, state.table);
}

function drawLobby(room) {
  $("code").textContent = room.code;
  const link = `${location.origin}/r/${room.code}`;
  $("link").textContent = link;
  $("link").href = link;
  $("qr").src = `/api/rooms/${room.code}/qr.svg`;
  const seated = localStorage.getItem(tokenKey(room.code));
  const list = $("lobby-seats");
  list.replaceChildren();
  for (const s of room.seats) {
    const item = el("li", s.kind === "open" ? "open seat " : s.kind === "computer" ? `computer: ${s.level}` : s.name);
    if (s.kind === "open" && !seated) {
      const sit = el("button", "Sit here");
      sit.type = "button";
      sit.addEventListener("click", () => send({ type: "sit", seat: s.seat, name: $("sit-name").value || localStorage.getItem("eights-name") || "" }));
      item.append(sit);
    }
    list.append(item);
  }
  $("sit-row").hidden = Boolean(seated);
  $("sit-name").value = localStorage.getItem("eights-name") || "";
  $("start").hidden = !seated || room.seats.some((s) => s.kind === "open");
}

function cardNode(card, own) {
  const node = el(own ? "button" : "span", card.text, `card suit-${card.suit || "joker"}`);
  if (own) { node.type = "button"; node.setAttribute("aria-label", card.label + (card.playable ? ", playable" : "")); }
  return node;
}

function drawTable(room, t) {
  const players = $("players-list");
  players.replaceChildren();
  t.names.forEach((name, seat) => {
    const info = room.seats[seat];
    let text = `${name}${info.kind === "computer" ? ` (${info.level})` : ""}: ${t.counts[seat]} card${t.counts[seat] === 1 ? "" : "s"}`;
    if (t.score_keeping) text += `, ${t.totals[seat]} points`;
    if (seat === t.dealer) text += ", dealer";
    if (info.stand_in) text += " — away: a computer plays for them";
    else if (!info.connected) text += " — away";
    const item = el("li", text, seat === t.to_act ? "turn" : "");
    if (seat === t.to_act) item.setAttribute("aria-current", "true");
    players.append(item);
  });
  $("stock").textContent = String(t.stock);
  $("top").replaceChildren(cardNode(t.top, false));
  $("top").setAttribute("aria-label", `top card: ${t.top.label}`);
  const suitNames = { C: "♣ clubs", D: "♦ diamonds", H: "♥ hearts", S: "♠ spades" };
  $("suit").textContent = t.active_suit ? `${t.suit_named ? "Named suit" : "Suit"}: ${suitNames[t.active_suit]} · play goes ${t.direction === 1 ? "clockwise ↻" : "counter-clockwise ↺"}` : "A suit is to be named";
  $("pending").replaceChildren(...t.pending.map((line) => el("li", line)));
  $("prompt").textContent = t.prompt;
  const singles = new Map(t.legal.filter((m) => m.kind === "play" && m.cards.length === 1).map((m) => [m.cards[0], m]));
  const hand = $("hand");
  hand.replaceChildren();
  for (const card of t.hand) {
    const node = cardNode(card, true);
    const move = singles.get(card.code);
    if (move) { node.classList.add("playable"); node.prepend(el("span", "▲", "mark")); node.addEventListener("click", () => act(move.action)); }
    else node.disabled = true;
    hand.append(node);
  }
  const moves = $("moves");
  moves.replaceChildren();
  for (const move of t.legal) {
    if (move.kind === "play" && move.cards.length === 1) continue;
    const button = el("button", move.words, `move move-${move.kind}`);
    button.type = "button";
    button.addEventListener("click", () => act(move.action));
    moves.append(button);
  }
  const end = t.round_end;
  $("round-end").hidden = !end || Boolean(t.result);
  if (end) $("round-end").replaceChildren(...end.lines.map((line) => el("p", line)));
  $("result").hidden = !t.result;
  if (t.result) $("result").replaceChildren(...t.result.lines.map((line) => el("p", line)));
  $("rematch").hidden = !(t.result && room.host_seat === t.seat);
  $("hint").hidden = !t.legal.length;
  $("record").href = `/api/rooms/${room.code}/record`;
}

function keys(e) {
  if (!state || !state.table || e.target.tagName === "INPUT") return;
  const moves = state.table.legal;
  const find = (kind) => moves.find((m) => m.kind === kind);
  if (e.key === "d" && find("draw")) act(find("draw").action);
  else if (e.key === "p" && find("pass")) act(find("pass").action);
  else if (e.key === "h" && moves.length) send({ type: "hint", version: state.version });
}

function room(roomCode) {
  code = roomCode.toUpperCase();
  const carried = new URLSearchParams(location.hash.slice(1)).get("t");
  if (carried) { localStorage.setItem(tokenKey(code), carried); history.replaceState(null, "", location.pathname); }
  $("room").hidden = false;
  $("start").addEventListener("click", () => send({ type: "start", version: state.version }));
  $("rematch").addEventListener("click", () => send({ type: "rematch", version: state.version }));
  $("hint").addEventListener("click", () => send({ type: "hint", version: state.version }));
  $("copy").addEventListener("click", () => navigator.clipboard?.writeText($("link").textContent));
  document.addEventListener("keydown", keys);
  connect();
}

const match = location.pathname.match(/^\/r\/([A-Za-z0-9]+)/);
if (match) room(match[1]); else home();
