// What the browser tests and the browser benchmark (benches/browser/run.mjs) share, without
// playwright: a static file server on 127.0.0.1 and the flags Debian's Chromium runs with.
import { createServer } from "node:http";
import { access, readFile, stat } from "node:fs/promises";
import { basename, extname, join, normalize, sep } from "node:path";
import { gzipSync } from "node:zlib";

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".wasm": "application/wasm",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".json": "application/json",
  ".woff2": "font/woff2",
};

/**
 * The policy the page runs under (index.html ships it as a <meta>; a browser test checks the two
 * agree). Every response of this server carries it as a header, as a strict host would send it.
 */
export const CSP =
  "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data: blob:; object-src 'none'; base-uri 'none'";

/** The types worth compressing (everything else served here is already compressed or tiny). */
const COMPRESSIBLE = new Set([".html", ".js", ".mjs", ".css", ".wasm", ".svg", ".json"]);

/**
 * Trunk's content-hashed names (`pe-explorer-1093b1888258d31a_bg.wasm`, `style-532e9774797a5ae.css`:
 * a dash and 12–16 hex digits before the extension) never change content, so a host may cache them
 * for a year; so may `boot.js?v=<hashed name>`, whose query changes with every build.
 */
const HASHED = /-[0-9a-f]{12,16}(_bg)?\.[a-z0-9]+$/;

/**
 * Serves folders on 127.0.0.1 at a free port. `mounts` maps URL prefixes ending in "/" to folders
 * (the longest matching prefix wins; a path ending in "/" serves its index.html); `headers` are
 * added to every response, after the Content-Security-Policy header ([`CSP`]) and the headers the
 * options below add. Resolves to { url (no trailing slash), close }.
 *
 * `options` make the server behave like a production host (both off by default, as the browser
 * tests expect plain responses):
 *   - `gzip`: html, js, css, wasm, svg and json responses are gzip-compressed (zlib's default
 *     level, as most hosts and CDNs use) when the request's Accept-Encoding lists gzip, with
 *     `content-encoding: gzip` and `vary: accept-encoding`; each file is compressed once.
 *   - `brotli`: where the request's Accept-Encoding lists br and the file has a pre-compressed
 *     copy beside it (`<file>.br`, written by tools/precompress.mjs at build time), that copy is
 *     sent with `content-encoding: br`, as a host serving the pre-compressed files does; otherwise
 *     the response is as with `gzip`.
 *   - `cache`: content-hashed assets ([`HASHED`], or any URL with a `?v=` query) are sent with
 *     `cache-control: public, max-age=31536000, immutable`, everything else with `no-cache`.
 */
export async function serveStatic(mounts, headers = {}, { gzip = false, brotli = false, cache = false } = {}) {
  const sorted = Object.entries(mounts).sort((a, b) => b[0].length - a[0].length);
  /** file → { mtimeMs, size, gz }: the compressed body, recomputed when the file changes. */
  const compressed = new Map();
  const server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url, "http://x");
      const path = decodeURIComponent(url.pathname);
      const [prefix, root] = sorted.find(([p]) => path.startsWith(p)) ?? [];
      if (root === undefined) throw new Error("not mounted");
      const rel = path.slice(prefix.length - 1);
      let file = normalize(join(root, rel));
      if (file !== root && !file.startsWith(root + sep)) throw new Error("outside the served folder");
      if (rel.endsWith("/")) file = join(file, "index.html");
      let body = await readFile(file);
      const extra = {};
      if (cache) {
        const hashed = HASHED.test(basename(file)) || url.searchParams.has("v");
        extra["cache-control"] = hashed ? "public, max-age=31536000, immutable" : "no-cache";
      }
      const accepts = (name) => new RegExp(`\\b${name}\\b`).test(req.headers["accept-encoding"] ?? "");
      const precompressed = brotli && COMPRESSIBLE.has(extname(file)) && accepts("br") && (await exists(`${file}.br`));
      if (precompressed) {
        extra.vary = "accept-encoding";
        body = await readFile(`${file}.br`);
        extra["content-encoding"] = "br";
      } else if ((gzip || brotli) && COMPRESSIBLE.has(extname(file))) {
        extra.vary = "accept-encoding";
        if (accepts("gzip")) {
          const { mtimeMs } = await stat(file);
          let hit = compressed.get(file);
          if (!hit || hit.mtimeMs !== mtimeMs || hit.size !== body.length) {
            hit = { mtimeMs, size: body.length, gz: gzipSync(body) };
            compressed.set(file, hit);
          }
          body = hit.gz;
          extra["content-encoding"] = "gzip";
        }
      }
      res.writeHead(200, {
        "content-type": TYPES[extname(file)] ?? "application/octet-stream",
        "content-security-policy": CSP,
        ...extra,
        ...headers,
      });
      res.end(body);
    } catch {
      res.writeHead(404, { "content-type": "text/plain" });
      res.end("not found");
    }
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  const { port } = server.address();
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((ok) => server.close(ok)) };
}

/** Whether `path` exists. */
async function exists(path) {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Launches Debian's Chromium (or $CHROMIUM) with [`CHROMIUM_ARGS`], through the playwright-core
 * that tests/e2e installs (imported only when called, so that this module needs no playwright):
 * the one launch of the benches, the build's first-screen copy and `make hosts`.
 */
export async function launchChromium() {
  const { chromium } = await import(new URL("./node_modules/playwright-core/index.mjs", import.meta.url).href);
  return chromium.launch({ executablePath: process.env.CHROMIUM || "/usr/bin/chromium", args: CHROMIUM_ARGS });
}

/** Debian's Chromium, headless, quiet, offline. */
export const CHROMIUM_ARGS = [
  "--headless=new",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-dev-shm-usage",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
