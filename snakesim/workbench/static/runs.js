/* Runs: started, watched (compiling, playing, done), cancelled. A run belongs to the page
   that started it: the tab remembers its runs under way (sessionStorage), so a reload
   reattaches to them, with their progress and Cancel. A run of another page of the same
   server is shown with a Cancel button too, so that nobody waits on a run they cannot stop. */

import { $, api, button, count, node, showError } from "./util.js";

const PANELS = {
  compare: { button: "run", cancel: "cancel", bar: "progress", status: "status", error: "run-error" },
  balance: { button: "balance", cancel: "balance-cancel", bar: "balance-progress", status: "balance-status",
             error: "balance-error" },
};
const FINISHED = ["done", "failed", "cancelled"];
const busyErrors = new Set();  // panels whose error line says the server is busy
const MINE = "snakesim-runs";
const watching = {};

function mine() {
  try { return JSON.parse(sessionStorage.getItem(MINE)) || {}; } catch (e) { return {}; }
}

function remember(kind, id) {
  const runs = mine();
  if (id) runs[kind] = id; else delete runs[kind];
  sessionStorage.setItem(MINE, JSON.stringify(runs));
}

function busyUi(kind, on) {
  const p = PANELS[kind];
  const had = [p.button, p.cancel].indexOf(document.activeElement && document.activeElement.id) >= 0;
  $(p.button).disabled = on;
  $(p.cancel).hidden = !on;
  $(p.bar).hidden = !on;
  if (had || (!on && document.activeElement === document.body)) $(on ? p.cancel : p.button).focus();
}

function progress(kind, job) {
  const p = PANELS[kind];
  const bar = $(p.bar), status = $(p.status);
  if (job.state === "compiling") {
    status.textContent = job.message;
    bar.removeAttribute("value");
  } else if (job.share !== null && job.share !== undefined) {  // (work, not games: rule sets may cost differently)
    bar.max = 1;
    bar.value = job.share;
    status.textContent = `${count(job.done)} of ${count(job.total)} games played`;
  } else if (job.total) {
    bar.max = job.total;
    bar.value = job.done;
    status.textContent = `${count(job.done)} of ${count(job.total)} games played`;
  } else {  // (a search: its games are not known ahead)
    bar.removeAttribute("value");
    status.textContent = job.done
      ? `${count(job.done)} games played so far: the search stops once it can tell its tries apart`
      : "starting";
  }
}

/* Start a run of `kind`; onDone(job) gets the finished run. */
export async function start(kind, request, onDone) {
  const p = PANELS[kind];
  showError(p.error, "");
  let started;
  try {
    started = await api("POST", "/api/runs", request);
  } catch (err) {
    let message = err.message;
    if (err.status === 429) {
      const own = Object.keys(watching).filter((k) => err.data.running.some((j) => j.id === watching[k]));
      if (own.length) message = `This page's ${own[0] === "compare" ? "comparison" : "search for a fair handicap"} `
        + "is still playing, and this server plays one run at a time: wait for it, or press its Cancel.";
      else {
        message = message.replace(/^runs: a/, "A");
        busyErrors.add(p.error);  // (cleared once the other page's run ends)
        showBusy(err.data.running);
      }
    }
    showError(p.error, message);
    return;
  }
  remember(kind, started.id);
  watch(kind, started.id, onDone);
}

/* Watch a run of this page until it ends: its progress, and Cancel. */
export function watch(kind, id, onDone) {
  const p = PANELS[kind];
  watching[kind] = id;
  busyUi(kind, true);
  $(p.status).textContent = "starting";
  $(p.cancel).onclick = () => api("DELETE", `/api/runs/${id}`).catch(() => {});
  const timer = setInterval(async () => {
    let job;
    try {
      job = await api("GET", `/api/runs/${id}`);
    } catch (err) {
      clearInterval(timer);
      end(kind);
      $(p.status).textContent = "";
      showError(p.error, err.status === 404
        ? "This run is no longer on the server (was it restarted?): press the button to play it again."
        : err.message);
      return;
    }
    if (FINISHED.indexOf(job.state) < 0) {
      progress(kind, job);
      return;
    }
    clearInterval(timer);
    end(kind);
    if (job.state === "done") {
      $(p.status).textContent = `${count(job.done)} games played in ${job.seconds.toFixed(1)} s`;
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

function end(kind) {
  delete watching[kind];
  remember(kind, null);
  busyUi(kind, false);
}

/* After a reload: reattach to this tab's runs under way, and show any other page's. */
export async function reattach(onDone) {
  let runs;
  try {
    runs = (await api("GET", "/api/runs")).runs;
  } catch (err) {
    return;
  }
  const own = mine();
  Object.keys(PANELS).forEach((kind) => {
    const job = runs.find((j) => j.id === own[kind]);
    if (job && FINISHED.indexOf(job.state) < 0) watch(kind, job.id, onDone[kind]);
    else if (job && job.state === "done") api("GET", `/api/runs/${job.id}`).then(onDone[kind], () => {});
    if (!job || FINISHED.indexOf(job.state) >= 0) remember(kind, null);
  });
  showBusy(runs);
}

let busyTimer = null;

/* Runs of other pages under way, each with a Cancel button; refreshed until they end. */
function showBusy(runs) {
  const own = Object.values(watching);
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
