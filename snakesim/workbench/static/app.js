/* The snakesim workbench page: a game and who plays it, rule sets side by side (one of them in
   the editor), Play, what the rules do, and a fair handicap. Play plays exactly the rule sets
   the page lists, with the players it shows (or says plainly which it leaves out); every
   result is marked the moment the settings it answers change; the address holds the whole
   page, results included, so a link or a reload brings it all back. */

import { readAddress, writeAddress } from "./address.js";
import { buildEditor, discard, loadArm, replaceRules, settle, summarize, watchToml } from "./editor.js";
import { markStale, showBalance, showCompare } from "./results.js";
import { describeSeats, drawArms, drawLineup, resized, sameAsBaseline } from "./rulesets.js";
import { reattach, start as startRun } from "./runs.js";
import { $, api, count, listed, showError, wholeNumber } from "./util.js";

const state = { games: {}, limits: null, game: null, lineup: [], arms: [], editing: null, nextId: 1,
                shown: { compare: null, balance: null } };
// Each game's page as it was left, so that going to another game and back loses nothing.
const leftBehind = {};
const MAX_SEED = Number.MAX_SAFE_INTEGER;
// A label as the command line's LABEL= takes it unquoted (snakesim.workbench.runs.LABEL).
const LABEL = /^[\p{L}\p{N}_][\p{L}\p{N}_ .+()-]*$/u;

const editingArm = () => state.arms.find((a) => a.id === state.editing) || state.arms[0];
const players = () => wholeNumber("players", "players", state.game.min_players, state.game.max_players);
const check = (toml) => api("POST", "/api/rules", { game: state.game.name, toml, set: [] });

/* The rule sets Play plays: every one the page lists but those the same as the baseline. */
const played = () => state.arms.filter((a, i) => i === 0 || !sameAsBaseline(state, a));
const left = () => state.arms.filter((a, i) => i > 0 && sameAsBaseline(state, a));
const armRequest = (a) => ({ name: a.name, toml: a.toml, policies: a.policies ? a.policies.slice() : null });

function compareRequest() {
  const arms = played();
  const most = Math.max(1, Math.floor(state.limits.max_games / arms.length));
  return {
    kind: "compare", game: state.game.name, players: players(), seed: wholeNumber("seed", "seed", 0, MAX_SEED),
    games: wholeNumber("games", "games per rule set", 1, most), feel: $("feel").checked,
    lineup: state.game.policies.length ? state.lineup.slice() : null, arms: arms.map(armRequest),
  };
}

function balanceRequest() {
  const arm = state.arms.find((a) => a.name === $("balance-arm").value) || state.arms[0];
  const tolerance = Number($("tolerance").value);
  if (!(tolerance >= 0.1 && tolerance <= 20)) {
    throw new Error(`fair within: expected a number of percentage points from 0.1 to 20, got '${$("tolerance").value}'`);
  }
  const most = Math.max(100, Math.floor(state.limits.max_games / 50));
  return {
    kind: "balance", game: state.game.name, players: players(), seed: wholeNumber("seed", "seed", 0, MAX_SEED),
    games: wholeNumber("balance-games", "games per try", 100, most), feel: false,
    lineup: state.game.policies.length ? state.lineup.slice() : null, arm: armRequest(arm),
    handicap: $("handicap").value, tolerance: Math.round(tolerance * 1000) / 100000,
  };
}

const REQUESTS = { compare: compareRequest, balance: balanceRequest };

/* ------------------------------------------------------------------ the page changed */
function changed() {
  drawArms(page);
  planText();
  saveAddress();
  markStale(state, REQUESTS);
}

function planText() {
  let text;
  try {
    const r = compareRequest();
    const names = r.arms.map((a) => a.name);
    text = r.arms.length === 1
      ? `Play plays ${names[0]} alone: ${count(r.games)} games with ${r.players} players.`
      : `Play compares ${listed(names)}: ${count(r.games)} games each, every rule set dealt the same shuffles, `
        + `with ${r.players} players.`;
    if (r.lineup && new Set(r.lineup).size > 1) text += ` Players: ${describeSeats(r.lineup)}.`;
    const out = left().map((a) => a.name);
    if (out.length) {
      text += ` It leaves out ${listed(out)}: no different from ${state.arms[0].name} yet.`;
    }
    showError("setup-error", "");
  } catch (err) {
    text = "";
    showError("setup-error", err.message);
  }
  $("plan").textContent = text;
}

