// The score sheet's scoring on the phone, for the sheet kept while the server cannot be reached (issue 30).
// It holds no rule of its own: every value, count and choice comes from /api/scoring, which the server
// generates from the rule set (eights.scorecard.scoring), and it follows the engine's scoring step by step
// (eights.rules.scoring.round_points, match_over, match_winners; eights.scorecard's Sheet). The server scores every
// round again when the sheet reaches it, and its sheet is the one that counts.
//
// A sheet here is what Sheet.to_dict keeps, without the rules: {players, first_dealer, rounds: [{out, left}],
// finished, undo: [{change, round?, was?}]}; `out` is a name or null (blocked), `left` maps names to points or
// cards (["8H", "KS"]).

export const FORMAT = 1;

/** The scoring of `players` at these rules; an Error naming the valid counts when they cannot play. */
export function tableOf(rules, players) {
  const table = rules.tables[String(players)];
  if (!table) throw new Error(`${players} players cannot play ${rules.title}; valid: ${Object.keys(rules.tables).join(", ")}`);
  return table;
}

const valueOf = (table) => new Map(table.pack.map((c) => [c.card, c.value]));

/** The seats holding the lowest number (several on a tie). */
function lowest(numbers) {
  const low = Math.min(...numbers);
  return numbers.flatMap((x, i) => (x === low ? [i] : []));
}

/** A round scored as eights.scorecard.entry.score_entry scores it: each seat's hand value (0 for the player
 * out, null where nothing was entered), its points and the round's winners (seats). */
export function scoreRound(rules, players, entry) {
  const table = tableOf(rules, players.length);
  const values = valueOf(table);
  const count = players.length;
  const out = entry.out === null ? null : players.indexOf(entry.out);
  const worth = [];
  const cards = [];
  players.forEach((name, seat) => {
    const left = entry.left[name];
    if (left === undefined || left === null) {
      worth.push(seat === out ? 0 : null);
      cards.push(0);
    } else if (typeof left === "number") {
      worth.push(left);
      cards.push(1); // a stand-in card worth the points, as the server's scoring makes one
    } else {
      worth.push(left.reduce((sum, card) => sum + values.get(card), 0));
      cards.push(left.length);
    }
  });
  const counted = worth.map((w) => w ?? 0);
  let winners;
  if (out !== null) winners = [out];
  else if (rules.blocked === "fewest_cards") winners = lowest(cards);
  else winners = lowest(counted);
  let points = new Array(count).fill(0);
  if (rules.keeps_points) {
    if (rules.scoring === "own_hand") points = counted.map((w, seat) => (seat === out ? 0 : w));
    else if (out !== null) points[out] = counted.reduce((sum, w, seat) => sum + (seat === out ? 0 : w), 0);
    else if (winners.length === 1) {
      const low = counted[winners[0]];
      points[winners[0]] = counted.reduce((sum, w) => sum + (w - low), 0);
    }
  }
  if (rules.teams) {
    const half = count / 2;
    winners = [...new Set(winners.flatMap((w) => [w, (w + half) % count]))].sort((a, b) => a - b);
  }
  if (!rules.keeps_points) points = players.map((_, seat) => (winners.includes(seat) ? 1 : 0));
  return { worth, points, winners };
}

/** Whether the rules end the match after `played` rounds with these totals (a sheet without points never
 * ends by itself). */
export function ended(rules, players, played, totals) {
  if (!played || !rules.keeps_points) return false;
  if (rules.schedule) return played >= rules.schedule;
  if (rules.hands && played >= rules.hands) return true;
  const target = tableOf(rules, players.length).target;
  if (target) return Math.max(...totals) >= target;
  return !rules.hands;
}

/** Who leads (who would win if the match ended now), as seats. */
function leading(rules, players, results) {
  if (!results.length) return [];
  const last = results[results.length - 1];
  const totals = last.totals;
  if (!rules.keeps_points) return lowest(totals.map((t) => -t));
  const target = tableOf(rules, players.length).target;
  if (dealt(results) === 1 && !rules.schedule && !rules.hands && !target) return last.winners;
  return rules.lowest_wins ? lowest(totals) : lowest(totals.map((t) => -t));
}

