/* The rules editor: a form drawn from the game's rules schema and the same rules as TOML,
   both editing one rule set. The server checks every edit (the command line's one-line
   messages) and answers with the complete rules.

   Nothing typed is ever put back: each edit is kept as pending (field -> text) from the moment
   it is typed until the server has taken exactly that text, and the form is refilled from an
   answer only in fields with no edit pending. Every request carries every pending edit, so
   edits typed while an answer is on its way are neither lost nor overwritten. An edit the
   server refuses stays in its field, marked, with the server's line, until it is changed. */

import { $, api, node, showError } from "./util.js";

const pending = { settings: new Map(), toml: null, invalid: new Map(), tomlError: null };
let game = null;
let hooks = null;
let timer = null;
let inflight = null;

const fieldKey = (el) => el.dataset.field + (el.dataset.key !== undefined ? "." + el.dataset.key : "");
const formFields = () => $("form").querySelectorAll("[data-field]");
const check = (toml, settings) => api("POST", "/api/rules", { game: game.name, toml, set: settings });

/* Draw the form for a game. hooks.arm() is the rule set being edited; hooks.changed(arm) is
   told when its rules change; hooks.editsTaken() when no edit is refused any more (fixed or
   thrown away); hooks.limits the server's limits. */
export function buildEditor(g, h) {
  game = g;
  hooks = h;
  discard();
  const form = $("form");
  form.innerHTML = "";
  game.fields.forEach((f) => {
    const box = node("fieldset", "field", null, form);
    node("legend", null, f.name, box);
    node("p", "help", `${f.help} (${f.allowed})`, box);
    if (f.kind === "table") {
      const grid = node("div", "table-grid", null, box);
      f.keys.forEach((key) => {
        const label = node("label", null, null, grid);
        node("span", null, key, label);
        label.appendChild(input(f.entry, f.name, key));
      });
    } else if (f.kind === "named") {  // (any names a user adds: shown here, edited in the rules text)
      const shown = node("output", "named", null, box);
      shown.dataset.field = f.name;
      shown.setAttribute("aria-label", f.name);
      node("p", "help", "Change these in the rules text (TOML) beside the form: it takes any name.", box);
    } else {
      box.appendChild(input(f, f.name, null));
    }
  });
}

function input(f, name, key) {
  let el;
  if (f.kind === "bool") {
    el = document.createElement("input");
    el.type = "checkbox";
  } else if (f.kind === "choice") {
    el = document.createElement("select");
    f.choices.forEach((c) => { node("option", null, c, el).value = c; });
  } else {  // (whole numbers too: a text field, so the server sees and names exactly what was typed)
    el = document.createElement("input");
    el.type = "text";
    el.spellcheck = false;
    el.autocomplete = "off";
    if (f.kind === "int") el.inputMode = "numeric";
  }
  el.dataset.field = name;
  if (key !== null) el.dataset.key = key;
  el.setAttribute("aria-label", key === null ? name : `${name} ${key}`);
  const immediate = el.type === "checkbox" || el.tagName === "SELECT";
  el.addEventListener(immediate ? "change" : "input", () => {
    const k = fieldKey(el);
    pending.settings.set(k, el.type === "checkbox" ? String(el.checked) : el.value);
    if (pending.invalid.delete(k)) el.classList.remove("invalid");
    schedule(immediate ? 0 : 350);
  });
  return el;
}

function schedule(delay) {
  clearTimeout(timer);
  timer = setTimeout(() => { timer = null; flush(); }, delay);
}

const valid = () => [...pending.settings].filter(([k]) => !pending.invalid.has(k));
const waiting = () => valid().length > 0 || (pending.toml !== null && pending.tomlError === null);

/* Send every pending edit in one request, one request at a time. */
function flush() {
  if (inflight || !waiting()) return inflight;
  const arm = hooks.arm();
  const sent = valid();
  const toml = pending.tomlError === null ? pending.toml : null;
  const base = toml !== null ? toml : arm.toml;
  if (base.length > hooks.limits.max_toml) {
    pending.tomlError = `toml: a rules text is at most ${hooks.limits.max_toml.toLocaleString("en")} characters, `
      + `got ${base.length.toLocaleString("en")}: paste one game's rules`;
    $("toml").classList.add("invalid");
    report();
    return null;
  }
  inflight = check(base, sent.map(([k, v]) => `${k}=${v}`)).then(
    (view) => taken(arm, view, sent, toml),
    (err) => refused(err, sent, toml),
  ).then(() => {
    inflight = null;
    if (timer === null && waiting()) return flush();
    return null;
  });
  return inflight;
}