function saveAddress() {
  let n;
  try { n = players(); } catch (e) { return; }
  const b = state.shown.balance;
  writeAddress({
    g: state.game.name, p: n, pt: $("players").value, n: $("games").value, s: $("seed").value, f: $("feel").checked,
    L: state.game.policies.length ? state.lineup : null,
    a: state.arms.map((a) => ({ n: a.name, c: a.changes, p: a.policies })),
    e: state.arms.indexOf(editingArm()),
    r: state.shown.compare ? state.shown.compare.id : null,
    b: { a: $("balance-arm").value, h: $("handicap").value, t: $("tolerance").value, n: $("balance-games").value,
         r: b ? b.id : null },
  });
  keepRow();
}

/* ------------------------------------------------------------------ rule sets */
function uniqueName(name) {
  const taken = state.arms.map((a) => a.name);
  let label = name.slice(0, state.limits.max_name), k = 2;
  while (taken.indexOf(label) >= 0) label = `${name.slice(0, state.limits.max_name - 3)} ${k++}`;
  return label;
}

function newArm(name, view, policies) {
  const arm = { id: state.nextId++, name: uniqueName(name), toml: view.toml, changes: view.changes,
                summary: view.summary, hash: view.hash, policies: policies || null };
  state.arms.push(arm);
  return arm;
}

async function edit(arm) {
  try {
    await settle();
  } catch (err) {
    showError("rules-error", err.message);
    return;
  }
  state.editing = arm.id;
  $("label").value = arm.name;
  showError("label-error", "");
  $("editing-name").textContent = arm.name;
  drawArms(page);
  await loadArm(arm);
  saveAddress();
}

async function editAndShow(arm) {
  await edit(arm);
  $("editor").scrollIntoView({ block: "start" });
  $("label").focus({ preventScroll: true });
}

function remove(arm) {
  const i = state.arms.indexOf(arm);
  const wasEditing = arm === editingArm();
  state.arms.splice(i, 1);
  arm.policies = null;
  if (i === 0 && state.arms[0].policies) {  // (the new baseline's players become everyone's)
    state.lineup = state.arms[0].policies;
    state.arms[0].policies = null;
    drawLineup(page);
  }
  if (wasEditing) {
    discard();
    edit(state.arms[Math.max(0, i - 1)]);
  }
  changed();
}

async function addRuleSet() {
  if (state.arms.length >= state.limits.max_arms) return;
  const pick = $("variant-pick").value;
  const view = await check(pick === "" ? state.arms[0].toml : state.game.variants[pick].toml);
  const arm = newArm(pick === "" ? "my rules" : pick, view, null);
  changed();
  await edit(arm);
  if (state.arms.length < state.limits.max_arms) {  // (else the note says the list is full)
    $("arms-note").textContent = `Added ${arm.name}, with the baseline's players; its rules are in the editor `
      + "(section 5).";
  }
}

/* The label as it is typed: checked at once; the rule set takes it when the field is left
   (Enter or Tab), so a half-typed name never renames it. */
function labelProblem() {
  const arm = editingArm();
  const text = $("label").value.trim();
  let problem = "";
  if (!text) problem = "the label: give the rule set a name";
  else if (text.length > state.limits.max_name || !LABEL.test(text)) {
    problem = `the label: 1 to ${state.limits.max_name} letters, digits, spaces or - _ . + ( ), starting with a letter `
      + `or digit, so that the command line takes it as it is; '${text}' is not`;
  } else if (state.arms.some((a) => a !== arm && a.name === text)) problem = `the label: ${text} is taken`;
  showError("label-error", problem);
  $("label").classList.toggle("invalid", Boolean(problem));
  return problem;
}

