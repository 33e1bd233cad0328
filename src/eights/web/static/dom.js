// Small helpers shared by the page's modules. Text always goes in through textContent (names come from
// other people): nothing here, or anywhere in the page, sets innerHTML.

export const $ = (id) => document.getElementById(id);

/** An element with optional text and class. */
export function el(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = text;
  if (className) node.className = className;
  return node;
}

/** A button that runs `onClick`. */
export function button(text, onClick, className) {
  const node = el("button", text, className);
  node.type = "button";
  node.addEventListener("click", onClick);
  return node;
}

/** A label wrapping a control, with the label's words first. */
export function labelled(words, control, className) {
  const label = el("label", null, className);
  label.append(el("span", words, "label-text"), control);
  return label;
}

/** A <select> with `choices` as [value, words] pairs. */
export function select(id, choices, value) {
  const node = document.createElement("select");
  if (id) node.id = id;
  for (const [choice, words] of choices) node.append(new Option(words, choice));
  if (value !== undefined) node.value = value;
  return node;
}

/** Re-draw `draw()` without losing the keyboard focus: the focused element's id is focused again. */
export function keepingFocus(draw) {
  const id = document.activeElement && document.activeElement.id;
  draw();
  if (id && document.activeElement?.id !== id) document.getElementById(id)?.focus({ preventScroll: true });
}

// ----- the browser's storage: your name and each room's seat token ------------------------------------

function read(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null; // storage off (a private window): nothing is remembered
  }
}

function write(key, value) {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    // storage off: the page still works, it just forgets
  }
}

/** The most rooms remembered for Continue (the server answers about as many at once). */
const RECENT = 8;

export const saved = {
  name: () => read("eights-name") || "",
  setName: (name) => write("eights-name", name),
  token: (code) => read(`eights-token-${code}`),
  setToken: (code, token) => write(`eights-token-${code}`, token),
  /** The seats of the other people playing on this device (pass and play): [{seat, token}]. */
  here(code) {
    try {
      const seats = JSON.parse(read(`eights-here-${code}`) || "[]");
      return Array.isArray(seats) ? seats.filter((s) => Number.isInteger(s.seat) && typeof s.token === "string") : [];
    } catch {
      return [];
    }
  },
  /** The rooms this device took a seat in, the newest first (Continue on the home page offers them). */
  recent() {
    try {
      const codes = JSON.parse(read("eights-recent") || "[]");
      return Array.isArray(codes) ? codes.filter((c) => typeof c === "string").slice(0, RECENT) : [];
    } catch {
      return [];
    }
  },
  remember: (code) => write("eights-recent", JSON.stringify([code, ...saved.recent().filter((c) => c !== code)].slice(0, RECENT))),
  forget: (code) => write("eights-recent", JSON.stringify(saved.recent().filter((c) => c !== code))),
  setHere: (code, seats) => write(`eights-here-${code}`, seats.length ? JSON.stringify(seats) : null),
  /** A choice of the table's (the four-colour deck, sound): "on" or nothing. */
  choice: (key) => read(`eights-${key}`) === "on",
  setChoice: (key, on) => write(`eights-${key}`, on ? "on" : null),
};

/** Copy `text` to the clipboard; the answer says whether it worked. */
export async function copy(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/** Show `text` for a few seconds in the page's message line (role="alert"); a tap hides it sooner. */
let flashTimer = null;
export function flash(text) {
  const line = $("flash");
  const hide = () => {
    line.hidden = true;
    line.textContent = "";
  };
  line.textContent = text;
  line.hidden = false;
  line.onclick = hide;
  clearTimeout(flashTimer);
  flashTimer = setTimeout(hide, 6000);
}
