// SPDX-License-Identifier: GPL-2.0-or-later
// Interaction for ftlens's flame graphs, icicles and flame charts (inlined
// in each SVG): hover details, click to zoom (ancestors kept), Reset Zoom,
// Ctrl-F or / to search a regex (Matched: share computed from the integer
// weights in the file), zoom and search kept in the URL. No network.
"use strict";
var ftl = {
	frames: [],
	zoomed: -1,
	term: null,
	ignorecase: false,
	width: 0,
	xpad: 10,
	total: 0,
	unit: "ns",
	fontsize: 11,
	fontwidth: 0.59
};

function ftlInit(evt) {
	var svg = document.documentElement;
	var g = document.getElementById("frames");
	ftl.width = parseFloat(svg.getAttribute("width"));
	ftl.xpad = parseFloat(g.getAttribute("xpad"));
	ftl.total = parseInt(g.getAttribute("total"), 10);
	ftl.span = parseInt(g.getAttribute("span"), 10);
	ftl.unit = g.getAttribute("unit");
	ftl.mode = g.getAttribute("mode");
	ftl.details = document.getElementById("details").firstChild;
	ftl.matched = document.getElementById("matched");
	ftl.unzoombtn = document.getElementById("unzoom");
	ftl.searchbtn = document.getElementById("search");
	ftl.icbtn = document.getElementById("ignorecase");
	var stack = [];
	var kids = g.children;
	for (var i = 0; i < kids.length; i++) {
		var e = kids[i];
		var title = e.getElementsByTagName("title")[0].textContent;
		var nl = title.indexOf("\n");
		var n = parseInt(e.getAttribute("n"), 10);
		var f = {
			g: e,
			rect: e.getElementsByTagName("rect")[0],
			text: e.getElementsByTagName("text")[0],
			name: nl >= 0 ? title.substring(0, nl) : title,
			info: nl >= 0 ? title.substring(nl + 1) : "",
			o: parseInt(e.getAttribute("o"), 10),
			n: n,
			w: e.hasAttribute("w") ? parseInt(e.getAttribute("w"), 10) : n,
			l: parseInt(e.getAttribute("l"), 10),
			parent: -1,
			end: i
		};
		f.x0 = f.rect.getAttribute("x");
		f.w0 = f.rect.getAttribute("width");
		f.fill = f.rect.getAttribute("fill");
		while (stack.length && ftl.frames[stack[stack.length - 1]].l >= f.l)
			ftl.frames[stack.pop()].end = i - 1;
		if (stack.length)
			f.parent = stack[stack.length - 1];
		stack.push(i);
		ftl.frames.push(f);
		ftlBind(e, i);
	}
	while (stack.length)
		ftl.frames[stack.pop()].end = ftl.frames.length - 1;
	ftl.unzoombtn.addEventListener("click", function () { ftlUnzoom(true); });
	ftl.searchbtn.addEventListener("click", function () { ftlSearchPrompt(); });
	ftl.icbtn.addEventListener("click", function () { ftlToggleCase(); });
	window.addEventListener("keydown", ftlKey);
	ftlFromUrl();
}

function ftlBind(e, i) {
	e.addEventListener("mouseover", function () {
		var f = ftl.frames[i];
		// cut to the picture's width (the matched share sits at its right)
		var s = f.name + ": " + f.info;
		var fit = Math.floor((ftl.width - 2 * ftl.xpad - 150) / (ftl.fontsize * ftl.fontwidth));
		ftl.details.nodeValue = s.length > fit ? s.substring(0, Math.max(fit - 2, 1)) + ".." : s;
	});
	e.addEventListener("mouseout", function () { ftl.details.nodeValue = " "; });
	e.addEventListener("click", function () { ftlZoom(i, true); });
}

function ftlKey(e) {
	if ((e.ctrlKey && (e.key === "f" || e.key === "F")) || e.key === "F3" ||
	    (e.key === "/" && !e.ctrlKey)) {
		e.preventDefault();
		ftlSearchPrompt();
	} else if (e.ctrlKey && (e.key === "i" || e.key === "I")) {
		e.preventDefault();
		ftlToggleCase();
	} else if (e.key === "Escape") {
		ftlSearch(null, true);
		ftlUnzoom(true);
	}
}

// ---- layout ------------------------------------------------------------------

function ftlLabel(f, width) {
	var chars = Math.floor(width / (ftl.fontsize * ftl.fontwidth));
	if (chars < 3)
		return "";
	var name = f.g.classList.contains("f") && f.n === 0 && f.name.charAt(0) === "[" ? f.name : f.name;
	return name.length > chars ? name.substring(0, chars - 2) + ".." : name;
}

function ftlPlace(f, x, w) {
	f.rect.setAttribute("x", x.toFixed(1));
	f.rect.setAttribute("width", w.toFixed(1));
	f.text.setAttribute("x", (x + 3).toFixed(1));
	f.text.textContent = ftlLabel(f, w);
}

function ftlIsAncestor(a, i) {
	for (var p = ftl.frames[i].parent; p >= 0; p = ftl.frames[p].parent)
		if (p === a)
			return true;
	return false;
}

