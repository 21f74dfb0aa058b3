// web_budgets.mjs: the browser build's sizes and speed, against the project's budgets (README.md, "Performance and size budgets").
//
//   node bench/web_budgets.mjs [--check] [--sizes-only] [--json FILE] [--runs N]
//
// Sizes: gzip -9 of what a visitor downloads (zlib, level 9).
//   widget  gpusizer-widget.js + gpusizer-lite.js + gpusizer-lite.wasm   budget 200 KB
//   app     app.js + app.wasm                                       budget 700 KB
//   (the HTML pages and app-page.js, a few KB, are listed apart; KB = 1000 bytes)
// First frame: headless Chromium (SwiftShader WebGL2) opens index.html from 127.0.0.1; the app
//   marks `gpusizer-first-frame` after its first frame is drawn, and that mark's time is
//   measured from navigation start. Each run is a fresh browser context (no HTTP cache); the
//   first run of a freshly started browser is reported apart (it also starts the GPU process).
//   Budget: 1 s.
// Slider drag: the context slider of the app page is dragged across its width, one mouse move
//   per animation frame, for 120 frames, at 1280x800 and at 960x600 (devicePixelRatio 1).
//   requestAnimationFrame intervals during the drag give the page's frame rate; the app's own
//   main-thread time per frame (input, UI, recomputing, draw-list submission, as web/main.cpp
//   records it) gives its share of a 16.7 ms frame. SwiftShader rasterizes on the CPU, so the
//   page's frame rate in this headless setup measures the machine's CPU, not the app.
// Inference plan search: gs.plan() of the JS API (gpusizer.js, loaded into embed.html) in the
//   same browser, bench/bench_cases.hpp's inference_plan_70b() query in JSON (Llama 3 70B served by vLLM on up to
//   64 H100, requests of 1,000 + 1,000 tokens, TPOT <= 30 ms), timed with performance.now()
//   around each call: the first call apart, then N more. Budget (issue 12): under 1 s, the slowest call.
// --check exits 1 when a budget is missed: sizes, first frame, the plan search, and the app's
//   main-thread time per frame during the drag (95th percentile under 16.7 ms).
// --sizes-only measures the sizes alone: deterministic, so the test suite checks them
//   (ctest browser_sizes); timings are noisy on shared machines and stay in the benchmark.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

import { launch, openApp, requireSetup, serveSite, site } from '../tests/browser/harness.mjs';

const args = process.argv.slice(2);
const check = args.includes('--check');
const jsonOut = args.includes('--json') ? args[args.indexOf('--json') + 1] : null;
const runs = args.includes('--runs') ? Number(args[args.indexOf('--runs') + 1]) : 7;
const sizesOnly = args.includes('--sizes-only');

requireSetup();

