// What the browser tests and the browser benchmark (benches/browser/run.mjs) share, without
// playwright: a static file server on 127.0.0.1 and the flags Debian's Chromium runs with.
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { extname, join, normalize, sep } from "node:path";

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

/**
 * Serves folders on 127.0.0.1 at a free port. `mounts` maps URL prefixes ending in "/" to folders
 * (the longest matching prefix wins; a path ending in "/" serves its index.html); `headers` are
 * added to every response, after the Content-Security-Policy header ([`CSP`]). Resolves to { url (no trailing slash), close }.
 */
export async function serveStatic(mounts, headers = {}) {
  const sorted = Object.entries(mounts).sort((a, b) => b[0].length - a[0].length);
  const server = createServer(async (req, res) => {
    try {
      const path = decodeURIComponent(new URL(req.url, "http://x").pathname);
      const [prefix, root] = sorted.find(([p]) => path.startsWith(p)) ?? [];
      if (root === undefined) throw new Error("not mounted");
      const rel = path.slice(prefix.length - 1);
      let file = normalize(join(root, rel));
      if (file !== root && !file.startsWith(root + sep)) throw new Error("outside the served folder");
      if (rel.endsWith("/")) file = join(file, "index.html");
      const body = await readFile(file);
      res.writeHead(200, {
        "content-type": TYPES[extname(file)] ?? "application/octet-stream",
        "content-security-policy": CSP,
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
