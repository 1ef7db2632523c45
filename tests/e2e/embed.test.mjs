// One live figure in a blog post: `?embed=<figure-id>` shows that figure only (for every figure
// of the registry, src/book.rs), draws it, links back to the full page in the same state, and
// inside a frame on another origin reports its height; every figure's "</>" button gives a
// snippet with the attributes a polite embed needs.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { onPage, openPage, showFigure, shareBrowser } from "./harness.mjs";
import { serveStatic } from "./serve.mjs";

const env = shareBrowser();
const HOST = resolve(new URL("./host", import.meta.url).pathname);
let host;

before(async () => {
  // A blog on another origin, with a strict policy a host may send: no inline styles, so a
  // snippet's `style` attribute would be dropped (and reported).
  host = await serveStatic({ "/": HOST }, { "content-security-policy": "default-src 'self'; frame-src *; style-src 'self'" });
});

after(async () => {
  await host?.close();
});

/** Every figure id of the registry, with its chapter. */
async function registry() {
  const text = await readFile(new URL("../../src/book.rs", import.meta.url), "utf8");
  const out = [];
  let chapter = null;
  // A chapter's `id: "…",` line, or a figure: `fig("fig-…"` or `pic(\n "fig-…"` (with a picture).
  for (const m of text.matchAll(/^\s*id: "([a-z0-9-]+)",$|\b(?:fig|pic)\(\s*"(fig-[a-z0-9-]+)"/gm)) {
    if (m[1]) chapter = m[1];
    else out.push({ id: m[2], chapter });
  }
  return out;
}

/** One non-default state key per chapter, to see it survive the round trip. */
const STATE = { sinusoids: ["n", "64"], rope: ["r.d", "64"], context: ["c.s", "8"], tables: ["t.h", "12"], models: ["m.L", "4096"], vision: ["v.rows", "9"] };

test("every figure embeds alone, draws, and links to the full page in the same state", async (t) => {
  const figures = await registry();
  assert.ok(figures.length >= 23, `registry parsed: ${figures.length}`);
  await onPage(env.browser, env.server.url, async (page) => {
    for (const { id, chapter } of figures) {
      await t.test(id, async () => {
        const [key, value] = STATE[chapter];
        await page.goto(`${env.server.url}?${key}=${value}&embed=${id}`);
        await page.waitForSelector(".embed figure");
        const shown = await page.$$eval("figure[id^=fig-]", (f) => f.map((x) => x.id));
        assert.deepEqual(shown, [id]);
        // The static header is in the HTML of every page; an embed hides it.
        assert.equal(await page.locator("nav.toc, header, section.chapter").filter({ visible: true }).count(), 0, "no header, contents or chapters");
        await showFigure(page, id);
        const full = await page.getAttribute(".embed-caption a", "href");
        const url = new URL(full);
        assert.equal(url.hash, `#${id}`);
        assert.equal(url.searchParams.get(key), value);
        assert.equal(url.searchParams.has("embed"), false);
        assert.equal(await page.getAttribute(".embed-caption a", "target"), "_blank");
        // The address keeps the embed and the state.
        await page.waitForFunction(([k, v]) => new URLSearchParams(location.search).get(k) === v, [key, value]);
        assert.equal(await page.evaluate(() => new URLSearchParams(location.search).get("embed")), id);
      });
    }
    await t.test("the full-page link opens that figure in the same state", async () => {
      await page.goto(`${env.server.url}?c.s=8&embed=fig-ctx-turns`);
      await page.waitForSelector(".embed figure");
      const full = await page.getAttribute(".embed-caption a", "href");
      await page.goto(full);
      await page.waitForSelector("#fig-heatmap canvas");
      assert.equal(await page.inputValue("#ctl-c-s-value"), "8");
      assert.ok(await page.locator("#fig-ctx-turns").count());
    });
    await t.test("an unknown embed id shows the whole book with a notice", async () => {
      await page.goto(`${env.server.url}?embed=fig-nope`);
      await page.waitForSelector("#fig-heatmap canvas");
      assert.match((await page.locator(".notices li").allTextContents()).join(" "), /embed = “fig-nope”/);
    });
  });
});

test("the embed code holds the state, a title, lazy loading, full width, a measured height, no border and a link", async () => {
  const { page, problems, context } = await openPage(env.browser, `${env.server.url}?c.s=8#fig-ctx-turns`);
  try {
    await showFigure(page, "fig-ctx-turns");
    await page.click("#fig-ctx-turns .figure-embed");
    const code = await page.inputValue("#fig-ctx-turns-embed-text");
    // Parsed in a blank page: the explainer's own policy refuses the snippet's style attribute
    // (it is meant for the host page, not for this one).
    const blank = await context.newPage();
    await blank.goto("about:blank");
    const parsed = await blank.evaluate((code) => {
      const doc = new DOMParser().parseFromString(code, "text/html");
      const f = doc.querySelector("iframe");
      const a = doc.querySelector("a");
      return f && {
        src: f.getAttribute("src"),
        title: f.getAttribute("title"),
        loading: f.getAttribute("loading"),
        width: f.getAttribute("width"),
        height: f.getAttribute("height"),
        style: f.getAttribute("style"),
        frameborder: f.getAttribute("frameborder"),
        link: a?.getAttribute("href"),
        image: a?.querySelector("img")?.getAttribute("src"),
        alt: a?.querySelector("img")?.getAttribute("alt"),
        after: !!(f.compareDocumentPosition(a) & Node.DOCUMENT_POSITION_FOLLOWING),
      };
    }, code);
    assert.ok(parsed, code);
    const src = new URL(parsed.src);
    assert.equal(src.searchParams.get("embed"), "fig-ctx-turns");
    assert.equal(src.searchParams.get("c.s"), "8");
    assert.match(parsed.title, /Pairs that turn less than once within L₀/);
    assert.equal(parsed.loading, "lazy");
    assert.equal(parsed.width, "100%");
    assert.ok(Number(parsed.height) > 300, `height ${parsed.height}`);
    // No inline style (a strict host would refuse it); the border goes by the frame attribute.
    assert.equal(parsed.style, null);
    assert.equal(parsed.frameborder, "0");
    assert.ok(parsed.after && new URL(parsed.link).hash === "#fig-ctx-turns");
    // The link holds the figure's static picture (drawn by pe render at build time), served beside
    // the page: a PNG of the figure.
    assert.match(parsed.alt, /Pairs that turn less than once within L₀/);
    assert.equal(new URL(parsed.image).pathname, "/figures/fig-ctx-turns.png");
    const picture = await page.evaluate(async (url) => {
      const r = await fetch(url);
      const bytes = new Uint8Array(await r.arrayBuffer());
      return { status: r.status, type: r.headers.get("content-type"), signature: [...bytes.slice(1, 4)] };
    }, parsed.image);
    assert.equal(picture.status, 200);
    assert.match(picture.type, /image\/png/);
    assert.deepEqual(picture.signature, [0x50, 0x4e, 0x47]);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

/**
 * Opens the sample host page (on another origin) with `iframe`, an iframe's HTML, in its slot;
 * the host's page errors are collected in `errors`, and what its policy refused in
 * `window.refused`.
 */
async function openHost(iframe) {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(`${host.url}/`);
  await page.evaluate((html) => {
    window.refused = [];
    document.addEventListener("securitypolicyviolation", (e) => window.refused.push(`${e.violatedDirective} ${e.blockedURI}`));
    document.getElementById("slot").innerHTML = html;
  }, iframe);
  return { context, page, errors };
}

test("framed on another origin, the figure reports its height and the host page applies it", async () => {
  const { context, page, errors } = await openHost(
    `<iframe src="${env.server.url}?embed=fig-ctx-turns" title="Pairs that turn less than once within L₀ — Positional Encoding Explorer" loading="lazy" width="100%" height="4000" frameborder="0"></iframe>`,
  );
  try {
    // Made too tall, the frame reports its content's height and shrinks to it.
    await page.waitForFunction(() => {
      const h = Number(document.querySelector("iframe").dataset.reportedHeight);
      return h > 400 && h < 4000;
    }, null, { timeout: 10000 });
    // Once the figure has settled, the last report is the frame's content height.
    const frame = page.frames().find((f) => f.url().includes("embed="));
    let reported = 0;
    let inner = -1;
    for (let k = 0; k < 30 && reported !== inner; k++) {
      await page.waitForTimeout(100);
      reported = await page.evaluate(() => Number(document.querySelector("iframe").dataset.reportedHeight));
      inner = await frame.evaluate(() => document.body.offsetHeight);
    }
    assert.equal(reported, inner);
    assert.equal(await page.evaluate(() => document.querySelector("iframe").getBoundingClientRect().height), Math.ceil(inner));
    // A good guest: the frame never takes the host's focus.
    assert.equal(await page.evaluate(() => document.activeElement === document.body), true);
    // The snippet as copied passes the host's strict policy (no inline style) and has no border.
    assert.deepEqual(await page.evaluate(() => window.refused), []);
    assert.equal(await page.evaluate(() => getComputedStyle(document.querySelector("iframe")).borderTopWidth), "0px");
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test("a good guest: the wheel over an embedded figure scrolls the host page, and keys reach the figure only through its controls", async () => {
  const { context, page, errors } = await openHost(
    `<iframe src="${env.server.url}?embed=fig-heatmap" title="The encoding as a table — Positional Encoding Explorer" width="100%" height="400" frameborder="0"></iframe>`,
  );
  try {
    await page.evaluate(() => {
      // A long post: the host page has room to scroll.
      const rest = document.createElement("div");
      rest.style.height = "3000px";
      document.body.append(rest);
    });
    await page.waitForFunction(() => Number(document.querySelector("iframe").dataset.reportedHeight) > 400, null, { timeout: 10000 });
    const frame = page.frames().find((f) => f.url().includes("embed="));
    await frame.waitForFunction(() => Number(document.getElementById("fig-heatmap")?.dataset.drawnAt) > 0, null, { timeout: 10000 });
    const search = await frame.evaluate(() => location.search);
    // The wheel over the figure's canvas scrolls the host page, and changes nothing in the figure.
    await page.evaluate(() => scrollTo(0, document.querySelector("iframe").getBoundingClientRect().top + scrollY - 40));
    const before = await page.evaluate(() => scrollY);
    const box = await frame.locator("#fig-heatmap canvas:not(.layer)").boundingBox();
    const frameBox = await page.locator("iframe").boundingBox();
    await page.mouse.move(frameBox.x + box.x + box.width / 2, frameBox.y + box.y + box.height / 2);
    await page.mouse.wheel(0, 400);
    await page.waitForFunction((y) => scrollY > y + 100, before, { timeout: 3000 });
    assert.equal(await frame.evaluate(() => location.search), search);
    // Keys pressed while the host page has focus do nothing to the figure.
    await page.evaluate(() => document.body.focus());
    for (const key of ["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "+", "-", "Home", "End"]) await page.keyboard.press(key);
    await page.waitForTimeout(200);
    assert.equal(await frame.evaluate(() => location.search), search);
    assert.equal(await page.evaluate(() => document.activeElement === document.body), true);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});
