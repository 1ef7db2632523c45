#!/usr/bin/env node
// The embed snippet where bloggers write (`make hosts`): the snippet a figure's "</>" button
// copies, pasted as it is into a post of a real Hugo site (through a shortcode, since Hugo drops
// raw HTML from Markdown by default) and a real Jekyll site (raw HTML in Markdown), each built by
// the generator from Debian's packages, and into a chapter of a real mdBook (raw HTML; mdBook
// from crates.io, on PATH), each served from its own origin with a strict policy that refuses
// inline styles. In Debian's Chromium, each post must show the live figure: the frame loads the
// app from another origin, the figure draws, the frame has no border, and the host's policy
// refuses nothing (in mdBook's case, nothing in the snippet: its own page has one inline style).
//
//   node tests/hosts/check.mjs [DIST_DIR]      (DIST_DIR defaults to dist/, from `make build`)
//
// Exit 0 when every generator passes, 1 otherwise; a generator that is not installed fails.

import { spawnSync } from "node:child_process";
import { cp, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

import { launchChromium, serveStatic } from "../e2e/serve.mjs";

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, "../..");
const DIST = resolve(process.argv[2] ?? join(ROOT, "dist"));
const FIGURE = "fig-ctx-turns";
/** What a strict blog sends: no inline style, frames and images from anywhere. */
const HOST_POLICY = "default-src 'self'; frame-src *; img-src * data:; style-src 'self'";
/** The same for an mdBook, whose own theme runs inline scripts (theme and sidebar, before the
 * first paint): scripts inline are allowed; styles stay as strict, which is what the snippet meets. */
const MDBOOK_POLICY = `${HOST_POLICY}; script-src 'self' 'unsafe-inline'`;

/** Runs a generator; throws with its output when it fails. */
function run(command, args) {
  const r = spawnSync(command, args, { encoding: "utf8" });
  if (r.error || r.status !== 0) {
    throw new Error(`${command} ${args.join(" ")}: ${r.error?.message ?? r.stderr ?? ""}`.trim());
  }
}

/** The post's Markdown around the pasted embed. */
const post = (embed) => `---
title: "How RoPE models read past their training length"
---

A post with a live figure in it.

${embed}

The post goes on after the figure.
`;

/**
 * Each generator: `build` makes a site whose one post holds `snippet`, into `out`, served under
 * `policy`. The policy must refuse nothing, except that mdBook's own page (`ownRefusals`) has what
 * no snippet can change: its navigation's `style="clear: both"` is listed, not failed.
 */
const GENERATORS = {
  hugo: {
    policy: HOST_POLICY,
    async build(snippet, work, out) {
      await cp(join(HERE, "hugo"), work, { recursive: true });
      await mkdir(join(work, "content"), { recursive: true });
      await writeFile(join(work, "content", "_index.md"), post(`{{< pe-figure >}}\n${snippet}\n{{< /pe-figure >}}`));
      run("hugo", ["--quiet", "--source", work, "--destination", out]);
    },
  },
  jekyll: {
    policy: HOST_POLICY,
    async build(snippet, work, out) {
      await mkdir(work, { recursive: true });
      await writeFile(join(work, "_config.yml"), "title: A Jekyll blog\n");
      await writeFile(join(work, "index.md"), post(snippet));
      run("jekyll", ["build", "--quiet", "--source", work, "--destination", out]);
    },
  },
  // mdBook passes raw HTML in Markdown through as it is; a chapter has no front matter.
  mdbook: {
    policy: MDBOOK_POLICY,
    ownRefusals: true,
    async build(snippet, work, out) {
      await mkdir(join(work, "src"), { recursive: true });
      await writeFile(join(work, "book.toml"), '[book]\ntitle = "An mdBook"\n');
      await writeFile(join(work, "src", "SUMMARY.md"), "# Summary\n\n[A post](index.md)\n");
      await writeFile(join(work, "src", "index.md"), post(snippet).replace(/^---\ntitle: "(.*)"\n---\n/, "# $1\n"));
      run("mdbook", ["build", work, "--dest-dir", out]);
    },
  },
};

