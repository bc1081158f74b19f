// SPDX-License-Identifier: GPL-2.0-or-later
// ftlens timeline: hover details, wheel zoom and drag pan along the time
// axis. Inlined into every timeline SVG by views/svg-timeline.c. Trace text
// is only ever read with textContent and written with textContent: it
// never becomes markup.
"use strict";
(function () {
	var svg = document.documentElement;
	var plot = document.getElementById("plot");
	var details = document.getElementById("details");
	var cursor = document.getElementById("cursor");
	var x0 = +plot.getAttribute("x0"), w = +plot.getAttribute("pw");
	var t0 = +plot.getAttribute("t0"), nspp = +plot.getAttribute("nspp");
	var k = 1, tx = 0, drag = null;
	var names = {};
	var tasks = document.querySelectorAll("#tasks > text");
	for (var i = 0; i < tasks.length; i++)
		names[tasks[i].getAttribute("k")] = tasks[i].textContent;

	function dur(ns) {
		if (Math.abs(ns) >= 1e9)
			return (ns / 1e9).toFixed(6) + " s";
		if (Math.abs(ns) >= 1e6)
			return (ns / 1e6).toFixed(3) + " ms";
		return (ns / 1e3).toFixed(3) + " us";
	}
	function apply() {
		plot.setAttribute("transform", "translate(" + (x0 + tx) + ",0) scale(" + k + ",1)");
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
				" busy, mostly " + who;
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
		var f = evt.deltaY < 0 ? 1.25 : 0.8;
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
	svg.addEventListener("dblclick", function () {
		k = 1;
		tx = 0;
		apply();
	});
	svg.setAttribute("data-ready", "1");
	void t0;
})();
