/* The snakesim workbench page: a game and who plays it, rule sets side by side (one of them in
   the editor), and the panels that play them (panel-*.js, as the server lists them: compare,
   balance, design, then each kind of question that describes itself, whose panel
   panel-described.js makes from its description). Play plays exactly the rule sets the page lists, with the players it shows
   (or says plainly which it leaves out); every result is marked the moment the settings it
   answers change; the address holds the whole page, results included, so a link or a reload
   brings it all back; every answer is kept in the server's catalogue, so a link works after a
   restart too, and the header lists the earlier answers (earlier.js).

   A panel module exports: kind, noun (a run of it), shows (its results), again (its button's
   words), openEnded (what a run whose games are not known ahead waits for), ids (its button, cancel, bar, status, error, results box and stale note); request(page)
   (throws an Error naming the field), changes(then, now), changed(page), clear(),
   show(shown, page), save(page, shown) and savedRun(saved) (its part of the address), savedFrom(request, id) (its
   part of the address for an earlier answer), wire(page); and, where it needs them, fill(game),
   restore(saved, game), armsDrawn(page) and renamed(before, after). */

import { readAddress, writeAddress } from "./address.js";
import { earlierChanged, wireEarlier } from "./earlier.js";
import { buildEditor, discard, loadArm, replaceRules, settle, summarize, watchToml } from "./editor.js";
import { watchEngines } from "./engines.js";
import { downloadRules, downloadStudy, keepRow } from "./keep.js";
import { markStale } from "./results.js";
import { drawArms, drawLineup, resized, sameAsBaseline } from "./rulesets.js";
import { keptWords, reattach, start as startRun } from "./runs.js";
import { $, api, listed, showError, wholeNumber } from "./util.js";

const state = { games: {}, limits: null, game: null, lineup: [], arms: [], editing: null, nextId: 1, shown: {} };
let loading = Promise.resolve();  // the game being drawn (its rule sets checked by the server), if any
// Each game's page as it was left, so that going to another game and back loses nothing.
const leftBehind = {};
const MAX_SEED = Number.MAX_SAFE_INTEGER;
// A label as the command line's LABEL= takes it unquoted (snakesim.workbench.rulesets.LABEL).
const LABEL = /^[\p{L}\p{N}_][\p{L}\p{N}_ .+()-]*$/u;

const editingArm = () => state.arms.find((a) => a.id === state.editing) || state.arms[0];
const players = () => wholeNumber("players", "players", state.game.min_players, state.game.max_players);
const check = (toml) => api("POST", "/api/rules", { game: state.game.name, toml, set: [] });

/* The rule sets Play plays: every one the page lists but those the same as the baseline. */
const played = () => state.arms.filter((a, i) => i === 0 || !sameAsBaseline(state, a));
const leftOut = () => state.arms.filter((a, i) => i > 0 && sameAsBaseline(state, a));
const armRequest = (a) => ({ name: a.name, toml: a.toml, policies: a.policies ? a.policies.slice() : null });

/* What every panel's request carries: the game, its players, the seed and who plays. */
const common = () => ({
  game: state.game.name, players: players(), seed: wholeNumber("seed", "seed", 0, MAX_SEED),
  lineup: state.game.policies.length ? state.lineup.slice() : null,
});

/* ------------------------------------------------------------------ the page changed */
function changed() {
  drawArms(page);
  page.panels.forEach((panel) => panel.changed(page));
  saveAddress();
  markStale(page);
}

