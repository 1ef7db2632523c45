#!/usr/bin/env node
// The release build of the page into dist/, split by chapter: Trunk's steps without Trunk, plus the
// split. `make build` (and so `make test`) runs this, and only `make serve` needs Trunk (its
// development server). Trunk 0.21 has no step between the link and its own wasm-bindgen, which is
// where the split goes (issue 27).
//
//   node tools/build.mjs [DIST] [--one-module]      (DIST defaults to dist)
//   node tools/build.mjs --compile-only [--one-module]
//                          only the app's cargo step, as the build runs it (so that the build
//                          that follows finds it done): `make test` compiles the release build
//                          beside the other Rust tiers this way
//
// index.html stays the one description of the page, for both: each `<link data-trunk …>` in it
// becomes what Trunk makes of it —
//   rel="icon" | "css"     the file copied under a content-hashed name, linked with its sha384
//                          integrity;
//   rel="copy-file"        the file copied as it is, into the root;
//   rel="copy-dir"         the folder copied as it is, under its own name;
//   rel="rust"             the app (the link's data-bin), built for wasm32 with the `split`
//                          feature and its final link's relocations kept, cut by `wasm-split-cli`
//                          into the main module and one module per later chapter (see
//                          src/app/chapters/mod.rs), then wasm-bindgen (--target web) on the main
//                          module, wasm-opt at the link's data-wasm-opt level on every module, and
//                          the tag Trunk.toml's `pattern_script` spells, with the hashed names.
//                          With --one-module: `cargo build --release`, wasm-bindgen and wasm-opt,
//                          byte for byte what `trunk build --release` writes.
// Then the page gets a copy of the book's first screen, shown before the app has built its own
// (tools/first-view.mjs, which opens the staged site in Chromium and draws the first figure's
// pictures with `pe render`), a split build the list of the modules each embedded figure fetches,
// which boot.js preloads for an embed (tools/embed-preload.mjs, from the same staged site), and
// every text file gets its `.br` and `.gz` copies
// (tools/precompress.mjs, Trunk's post-build hook). The site is assembled in DIST/.stage and
// replaces DIST only when complete.
// Tools come from PATH, as Trunk's offline mode takes them: wasm-bindgen at Cargo.lock's version
// and wasm-split-cli (both installed by the Makefile), and wasm-opt from binaryen in
// tools/node_modules.

import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { basename, extname, join, resolve } from "node:path";

import { embedPreloads } from "./embed-preload.mjs";
import { firstView } from "./first-view.mjs";

const ROOT = resolve(new URL("..", import.meta.url).pathname);
const DIST = resolve(ROOT, process.argv.slice(2).find((a) => !a.startsWith("--")) ?? "dist");
const STAGE = join(DIST, ".stage");
const TARGET = "wasm32-unknown-unknown";
/** Split by chapter (the default): `--one-module` builds the whole book as one wasm module. */
const SPLIT = !process.argv.includes("--one-module");
/** Only compile the app (`--compile-only`). */
const COMPILE_ONLY = process.argv.includes("--compile-only");

/** Runs a command in the repository root, its output passed through; stops the build on failure. */
function run(command, ...args) {
  const result = spawnSync(command, args, { cwd: ROOT, stdio: "inherit" });
  if (result.error) throw new Error(`${command}: ${result.error.message}`);
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} failed (exit ${result.status})`);
}

/** Trunk's style of content-hashed name: `<stem>-<16 hex digits of the content's hash><ext>`. */
function hashedName(file, body) {
  const ext = extname(file);
  return `${basename(file, ext)}-${createHash("sha256").update(body).digest("hex").slice(0, 16)}${ext}`;
}

function integrity(body) {
  return `sha384-${createHash("sha384").update(body).digest("base64")}`;
}

