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
export const openEnded = "it stops once the changes left open are settled";  // (a run that settles another)
export const ids = { button: "run", cancel: "cancel", bar: "progress", status: "status", error: "run-error",
                     box: "results-body", stale: "stale" };

export function request(page) {
  const { state } = page;
  const arms = page.played();
  const most = Math.max(1, Math.floor(state.limits.max_games / arms.length));
  // (the server's games in all, shared by the rule sets: a family saw the limit move unexplained)
  const shared = arms.length > 1 ? ` (${count(state.limits.max_games)} games in all, shared by ${arms.length} rule `
    + "sets)" : "";
  return {
    kind, ...page.common(), games: wholeNumber("games", "games per rule set", 1, most, shared), feel: $("feel").checked,
    matters: $("matters").value.trim(), arms: arms.map(page.armRequest),
  };
}

/* What changed, for this panel, between the request a result answers and today's. */
export function changes(then, now) {
  const out = [];
  // (with both counts: the settle button changes them itself, and a family read "changed" as
  // something it had done)
  if (then.games !== now.games) out.push(`the games per rule set (${count(then.games)} then, ${count(now.games)} now)`);
  if ((then.matters || "") !== (now.matters || "")) out.push("what matters");
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

/* Every figure of a comparison as a table: one row a figure, named by its label as the command
   line's table names it ("lead changes", not lead_changes), one column a rule set. */
function figuresTable(rows) {
  const arms = [], cells = {}, labels = {};
  rows.forEach((r) => {
    if (arms.indexOf(r.arm) < 0) arms.push(r.arm);
    (cells[r.metric] = cells[r.metric] || {})[r.arm] = r;
    labels[r.metric] = r.label || r.metric;
  });
  const table = node("table", "figures");
  const head = node("tr", null, null, node("thead", null, null, table));
  node("th", null, "figure", head).scope = "col";
  arms.forEach((a) => { node("th", null, a, head).scope = "col"; });
  const body = node("tbody", null, null, table);
  Object.keys(cells).forEach((metric) => {
    const tr = node("tr", null, null, body);
    const th = node("th", null, labels[metric], tr);
    th.scope = "row";
    th.title = metric;
    arms.forEach((a) => {
      const r = cells[metric][a], td = node("td", r && r.verdict === "matters" ? "changed" : null, null, tr);
      if (!r) return;
      node("div", null, r.value, td);
      if (r.diff) node("div", "diff", r.diff, td);
    });
  });
  return table;
}

export function show(shown, page) {
  const { result, request } = shown;
  $("results-body").hidden = false;
  $("results-empty").hidden = true;
  $("results-gone").hidden = true;
  findingsList($("findings"), result.findings);
  window.SnakesimCharts.render($("charts"), result.charts, 3);
  $("details-note").textContent = result.details_note;
  $("table-box").innerHTML = "";
  $("table-box").appendChild(figuresTable(result.rows));
  tableHint();
  $("command").textContent = result.command;
  settleButton(result.settle, request.arms.length, page.state.limits);
}

/* Under the findings, where some change is not settled: a button that plays the games that
   would settle it (with the anytime-valid stopping where those are rates, as the command
   line's --precision does: its answer stays valid although it looks after every block). */
function settleButton(settle, arms, limits) {
  $("settle-box").hidden = !settle;
  if (!settle) return;
  // (no more than this server plays in one request)
  const most = Math.max(1, Math.floor(limits.max_games / Math.max(1, arms)));
  const anytime = settle.precision !== null && settle.precision !== undefined;
  const games = Math.min(anytime ? settle.max_games : settle.games, most);
  const capped = games < (anytime ? settle.max_games : settle.games);
  $("settle").textContent = anytime
    ? `Play until it is settled (up to ${count(games)} games per rule set)`
    : `Play ${count(games)} games per rule set${capped ? "" : " to settle it"}`;
  $("settle-note").textContent = (anytime
    ? "It adds games in blocks and stops as soon as the changes left open are settled; its answer holds although "
      + "it looked after every block."
    : "The same games and more: the first ones are these.")
    + (capped ? ` This server plays at most ${count(most)} games per rule set: it may not be enough to settle `
      + "everything; the command line in the details plays as many as it takes." : "");
  settled = { ...settle, games: anytime ? settle.games : games, max_games: anytime ? games : settle.max_games };
}

let settled = null;

/* Say so when the details' table runs past the screen's edge (a family never saw its third
   rule set: nothing showed the table slides). */
function tableHint() {
  const box = $("table-box");
  $("table-hint").hidden = !$("details").open || box.scrollWidth <= box.clientWidth + 1;
}

export function clear() {
  $("results-body").hidden = true;
  $("results-empty").hidden = false;
}

/* The address: what matters, and the run whose results the page shows. */
export const save = (page, shown) => ({ r: shown ? shown.id : null, m: $("matters").value });
export const savedRun = (saved) => saved.r;
/* Its part of the address for an earlier answer (its request and its id), as save gives it. */
export const savedFrom = (request, id) => ({ n: String(request.games), m: request.matters || "", r: id });

export function restore(saved) {
  if (typeof saved.m === "string") $("matters").value = saved.m;
}

export function wire(page) {
  $("details").addEventListener("toggle", tableHint);
  window.addEventListener("resize", tableHint);
  $("run").addEventListener("click", () => page.run(kind));
  $("matters").addEventListener("input", page.changed);
  $("matters").addEventListener("keydown", (e) => { if (e.key === "Enter") page.run(kind); });
  $("settle").addEventListener("click", async () => {
    if (!settled) return;
    if (settled.precision === null || settled.precision === undefined) {
      $("games").value = String(settled.games);
      page.changed();
      await page.run(kind);
    } else {
      await page.run(kind, { precision: settled.precision, max_games: settled.max_games });
    }
    // (its progress and Cancel are in section 3, as Play's)
    $("run-section").scrollIntoView({ block: "start" });
    if (!$("cancel").hidden) $("cancel").focus({ preventScroll: true });
  });
  $("run-again").addEventListener("click", async () => {
    await page.run(kind);
    $("run-section").scrollIntoView({ block: "start" });
    if (!$("cancel").hidden) $("cancel").focus({ preventScroll: true });
  });
}
