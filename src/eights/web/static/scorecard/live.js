// The live feed: every page on a sheet follows it over /ws/sheets/CODE.

import { $ } from "../dom.js";
import { problem } from "./basics.js";
import { show } from "./sheet.js";
import { state } from "./state.js";

const FIRST_WAIT = 500; // ms before reconnecting the live feed; doubled each time, up to LAST_WAIT
const LAST_WAIT = 10000;
const CLOSE_NO_SHEET = 4004;

/** Follow the sheet over a WebSocket: it sends the sheet at once and whenever it changes; reconnects by
 * itself (with backoff) when the connection or the server goes. */
export function follow() {
  let wait = FIRST_WAIT;
  const open = () => {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}/ws/sheets/${state.code}`);
    socket.addEventListener("open", () => {
      wait = FIRST_WAIT;
      $("connection").hidden = true;
    });
    socket.addEventListener("message", (event) => {
      let data;
      try {
        data = JSON.parse(event.data);
      } catch {
        return;
      }
      if (data.error) problem(data.error);
      else if (data.revision !== state.sheet.revision) show(data, !state.busy); // while a change of ours is on its way, it may be ours
    });
    socket.addEventListener("close", (event) => {
      if (event.code === CLOSE_NO_SHEET) return;
      $("connection").textContent = "Reconnecting to the server…";
      $("connection").hidden = false;
      setTimeout(open, wait);
      wait = Math.min(wait * 2, LAST_WAIT);
    });
  };
  open();
}