/** The attributes of one tag's source text, as a map. */
function attributes(tag) {
  return new Map([...tag.matchAll(/([\w-]+)(?:="([^"]*)")?/g)].map((m) => [m[1], m[2] ?? ""]));
}

/** A file copied into the stage under its hashed name; returns that name and its integrity. */
function copyHashed(href) {
  const body = readFileSync(join(ROOT, href));
  const name = hashedName(href, body);
  writeFileSync(join(STAGE, name), body);
  return { name, integrity: integrity(body) };
}

/** Trunk.toml's `pattern_script`, the one spelling of the tag that loads the app. */
function patternScript() {
  const toml = readFileSync(join(ROOT, "Trunk.toml"), "utf8");
  const found = toml.match(/^pattern_script = '(.*)'$/m);
  if (!found) throw new Error("Trunk.toml has no pattern_script = '…' line");
  return found[1];
}

/** The app's binary `bin` compiled for the web, at target/wasm32-unknown-unknown/release/. */
function compileRust(bin) {
  if (SPLIT) {
    // The final link keeps its relocations, from which wasm-split learns what each split point
    // reaches; only the binary's own link gets the flag (cargo rustc), so nothing else rebuilds.
    run("cargo", "rustc", `--target=${TARGET}`, "--release", "--bin", bin, "--features", "split", "--", "-C", "link-arg=--emit-relocs");
  } else {
    run("cargo", "build", `--target=${TARGET}`, "--release", "--bin", bin);
  }
}

/** The app's binary: the rel="rust" link's data-bin. */
function binOf(link) {
  const bin = link.get("data-bin");
  if (!bin) throw new Error('the rel="rust" link names no data-bin');
  return bin;
}

/** The app: compiled, bound, optimised and named by the hash of the compiled wasm, as Trunk names it. */
function buildRust(link) {
  const bin = binOf(link);
  const wasm = join(ROOT, "target", TARGET, "release", `${bin}.wasm`);
  const bound = join(ROOT, "target", "pe-build");
  rmSync(bound, { recursive: true, force: true });
  mkdirSync(bound, { recursive: true });
  let main = wasm;
  compileRust(bin);
  if (SPLIT) {
    run("wasm-split-cli", wasm, join(bound, "split"), "--out-name", bin);
    main = join(bound, "split", `${bin}.wasm`);
  }
  // With a split, the main module keeps the exports the chunks link against.
  const keep = SPLIT ? ["--keep-lld-exports", "--no-demangle"] : [];
  run("wasm-bindgen", "--target=web", `--out-dir=${bound}`, `--out-name=${bin}`, main, "--no-typescript", ...keep);
  const stem = hashedName(`${bin}.wasm`, readFileSync(wasm)).slice(0, -".wasm".length);
  const js = `${stem}.js`;
  const bg = `${stem}_bg.wasm`;
  const level = link.get("data-wasm-opt");
  const optimise = (from, to) => {
    if (level && level !== "0") run("wasm-opt", `-O${level}`, from, `--output=${to}`);
    else cpSync(from, to);
  };
  optimise(join(bound, `${bin}_bg.wasm`), join(STAGE, bg));
  let glue = readFileSync(join(bound, `${bin}.js`), "utf8");
  if (SPLIT) glue = stageChunks(bin, js, glue, join(bound, "split"), optimise);
  writeFileSync(join(STAGE, js), glue);
  return patternScript().replaceAll("{base}", "./").replaceAll("{js}", js).replaceAll("{wasm}", bg);
}

/**
 * The split's other files, staged under content-hashed names: each chapter's module (and the
 * modules they share), optimised, and `__wasm_split.js`, the loader that fetches them, which
 * imports the app's glue (`js`, its hashed name) and is imported by it. Returns the glue with the
 * loader's hashed name.
 */
function stageChunks(bin, js, glue, dir, optimise) {
  let loader = readFileSync(join(dir, "__wasm_split.js"), "utf8");
  if (!loader.includes(`"./${bin}.js"`)) throw new Error(`__wasm_split.js does not import ./${bin}.js`);
  loader = loader.replaceAll(`"./${bin}.js"`, `"./${js}"`);
  for (const chunk of readdirSync(dir).filter((f) => f.endsWith(".wasm") && f !== `${bin}.wasm`)) {
    const optimised = join(dir, `opt-${chunk}`);
    optimise(join(dir, chunk), optimised);
    const body = readFileSync(optimised);
    const name = hashedName(chunk, body);
    if (!loader.includes(`"./${chunk}"`)) throw new Error(`__wasm_split.js does not load ./${chunk}`);
    loader = loader.replaceAll(`"./${chunk}"`, `"./${name}"`);
    writeFileSync(join(STAGE, name), body);
  }
  const name = hashedName("__wasm_split.js", loader);
  writeFileSync(join(STAGE, name), loader);
  // Only the import statements: the keys of the wasm's import object keep the module's own name.
  if (!glue.includes('from "./__wasm_split.js"')) throw new Error(`${bin}.js does not import ./__wasm_split.js`);
  return glue.replaceAll('from "./__wasm_split.js"', `from "./${name}"`);
}

/** What one `<link data-trunk …>` becomes in the built page. */
function asset(tag) {
  const link = attributes(tag);
  const href = link.get("href");
  switch (link.get("rel")) {
    case "icon": {
      const { name, integrity } = copyHashed(href);
      const type = link.has("type") ? ` type="${link.get("type")}"` : "";
      return `<link rel="icon" href="./${name}"${type} integrity="${integrity}"/>`;
    }
    case "css": {
      const { name, integrity } = copyHashed(href);
      return `<link rel="stylesheet" href="./${name}" integrity="${integrity}"/>`;
    }
    case "copy-file":
      cpSync(join(ROOT, href), join(STAGE, basename(href)));
      return "";
    case "copy-dir":
      cpSync(join(ROOT, href), join(STAGE, basename(href)), { recursive: true });
      return "";
    case "rust":
      return buildRust(link);
    default:
      throw new Error(`index.html: no build rule for ${tag}`);
  }
}

try {
  const page = readFileSync(join(ROOT, "index.html"), "utf8");
  if (COMPILE_ONLY) {
    const rust = [...page.matchAll(/<link data-trunk\b[^>]*>/g)].map((m) => attributes(m[0])).find((l) => l.get("rel") === "rust");
    if (!rust) throw new Error('index.html has no rel="rust" link');
    compileRust(binOf(rust));
    process.exit(0);
  }
  rmSync(STAGE, { recursive: true, force: true });
  mkdirSync(STAGE, { recursive: true });
  // A tag that became nothing takes its line with it, as in Trunk's output.
  const built = page.replace(/^[ \t]*(<link data-trunk\b[^>]*>)\n?/gm, (line, tag) => {
    const out = asset(tag);
    return out ? line.replace(tag, out) : "";
  });
  if (built.includes("data-trunk")) throw new Error("index.html: a data-trunk link is not on a line of its own");
  writeFileSync(join(STAGE, "index.html"), built);
  const first = await firstView(STAGE);
  console.log(`build: the first screen's copy, ${first.bytes} bytes of HTML and ${first.pictures} pictures`);
  if (SPLIT) {
    const embeds = await embedPreloads(STAGE);
    console.log(`build: ${embeds.name}, what ${embeds.figures} embeds fetch besides the main module (${embeds.groups} lists)`);
  }
  run("node", "tools/precompress.mjs", STAGE);
  // The finished site replaces the old one: a server pointed at DIST never sees half a build.
  const old = `${DIST}.old`;
  rmSync(old, { recursive: true, force: true });
  renameSync(STAGE, `${DIST}.new`);
  renameSync(DIST, old);
  renameSync(`${DIST}.new`, DIST);
  rmSync(old, { recursive: true, force: true });
  console.log(`build: ${DIST}`);
} catch (error) {
  console.error(`build: ${error.message}`);
  process.exit(1);
}
