// SPDX-License-Identifier: GPL-2.0-or-later
// Drives Debian's chromium headless (playwright-core, no downloaded browser)
// over ftlens's SVGs and exports for tests/e2e/t2104-flame-browser.sh: no JS
// error, no network, hover, click zoom, Reset, search and its exact share,
// URL state, the hostile marker inert, speedscope loading our files.
//
//   node flame_browser.js MODULES svg FILE.svg SHOT.png [TERM EXPECTED%]
//   node flame_browser.js MODULES inert FILE.svg SHOT.png
//   node flame_browser.js MODULES load FILE.svg SHOT.png SELECTOR MIN [MARGIN]
//     (MARGIN: the elements span the picture's width less MARGIN px)
//   node flame_browser.js MODULES speedscope FILE.json SHOT.png
//   node flame_browser.js MODULES schema FILE.json SCHEMA.json
//   node flame_browser.js MODULES chrome FILE.json
// Prints "# ..." notes; exits 0 when every check holds, 1 naming the first
// one that failed.
"use strict";
const path = require("path");
const fs = require("fs");
const url = require("url");

const [mods, cmd, ...args] = process.argv.slice(2);
const modules = path.resolve(mods);
const need = (m) => require(path.join(modules, "node_modules", m));

function fail(msg) {
	throw new Error(msg);
}
function note(msg) {
	console.log("# " + msg);
}

// A page that records JS errors, console errors, dialogs and any request
// that is not a local file (ftlens's views and speedscope are offline).
async function open(browser, file, hash) {
	const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
	const trouble = [];
	page.on("pageerror", (e) => trouble.push("page error: " + e.message));
	page.logs = [];
	page.on("console", (m) => {
		page.logs.push(m.text());
		if (m.type() === "error")
			trouble.push("console error: " + m.text());
	});
	await page.route("**/*", (r) => {
		const u = r.request().url();
		if (u.startsWith("file:") || u.startsWith("data:") || u.startsWith("blob:"))
			return r.continue();
		trouble.push("network request: " + u);
		return r.abort();
	});
	page.trouble = trouble;
	await page.goto(url.pathToFileURL(file).href + (hash || ""));
	return page;
}

function clean(page, what) {
	if (page.trouble.length)
		fail(what + ": " + page.trouble.join("; "));
}

// The frames as the file has them, read from the DOM without flame.js.
async function frames(page) {
	return page.$$eval("#frames > g", (gs) => gs.map((g, i) => ({
		i,
		name: g.querySelector("title").textContent.split("\n")[0],
		o: +g.getAttribute("o"),
		n: +g.getAttribute("n"),
		w: g.hasAttribute("w") ? +g.getAttribute("w") : +g.getAttribute("n"),
		l: +g.getAttribute("l"),
		x: g.querySelector("rect").getAttribute("x"),
		width: g.querySelector("rect").getAttribute("width"),
		hidden: g.classList.contains("hide"),
	})));
}

// Descendants of frame k: the frames after it with a deeper level, up to
// the first one at its level or above (the file lists frames depth first).
function subtree(fs, k) {
	let end = k;
	while (end + 1 < fs.length && fs[end + 1].l > fs[k].l)
		end++;
	return [k, end];
}

// The matched share of a view, counted independently of flame.js: outermost
// matches inside the view, 100% when the zoomed frame or an ancestor matches.
function expectedShare(fs, re, zoomed) {
	let first = 0, last = fs.length - 1;
	let whole = fs.filter((f) => f.l === 0).reduce((s, f) => s + f.n, 0);
	if (zoomed >= 0) {
		[first, last] = subtree(fs, zoomed);
		whole = fs[zoomed].n;
		let lvl = fs[zoomed].l;
		for (let j = zoomed; j >= 0 && lvl >= 0; j--)
			if (fs[j].l === lvl) {
				if (re.test(fs[j].name))
					return 100;
				lvl--;
			}
	}
	let sum = 0;
	for (let i = first; i <= last; i++)
		if (re.test(fs[i].name)) {
			sum += fs[i].n;
			i = subtree(fs, i)[1];
		}
	return whole > 0 ? (100 * sum) / whole : 0;
}

async function matchedText(page) {
	return (await page.textContent("#matched")).trim();
}

