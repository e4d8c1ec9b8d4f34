/* The panel of a kind of question that describes itself (the server's
   snakesim.workbench.panels.described): its section is drawn from the description the server
   lists (its kind, title, default games and fields, each with a type and a default), before
   section "Keep it"; it plays one rule set and shows the findings in words and the rows. One
   module serves every such kind: make(description) gives each its panel. */

import { findingsList } from "./results.js";
import { $, node, wholeNumber } from "./util.js";

/* One field's box: a checkbox for a yes-or-no, a text box for the rest. */
function fieldBox(row, id, field) {
  const label = node("label", field.type === "bool" ? "check" : null, null, row);
  const input = node("input", null, null, label);
  input.id = id;
  input.autocomplete = "off";
  if (field.type === "bool") {
    input.type = "checkbox";
    input.checked = Boolean(field.default);
    label.appendChild(document.createTextNode(` ${field.name}`));
  } else {
    input.type = "text";
    input.size = 8;
    if (field.type === "int") input.inputMode = "numeric";
    if (field.type === "float") input.inputMode = "decimal";
    input.value = String(field.default);
    label.insertBefore(document.createTextNode(`${field.name} `), input);
  }
  return input;
}

/* A field's value as the server takes it, or an Error naming the field. */
function fieldValue(id, field) {
  const input = $(id);
  if (field.type === "bool") return input.checked;
  const text = input.value.trim();
  if (field.type === "str") return text;
  const number = Number(text.replace(/[,_ ]/g, ""));
  if (field.type === "int" && !/^-?\d+$/.test(text.replace(/[,_ ]/g, ""))) {
    throw new Error(`${field.name}: expected a whole number, got '${text}'`);
  }
  if (field.type === "float" && (!text || !Number.isFinite(number))) {
    throw new Error(`${field.name}: expected a number, got '${text}'`);
  }
  return number;
}

/* Its rows as a table: the columns they fill, in the shared order. */
const SHOWN = ["rules", "lineup", "label", "value", "low", "high", "unit", "games"];

function rowsTable(box, rows) {
  box.innerHTML = "";
  if (!rows.length) return;
  const columns = SHOWN.filter((c) => rows.some((r) => r[c] !== null && r[c] !== undefined));
  const table = node("table", null, null, box);
  const head = node("tr", null, null, node("thead", null, null, table));
  columns.forEach((c) => { node("th", null, c, head).scope = "col"; });
  const body = node("tbody", null, null, table);
  rows.forEach((r) => {
    const tr = node("tr", null, null, body);
    columns.forEach((c) => {
      const v = r[c];
      node("td", null, v === null || v === undefined ? "" : typeof v === "number" ? v.toLocaleString("en") : v, tr);
    });
  });
}