/** The deals played: the last round's place in the deals, plus one (past a deleted round, more than the rounds). */
const dealt = (results) => (results.length ? results[results.length - 1].deal + 1 : 0);

/** Every round scored with the running totals; an Error when a round follows the end of the match. */
export function replay(rules, sheet) {
  const { players } = sheet;
  const first = players.indexOf(sheet.first_dealer);
  const sizes = tableOf(rules, players.length).hand_sizes;
  let totals = new Array(players.length).fill(0);
  const results = [];
  let deal = -1; // each round's place in the deals (Sheet._replay): the one after the round before's, or its own
  sheet.rounds.forEach((entry, index) => {
    if (entry.deal != null && entry.deal - 1 <= deal) {
      throw new Error(`round ${index + 1} is given deal ${entry.deal}, not after the round before's (${deal + 1})`);
    }
    deal = entry.deal != null ? entry.deal - 1 : deal + 1;
    if (results.length && ended(rules, players, dealt(results), totals)) {
      const more = sheet.rounds.length - index;
      throw new Error(
        `with this change the match ends after round ${index}, but ${more} more round${more === 1 ? "" : "s"} ` +
          `${more === 1 ? "follows" : "follow"}: delete them first, or change the round differently`,
      );
    }
    const scored = scoreRound(rules, players, entry);
    totals = totals.map((t, seat) => t + scored.points[seat]);
    results.push({
      number: index + 1,
      dealer: (first + deal) % players.length,
      hand_size: sizes[deal % sizes.length],
      deal,
      entry,
      ...scored,
      totals,
    });
  });
  return results;
}

/** Refuse a hand or a round the server would refuse for certain: names, points, cards and copies of the pack. */
export function checkEntry(rules, sheet, entry) {
  const { players } = sheet;
  const table = tableOf(rules, players.length);
  const copies = new Map(table.pack.map((c) => [c.card, c.copies]));
  if (entry.out !== null && !players.includes(entry.out)) throw new Error(`went out: ${entry.out} is not a player here`);
  const seen = new Map();
  for (const name of players) {
    const left = entry.left[name];
    if (name === entry.out) continue;
    if (left === undefined || left === null) {
      const zero = rules.keeps_points ? " (0 points for no cards left)" : "";
      const why = entry.out === null ? "the round was blocked, so " : "";
      if (rules.keeps_points || entry.out === null) throw new Error(`no points or cards for ${name}: ${why}give every player who did not go out their points or their cards left${zero}`);
      continue;
    }
    if (typeof left === "string") throw new Error(`${name}: ${left} is not points as this sheet reads them; write them with the digits 0-9 alone, like 35`);
    if (typeof left === "number") {
      if (!rules.keeps_points) throw new Error(`${name}: these rules keep no points, so give the cards left, not ${left} points`);
      if (!Number.isInteger(left) || left < 0 || left > table.most_points) throw new Error(`${name}: ${left} points: give 0 to ${table.most_points}`);
      if (entry.out === null && rules.blocked === "fewest_cards") throw new Error(`a blocked round goes to the fewest cards: give ${name}'s cards left, not points`);
      continue;
    }
    for (const card of left) {
      if (!copies.has(card)) throw new Error(`${name}: ${card} is not in the pack of this table`);
      seen.set(card, (seen.get(card) || 0) + 1);
    }
  }
  for (const [card, times] of seen) {
    if (times > copies.get(card)) throw new Error(`${card} is entered ${times} times, but the pack holds only ${copies.get(card)}`);
  }
  const held = [...seen.values()].reduce((a, b) => a + b, 0);
  if (held > table.cards_in_hands) throw new Error(`${held} cards are entered, more than the hands can hold together (${table.cards_in_hands})`);
}

// ----- changes: each returns the new sheet, or throws an Error and changes nothing -------------------------