function renamed() {
  const arm = editingArm();
  const text = $("label").value.trim();
  if (labelProblem() || text === arm.name) return;
  const balance = $("balance-arm").value === arm.name;
  arm.name = text;
  $("editing-name").textContent = text;
  drawArms(page);
  if (balance) $("balance-arm").value = text;
  summarize();
  changed();
}

function playersChanged() {
  let n;
  try { n = players(); } catch (err) {
    planText();
    markStale(state, REQUESTS);
    return;
  }
  if (state.game.policies.length) {
    state.lineup = resized(state.lineup, n, state.game.default_policy);
    state.arms.forEach((a) => { if (a.policies) a.policies = resized(a.policies, n, state.game.default_policy); });
    drawLineup(page);
  }
  changed();
}

/* ------------------------------------------------------------------ runs */
async function play() {
  showError("run-error", "");
  try {
    await settle();
    const request = compareRequest();
    await startRun("compare", request, comparisonDone);
  } catch (err) {
    showError("run-error", err.message);
  }
}

function comparisonDone(job) {
  state.shown.compare = { id: job.id, request: job.request, result: job.result };
  showCompare(state.shown.compare);
  document.body.dataset.compare = job.id;  // (for tests: which run's results are shown)
  $("results-gone").hidden = true;
  saveAddress();
  markStale(state, REQUESTS);
}

async function findHandicap() {
  showError("balance-error", "");
  try {
    await settle();
    await startRun("balance", balanceRequest(), balanceDone);
  } catch (err) {
    showError("balance-error", err.message);
  }
}

function balanceDone(job) {
  state.shown.balance = { id: job.id, request: job.request, result: job.result };
  showBalance(state.shown.balance);
  document.body.dataset.balance = job.id;
  saveAddress();
  markStale(state, REQUESTS);
}

/* The results a link names, from the server that played them (it keeps the last 20). */
async function restoreResults(saved) {
  const lost = [];
  const ids = [["compare", saved.r, comparisonDone], ["balance", saved.b && saved.b.r, balanceDone]];
  for (const [kind, id, done] of ids) {
    if (!id) continue;
    try {
      const job = await api("GET", `/api/runs/${id}`);
      if (job.state === "done" && job.kind === kind) done(job);
      else if (["failed", "cancelled"].indexOf(job.state) >= 0) lost.push(kind);  // (under way: its page shows it)
    } catch (err) {
      lost.push(kind);
    }
  }
  if (lost.length) {
    const which = lost.map((k) => (k === "compare" ? "comparison" : "fair handicap"));
    $("results-gone").hidden = false;
    $("results-gone").textContent = `The ${listed(which)} this link showed ${lost.length > 1 ? "are" : "is"} no longer `
      + "on this server (it keeps the last 20 runs, and forgets them when it stops). Press the button again: the "
      + "same games give the same figures.";
  }
}

/* ------------------------------------------------------------------ keeping it */
function keepRow() {
  const c = state.shown.compare, b = state.shown.balance;
  $("keep").hidden = !c && !b;
  const query = [c ? `compare=${c.id}` : "", b ? `balance=${b.id}` : ""].filter(Boolean).join("&");
  $("download-report").href = `/api/report?${query}`;
}

