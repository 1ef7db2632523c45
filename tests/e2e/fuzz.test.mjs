// Hostile links at volume: seeded random and malformed query strings over every chapter's keys
// (read from src/params/*.rs, so a new chapter's keys are fuzzed too), each opened at a figure of
// the page, in a phone-sized window (where a shared link is most often opened; and it paints less
// than a desktop window, so the sample runs faster). Every fourth link embeds its figure instead
// (`&embed=<id>` last, as a blog's frame would: the last `embed` wins), so the embed entry point
// meets the same queries. Every case must end with the figure drawn and the whole book (or the
// embed) built (a link into chapter 1 scrolls before the later chapters arrive, which must take
// the query too), no panic banner, no console or page error, no CSP violation, nothing from the
// query rendered as HTML, and the notices collapsed to one line. The hashed files are sent
// cacheable, as a host sends them: the sample is about the query, not the download.
//
//   FUZZ_CASES (default 120, `make fuzz` runs 20000) and FUZZ_SEED (default 1) choose the sample.
//   A link costs the whole page's load, CPU-bound: about 0.35 s on 2 cores with two pages at once
//   when the book had 36 figures (600 took 211 s), about 0.96 s with the five chapters of 2026-12
//   (400 took 386 s, a third of the browser tier), 1.1 s on a slower machine of the same kind
//   (200 took 225 s). 120 keeps the sample's share of `make test` near 2 minutes; `make fuzz` is
//   the volume, and the parsers behind it are swept natively (tests/properties).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdir, readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { openPage, shareBrowser } from "./harness.mjs";

const CASES = Number(process.env.FUZZ_CASES ?? 120);
const SEED = Number(process.env.FUZZ_SEED ?? 1);
const WORKERS = 2;
const PARAMS = resolve(new URL("../../src/params", import.meta.url).pathname);

const env = shareBrowser({ cache: true });

/** Every chapter's URL keys, read from the rows of src/params/*.rs (each row names its key first:
 *  `int!("r.d", …)`, `named!("r.qk", …)`, `own::<View>("rows", …)`, or `key: "r.rot"`), and
 *  `theme`. */
async function chapterKeys() {
  const keys = ["theme"];
  const row = /(?:\b(?:int|even|quarter|float|seed|flag|int_within|sentence|named)(?:_row)?!?\(\s*|\b(?:choice|own|list!)(?:::<\w+>)?\(\s*|\bkey: )"([^"]+)"/g;
  for (const file of await readdir(PARAMS, { recursive: true })) {
    // The row machinery (decl/, listed.rs) names keys only in its examples.
    if (!file.endsWith(".rs") || file.startsWith("decl") || file === "listed.rs") continue;
    const text = await readFile(`${PARAMS}/${file}`, "utf8");
    keys.push(...[...text.matchAll(row)].map((m) => m[1]));
  }
  // Every chapter's keys were found (chapter 1's are unprefixed): a renamed constructor would
  // silently shrink the fuzzed keys otherwise.
  for (const probe of ["n", "s", "pe", "eps", "spacing", "r.rot", "r.pitch", "c.model", "c.cmp", "c.type", "t.m", "t.p", "t.xs", "t.xterm", "m.model", "v.rows", "v.hd", "v.lm"]) {
    assert.ok(keys.includes(probe), `the fuzz found no declaration of ${probe}`);
  }
  return keys;
}

/** mulberry32: a small seeded generator, so a failing case can be replayed. */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const HTML = ['<img class="fuzz-html" src=x>', '<b class="fuzz-html">bold</b>', "<script>window.__fuzzed=1</script>"];
const VALUES = [
  "", "0", "-0", "1", "-1", "-5", "2", "3", "7", "64", "128", "1023", "1024", "1025", "4096", "65536",
  "1e999", "-1e999", "1e-400", "1e308", "9".repeat(400), "NaN", "nan", "inf", "-inf", "Infinity",
  "0.5", "1.5", "2.75", "0x10", " 3 ", "1,2", "1,2,3", "0,50,99", "6,2", "-1,-1", "1e9,1e9", "0-99",
  "99-0", "5-", "light", "dark", "auto", "half", "interleaved", "paper", "fairseq", "both", "heatmap",
  "waves", "on", "off", "ones", "random", "none", "sin", "rope", "٣", "😀", "\u202e", "\u0000",
  "%", "%zz", "%E2%80", "%00", "%2", "a".repeat(1200), "the cat sat", "In the house a cat ate some cheese",
  "word ".repeat(40), ...HTML,
];
const UNKNOWN = ["zzz", "r.zzz", "", "%ZZ", "n.n", "__proto__", "constructor", "embed"];

