// "Test these rules": a short lab of the rules being set up (POST /api/lab), followed until it ends
// (GET /api/lab/{id}), then its charts (lab-charts.js, loaded when the first figures come).

import { button, el } from "./dom.js";

/** Milliseconds between two looks at a lab that is playing. */
const POLL = 500;

/** One panel per form (its id prefix): kept across the form's redraws, with the lab it shows. */
const panels = new Map();

const keyOf = (config) => JSON.stringify([config.preset, config.options, config.players]);

/** The "Test these rules" panel for the form `prefix`, showing `config` (the rules as set up now). */
export function labPanel(prefix, config) {
  let panel = panels.get(prefix);
  if (!panel) {
    panel = makePanel(prefix);
    panels.set(prefix, panel);
  }
  panel.show(config);
  return panel.node;
}

function makePanel(prefix) {
  const node = el("section", null, "lab");
  node.setAttribute("aria-labelledby", `${prefix}lab-title`);
  const title = el("h3", "Test these rules");
  title.id = `${prefix}lab-title`;
  const about = el(
    "p",
    "Before you play: the computer plays a few dozen games of these rules and of the plain preset, and shows how long a game lasts, the seats' edge, blocked rounds, forced moves and how much skill counts.",
    "about",
  );
  const start = button("Test these rules", () => run());
  start.id = `${prefix}test-rules`;
  const status = el("p", null, "lab-status");
  status.id = `${prefix}lab-status`;
  status.setAttribute("role", "status");
  const progress = document.createElement("progress");
  progress.id = `${prefix}lab-progress`;
  progress.hidden = true;
  progress.setAttribute("aria-labelledby", status.id);
  const problem = el("p", null, "error");
  problem.setAttribute("role", "alert");
  const results = el("div", null, "lab-results");
  results.id = `${prefix}lab-results`;
  node.append(title, about, start, status, progress, problem, results);

  let current = null; // the config shown now
  let tested = null; // the key of the config whose figures are shown
  let ended = ""; // what the status said when they came
  let running = false;

  function stale() {
    if (tested === null || running) return;
    const changed = tested !== keyOf(current);
    results.classList.toggle("stale", changed);
    status.textContent = changed ? "The rules have changed since this test: test them again." : ended;
  }

  async function run() {
    const asked = current;
    running = true;
    start.disabled = true;
    problem.textContent = "";
    status.textContent = "Starting the test…";
    progress.hidden = false;
    progress.removeAttribute("value");
    try {
      let answer = await call("/api/lab", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ preset: asked.preset, options: asked.options, players: asked.players }),
      });
      while (answer.state === "waiting" || answer.state === "playing") {
        showProgress(answer);
        await new Promise((resolve) => setTimeout(resolve, POLL));
        answer = await call(`/api/lab/${encodeURIComponent(answer.id)}`);
      }
      if (answer.state === "failed") throw new Error(capital(answer.error));
      const { drawResults } = await import("./lab-charts.js");
      tested = keyOf(asked);
      results.replaceChildren(...drawResults(answer, prefix));
      ended = answer.lab.partial
        ? `Stopped at the server's time limit: the figures of ${answer.played} of ${answer.total} games.`
        : `Done: ${answer.total} games played${answer.cached ? " (these rules were tested before)" : ""}.`;
      status.textContent = ended;
    } catch (error) {
      problem.textContent = error.message;
      status.textContent = "";
    } finally {
      running = false;
      start.disabled = false;
      progress.hidden = true;
      stale();
    }
  }

  function showProgress(answer) {
    if (answer.state === "waiting") {
      progress.removeAttribute("value");
      const ahead = answer.ahead || 0;
      status.textContent = ahead
        ? `Waiting for the server: ${ahead === 1 ? "one test" : `${ahead} tests`} before yours…`
        : "Starting the test…";
    } else {
      progress.max = answer.total;
      progress.value = answer.played;
      status.textContent = `Playing: ${answer.played} of ${answer.total} games…`;
    }
  }

  return {
    node,
    show(config) {
      current = config;
      stale();
    },
  };
}

/** fetch, and the JSON answer; an Error with the server's words when it refused. */
async function call(url, init) {
  let answer;
  let body;
  try {
    answer = await fetch(url, init);
    body = await answer.json();
  } catch {
    throw new Error("The server cannot be reached: try again in a moment.");
  }
  if (!answer.ok) throw new Error(capital(body.error || "the server refused the test"));
  return body;
}

const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);