export function make(description) {
  const kind = description.kind;
  const id = (part) => `${kind}-${part}`;
  const fieldId = (f) => id(`field-${f.name}`);
  const panel = {
    kind,
    noun: description.noun,
    shows: description.noun,
    again: description.title,
    openEnded: "it plays until its answer is known",
    ids: { button: id("play"), cancel: id("cancel"), bar: id("progress"), status: id("status"), error: id("error"),
           box: id("results"), stale: id("stale") },
  };

  /* The section, drawn once, before "Keep it". */
  const section = document.createElement("section");
  section.id = id("section");
  section.setAttribute("aria-labelledby", id("title"));
  $("keep").before(section);
  const title = node("h2", null, description.title, section);
  title.id = id("title");
  const settings = node("div", "row", null, section);
  const armLabel = node("label", null, "Rule set ", settings);
  const pick = node("select", null, null, armLabel);
  pick.id = id("arm");
  const gamesLabel = node("label", null, "Games ", settings);
  const games = node("input", null, null, gamesLabel);
  Object.assign(games, { id: id("games"), type: "text", inputMode: "numeric", autocomplete: "off", size: 8,
                         value: String(description.games) });
  const fields = node("div", "row", null, section);
  description.fields.forEach((f) => fieldBox(fields, fieldId(f), f));
  const actions = node("div", "row", null, section);
  const play = node("button", null, description.title, actions);
  Object.assign(play, { id: panel.ids.button, type: "button", disabled: true });  // (until the page is ready)
  const cancel = node("button", null, "Cancel", actions);
  Object.assign(cancel, { id: panel.ids.cancel, type: "button", hidden: true });
  const bar = node("progress", null, null, actions);
  Object.assign(bar, { id: panel.ids.bar, max: 1, value: 0, hidden: true });
  node("span", null, null, actions).id = panel.ids.status;
  $(panel.ids.status).setAttribute("role", "status");
  const error = node("p", "error", null, section);
  Object.assign(error, { id: panel.ids.error, hidden: true });
  error.setAttribute("role", "alert");
  const results = node("div", null, null, section);
  Object.assign(results, { id: panel.ids.box, hidden: true });
  const stale = node("p", "stale-note", null, results);
  Object.assign(stale, { id: panel.ids.stale, hidden: true });
  stale.setAttribute("role", "status");
  const findings = node("ul", "findings", null, results);
  const table = node("div", "table-box", null, results);

  panel.request = (page) => {
    const { state } = page;
    const arm = state.arms.find((a) => a.name === pick.value) || state.arms[0];
    const out = { kind, ...page.common(), games: wholeNumber(id("games"), "games", 1, state.limits.max_games),
                  feel: $("feel").checked, arm: page.armRequest(arm) };
    description.fields.forEach((f) => { out[f.name] = fieldValue(fieldId(f), f); });
    return out;
  };
  panel.changes = (then, now) => {
    const out = description.fields.filter((f) => then[f.name] !== now[f.name]).map((f) => f.name);
    if (then.games !== now.games) out.push("the games");
    if (then.arm.toml !== now.arm.toml) out.push(`the rules of ${now.arm.name}`);
    else if (JSON.stringify(then.arm.policies) !== JSON.stringify(now.arm.policies)) {
      out.push(`the players of ${then.arm.name}`);
    }
    return out;
  };
  panel.changed = () => {};
  panel.show = (shown) => {
    results.hidden = false;
    findingsList(findings, shown.result.findings);
    rowsTable(table, shown.result.rows);
  };
  panel.clear = () => { results.hidden = true; };
  panel.armsDrawn = (page) => {
    const before = pick.value;
    pick.innerHTML = "";
    page.state.arms.forEach((arm) => { node("option", null, arm.name, pick).value = arm.name; });
    if (page.state.arms.some((a) => a.name === before)) pick.value = before;
  };
  panel.renamed = (before, after) => { if (pick.value === before) pick.value = after; };
  /* The address: the section's settings and the run whose results it shows. */
  panel.save = (page, shown) => {
    const saved = { a: pick.value, n: games.value, r: shown ? shown.id : null, f: {} };
    description.fields.forEach((f) => {
      const input = $(fieldId(f));
      saved.f[f.name] = f.type === "bool" ? input.checked : input.value;
    });
    return { [`q-${kind}`]: saved };
  };
  panel.savedRun = (saved) => saved[`q-${kind}`] && saved[`q-${kind}`].r;
  /* Its part of the address for an earlier answer (its request and its id), as save gives it. */
  panel.savedFrom = (request, id) => {
    const f = {};
    description.fields.forEach((x) => { if (x.name in request) f[x.name] = request[x.name]; });
    return { [`q-${kind}`]: { a: request.arm.name, n: String(request.games), r: id, f } };
  };
  panel.restore = (saved) => {
    const s = saved[`q-${kind}`];
    if (!s) return;
    if (s.a && [...pick.options].some((o) => o.value === s.a)) pick.value = s.a;
    if (s.n) games.value = s.n;
    description.fields.forEach((f) => {
      if (!s.f || !(f.name in s.f)) return;
      const input = $(fieldId(f));
      if (f.type === "bool") input.checked = Boolean(s.f[f.name]); else input.value = s.f[f.name];
    });
  };
  panel.wire = (page) => {
    play.addEventListener("click", () => page.run(kind));
    games.addEventListener("input", page.changed);
    description.fields.forEach((f) => {
      $(fieldId(f)).addEventListener(f.type === "bool" ? "change" : "input", page.changed);
    });
    pick.addEventListener("change", page.changed);
  };
  return panel;
}
