// A sheet kept on this phone, scored here by scoring.js from the rules' scoring this phone kept: one started
// with no server, or one with a code whose server could not be reached (its changes queued for sync.js).

import { $ } from "../dom.js";
import * as scoring from "../scoring.js";
import { problem } from "./basics.js";
import { loadRules, saveLocal, scoringUrl, store } from "./keep.js";
import { show } from "./sheet.js";
import { state } from "./state.js";

/** The sheet kept here, scored here, as the server shows a sheet (with the code and revision it last gave). */
export function localView() {
  const { local } = state;
  return { ...scoring.view(local.rules, local.sheet), code: local.code ?? null, revision: local.base ?? null };
}

/** A sheet started with no server: kept on this phone until it can be sent, and gone on with by ``goLocal``
 * (scorecard.js). */
export async function keepOffline(body, goLocal) {
  const url = scoringUrl(body.preset, body.options);
  const rules = await loadRules(url);
  if (!rules) {
    return problem(
      "The server cannot be reached, and this phone has not kept the scoring of these rules: " +
        "start with the game's own options, or connect once with these.",
    );
  }
  const players = body.players;
  const empty = players.findIndex((name) => !name);
  if (empty >= 0) return problem(`Player ${empty + 1} has an empty name: give every player a name of at least one letter.`);
  const folded = players.map((name) => name.toLocaleLowerCase());
  const twice = players.find((name, i) => folded.indexOf(name.toLocaleLowerCase()) !== i);
  if (twice) return problem(`The name ${twice} is given twice: give every player a different name.`);
  if (!rules.tables[String(players.length)]) {
    return problem(`${players.length} players cannot play ${rules.title}; valid: ${Object.keys(rules.tables).join(", ")}.`);
  }
  const dealer = body.dealer || players[Math.floor(Math.random() * players.length)];
  const id = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
  const sheetData = { players, first_dealer: dealer, rounds: [], finished: false, undo: [] };
  const record = { id, preset: body.preset, options: body.options, scoring_url: url, sheet: sheetData, ops: [] };
  store(`eights-kept-${id}`, JSON.stringify(record));
  history.replaceState(null, "", `/scorecard#kept=${id}`);
  $("start").hidden = true;
  await goLocal(record);
}

/** A change made on the sheet kept here, scored here; refused in one line, changing nothing. */
export function localChange(method, path, body) {
  const { local } = state;
  const tail = path.split("/").slice(4); // ["rounds"], ["rounds", "3"], ["undo"] or ["finish"]
  const number = Number(tail[1]);
  const entry = body && "out" in body ? { out: body.out, left: body.left } : null;
  try {
    const { rules, sheet: kept } = local;
    let next;
    if (tail[0] === "undo") next = scoring.undo(rules, kept);
    else if (tail[0] === "finish") next = scoring.finish(rules, kept);
    else if (method === "POST") next = scoring.addRound(rules, kept, entry);
    else if (method === "PUT") next = scoring.editRound(rules, kept, number, entry);
    else next = scoring.deleteRound(rules, kept, number);
    local.sheet = next;
    local.ops.push({ method, path: tail.join("/"), body: entry });
  } catch (error) {
    problem(error.message);
    return false;
  }
  saveLocal();
  problem("");
  const ended = !state.sheet.over && scoring.isOver(local.rules, local.sheet);
  show(localView());
  if (ended) $("result").scrollIntoView({ block: "center" });
  return true;
}

