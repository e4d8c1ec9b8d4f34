/* The comparison panel (the server's snakesim.workbench.panels.compare): Play plays every rule
   set the page lists, but those no different from the baseline, on the same games, and
   section 4 shows what each changes from the first: the findings, the charts, every figure. */

import { findingsList } from "./results.js";
import { describeSeats } from "./rulesets.js";
import { $, count, listed, node, showError, wholeNumber } from "./util.js";

export const kind = "compare";
export const noun = "comparison";  // (what a run of it is: "this page's comparison is still playing")
export const shows = "comparison";  // (what its results are: "the comparison this link showed")
export const again = "Play the games";
export const ids = { button: "run", cancel: "cancel", bar: "progress", status: "status", error: "run-error",
                     box: "results-body", stale: "stale" };

export function request(page) {
  const { state } = page;
  const arms = page.played();
  const most = Math.max(1, Math.floor(state.limits.max_games / arms.length));
  return {
    kind, ...page.common(), games: wholeNumber("games", "games per rule set", 1, most), feel: $("feel").checked,
    arms: arms.map(page.armRequest),
  };
}

/* What changed, for this panel, between the request a result answers and today's. */
export function changes(then, now) {
  const out = [];
  if (then.games !== now.games) out.push("the games per rule set");
  // (a rule set renamed is the same rule set: its results still hold)
  if (then.arms.length !== now.arms.length) out.push("the rule sets compared");
  else {
    then.arms.forEach((a, i) => {
      const b = now.arms[i];
      if (a.toml !== b.toml) out.push(`the rules of ${b.name}`);
      else if (JSON.stringify(a.policies) !== JSON.stringify(b.policies)) out.push(`the players of ${b.name}`);
    });
  }
  return out;
}

/* Section 3's line: what Play will play. */
export function changed(page) {
  let text;
  try {
    const r = request(page);
    const names = r.arms.map((a) => a.name);
    text = r.arms.length === 1
      ? `Play plays ${names[0]} alone: ${count(r.games)} games with ${r.players} players.`
      : `Play compares ${listed(names)}: ${count(r.games)} games each, every rule set dealt the same shuffles, `
        + `with ${r.players} players.`;
    if (r.lineup && new Set(r.lineup).size > 1) text += ` Players: ${describeSeats(r.lineup)}.`;
    const out = page.leftOut().map((a) => a.name);
    if (out.length) {
      text += ` It leaves out ${listed(out)}: no different from ${page.state.arms[0].name} yet.`;
    }
    showError("setup-error", "");
  } catch (err) {
    text = "";
    showError("setup-error", err.message);
  }
  $("plan").textContent = text;
}

/* Every figure of a comparison as a table: one row a figure, one column a rule set. */
function figuresTable(rows) {
  const arms = [], cells = {};
  rows.forEach((r) => {
    if (arms.indexOf(r.arm) < 0) arms.push(r.arm);
    (cells[r.metric] = cells[r.metric] || {})[r.arm] = r;
  });
  const table = node("table", "figures");
  const head = node("tr", null, null, node("thead", null, null, table));
  node("th", null, "figure", head).scope = "col";
  arms.forEach((a) => { node("th", null, a, head).scope = "col"; });
  const body = node("tbody", null, null, table);
  Object.keys(cells).forEach((metric) => {
    const tr = node("tr", null, null, body);
    node("th", null, metric, tr).scope = "row";
    arms.forEach((a) => {
      const r = cells[metric][a], td = node("td", r && r.significant ? "changed" : null, null, tr);
      if (!r) return;
      node("div", null, r.value, td);
      if (r.diff) node("div", "diff", r.diff, td);
    });
  });
  return table;
}

export function show(shown) {
  const { result } = shown;
  $("results-body").hidden = false;
  $("results-empty").hidden = true;
  $("results-gone").hidden = true;
  findingsList($("findings"), result.findings);
  window.SnakesimCharts.render($("charts"), result.charts, 3);
  $("details-note").textContent = result.details_note;
  $("table-box").innerHTML = "";
  $("table-box").appendChild(figuresTable(result.rows));
  $("command").textContent = result.command;
}

export function clear() {
  $("results-body").hidden = true;
  $("results-empty").hidden = false;
}

/* The address: the run whose results the page shows. */
export const save = (page, shown) => ({ r: shown ? shown.id : null });
export const savedRun = (saved) => saved.r;

export function wire(page) {
  $("run").addEventListener("click", () => page.run(kind));
  $("run-again").addEventListener("click", async () => {
    await page.run(kind);
    $("run-section").scrollIntoView({ block: "start" });
    if (!$("cancel").hidden) $("cancel").focus({ preventScroll: true });
  });
}