async function search(page, term) {
	page.once("dialog", (d) => d.accept(term));
	await page.keyboard.press("Control+f");
	await page.waitForFunction(() => document.getElementById("matched").textContent.trim() !== "");
}

async function checkSvg(browser, file, shot, term, expected) {
	const page = await open(browser, file);
	const svgw = +(await page.getAttribute("svg", "width"));
	const xpad = +(await page.getAttribute("#frames", "xpad"));
	const avail = svgw - 2 * xpad;
	let fs0 = await frames(page);
	if (fs0.length < 3)
		fail(file + ": only " + fs0.length + " frames");
	// the head (title, subtitle lines) lies inside the picture, above the frames
	for (const sel of ["#title", "#subtitle"]) {
		const box = await page.$eval(sel, (e) => {
			const b = e.getBBox();
			return [b.x, b.x + b.width, b.y + b.height];
		});
		if (box[1] - box[0] > 0 && (box[0] < 0 || box[1] > svgw))
			fail(`${sel} spans ${box[0].toFixed(0)}..${box[1].toFixed(0)} px, the picture 0..${svgw}`);
		const top = await page.$eval("#frames", (e) => e.getBBox().y);
		if (box[2] > top)
			fail(`${sel} reaches ${box[2].toFixed(0)} px, the frames begin at ${top.toFixed(0)}`);
	}

	// hover: the details line names the frame and its share
	const pick = fs0.filter((f) => f.l >= 1 && subtree(fs0, f.i)[1] > f.i)
		.sort((a, b) => parseFloat(b.width) - parseFloat(a.width))[0];
	if (!pick)
		fail("no frame with children to zoom into");
	const rect = `#frames > g:nth-child(${pick.i + 1}) > rect`;
	await page.hover(rect);
	const details = await page.textContent("#details");
	if (!details.startsWith(pick.name + ":") || !/%/.test(details))
		fail(`hover on ${pick.name}: details say "${details}"`);
	// the hover text stays inside the picture
	const right = await page.$eval("#details", (e) => e.getBBox().x + e.getBBox().width);
	if (right > svgw)
		fail(`hover: the details line ends at ${right.toFixed(0)} px, the picture at ${svgw}`);
	note(`hover: ${details.replace(/\n/g, " ")}`);

	// click zooms: the frame fills the width, its ancestors too, others hide;
	// in a flame chart: its time range across all lanes, the axis redrawn
	// for that range
	const chart = (await page.getAttribute("#frames", "mode")) === "chart";
	await page.click(rect);
	let fs1 = await frames(page);
	const [a, b] = subtree(fs1, pick.i);
	if (Math.abs(parseFloat(fs1[pick.i].width) - avail) > 0.11)
		fail(`zoomed ${pick.name} is ${fs1[pick.i].width} px wide, not ${avail}`);
	const outside = fs1.filter((f) => (f.i < a || f.i > b) && !f.hidden);
	if (chart) {
		const lo = pick.o, hi = pick.o + pick.w;
		const over = (f) => Math.min(f.o + f.w, hi) > Math.max(f.o, lo);
		const wrong = fs1.filter((f) => f.hidden === over(f) && f.w > 0);
		if (wrong.length)
			fail(`chart zoom: ${wrong[0].name} at ${wrong[0].o}+${wrong[0].w} is ${wrong[0].hidden ? "hidden" : "shown"} for ${lo}..${hi}`);
		const lanes = new Set(fs1.filter((f) => !f.hidden && f.l === 0).map((f) => f.i));
		const ticks = await page.$$eval("#axis > text", (ts) => ts.map((t) => +t.getAttribute("t")));
		const t0 = +(await page.getAttribute("#axis", "t0"));
		if (ticks.length < 2 || ticks.some((t) => t - t0 < lo || t - t0 > hi))
			fail(`chart zoom: axis ticks ${ticks} (less ${t0}) not inside ${lo}..${hi}`);
		await page.locator(":root").screenshot({ path: shot.replace(/\.png$/, "-zoomed.png") });
		note(`chart zoom: ${fs1.filter((f) => !f.hidden).length} frames of ${lanes.size} lanes in ${lo}..${hi} ns, ${ticks.length} ticks inside`);
	} else {
		if (outside.some((f) => Math.abs(parseFloat(f.width) - avail) > 0.11))
			fail("after the zoom a frame outside the subtree is still drawn");
		if (outside.length !== pick.l)
			fail(`${outside.length} frames kept outside the zoom, ${pick.l} ancestors expected`);
	}
	if (await page.$eval("#unzoom", (e) => e.classList.contains("hide")))
		fail("no Reset Zoom after a zoom");
	note(`click: ${pick.name} zoomed to ${fs1[pick.i].width} px, ${b - a} frames below`);

	// Reset restores every frame as drawn
	await page.click("#unzoom");
	const fs2 = await frames(page);
	for (const f of fs2)
		if (f.hidden || f.x !== fs0[f.i].x || f.width !== fs0[f.i].width)
			fail(`Reset Zoom left ${f.name} at x=${f.x} width=${f.width}, not ${fs0[f.i].x}/${fs0[f.i].width}`);
	note("Reset Zoom restored all " + fs2.length + " frames");
	// Esc unzooms too
	await page.click(rect);
	await page.keyboard.press("Escape");
	const fs4 = await frames(page);
	if (fs4.some((f) => f.hidden || f.x !== fs0[f.i].x || f.width !== fs0[f.i].width))
		fail("Esc did not restore every frame");
	note("Esc restored all " + fs4.length + " frames");

	if (term) {
		const re = new RegExp(term);
		await search(page, term);
		const got = await matchedText(page);
		const mine = expectedShare(fs0, re, -1).toFixed(2);
		if (got !== `Matched: ${expected}%` || mine !== expected)
			fail(`search ${term}: page says "${got}", folded stacks say ${expected}%, the frames ${mine}%`);
		const filled = await page.$$eval("#frames > g > rect",
			(rs) => rs.filter((r) => r.getAttribute("fill") === "rgb(230,0,230)").length);
		const want = fs0.filter((f) => re.test(f.name)).length;
		if (filled !== want)
			fail(`search ${term}: ${filled} frames filled, ${want} match`);
		note(`search ${term}: "${got}", ${filled} frames filled`);

		// the share of the zoomed view, and the state in the URL
		await page.click(rect);
		const zgot = await matchedText(page);
		const zwant = "Matched: " + expectedShare(fs0, re, pick.i).toFixed(2) + "%";
		if (zgot !== zwant)
			fail(`zoomed search: page says "${zgot}", expected "${zwant}"`);
		const hash = await page.evaluate(() => location.hash);
		if (!hash.includes("z=" + pick.i) || !hash.includes("s="))
			fail(`the URL keeps no state: "${hash}"`);
		const again = await open(browser, file, hash);
		const fs3 = await frames(again);
		if (Math.abs(parseFloat(fs3[pick.i].width) - avail) > 0.11 || (await matchedText(again)) !== zgot)
			fail(`reopening ${hash} does not restore zoom and search`);
		clean(again, "reopened with " + hash);
		await again.close();
		note(`zoomed search: "${zgot}"; ${hash} restores it`);
		await page.click("#unzoom");
	}
	await page.locator(":root").screenshot({ path: shot });
	clean(page, file);
	await page.close();
}