// A flame chart zooms to the clicked frame's time range across all lanes:
// every frame that overlaps it, cut to it.
function ftlZoomChart(i) {
	var z = ftl.frames[i];
	var avail = ftl.width - 2 * ftl.xpad;
	var scale = avail / Math.max(z.w, 1);
	for (var j = 0; j < ftl.frames.length; j++) {
		var f = ftl.frames[j];
		f.g.classList.remove("parent");
		var a = Math.max(f.o, z.o), b = Math.min(f.o + f.w, z.o + z.w);
		if (b <= a && !(f.w === 0 && f.o >= z.o && f.o <= z.o + z.w)) {
			f.g.classList.add("hide");
			continue;
		}
		f.g.classList.remove("hide");
		ftlPlace(f, ftl.xpad + (a - z.o) * scale, Math.max(b - a, 0) * scale);
	}
}

function ftlZoom(i, save) {
	var z = ftl.frames[i];
	if (!z)
		return;
	ftl.zoomed = i;
	if (ftl.mode === "chart") {
		ftlZoomChart(i);
		ftlMarks(z.o, z.w);
		ftl.unzoombtn.classList.remove("hide");
		ftlUpdateMatched();
		if (save)
			ftlToUrl();
		return;
	}
	var avail = ftl.width - 2 * ftl.xpad;
	var scale = avail / Math.max(z.w, 1);
	for (var j = 0; j < ftl.frames.length; j++) {
		var f = ftl.frames[j];
		f.g.classList.remove("parent");
		if (j >= i && j <= z.end) {
			f.g.classList.remove("hide");
			ftlPlace(f, ftl.xpad + (f.o - z.o) * scale, f.w * scale);
		} else if (ftlIsAncestor(j, i)) {
			f.g.classList.remove("hide");
			f.g.classList.add("parent");
			ftlPlace(f, ftl.xpad, avail);
		} else {
			f.g.classList.add("hide");
		}
	}
	ftlMarks(z.o, z.w);
	ftl.unzoombtn.classList.remove("hide");
	ftlUpdateMatched();
	if (save)
		ftlToUrl();
}

function ftlUnzoom(save) {
	ftl.zoomed = -1;
	for (var j = 0; j < ftl.frames.length; j++) {
		var f = ftl.frames[j];
		f.g.classList.remove("hide");
		f.g.classList.remove("parent");
		f.rect.setAttribute("x", f.x0);
		f.rect.setAttribute("width", f.w0);
		f.text.setAttribute("x", (parseFloat(f.x0) + 3).toFixed(1));
		f.text.textContent = ftlLabel(f, parseFloat(f.w0));
	}
	ftlMarks(0, ftl.span);
	ftl.unzoombtn.classList.add("hide");
	ftlUpdateMatched();
	if (save)
		ftlToUrl();
}

// Chart markers and the time axis follow the zoom.
function ftlDur(ns) {
	var a = Math.abs(ns);
	if (a >= 1e9)
		return (a / 1e9).toFixed(3) + " s";
	if (a >= 1e6)
		return (a / 1e6).toFixed(3) + " ms";
	if (a >= 1e3)
		return (a / 1e3).toFixed(3) + " us";
	return a.toFixed(0) + " ns";
}

// The time axis for [o, o + w] (ns from the chart's start): ticks at round
// steps (1, 2, 5 x 10^k ns) of the axis's clock, as svg_axis() draws them.
function ftlAxis(axis, o, w) {
	var t0 = parseInt(axis.getAttribute("t0"), 10);
	var y = parseFloat(axis.getAttribute("y")), y2 = parseFloat(axis.getAttribute("y2"));
	var step = 1;
	while (w / step > 10) {
		if (w / (step * 2) <= 10) { step *= 2; break; }
		if (w / (step * 5) <= 10) { step *= 5; break; }
		step *= 10;
	}
	var scale = (ftl.width - 2 * ftl.xpad) / Math.max(w, 1);
	while (axis.firstChild)
		axis.removeChild(axis.firstChild);
	var ns = "http://www.w3.org/2000/svg";
	for (var t = Math.ceil((t0 + o) / step) * step; t - t0 <= o + w; t += step) {
		var x = ftl.xpad + (t - t0 - o) * scale;
		var l = document.createElementNS(ns, "line");
		l.setAttribute("x1", x.toFixed(1));
		l.setAttribute("x2", x.toFixed(1));
		l.setAttribute("y1", (y - 4).toFixed(1));
		l.setAttribute("y2", y2.toFixed(1));
		axis.appendChild(l);
		var tx = document.createElementNS(ns, "text");
		tx.setAttribute("x", (x + 2).toFixed(1));
		tx.setAttribute("y", (y - 6).toFixed(1));
		tx.setAttribute("t", t);
		tx.textContent = (t < 0 ? "-" : t > 0 ? "+" : "") + ftlDur(t);
		axis.appendChild(tx);
	}
}

