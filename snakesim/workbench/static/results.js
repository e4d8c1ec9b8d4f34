/* What the runs found, as the page shows it: the findings in words, the charts, every figure
   in a details view, and a mark on every result the moment the settings it answers change. */

import { $, listed, node } from "./util.js";

function findingsList(list, findings) {
  list.innerHTML = "";
  findings.forEach((f) => {
    const li = node("li", null, null, list);
    if (f.arm) node("strong", null, `${f.arm}: `, li);
    li.appendChild(document.createTextNode(f.text));
  });
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

export function showCompare(shown) {
  const { result } = shown;
  $("results-body").hidden = false;
  $("results-empty").hidden = true;
  findingsList($("findings"), result.findings);
  window.SnakesimCharts.render($("charts"), result.charts, 3);
  $("details-note").textContent = result.details_note;
  $("table-box").innerHTML = "";
  $("table-box").appendChild(figuresTable(result.rows));
  $("command").textContent = result.command;
}

export function showBalance(shown) {
  $("balance-results").hidden = false;
  findingsList($("balance-findings"), shown.result.findings);
  window.SnakesimCharts.render($("balance-charts"), shown.result.charts, 3);
  $("balance-command").textContent = shown.result.command;
}

const NAMES = { game: "the game", players: "the number of players", seed: "the seed", feel: "the feel switch",
                lineup: "who plays", handicap: "the handicap", tolerance: "how fair is fair" };

/* What differs between the request a result answers and the one the page would send now. */
export function changesBetween(then, now) {
  const out = [];
  Object.keys(NAMES).forEach((k) => {
    if (JSON.stringify(then[k]) !== JSON.stringify(now[k])) out.push(NAMES[k]);
  });
  if (then.games !== now.games) out.push(then.kind === "balance" ? "the games per try" : "the games per rule set");
  if (then.kind === "balance") {
    const a = then.arm, b = now.arm;
    if (a.toml !== b.toml) out.push(`the rules of ${b.name}`);
    else if (JSON.stringify(a.policies) !== JSON.stringify(b.policies)) out.push(`the players of ${a.name}`);
    return out;
  }
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

/* Mark each shown result whose settings have changed since it was played. */
export function markStale(state, requests) {
  [["compare", "results-body", "stale"], ["balance", "balance-results", "balance-stale"]].forEach(([kind, box, note]) => {
    const shown = state.shown[kind];
    if (!shown) return;
    let now = null;
    try { now = requests[kind](); } catch (e) { now = null; }
    const changed = now ? changesBetween(shown.request, now) : [];
    $(box).classList.toggle("stale", !now || changed.length > 0);
    $(note).hidden = Boolean(now) && !changed.length;
    const again = kind === "compare" ? "Play the games" : "Find the handicap";
    $(note).textContent = !now
      ? "Out of date: a setting above is not valid now (its message says why); these results answer the settings "
        + "before."
      : changed.length
        ? `Out of date: these results answer earlier settings, and ${listed(changed)} changed since. `
          + `Press "${again}" to see what the settings above do.`
        : "";
  });
}
