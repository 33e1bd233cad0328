// The WebSocket to the server (docs/protocol.md): says hello on every (re)connection, reconnects by
// itself with backoff when the socket drops or the server restarts, and stops when the seat was taken up
// by a newer connection (another tab or device) until the player asks for it back.

const FIRST_WAIT = 500; // ms before the first retry; doubled each time, up to LAST_WAIT
const LAST_WAIT = 15000;
const PING_EVERY = 25000; // keeps idle connections through proxies that drop silent sockets
const CLOSE_REPLACED = 4000;

/**
 * Connect to the room. `hello()` makes the hello message (read at each connection, so a token learnt
 * meanwhile is used); `onMessage(message)` gets every message; `onStatus(status)` hears "open",
 * "reconnecting" or "replaced".
 */
export function connect({ hello, onMessage, onStatus }) {
  let socket = null;
  let wait = FIRST_WAIT;
  let retry = null;
  let ping = null;
  let stopped = false; // the seat moved to a newer connection
  let ended = false; // nothing to connect to

  function open() {
    clearTimeout(retry);
    retry = null;
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    socket = new WebSocket(`${scheme}://${location.host}/ws`);
    socket.addEventListener("open", () => {
      wait = FIRST_WAIT;
      onStatus("open");
      socket.send(JSON.stringify(hello()));
      clearInterval(ping);
      ping = setInterval(() => send({ type: "ping" }), PING_EVERY);
    });
    socket.addEventListener("message", (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return; // not from our server
      }
      if (message.type === "replaced") stopped = true;
      onMessage(message);
    });
    socket.addEventListener("close", (event) => {
      clearInterval(ping);
      if (ended) return;
      if (event.code === CLOSE_REPLACED) stopped = true;
      if (stopped) {
        onStatus("replaced");
        return;
      }
      onStatus("reconnecting");
      retry = setTimeout(open, wait * (0.75 + Math.random() / 2)); // jitter: not every tab at once
      wait = Math.min(wait * 2, LAST_WAIT);
    });
  }

  function send(message) {
    if (!socket || socket.readyState !== WebSocket.OPEN) return false;
    socket.send(JSON.stringify(message));
    return true;
  }

  /** Try again now (the network came back, the tab became visible), unless the seat moved elsewhere. */
  function soon() {
    if (!stopped && !ended && retry !== null) open();
  }

  window.addEventListener("online", soon);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") soon();
  });
  open();

  return {
    send,
    /** Say hello again on the open socket (after a token was refused: as a spectator). */
    hello: () => send(hello()),
    /** Take the seat back here after another tab or device took it. */
    resume() {
      stopped = false;
      open();
    },
    /** Stop for good (the room does not exist). */
    stop() {
      ended = true;
      clearTimeout(retry);
      retry = null;
      socket?.close();
    },
  };
}