// 150 KB until the per-layer model (a stack of layer kinds and its cache detail) and the importer
// of 35 Hugging Face architectures (the catalog stores each model as its config.json, so the
// widget's module must read them) joined the widget's module: measured 174.4 KB after taking
// out what could go (the importer's istringstream, -29 KB; musl's long-double strtod, -7 KB);
// then 184.2 KB once serving under load, engine versions and pipeline schedules joined the
// estimate. The rest is the estimation code and nlohmann/json's parser, which the widget needs.
// 193 KB since the catalog grew from 65 to 169 GPUs (197.4 KB as rows): stored by columns and
// without chip names, form factors and Hub repositories the widget never shows, it measured 192.7 KB.
// 194 KB with the importer's one table (all families as rows), the report's new members (custom
// GPU's source, file parts) and four catalog models, the field reader and custom GPUs kept out
// and tower configs slimmed: measured 193.8 KB.
// 200 KB with power at the wall (the widget's headline shows the machine's draw: the host and
// supply model, idle draws, Apple's wall figures), the importer's fixes for wrappers and towers
// that the catalog's own models are read through, and the new keys' checks; the cost model and
// its price table kept out (GPUSIZER_COST=0, -1.6 KB): measured 199.2 KB; 199.6 KB with the first
// fixes of the app's third round (the importer's ignored keys as literals: -0.4 KB).
// Room for issues 28 (translations) and 29 (the widget's comparison), nothing taken out of either
// program (2026-12-04): the widget 199.9 -> 191.9 KB, its script minified by the Closure Compiler
// (-2.4 KB), its module without Embind (plain exports that web/api_lite.js wraps: -5.3 KB) and
// wasm-opt run to convergence (-0.3 KB); the app 699.6 -> 669.9 KB, its catalog by columns with
// every field (-9.6 KB), without ImGui's default font, which it never uses (-11.2 KB), one
// instantiation of nlohmann's parser (-1.7 KB), emmalloc (-3.2 KB), leaner GL glue (-1.0 KB),
// wasm-opt to convergence and the font's unread tables (-2.1 KB), and its key table without the
// CLI's usage lines (-0.9 KB). The budgets stay: the room is the new features'. With the issue 29
// QA round merged after it (model files in the app, wrapped lines, help on tap): widget 193.1 KB,
// app 672.3 KB.
// Room for issue 28's translations (the widget's table of texts, 2-3 KB; 2026-12-04), nothing taken
// out and every figure and text the same: the widget 194.7 -> 182.9 KB, its module formatting
// numbers with its own snprintf over the browser's toFixed/toExponential instead of musl's printf
// (web/lite_printf.cpp, checked against musl's by browser_lite_printf: -2.9 KB), parse_json going
// through nlohmann's SAX interface with a depth-checking builder, one parser instantiated where
// json::parse with a callback made two (-3.3 KB), no environment in the module (getenv: -0.5 KB)
// and one more wasm-opt -Oz run after emcc's last steps (-0.45 KB), and the report and list writers
// building their objects with object() instead of nlohmann's initializer lists (-4.7 KB); the app
// 674.6 -> 671.1 KB with the same core changes.
// Room again (2026-12-05): the widget's module computes with the browser's Math (emcc -sJS_MATH=1:
// musl's pow, log and exp out, -1.6 KB; browser_widget checks its numbers equal the native CLI's bit
// for bit): 189,989 -> 188,380 B. Not the app's: its simulation promises the same draws natively
// and in the browser, which the libm's last bits decide.
// Room again (2026-12-05, fifth session), nothing taken out and every message the same: the core's
// 488 throw sites call gpusizer::throw_error (one out-of-line call) instead of building the two
// strings and the exception inline: the widget 189,067 -> 177,786 B, the app 651.5 -> 628.7 KB.
// Then the widget's module took back the field reader (+8.2 KB) and the engine versions' reading
// (+2.0 KB), which it had left out and refused: 187,984 B.
const kBudgetWidget = 190e3;   // issue 28: with the translations, at most 190 KB
const kBudgetApp = 700e3;
const kBudgetFirstFrameMs = 1000;
const kBudgetPlanMs = 1000;
const kBudgetSimulateMs = 1000;   // issue 26: 10,000 requests under 1 s in the browser
const kFrameMs = 1000 / 60;

const failures = [];
const result = {};

// ---------------------------------------------------------------------------------------------
// Sizes
// ---------------------------------------------------------------------------------------------
const size = (f) => {
  const raw = readFileSync(join(site, f));
  return { file: f, bytes: raw.length, gzip: gzipSync(raw, { level: 9 }).length };
};
const group = (files) => {
  const items = files.map(size);
  return { items, bytes: items.reduce((a, b) => a + b.bytes, 0), gzip: items.reduce((a, b) => a + b.gzip, 0) };
};
result.widget = group(['gpusizer-widget.js', 'gpusizer-lite.js', 'gpusizer-lite.wasm']);
result.app = group(['app.js', 'app.wasm']);
result.pages = group(['index.html', 'i18n.js', 'app-page.js', 'embed.html', 'embed-page.js']);
if (result.widget.gzip > kBudgetWidget) failures.push(`widget ${result.widget.gzip} B gzipped > ${kBudgetWidget}`);
if (result.app.gzip > kBudgetApp) failures.push(`app ${result.app.gzip} B gzipped > ${kBudgetApp}`);

