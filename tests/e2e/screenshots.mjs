// Screenshots of the built app for the README and for looking at: 1280 px and 390 px wide, light
// and dark. Usage: node tests/e2e/screenshots.mjs OUTPUT_DIR
import { mkdir } from "node:fs/promises";
import { resolve } from "node:path";
import { serveDist, launch, openPage, showFigure } from "./harness.mjs";
import { serveStatic } from "./serve.mjs";

const out = process.argv[2] ?? "docs";
await mkdir(out, { recursive: true });
const server = await serveDist();
const browser = await launch();
try {
  for (const [name, width, scheme] of [
    ["desktop-light", 1280, "light"],
    ["desktop-dark", 1280, "dark"],
    ["mobile-light", 390, "light"],
    ["mobile-dark", 390, "dark"],
  ]) {
    const { page, problems, context } = await openPage(
      browser,
      server.url + "?pos=37",
      { width, height: 900 },
      { colorScheme: scheme, deviceScaleFactor: width < 500 ? 2 : 1 },
    );
    // Figures draw when they come near the viewport: visit each one before the full-page shot.
    const ids = await page.$$eval("figure[id^=fig-]", (figs) => figs.map((f) => f.id));
    for (const id of ids) await showFigure(page, id);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${out}/${name}.png`, fullPage: true });
    if (name === "desktop-light") {
      // The README's picture: one screen, the controls beside the heatmap.
      await page.evaluate(() => {
        const top = document.getElementById("fig-heatmap").getBoundingClientRect().top;
        window.scrollBy(0, top - 150);
      });
      await page.waitForTimeout(200);
      await page.screenshot({ path: `${out}/hero.png` });
      console.log(`${out}/hero.png`);
      // Chapter 2's opening figures.
      await page.evaluate(() => {
        const top = document.getElementById("fig-rope-2d").getBoundingClientRect().top;
        window.scrollBy(0, top - 20);
      });
      await page.waitForTimeout(200);
      await page.screenshot({ path: `${out}/rope.png` });
      console.log(`${out}/rope.png`);
      // Chapter 3's first figures, beside its controls.
      await page.evaluate(() => {
        const top = document.getElementById("fig-ctx-turns").getBoundingClientRect().top;
        window.scrollBy(0, top - 20);
      });
      await page.waitForTimeout(200);
      await page.screenshot({ path: `${out}/context.png` });
      console.log(`${out}/context.png`);
      // Chapter 4: ALiBi's bias of one head and the small multiples of every head.
      await page.evaluate(() => {
        const top = document.getElementById("fig-tab-alibi").getBoundingClientRect().top;
        window.scrollBy(0, top - 20);
      });
      await page.waitForTimeout(200);
      await page.screenshot({ path: `${out}/tables.png` });
      console.log(`${out}/tables.png`);
    }
    if (problems.length) console.error(name, problems);
    console.log(`${out}/${name}.png`);
    await context.close();
  }
  // An embedded figure in a sample blog post (tests/e2e/host), on another origin, at 1280 and
  // 390 px: the snippet of the figure's "</>" button, the frame grown to the reported height.
  const host = await serveStatic(
    { "/": resolve(new URL("./host", import.meta.url).pathname) },
    { "content-security-policy": "default-src 'self'; frame-src *; style-src 'self'" },
  );
  try {
    for (const width of [1280, 390]) {
      // Tall enough that the whole frame is on screen (figures draw when they come into view).
      const context = await browser.newContext({ viewport: { width, height: 2400 }, deviceScaleFactor: width < 500 ? 2 : 1 });
      const page = await context.newPage();
      await page.goto(`${host.url}/`);
      await page.evaluate((src) => {
        document.getElementById("slot").innerHTML =
          `<iframe src="${src}" title="Pairs that turn less than once within L₀ — Positional Encoding Explorer" loading="lazy" width="100%" height="600" frameborder="0"></iframe>`;
      }, `${server.url}?embed=fig-ctx-turns`);
      await page.waitForFunction(() => Number(document.querySelector("iframe").dataset.reportedHeight) > 0, null, { timeout: 15000 });
      await page.waitForTimeout(500);
      await page.screenshot({ path: `${out}/embed-${width}.png`, fullPage: true });
      console.log(`${out}/embed-${width}.png`);
      await context.close();
    }
  } finally {
    await host.close();
  }
} finally {
  await browser.close();
  await server.close();
}
