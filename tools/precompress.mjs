#!/usr/bin/env node
// Writes `<file>.br` (brotli, quality 11) and `<file>.gz` (gzip, level 9) next to every text asset of
// a built site (html, js, css, wasm, svg, json), for hosts that serve pre-compressed files (nginx's
// `brotli_static` / `gzip_static`, Caddy's `precompressed`, a CDN fed from the folder). A host that
// compresses on the fly ignores them.
//
//   node tools/precompress.mjs [DIR]
//
// DIR defaults to $TRUNK_STAGING_DIR: Trunk runs this as its post-build hook (Trunk.toml), and
// tools/build.mjs runs it on its stage, so every build writes them afresh and they never outlive the
// file they compress.
// Node's own zlib does the work: nothing to install. Quality 11 is what a build can afford and an
// on-the-fly host cannot (measured on the wasm: about 20 % smaller than gzip's best).

import { readdir, readFile, writeFile } from "node:fs/promises";
import { extname, join } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

/** The kinds of files worth compressing; images and fonts already are. */
const COMPRESSIBLE = new Set([".html", ".js", ".mjs", ".css", ".wasm", ".svg", ".json"]);

/** Every file under `dir`, recursively. */
async function* files(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else if (entry.isFile()) yield path;
  }
}

/** The brotli and gzip encodings of `body`, at the best settings. */
function encodings(body) {
  return {
    br: brotliCompressSync(body, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    }),
    gz: gzipSync(body, { level: 9 }),
  };
}

const dir = process.argv[2] ?? process.env.TRUNK_STAGING_DIR;
if (!dir) {
  console.error("usage: node tools/precompress.mjs DIR (or run as Trunk's post-build hook)");
  process.exit(2);
}
let written = 0;
for await (const path of files(dir)) {
  if (!COMPRESSIBLE.has(extname(path))) continue;
  const body = await readFile(path);
  for (const [suffix, packed] of Object.entries(encodings(body))) {
    // A host sends the smaller one; one that is not smaller is not worth a file.
    if (packed.length < body.length) {
      await writeFile(`${path}.${suffix}`, packed);
      written += 1;
    }
  }
}
console.log(`precompress: ${written} files written in ${dir}`);