// The hostile marker must stay text: nothing sets window.__pwned.
async function checkInert(browser, file, shot) {
	const page = await open(browser, file);
	const fs = await frames(page);
	await page.hover(`#frames > g:nth-child(${fs.length}) > rect`);
	for (const g of ["__pwned", "pwned"])
		if (await page.evaluate((k) => window[k] !== undefined, g))
			fail(`window.${g} is set`);
	const scripts = await page.$$eval("script", (s) => s.length);
	if (scripts !== 1)
		fail(scripts + " script elements");
	const text = await page.evaluate(() => document.documentElement.textContent);
	if (!text.includes("<script>window.__pwned=1</script>"))
		fail("the hostile marker is not shown as text");
	await page.locator(":root").screenshot({ path: shot });
	clean(page, file);
	await page.close();
	note("hostile marker shown as text, window.__pwned undefined");
}

// A view without flame.js (the stack chart): it loads cleanly, has at
// least MIN elements matching SELECTOR, and their tooltips show on hover.
async function checkLoad(browser, file, shot, selector, min, wide) {
	const page = await open(browser, file);
	const n = await page.$$eval(selector, (e) => e.length);
	if (n < +min)
		fail(`${n} elements ${selector}, expected at least ${min}`);
	if (wide) {
		// the elements span the picture's width less its margins (px)
		const [w, lo, hi] = await page.$$eval(selector, (es) => {
			const bs = es.map((e) => e.getBBox());
			return [+document.documentElement.getAttribute("width"),
				Math.min(...bs.map((b) => b.x)), Math.max(...bs.map((b) => b.x + b.width))];
		});
		if (hi - lo < w - +wide)
			fail(`${selector} span ${lo.toFixed(0)}..${hi.toFixed(0)} of a ${w} px picture`);
		note(`${selector} span ${lo.toFixed(0)}..${hi.toFixed(0)} of ${w} px`);
	}
	await page.hover(selector + " >> nth=0");
	await page.locator(":root").screenshot({ path: shot });
	clean(page, file);
	await page.close();
	note(`${path.basename(file)}: ${n} ${selector}`);
}

