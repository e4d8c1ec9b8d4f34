/* snakesim's charts: bars or lines with their 95% intervals, drawn as SVG from the data
   that snakesim.report.charts computes. Each chart is one Tab stop: the arrow keys (or a
   pointer, or a tap) pick a column and show every shown rule set's value with its interval;
   a legend button shows or hides a rule set; a sentence under the chart says what it shows.
   No library, nothing fetched: the workbench serves this file and a report inlines it. */
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
    var W = chartWidth(box);
    box.dataset.width = W;
    box.innerHTML = "";
    var title = html("h" + heading, "snakesim-chart-title", chart.title, box);
    title.id = box.id + "-title";
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
