/* The design panel (the server's snakesim.workbench.panels.design): section 7 varies options of
   one rule set, plays every combination on the same games, keeps the rule sets that meet every
   target and checks them on fresh games; an answer can be added as a rule set to compare. */

import { findingsList } from "./results.js";
import { $, count, node, wholeNumber } from "./util.js";

export const kind = "design";
export const noun = "design search";
export const shows = "rule sets that meet every target";
export const again = "Find the rule sets";
export const openEnded = "the search stops once every rule set is decided or the budget is spent";
export const ids = { button: "design", cancel: "design-cancel", bar: "design-progress", status: "design-status",
                     error: "design-error", box: "design-results", stale: "design-stale" };

const lines = (id) => $(id).value.split("\n").map((l) => l.trim()).filter((l) => l);

export function request(page) {
  const { state } = page;
  const arm = state.arms.find((a) => a.name === $("design-arm").value) || state.arms[0];
  const vary = lines("design-vary");
  const targets = lines("design-targets");
  if (!vary.length) throw new Error("options to vary: give at least one, e.g. start_coins=8:20");
  if (!targets.length) throw new Error("targets: give at least one, e.g. length.median=60+-8");
  const most = Math.max(100, Math.floor(state.limits.max_games / 20));
  return {
    kind, ...page.common(), games: wholeNumber("design-games", "games per rule set in the first round", 100, most),
    feel: $("feel").checked, arm: page.armRequest(arm), vary, targets, prefer: $("design-prefer").value.trim() || null,
    budget: wholeNumber("design-budget", "the most games in all", 200, state.limits.max_games),
  };
}

export function changes(then, now) {
  const out = [];
  if (JSON.stringify(then.vary) !== JSON.stringify(now.vary)) out.push("the options to vary");
  if (JSON.stringify(then.targets) !== JSON.stringify(now.targets)) out.push("the targets");
  if (then.prefer !== now.prefer) out.push("the figure preferred");
  if (then.games !== now.games) out.push("the games per rule set");
  if (then.budget !== now.budget) out.push("the most games in all");
  if (then.arm.toml !== now.arm.toml) out.push(`the rules of ${now.arm.name}`);
  else if (JSON.stringify(then.arm.policies) !== JSON.stringify(now.arm.policies)) {
    out.push(`the players of ${then.arm.name}`);
  }
  return out;
}

export function changed() {}

export function show(shown, page) {
  const result = shown.result;
  $("design-results").hidden = false;
  findingsList($("design-findings"), result.findings);
  const list = $("design-answers");
  list.innerHTML = "";
  $("design-answers-title").textContent = result.met
    ? `Rule sets that meet every target with ${result.players} players:`
    : `No rule set meets every target with ${result.players} players; the nearest miss:`;
  result.answers.forEach((a) => {
    const li = node("li", null, null, list);
    node("strong", null, a.label, li);
    const checked = a.holds === null
      ? ` (on the search's ${count(a.games)} games; not checked on fresh games)`
      : a.holds ? ` (on ${count(a.games)} fresh games: holds)`
        : ` (on ${count(a.games)} fresh games: does not hold)`;
    li.appendChild(document.createTextNode(`: ${a.figures.join("; ")}${checked} `));
    const add = node("button", null, "Add as a rule set", li);
    add.type = "button";
    add.setAttribute("aria-label", `Add ${a.label} as a rule set to compare`);
    add.addEventListener("click", async () => {
      add.disabled = true;
      const name = await page.addRules(a.name, a.toml);
      add.textContent = name ? `Added as ${name} (section 2)` : "The list of rule sets is full";
    });
  });
  window.SnakesimCharts.render($("design-charts"), result.charts, 3);
  $("design-command").textContent = result.command;
}

export function clear() {
  $("design-results").hidden = true;
}

/* The rule set to start from: one of those the page lists, the same as before where it still is. */
export function armsDrawn(page) {
  const pick = $("design-arm");
  const before = pick.value;
  pick.innerHTML = "";
  page.state.arms.forEach((arm) => { node("option", null, arm.name, pick).value = arm.name; });
  if (page.state.arms.some((a) => a.name === before)) pick.value = before;
}

export function renamed(before, after) {
  if ($("design-arm").value === before) $("design-arm").value = after;
}

/* A game's options, offered as examples of what to vary. */
export function fill(game) {
  $("design-options").textContent = game.design_options || "";
  $("design-vary").placeholder = game.design_example ? `for example:\n${game.design_example}` : "";
  $("design-targets").placeholder = "for example:\nlength.median=40+-5\ndraw.share<=0.05";
}

/* The address: the section's settings and the run whose results it shows. */
export const save = (page, shown) => ({
  d: { a: $("design-arm").value, v: $("design-vary").value, t: $("design-targets").value,
       p: $("design-prefer").value, n: $("design-games").value, b: $("design-budget").value,
       r: shown ? shown.id : null },
});
export const savedRun = (saved) => saved.d && saved.d.r;
/* Its part of the address for an earlier answer (its request and its id), as save gives it. */
export const savedFrom = (request, id) => ({
  d: { a: request.arm.name, v: request.vary.join("\n"), t: request.targets.join("\n"), p: request.prefer || "",
       n: String(request.games), b: String(request.budget), r: id },
});

export function restore(saved) {
  const d = saved.d;
  if (!d) return;
  if (d.a && [...$("design-arm").options].some((o) => o.value === d.a)) $("design-arm").value = d.a;
  if (typeof d.v === "string") $("design-vary").value = d.v;
  if (typeof d.t === "string") $("design-targets").value = d.t;
  if (typeof d.p === "string") $("design-prefer").value = d.p;
  if (d.n) $("design-games").value = d.n;
  if (d.b) $("design-budget").value = d.b;
}

export function wire(page) {
  $("design").addEventListener("click", () => page.run(kind));
  ["design-vary", "design-targets", "design-prefer", "design-games", "design-budget"].forEach(
    (id) => $(id).addEventListener("input", page.changed));
  $("design-arm").addEventListener("change", page.changed);
}
