// What an embed fetches, learnt from the built page itself, so that boot.js can start those
// downloads beside the main module's instead of after it (issues 27, 30, 31: "an embed of one of
// these figures is live within 2.0 s").
//
//   node tools/embed-preload.mjs SITE      (tools/build.mjs runs it on its staged site)
//
// A build split by chapter (src/app/chapters) gives each later chapter a wasm module, plus the
// modules it shares with others; an embed fetches them only once the main module has loaded and
// the app has asked for its figure's chapter — a second wait of a few round trips and a download
// that could have shared the first. No table written by hand says which figure needs which files:
// this opens the staged site in Debian's Chromium, reads every figure id from the book, opens
// `?embed=<id>` for each and records the wasm modules it requests besides the main one. The list
// goes to SITE/embeds-<hash>.json ({"groups": [{"figures": [ids], "files": [names]}]}, figures that
// fetch the same files grouped), named in the boot script's `data-embeds`; boot.js reads it for an
// embed only, and preloads that figure's files. The build fails if an embed does not draw.

import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

import { launchChromium, serveStatic } from "../tests/e2e/serve.mjs";

/** An embed that has not drawn by then fails the build. */
const TIMEOUT_MS = 30000;

/** The figure ids of the book, in reading order, once every part of it is built. */
async function figureIds(browser, url) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  try {
    await page.goto(url);
    await page.waitForFunction(() => document.getElementById("app")?.dataset.pending === "0" && !document.getElementById("loading"), null, {
      timeout: TIMEOUT_MS,
    });
    return await page.evaluate(() => [...document.querySelectorAll('figure[id^="fig-"]')].map((f) => f.id));
  } finally {
    await page.close();
  }
}

/** The wasm files (names in the site's root) that `?embed=id` fetches besides `main`. */
async function embedFiles(browser, url, id, main) {
  const page = await browser.newPage({ viewport: { width: 720, height: 900 } });
  const files = new Set();
  page.on("request", (request) => {
    const name = new URL(request.url()).pathname.split("/").pop();
    if (name.endsWith(".wasm") && name !== main) files.add(name);
  });
  try {
    await page.goto(`${url}?embed=${id}`);
    // Drawn: a figure with a picture has a `data-drawn-at` above 0 after its first draw; the
    // comparison table, which is text, is there once its chapter's code is.
    await page.waitForFunction(
      (id) => {
        const fig = document.querySelector(`.embed #${id}`);
        return fig && (!fig.querySelector("canvas") || Number(fig.dataset.drawnAt) > 0);
      },
      id,
      { timeout: TIMEOUT_MS },
    );
    return [...files].sort();
  } finally {
    await page.close();
  }
}

/** Writes SITE/embeds-<hash>.json and names it in SITE/index.html's boot script (`data-embeds`);
 * returns its name and how many figures and groups it lists. */
export async function embedPreloads(site) {
  const index = join(site, "index.html");
  const html = readFileSync(index, "utf8");
  const main = html.match(/data-wasm="\.\/([^"]+\.wasm)"/)?.[1];
  if (!main) throw new Error("index.html names no main wasm (data-wasm)");
  const server = await serveStatic({ "/": site });
  const browser = await launchChromium();
  const groups = new Map();
  let count = 0;
  try {
    const url = `${server.url}/`;
    const ids = await figureIds(browser, url);
    if (ids.length === 0) throw new Error("the book shows no figure");
    for (const id of ids) {
      const files = await embedFiles(browser, url, id, main);
      const key = files.join(" ");
      if (!groups.has(key)) groups.set(key, { figures: [], files });
      groups.get(key).figures.push(id);
      count += 1;
    }
  } finally {
    await browser.close();
    await server.close();
  }
  // A figure that fetches nothing more needs no entry.
  const list = { groups: [...groups.values()].filter((g) => g.files.length > 0) };
  const body = JSON.stringify(list);
  const name = `embeds-${createHash("sha256").update(body).digest("hex").slice(0, 16)}.json`;
  writeFileSync(join(site, name), body);
  // The attribute goes beside data-wasm, in the one tag Trunk.toml's pattern_script spells.
  const tags = html.match(/ data-wasm="/g)?.length ?? 0;
  if (tags !== 1) throw new Error(`index.html has ${tags} tags with data-wasm, not 1`);
  const named = html.replace(/ data-embeds="[^"]*"/, "").replace(/ data-wasm="/, ` data-embeds="./${name}" data-wasm="`);
  writeFileSync(index, named);
  return { name, figures: count, groups: list.groups.length };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const site = process.argv[2];
  if (!site) {
    console.error("usage: node tools/embed-preload.mjs SITE");
    process.exit(2);
  }
  const { name, figures, groups } = await embedPreloads(site);
  console.log(`embed-preload: ${name}, ${figures} figures in ${groups} groups`);
}