const kb = (b) => (b / 1000).toFixed(1);
const sizeLines = () => [
  '| download | files | bytes | gzipped | budget |', '|---|---|---|---|---|',
  `| widget | ${result.widget.items.map((i) => `${i.file} ${kb(i.gzip)}`).join(' + ')} | ${kb(result.widget.bytes)} KB | **${kb(result.widget.gzip)} KB** | ${kb(kBudgetWidget)} KB |`,
  `| app | ${result.app.items.map((i) => `${i.file} ${kb(i.gzip)}`).join(' + ')} | ${kb(result.app.bytes)} KB | **${kb(result.app.gzip)} KB** | ${kb(kBudgetApp)} KB |`,
  `| pages | ${result.pages.items.map((i) => i.file).join(', ')} | ${kb(result.pages.bytes)} KB | ${kb(result.pages.gzip)} KB | |`,
];
if (sizesOnly) {
  console.log(sizeLines().join('\n'));
  if (jsonOut) writeFileSync(jsonOut, JSON.stringify(result, null, 2) + '\n');
  if (failures.length) console.log('\nOVER BUDGET:\n  ' + failures.join('\n  '));
  process.exit(failures.length && check ? 1 : 0);
}

// ---------------------------------------------------------------------------------------------
// First frame
// ---------------------------------------------------------------------------------------------
const { server, url } = await serveSite();
const browser = await launch();
const firstFrame = async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await openApp(page, url);
  const ms = await page.evaluate(() => performance.getEntriesByName('gpusizer-first-frame')[0].startTime);
  await context.close();
  return ms;
};
const cold = await firstFrame();
const warm = [];
for (let i = 0; i < runs; ++i) warm.push(await firstFrame());
const sorted = (a) => [...a].sort((x, y) => x - y);
const pct = (a, p) => sorted(a)[Math.min(a.length - 1, Math.floor(p * a.length))];
result.firstFrame = { coldMs: cold, runsMs: warm, medianMs: pct(warm, 0.5), maxMs: Math.max(...warm) };
if (result.firstFrame.maxMs > kBudgetFirstFrameMs) failures.push(`first frame ${result.firstFrame.maxMs.toFixed(0)} ms > ${kBudgetFirstFrameMs}`);

// ---------------------------------------------------------------------------------------------
// JS API calls timed in the page: the first call (the module's functions compiled on first use)
// and `runs` more; gs[name](...args)'s first answer as JSON, the times, their median and maximum.
// ---------------------------------------------------------------------------------------------
async function timeApi(name, args) {
  const page = await browser.newPage();
  await page.goto(url + 'embed.html');
  const t = await page.evaluate(async ([name, args, n]) => {
    const { default: createGpuSizer } = await import(new URL('gpusizer.js', location.href).href);
    const gs = await createGpuSizer();
    const once = () => {
      const t0 = performance.now();
      const text = gs[name](...args);
      return { ms: performance.now() - t0, text };
    };
    const first = once();
    const runsMs = [];
    for (let i = 0; i < n; ++i) runsMs.push(once().ms);
    return { firstMs: first.ms, runsMs, text: first.text };
  }, [name, args, runs]);
  await page.close();
  return { answer: JSON.parse(t.text), firstMs: t.firstMs, runsMs: t.runsMs, medianMs: pct(t.runsMs, 0.5), maxMs: Math.max(t.firstMs, ...t.runsMs) };
}

// The inference plan search.
{
  const { answer, ...times } = await timeApi('plan', [
    { model: 'llama-3-70b', gpu: 'h100-sxm', runtime: 'vllm', gpus: 64, isl: 1000, osl: 1000 }, { mode: 'inference', max_tpot_ms: 30 }]);
  result.plan = { ...times, points: answer.search.evaluated, meeting: answer.search.meeting };
  if (!(result.plan.points > 0)) failures.push('plan search: gs.plan() evaluated no layout');
  if (result.plan.maxMs > kBudgetPlanMs) failures.push(`plan search ${result.plan.maxMs.toFixed(0)} ms > ${kBudgetPlanMs}`);
}

// The request-level simulation: 10,000 requests (bench_cases.hpp's case).
{
  const { answer, ...times } = await timeApi('simulate', [
    { model: 'llama-3.1-8b', gpu: 'h100-sxm', runtime: 'vllm', isl: 1000, osl: 200, request_rate: 15 }, { requests: 10000, seed: 1 }]);
  result.simulate = { ...times, completed: answer.simulation.completed, steps: answer.simulation.steps };
  if (result.simulate.completed !== 10000) failures.push(`simulation: gs.simulate() completed ${result.simulate.completed} of 10,000 requests`);
  if (result.simulate.maxMs > kBudgetSimulateMs) failures.push(`simulation ${result.simulate.maxMs.toFixed(0)} ms > ${kBudgetSimulateMs}`);
}

