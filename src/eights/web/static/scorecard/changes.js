// Sending a change of the sheet (a round saved or deleted, undo, finish): to the server, or to the copy kept
// on this phone when there is one.

import { $, keepingFocus } from "../dom.js";
import { api, problem } from "./basics.js";
import { freshForm, roundBody } from "./entry.js";
import { localChange } from "./offline.js";
import { drawSheet, show } from "./sheet.js";
import { state } from "./state.js";

/** Save the round on the form (a new one, or the one being edited). */
export async function saveRound(event) {
  event.preventDefault();
  const { form, code } = state;
  if (form.out === undefined) return problem("Say who went out first (or Blocked, when no one did).");
  const path = form.editing ? `/api/sheets/${code}/rounds/${form.editing}` : `/api/sheets/${code}/rounds`;
  const done = await change(form.editing ? "PUT" : "POST", path, roundBody());
  if (done) {
    state.form = freshForm();
    keepingFocus(drawSheet);
  }
}

/** Send a change; on success show the sheet as saved. A refusal shows its one line and changes nothing
 * (a stale change also shows the sheet as it is now). */
export async function change(method, path, body) {
  if (state.local) return localChange(method, path, body);
  if (state.busy) return false;
  state.busy = true;
  document.body.classList.add("busy");
  const answer = await api(method, path, body ?? { token: state.token, revision: state.sheet.revision });
  state.busy = false;
  document.body.classList.remove("busy");
  if (!answer.ok) {
    problem(answer.data.error);
    if (answer.data.sheet) show(answer.data.sheet);
    return false;
  }
  problem("");
  // What the change did beyond the figures, in words: a deleted round moves the later ones up.
  const said = typeof answer.data.said === "string" ? answer.data.said : "";
  $("said").textContent = said ? `${said[0].toUpperCase()}${said.slice(1)}.` : "";
  $("said").hidden = !said;
  const ended = !state.sheet.over && answer.data.over;
  show(answer.data);
  if (ended) $("result").scrollIntoView({ block: "center" });
  return true;
}

/** Delete round `number` once the person says so: the rounds after it keep their dealer and cards. */
export function askDelete(number) {
  const dialog = $("delete-dialog");
  $("delete-title").textContent = `Delete round ${number}?`;
  $("delete-yes").onclick = () => {
    dialog.close();
    change("DELETE", `/api/sheets/${state.code}/rounds/${number}`);
  };
  $("delete-no").onclick = () => dialog.close();
  dialog.showModal();
  $("delete-no").focus();
}