function commit(rules, sheet, rounds, finished, undo) {
  const next = { ...sheet, rounds, finished, undo };
  const results = replay(rules, next);
  if (finished && !results.length) throw new Error("the match was finished early: it needs at least one round");
  return next;
}

/** The entry as eights.scorecard reads it: no cards at all is a hand not given (read_entry; 0 points says that a
 * player had nothing left), and a points box ({points: "35"}) is a whole number or refused (points_from_text). */
function given(entry) {
  const left = {};
  for (const [name, hand] of Object.entries(entry.left)) {
    if (Array.isArray(hand) && !hand.length) continue;
    if (hand && typeof hand === "object" && !Array.isArray(hand)) {
      const text = hand.points;
      if (!/^-?[0-9]+$/.test(text)) {
        throw new Error(`${name}: '${text}' is not a whole number in the digits 0-9; give the value of ${name}'s cards left, like 35, or the cards themselves`);
      }
      left[name] = Number(text);
    } else left[name] = hand;
  }
  return { ...entry, left };
}

export function addRound(rules, sheet, entry) {
  entry = given(entry);
  if (isOver(rules, sheet)) throw new Error("the match is over: no more rounds can be entered; edit or delete a past round, or undo");
  if (sheet.rounds.length >= rules.most_rounds) {
    throw new Error(
      `round ${sheet.rounds.length + 1} cannot be entered: a score sheet holds at most ${rules.most_rounds} rounds; ` +
        "finish the match (it is decided on the totals so far) and start a new sheet",
    );
  }
  checkEntry(rules, sheet, entry);
  return commit(rules, sheet, [...sheet.rounds, entry], sheet.finished, [...sheet.undo, { change: "add" }]);
}

export function editRound(rules, sheet, number, entry) {
  entry = given(entry);
  const deal = sheet.rounds[number - 1]?.deal;
  if (deal != null) entry = { ...entry, deal }; // the same deal, as Sheet.edit_round keeps it
  checkEntry(rules, sheet, entry);
  const rounds = sheet.rounds.map((r, i) => (i === number - 1 ? entry : r));
  return commit(rules, sheet, rounds, sheet.finished, [...sheet.undo, { change: "edit", round: number, was: sheet.rounds[number - 1] }]);
}

export function deleteRound(rules, sheet, number) {
  // The rounds after it keep the deal they were played with (Sheet.delete_round).
  const deals = replay(rules, sheet).map((r) => r.deal);
  const rounds = sheet.rounds
    .map((r, i) => (i === number && r.deal == null ? { ...r, deal: deals[i] + 1 } : r))
    .filter((_, i) => i !== number - 1);
  return commit(rules, sheet, rounds, sheet.finished, [...sheet.undo, { change: "delete", round: number, was: sheet.rounds[number - 1] }]);
}

export function finish(rules, sheet) {
  if (isOver(rules, sheet)) throw new Error("the match is already over: there is nothing to finish");
  if (!sheet.rounds.length) throw new Error("no round has been entered yet: enter at least one round before finishing");
  return commit(rules, sheet, sheet.rounds, true, [...sheet.undo, { change: "finish" }]);
}

export function undo(rules, sheet) {
  const last = sheet.undo[sheet.undo.length - 1];
  if (!last) throw new Error("nothing to undo: no round has been entered, edited or deleted on this sheet");
  let { rounds, finished } = sheet;
  const index = (last.round ?? 0) - 1;
  if (last.change === "add") rounds = rounds.slice(0, -1);
  else if (last.change === "finish") finished = false;
  else if (last.change === "edit") rounds = rounds.map((r, i) => (i === index ? last.was : r));
  else rounds = [...rounds.slice(0, index), last.was, ...rounds.slice(index)];
  return commit(rules, sheet, rounds, finished, sheet.undo.slice(0, -1));
}

export function isOver(rules, sheet) {
  const results = replay(rules, sheet);
  const totals = results.length ? results[results.length - 1].totals : [];
  return sheet.finished || ended(rules, sheet.players, dealt(results), totals);
}

