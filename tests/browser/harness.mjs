// harness.mjs: what every browser test shares. Headless Chromium (Debian's /usr/bin/chromium,
// WebGL2 through SwiftShader) driven by playwright-core, the site (build/wasm/site) served on
// 127.0.0.1 by the test itself (scripts/serve.mjs), and the native CLI to compare with.
//
// Environment (ctest sets them; the defaults fit a checkout built with the presets):
//   GPUSIZER_SITE   the built site        (build/wasm/site)
//   GPUSIZER_CLI    the native gpusizer   (build/native/gpusizer)
//   CHROMIUM        the browser           (/usr/bin/chromium)
//   GPUSIZER_FAKE_REPORT  the tests' simulated benchmark report writer (build/native/gpusizer_fake_report)
// A test exits with 77 (ctest: skipped) when the site or the browser is missing.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { after, before } from 'node:test';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
export const repo = resolve(here, '..', '..');
export const site = resolve(process.env.GPUSIZER_SITE || join(repo, 'build', 'wasm', 'site'));
export const cli = resolve(process.env.GPUSIZER_CLI || join(repo, 'build', 'native', 'gpusizer'));
const chromiumPath = process.env.CHROMIUM || '/usr/bin/chromium';
const fakeReportTool = resolve(process.env.GPUSIZER_FAKE_REPORT || join(repo, 'build', 'native', 'gpusizer_fake_report'));

export const kSkip = 77;

// Exits 77 with the reason when something the browser tests need is not there.
export function requireSetup({ needCli = false } = {}) {
  const missing = [];
  if (!existsSync(join(site, 'index.html')) || !existsSync(join(site, 'gpusizer.wasm')))
    missing.push(`the browser build in ${site} (cmake --preset wasm && cmake --build --preset wasm)`);
  if (!existsSync(chromiumPath)) missing.push(`Chromium at ${chromiumPath} (scripts/setup.sh)`);
  if (needCli && !existsSync(cli)) missing.push(`the native CLI at ${cli}`);
  if (missing.length) {
    // On CI (scripts/test.sh builds the site first) a missing piece is a failure, not a skip.
    if (process.env.CI === 'true') {
      console.log('FAILED: missing ' + missing.join('; '));
      process.exit(1);
    }
    console.log('skipped: missing ' + missing.join('; '));
    process.exit(kSkip);
  }
}

// Headless Chromium without a GPU: WebGL2 through ANGLE's SwiftShader backend (software), which
// newer Chromium enables only with --enable-unsafe-swiftshader; and no background traffic, so that
// watch() sees only the page's own requests.
export const kChromiumArgs = [
  '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--enable-unsafe-swiftshader', '--use-angle=swiftshader',
];

export async function launch() {
  const { chromium } = await import(join(repo, 'node_modules', 'playwright-core', 'index.mjs'));
  return chromium.launch({ executablePath: chromiumPath, args: kChromiumArgs });
}

export async function serveSite() {
  const { serve } = await import(join(repo, 'scripts', 'serve.mjs'));
  return serve(site, 0);
}

// One Chromium and the served site for a test file: registers the before() and after() hooks
// and hands `ready` the browser and the site's URL once they are up.
export function useBrowser(ready) {
  let browser, server;
  before(async () => {
    let url;
    ({ server, url } = await serveSite());
    browser = await launch();
    await ready(browser, url);
  });
  after(async () => {
    await browser?.close();
    server?.close();
  });
}

// The rectangle the app reports for the widget `name` in its layout (window.gpusizerApp.layout);
// fails the test when there is none.
export function layoutRect(state, name) {
  const r = state.layout.find((x) => x.name === name);
  assert.ok(r, `the app reports no rectangle for "${name}"`);
  return r;
}

// useBrowser() for the JS API tests: a page of the site with the module loaded as window.gs
// (embed.html, then gpusizer.js imported by its URL); hands `ready` {browser, page, seen, url},
// `seen` being what watch() records on the page.
export function useApiPage(ready) {
  useBrowser(async (browser, url) => {
    const page = await browser.newPage();
    const seen = watch(page, url);
    await page.goto(url + 'embed.html');
    await page.evaluate(async () => {
      const { default: createGpuSizer } = await import(new URL('gpusizer.js', location.href).href);
      window.gs = await createGpuSizer();
    });
    await ready({ browser, page, seen, url });
  });
}

// A desktop-sized page (1280x800) in a fresh context that may read and write the clipboard,
// with watch() on it; close the context when done.
export async function clipboardPage(browser, url) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: url });
  const page = await context.newPage();
  return { context, page, seen: watch(page, url) };
}

// Presses keys for a few frames: Dear ImGui 1.86 reads key states once a frame, so a press
// and release between two frames (as a script can make them) would go unseen.
export async function hold(page, ...keys) {
  for (const k of keys) await page.keyboard.down(k);
  await frames(page, 3);
  for (const k of keys.reverse()) await page.keyboard.up(k);
  await frames(page, 2);
}

// Clicks the canvas at (x, y) with the button held for a few frames, for the same reason: a
// press and release inside one frame can go unseen when the machine is loaded (CI ran the app
// page's "Open file..." click that way and waited 30 s for a file chooser that never came).
export async function clickFrames(page, x, y) {
  await page.mouse.move(x, y);
  await frames(page, 1);
  await page.mouse.down();
  await frames(page, 3);
  await page.mouse.up();
  await frames(page, 2);
}