function saveAddress() {
  let n;
  try { n = players(); } catch (e) { return; }
  const saved = {
    g: state.game.name, p: n, pt: $("players").value, n: $("games").value, s: $("seed").value, f: $("feel").checked,
    L: state.game.policies.length ? state.lineup : null,
    a: state.arms.map((a) => ({ n: a.name, c: a.changes, p: a.policies })),
    e: state.arms.indexOf(editingArm()),
  };
  page.panels.forEach((panel) => Object.assign(saved, panel.save(page, state.shown[panel.kind])));
  writeAddress(saved);
  keepRow(page);
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

/* A rule set from a result (a design search's answer): added to the list under its name, its
   rules in the editor; returns the name it took (null when the list is full). */
async function addRules(name, toml) {
  if (state.arms.length >= state.limits.max_arms) {
    $("arms-note").textContent = `The list is full (${state.limits.max_arms} rule sets): remove one to add ${name}.`;
    return null;
  }
  const arm = newArm(name, await check(toml), null);
  changed();
  await edit(arm);
  $("arms-note").textContent = `Added ${arm.name}, with the baseline's players; its rules are in the editor `
    + "(section 5).";
  return arm.name;
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
  const before = arm.name;
  arm.name = text;
  $("editing-name").textContent = text;
  drawArms(page);
  page.panels.forEach((panel) => { if (panel.renamed) panel.renamed(before, text); });
  summarize();
  changed();
}

function playersChanged() {
  let n;
  try { n = players(); } catch (err) {
    page.panels.forEach((panel) => panel.changed(page));
    markStale(page);
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
const panelOf = (kind) => page.panels.find((p) => p.kind === kind);

const editErrors = new Set();  // panels' error lines that name a refused edit

/* The refused edit is fixed or thrown away: its message leaves the panels that showed it. */
function editsTaken() {
  editErrors.forEach((id) => showError(id, ""));
  editErrors.clear();
}

/* Play a panel's request (with `extra` settings of its own, such as a run that settles an
   earlier one): the rules text settled first, then the run watched until done. */
async function run(kind, extra) {
  const panel = panelOf(kind);
  showError(panel.ids.error, "");
  try {
    await loading;  // (a game chosen a moment ago: its rule sets first, then the run)
    await settle();
    await startRun(panel, { ...panel.request(page), ...(extra || {}) }, (job) => done(panel, job),
                   () => run(kind, { ...(extra || {}), fresh: true }));
  } catch (err) {
    showError(panel.ids.error, err.message);
    if (err.refusedEdit) editErrors.add(panel.ids.error);
  }
}

/* A finished run shown; the address names it by its answer in the catalogue (job.link: "c42")
   where it is kept there, so that a link outlives the run on the server. */
function done(panel, job) {
  state.shown[panel.kind] = { id: job.link || job.id, request: job.request, result: job.result };
  panel.show(state.shown[panel.kind], page);
  document.body.dataset[panel.kind] = job.id;  // (for tests: which run's results are shown)
  saveAddress();
  markStale(page);
  earlierChanged(page);
}

/* The results a link names: the server's run, or the answer its catalogue keeps. */
async function restoreResults(saved) {
  const lost = [];
  for (const panel of page.panels) {
    const id = panel.savedRun(saved);
    if (!id) continue;
    try {
      const job = await api("GET", `/api/runs/${id}`);
      if (job.state === "done" && job.kind === panel.kind) {
        done(panel, job);
        if (job.catalogue) $(panel.ids.status).textContent = keptWords(job);
      } else if (["failed", "cancelled"].indexOf(job.state) >= 0) lost.push(panel.shows);  // (under way: shown)
    } catch (err) {
      lost.push(panel.shows);
    }
  }
  if (lost.length) {
    $("results-gone").hidden = false;
    $("results-gone").textContent = `The ${listed(lost)} this link showed ${lost.length > 1 ? "are" : "is"} no longer `
      + "kept (removed from the catalogue of answers, or never kept in it). Press the button again: the same games "
      + "give the same figures.";
  }
}

/* An earlier answer's page (#answer=c42, from the list of earlier answers): the address its
   page had, made from the answer's request, as a link copied from that page holds it. */
async function answerAddress(id) {
  let job;
  try {
    job = await api("GET", `/api/runs/${id}`);
  } catch (err) {
    return { saved: null, error: err.status === 404 ? "This answer is no longer kept (removed from the catalogue of "
      + "answers)." : `This answer could not be read: ${err.message}.` };
  }
  const panel = panelOf(job.kind), r = job.request;
  if (!panel || !panel.savedFrom || !(r.game in state.games)) {
    return { saved: null, error: "This answer is of a kind of question or a game this workbench does not have." };
  }
  const arms = (r.arms || [r.arm]).map((a) => ({ n: a.name, c: a.toml || "", p: a.policies || null }));
  const saved = { g: r.game, p: r.players, pt: String(r.players), n: "100000", s: String(r.seed), f: r.feel !== false,
                  L: r.lineup || null, a: arms, e: arms.length - 1, ...panel.savedFrom(r, job.link || job.id) };
  writeAddress(saved);
  return { saved };
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
  page.panels.forEach((panel) => { if (panel.fill) panel.fill(game); });
  variantNotes();
}

async function chooseGame(name, saved, before) {
  const game = state.games[name];
  state.game = game;
  state.shown = {};
  page.panels.forEach((panel) => panel.clear());
  fillGameControls(game);
  if (before) return backTo(game, before);
  const n = saved ? saved.p : Math.min(Math.max(Number($("players").value) || 4, game.min_players), game.max_players);
  $("players").value = saved && typeof saved.pt === "string" ? saved.pt : n;
  state.lineup = game.policies.length
    ? resized(saved && saved.L ? saved.L : [], n, game.default_policy) : [];
  buildEditor(game, { arm: editingArm, changed: () => changed(), editsTaken, limits: state.limits });
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
  drawArms(page);
  if (saved) page.panels.forEach((panel) => { if (panel.restore) panel.restore(saved, game); });
  await edit(editingArm());
  if (problems.length) linkError(`This link's ${listed(problems)}; the page shows the rest.`);
  changed();
  document.body.dataset.game = name;  // (for tests: the game's page is drawn)
}

/* A game left earlier, as it was: its players, rule sets, editor and results. */
async function backTo(game, before) {
  $("players").value = before.players;
  Object.assign(state, { lineup: before.lineup, arms: before.arms, editing: before.editing });
  buildEditor(game, { arm: editingArm, changed: () => changed(), editsTaken, limits: state.limits });
  drawLineup(page);
  drawArms(page);
  await edit(editingArm());
  page.panels.forEach((panel) => {
    const shown = before.shown[panel.kind];
    if (shown) done(panel, { id: shown.id, ...shown });
  });
  changed();
  document.body.dataset.game = game.name;
}

function linkError(message) {
  showError("link-error", message);
}

async function start() {
  let data;
  try {
    data = await api("GET", "/api/games");
    // Each panel's module, as the server lists them (snakesim.workbench.panels.listed): a kind that
    // describes itself gets its panel from its description (panel-described.js's make).
    page.panels = await Promise.all(data.panels.map(async (p) => {
      const module = await import(`./${p.script}`);
      return module.make ? module.make(p) : module;
    }));
  } catch (err) {
    showError("run-error", err.message);
    return;
  }
  state.limits = data.limits;
  wireEarlier(page);
  watchEngines(); // (a line while the games' engines compile in the background; not waited for)
  data.games.forEach((g) => {
    state.games[g.name] = g;
    $("game").appendChild(new Option(g.name, g.name));
  });
  let { saved, error, answer } = readAddress();
  if (answer) ({ saved, error } = await answerAddress(answer));
  if (saved && !(saved.g in state.games)) {
    error = `This link is of a game this workbench does not have (${saved.g}).`;
    saved = null;
  }
  if (error) linkError(`${error} The page shows ${data.games[0].name}'s standard game instead.`);
  if (saved) {
    $("games").value = saved.n || "100000";
    $("seed").value = saved.s || "1";
    $("feel").checked = saved.f !== false;
  }
  await chooseGame(saved ? saved.g : data.games[0].name, saved);
  if (saved) await restoreResults(saved);
  wire();
  // (the buttons wait, disabled, until the page can play: a Play pressed sooner was lost; a run
  // of this tab still under way disables its own again, below)
  ["run-again", ...page.panels.map((panel) => panel.ids.button)].forEach((id) => { $(id).disabled = false; });
  if ($("status").textContent.startsWith("Loading")) $("status").textContent = "";
  await reattach(page.panels, done);
  document.body.dataset.ready = "true";
}

function wire() {
  $("game").addEventListener("change", async () => {
    await settle().catch(() => {});
    discard();
    showError("link-error", "");
    const left = state.game.name;
    leftBehind[left] = { players: $("players").value, lineup: state.lineup, arms: state.arms,
                         editing: state.editing, shown: state.shown };
    // The game left keeps its own entry in the browser's history: Back returns to it, answers
    // and all (it left the page: a family lost an answer so), and the page says where it went.
    saveAddress();
    history.pushState(null, "", location.href);
    loading = chooseGame($("game").value, null, leftBehind[$("game").value]);
    await loading;
    const note = $("game-left");
    note.textContent = `${left}'s rule sets and answers are kept: choose ${left} again, or press Back.`;
    note.hidden = false;
  });
  $("players").addEventListener("input", playersChanged);
  ["games", "seed"].forEach((id) => $(id).addEventListener("input", changed));
  $("feel").addEventListener("change", changed);
  $("label").addEventListener("input", labelProblem);
  $("label").addEventListener("change", renamed);
  $("reset").addEventListener("click", () => replaceRules(state.game.variants[$("base").value].toml));
  $("add-variant").addEventListener("click", addRuleSet);
  $("download-rules").addEventListener("click", () => downloadRules(page, editingArm()));
  $("variant-pick").addEventListener("change", variantNotes);
  $("base").addEventListener("change", variantNotes);
  $("download-study").addEventListener("click", () => downloadStudy(page));
  $("copy-link").addEventListener("click", () => {
    saveAddress();
    if (navigator.clipboard) navigator.clipboard.writeText(location.href).catch(() => {});
    $("copy-link").textContent = "Link copied (it is also this page's address)";
  });
  page.panels.forEach((panel) => panel.wire(page));
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

/* What the page's parts (rulesets.js, panel-*.js) may use of it. */
const page = { state, panels: [], changed, edit: editAndShow, remove, run, common, played, leftOut, armRequest,
               addRules, downloadRules: (arm) => downloadRules(page, arm) };
start();
