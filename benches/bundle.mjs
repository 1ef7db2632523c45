#!/usr/bin/env node
// What each part of the book costs in the wasm (`make bench`, after `make build`): the release wasm
// before wasm-bindgen (target/wasm32-unknown-unknown/release/pe-explorer.wasm, which keeps its
// function names) goes through the same steps as Trunk's build — wasm-bindgen, then wasm-opt -Oz —
// with the names kept (-g), and every function body is counted in one group by its Rust path:
//
//   chapter 1…4   the chapter's own layers: app::chapters::<c>, app::figures::<c>, app::state::<c>,
//                 scene::<c>, params::<c> (chapter 4 includes the closing comparison, timeline
//                 and quiz)
//   ours, shared  every other pe_explorer function (math, chart, the figure frame, controls, export…)
//   Leptos        leptos, tachys, reactive_graph and their helpers
//   plotters, serde_json, Rust std (core, alloc, std, compiler_builtins, dlmalloc), wasm-bindgen
//                 (wasm_bindgen, js_sys, web_sys)
//   unnamed       generic glue whose name says no owner (`<T as …>::…`, closures' call shims)
//
// plus the data section (text of the prose, tables, vtables). For each group: the bytes of its
// function bodies and their gzip -9 size compressed on their own (a group's share of the .wasm's
// gzip size, not exactly additive). A measurement: exit 0 whatever the numbers.
//
//   node benches/bundle.mjs [WASM]
//
// BUNDLE_DEBUG="<group name>" also lists that group's functions with their sizes, to see what to
// shrink (e.g. BUNDLE_DEBUG="chapter 2 · RoPE").

import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync, constants as zlib } from "node:zlib";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const INPUT = resolve(process.argv[2] ?? join(ROOT, "target/wasm32-unknown-unknown/release/pe-explorer.wasm"));
if (!existsSync(INPUT)) {
  console.error(`no ${INPUT}: run \`make build\` first`);
  process.exit(1);
}
const PATH = `${join(ROOT, "tools/node_modules/.bin")}:${process.env.HOME}/.cargo/bin:${process.env.PATH}`;
const run = (cmd, args) => execFileSync(cmd, args, { env: { ...process.env, PATH }, stdio: ["ignore", "ignore", "inherit"] });

// The release pipeline, names kept.
const dir = mkdtempSync(join(tmpdir(), "pe-bundle-"));
let wasm;
try {
  run("wasm-bindgen", ["--out-dir", dir, "--target", "web", "--keep-debug", INPUT]);
  const features = ["bulk-memory", "nontrapping-float-to-int", "sign-ext", "mutable-globals", "multivalue", "reference-types"];
  run("wasm-opt", ["-Oz", "-g", ...features.map((f) => `--enable-${f}`), join(dir, "pe-explorer_bg.wasm"), "-o", join(dir, "opt.wasm")]);
  wasm = readFileSync(join(dir, "opt.wasm"));
} finally {
  rmSync(dir, { recursive: true, force: true });
}

// ---------------------------------------------------------------- a minimal wasm reader

function leb(buf, at) {
  let value = 0;
  let shift = 0;
  for (;;) {
    const byte = buf[at++];
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
    if (byte < 0x80) return [value, at];
  }
}

const sections = [];
for (let at = 8; at < wasm.length; ) {
  const id = wasm[at];
  const [size, start] = leb(wasm, at + 1);
  sections.push({ id, start, end: start + size });
  at = start + size;
}

/** Function imports come first in the function index space. */
let imported = 0;
for (const s of sections.filter((s) => s.id === 2)) {
  let [count, at] = leb(wasm, s.start);
  for (let i = 0; i < count; i++) {
    for (let k = 0; k < 2; k++) {
      const [len, next] = leb(wasm, at);
      at = next + len;
    }
    const kind = wasm[at++];
    if (kind === 0) {
      imported++;
      [, at] = leb(wasm, at);
    } else if (kind === 1) {
      at += 1;
      const [flags, next] = leb(wasm, at);
      [, at] = leb(wasm, next);
      if (flags & 1) [, at] = leb(wasm, at);
    } else if (kind === 2) {
      const [flags, next] = leb(wasm, at);
      [, at] = leb(wasm, next);
      if (flags & 1) [, at] = leb(wasm, at);
    } else if (kind === 3) at += 2;
    else if (kind === 4) [, at] = leb(wasm, at + 1);
  }
}

/** Function bodies in index order. */
const bodies = [];
for (const s of sections.filter((s) => s.id === 10)) {
  let [count, at] = leb(wasm, s.start);
  for (let i = 0; i < count; i++) {
    const [size, start] = leb(wasm, at);
    bodies.push(wasm.subarray(start, start + size));
    at = start + size;
  }
}
const dataBytes = sections.filter((s) => s.id === 11).map((s) => wasm.subarray(s.start, s.end));

