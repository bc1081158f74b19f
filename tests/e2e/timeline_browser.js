// SPDX-License-Identifier: GPL-2.0-or-later
// Drives Debian's chromium headless (playwright-core, no downloaded browser)
// over `ftlens timeline` SVGs for tests/e2e/t2111-timeline.sh: no JS error,
// no network, each CPU lane's rectangles sum to the analysis' busy time,
// hover names an interval, the wheel zooms, a hostile comm stays text;
// zoom redraws the axis in round ticks inside the range in view, lays the
// marker labels out again, shows more rectangles (finer tiles) down to
// single switches; a drag pans, Esc resets.
//
//   node timeline_browser.js MODULES lanes FILE.svg SHOT.png SCHED.json
//   node timeline_browser.js MODULES inert FILE.svg SHOT.png TEXT
//   node timeline_browser.js MODULES zoom FILE.svg SHOT.png
//   node timeline_browser.js MODULES counters FILE.svg SHOT.png SCHED.json
//   node timeline_browser.js MODULES wakeup FILE.svg SHOT.png WAKEUPS.csv
// Prints "# ..." notes; exits 0 when every check holds, 1 naming the first
// one that failed.
"use strict";
const path = require("path");
const fs = require("fs");
const url = require("url");

const [modules, cmd, ...args] = process.argv.slice(2);
const need = (m) => require(path.join(modules, "node_modules", m));

function fail(msg) {
	throw new Error(msg);
}
function note(msg) {
	console.log("# " + msg);
}

// A page that records JS errors, console errors and any request that is
// not a local file (the timeline is offline).
async function open(browser, file) {
	const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
	const trouble = [];
	page.on("pageerror", (e) => trouble.push("page error: " + e.message));
	page.on("console", (m) => {
		if (m.type() === "error")
			trouble.push("console error: " + m.text());
	});
	await page.route("**/*", (r) => {
		const u = r.request().url();
		if (u.startsWith("file:") || u.startsWith("data:"))
			return r.continue();
		trouble.push("network request: " + u);
		return r.abort();
	});
	page.trouble = trouble;
	await page.goto(url.pathToFileURL(file).href);
	await page.waitForSelector("svg[data-ready='1']", { timeout: 10000 });
	return page;
}

function clean(page, what) {
	if (page.trouble.length)
		fail(what + ": " + page.trouble.join("; "));
}

// Per CPU lane: the busy ns the rectangles carry and the px they cover
// as the browser lays them out (bins count their busy share of a px).
async function lanes(page) {
	return page.evaluate(() => {
		const plot = document.getElementById("plot");
		const nspp = +plot.getAttribute("nspp");
		const out = {};
		for (const g of document.querySelectorAll("#base > g.cpu")) {
			let ns = 0, px = 0, n = 0;
			for (const r of g.querySelectorAll("rect")) {
				const d = +r.getAttribute("d");
				ns += d;
				n++;
				px += r.classList.contains("bin") ? d / nspp : r.getBBox().width;
			}
			out[g.getAttribute("lane")] = { ns, px, n };
		}
		return { nspp, lanes: out };
	});
}

// A point on the widest element matching selector that the pointer
// reaches (nothing drawn over it there): {x, y, k, s, w}, or null.
async function pointOn(page, selector) {
	return page.evaluate((sel) => {
		const rs = [...document.querySelectorAll(sel)]
			.map((r) => ({ r, b: r.getBoundingClientRect() }))
			.sort((a, b) => b.b.width - a.b.width);
		for (const { r, b } of rs)
			for (let f = 0.5; f > 0.05; f -= 0.1) {
				const x = b.x + b.width * f, y = b.y + b.height / 2;
				if (document.elementFromPoint(x, y) === r)
					return { x, y, k: r.getAttribute("k"), s: r.getAttribute("s"), w: b.width };
			}
		return null;
	}, selector);
}

