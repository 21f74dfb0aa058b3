// widget.test.mjs: the documentation widget (<gpusizer-widget>, embed.html) in Chromium. It
// opens the configuration of its link with the CLI's numbers; each slider and select changes the
// numbers it shows; it embeds with one <script> tag or one <iframe>; it makes no request but
// for the site's own files.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { cliJson, differences, requireSetup, useBrowser, watch } from './harness.mjs';

requireSetup({ needCli: true });

let browser, url;
useBrowser((b, u) => {
  browser = b;
  url = u;
});

// What the widget shows: its report and link, and the texts a reader sees.
function shown(page, selector = '#widget') {
  return page.evaluate((sel) => {
    const el = document.querySelector(sel);
    const root = el.shadowRoot;
    const text = (s) => root.querySelector(s).textContent;
    return {
      report: el.report,
      link: el.link,
      verdict: text('.verdict'),
      total: text('.total'),
      legend: text('.legend'),
      params: text('#gs-params + output'),
      weights: text('#gs-weights + output'),
      context: text('#gs-context + output'),
      gpus: text('#gs-gpus + output'),
      open: root.querySelector('a.open').href,
    };
  }, selector);
}

async function openWidget(page, link) {
  await page.goto(url + 'embed.html' + link);
  await page.waitForFunction(() => document.getElementById('widget').report, null, { timeout: 20000 });
  return shown(page);
}

// Moves the focus to a control in the widget and presses a key (real keyboard events), then
// waits for the estimate: the widget makes one per animation frame, with the latest values.
async function press(page, id, key, times = 1) {
  const before = await shown(page);
  await page.locator(`#widget >> #${id}`).focus();
  for (let i = 0; i < times; ++i) await page.keyboard.press(key);
  await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(() => ok()))));
  await page.waitForFunction((old) => document.getElementById('widget').link !== old, before.link, { timeout: 3000 });
  return shown(page);
}

test('the link\'s configuration, with the CLI\'s numbers', async () => {
  const page = await browser.newPage({ viewport: { width: 600, height: 600 } });
  const seen = watch(page, url);
  const link = '#v=1&m=llama-3.1-8b&w=q4_k_m&ctx=32768&g=rtx-4060-ti-16gb';
  const w = await openWidget(page, link);
  assert.deepEqual(differences(w.report, cliJson(['estimate', '--link', link])), []);
  assert.equal(w.link, link);
  assert.equal(w.verdict, 'Fits');
  assert.match(w.total, /^\d+\.\d\d GiB of 16\.00 GiB per GPU, \d+\.\d\d GiB to spare$/);
  assert.equal(w.params, '8.03 B');
  assert.equal(w.weights, 'GGUF Q4_K_M');
  assert.equal(w.context, '32,768 tokens');
  assert.equal(w.gpus, '1 GPU');
  assert.equal(w.open, url + 'index.html' + link);
  assert.deepEqual(seen.errors, []);
  assert.deepEqual(seen.foreign, []);
  await page.close();
});

