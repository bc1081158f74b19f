// SPDX-License-Identifier: GPL-2.0-or-later
// Drives Debian's chromium headless (playwright-core, no downloaded browser)
// over `ftlens timeline` SVGs for tests/e2e/t2111-timeline.sh: no JS error,
// no network, each CPU lane's rectangles sum to the analysis' busy time,
// hover names an interval, the wheel zooms, a hostile comm stays text.
//
//   node timeline_browser.js MODULES lanes FILE.svg SHOT.png SCHED.json
//   node timeline_browser.js MODULES inert FILE.svg SHOT.png TEXT
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
		for (const g of document.querySelectorAll("#plot > g.cpu")) {
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
	// hover the widest running interval: the details line names its task
	const at = await pointOn(page, "#plot rect.run");
	if (!at)
		fail("no running interval can be pointed at");
	const name = await page.textContent(`#tasks > text[k="${at.k}"]`);
	await page.mouse.move(at.x, at.y);
	const details = await page.textContent("#details");
	if (!details.includes(name) || !details.includes("duration"))
		fail(`hover: details say "${details}", expected ${name} and its duration`);
	note("hover: " + details);
	// the wheel zooms the time axis around the pointer, a double click resets
	for (let i = 0; i < 4; i++)
		await page.mouse.wheel(0, -100);
	const zoomed = await page.getAttribute("#plot", "transform");
	const scale = +/scale\(([0-9.e+]+)/.exec(zoomed)[1];
	const after = await page.evaluate((x) => {
		const r = document.elementFromPoint(x.x, x.y);
		return r && r.getAttribute("s") === x.s ? r.getBoundingClientRect().width : -1;
	}, at);
	if (!(scale > 2) || !(after > at.w * 2))
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

async function main() {
	const { chromium } = need("playwright-core");
	const browser = await chromium.launch({
		executablePath: process.env.FTL_CHROMIUM || "/usr/bin/chromium",
		args: ["--no-sandbox", "--disable-gpu"],
	});
	try {
		if (cmd === "lanes")
			await checkLanes(browser, args[0], args[1], args[2]);
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
