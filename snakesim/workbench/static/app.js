/* The snakesim workbench page: a game's rules as a form and as TOML (the server checks every
   edit with the command line's one-line messages), rule sets side by side, a run with its
   progress, and the answer in words and charts. The page's state lives in its address. */
(function () {
  "use strict";
  var $ = function (id) { return document.getElementById(id); };
  var state = { games: {}, game: null, rules: null, arms: [], job: null, balanceJob: null, lastRun: null };

  function api(method, path, body) {
    var init = { method: method, headers: {} };
    if (body !== undefined) { init.headers["Content-Type"] = "application/json"; init.body = JSON.stringify(body); }
    return fetch(path, init).then(function (response) {
      return response.json().then(function (data) {
        if (!response.ok) throw new Error(data.error || ("the server answered " + response.status));
        return data;
      });
    });
  }

  function node(tag, cls, text, parent) {
    var el = document.createElement(tag);
    if (cls) el.className = cls;
    if (text !== undefined && text !== null) el.textContent = text;
    if (parent) parent.appendChild(el);
    return el;
  }

  function showError(id, message) {
    var el = $(id);
    el.textContent = message || "";
    el.hidden = !message;
  }

  /* ---------------------------------------------------------------- the address */
  function encode(obj) {
    var bytes = new TextEncoder().encode(JSON.stringify(obj)), text = "";
    bytes.forEach(function (b) { text += String.fromCharCode(b); });
    return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  function decode(text) {
    var raw = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
    var bytes = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
    return JSON.parse(new TextDecoder().decode(bytes));
  }

  function saveAddress() {
    if (!state.rules) return;
    var s = {
      g: state.game.name, p: players(), n: Number($("games").value), s: Number($("seed").value), f: $("feel").checked,
      b: $("base").value, l: $("label").value, e: state.rules.changes,
      a: state.arms.map(function (a) { return { n: a.name, c: a.changes, p: a.policies }; }),
    };
    history.replaceState(null, "", "#" + encode(s));
  }

  function readAddress() {
    if (location.hash.length < 2) return null;
    try { return decode(location.hash.slice(1)); } catch (e) { return null; }
  }

  /* ---------------------------------------------------------------- rules */
  function players() { return Number($("players").value); }

  function checkRules(toml, settings) {
    return api("POST", "/api/rules", { game: state.game.name, toml: toml, set: settings || [] });
  }

  function setRules(view, keepText) {
    state.rules = view;
    if (!keepText) $("toml").value = view.toml;
    $("rules-summary").textContent = "Changes from the seed's game: " + view.summary + ".";
    fillForm(view);
    showError("rules-error", "");
    saveAddress();
  }

  function buildForm() {
    var form = $("form");
    form.innerHTML = "";
    state.game.fields.forEach(function (f) {
      var box = node("fieldset", "field", null, form);
      node("legend", null, f.name, box);
      node("p", "help", f.help + " (" + f.allowed + ")", box);
      if (f.kind === "table") {
        var grid = node("div", "table-grid", null, box);
        f.keys.forEach(function (key) {
          var label = node("label", null, null, grid);
          node("span", null, key, label);
          label.appendChild(input(f.entry, f.name, key));
        });
      } else {
        box.appendChild(input(f, f.name, null));
      }
    });
  }

  function input(f, name, key) {
    var el;
    if (f.kind === "bool") { el = document.createElement("input"); el.type = "checkbox"; }
    else if (f.kind === "choice") {
      el = document.createElement("select");
      f.choices.forEach(function (c) { node("option", null, c, el).value = c; });
    } else if (f.kind === "int") {
      el = document.createElement("input"); el.type = "number"; el.min = f.low; el.max = f.high; el.step = 1;
    } else { el = document.createElement("input"); el.type = "text"; }
    el.dataset.field = name;
    if (key !== null) el.dataset.key = key;
    el.setAttribute("aria-label", key === null ? name : name + " " + key);
    var timer = null;
    function send() {
      var value = el.type === "checkbox" ? String(el.checked) : el.value;
      var setting = name + (key === null ? "" : "." + key) + "=" + value;
      checkRules(state.rules.toml, [setting]).then(function (view) {
        el.classList.remove("invalid");
        setRules(view);
      }, function (err) {
        el.classList.add("invalid");
        showError("rules-error", err.message);
      });
    }
    el.addEventListener(el.tagName === "SELECT" || el.type === "checkbox" ? "change" : "input", function () {
      clearTimeout(timer);
      timer = setTimeout(send, el.type === "checkbox" || el.tagName === "SELECT" ? 0 : 350);
    });
    return el;
  }

  function fillForm(view) {
    var fields = $("form").querySelectorAll("[data-field]");
    fields.forEach(function (el) {
      if (el === document.activeElement || el.classList.contains("invalid")) return;
      var value = view.texts[el.dataset.field];
      if (el.dataset.key !== undefined) value = value ? value[el.dataset.key] : "";
      if (el.type === "checkbox") el.checked = value === true;
      else el.value = value === undefined || value === null ? "" : String(value);
    });
  }

  function watchToml() {
    var timer = null;
    $("toml").addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(function () {
        checkRules($("toml").value).then(function (view) {
          $("form").querySelectorAll(".invalid").forEach(function (el) { el.classList.remove("invalid"); });
          setRules(view, true);
        }, function (err) { showError("rules-error", err.message); });
      }, 400);
    });
    $("toml").addEventListener("blur", function () { if (state.rules) $("toml").value = state.rules.toml; });
  }

  /* ---------------------------------------------------------------- arms */
  function policyChoices() {
    var out = [];
    state.game.policies.forEach(function (p) {
      out.push(p);
      if (p === "greedy") out.push("greedy:0.3");
    });
    return out;
  }

  function defaultSeats() {
    var seats = [];
    for (var i = 0; i < players(); i++) seats.push(state.game.default_policy);
    return state.game.policies.length ? seats : null;
  }

  function addArm(name, view, policies) {
    var taken = state.arms.map(function (a) { return a.name; });
    var label = name, k = 2;
    while (taken.indexOf(label) >= 0) label = name + " " + k++;
    state.arms.push({ name: label, toml: view.toml, changes: view.changes, summary: view.summary,
                      policies: policies || defaultSeats() });
    drawArms();
  }

  function drawArms() {
    var body = $("arms").querySelector("tbody");
    body.innerHTML = "";
    var pick = $("balance-arm"), before = pick.value;
    pick.innerHTML = "";
    state.arms.forEach(function (arm, i) {
      var tr = node("tr", null, null, body);
      tr.dataset.arm = arm.name;
      node("td", "arm-name", arm.name + (i === 0 ? " (baseline)" : ""), tr);
      node("td", "arm-rules", arm.summary, tr);
      var seats = node("td", null, null, tr);
      if (arm.policies) {
        arm.policies.forEach(function (p, s) {
          var sel = node("select", null, null, seats);
          sel.setAttribute("aria-label", arm.name + " seat " + s);
          policyChoices().forEach(function (c) { node("option", null, "seat " + s + ": " + c, sel).value = c; });
          sel.value = p;
          sel.addEventListener("change", function () { arm.policies[s] = sel.value; saveAddress(); });
        });
      } else { node("span", "note", "no choices to make", seats); }
      var tools = node("td", "tools", null, tr);
      var edit = node("button", null, "edit", tools);
      edit.type = "button";
      edit.title = "load these rules into the editor";
      edit.addEventListener("click", function () {
        $("label").value = arm.name;
        checkRules(arm.toml).then(function (view) { setRules(view); });
      });
      var get = node("button", null, "TOML", tools);
      get.type = "button";
      get.title = "download these rules";
      get.addEventListener("click", function () { downloadRules(arm.name, arm.toml); });
      if (state.arms.length > 1) {
        var drop = node("button", null, "remove", tools);
        drop.type = "button";
        drop.addEventListener("click", function () { state.arms.splice(i, 1); drawArms(); });
      }
      node("option", null, arm.name, pick).value = arm.name;
    });
    if (before) pick.value = before;
    saveAddress();
  }

  function resizeSeats() {
    state.arms.forEach(function (arm) {
      if (!arm.policies) return;
      while (arm.policies.length < players()) arm.policies.push(state.game.default_policy);
      arm.policies.length = players();
    });
    drawArms();
  }

  /* ---------------------------------------------------------------- downloads */
  function saveBlob(blob, name) {
    var a = document.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = name;
    document.body.appendChild(a);
    a.click();
    setTimeout(function () { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
  }

  function download(path, body) {
    return fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) })
      .then(function (response) {
        if (!response.ok) return response.json().then(function (d) { throw new Error(d.error); });
        var name = /filename="([^"]+)"/.exec(response.headers.get("Content-Disposition") || "");
        return response.blob().then(function (blob) { saveBlob(blob, name ? name[1] : "download.toml"); });
      });
  }

  function downloadRules(name, toml) {
    download("/api/download/rules", { game: state.game.name, toml: toml, name: name })
      .catch(function (err) { showError("rules-error", err.message); });
  }

  /* ---------------------------------------------------------------- runs */
  function runRequest() {
    return {
      kind: "compare", game: state.game.name, players: players(), games: Number($("games").value),
      seed: Number($("seed").value), feel: $("feel").checked,
      arms: state.arms.map(function (a) { return { name: a.name, toml: a.toml, policies: a.policies }; }),
    };
  }

  function watch(id, onDone, onFail, progressBar, status) {
    var timer = setInterval(function () {
      api("GET", "/api/runs/" + id).then(function (job) {
        if (job.state === "compiling") { status.textContent = job.message; progressBar.removeAttribute("value"); }
        else if (job.state === "playing" || job.state === "waiting") {
          if (job.share !== null && job.share !== undefined) {  // (work, not games: arms may cost differently)
            progressBar.max = 1; progressBar.value = job.share;
            status.textContent = job.done.toLocaleString("en") + " of " + job.total.toLocaleString("en") + " games played";
          } else if (job.total) {
            progressBar.max = job.total; progressBar.value = job.done;
            status.textContent = job.done.toLocaleString("en") + " of " + job.total.toLocaleString("en") + " games played";
          } else { progressBar.removeAttribute("value"); status.textContent = job.done.toLocaleString("en") + " games played"; }
        }
        if (["done", "failed", "cancelled"].indexOf(job.state) >= 0) {
          clearInterval(timer);
          if (job.state === "done") onDone(job);
          else onFail(job.state === "failed" ? job.error : "cancelled");
        }
      }, function (err) { clearInterval(timer); onFail(err.message); });
    }, 250);
  }

  function run() {
    showError("run-error", "");
    var request = runRequest();
    api("POST", "/api/runs", request).then(function (started) {
      state.job = started.id;
      $("run").disabled = true; $("cancel").hidden = false; $("progress").hidden = false;
      $("status").textContent = "starting";
      var t0 = Date.now();
      watch(started.id, function (job) {
        finishRun();
        state.lastRun = { request: request, id: job.id };
        $("status").textContent = (job.total).toLocaleString("en") + " games played in " + ((Date.now() - t0) / 1000).toFixed(1) + " s";
        showResults(job.result, job.id);
      }, function (message) {
        finishRun();
        $("status").textContent = message === "cancelled" ? "cancelled" : "";
        if (message !== "cancelled") showError("run-error", message);
      }, $("progress"), $("status"));
    }, function (err) { showError("run-error", err.message); });
  }

  function finishRun() {
    state.job = null;
    $("run").disabled = false; $("cancel").hidden = true; $("progress").hidden = true;
  }

  function findingsList(list, findings) {
    list.innerHTML = "";
    findings.forEach(function (f) {
      var li = node("li", null, null, list);
      if (f.arm) node("strong", null, f.arm + ": ", li);
      li.appendChild(document.createTextNode(f.text));
    });
  }

  function showResults(result, id) {
    $("results").hidden = false;
    findingsList($("findings"), result.findings);
    window.SnakesimCharts.render($("charts"), result.charts);
    var arms = [], cells = {};
    result.rows.forEach(function (r) {
      if (arms.indexOf(r.arm) < 0) arms.push(r.arm);
      (cells[r.metric] = cells[r.metric] || {})[r.arm] = r;
    });
    var table = node("table", "figures"), head = node("tr", null, null, node("thead", null, null, table));
    node("th", null, "what", head);
    arms.forEach(function (a) { node("th", null, a, head); });
    var body = node("tbody", null, null, table);
    Object.keys(cells).forEach(function (metric) {
      var tr = node("tr", null, null, body);
      node("th", null, metric, tr);
      arms.forEach(function (a) {
        var r = cells[metric][a], td = node("td", r && r.significant ? "changed" : null, null, tr);
        if (!r) return;
        node("div", null, r.value, td);
        if (r.diff) node("div", "diff", r.diff, td);
      });
    });
    $("table-box").innerHTML = "";
    $("table-box").appendChild(table);
    $("command").textContent = result.command;
    $("download-report").href = "/api/runs/" + id + "/report";
  }

  function balance() {
    showError("balance-error", "");
    var arm = state.arms.filter(function (a) { return a.name === $("balance-arm").value; })[0] || state.arms[0];
    var request = {
      kind: "balance", game: state.game.name, players: players(), seed: Number($("seed").value), feel: false,
      games: Number($("balance-games").value), handicap: $("handicap").value,
      tolerance: Number($("tolerance").value) / 100, arm: { name: arm.name, toml: arm.toml, policies: arm.policies },
    };
    api("POST", "/api/runs", request).then(function (started) {
      $("balance").disabled = true; $("balance-progress").hidden = false;
      $("balance-status").textContent = "starting";
      watch(started.id, function (job) {
        $("balance").disabled = false; $("balance-progress").hidden = true;
        $("balance-status").textContent = job.done.toLocaleString("en") + " games played in " + job.seconds.toFixed(1) + " s";
        $("balance-results").hidden = false;
        findingsList($("balance-findings"), job.result.findings);
        window.SnakesimCharts.render($("balance-charts"), job.result.charts);
      }, function (message) {
        $("balance").disabled = false; $("balance-progress").hidden = true;
        $("balance-status").textContent = "";
        showError("balance-error", message);
      }, $("balance-progress"), $("balance-status"));
    }, function (err) { showError("balance-error", err.message); });
  }

  /* ---------------------------------------------------------------- the game */
  function chooseGame(name, saved) {
    state.game = state.games[name];
    $("game").value = name;
    $("players").min = state.game.min_players;
    $("players").max = state.game.max_players;
    var n = saved ? saved.p : Math.min(Math.max(players(), state.game.min_players), state.game.max_players);
    $("players").value = n;
    $("game-title").textContent = state.game.title;
    ["base", "variant-pick"].forEach(function (id) {
      var sel = $(id);
      sel.innerHTML = "";
      Object.keys(state.game.variants).forEach(function (v) {
        node("option", null, v + ": " + state.game.variants[v].description, sel).value = v;
      });
    });
    $("handicap").innerHTML = "";
    state.game.per_seat.forEach(function (h) { node("option", null, h, $("handicap")).value = h; });
    buildForm();
    state.arms = [];
    if (saved) {
      $("base").value = saved.b || "standard";
      $("label").value = saved.l || "my rules";
      var loads = saved.a.map(function (a) { return checkRules(a.c); });
      return Promise.all(loads).then(function (views) {
        views.forEach(function (v, i) { addArm(saved.a[i].n, v, saved.a[i].p); });
        return checkRules(saved.e);
      }).then(function (view) { setRules(view); });
    }
    addArm("standard", { toml: state.game.variants.standard.toml, changes: "", summary: "all defaults" });
    return checkRules(state.game.variants.standard.toml).then(function (view) { setRules(view); });
  }

  function start() {
    api("GET", "/api/games").then(function (data) {
      data.games.forEach(function (g) {
        state.games[g.name] = g;
        node("option", null, g.name, $("game")).value = g.name;
      });
      var saved = readAddress();
      if (saved && saved.g in state.games) {
        $("games").value = saved.n; $("seed").value = saved.s; $("feel").checked = !!saved.f;
        return chooseGame(saved.g, saved);
      }
      return chooseGame(data.games[0].name);
    }).catch(function (err) { showError("run-error", err.message); });

    $("game").addEventListener("change", function () { chooseGame($("game").value); });
    $("players").addEventListener("change", resizeSeats);
    ["games", "seed", "feel", "label"].forEach(function (id) { $(id).addEventListener("change", saveAddress); });
    $("reset").addEventListener("click", function () {
      checkRules(state.game.variants[$("base").value].toml).then(function (view) { setRules(view); });
    });
    $("add-arm").addEventListener("click", function () { addArm($("label").value.trim() || "my rules", state.rules); });
    $("add-variant").addEventListener("click", function () {
      var v = $("variant-pick").value;
      checkRules(state.game.variants[v].toml).then(function (view) { addArm(v, view); });
    });
    $("download-rules").addEventListener("click", function () { downloadRules($("label").value || "rules", state.rules.toml); });
    $("run").addEventListener("click", run);
    $("cancel").addEventListener("click", function () { if (state.job) api("DELETE", "/api/runs/" + state.job); });
    $("balance").addEventListener("click", balance);
    $("download-study").addEventListener("click", function () {
      download("/api/download/study", state.lastRun ? state.lastRun.request : runRequest())
        .catch(function (err) { showError("run-error", err.message); });
    });
    $("copy-link").addEventListener("click", function () {
      saveAddress();
      if (navigator.clipboard) navigator.clipboard.writeText(location.href);
      $("copy-link").textContent = "Link copied (it is also this page's address)";
    });
    watchToml();
    // A link pasted into this tab's address bar changes only the part after #: open it afresh.
    window.addEventListener("hashchange", function () { location.reload(); });
  }

  start();
})();
