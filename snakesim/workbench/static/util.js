/* Small helpers every part of the page uses: elements, the server's JSON API, messages. */

export const $ = (id) => document.getElementById(id);

/* A new element with a class and text, appended to parent. */
export function node(tag, cls, text, parent) {
  const el = document.createElement(tag);
  if (cls) el.className = cls;
  if (text !== undefined && text !== null) el.textContent = text;
  if (parent) parent.appendChild(el);
  return el;
}

/* A button that does something when pressed. */
export function button(text, parent, action, title) {
  const b = node("button", null, text, parent);
  b.type = "button";
  if (title) b.title = title;
  b.addEventListener("click", action);
  return b;
}

/* One call to the server; rejects with the server's one-line error (err.data: its whole answer). */
export async function api(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (e) {
    throw new Error("the workbench's server does not answer: is `snakesim workbench` still running?");
  }
  let data;
  try {
    data = await response.json();
  } catch (e) {
    throw new Error(`the server answered ${response.status} without a message`);
  }
  if (!response.ok) {
    const err = new Error(data.error || `the server answered ${response.status}`);
    err.status = response.status;
    err.data = data;
    throw err;
  }
  return data;
}

export function showError(id, message) {
  const el = $(id);
  el.textContent = message || "";
  el.hidden = !message;
}

export const count = (n) => Number(n).toLocaleString("en");

/* The whole number a text field holds, checked: an Error naming the field and what it takes
   otherwise (never "got 0" for an empty field or a word), with `why` the limit is what it is. */
export function wholeNumber(id, name, low, high, why = "") {
  const text = $(id).value.trim();
  const allowed = `${name}: expected a whole number from ${count(low)} to ${count(high)}${why}`;
  if (!text) throw new Error(`${allowed}, got nothing`);
  if (!/^\d+$/.test(text.replace(/[,_ ]/g, ""))) throw new Error(`${allowed}, got '${text}'`);
  const value = Number(text.replace(/[,_ ]/g, ""));
  if (value < low || value > high) throw new Error(`${allowed}, got ${count(value)}`);
  return value;
}

/* A seat counted from 0 as players count it (snakesim.analysis.words.ordinal): 0 -> "first". */
const ORDINALS = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth"];
export const ordinal = (seat) => ORDINALS[seat] || `${seat + 1}th`;

/* "a", "a and b", "a, b and c". */
export function listed(items) {
  if (items.length < 2) return items.join("");
  return items.slice(0, -1).join(", ") + " and " + items[items.length - 1];
}
