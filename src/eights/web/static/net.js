// The WebSocket to the server (docs/protocol.md): says hello on every (re)connection, reconnects by
// itself with backoff when the socket drops or the server restarts, and stops when the seat was taken up
// by a newer connection (another tab or device) until the player asks for it back. A socket that answers
// neither its hello nor a ping within ANSWER_WAIT is given up and another opened: a server that hangs (a
// paused process, a relay that lost its way) keeps its socket open and would otherwise be waited for.

const FIRST_WAIT = 500; // ms before the first retry; doubled each time, up to LAST_WAIT
const LAST_WAIT = 15000;
const PING_EVERY = 25000; // keeps idle connections through proxies that drop silent sockets
const ANSWER_WAIT = 10000; // ms a hello or a ping waits for any message before the socket is given up
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
  let watch = null;
  let heard = 0; // when the socket last brought a message
  let stopped = false; // the seat moved to a newer connection
  let ended = false; // nothing to connect to

  function open() {
    clearTimeout(retry);
    retry = null;
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    // The room's code in the address too: a balancer can send every socket of a room to one instance.
    const room = encodeURIComponent(hello().room);
    const own = new WebSocket(`${scheme}://${location.host}/ws?room=${room}`);
    socket = own;
    own.addEventListener("open", () => {
      if (own !== socket) return;
      wait = FIRST_WAIT;
      onStatus("open");
      own.send(JSON.stringify(hello()));
      expect(own);
      clearInterval(ping);
      ping = setInterval(() => {
        if (send({ type: "ping" })) expect(own);
      }, PING_EVERY);
    });
    own.addEventListener("message", (event) => {
      if (own !== socket) return;
      heard = Date.now();
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return; // not from our server
      }
      if (message.type === "replaced") stopped = true;
      onMessage(message);
    });
    own.addEventListener("close", (event) => {
      if (own !== socket) return; // one given up already
      if (event.code === CLOSE_REPLACED) stopped = true;
      dropped();
    });
  }

  /** Expect a message on `own` within ANSWER_WAIT from now, else give it up and open another. */
  function expect(own) {
    const asked = Date.now();
    clearTimeout(watch);
    watch = setTimeout(() => {
      if (own !== socket || heard >= asked) return;
      socket = null; // its own close event, whenever it comes, is not this page's business any more
      own.close();
      dropped();
    }, ANSWER_WAIT);
  }

  function dropped() {
    clearInterval(ping);
    clearTimeout(watch);
    if (ended) return;
    if (stopped) {
      onStatus("replaced");
      return;
    }
    onStatus("reconnecting");
    retry = setTimeout(open, wait * (0.75 + Math.random() / 2)); // jitter: not every tab at once
    wait = Math.min(wait * 2, LAST_WAIT);
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