function pick(r, list) {
  return list[Math.floor(r() * list.length)];
}

/** One random query string (without "?"): raw garbage sometimes, mostly encoded key=value pairs. */
function randomQuery(r, keys) {
  const n = 1 + Math.floor(r() * 8);
  const parts = [];
  for (let i = 0; i < n; i++) {
    const key = r() < 0.9 ? pick(r, keys) : pick(r, UNKNOWN);
    let value = pick(r, VALUES);
    if (r() < 0.15) value = String((r() - 0.5) * 10 ** Math.floor(r() * 12));
    const raw = r() < 0.1;
    parts.push(raw ? `${key}=${value}` : `${encodeURIComponent(key)}=${encodeURIComponent(value)}`);
    if (r() < 0.1) parts.push(parts.at(-1)); // a repeated key
  }
  if (r() < 0.02) parts.push(`s=${"x".repeat(10_000)}`); // over the 8 KB cap
  if (r() < 0.05) parts.push("&&=&=x&%");
  return parts.join("&");
}

test(`${CASES} hostile links (seed ${SEED}): no panic, no error, nothing rendered as HTML`, async () => {
  const keys = await chapterKeys();
  assert.ok(keys.length > 30, `keys read from src/params: ${keys.length}`);
  const r = rng(SEED);
  const cases = Array.from({ length: CASES }, () => randomQuery(r, keys));
  const probe = await openPage(env.browser, env.server.url);
  const figures = await probe.page.$$eval("figure[id^=fig-]", (f) => f.map((x) => x.id));
  await probe.context.close();
  assert.ok(figures.length >= 18);

  const failures = [];
  let done = 0;
  const worker = async (w) => {
    const { page, problems, context } = await openPage(env.browser, env.server.url, { width: 412, height: 640 });
    try {
      for (let i = w; i < cases.length && failures.length < 5; i += WORKERS) {
        const figure = figures[i % figures.length];
        const embed = i % 4 === 3;
        const url = `${env.server.url}?${cases[i]}${embed ? `&embed=${figure}` : ""}#${figure}`;
        problems.length = 0;
        await page.goto(url, { waitUntil: "domcontentloaded" });
        const outcome = await page.evaluate(async (id) => {
          const frame = () => new Promise((ok) => requestAnimationFrame(() => setTimeout(ok, 0)));
          const drawn = () => {
            const fig = document.getElementById(id);
            if (!fig) return false;
            const at = [fig, ...fig.querySelectorAll("[data-drawn-at]")].map((e) => Number(e.dataset.drawnAt) || 0);
            return Math.max(...at) > 0;
          };
          // The figure drawn, and the rest of the book built (a link into chapter 1 scrolls before
          // the later chapters arrive: they must take the query too).
          const built = () => (document.getElementById("app")?.dataset.pending ?? "0") === "0";
          for (let k = 0; k < 120 && !((drawn() && built()) || document.getElementById("panic")); k++) await frame();
          const list = document.querySelector(".notices ul");
          return {
            mounted: !document.getElementById("loading") && !!document.querySelector("#fig-heatmap, .embed figure"),
            embedded: !!document.querySelector(".embed"),
            drawn: drawn(),
            panic: document.getElementById("panic")?.textContent ?? null,
            html: document.querySelectorAll(".fuzz-html").length + (window.__fuzzed ? 1 : 0),
            noticesTall: list ? list.getBoundingClientRect().height > 80 && list.classList.contains("collapsed") : false,
          };
        }, figure);
        done++;
        const wrong = [];
        if (!outcome.mounted) wrong.push("not mounted");
        // An embed link within the query's 8 KB cap shows its figure alone; past the cap its
        // `embed` is cut off with the rest, and the book shows.
        if (outcome.embedded !== (embed && new URL(url).search.length <= 8192)) wrong.push(embed ? "not embedded" : "embedded");
        if (!outcome.drawn) wrong.push(`${figure} not drawn`);
        if (outcome.panic) wrong.push(`panic: ${outcome.panic}`);
        if (outcome.html) wrong.push("query text rendered as HTML");
        if (outcome.noticesTall) wrong.push("collapsed notices taller than one line");
        wrong.push(...problems);
        if (wrong.length) failures.push(`case ${i}: ${url.slice(0, 300)}\n    ${wrong.join("\n    ")}`);
      }
    } finally {
      await context.close();
    }
  };
  await Promise.all(Array.from({ length: WORKERS }, (_, w) => worker(w)));
  console.log(`fuzz: ${done} links opened, ${failures.length} failed (seed ${SEED})`);
  assert.deepEqual(failures, []);
});
