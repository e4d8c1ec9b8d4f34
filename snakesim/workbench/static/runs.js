/* Runs: started, watched (compiling, playing, done), cancelled. A run belongs to the page
   that started it: the tab remembers its runs under way (sessionStorage), so a reload
   reattaches to them, with their progress and Cancel. A run of another page of the same
   server is shown with a Cancel button too, so that nobody waits on a run they cannot stop.
   A question answered before is answered from the catalogue at once: the status says so and
   when it was played, beside a button that plays the games again. */

import { $, api, button, count, node, showError } from "./util.js";

const FINISHED = ["done", "failed", "cancelled"];
const busyErrors = new Set();  // panels whose error line says the server is busy
const MINE = "snakesim-runs";
const watching = {};  // kind: {id, panel} of this page's runs under way

function mine() {
  try { return JSON.parse(sessionStorage.getItem(MINE)) || {}; } catch (e) { return {}; }
}

function remember(kind, id) {
  const runs = mine();
  if (id) runs[kind] = id; else delete runs[kind];
  sessionStorage.setItem(MINE, JSON.stringify(runs));
}

function busyUi(panel, on) {
  const p = panel.ids;
  const had = [p.button, p.cancel].indexOf(document.activeElement && document.activeElement.id) >= 0;
  $(p.button).disabled = on;
  $(p.cancel).hidden = !on;
  $(p.bar).hidden = !on;
  if (had || (!on && document.activeElement === document.body)) $(on ? p.cancel : p.button).focus();
}

function progress(panel, job) {
  const p = panel.ids;
  const bar = $(p.bar), status = $(p.status);
  if (job.state === "compiling") {
    status.textContent = job.message;
    bar.removeAttribute("value");
  } else if (job.share !== null && job.share !== undefined) {  // (work, not games: rule sets may cost differently)
    bar.max = 1;
    bar.value = job.share;
    // (the bar is the time's share, so the words say so: "100,000 of 200,000 games" beside a bar
    // a tenth full read as a broken bar, where the second rule set's games cost more)
    status.textContent = `${count(job.done)} of ${count(job.total)} games played, `
      + `about ${Math.round(100 * job.share)}% of the time`;
  } else if (job.total) {
    bar.max = job.total;
    bar.value = job.done;
    status.textContent = `${count(job.done)} of ${count(job.total)} games played`;
  } else {  // (a search: its games are not known ahead)
    bar.removeAttribute("value");
    status.textContent = job.done ? `${count(job.done)} games played so far: ${panel.openEnded}` : "starting";
  }
}

/* What the status says of an answer served from the catalogue (job.catalogue). */
export function keptWords(job) {
  const older = job.catalogue.current ? "" : " by an older version of the games' code";
  return `From your earlier answers, played on ${job.catalogue.played}${older}: ${count(job.done)} games in `
    + `${job.seconds.toFixed(1)} s.`;
}

/* Beside the status: "Play them again" for an answer served from the catalogue (action: what
   plays it again; null: no such button). */
function againButton(panel, action) {
  const id = `${panel.ids.status}-again`;
  let b = $(id);
  if (!b && !action) return;
  if (!b) {
    b = document.createElement("button");
    b.type = "button";
    b.id = id;
    b.textContent = "Play them again";
    b.title = "play the games again rather than show the earlier answer";
    $(panel.ids.status).insertAdjacentElement("afterend", b);
  }
  b.hidden = !action;
  b.onclick = action;
}

/* Start a run of a panel (panel-*.js); onDone(job) gets the finished run; again() plays the
   request afresh where the answer came from the catalogue. */
export async function start(panel, request, onDone, again) {
  const p = panel.ids;
  showError(p.error, "");
  let started;
  try {
    started = await api("POST", "/api/runs", request);
  } catch (err) {
    let message = err.message;
    if (err.status === 429) {
      const own = Object.values(watching).filter((w) => err.data.running.some((j) => j.id === w.id));
      if (own.length) message = `This page's ${own[0].panel.noun} is still playing, and this server plays one `
        + "run at a time: wait for it, or press its Cancel.";
      else {
        message = message.replace(/^runs: a/, "A");
        busyErrors.add(p.error);  // (cleared once the other page's run ends)
        showBusy(err.data.running);
      }
    }
    showError(p.error, message);
    return;
  }
  remember(panel.kind, started.id);
  watch(panel, started.id, onDone, again);
}