async function checkLanes(browser, file, shot, schedJson) {
	const sched = JSON.parse(fs.readFileSync(schedJson, "utf8"));
	const page = await open(browser, file);
	const got = await lanes(page);
	for (const c of sched.cpus) {
		const l = got.lanes["CPU " + c.cpu] || { ns: 0, px: 0, n: 0 };
		const want = c.busy_ns / got.nspp;
		if (Math.abs(l.px - want) > 1)
			fail(`CPU ${c.cpu}: lane covers ${l.px.toFixed(3)} px, busy ${c.busy_ns} ns is ${want.toFixed(3)} px`);
		if (l.ns !== c.busy_ns)
			fail(`CPU ${c.cpu}: rectangles carry ${l.ns} ns, the analysis says ${c.busy_ns}`);
		note(`CPU ${c.cpu}: ${l.n} rectangles, ${l.px.toFixed(3)} px = busy ${want.toFixed(3)} px`);
	}
	// hover the widest running interval (or, where every interval is
	// thinner than a bin, the widest bin): the details line names its task
	let at = await pointOn(page, "#plot rect.run"), want = "duration";
	if (!at) {
		at = await pointOn(page, "#plot rect.bin");
		want = "merged";
	}
	if (!at)
		fail("no running interval can be pointed at");
	const name = await page.textContent(`#tasks > text[k="${at.k}"]`);
	await page.mouse.move(at.x, at.y);
	const details = await page.textContent("#details");
	if (!details.includes(name) || !details.includes(want))
		fail(`hover: details say "${details}", expected ${name} and "${want}"`);
	note("hover: " + details);
	// the wheel zooms the time axis around the pointer: the interval stays
	// under it (drawn again by a finer tile, cut to the tile's range, when
	// the zoom asks for one), a double click resets
	for (let i = 0; i < 4; i++)
		await page.mouse.wheel(0, -100);
	const zoomed = await page.getAttribute("#plot", "transform");
	const scale = +/scale\(([0-9.e+]+)/.exec(zoomed)[1];
	const after = await page.evaluate((x) => {
		const r = document.elementFromPoint(x.x, x.y);
		return r && r.getAttribute("s") === x.s ? r.getBoundingClientRect().width : -1;
	}, at);
	if (!(scale > 2) || (want === "duration" && !(after > 0)))
		fail(`wheel: transform is "${zoomed}", the interval under the pointer ${at.w} -> ${after} px`);
	note(`wheel: scale ${scale.toFixed(3)}, interval under the pointer ${at.w.toFixed(1)} -> ${after.toFixed(1)} px`);
	await page.screenshot({ path: shot.replace(/\.png$/, "-zoomed.png") });
	await page.mouse.dblclick(at.x, at.y);
	if (!/scale\(1,1\)/.test(await page.getAttribute("#plot", "transform")))
		fail("double click did not reset the zoom");
	await page.screenshot({ path: shot });
	clean(page, file);
	await page.close();
}

// The hostile comm must stay text: nothing sets window.__pwned, one script.
async function checkInert(browser, file, shot, text) {
	const page = await open(browser, file);
	const at = await pointOn(page, "#plot rect.run");
	if (!at)
		fail("no running interval can be pointed at");
	await page.mouse.move(at.x, at.y);
	if (await page.evaluate(() => window.__pwned !== undefined))
		fail("window.__pwned is set");
	const scripts = await page.$$eval("script", (s) => s.length);
	if (scripts !== 1)
		fail(scripts + " script elements");
	const body = await page.evaluate(() => document.documentElement.textContent);
	if (!body.includes(text))
		fail(`the hostile comm is not shown as text "${text}"`);
	if (!(await page.textContent("#details")).includes(text))
		fail("hover does not show the hostile comm as text");
	await page.screenshot({ path: shot });
	clean(page, file);
	await page.close();
	note("hostile comm shown as text, window.__pwned undefined");
}

// Counter lanes: one per track of sched's counters table, each bar's
// value one the table has for that track, the time at each value equal to
// the table's; hover on a bar says its value.
async function checkCounters(browser, file, shot, schedJson) {
	const sched = JSON.parse(fs.readFileSync(schedJson, "utf8"));
	const want = {};
	for (const c of sched.counters) {
		const k = c.kind + " " + c.key;
		want[k] = want[k] || {};
		want[k][c.value] = c.time_ns;
	}
	const page = await open(browser, file);
	const got = await page.evaluate(() => {
		const names = [...document.querySelectorAll("text.lanename")].map((t) => t.querySelector("title").textContent);
		const out = {};
		const lanes = [...document.querySelectorAll("#base > g.counter")];
		const first = names.length - lanes.length;
		lanes.forEach((g, i) => {
			const per = {};
			for (const r of g.querySelectorAll("rect"))
				per[r.getAttribute("v")] = (per[r.getAttribute("v")] || 0) + +r.getAttribute("d");
			out[names[first + i]] = per;
		});
		return out;
	});
	if (Object.keys(got).length !== Object.keys(want).length)
		fail(`counter lanes ${Object.keys(got)}, sched has ${Object.keys(want)}`);
	for (const [lane, per] of Object.entries(got))
		for (const [v, ns] of Object.entries(per))
			if (!want[lane] || want[lane][v] !== ns)
				fail(`${lane}: value ${v} drawn for ${ns} ns, sched says ${want[lane] && want[lane][v]}`);
	note(`${Object.keys(got).length} counter lanes, each value's time as sched's`);
	const at = await pointOn(page, "#plot rect.ctr");
	if (!at)
		fail("no counter bar can be pointed at");
	await page.mouse.move(at.x, at.y);
	const details = await page.textContent("#details");
	if (!/value -?[0-9]+ from/.test(details))
		fail(`hover on a counter: details say "${details}"`);
	note("hover: " + details);
	await page.screenshot({ path: shot });
	clean(page, file);
	await page.close();
}

// Wakeup flows: a click on the running interval a wakeup led to shows one
// arrow, from the waking event on the waker's CPU to that switch-in, which
// is a wakeup `sched --wakeups` lists (its switch, wakeup time and waker).
async function checkWakeup(browser, file, shot, csv) {
	const rows = fs.readFileSync(csv, "utf8").trim().split("\n");
	const head = rows.shift().split(",");
	const col = (n) => head.indexOf(n);
	const listed = new Set(rows.map((r) => r.split(",")).map((f) =>
		[f[col("ts_ns")], f[col("wake_ts_ns")], f[col("waker_pid")]].join(" ")));
	const page = await open(browser, file);
	// the switch-in with the longest latency that has an arrow
	const target = await page.evaluate(() => {
		const ws = [...document.querySelectorAll("#wakeups > line.wake")];
		const t0 = +document.getElementById("plot").getAttribute("t0");
		for (const w of ws) {
			const r = [...document.querySelectorAll("#base rect.run")].find(
				(x) => x.getAttribute("s") === w.getAttribute("s"));
			if (!r) continue;
			const b = r.getBoundingClientRect();
			if (b.width < 2) continue;
			return { x: b.x + Math.min(b.width / 2, 3), y: b.y + b.height / 2, s: w.getAttribute("s"),
				 key: [t0 + +w.getAttribute("s"), t0 + +w.getAttribute("ws"), w.getAttribute("wp")].join(" ") };
		}
		return null;
	});
	if (!target)
		fail("no running interval with a wakeup arrow to click");
	if (!listed.has(target.key))
		fail(`the arrow's wakeup ${target.key} is not one sched --wakeups lists`);
	await page.mouse.click(target.x, target.y);
	const vis = await page.evaluate(() => [...document.querySelectorAll("#wakeups > line.wake")]
		.filter((w) => w.getAttribute("display") !== "none").map((w) => w.getAttribute("s")));
	if (vis.length !== 1 || vis[0] !== target.s)
		fail(`after the click ${vis.length} arrows show (${vis}), expected the one to ${target.s}`);
	const details = await page.textContent("#details");
	if (!/woken by pid [0-9]+ at/.test(details))
		fail(`click: details say "${details}"`);
	note("click: " + details);
	await page.screenshot({ path: shot });
	clean(page, file);
	await page.close();
}

// What the picture shows: the range in view (ns from the window's start),
// the tick labels with their values and x, the marker labels shown, and
// the rectangles drawn in the plot that lie in view (not hidden by a
// display="none" tile, not a tile's white background).
async function view(page) {
	return page.evaluate(() => {
		const plot = document.getElementById("plot");
		const x0 = +plot.getAttribute("x0"), w = +plot.getAttribute("pw");
		const nspp = +plot.getAttribute("nspp");
		const m = /translate\(([-0-9.e+]+),0\) scale\(([0-9.e+]+),1\)/.exec(plot.getAttribute("transform"));
		const tx = +m[1] - x0, k = +m[2];
		const a = (-tx / k) * nspp, b = ((w - tx) / k) * nspp;
		const units = { s: 1e9, ms: 1e6, us: 1e3, ns: 1 };
		const ticks = [...document.querySelectorAll("#axis > text")].map((t) => {
			const [num, unit] = t.textContent.split(" ");
			return { text: t.textContent, v: +num * units[unit], x: +t.getAttribute("x") };
		});
		const labels = [...document.querySelectorAll("#mlabels > text")]
			.filter((t) => t.getAttribute("display") !== "none")
			.map((t) => ({ t: +t.getAttribute("t"), x: +t.getAttribute("x") }));
		const svgLeft = document.documentElement.getBoundingClientRect().left;
		let rects = 0, exact = 0, bins = 0;
		// seen: in view and on top at its centre (not under a finer tile)
		for (const r of plot.querySelectorAll("g.tile rect")) {
			if (r.classList.contains("tilebg") || r.closest('[display="none"]'))
				continue;
			const bb = r.getBoundingClientRect();
			const cx = Math.min(Math.max(bb.left + bb.width / 2, svgLeft + x0 + 0.5), svgLeft + x0 + w - 0.5);
			if (bb.right - svgLeft < x0 || bb.left - svgLeft > x0 + w || bb.width <= 0 ||
			    document.elementFromPoint(cx, bb.top + bb.height / 2) !== r)
				continue;
			rects++;
			if (r.classList.contains("bin"))
				bins++;
			else if (r.classList.contains("run") && bb.width >= 1)
				exact++;
		}
		return { x0, w, nspp, tx, k, a, b, ticks, labels, rects, exact, bins };
	});
}

// The ticks lie in view at round values (a 1, 2 or 5 step), each label at
// its time's place.
function checkAxis(v, what) {
	const t = v.ticks;
	if (t.length < 4)
		fail(`${what}: ${t.length} tick labels`);
	const slack = (v.b - v.a) * 1e-6;
	if (t[0].v < v.a - slack || t[t.length - 1].v > v.b + slack)
		fail(`${what}: ticks ${t[0].text} .. ${t[t.length - 1].text} outside the view ${v.a.toFixed(0)} .. ${v.b.toFixed(0)} ns`);
	const step = t[1].v - t[0].v, p = Math.pow(10, Math.floor(Math.log10(step) + 1e-9));
	if (![1, 2, 5].some((m) => Math.abs(step - m * p) < p * 1e-6))
		fail(`${what}: tick step ${step} ns is not round`);
	for (const x of t) {
		if (Math.abs(x.v / step - Math.round(x.v / step)) > 1e-6)
			fail(`${what}: tick ${x.text} is not a multiple of the step ${step} ns`);
		const want = v.x0 + v.tx + (x.v / v.nspp) * v.k + 2;
		if (Math.abs(x.x - want) > 0.5)
			fail(`${what}: tick ${x.text} at x ${x.x}, its time is at ${want.toFixed(1)}`);
	}
	for (const l of v.labels)
		if (l.t < v.a || l.t > v.b)
			fail(`${what}: a marker label at ${l.t} ns is shown outside the view`);
	note(`${what}: view ${(v.a / 1e6).toFixed(3)} .. ${(v.b / 1e6).toFixed(3)} ms, ticks ${t.map((x) => x.text).join(", ")}; ${v.labels.length} marker labels; ${v.rects} rects in view (${v.bins} merged bins, ${v.exact} single intervals)`);
}

async function checkZoom(browser, file, shot) {
	const page = await open(browser, file);
	const before = await view(page);
	checkAxis(before, "unzoomed");
	await page.screenshot({ path: shot.replace(/\.png$/, "-1-whole.png") });
	// zoom to the eighth of the span that has the most rectangles, with
	// one wheel turn: the time under the pointer stays, so the pointer
	// goes at 8/7 of the eighth's start
	const { best: start, most } = await page.evaluate(() => {
		const w = +document.getElementById("plot").getAttribute("pw");
		const xs = [...document.querySelectorAll("#base rect")].map((r) => +r.getAttribute("x"));
		let best = 0, most = -1;
		for (let a = 0; a + w / 8 <= w + 1e-9; a += w / 64) {
			const n = xs.filter((x) => x >= a && x < a + w / 8).length;
			if (n > most) {
				most = n;
				best = a;
			}
		}
		return { best, most };
	});
	const box = await page.evaluate(() => document.documentElement.getBoundingClientRect().left);
	const px = box + before.x0 + (start * 8) / 7, py = 100;
	await page.mouse.move(px, py);
	await page.mouse.wheel(0, (-100 * Math.log(8)) / Math.log(1.25));
	const z8 = await view(page);
	if (Math.abs(z8.k - 8) > 1e-3 || Math.abs((z8.b - z8.a) * 8 - (before.b - before.a)) > (before.b - before.a) * 1e-6)
		fail(`zoom: scale ${z8.k}, view ${z8.a} .. ${z8.b} is not 1/8 of the span`);
	await page.screenshot({ path: shot.replace(/\.png$/, "-2-eighth.png") });
	checkAxis(z8, "zoomed to 1/8");
	// more than the unzoomed picture drew in that eighth
	if (!(z8.rects > most))
		fail(`zoomed to 1/8: ${z8.rects} rects in view, ${most} there before: no more detail`);
	note(`zoomed to 1/8: ${z8.rects} rects in view, ${most} there before, ${before.rects} in all`);
	// a drag pans; the axis follows
	await page.mouse.move(px, 200);
	await page.mouse.down();
	// towards the middle: the view stays inside the window
	const late = z8.a > (before.b - before.a) / 2;
	await page.mouse.move(px + (late ? 150 : -150), 200, { steps: 5 });
	await page.mouse.up();
	const panned = await view(page);
	if (!(late ? panned.a < z8.a : panned.a > z8.a))
		fail(`drag: the view did not move (${z8.a} -> ${panned.a})`);
	checkAxis(panned, "panned");
	// deep, at the bin that merged the most: single switches there
	const at = await page.evaluate(() => {
		let best = null, most = 0;
		for (const r of document.querySelectorAll("#plot g.tile rect.bin")) {
			const b = r.getBoundingClientRect();
			if (!r.closest('[display="none"]') && b.width > 0 && +r.getAttribute("n") > most &&
			    document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2) === r) {
				most = +r.getAttribute("n");
				best = b.left + b.width / 2;
			}
		}
		return best;
	});
	if (at === null)
		fail("panned: no merged bin in view to zoom into");
	await page.mouse.move(at, py);
	await page.mouse.wheel(0, (-100 * Math.log(512)) / Math.log(1.25));
	const deep = await view(page);
	checkAxis(deep, "zoomed 4096x");
	if (!(deep.exact > 0))
		fail(`zoomed 4096x: ${deep.exact} single intervals and ${deep.bins} bins in view`);
	await page.screenshot({ path: shot.replace(/\.png$/, "-3-deep.png") });
	await page.keyboard.press("Escape");
	const back = await view(page);
	if (back.k !== 1 || back.tx !== 0 || back.rects !== before.rects ||
	    back.ticks.map((t) => t.text).join() !== before.ticks.map((t) => t.text).join())
		fail(`Esc: scale ${back.k}, ${back.rects} rects (${before.rects} before), ticks ${back.ticks.map((t) => t.text)}`);
	note("Esc: back to the whole window, the same ticks and rects");
	await page.screenshot({ path: shot.replace(/\.png$/, "-4-reset.png") });
	clean(page, file);
	await page.close();
}

async function main() {
	const { chromium } = need("playwright-core");
	const browser = await chromium.launch({
		executablePath: process.env.FTL_CHROMIUM || "/usr/bin/chromium",
		args: ["--no-sandbox", "--disable-gpu"],
	});
	try {
		if (cmd === "lanes")
			await checkLanes(browser, args[0], args[1], args[2]);
		else if (cmd === "zoom")
			await checkZoom(browser, args[0], args[1]);
		else if (cmd === "wakeup")
			await checkWakeup(browser, args[0], args[1], args[2]);
		else if (cmd === "counters")
			await checkCounters(browser, args[0], args[1], args[2]);
		else if (cmd === "inert")
			await checkInert(browser, args[0], args[1], args[2]);
		else
			fail("unknown command " + cmd);
	} finally {
		await browser.close();
	}
}

main().then(() => process.exit(0), (e) => {
	console.log("# " + cmd + ": " + e.message.split("\n")[0]);
	process.exit(1);
});