async function download(path, body) {
  const response = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" },
                                       body: JSON.stringify(body) });
  if (!response.ok) throw new Error((await response.json()).error);
  const name = /filename="([^"]+)"/.exec(response.headers.get("Content-Disposition") || "");
  const a = document.createElement("a");
  a.href = URL.createObjectURL(await response.blob());
  a.download = name ? name[1] : "download.toml";
  document.body.appendChild(a);
  a.click();
  setTimeout(() => { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
}

function downloadRules(arm) {
  download("/api/download/rules", { game: state.game.name, toml: arm.toml, name: arm.name })
    .catch((err) => showError("rules-error", err.message));
}

/* ------------------------------------------------------------------ the game */
function fillGameControls(game) {
  $("game").value = game.name;
  $("game-title").textContent = `${game.title}; ${game.min_players} to ${game.max_players} players.`;
  [["base", false], ["variant-pick", true]].forEach(([id, copy]) => {
    const sel = $(id);
    sel.innerHTML = "";
    if (copy) sel.appendChild(new Option("a copy of the baseline", ""));
    Object.keys(game.variants).forEach((v) => sel.appendChild(new Option(v, v)));
  });
  $("handicap").innerHTML = "";
  game.per_seat.forEach((h) => $("handicap").appendChild(new Option(h, h)));
  variantNotes();
}

async function chooseGame(name, saved, before) {
  const game = state.games[name];
  state.game = game;
  state.shown = { compare: null, balance: null };
  $("results-body").hidden = true;
  $("results-empty").hidden = false;
  $("balance-results").hidden = true;
  fillGameControls(game);
  if (before) return backTo(game, before);
  const n = saved ? saved.p : Math.min(Math.max(Number($("players").value) || 4, game.min_players), game.max_players);
  $("players").value = saved && typeof saved.pt === "string" ? saved.pt : n;
  state.lineup = game.policies.length
    ? resized(saved && saved.L ? saved.L : [], n, game.default_policy) : [];
  buildEditor(game, { arm: editingArm, changed: () => changed(), limits: state.limits });
  drawLineup(page);
  state.arms = [];
  const problems = [];
  if (saved) {
    for (const a of saved.a) {
      try {
        newArm(a.n, await check(a.c), a.p ? resized(a.p, n, game.default_policy) : null);
      } catch (err) {
        problems.push(`rule set "${a.n}" could not be read (${err.message})`);
      }
    }
  }
  if (!state.arms.length) {
    const seed = await check(game.variants.standard.toml);
    newArm("standard", seed, null);
    newArm("my rules", seed, null);
  }
  state.editing = (state.arms[saved && saved.e >= 0 ? saved.e : 1] || state.arms[state.arms.length - 1]).id;
  if (saved && saved.b) {
    if (saved.b.a) $("balance-arm").value = saved.b.a;
    if (game.per_seat.indexOf(saved.b.h) >= 0) $("handicap").value = saved.b.h;
    if (saved.b.t) $("tolerance").value = saved.b.t;
    if (saved.b.n) $("balance-games").value = saved.b.n;
  }
  drawArms(page);
  if (saved && saved.b && saved.b.a) $("balance-arm").value = saved.b.a;
  await edit(editingArm());
  if (problems.length) linkError(`This link's ${listed(problems)}; the page shows the rest.`);
  changed();
  document.body.dataset.game = name;  // (for tests: the game's page is drawn)
}

/* A game left earlier, as it was: its players, rule sets, editor and results. */
async function backTo(game, before) {
  $("players").value = before.players;
  Object.assign(state, { lineup: before.lineup, arms: before.arms, editing: before.editing });
  buildEditor(game, { arm: editingArm, changed: () => changed(), limits: state.limits });
  drawLineup(page);
  drawArms(page);
  await edit(editingArm());
  if (before.shown.compare) comparisonDone({ id: before.shown.compare.id, ...before.shown.compare });
  if (before.shown.balance) balanceDone({ id: before.shown.balance.id, ...before.shown.balance });
  changed();
  document.body.dataset.game = game.name;
}

function linkError(message) {
  showError("link-error", message);
}

/* A version 1 link (before rule sets kept their own players) as today's. */
function upgraded(old) {
  if (!old || old.v !== undefined || typeof old.g !== "string" || !Array.isArray(old.a)) return null;
  const lineup = old.a[0] && old.a[0].p ? old.a[0].p : null;
  const arms = old.a.map((a) => ({ n: a.n, c: a.c || "", p: a.p && lineup && a.p.join() !== lineup.join() ? a.p : null }));
  if (typeof old.e === "string" && !arms.some((a) => a.c === old.e)) arms.push({ n: old.l || "my rules", c: old.e, p: null });
  return { v: 2, g: old.g, p: old.p, n: String(old.n), s: String(old.s), f: Boolean(old.f), L: lineup, a: arms,
           e: arms.length - 1, r: null, b: null };
}

async function start() {
  let data;
  try {
    data = await api("GET", "/api/games");
  } catch (err) {
    showError("run-error", err.message);
    return;
  }
  state.limits = data.limits;
  data.games.forEach((g) => {
    state.games[g.name] = g;
    $("game").appendChild(new Option(g.name, g.name));
  });
  let { saved, error } = readAddress();
  if (error) {
    const old = upgraded(readOld());
    if (old) { saved = old; error = null; }
  }
  if (saved && !(saved.g in state.games)) {
    error = `This link is of a game this workbench does not have (${saved.g}).`;
    saved = null;
  }
  if (error) linkError(`${error} The page shows the seed's ${data.games[0].name} game instead.`);
  if (saved) {
    $("games").value = saved.n || "100000";
    $("seed").value = saved.s || "1";
    $("feel").checked = saved.f !== false;
  }
  await chooseGame(saved ? saved.g : data.games[0].name, saved);
  if (saved) await restoreResults(saved);
  await reattach({ compare: comparisonDone, balance: balanceDone });
  wire();
  document.body.dataset.ready = "true";
}

function readOld() {
  try {
    const raw = atob(location.hash.slice(1).replace(/-/g, "+").replace(/_/g, "/"));
    return JSON.parse(new TextDecoder().decode(Uint8Array.from(raw, (c) => c.charCodeAt(0))));
  } catch (e) {
    return null;
  }
}

function wire() {
  $("game").addEventListener("change", async () => {
    await settle().catch(() => {});
    discard();
    showError("link-error", "");
    leftBehind[state.game.name] = { players: $("players").value, lineup: state.lineup, arms: state.arms,
                                     editing: state.editing, shown: state.shown };
    await chooseGame($("game").value, null, leftBehind[$("game").value]);
  });
  $("players").addEventListener("input", playersChanged);
  ["games", "seed", "tolerance", "balance-games"].forEach((id) => $(id).addEventListener("input", changed));
  ["feel", "handicap", "balance-arm"].forEach((id) => $(id).addEventListener("change", changed));
  $("label").addEventListener("input", labelProblem);
  $("label").addEventListener("change", renamed);
  $("reset").addEventListener("click", () => replaceRules(state.game.variants[$("base").value].toml));
  $("add-variant").addEventListener("click", addRuleSet);
  $("download-rules").addEventListener("click", () => downloadRules(editingArm()));
  $("run").addEventListener("click", play);
  $("run-again").addEventListener("click", async () => {
    await play();
    $("run-section").scrollIntoView({ block: "start" });
    if (!$("cancel").hidden) $("cancel").focus({ preventScroll: true });
  });
  $("variant-pick").addEventListener("change", variantNotes);
  $("base").addEventListener("change", variantNotes);
  $("balance").addEventListener("click", findHandicap);
  $("download-study").addEventListener("click", () => {
    const shown = (k) => (state.shown[k] ? state.shown[k].request : null);
    download("/api/download/study", { compare: shown("compare"), balance: shown("balance") })
      .catch((err) => showError("keep-error", err.message));
  });
  $("copy-link").addEventListener("click", () => {
    saveAddress();
    if (navigator.clipboard) navigator.clipboard.writeText(location.href).catch(() => {});
    $("copy-link").textContent = "Link copied (it is also this page's address)";
  });
  watchToml();
  // A link pasted into this tab's address bar changes only the part after #: open it afresh.
  window.addEventListener("hashchange", () => location.reload());
}

/* Under each variant picker: what the chosen variant is. */
function variantNotes() {
  const v = $("variant-pick").value;
  $("variant-note").textContent = v === ""
    ? "A copy of the baseline's rules, to change as you like."
    : `${v}: ${state.game.variants[v].description}.`;
  $("base-note").textContent = `${$("base").value}: ${state.game.variants[$("base").value].description}.`;
}

const page = { state, changed, edit: editAndShow, remove, downloadRules };
start();
