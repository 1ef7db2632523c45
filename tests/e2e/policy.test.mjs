// The page under a strict Content-Security-Policy, sent as a header on every response (serve.mjs)
// and shipped as a <meta> in index.html: no inline script or style, no violation, nothing from
// another origin; a wasm that fails to load is reported at once.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { onPage, showFigure, watchPolicy, shareBrowser } from "./harness.mjs";
import { CSP } from "./serve.mjs";

const DIST = resolve(new URL("../../dist", import.meta.url).pathname);
const env = shareBrowser();

test("index.html ships the same policy as a <meta>, and has no inline script or style", async () => {
  const html = await readFile(`${DIST}/index.html`, "utf8");
  const meta = html.match(/<meta http-equiv="Content-Security-Policy" content="([^"]*)"/);
  assert.ok(meta, "a CSP <meta>");
  assert.equal(meta[1], CSP);
  const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
  assert.ok(scripts.length >= 1);
  for (const [, attrs, body] of scripts) {
    assert.match(attrs, /\bsrc="/, `every script is a file: <script${attrs}>`);
    assert.equal(body.trim(), "", "and has no inline body");
  }
  assert.doesNotMatch(html, /<style\b/);
  assert.doesNotMatch(html, /\sstyle="/);
  assert.doesNotMatch(html, /\son[a-z]+="/, "no inline event handlers");
});

test("under the policy header every figure of every chapter draws, with no violation", async () => {
  await onPage(env.browser, `${env.server.url}?theme=dark`, async (page) => {
    const ids = await page.$$eval("figure[id^=fig-]", (f) => f.map((x) => x.id));
    assert.ok(ids.length >= 18, `only ${ids.length} figures`);
    for (const id of ids) await showFigure(page, id);
    // Controls that change inline geometry (the styles set from Rust go through the CSSOM, which
    // the policy allows; a style attribute written as text would not be).
    await page.locator("#ctl-d").focus();
    await page.keyboard.press("ArrowRight");
    await page.locator("#ctl-r-d").focus();
    await page.keyboard.press("ArrowLeft");
    await page.waitForTimeout(200);
    assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), "dark");
  });
});

for (const [what, fulfil] of [
  ["is missing (404)", (route) => route.fulfill({ status: 404, body: "not found" })],
  ["is blocked", (route) => route.abort("blockedbyclient")],
]) {
  test(`when the wasm ${what}, the loading message says so at once`, async () => {
    const context = await env.browser.newContext();
    const page = await context.newPage();
    const problems = [];
    await watchPolicy(page, env.server.url, problems);
    await page.route(/_bg\.wasm$/, fulfil);
    const started = Date.now();
    await page.goto(env.server.url);
    await page.waitForSelector("#loading.failed", { timeout: 3000 });
    const text = await page.textContent("#loading p");
    assert.match(text, /could not start/);
    assert.ok(Date.now() - started < 3000, "well before the 15 s watchdog");
    assert.deepEqual(problems.filter((p) => p.startsWith("CSP")), []);
    await context.close();
  });
}