// Records what a page says and asks for: console errors, uncaught exceptions, dialogs (which
// it dismisses), and any request that leaves the test's own server.
export function watch(page, origin) {
  const seen = { errors: [], dialogs: [], foreign: [] };
  page.on('console', (m) => { if (m.type() === 'error') seen.errors.push(m.text()); });
  page.on('pageerror', (e) => seen.errors.push('uncaught: ' + e.message));
  page.on('dialog', (d) => { seen.dialogs.push(d.message()); d.dismiss().catch(() => {}); });
  page.on('request', (r) => {
    const u = r.url();
    if (!u.startsWith(origin) && !u.startsWith('data:')) seen.foreign.push(u);
  });
  return seen;
}

// Opens the app page and waits for its first frame and its state.
export async function openApp(page, url, fragment = '') {
  await page.goto(url + 'index.html' + fragment);
  await page.waitForFunction(() => document.documentElement.getAttribute('data-first-frame') === '1' && window.gpusizerApp,
    null, { timeout: 30000 });
  return page.evaluate(() => window.gpusizerApp);
}

// Waits for the app's next frames (two animation frames).
export function frames(page, n = 2) {
  return page.evaluate((count) => new Promise((ok) => {
    let left = count;
    const tick = () => (--left <= 0 ? ok() : requestAnimationFrame(tick));
    requestAnimationFrame(tick);
  }), n);
}

// The CLI's answer: JSON of `gpusizer ARGS --json`.
export function cliJson(args) {
  return JSON.parse(execFileSync(cli, [...args, '--json'], { encoding: 'utf8' }));
}
export function cliText(args) {
  return execFileSync(cli, [...args, '--json'], { encoding: 'utf8' }).replace(/\n$/, '');
}
// The CLI's one-line error for bad input (exit code 2), without the "gpusizer: error: " prefix.
export function cliError(args) {
  const r = spawnSync(cli, args, { encoding: 'utf8' });
  if (r.status !== 2) throw new Error(`gpusizer ${args.join(' ')} exited ${r.status}, expected 2`);
  return r.stderr.trim().replace(/^gpusizer: error: /, '');
}
// A configuration written to a temporary file, for `--config`.
let tmp = null;
export function configFile(config) {
  tmp = tmp || mkdtempSync(join(tmpdir(), 'gpusizer-browser-'));
  const f = join(tmp, `config-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(f, typeof config === 'string' ? config : JSON.stringify(config));
  return f;
}

// A simulated gpusizer-cuda-bench report of `gpus` H100s (cuda/tests/fake_report.cpp: the fake
// backend's scripted timings, marked as simulated), written to a temporary file.
export function fakeReport(gpus = 1) {
  tmp = tmp || mkdtempSync(join(tmpdir(), 'gpusizer-browser-'));
  const f = join(tmp, `report-${gpus}.json`);
  execFileSync(fakeReportTool, [f, String(gpus)]);
  return f;
}

// Pixel statistics of a PNG (a page screenshot), decoded by the browser itself in a blank
// page: distinct colours, and the share of pixels that differ from the most common colour.
export async function pngStats(browser, png) {
  const page = await browser.newPage();
  try {
    return await page.evaluate(async (b64) => {
      const img = new Image();
      img.src = 'data:image/png;base64,' + b64;
      await img.decode();
      const c = document.createElement('canvas');
      c.width = img.width;
      c.height = img.height;
      const g = c.getContext('2d');
      g.drawImage(img, 0, 0);
      const d = g.getImageData(0, 0, c.width, c.height).data;
      const counts = new Map();
      for (let i = 0; i < d.length; i += 4) {
        const k = (d[i] << 16) | (d[i + 1] << 8) | d[i + 2];
        counts.set(k, (counts.get(k) || 0) + 1);
      }
      const top = Math.max(...counts.values());
      return { width: c.width, height: c.height, colors: counts.size, nonBackground: 1 - top / (c.width * c.height) };
    }, png.toString('base64'));
  } finally {
    await page.close();
  }
}

// The widget's report is the CLI's without the speed bands (keys ending in _range, range_rows) and a
// measured report's calibration: its module is built without them (GPUSIZER_REPORT_RANGES=0 in
// web/CMakeLists.txt) to stay within its download budget.
export function widgetView(report) {
  if (Array.isArray(report)) return report.map(widgetView);
  if (!report || typeof report !== 'object') return report;
  const out = {};
  for (const [k, v] of Object.entries(report)) {
    if (k.endsWith('_range') || k === 'range_rows' || k === 'measured') continue;
    // No cost in the widget's module (GPUSIZER_COST=0): no cost object, and the prices the
    // estimate resolved from the catalog stay unresolved in its configuration.
    if (k === 'cost') continue;
    // No launch commands either (GPUSIZER_LAUNCH=0, docs/launch.md): the widget shows none.
    if (k === 'launch') continue;
    if (k === 'gpu_usd' || k === 'rent_usd_per_gpu_hour') { out[k] = null; continue; }
    out[k] = widgetView(v);
  }
  return out;
}

// Deep equality with a report of differences, for messages.
export function differences(a, b, path = '') {
  if (typeof a !== typeof b || Array.isArray(a) !== Array.isArray(b) || (a === null) !== (b === null)) return [`${path}: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`];
  if (a && typeof a === 'object') {
    const out = [];
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) out.push(...differences(a[k], b[k], path + '.' + k));
    return out;
  }
  return a === b ? [] : [`${path}: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`];
}
