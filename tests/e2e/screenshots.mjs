// Screenshots of the built app for the README and for looking at: 1280 px and 390 px wide, light
// and dark. Usage: node tests/e2e/screenshots.mjs OUTPUT_DIR
import { mkdir } from "node:fs/promises";
import { serveDist, launch, openPage } from "./harness.mjs";

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
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${out}/${name}.png`, fullPage: true });
    if (problems.length) console.error(name, problems);
    console.log(`${out}/${name}.png`);
    await context.close();
  }
} finally {
  await browser.close();
  await server.close();
}
