/* What the runs found, as the page shows it: the findings in words, and a mark on every
   result the moment the settings it answers change. Each panel (panel-*.js) draws the rest. */

import { $, listed, node } from "./util.js";

export function findingsList(list, findings) {
  list.innerHTML = "";
  findings.forEach((f) => {
    const li = node("li", null, null, list);
    if (f.arm) node("strong", null, `${f.arm}: `, li);
    // (an arrow keeps its two numbers on one line: on a phone "->" broke between them)
    li.appendChild(document.createTextNode(f.text.replace(/ -> /g, "\u00a0\u2011>\u00a0")));
  });
}

const NAMES = { game: "the game", players: "the number of players", seed: "the seed", feel: "the feel switch",
                lineup: "who plays" };

/* What differs between the request a result answers and the one the page would send now. */
export function changesBetween(panel, then, now) {
  const out = [];
  Object.keys(NAMES).forEach((k) => {
    if (JSON.stringify(then[k]) !== JSON.stringify(now[k])) out.push(NAMES[k]);
  });
  return out.concat(panel.changes(then, now));
}

/* Mark each shown result whose settings have changed since it was played. */
export function markStale(page) {
  page.panels.forEach((panel) => {
    const shown = page.state.shown[panel.kind];
    if (!shown) return;
    let now = null;
    try { now = panel.request(page); } catch (e) { now = null; }
    const changed = now ? changesBetween(panel, shown.request, now) : [];
    const note = $(panel.ids.stale);
    $(panel.ids.box).classList.toggle("stale", !now || changed.length > 0);
    note.hidden = Boolean(now) && !changed.length;
    note.textContent = !now
      ? "Out of date: a setting above is not valid now (its message says why); these results answer the settings "
        + "before."
      : changed.length
        ? `Out of date: these results answer earlier settings, and ${listed(changed)} changed since. `
          + `Press "${panel.again}" to see what the settings above do.`
        : "";
  });
}
