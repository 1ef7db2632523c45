// What the first-load and scroll benches share: issue 15's slow-phone profile, applied by Chromium
// itself (DevTools protocol: Network.emulateNetworkConditions, Emulation.setCPUThrottlingRate),
// their command line (`[DIST_DIR] [--runs=N]`), and Debian's Chromium through playwright-core.

import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export { launchChromium } from "../../tests/e2e/serve.mjs";

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/** Issue 15's phone profile: 4× CPU slowdown, 1.6 Mbps down, 750 kbps up, 150 ms round trip. */
export const PROFILE = { cpu: 4, downKbps: 1600, upKbps: 750, rttMs: 150 };

/** `[DIST_DIR] [--runs=N]` of bench `script` (N defaults to `runs`): exits 2 on a bad command
 * line, 1 when DIST_DIR has no build. */
export function benchArgs(script, runs, more = []) {
  const argv = process.argv.slice(2);
  const runsArg = argv.find((a) => a.startsWith("--runs="));
  const RUNS = runsArg ? Number(runsArg.slice(7)) : runs;
  const DIST = resolve(argv.find((a) => !a.startsWith("--")) ?? join(ROOT, "dist"));
  const known = ["--runs=", ...more.map((m) => `--${m}=`)];
  if (!(RUNS >= 1) || argv.some((a) => a.startsWith("--") && !known.some((k) => a.startsWith(k)))) {
    console.error(`usage: node benches/browser/${script} [DIST_DIR] [--runs=${runs}]${more.map((m) => ` [--${m}=…]`).join("")}`);
    process.exit(2);
  }
  // The other options' values, by name (undefined when not given).
  const options = Object.fromEntries(more.map((m) => [m, argv.find((a) => a.startsWith(`--${m}=`))?.slice(m.length + 3)]));
  if (!existsSync(join(DIST, "index.html"))) {
    console.error(`no ${join(DIST, "index.html")}: run \`make build\` first`);
    process.exit(1);
  }
  return { RUNS, DIST, options };
}

/** Puts `page` of `context` on the phone profile, with the browser cache off. */
export async function throttle(context, page) {
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: PROFILE.rttMs,
    downloadThroughput: (PROFILE.downKbps * 1000) / 8,
    uploadThroughput: (PROFILE.upKbps * 1000) / 8,
  });
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: PROFILE.cpu });
}