/** Function names from the "name" custom section. */
const names = new Map();
for (const s of sections.filter((s) => s.id === 0)) {
  let [len, at] = leb(wasm, s.start);
  if (wasm.subarray(at, at + len).toString() !== "name") continue;
  at += len;
  while (at < s.end) {
    const kind = wasm[at];
    const [size, start] = leb(wasm, at + 1);
    if (kind === 1) {
      let [count, p] = leb(wasm, start);
      for (let i = 0; i < count; i++) {
        const [index, q] = leb(wasm, p);
        const [n, r] = leb(wasm, q);
        names.set(index, wasm.subarray(r, r + n).toString());
        p = r + n;
      }
    }
    at = start + size;
  }
}

// ---------------------------------------------------------------- groups

const UNNAMED = "unnamed (generic glue, closures' call shims)";
const GROUPS = [
  [UNNAMED, /^(core|alloc)::ops::function::(FnOnce|FnMut|Fn)::call|^<alloc::boxed::Box<F,A> as core::ops::function|^<T as /],
  ["chapter 1 · sinusoids", /^<?pe_explorer::(app::chapters::sinusoids|app::figures::sinusoids|scene::sinusoids|params::sinusoids)\b/],
  ["chapter 2 · RoPE", /^<?pe_explorer::(app::chapters::rope|app::figures::rope|app::state::rope|scene::rope|params::rope)\b/],
  ["chapter 3 · context", /^<?pe_explorer::(app::chapters::context|app::figures::context|app::state::context|scene::context|params::context)\b/],
  ["chapter 4 · tables and closing", /^<?pe_explorer::(app::chapters::(tables|closing)|app::figures::tables|app::state::tables|scene::tables|params::tables)\b/],
  ["chapter 5 · today's models", /^<?pe_explorer::(app::chapters::models|app::figures::models|app::state::models|scene::models|params::models|explain::models|math::layers)\b/],
  ["ours, shared (math, chart, frame, controls…)", /^<?pe_explorer::/],
  ["Leptos (leptos, tachys, reactive_graph…)", /^<?(leptos|leptos_dom|tachys|reactive_graph|any_spawner|or_poisoned|guardian|slotmap|indexmap|hashbrown|throw_error|server_fn|futures|wasm_streams)\b|^<?(&(mut )?)?(tachys|reactive_graph)::/],
  ["plotters", /^<?plotters/],
  ["serde_json", /^<?(&(mut )?)?(serde_json|serde_core|serde)\b/],
  ["Rust std (core, alloc, std, libm, dlmalloc)", /^<?(&(mut )?)?(core|alloc|std|compiler_builtins|dlmalloc|f64|f32|str|char|usize|u8|u32|u64|i32|i64|bool|\[|\(|fmax|fmin|memcpy|memset|memmove|memcmp)\b|^<?(core|alloc|std)\[/],
  ["wasm-bindgen, js-sys, web-sys", /^<?(wasm_bindgen|js_sys|web_sys|__wbindgen|console_error_panic_hook|getrandom|rand)/],
];
const totals = new Map(GROUPS.map(([g]) => [g, []]));
for (let i = 0; i < bodies.length; i++) {
  const name = names.get(imported + i) ?? "";
  const group = GROUPS.find(([, re]) => re.test(name))?.[0] ?? UNNAMED;
  totals.get(group).push(bodies[i]);
  if (process.env.BUNDLE_DEBUG === group) console.log(bodies[i].length, name);
}

const gz = (buf) => gzipSync(buf, { level: zlib.Z_BEST_COMPRESSION }).length;
const kb = (n) => (n / 1000).toFixed(1).padStart(7);
// The catch-all first in matching order, last in the table.
const rows = [...totals].sort(([a], [b]) => (a === UNNAMED) - (b === UNNAMED)).map(([group, parts]) => {
  const all = Buffer.concat(parts);
  return [group, parts.length, all.length, gz(all)];
});
const data = Buffer.concat(dataBytes);
rows.push(["data section (prose, tables, vtables)", dataBytes.length, data.length, gz(data)]);
console.log(`What each part costs in the release wasm (${INPUT.replace(ROOT + "/", "")} through wasm-bindgen and wasm-opt -Oz)`);
console.log("KB = 1000 bytes; gzip -9 of each group on its own");
console.log("");
console.log(`${"group".padEnd(46)}  items   raw KB  gzip KB`);
for (const [group, count, raw, zipped] of rows) {
  console.log(`${group.padEnd(46)}  ${String(count).padStart(5)}  ${kb(raw)}  ${kb(zipped)}`);
}
const rawAll = rows.reduce((a, r) => a + r[2], 0);
console.log(`${"all code and data".padEnd(46)}  ${"".padStart(5)}  ${kb(rawAll)}  ${kb(gz(Buffer.concat([...bodies, data])))}`);
