/* Keeping what the page found: the report's link, the study file and each rule set's rules as
   downloads. */

import { $, showError } from "./util.js";

/* Section 7, shown once a panel shows results; the report's link names every shown run. */
export function keepRow(page) {
  const { state } = page;
  const shown = page.panels.filter((p) => state.shown[p.kind]);
  $("keep").hidden = !shown.length;
  $("download-report").href = "/api/report?" + shown.map((p) => `${p.kind}=${state.shown[p.kind].id}`).join("&");
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

export function downloadRules(page, arm) {
  download("/api/download/rules", { game: page.state.game.name, toml: arm.toml, name: arm.name })
    .catch((err) => showError("rules-error", err.message));
}

/* A study that plays every shown run again. */
export function downloadStudy(page) {
  const body = {};
  page.panels.forEach((p) => { body[p.kind] = page.state.shown[p.kind] ? page.state.shown[p.kind].request : null; });
  download("/api/download/study", body).catch((err) => showError("keep-error", err.message));
}
