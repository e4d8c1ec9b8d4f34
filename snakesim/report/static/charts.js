/* snakesim's charts: bars or lines with their 95% intervals, drawn as SVG from the data
   that snakesim.report.charts computes, or a plane of two targets (a design search: each rule
   set a point with its intervals both ways, the region that meets both shaded). Each chart is
   one Tab stop: the arrow keys (or a pointer, or a tap) pick a column and show every shown
   rule set's value with its interval, or on a plane step through the rule sets, the answers
   first; a legend button shows or hides a rule set; a sentence under the chart says what it
   shows. No library, nothing fetched: the workbench serves this file and a report inlines it. */
(function () {
  "use strict";
  var COLOURS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"];
  var SVG = "http://www.w3.org/2000/svg";
  var HEIGHT = 300, LEFT = 58, RIGHT = 14, TOP = 14;
  var WIDEST = 640, NARROWEST = 320;  // the chart's own width follows its box's, so text stays legible on a phone
  var CHAR = 6.6;  // an x label's width per character, in the chart's units (11px text)

  function el(tag, attrs, parent) {
    var node = document.createElementNS(SVG, tag);
    for (var k in attrs) node.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(node);
    return node;
  }

  function html(tag, cls, text, parent) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = text;
    if (parent) parent.appendChild(node);
    return node;
  }

  /* Decimals that show an interval this wide, as the text answers print it: one significant
     digit of the width, two when it starts with 1 or 2 (snakesim.analysis.words.decimals). */
  function places(width) {
    if (!(width > 0) || !isFinite(width)) return 0;
    var e = Math.floor(Math.log10(width));
    return Math.min(4, Math.max(0, -e + (width / Math.pow(10, e) < 3 ? 1 : 0)));
  }

  function show(chart, x, low, high) {
    var k = chart.percent ? 100 : 1, unit = chart.percent ? "%" : "";
    var p = places(k * (high - low));
    return (k * x).toFixed(p) + unit + " [" + (k * low).toFixed(p) + unit + ", " + (k * high).toFixed(p) + unit + "]";
  }

  /* A tick step of 1, 2 or 5 times a power of ten that covers value in 3 to 5 steps. */
  function niceStep(value) {
    if (!(value > 0)) return 0.25;
    var raw = value / 4, power = Math.pow(10, Math.floor(Math.log10(raw)));
    var steps = [1, 2, 5, 10];
    for (var i = 0; i < steps.length; i++) if (steps[i] * power >= raw) return steps[i] * power;
    return 10 * power;
  }

  /* An x label as lines: "seat 1 (random)" on two when one is too wide for its column. */
  function labelLines(x, column) {
    var text = String(x), cut = text.indexOf(" (");
    if (text.length * CHAR + 10 <= column || cut < 0) return [text];
    return [text.slice(0, cut), text.slice(cut + 1)];
  }

  /* Every how many columns an x label fits without running into the next. */
  function labelEvery(xs, column) {
    var widest = 0;
    xs.forEach(function (x) {
      labelLines(x, column).forEach(function (line) { widest = Math.max(widest, line.length); });
    });
    return Math.max(1, Math.ceil((widest * CHAR + 10) / column));
  }

  /* Text broken into lines of at most "room" units of 12px text, at spaces. */
  function wrap(text, room) {
    var most = Math.max(12, Math.floor(room / 7)), lines = [], line = "";
    String(text).split(" ").forEach(function (word) {
      if (line && (line + " " + word).length > most) { lines.push(line); line = word; }
      else line = line ? line + " " + word : word;
    });
    if (line) lines.push(line);
    return lines;
  }

  function lines(parent, attrs, texts, step) {
    var node = el("text", attrs, parent);
    texts.forEach(function (t, i) {
      var span = el("tspan", { x: attrs.x, dy: i ? step : 0 }, node);
      span.textContent = t;
    });
    return node;
  }

  function chartWidth(box) {
    return Math.max(NARROWEST, Math.min(WIDEST, Math.round(box.clientWidth || WIDEST)));
  }

  function draw(box, chart, hidden, heading, keep) {
    if (chart.kind === "plane") return drawPlane(box, chart, heading);
    var W = chartWidth(box);
    box.dataset.width = W;
    box.innerHTML = "";
    var title = html("h" + heading, "snakesim-chart-title", chart.title, box);
    title.id = box.id + "-title";
    (chart.notes || []).forEach(function (note) { html("p", "snakesim-chart-said", note, box); });
    var series = chart.series.map(function (s, i) { return { s: s, colour: COLOURS[i % COLOURS.length], i: i }; });
    var shown = series.filter(function (d) { return !hidden[d.s.name]; });
    var xs = chart.series.length ? chart.series[0].points.map(function (p) { return p[0]; }) : [];
    // The x labels (on two lines where one is too wide) and the axis caption (wrapped) set the
    // room under the plot.
    var plotW = W - LEFT - RIGHT, column = plotW / Math.max(1, xs.length);
    var every = labelEvery(xs, column);
    var labels = xs.map(function (x) { return labelLines(x, column * every); });
    var twoLines = labels.some(function (l) { return l.length > 1; });
    var caption = wrap(chart.x_label, plotW);
    var extra = 14 * (caption.length - 1) + (twoLines ? 12 : 0);
    var BOTTOM = 46 + extra, H = HEIGHT + extra;
    var top = 0;
    shown.forEach(function (d) { d.s.points.forEach(function (p) { top = Math.max(top, p[3], p[1]); }); });
    var guides = (chart.guides || []).filter(function (g) { return isFinite(g.value); });
    guides.forEach(function (g) { top = Math.max(top, g.value); });
    if (chart.percent && top > 0.95) top = 1;  // (a share: the axis ends at 100%)
    var step = niceStep(top), ticks = Math.max(1, Math.ceil(top / step - 1e-9));
    top = step * ticks;
    // The plot is one Tab stop; its name is the title, its description the summary below it.
    var plot = html("div", "snakesim-plot", null, box);
    plot.tabIndex = 0;
    plot.setAttribute("role", "group");
    plot.setAttribute("aria-labelledby", title.id);
    plot.setAttribute("aria-describedby", box.id + "-summary " + box.id + "-how");
    var svg = el("svg", { viewBox: "0 0 " + W + " " + H, "aria-hidden": "true", focusable: "false", "class": "snakesim-svg" }, plot);
    var plotH = H - TOP - BOTTOM;
    function y(v) { return TOP + plotH * (1 - v / top); }
    var tickPlaces = Math.max(0, -Math.floor(Math.log10((chart.percent ? 100 : 1) * step) + 1e-9));
    for (var t = 0; t <= ticks; t++) {
      var v = step * t, yy = y(v);
      el("line", { x1: LEFT, x2: W - RIGHT, y1: yy, y2: yy, "class": "snakesim-grid" }, svg);
      var label = chart.percent ? (100 * v).toFixed(tickPlaces) + "%" : v.toFixed(tickPlaces);
      el("text", { x: LEFT - 6, y: yy + 4, "text-anchor": "end", "class": "snakesim-tick" }, svg).textContent = label;
    }
    labels.forEach(function (parts, j) {
      if (j % every === 0) {
        lines(svg, { x: LEFT + column * (j + 0.5), y: H - BOTTOM + 16, "text-anchor": "middle", "class": "snakesim-tick" }, parts, 12);
      }
    });
    lines(svg, { x: LEFT + plotW / 2, y: H - BOTTOM + 32 + (twoLines ? 12 : 0), "text-anchor": "middle", "class": "snakesim-axis" }, caption, 14);
    el("text", { x: 14, y: TOP + plotH / 2, "text-anchor": "middle", transform: "rotate(-90 14 " + (TOP + plotH / 2) + ")", "class": "snakesim-axis" }, svg).textContent = chart.y_label;

    if (chart.kind === "bars") {
      var width = column * 0.8 / Math.max(1, shown.length);
      shown.forEach(function (d, k) {
        d.s.points.forEach(function (p, j) {
          var x0 = LEFT + column * j + column * 0.1 + width * k;
          el("rect", { x: x0, y: y(p[1]), width: Math.max(1, width - 2), height: Math.max(0, y(0) - y(p[1])), fill: d.colour, "class": "snakesim-bar" }, svg);
          var cx = x0 + (width - 2) / 2;
          el("line", { x1: cx, x2: cx, y1: y(p[2]), y2: y(p[3]), "class": "snakesim-whisker" }, svg);
          el("line", { x1: cx - 4, x2: cx + 4, y1: y(p[2]), y2: y(p[2]), "class": "snakesim-whisker" }, svg);
          el("line", { x1: cx - 4, x2: cx + 4, y1: y(p[3]), y2: y(p[3]), "class": "snakesim-whisker" }, svg);
        });
      });
    } else {
      shown.forEach(function (d) {
        var pts = d.s.points, band = [], line = [];
        pts.forEach(function (p, j) { band.push((LEFT + column * (j + 0.5)) + "," + y(p[3])); line.push((LEFT + column * (j + 0.5)) + "," + y(p[1])); });
        for (var j = pts.length - 1; j >= 0; j--) band.push((LEFT + column * (j + 0.5)) + "," + y(pts[j][2]));
        el("polygon", { points: band.join(" "), fill: d.colour, "class": "snakesim-band" }, svg);
        el("polyline", { points: line.join(" "), stroke: d.colour, "class": "snakesim-line" }, svg);
      });
    }
    // Guides (over the bars): a target's edges, dashed across the plot, named at its right end.
    guides.forEach(function (g) {
      el("line", { x1: LEFT, x2: W - RIGHT, y1: y(g.value), y2: y(g.value), "class": "snakesim-guide" }, svg);
      el("text", { x: W - RIGHT, y: y(g.value) - 4, "text-anchor": "end", "class": "snakesim-guide-label" }, svg)
        .textContent = g.label;
    });
    var mark = el("rect", { x: 0, y: TOP, width: column, height: plotH, "class": "snakesim-mark" }, svg);
    mark.style.display = "none";
    var tip = html("div", "snakesim-tip", null, plot);
    tip.setAttribute("aria-live", "polite");
    tip.hidden = true;
    var current = -1;
    function pick(j) {
      current = j;
      var x = xs[j];
      tip.innerHTML = "";
      var named = chart.names && chart.names[j];  // (a numbered bar's full name)
      html("strong", null, named || (chart.kind === "bars" ? String(x) : chart.x_label.split(";")[0] + ": " + x), tip);
      shown.forEach(function (d) {
        var p = d.s.points[j], row = html("div", "snakesim-tip-row", null, tip);
        var swatch = html("span", "snakesim-swatch", null, row);
        swatch.style.background = d.colour;
        html("span", null, d.s.name + ": " + show(chart, p[1], p[2], p[3]), row);
      });
      tip.hidden = false;
      mark.setAttribute("x", LEFT + column * j);
      mark.style.display = "";
      var middle = (LEFT + column * (j + 0.5)) / W * plot.clientWidth;
      if (plot.clientWidth < 480) {  // (a phone: under the plot, not over the bars it tells about)
        tip.style.top = plot.clientHeight + "px";
        tip.style.left = "0px";
        return;
      }
      tip.style.top = "";
      var left = middle + 12 + tip.offsetWidth <= plot.clientWidth ? middle + 12 : middle - 12 - tip.offsetWidth;
      tip.style.left = Math.max(0, left) + "px";
    }
    function drop() { tip.hidden = true; mark.style.display = "none"; current = -1; }
    xs.forEach(function (x, j) {
      var hit = el("rect", { x: LEFT + column * j, y: TOP, width: column, height: plotH, "class": "snakesim-hit", "data-x": String(x) }, svg);
      hit.addEventListener("mouseenter", function () { pick(j); });
      hit.addEventListener("click", function () { pick(j); });
    });
    box.redraw = function () { draw(box, chart, hidden, heading); };
    svg.addEventListener("mouseleave", drop);
    plot.addEventListener("keydown", function (e) {
      var keys = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };
      if (e.key in keys) {
        pick(current < 0 ? 0 : Math.min(xs.length - 1, Math.max(0, current + keys[e.key])));
        e.preventDefault();
      } else if (e.key === "Home" || e.key === "End") {
        pick(e.key === "Home" ? 0 : xs.length - 1);
        e.preventDefault();
      } else if (e.key === "Escape") { drop(); }
    });
    plot.addEventListener("blur", drop);
    var legend = html("div", "snakesim-legend", null, box);
    series.forEach(function (d) {
      var button = html("button", "snakesim-legend-item" + (hidden[d.s.name] ? " off" : ""), null, legend);
      button.type = "button";
      button.setAttribute("aria-pressed", hidden[d.s.name] ? "false" : "true");
      button.title = hidden[d.s.name] ? "show this rule set" : "hide this rule set";
      var swatch = html("span", "snakesim-swatch", null, button);
      swatch.style.background = d.colour;
      html("span", null, d.s.name, button);
      button.addEventListener("click", function () {
        hidden[d.s.name] = !hidden[d.s.name];
        draw(box, chart, hidden, heading, d.s.name);
      });
      if (keep === d.s.name) button.focus();
    });
    var summary = html("p", "snakesim-chart-summary", chart.summary || "", box);
    summary.id = box.id + "-summary";
    // (a line chart has no columns to tap: a family looked for them)
    var where = chart.kind === "bars" ? "Point at or tap a column" : "Point at or tap the chart where you want to read it";
    var how = html("p", "snakesim-chart-note", where + ", or Tab to the chart and use the arrow keys, for " +
      "each rule set's value and its " + Math.round(100 * (chart.level || 0.95)) + "% interval; a rule set's button shows or hides it.", box);
    how.id = box.id + "-how";
  }

  /* A plane's marks, by a point's class: told apart by shape and size as well as colour (a
     grey print, a reader who cannot tell green from orange), the answers drawn last, on top. */
  var MARKS = {
    answer: { colour: "#1b7a1b", shape: "circle", size: 7, words: "meets every target" },
    nearest: { colour: "#1f5fa8", shape: "triangle", size: 8, words: "the nearest miss" },
    "trade-off": { colour: "#c25e00", shape: "diamond", size: 6, words: "a trade-off: no rule set is nearer both targets" },
    other: { colour: "#8c8c8c", shape: "ring", size: 3.5, words: "another rule set played" }
  };
  var CLASSES = ["answer", "nearest", "trade-off", "other"];

  function shape(parent, kind, x, y, r, cls) {
    var m = MARKS[kind], attrs = { "class": cls, fill: m.colour, stroke: "#fff", "stroke-width": 1.2 };
    if (m.shape === "circle" || m.shape === "ring") {
      attrs.cx = x; attrs.cy = y; attrs.r = r;
      if (m.shape === "ring") { attrs.fill = "#fff"; attrs.stroke = m.colour; attrs["stroke-width"] = 1.5; }
      return el("circle", attrs, parent);
    }
    attrs.points = m.shape === "triangle"
      ? [x, y - r * 1.15, x + r, y + r * 0.7, x - r, y + r * 0.7].join(" ")
      : [x, y - r * 1.25, x + r * 1.05, y, x, y + r * 1.25, x - r * 1.05, y].join(" ");
    return el("polygon", attrs, parent);
  }

  /* A value as the text answers write it: to the decimals its interval's width shows, the
     unit once ("3.6 points [0, 18.4]"); a value with no width as it is (49, 0.2). */
  function figure(v, low, high, unit) {
    if (v === null || v === undefined) return "-";
    if (low === null || low === undefined || high === null || high === undefined) return String(+v.toPrecision(4)) + unit;
    if (!(high - low > 0)) return String(+v.toPrecision(4)) + unit + " [" + (+low.toPrecision(4)) + ", " + (+high.toPrecision(4)) + "]";
    var p = places(high - low), text = v.toFixed(p);
    if (unit === " points" && text === "1") unit = " point";
    return text + unit + " [" + low.toFixed(p) + ", " + high.toFixed(p) + "]";
  }

  /* An axis: from the points' intervals and the target's edges (the shaded region is what the
     reader looks for), unless an edge lies so far off that the points would shrink to a
     corner: that edge is said in words instead. Ends on whole ticks. */
  function axis(points, key, edges) {
    var lo = Infinity, hi = -Infinity, beyond = [];
    points.forEach(function (p) {
      [p[key], p[key + "_low"], p[key + "_high"]].forEach(function (v) {
        if (v !== null && v !== undefined && isFinite(v)) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
      });
    });
    if (!isFinite(lo)) { lo = 0; hi = 1; }
    var span = hi - lo;
    edges.forEach(function (e) {
      if (e === null || !isFinite(e)) return;
      if (span > 0 && Math.max(hi, e) - Math.min(lo, e) > 4 * span) beyond.push(e);
      else { lo = Math.min(lo, e); hi = Math.max(hi, e); }
    });
    var pad = hi > lo ? (hi - lo) * 0.06 : Math.abs(lo) * 0.1 || 1, positive = lo >= 0;
    lo -= pad; hi += pad;
    var step = niceStep(hi - lo);
    lo = Math.floor(lo / step + 1e-9) * step; hi = Math.ceil(hi / step - 1e-9) * step;
    if (positive) lo = Math.max(0, lo);  // (a length, a share, a gap: no axis below 0)
    return { lo: lo, hi: hi, step: step, beyond: beyond, places: Math.max(0, -Math.floor(Math.log10(step) + 1e-9)) };
  }

  function tickText(v, places) {
    var text = v.toFixed(places);
    return /^-0(\.0*)?$/.test(text) ? text.slice(1) : text;
  }

  /* The plane of a design search's first two targets (snakesim.workbench.panels.design). */
  function drawPlane(box, chart, heading) {
    var W = chartWidth(box);
    box.dataset.width = W;
    box.innerHTML = "";
    var title = html("h" + heading, "snakesim-chart-title", chart.title, box);
    title.id = box.id + "-title";
    (chart.notes || []).forEach(function (note) { html("p", "snakesim-chart-said", note, box); });
    var points = chart.points || [], region = chart.region || { x: [null, null], y: [null, null] };
    var plotW = W - LEFT - RIGHT;
    var caption = wrap(chart.x_label, plotW);
    var extra = 14 * (caption.length - 1);
    var BOTTOM = 46 + extra, H = Math.round(HEIGHT + (W > 480 ? 40 : 0)) + extra;
    var plotH = H - TOP - BOTTOM;
    var ax = axis(points, "x", region.x), ay = axis(points, "y", region.y);
    function x(v) { return LEFT + plotW * (v - ax.lo) / (ax.hi - ax.lo); }
    function y(v) { return TOP + plotH * (1 - (v - ay.lo) / (ay.hi - ay.lo)); }
    var plot = html("div", "snakesim-plot", null, box);
    plot.tabIndex = 0;
    plot.setAttribute("role", "group");
    plot.setAttribute("aria-labelledby", title.id);
    plot.setAttribute("aria-describedby", box.id + "-summary " + box.id + "-how");
    var svg = el("svg", { viewBox: "0 0 " + W + " " + H, "aria-hidden": "true", focusable: "false", "class": "snakesim-svg" }, plot);
    // The grid and ticks: across, labels only every so many where they would run together.
    var xTicks = [], yTicks = [];
    for (var v = ax.lo; v <= ax.hi + ax.step * 1e-6; v += ax.step) xTicks.push(v);
    for (var u = ay.lo; u <= ay.hi + ay.step * 1e-6; u += ay.step) yTicks.push(u);
    var widest = 0;
    xTicks.forEach(function (t) { widest = Math.max(widest, tickText(t, ax.places).length); });
    var everyX = Math.max(1, Math.ceil((widest * CHAR + 8) / (plotW / Math.max(1, xTicks.length - 1))));
    xTicks.forEach(function (t, i) {
      el("line", { x1: x(t), x2: x(t), y1: TOP, y2: TOP + plotH, "class": "snakesim-grid" }, svg);
      if (i % everyX === 0) {
        el("text", { x: x(t), y: TOP + plotH + 16, "text-anchor": "middle", "class": "snakesim-tick" }, svg).textContent = tickText(t, ax.places);
      }
    });
    yTicks.forEach(function (t) {
      el("line", { x1: LEFT, x2: LEFT + plotW, y1: y(t), y2: y(t), "class": "snakesim-grid" }, svg);
      el("text", { x: LEFT - 6, y: y(t) + 4, "text-anchor": "end", "class": "snakesim-tick" }, svg).textContent = tickText(t, ay.places);
    });
    lines(svg, { x: LEFT + plotW / 2, y: H - BOTTOM + 32, "text-anchor": "middle", "class": "snakesim-axis" }, caption, 14);
    el("text", { x: 14, y: TOP + plotH / 2, "text-anchor": "middle", transform: "rotate(-90 14 " + (TOP + plotH / 2) + ")", "class": "snakesim-axis" }, svg).textContent = chart.y_label;
    el("rect", { x: LEFT, y: TOP, width: plotW, height: plotH, "class": "snakesim-hit" }, svg);
    // The region that meets both targets: shaded, its edges dashed; an open side runs to the
    // chart's edge; a region off the chart is said in words where it lies.
    function side(lo, hi, a) {
      return [lo === null ? a.lo : Math.max(a.lo, lo), hi === null ? a.hi : Math.min(a.hi, hi)];
    }
    var rx = side(region.x[0], region.x[1], ax), ry = side(region.y[0], region.y[1], ay);
    var off = [];
    if (rx[0] >= rx[1]) off.push(chart.x_label);
    if (ry[0] >= ry[1]) off.push(chart.y_label);
    if (!off.length) {
      var rect = el("rect", { x: x(rx[0]), y: y(ry[1]), width: x(rx[1]) - x(rx[0]), height: y(ry[0]) - y(ry[1]), "class": "snakesim-region" }, svg);
      [[region.x[0], "x"], [region.x[1], "x"], [region.y[0], "y"], [region.y[1], "y"]].forEach(function (e) {
        if (e[0] === null || e[0] < (e[1] === "x" ? ax : ay).lo || e[0] > (e[1] === "x" ? ax : ay).hi) return;
        var attrs = e[1] === "x"
          ? { x1: x(e[0]), x2: x(e[0]), y1: y(ry[0]), y2: y(ry[1]) }
          : { x1: x(rx[0]), x2: x(rx[1]), y1: y(e[0]), y2: y(e[0]) };
        attrs["class"] = "snakesim-region-edge";
        el("line", attrs, svg);
      });
      // Named inside where it fits, else over its top edge (a narrow band on a phone).
      var rw = +rect.getAttribute("width"), rh = +rect.getAttribute("height"), words = "meets both targets";
      var wide = words.length * CHAR * 0.95 + 10;
      if (rw >= wide && rh >= 20) {
        el("text", { x: x(rx[0]) + 5, y: y(ry[1]) + 14, "class": "snakesim-region-label" }, svg).textContent = words;
      } else if (y(ry[1]) - TOP >= 16) {
        var start = Math.max(LEFT + 2, Math.min(x(rx[0]), LEFT + plotW - wide));
        el("text", { x: start, y: y(ry[1]) - 5, "class": "snakesim-region-label" }, svg).textContent = words;
      }
    } else {
      lines(svg, { x: LEFT + 6, y: TOP + 14, "class": "snakesim-region-label" },
        wrap("The targets' region lies off the chart: no rule set is near it (" + off.join("; ") + ")", plotW - 12), 13);
    }
    if (ax.beyond.length || ay.beyond.length) {
      el("text", { x: LEFT + 6, y: TOP + plotH - 8, "class": "snakesim-region-label" }, svg).textContent =
        "A target's edge lies beyond the chart";
    }
    // Intervals both ways, then the marks: the others first, the answers last (on top).
    var layered = points.map(function (p, i) { return { p: p, i: i, rank: CLASSES.indexOf(p["class"]) }; });
    layered.sort(function (a, b) { return b.rank - a.rank || b.i - a.i; });
    var where = [];
    layered.forEach(function (d) {
      var p = d.p, kind = MARKS[p["class"]] ? p["class"] : "other", m = MARKS[kind];
      if (p.x === null || p.y === null) return;
      var cx = x(p.x), cy = y(p.y), cap = kind === "other" ? 2 : 3.5;
      var g = el("g", { "class": "snakesim-point snakesim-" + kind, "data-label": p.label, "data-index": d.i }, svg);
      if (p.x_low !== null && p.x_high !== null) {
        el("line", { x1: x(p.x_low), x2: x(p.x_high), y1: cy, y2: cy, stroke: m.colour, "class": "snakesim-error" }, g);
        [p.x_low, p.x_high].forEach(function (e) { el("line", { x1: x(e), x2: x(e), y1: cy - cap, y2: cy + cap, stroke: m.colour, "class": "snakesim-error" }, g); });
      }
      if (p.y_low !== null && p.y_high !== null) {
        el("line", { x1: cx, x2: cx, y1: y(p.y_low), y2: y(p.y_high), stroke: m.colour, "class": "snakesim-error" }, g);
        [p.y_low, p.y_high].forEach(function (e) { el("line", { x1: cx - cap, x2: cx + cap, y1: y(e), y2: y(e), stroke: m.colour, "class": "snakesim-error" }, g); });
      }
      shape(g, kind, cx, cy, m.size, "snakesim-mark-" + m.shape);
      if (p.number && p.number <= 9) {
        var n = el("text", { x: cx + m.size + 2, y: cy - m.size + 1, "class": "snakesim-number" }, g);
        n.textContent = String(p.number);
      }
      where[d.i] = [cx, cy];
    });
    var ring = el("circle", { r: 12, "class": "snakesim-ring" }, svg);
    ring.style.display = "none";
    var tip = html("div", "snakesim-tip", null, plot);
    tip.setAttribute("aria-live", "polite");
    tip.hidden = true;
    var order = [];  // (the points the keys step through, in the data's order: the answers first)
    points.forEach(function (p, i) { if (where[i]) order.push(i); });
    var current = -1;
    function pick(k) {
      current = k;
      var i = order[k], p = points[i], kind = MARKS[p["class"]] ? p["class"] : "other";
      tip.innerHTML = "";
      html("strong", null, (p.number ? p.number + ". " : "") + p.label, tip);
      var said = html("div", "snakesim-tip-row", null, tip);
      var key = el("svg", { viewBox: "0 0 16 16", width: 13, height: 13, "class": "snakesim-key", "aria-hidden": "true" }, said);
      shape(key, kind, 8, 8, kind === "other" ? 4 : 5.5, "snakesim-keymark");
      html("span", null, MARKS[kind].words, said);
      html("div", "snakesim-tip-row", chart.x_name + ": " + figure(p.x, p.x_low, p.x_high, chart.x_unit || ""), tip);
      html("div", "snakesim-tip-row", chart.y_name + ": " + figure(p.y, p.y_low, p.y_high, chart.y_unit || ""), tip);
      tip.hidden = false;
      ring.setAttribute("cx", where[i][0]);
      ring.setAttribute("cy", where[i][1]);
      ring.style.display = "";
      if (plot.clientWidth < 480) {  // (a phone: under the plot, not over the points it tells about)
        tip.style.top = plot.clientHeight + "px";
        tip.style.left = "0px";
        return;
      }
      var k2 = plot.clientWidth / W, px = where[i][0] * k2, py = where[i][1] * k2;
      var left = px + 16 + tip.offsetWidth <= plot.clientWidth ? px + 16 : px - 16 - tip.offsetWidth;
      tip.style.left = Math.max(0, left) + "px";
      tip.style.top = Math.max(0, Math.min(py - tip.offsetHeight / 2, plot.clientHeight - tip.offsetHeight)) + "px";
    }
    function drop() { tip.hidden = true; ring.style.display = "none"; current = -1; }
    // A pointer or a tap picks the point nearest it (within a fingertip), whatever lies on top.
    function near(e) {
      var b = svg.getBoundingClientRect(), k = W / (b.width || W);
      var px = (e.clientX - b.left) * k, py = (e.clientY - b.top) * k, best = -1, most = 24 * Math.max(1, k);
      order.forEach(function (i, j) {
        var d = Math.sqrt(Math.pow(where[i][0] - px, 2) + Math.pow(where[i][1] - py, 2));
        if (d < most) { most = d; best = j; }
      });
      return best;
    }
    svg.addEventListener("mousemove", function (e) { var j = near(e); if (j >= 0 && j !== current) pick(j); });
    svg.addEventListener("click", function (e) { var j = near(e); if (j >= 0) pick(j); else drop(); });
    svg.addEventListener("mouseleave", drop);
    plot.addEventListener("keydown", function (e) {
      var keys = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };
      if (!order.length) return;
      if (e.key in keys) {
        pick(current < 0 ? 0 : Math.min(order.length - 1, Math.max(0, current + keys[e.key])));
        e.preventDefault();
      } else if (e.key === "Home" || e.key === "End") {
        pick(e.key === "Home" ? 0 : order.length - 1);
        e.preventDefault();
      } else if (e.key === "Escape") { drop(); }
    });
    plot.addEventListener("blur", drop);
    box.redraw = function () { draw(box, chart, {}, heading); };
    // The legend: each kind of mark shown, and the shaded region (not buttons: nothing to hide).
    var legend = html("div", "snakesim-legend", null, box);
    CLASSES.forEach(function (kind) {
      var count = points.filter(function (p) { return p["class"] === kind; }).length;
      if (!count) return;
      var item = html("span", "snakesim-legend-key", null, legend);
      var key = el("svg", { viewBox: "0 0 16 16", width: 14, height: 14, "class": "snakesim-key", "aria-hidden": "true" }, item);
      shape(key, kind, 8, 8, kind === "other" ? 4 : 6, "snakesim-keymark");
      html("span", null, MARKS[kind].words + (kind === "answer" || kind === "nearest" ? " (numbered as listed)" : "") + ": " + count, item);
    });
    var shaded = html("span", "snakesim-legend-key", null, legend);
    el("rect", { x: 1, y: 3, width: 14, height: 10, "class": "snakesim-region" },
      el("svg", { viewBox: "0 0 16 16", width: 14, height: 14, "class": "snakesim-key", "aria-hidden": "true" }, shaded));
    html("span", null, "shaded: meets both targets", shaded);
    var summary = html("p", "snakesim-chart-summary", chart.summary || "", box);
    summary.id = box.id + "-summary";
    var how = html("p", "snakesim-chart-note", "Point at or tap a rule set, or Tab to the chart and use the arrow keys " +
      "(the answers first), for its two values and their intervals.", box);
    how.id = box.id + "-how";
  }

  var made = 0;

  /* Draw the charts (a list of chart objects) into container; titles are headings of the
     given level (3: under the page's h2 sections). */
  function render(container, charts, heading) {
    container.innerHTML = "";
    charts.forEach(function (chart) {
      var box = html("figure", "snakesim-chart", null, container);
      box.id = "snakesim-chart-" + (++made);
      box.setAttribute("data-chart", chart.id);
      draw(box, chart, {}, heading || 3);
    });
  }

  // A turned phone or a resized window: charts whose box changed width are drawn again.
  var resizing = null;
  window.addEventListener("resize", function () {
    clearTimeout(resizing);
    resizing = setTimeout(function () {
      var boxes = document.querySelectorAll(".snakesim-chart");
      for (var i = 0; i < boxes.length; i++) {
        if (boxes[i].redraw && String(chartWidth(boxes[i])) !== boxes[i].dataset.width) boxes[i].redraw();
      }
    }, 200);
  });

  window.SnakesimCharts = { render: render, show: show };
  function start() {
    var boxes = document.querySelectorAll(".snakesim-charts");
    for (var i = 0; i < boxes.length; i++) {
      var data = boxes[i].querySelector("script[type='application/json']");
      if (data) render(boxes[i].appendChild(document.createElement("div")), JSON.parse(data.textContent), 3);
    }
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
