// SPDX-License-Identifier: GPL-2.0-or-later
// ftlens timeline: hover details, wheel zoom and drag pan along the time
// axis; Esc or a double click resets. Zoom and pan redraw the time axis
// (round ticks for the range in view), lay the marker labels out again
// and show, per part of the range in view, the finest tile ftlens wrote
// for the zoom (a tile of level L has bins of one px at a zoom of 4^L).
// Inlined into every timeline SVG by views/svg-timeline.c. Trace text is
// only ever read with textContent and written with textContent: it never
// becomes markup.
"use strict";
(function () {
	var NS = "http://www.w3.org/2000/svg";
	var svg = document.documentElement;
	var plot = document.getElementById("plot");
	var details = document.getElementById("details");
	var cursor = document.getElementById("cursor");
	var axis = document.getElementById("axis");
	var mlabels = document.getElementById("mlabels");
	var x0 = +plot.getAttribute("x0"), w = +plot.getAttribute("pw");
	var nspp = +plot.getAttribute("nspp"), split = +plot.getAttribute("split") || 1;
	var plotH = axis ? +axis.getAttribute("h") : 0;
	var k = 1, tx = 0, drag = null;
	var names = {};
	var tasks = document.querySelectorAll("#tasks > text");
	for (var i = 0; i < tasks.length; i++)
		names[tasks[i].getAttribute("k")] = tasks[i].textContent;
	var tiles = {}, shown = [];
	var all = plot.querySelectorAll("g.tile");
	for (i = 0; i < all.length; i++)
		tiles[all[i].getAttribute("l") + ":" + all[i].getAttribute("i")] = all[i];
	var base = tiles["0:0"];
	if (base)
		shown.push(base);

	function dur(ns) {
		if (Math.abs(ns) >= 1e9)
			return (ns / 1e9).toFixed(6) + " s";
		if (Math.abs(ns) >= 1e6)
			return (ns / 1e6).toFixed(3) + " ms";
		return (ns / 1e3).toFixed(3) + " us";
	}
	// A round step for a span (1, 2 or 5 times a power of ten ns, about
	// ten ticks) and a tick's label in the step's unit with the step's
	// decimals in the largest unit not above the range's end: the same as
	// tl_tick_step() and tl_tick_label().
	function tickStep(span) {
		var raw = Math.max(span / 10, 1), p = Math.pow(10, Math.floor(Math.log10(raw)));
		var m = raw / p;
		return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
	}
	function tickLabel(v, step, top) {
		var units = [[1e9, "s"], [1e6, "ms"], [1e3, "us"], [1, "ns"]], u = 0;
		while (u < 3 && top < units[u][0])
			u++;
		var dec = Math.max(0, Math.ceil(-Math.log10(step / units[u][0]) - 1e-9));
		return (v / units[u][0]).toFixed(dec) + " " + units[u][1];
	}
	// The range in view, in ns from the window's start.
	function range() {
		return { a: -tx / k * nspp, b: (w - tx) / k * nspp };
	}
	function xOf(t) {
		return x0 + tx + t / nspp * k;
	}
	function el(name, attrs, text) {
		var e = document.createElementNS(NS, name);
		for (var a in attrs)
			e.setAttribute(a, attrs[a]);
		if (text !== undefined)
			e.textContent = text;
		return e;
	}
	function topY() {
		return +cursor.getAttribute("y1");
	}
	function drawAxis() {
		if (!axis)
			return;
		var r = range(), step = tickStep(r.b - r.a);
		while (axis.firstChild)
			axis.removeChild(axis.firstChild);
		for (var v = Math.ceil(r.a / step - 1e-9) * step; v <= r.b + step * 1e-9; v += step) {
			var x = xOf(v);
			axis.appendChild(el("line", { "class": "tick", x1: x, x2: x, y1: topY() - 4,
				y2: topY() + plotH }));
			axis.appendChild(el("text", { "class": "small", x: x + 2, y: topY() - 6, t: v },
				tickLabel(v, step, r.b)));
		}
	}
	// Marker labels at their place in view, on three rows, one left out
	// where it would cover the one before it on its row.
	function drawLabels() {
		if (!mlabels)
			return;
		var y = +mlabels.getAttribute("y"), end = [-1e9, -1e9, -1e9];
		var ts = mlabels.querySelectorAll("text");
		for (var i = 0; i < ts.length; i++) {
			var t = ts[i], x = xOf(+t.getAttribute("t")) + 2, row = 0;
			while (row < 3 && end[row] > x)
				row++;
			if (x < x0 || x > x0 + w || row === 3) {
				t.setAttribute("display", "none");
				continue;
			}
			t.removeAttribute("display");
			t.setAttribute("y", y + row * 11);
			// a label that would run off the picture ends at its line
			var len = t.getComputedTextLength();
			t.setAttribute("x", x + len > x0 + w + 50 ? x - 4 - len : x);
			end[row] = x + len + 6;
		}
	}
	// Per part of the view, the tiles written up to the level the zoom
	// needs: a finer tile paints over its parent where it was written.
	// Level 1 has 4 * split tiles across the window, each finer level
	// four for each tile of the level above.
	function showTiles() {
		// level L's bins are 1/2 to 2 px wide on the screen
		var want = Math.floor(Math.log(2 * k) / Math.log(4) + 1e-9);
		var va = -tx / k, vb = (w - tx) / k, next = [];
		function walk(l, i) {
			var n = l ? split * Math.pow(4, l) : 1, lo = i * w / n, hi = (i + 1) * w / n;
			var t = tiles[l + ":" + i], per = l ? 4 : 4 * split;
			if (!t || hi < va || lo > vb)
				return;
			next.push(t);
			if (l < want)
				for (var q = 0; q < per; q++)
					walk(l + 1, per * i + q);
		}
		walk(0, 0);
		for (var j = 0; j < shown.length; j++)
			if (next.indexOf(shown[j]) < 0)
				shown[j].setAttribute("display", "none");
		for (j = 0; j < next.length; j++)
			next[j].removeAttribute("display");
		shown = next;
	}
	function apply() {
		// the view stays inside the window
		tx = Math.min(0, Math.max(tx, w - w * k));
		plot.setAttribute("transform", "translate(" + (x0 + tx) + ",0) scale(" + k + ",1)");
		drawAxis();
		drawLabels();
		showTiles();
	}
	function reset() {
		k = 1;
		tx = 0;
		apply();
	}
	function timeAt(evt) {
		var p = svg.createSVGPoint();
		p.x = evt.clientX;
		p.y = evt.clientY;
		var q = p.matrixTransform(svg.getScreenCTM().inverse());
		return { x: q.x, t: (q.x - x0 - tx) / k * nspp };
	}
	function describe(r) {
		var s = +r.getAttribute("s"), d = +r.getAttribute("d");
		var c = r.getAttribute("class") || "";
		var who = names[r.getAttribute("k")] || "";
		if (c.indexOf("bin") >= 0)
			return +r.getAttribute("n") + " intervals merged at " + dur(s) + ": " + dur(d) +
				" busy, mostly " + who + " (zoom in for each)";
		if (c.indexOf("ctr") >= 0)
			return (r.hasAttribute("n") ? "highest of " + r.getAttribute("n") + " values: " : "value ") +
				r.getAttribute("v") + " from " + dur(s) + " for " + dur(d);
		if (c.indexOf("irq") >= 0)
			return "interrupts at " + dur(s) + ": " + dur(d);
		if (c.indexOf("lost") >= 0)
			return "lost events or no data: " + dur(s) + " for " + dur(d);
		return who + (c.indexOf("wait") >= 0 ? " runnable" : " running") + ": start " + dur(s) +
			", duration " + dur(d);
	}
	svg.addEventListener("mousemove", function (evt) {
		var at = timeAt(evt);
		if (drag) {
			tx = drag.tx + (at.x - drag.x);
			apply();
			return;
		}
		var r = evt.target;
		var text = r.hasAttribute && r.hasAttribute("d") ? describe(r) : "";
		details.textContent = "t = " + dur(at.t) + (text ? "  |  " + text : "");
		if (cursor && at.x >= x0 && at.x <= x0 + w) {
			cursor.setAttribute("x1", at.x);
			cursor.setAttribute("x2", at.x);
		}
	});
	svg.addEventListener("wheel", function (evt) {
		evt.preventDefault();
		var at = timeAt(evt);
		// 1.25 a notch of 100 px, in proportion for other deltas (lines: 33 px)
		var f = Math.exp(-evt.deltaY * (evt.deltaMode === 1 ? 33 : 1) * Math.log(1.25) / 100);
		var nk = Math.min(Math.max(k * f, 1), 1e6);
		// keep the time under the pointer where it is
		tx = at.x - x0 - (at.x - x0 - tx) * nk / k;
		k = nk;
		apply();
	}, { passive: false });
	svg.addEventListener("mousedown", function (evt) {
		drag = { x: timeAt(evt).x, tx: tx };
	});
	svg.addEventListener("mouseup", function () {
		drag = null;
	});
	// a click on a running interval shows the wakeup that led to it: an
	// arrow from the waking event (the waker's CPU) to this switch-in
	var arrows = [];
	svg.addEventListener("click", function (evt) {
		var r = evt.target;
		for (var i = 0; i < arrows.length; i++)
			arrows[i].setAttribute("display", "none");
		arrows = [];
		if (!r.classList || !r.classList.contains("run") || !r.hasAttribute("s"))
			return;
		var s = r.getAttribute("s");
		var ws = document.querySelectorAll("#wakeups > line.wake");
		for (var j = 0; j < ws.length; j++)
			if (ws[j].getAttribute("s") === s) {
				ws[j].setAttribute("display", "inline");
				arrows.push(ws[j]);
			}
		if (arrows.length) {
			var w = arrows[0], s0 = +w.getAttribute("ws"), s1 = +w.getAttribute("s");
			details.textContent = "pid " + w.getAttribute("p") + " woken by pid " +
				w.getAttribute("wp") + " at " + dur(s0) + ", ran " + dur(s1 - s0) + " later";
		}
	});
	svg.addEventListener("dblclick", reset);
	document.addEventListener("keydown", function (evt) {
		if (evt.key === "Escape")
			reset();
	});
	apply();
	svg.setAttribute("data-ready", "1");
})();
