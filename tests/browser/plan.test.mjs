// plan.test.mjs: the Plan tab's serving search in the app page, driven by clicks as a user drives
// it. The app publishes the search in brief as window.gpusizerApp.plan (ui/status.cpp: null
// before a search; the counts, the verdict and the best point after one, with plan_to_json's
// names); its best point is the one `gpusizer plan --mode inference` prints for the same link,
// a TPOT limit no layout meets leaves no best and the tab's "No layout meets" message, and with a
// benchmark report open the search uses its measured figures, as `gpusizer plan --measured` does.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { cliJson, fakeReport, frames, hold, layoutRect, openApp, requireSetup, useBrowser, watch, clickFrames } from './harness.mjs';

requireSetup({ needCli: true });

// Llama 3 8B in bf16 on up to 8 H100 SXM, serving; the tab's load is its default 1,024 input
// and 1,024 output tokens (the link sets no isl or osl).
const kLink = '#v=1&m=llama-3-8b&g=h100-sxmx8';
const kLoad = ['--isl', '1024', '--osl', '1024'];

// A test's page: 1440x900 (the whole tab bar in view), watched, the app open at kLink.
let openPage;
useBrowser((browser, url) => {
  openPage = async () => {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    const seen = watch(page, url);
    return { page, seen, state: await openApp(page, url, kLink) };
  };
});

const appState = (page) => page.evaluate(() => window.gpusizerApp);

// Clicks the middle of the widget the app reports as `name`, once it reports one.
async function click(page, name) {
  await page.waitForFunction((n) => window.gpusizerApp.layout.some((r) => r.name === n), name, { timeout: 10000 });
  const r = layoutRect(await appState(page), name);
  await clickFrames(page, r.x + r.w / 2, r.y + r.h / 2);
  await frames(page, 3);
}

// Runs the serving search with its button; resolves to the published summary of the new search
// (its mode and counts differ from `before`'s, or there was none).
async function search(page, before) {
  await click(page, 'search serving layouts button');
  await page.waitForFunction((b) => {
    const p = window.gpusizerApp.plan;
    return p && p.mode === 'inference' && JSON.stringify(p) !== b;
  }, JSON.stringify(before), { timeout: 20000 });
  return (await appState(page)).plan;
}

// Equal to rounding: the browser's and the native build's libm may differ in the last bits.
function near(a, b, what) {
  assert.ok(Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b)), `${what}: ${a} in the app, ${b} from the CLI`);
}

test('Plan tab: the serving search by clicks, its best point as the CLI finds it, and a TPOT limit nothing meets', async () => {
  const { page, seen, state } = await openPage();
  assert.equal(state.report.config.gpus, 8);
  assert.equal(state.plan, null, 'no plan summary before a search');
  // The tab is in the tab bar, within the results window.
  const tab = layoutRect(state, 'plan tab');
  const results = layoutRect(state, 'Results');
  assert.ok(tab.x + tab.w <= results.x + results.w, `the Plan tab (${tab.x} + ${tab.w}) is past the window's edge`);

  await click(page, 'plan tab');
  await click(page, 'serving layouts switch');
  const plan = await search(page, null);
  const cli = cliJson(['plan', '--share-link', kLink, '--mode', 'inference', ...kLoad]);
  // The counts of the same search, and its best point: within the 8 GPUs, tokens/s per GPU > 0
  // and the CLI's to rounding, the same layout.
  assert.equal(plan.evaluated, cli.search.evaluated);
  assert.equal(plan.fitting, cli.search.fitting);
  assert.equal(plan.meeting, cli.search.meeting);
  assert.ok(plan.meeting > 0);
  assert.equal(plan.verdict, '');
  assert.ok(plan.best, 'a best point');
  assert.ok(plan.best.gpus <= 8, `${plan.best.gpus} GPUs`);
  assert.ok(plan.best.output_tokens_per_s_per_gpu > 0);
  for (const k of ['tp', 'pp', 'dp', 'ep', 'gpus', 'concurrency', 'disaggregated']) assert.equal(plan.best[k], cli.best[k], k);
  for (const k of ['output_tokens_per_s_per_gpu', 'tokens_per_s_per_user', 'ttft_s', 'tpot_s']) near(plan.best[k], cli.best[k], k);
  assert.ok(Math.abs(plan.best.memory_per_gpu - cli.best.memory_per_gpu) <= 1, 'memory_per_gpu (the CLI rounds it to bytes)');

  // TPOT at most 1 ms: Ctrl+click turns the field into text, "1", Enter. Even tp 8's step is
  // longer (the CLI's best under 2 ms is 1.9 ms), so nothing meets it.
  const field = layoutRect(await appState(page), 'max TPOT ms field');
  await page.keyboard.down('Control');
  await frames(page, 3);
  await clickFrames(page, field.x + field.w / 2, field.y + field.h / 2);
  await frames(page, 3);
  await page.keyboard.up('Control');
  await frames(page, 3);
  await page.keyboard.type('1');
  await frames(page, 3);
  await hold(page, 'Enter');
  const none = await search(page, plan);
  const strict = cliJson(['plan', '--share-link', kLink, '--mode', 'inference', ...kLoad, '--max-tpot-ms', '1']);
  assert.equal(strict.search.meeting, 0);
  assert.equal(strict.best, null);
  assert.equal(none.meeting, 0);
  assert.equal(none.fitting, strict.search.fitting);
  assert.equal(none.best, null);
  assert.match(none.verdict, /^No layout meets the targets \(TPOT <= 1 ms\)/);
  assert.deepEqual(seen.errors, []);
  await page.close();
});