// ----- the sheet as the page shows it (the shape of the server's sheet view) --------------------------------

function countWords(n, word) {
  return `${n} ${n === 1 ? word : `${word}s`}`;
}

function playerList(names) {
  return names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

function line(rules, table, result, seat) {
  const { players } = result;
  const left = result.entry.left[players[seat]];
  if (result.entry.out === players[seat]) return "went out";
  if (left === undefined || left === null) return "-";
  if (typeof left === "number") return `${left} points`;
  if (!rules.keeps_points) return left.length ? `${countWords(left.length, "card")}: ${left.join(" ")}` : "no cards";
  if (!left.length) return "no cards = 0";
  const values = valueOf(table);
  return `${left.map((c) => `${c} ${values.get(c)}`).join(" + ")} = ${result.worth[seat]}`;
}

/** The sheet as the server's /api/sheets/CODE gives it, computed here. */
export function view(rules, sheet) {
  const { players } = sheet;
  const table = tableOf(rules, players.length);
  const results = replay(rules, sheet).map((r) => ({ ...r, players }));
  const totals = results.length ? results[results.length - 1].totals : players.map(() => 0);
  const byRules = ended(rules, players, dealt(results), totals);
  const over = sheet.finished || byRules;
  const leaders = leading(rules, players, results).map((seat) => players[seat]);
  const winners = over ? leaders : [];
  const lowFirst = rules.keeps_points && rules.lowest_wins;
  let rows = players.map((name, seat) => ({ name, total: totals[seat] }));
  if (!rules.keeps_points && rules.teams) {
    const half = players.length / 2;
    rows = players.slice(0, half).map((name, seat) => ({ name: `${name} & ${players[seat + half]}`, total: totals[seat] }));
  }
  rows = rows.map((row, i) => ({ ...row, i })).sort((a, b) => (lowFirst ? a.total - b.total : b.total - a.total) || a.i - b.i);
  const standings = [];
  rows.forEach((row, i) => {
    const prev = standings[standings.length - 1];
    standings.push({ place: prev && prev.total === row.total ? prev.place : i + 1, name: row.name, total: row.total });
  });
  const first = players.indexOf(sheet.first_dealer);
  const played = results.length;
  const deal = dealt(results); // the next round is dealt after the last one's deal
  const next = over
    ? null
    : { round: played + 1, dealer: players[(first + deal) % players.length], hand_size: table.hand_sizes[deal % table.hand_sizes.length] };
  const early = sheet.finished && !byRules;
  const nextWords = over
    ? `The match ${early ? "was finished" : "is over"} after ${countWords(played, "round")}: ${playerList(winners)} ${winners.length > 1 ? "win" : "wins"}.`
    : `Next: round ${next.round}, ${next.dealer} deals ${next.hand_size} ${next.hand_size === 1 ? "card" : "cards"} each.`;
  return {
    title: rules.title,
    variant: rules.preset,
    players: [...players],
    scoring: table.scoring_words,
    keeps_points: rules.keeps_points,
    rounds: results.map((r) => ({
      round: r.number,
      dealer: players[r.dealer],
      hand_size: r.hand_size,
      out: r.entry.out,
      blocked: r.entry.out === null,
      left: r.entry.left,
      worth: r.worth,
      points: r.points,
      totals: r.totals,
      winners: r.winners.map((seat) => players[seat]),
      lines: players.map((_, seat) => line(rules, table, r, seat)),
    })),
    totals,
    standings,
    over,
    finished_early: early,
    winners,
    next,
    can_undo: sheet.undo.length > 0,
    teams: rules.teams ? players.slice(0, players.length / 2).map((name, seat) => `${name} & ${players[seat + players.length / 2]}`) : [],
    schedule: table.planned,
    target: table.shown_target,
    next_words: nextWords,
    leader: leaders,
    pack: table.pack,
    first_dealer: sheet.first_dealer,
    undo: sheet.undo,
    finished: sheet.finished,
  };
}
