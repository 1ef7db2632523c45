// Numbers and files for the browser benchmark's report (run.mjs): percentiles, a text table, the
// release bundle's sizes (raw, gzip -9, brotli -11) and a snapshot of dist/ to notice a build
// landing during a run.

import { existsSync } from "node:fs";
import { readFile, readdir, stat } from "node:fs/promises";
import { extname, join, relative } from "node:path";
import { brotliCompressSync, gzipSync, constants as zlib } from "node:zlib";

/** Nearest-rank percentile of a sorted array. */
export function pct(sorted, q) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

export function summarize(samples) {
  const s = [...samples].sort((a, b) => a - b);
  return { count: s.length, p50: pct(s, 0.5), p95: pct(s, 0.95), max: s.at(-1) ?? NaN };
}

export const ms = (v) => (Number.isFinite(v) ? v.toFixed(2) : "—");
export const kb = (bytes) => (bytes / 1000).toFixed(1);

export function table(headers, rows, rightAligned) {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells) =>
    cells
      .map((c, i) => (rightAligned.has(i) ? String(c).padStart(widths[i]) : String(c).padEnd(widths[i])))
      .join("  ")
      .trimEnd();
  return [line(headers), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n");
}

export async function filesUnder(dir) {
  const out = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.name.startsWith(".")) continue; // e.g. trunk's .stage while a build is under way
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await filesUnder(path)));
    else out.push(path);
  }
  return out;
}

/** Names, sizes and times of DIST_DIR's files, to notice a build landing during the run. */
export async function distSnapshot(dist) {
  if (!existsSync(dist)) return "";
  const files = await filesUnder(dist);
  const parts = await Promise.all(files.map(async (f) => `${relative(dist, f)}:${(await stat(f)).size}:${(await stat(f)).mtimeMs}`));
  return parts.sort().join("\n");
}

export async function bundleSize(dist) {
  const files = (await filesUnder(dist)).filter((f) => [".wasm", ".js", ".css"].includes(extname(f))).sort();
  const rows = [];
  for (const file of files) {
    const body = await readFile(file);
    const brotli = brotliCompressSync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY } }).length;
    rows.push({ file: relative(dist, file), raw: body.length, gzip: gzipSync(body, { level: zlib.Z_BEST_COMPRESSION }).length, brotli });
  }
  return {
    files: rows,
    raw: rows.reduce((a, r) => a + r.raw, 0),
    gzip: rows.reduce((a, r) => a + r.gzip, 0),
    brotli: rows.reduce((a, r) => a + r.brotli, 0),
  };
}