function ftlMarks(o, w) {
	var axis = document.getElementById("axis");
	if (axis) {
		axis.classList.remove("hide");
		ftlAxis(axis, o, w);
	}
	var marks = document.getElementById("marks");
	if (!marks)
		return;
	var scale = (ftl.width - 2 * ftl.xpad) / Math.max(w, 1);
	for (var i = 0; i < marks.children.length; i++) {
		var m = marks.children[i];
		var mo = parseInt(m.getAttribute("o"), 10);
		var line = m.getElementsByTagName("line")[0];
		if (mo < o || mo > o + w) {
			m.classList.add("hide");
			continue;
		}
		m.classList.remove("hide");
		var x = (ftl.xpad + (mo - o) * scale).toFixed(1);
		line.setAttribute("x1", x);
		line.setAttribute("x2", x);
		var label = m.getElementsByTagName("text")[0];
		if (label)
			label.setAttribute("x", (parseFloat(x) + 2).toFixed(1));
	}
}

// ---- search --------------------------------------------------------------------

function ftlSearchPrompt() {
	if (ftl.term !== null) {
		ftlSearch(null, true);
		return;
	}
	var term = prompt("Enter a search term (regexp allowed, eg: ^ext4_)" +
			  (ftl.ignorecase ? ", ignoring case" : "") +
			  "\nPress Ctrl-i to toggle case sensitivity", "");
	if (term !== null && term !== "")
		ftlSearch(term, true);
}

function ftlToggleCase() {
	ftl.ignorecase = !ftl.ignorecase;
	if (ftl.ignorecase)
		ftl.icbtn.classList.add("show");
	else
		ftl.icbtn.classList.remove("show");
	if (ftl.term !== null)
		ftlSearch(ftl.term, true);
	else
		ftlToUrl();
}

function ftlSearch(term, save) {
	var re = null;
	if (term !== null) {
		try {
			re = new RegExp(term, ftl.ignorecase ? "i" : "");
		} catch (err) {
			ftl.details.nodeValue = "bad regex: " + err.message;
			return;
		}
	}
	ftl.term = term;
	for (var i = 0; i < ftl.frames.length; i++) {
		var f = ftl.frames[i];
		f.hit = re !== null && re.test(f.name);
		f.rect.setAttribute("fill", f.hit ? "rgb(230,0,230)" : f.fill);
	}
	if (term !== null) {
		ftl.searchbtn.classList.add("show");
		ftl.searchbtn.firstChild.nodeValue = "Reset Search";
	} else {
		ftl.searchbtn.classList.remove("show");
		ftl.searchbtn.firstChild.nodeValue = "Search";
	}
	ftlUpdateMatched();
	if (save)
		ftlToUrl();
}

// The matched share of the view: integer weights of the outermost matches
// inside it (a match nested in a match is already counted), over the
// view's weight. Exact: weights are integers well below 2^53.
function ftlMatchedWeight() {
	var first = 0, last = ftl.frames.length - 1, whole = ftl.total;
	if (ftl.zoomed >= 0) {
		var z = ftl.frames[ftl.zoomed];
		first = ftl.zoomed;
		last = z.end;
		whole = z.n;
		for (var p = z.parent; p >= 0; p = ftl.frames[p].parent)
			if (ftl.frames[p].hit)
				return [whole, whole];
	}
	var sum = 0, skipUntil = -1;
	for (var i = first; i <= last; i++) {
		if (i <= skipUntil)
			continue;
		var f = ftl.frames[i];
		if (f.hit) {
			sum += f.n;
			skipUntil = f.end;
		}
	}
	return [sum, whole];
}

function ftlUpdateMatched() {
	if (ftl.term === null) {
		ftl.matched.textContent = " ";
		return;
	}
	var m = ftlMatchedWeight();
	var pct = m[1] > 0 ? (100 * m[0] / m[1]) : 0;
	ftl.matched.textContent = "Matched: " + pct.toFixed(2) + "%";
	ftl.matched.setAttribute("weight", String(m[0]));
	ftl.matched.setAttribute("of", String(m[1]));
}

// ---- URL state -------------------------------------------------------------------

function ftlToUrl() {
	var parts = [];
	if (ftl.zoomed >= 0)
		parts.push("z=" + ftl.zoomed);
	if (ftl.term !== null)
		parts.push("s=" + encodeURIComponent(ftl.term));
	if (ftl.ignorecase)
		parts.push("i=1");
	var hash = parts.length ? "#" + parts.join("&") : "";
	try {
		history.replaceState(null, "", location.pathname + location.search + hash);
	} catch (err) {
		// a document without history (an embedded image) keeps no state
	}
}

function ftlFromUrl() {
	var hash = location.hash ? location.hash.substring(1) : "";
	if (!hash)
		return;
	var parts = hash.split("&");
	var z = -1, term = null;
	for (var i = 0; i < parts.length; i++) {
		var kv = parts[i].split("=");
		if (kv[0] === "z")
			z = parseInt(kv[1], 10);
		else if (kv[0] === "s")
			term = decodeURIComponent(kv[1] || "");
		else if (kv[0] === "i" && kv[1] === "1") {
			ftl.ignorecase = true;
			ftl.icbtn.classList.add("show");
		}
	}
	if (z >= 0 && z < ftl.frames.length)
		ftlZoom(z, false);
	if (term !== null && term !== "")
		ftlSearch(term, false);
}