function taken(arm, view, sent, toml) {
  Object.assign(arm, { toml: view.toml, changes: view.changes, summary: view.summary, hash: view.hash });
  sent.forEach(([k, v]) => { if (pending.settings.get(k) === v) pending.settings.delete(k); });
  if (toml !== null && pending.toml === toml) {
    pending.toml = null;
    $("toml").classList.remove("invalid");
  }
  if (hooks.arm() === arm) fill(view);
  report();
  hooks.changed(arm);
}

function refused(err, sent, toml) {
  if (err.status === undefined) {  // (no answer at all: keep the edits, say so, and try again in a while)
    showError("rules-error", err.message);
    schedule(3000);
    return;
  }
  const message = err.message;
  const hit = sent.find(([k]) => [":", ".", "["].some((end) => message.startsWith(k + end)));
  if (hit) {
    pending.invalid.set(hit[0], message);
  } else if (toml !== null) {
    pending.tomlError = message;
    $("toml").classList.add("invalid");
  } else {
    sent.forEach(([k]) => pending.invalid.set(k, message));
  }
  formFields().forEach((el) => el.classList.toggle("invalid", pending.invalid.has(fieldKey(el))));
  report();
}

/* The first refused edit's line (and whether the form waits for the TOML to be fixed). */
function report() {
  const message = pending.tomlError || [...pending.invalid.values()][0] || "";
  showError("rules-error", message);
  $("rules-undo").hidden = !message;
  if (!message && hooks && hooks.editsTaken) hooks.editsTaken();
  const blocked = pending.tomlError !== null;
  $("form").querySelectorAll("fieldset").forEach((f) => { f.disabled = blocked; });
  $("form-blocked").hidden = !blocked;
}

/* Fill the form and the TOML from checked rules, except fields with an edit pending. */
function fill(view) {
  formFields().forEach((el) => {
    if (pending.settings.has(fieldKey(el))) return;
    let value = view.texts[el.dataset.field];
    if (el.dataset.key !== undefined) value = value ? value[el.dataset.key] : "";
    if (el.type === "checkbox") el.checked = value === true;
    else if (el.tagName === "OUTPUT") el.textContent = value === "{}" ? "none" : String(value);
    else {
      const text = value === undefined || value === null ? "" : String(value);
      if (el.value !== text) el.value = text;
    }
  });
  if (pending.toml === null && document.activeElement !== $("toml")) $("toml").value = view.toml;
  summarize();
}

/* The line over the form: what the edited rule set changes from the standard game. */
export function summarize() {
  const arm = hooks.arm();
  $("rules-summary").textContent = arm.changes
    ? `What ${arm.name} changes from the standard game: ${arm.summary}.`
    : `${arm.name} plays the standard game as it is: change a rule below to make it your own.`;
}

/* Show a rule set's rules in the editor (its edits pending are settled first). */
export async function loadArm(arm) {
  const view = await check(arm.toml, []);
  Object.assign(arm, { toml: view.toml, changes: view.changes, summary: view.summary, hash: view.hash });
  fill(view);
  return view;
}

/* Replace the edited rule set's rules by a complete rules text (a variant's). */
export async function replaceRules(toml) {
  await settle().catch(() => {});
  discard();
  const arm = hooks.arm();
  const view = await check(toml, []);
  Object.assign(arm, { toml: view.toml, changes: view.changes, summary: view.summary, hash: view.hash });
  fill(view);
  hooks.changed(arm);
}

/* Wait until every edit typed has been checked and taken; an Error with the first refused
   edit's line if one remains. */
export async function settle() {
  for (let i = 0; i < 50; i++) {
    if (inflight) await inflight;
    else if (timer !== null || waiting()) {
      clearTimeout(timer);
      timer = null;
      await flush();
    } else break;
  }
  const message = pending.tomlError || [...pending.invalid.values()][0];
  if (message) {
    const err = new Error(`${hooks.arm().name}: ${message} (fix it, or press "Throw away the refused edit")`);
    err.refusedEdit = true;  // (the page takes the message down once no edit is refused: hooks.editsTaken)
    throw err;
  }
}

/* Drop every edit not taken, and show the rule set's rules as they are. */
export function discard() {
  clearTimeout(timer);
  timer = null;
  pending.settings.clear();
  pending.invalid.clear();
  pending.toml = null;
  pending.tomlError = null;
  if (!hooks) return;
  $("toml").classList.remove("invalid");
  formFields().forEach((el) => el.classList.remove("invalid"));
  report();
}

export function watchToml() {
  const box = $("toml");
  box.addEventListener("input", () => {
    pending.toml = box.value;
    pending.tomlError = null;
    box.classList.remove("invalid");
    report();
    schedule(400);
  });
  box.addEventListener("blur", () => {  // (shown as the server writes it, once it is taken)
    if (pending.toml === null && hooks) box.value = hooks.arm().toml;
  });
  $("rules-undo").addEventListener("click", async () => {
    discard();
    await loadArm(hooks.arm());
  });
}