/* Watch a run of this page until it ends: its progress, and Cancel. */
export function watch(panel, id, onDone, again) {
  const p = panel.ids;
  watching[panel.kind] = { id, panel };
  busyUi(panel, true);
  againButton(panel, null);
  $(p.status).textContent = "starting";
  $(p.cancel).onclick = () => api("DELETE", `/api/runs/${id}`).catch(() => {});
  const timer = setInterval(async () => {
    let job;
    try {
      job = await api("GET", `/api/runs/${id}`);
    } catch (err) {
      clearInterval(timer);
      end(panel);
      $(p.status).textContent = "";
      showError(p.error, err.status === 404
        ? "This run is no longer on the server (was it restarted?): press the button to play it again."
        : err.message);
      return;
    }
    if (FINISHED.indexOf(job.state) < 0) {
      progress(panel, job);
      return;
    }
    clearInterval(timer);
    end(panel);
    if (job.state === "done") {
      $(p.status).textContent = job.catalogue ? keptWords(job)
        : `${count(job.done)} games played in ${job.seconds.toFixed(1)} s`;
      if (job.catalogue && again) againButton(panel, again);
      onDone(job);
    } else if (job.state === "cancelled") {
      $(p.status).textContent = `Cancelled after ${count(job.done)} games (here, or from another page of this `
        + "workbench): nothing shown comes from it.";
    } else {
      $(p.status).textContent = "";
      showError(p.error, job.error);
    }
  }, 250);
}

function end(panel) {
  delete watching[panel.kind];
  remember(panel.kind, null);
  busyUi(panel, false);
}

/* After a reload: reattach to this tab's runs under way, and show any other page's;
   onDone(panel, job) gets each run of this tab that finished. */
export async function reattach(panels, onDone) {
  let runs;
  try {
    runs = (await api("GET", "/api/runs")).runs;
  } catch (err) {
    return;
  }
  const own = mine();
  panels.forEach((panel) => {
    const job = runs.find((j) => j.id === own[panel.kind]);
    const done = (finished) => onDone(panel, finished);
    if (job && FINISHED.indexOf(job.state) < 0) watch(panel, job.id, done);
    else if (job && job.state === "done") api("GET", `/api/runs/${job.id}`).then(done, () => {});
    if (!job || FINISHED.indexOf(job.state) >= 0) remember(panel.kind, null);
  });
  showBusy(runs);
}

let busyTimer = null;

/* Runs of other pages under way, each with a Cancel button; refreshed until they end. */
function showBusy(runs) {
  const own = Object.values(watching).map((w) => w.id);
  const others = runs.filter((j) => FINISHED.indexOf(j.state) < 0 && own.indexOf(j.id) < 0);
  const box = $("busy");
  box.innerHTML = "";
  box.hidden = !others.length;
  if (!others.length) {
    busyErrors.forEach((id) => showError(id, ""));
    busyErrors.clear();
  }
  others.forEach((job) => {
    const row = node("p", null, null, box);
    const share = job.share !== null && job.share !== undefined ? `, ${Math.round(100 * job.share)}% done` : "";
    node("span", null, `Another page of this workbench is playing ${job.what}${share}. This server plays one run at `
      + "a time: wait for it, or ", row);
    button("Cancel that run", row, async () => {
      await api("DELETE", `/api/runs/${job.id}`).catch(() => {});
      refreshBusy();
    }, `cancel the run of another page: ${job.what}`);
  });
  clearTimeout(busyTimer);
  if (others.length) busyTimer = setTimeout(refreshBusy, 1000);
}

async function refreshBusy() {
  try {
    showBusy((await api("GET", "/api/runs")).runs);
  } catch (err) {
    $("busy").hidden = true;
  }
}
