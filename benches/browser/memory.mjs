#!/usr/bin/env node
// Long-session memory benchmark (`make bench`): 10,000 slider moves across every chapter's
// controls (tests/e2e/memory.mjs), wasm linear memory and JS heap after two rounds over every slider (at least 100 moves) and
// at the end, against the 5 % budget. The browser test runs the same session for 1,000 moves and
// fails on growth; this prints the numbers of the long one (exit 0 whatever they are, 1 if the
// session could not run).
//
//   node benches/browser/memory.mjs [DIST_DIR] [--moves=10000]
import { resolve } from "node:path";
import { launchChromium, serveStatic } from "../../tests/e2e/serve.mjs";
import { FLAT, longSession } from "../../tests/e2e/memory.mjs";

const args = process.argv.slice(2);
const dist = resolve(args.find((a) => !a.startsWith("--")) ?? new URL("../../dist", import.meta.url).pathname);
const moves = Number(args.find((a) => a.startsWith("--moves="))?.split("=")[1] ?? 10000);
const server = await serveStatic({ "/": dist });
const browser = await launchChromium();
try {
  const r = await longSession(browser, `${server.url}/`, moves, { snapshot: true });
  const pct = (k) => ((r.after[k] - r.before[k]) / r.before[k]) * 100;
  const kib = (b) => (b / 1024).toFixed(0);
  console.log(`Long session — ${r.moves} moves over ${r.sliders} sliders, Chromium ${browser.version()}`);
  for (const [k, name] of [
    ["wasm", "wasm memory"],
    ["heap", "JS heap (after GC)"],
    ["objects", "JS objects without compiled code (heap snapshot)"],
  ]) {
    const ok = pct(k) <= FLAT * 100;
    console.log(`  ${name}: ${kib(r.before[k])} KiB after ${r.warm} moves → ${kib(r.after[k])} KiB (${pct(k).toFixed(2)} %) — ${ok ? "within" : "OVER"} ${FLAT * 100} %`);
  }
  if (r.problems.length) {
    console.log(`  problems: ${r.problems.join(" | ")}`);
    process.exitCode = 1;
  }
} catch (e) {
  console.error(`memory benchmark could not run: ${e.message}`);
  process.exitCode = 1;
} finally {
  await browser.close();
  await server.close();
}
