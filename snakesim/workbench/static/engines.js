// The games' engines as the server's background process gets them ready for this computer
// (GET /api/engines): one line under the Play button while any is still compiling, so that a
// family knows why a first Play may wait, and which games are ready.

import { $, api, listed } from "./util.js";

const WORDS = {
  pending: "waits its turn",
  compiling: "is being compiled",
  ready: "is ready",
  failed: "is compiled when first played",
};
const EVERY_MS = 1000;

const title = (name) => name.charAt(0).toUpperCase() + name.slice(1);

// The line for the engines' states; empty once none is pending or compiling (or the server compiles none ahead).
export function enginesWords(engines) {
  const names = Object.keys(engines);
  if (!names.some((n) => engines[n].state === "pending" || engines[n].state === "compiling")) return "";
  const each = names.map((n) => `${title(n)} ${WORDS[engines[n].state] || WORDS.failed}`);
  return `Getting the games ready for this computer, once (they are kept after): ${listed(each)}. ` +
    "You can play now: a game not ready yet starts as soon as it is.";
}

export async function watchEngines() {
  const line = $("engines");
  for (;;) {
    let engines;
    try {
      ({ engines } = await api("GET", "/api/engines"));
    } catch {
      line.hidden = true;
      return;
    }
    const words = enginesWords(engines);
    line.textContent = words;
    line.hidden = !words;
    if (!words) return;
    await new Promise((resolve) => setTimeout(resolve, EVERY_MS));
  }
}
