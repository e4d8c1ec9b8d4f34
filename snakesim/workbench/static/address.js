/* The page's state in its address (after #), so that a link reopens everything the page
   found: the game, its players, every rule set, the comparison's and the balance's settings
   and the runs whose results it shows. A link that cannot be read says so. */

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

/* What the address holds: {saved} (null when it holds nothing), or {error} when it cannot be
   read (cut short when copied, or not a link of this page). */
export function readAddress() {
  if (location.hash.length < 2) return { saved: null };
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