// --color-by: the legend is drawn above every frame, inside the picture,
// its entries apart; every function frame's fill is the colour of one of
// its entries (the legend names 24 groups at most: the fixture has 17
// groups); hover still works and the screenshot is kept.
async function checkLegend(browser, file, shot, min) {
	const page = await open(browser, file);
	const r = await page.evaluate(() => {
		const legend = [...document.querySelectorAll("#legend g.group rect")];
		const boxes = legend.map((e) => e.getBBox());
		const texts = [...document.querySelectorAll("#legend g.group text")].map((e) => e.getBBox());
		const fills = new Set(legend.map((e) => e.getAttribute("fill")));
		const frames = [...document.querySelectorAll("#frames g.f")];
		const named = frames.filter((g) => !/^(all|\[|CPU |.*-[0-9]+$)/.test(g.querySelector("title").textContent));
		const stray = named.map((g) => g.querySelector("rect").getAttribute("fill"))
			.filter((f) => !fills.has(f) && f !== "rgb(190,190,190)");
		const top = Math.min(...frames.map((g) => g.querySelector("rect").getBBox().y));
		const bottom = Math.max(...boxes.map((b) => b.y + b.height), ...texts.map((b) => b.y + b.height));
		const right = Math.max(...texts.map((b) => b.x + b.width));
		let overlap = 0;
		for (let i = 0; i < texts.length; i++)
			for (let j = i + 1; j < texts.length; j++) {
				const a = texts[i], b = texts[j];
				if (a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height)
					overlap++;
			}
		return { n: legend.length, distinct: fills.size, named: named.length, stray: stray.length,
			 top, bottom, right, overlap, width: +document.documentElement.getAttribute("width") };
	});
	if (r.n < +min || r.distinct !== r.n)
		fail(`${r.n} legend entries, ${r.distinct} colours, expected at least ${min}, all different`);
	if (r.stray)
		fail(`${r.stray} of ${r.named} function frames have a colour the legend lacks`);
	if (r.bottom > r.top || r.right > r.width || r.overlap)
		fail(`legend ends at y ${r.bottom.toFixed(0)} x ${r.right.toFixed(0)}, frames begin at ${r.top.toFixed(0)}, ${r.overlap} overlaps`);
	await page.hover("#frames g.f >> nth=1");
	await page.locator(":root").screenshot({ path: shot });
	clean(page, file);
	await page.close();
	note(`${path.basename(file)}: ${r.n} groups in the legend, ${r.named} function frames in their colours`);
}

// speedscope's own page from node_modules opens FILE like a user does
// (Browse...), shows "(1/N)" for the N profiles the file has (one per
// task: speedscope profiles, or threads with calls in trace events), the
// first one named as the file names it, raises no alert, and says nothing
// went wrong.
async function checkSpeedscope(browser, file, shot) {
	const doc = JSON.parse(fs.readFileSync(file, "utf8"));
	let count, names;
	if (doc.profiles) {
		count = doc.profiles.length;
		names = [doc.profiles[0].name];
	} else {
		const calls = doc.traceEvents.filter((e) => e.ph === "X" || e.ph === "B");
		count = new Set(calls.map((e) => e.pid + "/" + e.tid)).size;
		names = doc.traceEvents.filter((e) => e.name === "thread_name").map((e) => e.args.name);
	}
	const index = path.join(modules, "node_modules/speedscope/dist/release/index.html");
	const page = await open(browser, index);
	const dialogs = [];
	page.on("dialog", (d) => {
		dialogs.push(d.message());
		d.dismiss();
	});
	await page.setInputFiles("#file", file);
	await page.waitForFunction(() => document.querySelector("canvas") !== null, null, { timeout: 20000 });
	await page.waitForTimeout(500);
	if (dialogs.length)
		fail("speedscope says: " + dialogs.join("; "));
	await page.screenshot({ path: shot });
	const body = await page.textContent("body");
	if (body.includes("Something went wrong"))
		fail("speedscope: Something went wrong (" + page.logs.filter((l) => /Failed/.test(l)).join("; ") + ")");
	const shown = names.find((n) => body.includes(n));
	if (!shown || !body.includes(`(1/${count})`))
		fail(`speedscope shows no profile 1/${count} named ${names.slice(0, 3).join(", ")}... (toolbar: "${body.trim().slice(0, 120)}")`);
	clean(page, "speedscope with " + file);
	await page.close();
	const misnested = page.logs.filter((l) => /Tried to end/.test(l)).length;
	note(`speedscope loaded ${path.basename(file)}: ${shown} (1/${count}); ${misnested} "Tried to end" warnings`);
}

function checkSchema(file, schemaFile) {
	const Ajv = need("ajv");
	const ajv = new Ajv({ allErrors: true, strict: false });
	const validate = ajv.compile(JSON.parse(fs.readFileSync(schemaFile, "utf8")));
	const doc = JSON.parse(fs.readFileSync(file, "utf8"));
	if (!validate(doc))
		fail(file + ": " + ajv.errorsText(validate.errors));
	note(`${path.basename(file)} valid against ${path.basename(schemaFile)}: ${doc.profiles.length} profiles`);
}

// Chrome's trace-event format has no published schema: check what Perfetto
// and chrome://tracing read (documented fields, ph values, µs times).
function checkChrome(file) {
	const doc = JSON.parse(fs.readFileSync(file, "utf8"));
	const ev = doc.traceEvents;
	if (!Array.isArray(ev) || ev.length === 0)
		fail("no traceEvents array");
	const count = {};
	for (const e of ev) {
		count[e.ph] = (count[e.ph] || 0) + 1;
		if (typeof e.name !== "string" || !["X", "B", "E", "M", "i", "I"].includes(e.ph))
			fail("bad event " + JSON.stringify(e));
		if (e.ph === "X" && !(e.dur >= 0 && e.ts >= 0 && Number.isInteger(e.pid) && Number.isInteger(e.tid)))
			fail("bad complete event " + JSON.stringify(e));
		if (e.ph === "M" && !(e.args && typeof e.args.name === "string"))
			fail("bad metadata event " + JSON.stringify(e));
	}
	if (!count.X || !count.M)
		fail("no X or M events: " + JSON.stringify(count));
	note(`${path.basename(file)}: ${JSON.stringify(count)}, systemTraceEvents ${
		typeof doc.systemTraceEvents === "string" ? doc.systemTraceEvents.split("\n").length + " lines" : "absent"}`);
}

async function main() {
	if (cmd === "schema")
		return checkSchema(args[0], args[1]);
	if (cmd === "chrome")
		return checkChrome(args[0]);
	const { chromium } = need("playwright-core");
	const browser = await chromium.launch({
		executablePath: process.env.FTL_CHROMIUM || "/usr/bin/chromium",
		args: ["--no-sandbox"],
	});
	try {
		if (cmd === "svg")
			await checkSvg(browser, args[0], args[1], args[2], args[3]);
		else if (cmd === "inert")
			await checkInert(browser, args[0], args[1]);
		else if (cmd === "load")
			await checkLoad(browser, args[0], args[1], args[2], args[3], args[4]);
		else if (cmd === "legend")
			await checkLegend(browser, args[0], args[1], args[2]);
		else if (cmd === "speedscope")
			await checkSpeedscope(browser, args[0], args[1]);
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
