/* Earlier answers: every run this workbench finished is kept in the catalogue of answers (the
   server's snakesim.workbench.answers), and the header lists them, newest first, each a link
   (#answer=c42) that opens its page as the link copied from that page would: the game, its
   players, the rule sets, the panel's settings and the answer, with no game played. */

import { $, api, count, listed, node } from "./util.js";

const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);

/* Draw the list (fetched anew: a run finished a moment ago is in it). */
export async function drawEarlier(page) {
  const list = $("earlier-list"), note = $("earlier-note");
  let data;
  try {
    data = await api("GET", "/api/answers");
  } catch (err) {
    note.textContent = err.message;
    return;
  }
  const nouns = {};
  page.panels.forEach((p) => { nouns[p.kind] = p.noun; });
  list.innerHTML = "";
  data.answers.forEach((a) => {
    const li = node("li", null, null, list);
    const what = `${capital(a.game)}, ${a.players} players, ${nouns[a.kind] || a.kind}: ${listed(a.rules)}`;
    const link = node("a", null, what, li);
    link.href = `#answer=${a.link}`;
    const each = a.rules.length > 1 ? " each" : "";
    const older = a.current ? "" : " by an older version of the games' code (Play plays it anew)";
    node("span", "note", ` ${count(a.games)} games${each}, seed ${a.seed}; played on ${a.played}${older}.`, li);
  });
  note.textContent = data.error
    ? `The earlier answers could not be listed: ${data.error}.`
    : !data.answers.length
      ? "None yet: every answer this workbench plays is kept, and listed here."
      : data.more
        ? `And ${count(data.more)} older (snakesim results on the command line lists every answer).`
        : "";
}

export function wireEarlier(page) {
  $("earlier").addEventListener("toggle", () => { if ($("earlier").open) drawEarlier(page); });
}

/* A run finished (or an answer shown): the list, if open, shows it. */
export function earlierChanged(page) {
  if ($("earlier").open) drawEarlier(page);
}
