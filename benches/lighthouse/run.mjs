#!/usr/bin/env node
// Lighthouse against the built app (`make lighthouse`, also the last step of `make bench`): dist/ is
// served gzip-compressed, with a year's cache for Trunk's hashed assets, by the small static server
// the browser tests use (tests/e2e/serve.mjs), and Lighthouse from npm (benches/lighthouse/
// node_modules, pinned in package.json) audits it in Debian's headless Chromium, never a downloaded
// browser.
//
//   node benches/lighthouse/run.mjs [DIST_DIR] [--runs=1] [--out=DIR] [--assert]
//
// DIST_DIR defaults to <repo>/dist (from `make build`). Chromium is $CHROME_PATH (else
// $CHROMIUM, else /usr/bin/chromium), started with the offline flags of tests/e2e/serve.mjs (without
// them Debian's Chromium waits on network lookups the machine cannot make).
//
// What is measured: Lighthouse's defaults — a mobile page load (Moto G Power-sized screen, 4× CPU
// slowdown and slow 4G simulated from the unthrottled trace, "simulate" throttling) — for the four
// categories performance, accessibility, best practices and SEO. It prints one column per run, and
// with --runs=N > 1 the median of each row (each row on its own, so a median column need not be one
// run): the four scores (0–100), FCP, LCP, TBT, CLS, Speed Index and the bytes transferred. Below
// the table it lists every accessibility, best-practices and SEO audit that did not pass, with the
// elements it names (CSS selectors) or the URLs/messages it reports, so a developer sees what to fix;
// then, for the median-performance run, the LCP element, the layout shifts, the longest tasks and the
// opportunities Lighthouse estimates would save time.
//
// --out=DIR (default <repo>/target/lighthouse) receives run-N.report.json and run-N.report.html
// (open the HTML in a browser for Lighthouse's own view, with the filmstrip and the trace's details).
//
// A measurement, not a test: exit 0 whatever the numbers; exit 1 only if Lighthouse itself fails
// (no dist/, Chromium did not start, the page did not load). --assert makes it a check: exit 1 as
// well when any of the four median scores is below 100 or the median CLS is above 0.01. `make test`
// does not run it (simulated timings on a shared CI machine are too noisy to gate on).

import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, rm } from "node:fs/promises";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

import { CHROMIUM_ARGS, serveStatic } from "../../tests/e2e/serve.mjs";

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, "../..");
const CLI = join(HERE, "node_modules/lighthouse/cli/index.js");

// ---------------------------------------------------------------- configuration