test('Plan tab: with a benchmark report open, the serving search uses its measured figures', async () => {
  const { page, seen } = await openPage();
  await click(page, 'plan tab');
  await click(page, 'serving layouts switch');
  const datasheet = await search(page, null);
  // A simulated report of two H100s (its triad at 2,970 of 3,350 GB/s), dropped on the page.
  const report = fakeReport(2);
  await page.evaluate((t) => {
    const data = new DataTransfer();
    data.items.add(new File([t], 'report-2.json', { type: 'application/json' }));
    window.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
  }, readFileSync(report, 'utf8'));
  await page.waitForFunction(() => window.gpusizerApp.report && window.gpusizerApp.report.measured, null, { timeout: 5000 });
  // Opening a report brings the Measured tab to the front and adds lines above the tabs: the
  // Plan tab is clicked where the app draws it once the page has settled.
  await frames(page, 10);
  await click(page, 'plan tab');
  const measured = await search(page, datasheet);
  const cli = cliJson(['plan', '--share-link', kLink, '--mode', 'inference', ...kLoad, '--measured', report]);
  assert.ok(measured.best && datasheet.best);
  // Decoding is bound by memory bandwidth: less of it, fewer tokens/s per GPU.
  assert.ok(measured.best.output_tokens_per_s_per_gpu < datasheet.best.output_tokens_per_s_per_gpu,
    `${measured.best.output_tokens_per_s_per_gpu} measured against ${datasheet.best.output_tokens_per_s_per_gpu} datasheet`);
  for (const k of ['tp', 'pp', 'dp', 'ep', 'gpus', 'concurrency']) assert.equal(measured.best[k], cli.best[k], k);
  near(measured.best.output_tokens_per_s_per_gpu, cli.best.output_tokens_per_s_per_gpu, 'output_tokens_per_s_per_gpu');
  assert.deepEqual(seen.errors, []);
  await page.close();
});

test('Plan tab: the request simulation by a click, its figures as `gpusizer simulate` gives them at the same rate', async () => {
  const { page, seen } = await openPage();
  await click(page, 'plan tab');
  assert.equal((await appState(page)).simulation, null, 'no simulation before the switch');
  await click(page, 'request simulation switch');
  await page.waitForFunction(() => window.gpusizerApp.simulation && window.gpusizerApp.simulation.completed > 0, null, { timeout: 20000 });
  const app = (await appState(page)).simulation;
  assert.equal(app.completed, 1000);
  assert.ok(app.request_rate > 0, 'a default rate: half of what the engines sustain');
  // The charts are drawn, and no message replaces them.
  const names = (await appState(page)).layout.map((r) => r.name);
  for (const n of ['simulation summary', 'simulation latency chart', 'simulation timeline chart']) assert.ok(names.includes(n), n);
  assert.ok(!names.includes('simulation message'));
  // The CLI at the app's rate and load (the tab's default 1,024 + 1,024 tokens, seed 0).
  const cli = cliJson(['simulate', '--share-link', kLink, ...kLoad, '--request-rate', String(app.request_rate), '--requests', '1000']).simulation;
  near(app.output_tokens_per_s, cli.output_tokens_per_s, 'output_tokens_per_s');
  near(app.ttft_p99_s, cli.ttft_s.p99, 'ttft p99');
  near(app.tpot_p50_s, cli.tpot_s.p50, 'tpot p50');
  assert.deepEqual(seen.errors, []);
  await page.close();
});
