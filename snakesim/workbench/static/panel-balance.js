/* The balance panel (the server's snakesim.workbench.panels.balance): section 6 searches the
   per-seat value (a handicap) that gives every seat of one rule set the same chance, then
   checks it on fresh games. */

import { findingsList } from "./results.js";
import { $, node, wholeNumber } from "./util.js";

export const kind = "balance";
export const noun = "search for a fair handicap";
export const shows = "fair handicap";
export const again = "Find the handicap";
export const openEnded = "the search stops once it can tell its tries apart";
export const ids = { button: "balance", cancel: "balance-cancel", bar: "balance-progress", status: "balance-status",
                     error: "balance-error", box: "balance-results", stale: "balance-stale" };

export function request(page) {
  const { state } = page;
  const arm = state.arms.find((a) => a.name === $("balance-arm").value) || state.arms[0];
  const tolerance = Number($("tolerance").value);
  if (!(tolerance >= 0.1 && tolerance <= 20)) {
    throw new Error(`fair within: expected a number of percentage points from 0.1 to 20, got '${$("tolerance").value}'`);
  }
  const most = Math.max(100, Math.floor(state.limits.max_games / 50));
  return {
    kind, ...page.common(), games: wholeNumber("balance-games", "games per try", 100, most), feel: false,
    arm: page.armRequest(arm), handicap: $("handicap").value, tolerance: Math.round(tolerance * 1000) / 100000,
  };
}

export function changes(then, now) {
  const out = [];
  if (then.handicap !== now.handicap) out.push("the handicap");
  if (then.tolerance !== now.tolerance) out.push("how fair is fair");
  if (then.games !== now.games) out.push("the games per try");
  if (then.arm.toml !== now.arm.toml) out.push(`the rules of ${now.arm.name}`);
  else if (JSON.stringify(then.arm.policies) !== JSON.stringify(now.arm.policies)) {
    out.push(`the players of ${then.arm.name}`);
  }
  return out;
}

export function changed() {}

export function show(shown, page) {
  const result = shown.result;
  $("balance-results").hidden = false;
  findingsList($("balance-findings"), result.findings);
  // The recommended values as a rule set to compare (it was nowhere but in the words).
  const add = $("balance-add");
  const values = `[${result.values.join(", ")}]`;
  add.hidden = !result.toml || JSON.stringify(result.values) === JSON.stringify(result.base);
  add.disabled = false;
  add.textContent = `Add ${result.handicap} = ${values} as a rule set`;
  add.onclick = async () => {
    add.disabled = true;
    // (a name the command line's LABEL= takes: no brackets or commas)
    const name = await page.addRules(`${result.handicap} (${result.values.join(" ")})`, result.toml);
    add.textContent = name ? `Added as ${name} (section 2)` : "The list of rule sets is full";
  };
  window.SnakesimCharts.render($("balance-charts"), result.charts, 3);
  $("balance-command").textContent = result.command;
}

export function clear() {
  $("balance-results").hidden = true;
}

/* A game's per-seat options, the handicaps it may search. */
export function fill(game) {
  $("handicap").innerHTML = "";
  game.per_seat.forEach((h) => $("handicap").appendChild(new Option(h, h)));
}

/* The rule set to balance: one of those the page lists, the same as before where it still is. */
export function armsDrawn(page) {
  const pick = $("balance-arm");
  const before = pick.value;
  pick.innerHTML = "";
  page.state.arms.forEach((arm) => { node("option", null, arm.name, pick).value = arm.name; });
  if (page.state.arms.some((a) => a.name === before)) pick.value = before;
}

export function renamed(before, after) {
  if ($("balance-arm").value === before) $("balance-arm").value = after;
}

/* The address: the section's settings and the run whose results it shows. */
export const save = (page, shown) => ({
  b: { a: $("balance-arm").value, h: $("handicap").value, t: $("tolerance").value, n: $("balance-games").value,
       r: shown ? shown.id : null },
});
export const savedRun = (saved) => saved.b && saved.b.r;
/* Its part of the address for an earlier answer (its request and its id), as save gives it (the
   feel switch as it was: a search never measures the feel). */
export const savedFrom = (request, id) => ({
  f: true,
  b: { a: request.arm.name, h: request.handicap, n: String(request.games), r: id,
       t: typeof request.tolerance === "number" ? String(Math.round(request.tolerance * 100000) / 1000) : "1" },
});

export function restore(saved, game) {
  const b = saved.b;
  if (!b) return;
  if (b.a && [...$("balance-arm").options].some((o) => o.value === b.a)) $("balance-arm").value = b.a;
  if (game.per_seat.indexOf(b.h) >= 0) $("handicap").value = b.h;
  if (b.t) $("tolerance").value = b.t;
  if (b.n) $("balance-games").value = b.n;
}

export function wire(page) {
  $("balance").addEventListener("click", () => page.run(kind));
  ["tolerance", "balance-games"].forEach((id) => $(id).addEventListener("input", page.changed));
  ["handicap", "balance-arm"].forEach((id) => $(id).addEventListener("change", page.changed));
}