test('every slider and select changes the numbers', async () => {
  const page = await browser.newPage({ viewport: { width: 600, height: 600 } });
  const seen = watch(page, url);
  let w = await openWidget(page, '#v=1&m=llama-3-70b&w=q4_k_m&g=rtx-4090x2');
  const total = (s) => s.report.memory.per_gpu.total;

  let next = await press(page, 'gs-gpus', 'ArrowRight');
  assert.equal(next.report.config.gpus, 3);
  assert.ok(total(next) < total(w), 'more GPUs, less memory on each');
  assert.notEqual(next.total, w.total);
  assert.equal(next.gpus, '3 GPUs');
  w = next;

  next = await press(page, 'gs-weights', 'ArrowLeft');   // towards more precise formats
  assert.equal(next.report.config.weights, 'q5_k_m');
  assert.ok(total(next) > total(w));
  assert.equal(next.weights, 'GGUF Q5_K_M');
  w = next;

  next = await press(page, 'gs-context', 'ArrowRight', 2);   // 8,192 -> 32,768 tokens
  assert.equal(next.report.config.context, 32768);
  assert.ok(next.report.memory.per_gpu.kv_cache > w.report.memory.per_gpu.kv_cache);
  assert.equal(next.context, '32,768 tokens');
  w = next;

  next = await press(page, 'gs-params', 'ArrowLeft', 100);   // a custom model of fewer parameters
  assert.equal(typeof next.report.config.model, 'object');
  assert.ok(next.report.params < w.report.params);
  assert.ok(next.report.memory.per_gpu.weights < w.report.memory.per_gpu.weights);
  assert.match(next.link, /[#&]m=custom&np=\d+/);
  w = next;

  await page.locator('#widget >> #gs-model').selectOption('mixtral-8x7b');
  await page.waitForFunction(() => document.getElementById('widget').report.model.id === 'mixtral-8x7b');
  await page.locator('#widget >> #gs-gpu').selectOption('h100-sxm');
  await page.waitForFunction(() => document.getElementById('widget').report.gpu.id === 'h100-sxm');
  w = await shown(page);
  // Whatever the controls did, the widget's numbers are the CLI's for the link it shows.
  assert.deepEqual(differences(w.report, cliJson(['estimate', '--link', w.link])), []);
  assert.equal(w.params, '46.70 B');
  assert.deepEqual(seen.errors, []);
  await page.close();
});

test('a mouse drag on a slider changes the numbers as it goes', async () => {
  const page = await browser.newPage({ viewport: { width: 600, height: 600 } });
  await openWidget(page, '#v=1&m=llama-3-8b&g=rtx-4090');
  const box = await page.locator('#widget >> #gs-context').boundingBox();
  await page.evaluate(() => {
    window.__contexts = [];
    document.getElementById('widget').addEventListener('gpusizer-change', (e) => window.__contexts.push(e.detail.report.config.context));
  });
  await page.mouse.move(box.x + 4, box.y + box.height / 2);
  await page.mouse.down();
  for (let i = 1; i <= 20; ++i) {
    await page.mouse.move(box.x + 4 + (box.width - 8) * i / 20, box.y + box.height / 2);
    await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => ok())));
  }
  await page.mouse.up();
  const contexts = await page.evaluate(() => window.__contexts);
  assert.ok(new Set(contexts).size >= 5, `the drag estimated ${contexts.length} times: ${contexts}`);
  assert.equal(contexts[contexts.length - 1], 1048576);
  await page.close();
});

test('one <script> tag or one <iframe> puts it in a documentation page', async () => {
  const page = await browser.newPage({ viewport: { width: 900, height: 1200 } });
  const seen = watch(page, url);
  // A documentation page on the same server (served by the test, not part of the site).
  await page.route(url + 'docs/page.html', (route) => route.fulfill({
    contentType: 'text/html',
    body: `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>docs</title></head><body>
      <h1>How much memory does Llama 3.1 8B need?</h1>
      <script src="../gpusizer-widget.js" data-link="#v=1&m=llama-3.1-8b&w=q4_k_m&g=rtx-4060-ti-16gb"></script>
      <p>Or in a frame:</p>
      <iframe id="frame" src="../embed.html#v=1&m=mistral-7b&w=q8_0&g=l4" width="560" height="420" style="border:0" title="gpusizer"></iframe>
    </body></html>`,
  }));
  await page.goto(url + 'docs/page.html');
  await page.waitForFunction(() => {
    const w = document.querySelector('gpusizer-widget');
    return w && w.report && w.previousElementSibling && w.previousElementSibling.tagName === 'SCRIPT';
  }, null, { timeout: 20000 });
  const inline = await shown(page, 'gpusizer-widget');
  assert.equal(inline.report.model.id, 'llama-3.1-8b');
  assert.equal(inline.open, url + 'index.html#v=1&m=llama-3.1-8b&w=q4_k_m&g=rtx-4060-ti-16gb');
  const frame = page.frame({ url: /embed\.html/ });
  await frame.waitForFunction(() => document.getElementById('widget').report, null, { timeout: 20000 });
  const framed = await frame.evaluate(() => document.getElementById('widget').report);
  assert.deepEqual(differences(framed, cliJson(['estimate', '--link', '#v=1&m=mistral-7b&w=q8_0&g=l4'])), []);
  assert.deepEqual(seen.errors, []);
  assert.deepEqual(seen.foreign, []);
  await page.close();
});