// ---------------------------------------------------------------------------------------------
// Slider drag
// ---------------------------------------------------------------------------------------------
async function drag(width, height) {
  const page = await browser.newPage({ viewport: { width, height } });
  const state = await openApp(page, url);
  const r = state.layout.find((x) => x.name === 'context slider');
  await page.evaluate(() => new Promise((ok) => setTimeout(ok, 300)));
  await page.evaluate(() => {
    window.__raf = [];
    window.gpusizerFrameCpuMs.length = 0;   // the app appends to the same array
    const tick = (t) => { window.__raf.push(t); if (!window.__stop) requestAnimationFrame(tick); };
    requestAnimationFrame(tick);
  });
  const y = r.y + r.h / 2;
  await page.mouse.move(r.x + 2, y);
  await page.mouse.down();
  const steps = 120;
  for (let i = 1; i <= steps; ++i) {
    await page.mouse.move(r.x + 2 + (r.w - 4) * i / steps, y);
    await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => ok())));
  }
  await page.mouse.up();
  const { raf, cpu, link } = await page.evaluate(() => {
    window.__stop = true;
    return { raf: window.__raf, cpu: [...window.gpusizerFrameCpuMs], link: window.gpusizerApp.link };
  });
  await page.close();
  const intervals = raf.slice(1).map((t, i) => t - raf[i]);
  const seconds = (raf[raf.length - 1] - raf[0]) / 1000;
  return {
    viewport: `${width}x${height}`,
    frames: intervals.length,
    fps: intervals.length / seconds,
    intervalMedianMs: pct(intervals, 0.5),
    intervalP95Ms: pct(intervals, 0.95),
    appMedianMs: pct(cpu, 0.5),
    appP95Ms: pct(cpu, 0.95),
    appMaxMs: Math.max(...cpu),
    endLink: link,
  };
}
result.drag = [await drag(1280, 800), await drag(960, 600)];
for (const d of result.drag)
  if (d.appP95Ms > kFrameMs) failures.push(`drag at ${d.viewport}: the app's frame time p95 ${d.appP95Ms.toFixed(1)} ms > ${kFrameMs.toFixed(1)}`);

await browser.close();
server.close();

// ---------------------------------------------------------------------------------------------
// Report
// ---------------------------------------------------------------------------------------------
const lines = sizeLines();
lines.push('');
const f = result.firstFrame;
lines.push(`first frame (ms from navigation): median ${f.medianMs.toFixed(0)}, max ${f.maxMs.toFixed(0)} over ${runs} fresh contexts; ` +
  `${cold.toFixed(0)} for the first page of a freshly started browser (budget 1000)`);
lines.push('');
lines.push(`inference plan search, gs.plan() (${result.plan.points} points): first call ${result.plan.firstMs.toFixed(1)} ms, then ` +
  `median ${result.plan.medianMs.toFixed(1)}, slowest ${result.plan.maxMs.toFixed(1)} ms over ${runs} calls (budget ${kBudgetPlanMs})`);
lines.push(`simulation, gs.simulate() (10,000 requests, ${result.simulate.steps} engine steps): first call ${result.simulate.firstMs.toFixed(1)} ms, ` +
  `then median ${result.simulate.medianMs.toFixed(1)}, slowest ${result.simulate.maxMs.toFixed(1)} ms over ${runs} calls (budget ${kBudgetSimulateMs})`);
lines.push('');
lines.push('| drag | frames | page fps | rAF interval median / p95 | app time per frame median / p95 / max |', '|---|---|---|---|---|');
for (const d of result.drag)
  lines.push(`| ${d.viewport} | ${d.frames} | ${d.fps.toFixed(1)} | ${d.intervalMedianMs.toFixed(1)} / ${d.intervalP95Ms.toFixed(1)} ms | ` +
    `${d.appMedianMs.toFixed(2)} / ${d.appP95Ms.toFixed(2)} / ${d.appMaxMs.toFixed(2)} ms |`);
console.log(lines.join('\n'));
if (jsonOut) writeFileSync(jsonOut, JSON.stringify(result, null, 2) + '\n');
if (failures.length) {
  console.log('\nOVER BUDGET:\n  ' + failures.join('\n  '));
  if (check) process.exit(1);
}
