// The book's first screen before its code (issue 27, "pictures and text before code"): a copy of
// what the app builds above and around the book's first figure, at the default state, put into the
// built index.html, with pictures of that figure drawn by `pe render` in that same state. boot.js
// shows it only to a link that leaves every setting at its default (no query but `theme`, no
// fragment, no `embed`), until the app has built the real one; the figure's picture then stays
// over the live canvas until the live figure first draws.
//
//   node tools/first-view.mjs SITE      (tools/build.mjs runs it on its staged site)
//
// Nothing here is written by hand: the text and layout are the app's own DOM, taken from the
// built page in Debian's Chromium (so the copy cannot drift from the live page), and the pictures
// are the figure's chart code on plotters' SVG backend (`pe render`), one per theme at each width
// in WIDTHS; boot.js picks the one nearest the width the figure gets on the reader's screen. The
// build fails if the live canvas and `pe render` disagree on the figure's height at the width
// measured here, or if the copy holds anything it cannot show faithfully (another canvas).

import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

import { launchChromium, serveStatic } from "../tests/e2e/serve.mjs";

const ROOT = resolve(new URL("..", import.meta.url).pathname);
/** The book's first figure, the one the copy ends with. */
const FIGURE = "fig-attention";
/** Canvas widths (CSS px) drawn for each theme: from `pe render`'s narrowest to the widest the
 * page gives the figure (984 px, measured below), about 40 px apart, so that a picture is at most
 * about 3 % narrower or wider than its box. */
const WIDTHS = [320, 360, 400, 440, 480, 520, 560, 600, 640, 680, 720, 760, 800, 840, 880, 920, 960, 984];
const THEMES = ["light", "dark"];
const FOLDER = "first-view";

/** In the page: the copy of `#app` from its start to the end of figure `id`, as HTML. */
function copyFirstScreen(id) {
  const app = document.getElementById("app");
  const figure = document.getElementById(id);
  if (!app || !figure) throw new Error(`no #app or #${id}`);
  // Form controls keep their state in properties: write it into attributes, which a copy keeps.
  for (const input of app.querySelectorAll("input")) {
    if (input.type === "checkbox" || input.type === "radio") input.toggleAttribute("checked", input.checked);
    else input.setAttribute("value", input.value);
  }
  for (const option of app.querySelectorAll("option")) option.toggleAttribute("selected", option.selected);
  const size = figure.querySelector("canvas:not(.layer)").getBoundingClientRect();
  const copy = app.cloneNode(true);
  // Cut everything after the figure, at every level up to #app.
  let at = copy.querySelector(`#${id}`);
  const end = at;
  while (at && at !== copy) {
    while (at.nextSibling) at.nextSibling.remove();
    at = at.parentNode;
  }
  // The figure's canvases become one picture, sized by the same rule as the live canvas.
  const wrap = end.querySelector(".canvas-wrap");
  wrap.replaceChildren();
  const picture = document.createElement("img");
  picture.className = "first-picture";
  picture.setAttribute("alt", "");
  wrap.append(picture);
  if (copy.querySelector("canvas")) throw new Error("the copy holds a canvas besides the figure's");
  // No ids (the live page is built beside the copy), nothing that refers to one, no inline style
  // (the page's policy refuses it), none of the app's bookkeeping.
  const dropped = ["id", "for", "style", "tabindex", "aria-controls", "aria-describedby", "aria-labelledby", "aria-live"];
  for (const el of copy.querySelectorAll("*")) {
    for (const name of dropped) el.removeAttribute(name);
    for (const { name } of [...el.attributes]) if (name.startsWith("data-")) el.removeAttribute(name);
  }
  const walker = document.createTreeWalker(copy, NodeFilter.SHOW_COMMENT);
  const comments = [];
  while (walker.nextNode()) comments.push(walker.currentNode);
  for (const c of comments) c.remove();
  return { html: copy.innerHTML, width: size.width, height: size.height };
}

/** `pe render FIGURE` as SVG at `width`, in `theme`; returns the SVG and its height. */
function render(pe, width, theme) {
  const out = join(ROOT, "target", `first-view-${theme}-${width}.svg`);
  const result = spawnSync(pe, ["render", FIGURE, "--format", "svg", "--width", String(width), "--theme", theme, "--out", out], {
    cwd: ROOT,
    encoding: "utf8",
  });
  if (result.status !== 0) throw new Error(`pe render ${FIGURE} --width ${width}: ${result.stderr || result.error}`);
  const { height } = JSON.parse(result.stdout);
  const svg = readFileSync(out);
  rmSync(out);
  return { svg, height };
}

/** Writes the first screen's copy into SITE/index.html and its pictures into SITE/first-view/. */
export async function firstView(site) {
  const pe = join(ROOT, "target", "debug", "pe");
  const build = spawnSync("cargo", ["build", "--quiet", "--bin", "pe"], { cwd: ROOT, stdio: "inherit" });
  if (build.status !== 0) throw new Error("cargo build --bin pe failed");

  const server = await serveStatic({ "/": site });
  const browser = await launchChromium();
  let copy;
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(`${server.url}/`);
    // Drawn (its `data-drawn-at` is 0 until then): the canvas has the height the app gave it.
    await page.waitForFunction((id) => Number(document.getElementById(id)?.dataset.drawnAt) > 0, FIGURE, { timeout: 60000 });
    copy = await page.evaluate(copyFirstScreen, FIGURE);
    if (errors.length) throw new Error(`the page failed: ${errors[0]}`);
  } finally {
    await browser.close();
    await server.close();
  }

  if (!WIDTHS.includes(Math.round(copy.width))) {
    throw new Error(`the page gives ${FIGURE} ${copy.width} px at 1280 px, not a width in WIDTHS`);
  }
  const folder = join(site, FOLDER);
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  const lists = {};
  for (const theme of THEMES) {
    const names = [];
    for (const width of WIDTHS) {
      const { svg, height } = render(pe, width, theme);
      if (width === Math.round(copy.width) && Math.abs(height - copy.height) > 0.5) {
        throw new Error(`at ${width} px the page's ${FIGURE} is ${copy.height} px tall, pe render's ${height}`);
      }
      const name = `${FIGURE}-${theme}-${width}-${createHash("sha256").update(svg).digest("hex").slice(0, 16)}.svg`;
      writeFileSync(join(folder, name), svg);
      names.push(`${width}:${FOLDER}/${name}`);
    }
    lists[theme] = names.join(" ");
  }
  const html = copy.html.replace(
    '<img class="first-picture" alt="">',
    `<img class="first-picture" alt="" data-light="${lists.light}" data-dark="${lists.dark}">`,
  );
  if (html === copy.html) throw new Error("the copy has no picture");
  const index = join(site, "index.html");
  const page = readFileSync(index, "utf8");
  const main = '<main id="app"></main>';
  if (!page.includes(main)) throw new Error(`index.html has no ${main}`);
  const block = `<main id="app"><div class="first-screen" data-figure="${FIGURE}" inert aria-hidden="true">${html}</div></main>`;
  writeFileSync(index, page.replace(main, block));
  return { bytes: Buffer.byteLength(html), pictures: WIDTHS.length * THEMES.length };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const site = process.argv[2];
  if (!site) {
    console.error("usage: node tools/first-view.mjs SITE");
    process.exit(2);
  }
  firstView(resolve(site))
    .then(({ bytes, pictures }) => console.log(`first view: ${bytes} bytes of HTML, ${pictures} pictures`))
    .catch((e) => {
      console.error(`first view: ${e.message}`);
      process.exit(1);
    });
}
