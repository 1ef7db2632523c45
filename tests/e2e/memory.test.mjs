// A long session stays flat: 1,000 slider moves across every chapter's controls leave the wasm
// memory and the JS heap within 5 % of where they were after two rounds over every slider (at
// least 100 moves; `make bench` runs 10,000 and prints the numbers).
import { test } from "node:test";
import assert from "node:assert/strict";
import { shareBrowser } from "./harness.mjs";
import { FLAT, longSession } from "./memory.mjs";

const env = shareBrowser();

test("1,000 slider moves: wasm memory and JS heap stay within 5 %", async () => {
  const r = await longSession(env.browser, env.server.url, 1000);
  const growth = (k) => (r.after[k] - r.before[k]) / r.before[k];
  const text = `wasm ${r.before.wasm} → ${r.after.wasm} B, heap ${r.before.heap} → ${r.after.heap} B over ${r.sliders} sliders (measured from move ${r.warm})`;
  console.log(text);
  assert.ok(r.sliders >= 20, `only ${r.sliders} sliders`);
  assert.ok(growth("wasm") <= FLAT, text);
  assert.ok(growth("heap") <= FLAT, text);
  assert.deepEqual(r.problems, []);
});
