/* The players and the rule sets: who plays in each seat (the baseline's players, which every
   rule set keeps unless it is given its own), and the list of rule sets side by side, one of
   them in the editor. */

import { $, button, listed, node, ordinal } from "./util.js";

/* The kinds of player a seat may hold: the game's policies, and greedy's novice after greedy. */
export function playerChoices(game) {
  const out = [];
  game.policies.forEach((p) => {
    out.push(p);
    if (p === "greedy") out.push("greedy:0.3");
  });
  return out;
}

/* A select of the players seat s may hold, named as players say it ("second player"), calling
   change(value) when it changes. */
function seatSelect(game, s, value, parent, change) {
  const wrap = node("label", "seat", null, parent);
  node("span", null, `${ordinal(s)} player`, wrap);
  const sel = node("select", null, null, wrap);
  sel.dataset.role = `seat ${s}`;
  playerChoices(game).forEach((c) => { node("option", null, c, sel).value = c; });
  if (playerChoices(game).indexOf(value) < 0) node("option", null, value, sel).value = value;
  sel.value = value;
  sel.addEventListener("change", () => change(sel.value));
  return sel;
}

/* Section 1's players: one select a seat, and how each kind of player plays. */
export function drawLineup(page) {
  const { state } = page;
  const game = state.game;
  const box = $("lineup");
  box.innerHTML = "";
  $("lineup-box").hidden = !game.policies.length;
  $("no-choices").hidden = game.policies.length > 0;
  $("no-choices").textContent = `Nobody makes a choice in ${game.title.split(":")[0]}: the cards decide every move, `
    + "so there are no playing styles to choose.";
  state.lineup.forEach((p, s) => {
    seatSelect(game, s, p, box, (v) => {
      state.lineup[s] = v;
      page.changed();
    });
  });
  const words = $("players-words");
  words.innerHTML = "";
  game.players_help.forEach(([name, text]) => {
    const row = node("div", null, null, words);
    node("dt", null, name, row);
    node("dd", null, text, row);
  });
}

export const seatsOf = (state, arm) => arm.policies || state.lineup;

/* A rule set is the same as the baseline: the same rules and the same players. */
export function sameAsBaseline(state, arm) {
  const base = state.arms[0];
  return arm !== base && arm.hash === base.hash && seatsOf(state, arm).join() === seatsOf(state, base).join();
}

/* The list of rule sets, each with what it changes, its players and its buttons. Drawn anew
   at every change, with the keyboard's focus kept on the same control (or, where that control
   went, the one that took its place). */
export function drawArms(page) {
  const { state } = page;
  const list = $("arms");
  const active = document.activeElement;
  const focused = list.contains(active) && active.dataset.role
    ? { arm: active.closest("li").dataset.arm, role: active.dataset.role,
        index: [...list.children].indexOf(active.closest("li")) } : null;
  list.innerHTML = "";
  state.arms.forEach((arm, i) => {
    const item = node("li", "arm" + (arm.id === state.editing ? " editing" : ""), null, list);
    item.dataset.arm = arm.name;
    const head = node("div", "arm-head", null, item);
    node("strong", "arm-name", arm.name, head);
    if (i === 0) node("span", "tag", "baseline", head);
    if (arm.id === state.editing) node("span", "tag editing-tag", "in the editor", head);
    const rules = node("div", "arm-rules", null, item);
    rules.textContent = arm.changes ? `Changes: ${arm.summary}` : "The standard rules, unchanged";
    if (sameAsBaseline(state, arm)) {
      node("div", "arm-same", "No different from the baseline yet: change its rules (section 5) or its players, and "
        + "Play compares it. Until then Play leaves it out.", item);
    }
    if (state.game.policies.length) drawArmPlayers(page, arm, i, item);
    const tools = node("div", "tools", null, item);
    if (arm.id !== state.editing) named(button("Edit its rules", tools, () => page.edit(arm)), "edit", arm);
    named(button("Download (TOML)", tools, () => page.downloadRules(arm)), "download", arm);
    if (state.arms.length > 1) {
      named(button(i === 0 ? "Remove (the next becomes the baseline)" : "Remove", tools, () => page.remove(arm)),
        "remove", arm);
    }
  });
  if (focused) {  // (the same control, else the one that replaced it; a card removed: the next card's)
    const item = [...list.children].find((li) => li.dataset.arm === focused.arm)
      || list.children[Math.min(focused.index, list.children.length - 1)];
    const again = item && (item.querySelector(`[data-role="${focused.role}"]`)
      || item.querySelector("[data-role='seat 0'], [data-role=players], [data-role=download]"));
    if (again) again.focus();
  }
  const full = state.arms.length >= state.limits.max_arms;
  $("add-variant").disabled = full;
  $("arms-note").textContent = full
    ? `${state.arms.length} rule sets: the most this server compares at once. Remove one to add another.`
    : "";
  page.panels.forEach((panel) => { if (panel.armsDrawn) panel.armsDrawn(page); });
}

function drawArmPlayers(page, arm, i, item) {
  const { state } = page;
  const box = node("div", "arm-players", null, item);
  if (i === 0) {
    box.textContent = `Players: ${describeSeats(state.lineup)} (set in section 1)`;
    return;
  }
  if (!arm.policies) {
    node("span", null, `Players: the baseline's (${describeSeats(state.lineup)})`, box);
    named(button("Give it players of its own", box, () => {
      arm.policies = state.lineup.slice();
      page.changed();
    }), "players", arm);
    return;
  }
  node("span", null, "Players of its own: ", box);
  arm.policies.forEach((p, s) => {
    seatSelect(state.game, s, p, box, (v) => {
      arm.policies[s] = v;
      page.changed();
    });
  });
  named(button("Use the baseline's players", box, () => {
    arm.policies = null;
    page.changed();
  }), "players", arm);
  if (arm.policies.join() !== state.lineup.join()) {
    node("p", "warn", "Its players differ from the baseline's: the comparison will mix this rule set with the change "
      + "of players, and says so.", box);
  }
}

/* A card's control, named with its rule set (a screen reader hears "Remove wild-snake", not one
   "Remove" a card) and tagged with its role, so that the focus finds it again after a redraw. */
function named(control, role, arm) {
  control.dataset.role = role;
  control.setAttribute("aria-label", `${control.textContent}: ${arm.name}`);
  return control;
}

/* Seats in words: "greedy in every seat", "random as the second player, greedy as the first
   and third". */
export function describeSeats(seats) {
  const kinds = [...new Set(seats)];
  if (kinds.length === 1) return `${kinds[0]} in every seat`;
  return kinds.map((k) => {
    const where = seats.map((p, s) => (p === k ? s : -1)).filter((s) => s >= 0);
    return `${k} as the ${listed(where.map(ordinal))}${where.length > 1 ? "" : " player"}`;
  }).join(", ");
}

/* Seats resized to a new number of players: new seats take the game's default player. */
export function resized(seats, players, fill) {
  const out = seats.slice(0, players);
  while (out.length < players) out.push(fill);
  return out;
}
