/* The page's state in its address (after #), so that a link reopens everything the page
   found: the game, its players, every rule set, the comparison's and the balance's settings
   and the runs whose results it shows (by the id of their answers in the catalogue, "c42", so
   that the link works after the server forgets the run or restarts). A link that cannot be read
   says so. An earlier answer's link (#answer=c42, from the list of earlier answers) names the
   answer alone: the page makes its address from the answer's request. */

const VERSION = 2;

function encode(obj) {
  const bytes = new TextEncoder().encode(JSON.stringify(obj));
  let text = "";
  bytes.forEach((b) => { text += String.fromCharCode(b); });
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function decode(text) {
  const raw = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  const bytes = new Uint8Array(raw.length);
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
}

export function writeAddress(saved) {
  history.replaceState(null, "", "#" + encode({ v: VERSION, ...saved }));
}

const isText = (x) => typeof x === "string";
const isSeats = (x) => x === null || (Array.isArray(x) && x.every(isText));

/* What the address holds: {saved} (null when it holds nothing), {answer} (an earlier answer's
   id), or {error} when it cannot be read (cut short when copied, or not a link of this page). */
export function readAddress() {
  if (location.hash.length < 2) return { saved: null };
  const answer = /^#answer=(c[1-9][0-9]*)$/.exec(location.hash);
  if (answer) return { saved: null, answer: answer[1] };
  const found = readToday();
  if (!found.error) return found;
  const old = upgraded(readOld());
  return old ? { saved: old } : found;
}

function readToday() {
  let saved;
  try {
    saved = decode(location.hash.slice(1));
  } catch (e) {
    return { error: "This link could not be read: it may have been cut short when it was copied." };
  }
  const ok = saved && typeof saved === "object" && saved.v === VERSION && isText(saved.g)
    && Number.isInteger(saved.p) && Array.isArray(saved.a) && saved.a.length > 0
    && saved.a.every((a) => a && isText(a.n) && isText(a.c) && isSeats(a.p)) && isSeats(saved.L);
  if (!ok) return { error: "This link could not be read: it is not a link of this workbench, or a part of it is missing." };
  return { saved };
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

function readOld() {
  try {
    const raw = atob(location.hash.slice(1).replace(/-/g, "+").replace(/_/g, "/"));
    return JSON.parse(new TextDecoder().decode(Uint8Array.from(raw, (c) => c.charCodeAt(0))));
  } catch (e) {
    return null;
  }
}