/** The snippet as the figure's "</>" button gives it, read off the page. */
async function copySnippet(browser, app) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(`${app}/#${FIGURE}`);
  await page.waitForFunction(() => !document.getElementById("loading") && (document.getElementById("app")?.dataset.pending ?? "0") === "0", null, { timeout: 60000 });
  await page.click(`#${FIGURE} .figure-embed`);
  const text = await page.inputValue(`#${FIGURE}-embed-text`);
  await page.close();
  return text;
}

/** Opens the built post on its own origin under its generator's policy and checks the live figure
 * in it; resolves to failures. */
async function checkPost(browser, site, { policy, ownRefusals = false }) {
  const server = await serveStatic({ "/": site }, { "content-security-policy": policy });
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  // Each refusal, and the element refused (or the document, for one it cannot pin on an element).
  await page.addInitScript(() => {
    window.__refused = [];
    document.addEventListener("securitypolicyviolation", (e) => {
      window.__refused.push({ directive: e.violatedDirective, target: e.target instanceof Element ? e.target : null });
    });
  });
  const failures = [];
  try {
    await page.goto(`${server.url}/`);
    const frame = await page.waitForSelector("iframe", { timeout: 5000 });
    const border = await frame.evaluate((f) => getComputedStyle(f).borderTopWidth);
    if (border !== "0px") failures.push(`the frame has a ${border} border`);
    await frame.scrollIntoViewIfNeeded();
    const guest = await frame.contentFrame();
    await guest.waitForFunction((id) => Number(document.getElementById(id)?.dataset.drawnAt) > 0, FIGURE, { timeout: 30000 });
    // What the policy refused in the snippet (between the post's paragraphs around it) fails; what
    // it refused in the generator's own page fails too, unless that page is known to have such
    // things (mdBook's navigation's `style="clear: both"`): then it is listed.
    const { inSnippet, theme } = await page.evaluate(() => {
      const paragraphs = [...document.querySelectorAll("p")];
      const before = paragraphs.find((p) => p.textContent.trim() === "A post with a live figure in it.");
      const after = paragraphs.find((p) => p.textContent.trim() === "The post goes on after the figure.");
      const inside = (el) =>
        el && before && after &&
        before.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING &&
        after.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_PRECEDING;
      const text = (r) => `${r.directive}: ${r.target ? r.target.outerHTML.slice(0, 100) : "(the document)"}`;
      return {
        inSnippet: window.__refused.filter((r) => !r.target || inside(r.target)).map(text),
        theme: window.__refused.filter((r) => r.target && !inside(r.target)).map(text),
      };
    });
    failures.push(...inSnippet.map((r) => `refused in the snippet: ${r}`));
    if (!ownRefusals) failures.push(...theme.map((r) => `refused: ${r}`));
    else if (theme.length) console.log(`     (the generator's own page: ${theme.length} refused, e.g. ${theme[0]})`);
  } catch (e) {
    failures.push(e.message.split("\n")[0]);
  } finally {
    await page.close();
    await server.close();
  }
  return failures;
}

const app = await serveStatic({ "/": DIST });
const browser = await launchChromium();
let failed = false;
try {
  const snippet = await copySnippet(browser, app.url);
  for (const [name, generator] of Object.entries(GENERATORS)) {
    const work = await mkdtemp(join(tmpdir(), `pe-${name}-`));
    const out = join(work, "_site");
    let failures;
    try {
      await generator.build(snippet, join(work, "src"), out);
      failures = await checkPost(browser, out, generator);
    } catch (e) {
      failures = [e.message];
    } finally {
      await rm(work, { recursive: true, force: true });
    }
    failed ||= failures.length > 0;
    console.log(failures.length ? `FAIL ${name}: ${failures.join("; ")}` : `ok   ${name}: the pasted snippet shows the live figure under "${generator.policy}"`);
  }
} finally {
  await browser.close();
  await app.close();
}
process.exit(failed ? 1 : 0);