const argv = process.argv.slice(2);
const flag = (name, fallback) => {
  const arg = argv.find((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  if (arg === undefined) return fallback;
  return arg.includes("=") ? arg.slice(arg.indexOf("=") + 1) : true;
};
const unknown = argv.find((a) => a.startsWith("--") && !/^--(runs|out|assert)(=|$)/.test(a));
if (unknown) fail(`unknown option ${unknown} (options: --runs=N --out=DIR --assert)`);

const DIST = resolve(argv.find((a) => !a.startsWith("--")) ?? join(ROOT, "dist"));
const RUNS = Number(flag("runs", 1));
const OUT = resolve(flag("out", join(ROOT, "target/lighthouse")));
const ASSERT = flag("assert", false) === true;
const CHROME = process.env.CHROME_PATH || process.env.CHROMIUM || "/usr/bin/chromium";

if (!Number.isInteger(RUNS) || RUNS < 1) fail(`--runs must be a whole number ≥ 1, not ${flag("runs")}`);
if (!existsSync(join(DIST, "index.html"))) fail(`no ${join(DIST, "index.html")}: run \`make build\` first`);
if (!existsSync(CLI)) fail(`no ${relative(ROOT, CLI)}: run \`make .tools/npm-lighthouse\` (npm ci --prefix benches/lighthouse)`);
if (!existsSync(CHROME)) fail(`no Chromium at ${CHROME}: set CHROME_PATH (Debian: apt-get install chromium)`);

/** The categories the issue asks for, in Lighthouse's order (13.x also has "agentic-browsing"). */
const CATEGORIES = [
  ["performance", "performance"],
  ["accessibility", "accessibility"],
  ["best-practices", "best practices"],
  ["seo", "SEO"],
];

/** Metric rows: audit id, label, how to print its numericValue. */
const ms = (v) => `${Math.round(v)} ms`;
const METRICS = [
  ["first-contentful-paint", "FCP", ms],
  ["largest-contentful-paint", "LCP", ms],
  ["total-blocking-time", "TBT", ms],
  ["cumulative-layout-shift", "CLS", (v) => v.toFixed(3)],
  ["speed-index", "Speed Index", ms],
  ["total-byte-weight", "transferred", (v) => `${(v / 1024).toFixed(0)} KiB`],
];

// ---------------------------------------------------------------- runs

await mkdir(OUT, { recursive: true });
// An earlier call's reports (perhaps more runs than this one) would be mistaken for this one's.
for (const name of await readdir(OUT)) if (/^run-\d+\.report\.(json|html)$/.test(name)) await rm(join(OUT, name));
const server = await serveStatic({ "/": DIST }, {}, { gzip: true, cache: true });
const url = `${server.url}/`;
console.log(`Lighthouse ${await version()} · ${RUNS} run${RUNS > 1 ? "s" : ""} · mobile, simulated throttling`);
console.log(`${relative(ROOT, DIST) || "."} served gzip at ${url} · Chromium ${CHROME}\n`);

const reports = [];
try {
  for (let run = 1; run <= RUNS; run++) {
    const base = join(OUT, `run-${run}`);
    process.stdout.write(`run ${run}/${RUNS}… `);
    const started = performance.now();
    await lighthouse(url, base);
    const lhr = JSON.parse(await readFile(`${base}.report.json`, "utf8"));
    if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.code}: ${lhr.runtimeError.message}`);
    console.log(`${((performance.now() - started) / 1000).toFixed(0)} s`);
    for (const w of lhr.runWarnings ?? []) console.log(`  warning: ${w}`);
    reports.push(lhr);
  }
} catch (e) {
  console.log("");
  await server.close();
  fail(e.message);
}
await server.close();

// ---------------------------------------------------------------- report

const rows = [
  ...CATEGORIES.map(([id, label]) => ({
    label,
    values: reports.map((r) => (r.categories[id]?.score == null ? NaN : Math.round(r.categories[id].score * 100))),
    show: (v) => String(v),
  })),
  ...METRICS.map(([id, label, show]) => ({
    label,
    values: reports.map((r) => r.audits[id]?.numericValue ?? NaN),
    show,
  })),
];
for (const row of rows) row.median = median(row.values);

const header = ["", ...reports.map((_, i) => `run ${i + 1}`), ...(RUNS > 1 ? ["median"] : [])];
const table = [
  header,
  ...rows.map((row) => [row.label, ...row.values.map(row.show), ...(RUNS > 1 ? [row.show(row.median)] : [])]),
];
const widths = header.map((_, c) => Math.max(...table.map((line) => line[c].length)));
console.log("");
for (const [i, line] of table.entries()) {
  console.log(line.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join("   "));
  if (i === 0 || i === CATEGORIES.length) console.log(widths.map((w) => "─".repeat(w)).join("   "));
}

// Audits that did not pass, in the three categories scored pass/fail (the same in every run: listed
// from the first run that fails them, with how many runs did).
for (const [id, label] of CATEGORIES.slice(1)) {
  const failing = new Map();
  for (const lhr of reports) {
    for (const ref of lhr.categories[id]?.auditRefs ?? []) {
      const audit = lhr.audits[ref.id];
      if (!failed(audit)) continue;
      const seen = failing.get(ref.id);
      if (seen) seen.runs++;
      else failing.set(ref.id, { audit, weight: ref.weight, runs: 1 });
    }
  }
  if (failing.size === 0) continue;
  console.log(`\n${label}: ${failing.size} audit${failing.size > 1 ? "s" : ""} not passed`);
  for (const [auditId, { audit, weight, runs }] of failing) {
    const note = [weight === 0 ? "unscored" : "", RUNS > 1 && runs < RUNS ? `${runs} of ${RUNS} runs` : ""]
      .filter(Boolean)
      .join(", ");
    console.log(`  ✗ ${auditId}: ${audit.title}${note ? ` (${note})` : ""}`);
    for (const line of offenders(audit)) console.log(`      ${line}`);
  }
}

// What the performance score is made of, from the median-performance run: the LCP element and where
// its time goes, the layout shifts, the long tasks (TBT counts each one's time over 50 ms), and the
// opportunities Lighthouse estimates would save time.
const perfRun = reports.find((r) => Math.round(r.categories.performance.score * 100) === rows[0].median) ?? reports[0];
const section = (title, lines) => lines.length > 0 && console.log(`  ${title}\n${lines.map((l) => `      ${l}`).join("\n")}`);
console.log(`\nperformance${RUNS > 1 ? ` (run ${reports.indexOf(perfRun) + 1}, the median score)` : ""}`);
const lcp = perfRun.audits["lcp-breakdown-insight"]?.details?.items ?? [];
const lcpNode = lcp.find((i) => i.type === "node");
const lcpParts = lcp.find((i) => i.type === "table")?.items ?? [];
section("LCP element", [
  ...(lcpNode ? [`${lcpNode.selector}  “${short(lcpNode.nodeLabel ?? "", 60)}”`] : []),
  ...(lcpParts.length ? [lcpParts.map((p) => `${p.label.toLowerCase()} ${Math.round(p.duration)} ms`).join(", ")] : []),
]);
section(
  "layout shifts",
  (perfRun.audits["layout-shifts"]?.details?.items ?? []).map(
    (i) => `${i.node?.selector ?? i.node?.value ?? "?"}  ${i.score.toFixed(3)}${(i.subItems?.items ?? []).map((c) => ` — ${c.cause ?? c.extra?.value ?? ""}`).join("")}`,
  ),
);
section(
  "long tasks",
  (perfRun.audits["long-tasks"]?.details?.items ?? [])
    .slice(0, 5)
    .map((i) => `${Math.round(i.duration)} ms at ${Math.round(i.startTime)} ms  ${local(i.url)}`),
);
const opportunities = (perfRun.categories.performance.auditRefs ?? [])
  .map((ref) => perfRun.audits[ref.id])
  .filter((a) => failed(a) && Object.values(a.metricSavings ?? {}).some((v) => v > 0));
section(
  "what Lighthouse says would help",
  opportunities.flatMap((a) => {
    const savings = Object.entries(a.metricSavings)
      .filter(([, v]) => v > 0)
      .map(([k, v]) => (k === "CLS" ? `${k} −${v.toFixed(3)}` : `${k} −${Math.round(v)} ms`))
      .join(", ");
    const head = `• ${a.id}: ${a.title}${a.displayValue ? ` — ${a.displayValue}` : ""}${savings ? ` (${savings})` : ""}`;
    return [head, ...offenders(a, 4).map((l) => `  ${l}`)];
  }),
);

console.log(`\nreports: ${relative(process.cwd(), join(OUT, `run-${RUNS > 1 ? `{1..${RUNS}}` : 1}.report.{json,html}`))}`);

if (ASSERT) {
  const cls = rows.find((r) => r.label === "CLS").median;
  const problems = rows
    .slice(0, CATEGORIES.length)
    .filter((r) => !(r.median >= 100))
    .map((r) => `${r.label} ${r.median} < 100`);
  if (!(cls <= 0.01)) problems.push(`CLS ${cls.toFixed(3)} > 0.01`);
  if (problems.length > 0) {
    console.error(`\n--assert: ${problems.join("; ")}`);
    process.exit(1);
  }
  console.log("\n--assert: every score is 100 and CLS ≤ 0.01");
}

// ---------------------------------------------------------------- helpers

/** Runs the Lighthouse CLI once; `base`.report.json and `base`.report.html are written. */
function lighthouse(target, base) {
  const args = [
    CLI,
    target,
    `--only-categories=${CATEGORIES.map(([id]) => id).join(",")}`,
    `--chrome-flags=${CHROMIUM_ARGS.join(" ")}`,
    "--output=json",
    "--output=html",
    `--output-path=${base}`,
    "--quiet",
  ];
  return new Promise((ok, no) => {
    const child = spawn(process.execPath, args, {
      env: { ...process.env, CHROME_PATH: CHROME },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", no);
    child.on("exit", (code, signal) =>
      code === 0 ? ok() : no(new Error(`lighthouse exited with ${signal ?? code}${stderr ? `:\n${stderr.trim()}` : ""}`)),
    );
  });
}

async function version() {
  const pkg = JSON.parse(await readFile(join(HERE, "node_modules/lighthouse/package.json"), "utf8"));
  return pkg.version;
}

/** An audit that counts and did not pass (informative, manual and not-applicable ones never fail). */
function failed(audit) {
  if (!audit || audit.score === null) return false;
  if (["notApplicable", "informative", "manual", "error"].includes(audit.scoreDisplayMode)) return false;
  return audit.score < 1;
}

/** What an audit names as the cause: elements (selector, label), else URLs, sources or messages. */
function offenders(audit, max = 8) {
  const items = audit.details?.items ?? [];
  const lines = [];
  const text = (v) => (typeof v === "string" ? v : (v?.url ?? v?.text ?? v?.value ?? ""));
  for (const item of items) {
    const node = item.node ?? Object.values(item).find((v) => v?.type === "node");
    let line;
    if (node?.selector) {
      const label = node.nodeLabel && node.nodeLabel !== node.selector ? `  “${short(node.nodeLabel, 60)}”` : "";
      line = `${node.selector}${label}`;
      // Contrast and similar audits say why in the item's explanation.
      const why = node.explanation?.split("\n").find((l) => l && !/^Fix (any|all) of the following/.test(l.trim()));
      if (why) line += `\n        ${short(why.trim(), 240)}`;
    } else {
      const sub = (item.subItems?.items ?? []).map((i) => i.error ?? i.reason ?? "").filter(Boolean);
      const group = item.groupLabel && item.duration != null ? `${item.groupLabel} ${Math.round(item.duration)} ms` : "";
      line = [item.source, item.url ?? item.scriptUrl, item.description, item.href, item.text, group, ...sub]
        .map(text)
        .filter(Boolean)
        .map((s) => short(local(s), 140))
        .join(" — ");
    }
    if (line && !lines.includes(line)) lines.push(line);
  }
  if (lines.length === 0 && audit.explanation) lines.push(short(audit.explanation, 200));
  return lines.length > max ? [...lines.slice(0, max), `… and ${lines.length - max} more`] : lines;
}

/** A URL of the served site without its origin (the port changes from run to run). */
function local(u) {
  return typeof u === "string" && u.startsWith(`${server.url}/`) ? u.slice(server.url.length) : u;
}

function short(s, n) {
  const one = String(s).replace(/\s+/g, " ").trim();
  return one.length > n ? `${one.slice(0, n - 1)}…` : one;
}

function median(values) {
  const v = values.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (v.length === 0) return NaN;
  return v.length % 2 ? v[(v.length - 1) / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
}

function fail(message) {
  console.error(`lighthouse: ${message}`);
  process.exit(1);
}
