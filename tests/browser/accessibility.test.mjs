// accessibility.test.mjs: what a screen reader gets from the app page (QA E8: "screen readers can
// read the full app but not operate it"). Chromium's accessibility tree (CDP
// Accessibility.getFullAXTree) must hold the settings as named form controls with the values
// the canvas shows, the results' tabs, the mirror's speed and "what fits" lines, and a link to
// the light version; changing a control changes the canvas, its verdict and its share link.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';

import { cli, cliJson, openApp, requireSetup, useBrowser, watch } from './harness.mjs';

requireSetup({ needCli: true });

let browser, url;
useBrowser((b, u) => {
  browser = b;
  url = u;
});

// The tree's nodes that are not ignored, as {role, name, value, selected, focusable}.
async function axNodes(page) {
  const cdp = await page.context().newCDPSession(page);
  const { nodes } = await cdp.send('Accessibility.getFullAXTree');
  await cdp.detach();
  const prop = (n, name) => (n.properties || []).find((p) => p.name === name)?.value?.value;
  return nodes.filter((n) => !n.ignored).map((n) => ({
    role: n.role?.value, name: n.name?.value, value: n.value?.value, selected: prop(n, 'selected'), focusable: prop(n, 'focusable'),
  }));
}
const find = (nodes, role, name) => nodes.find((n) => n.role === role && n.name === name);

test('E8: the settings are named controls with the canvas\'s values, and the GPU count changes the verdict', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const seen = watch(page, url);
  // Llama 3 70B in Q4_K_M: 21.75 GiB a GPU on two RTX 4090s (23.99 GiB usable) fits, and
  // 42.12 GiB on one does not (the CLI below says the same).
  const link = '#v=1&m=llama-3-70b&w=q4_k_m&ctx=8192&g=rtx-4090x2';
  const cli2 = cliJson(['estimate', '--model', 'llama-3-70b', '--weights', 'q4_k_m', '--context', '8192', '--gpu', 'rtx-4090', '--gpus', '2']);
  const cli1 = cliJson(['estimate', '--model', 'llama-3-70b', '--weights', 'q4_k_m', '--context', '8192', '--gpu', 'rtx-4090', '--gpus', '1']);
  assert.equal(cli2.fits, true);
  assert.equal(cli1.fits, false);
  const state = await openApp(page, url, link);
  await page.waitForFunction(() => document.getElementById('c-model').value !== '', null, { timeout: 5000 });

  let nodes = await axNodes(page);
  const weightsLabel = await page.evaluate(() => window.gpusizerChoices.weights.find(([id]) => id === 'q4_k_m')[1]);
  assert.equal(find(nodes, 'combobox', 'Model')?.value, state.report.model.name);
  assert.equal(find(nodes, 'combobox', 'Weights')?.value, weightsLabel);
  assert.equal(find(nodes, 'spinbutton', 'Context (tokens)')?.value, 8192);
  assert.equal(find(nodes, 'combobox', 'GPU')?.value, cli2.gpu.name);
  assert.equal(find(nodes, 'spinbutton', 'GPU count')?.value, 2);
  assert.ok(find(nodes, 'tablist', 'Results'), 'the results\' tabs are a tab list');
  const tabs = nodes.filter((n) => n.role === 'tab');
  // The canvas's tabs, as its layout names them ("<label> tab", lower case), in their order.
  const canvasTabs = state.layout.filter((r) => / tab$/.test(r.name)).map((r) => r.name);
  assert.deepEqual(tabs.map((t) => t.name.toLowerCase() + ' tab'), canvasTabs);
  assert.deepEqual(tabs.filter((t) => t.selected).map((t) => t.name), ['Memory']);
  const light = find(nodes, 'link', 'Accessible calculator');
  assert.ok(light && light.focusable, 'a link to the light version');
  assert.equal(await page.getAttribute('#accessible-link', 'href'), 'embed.html' + state.link);
  // The mirror's speed and "what fits" lines, with the CLI's figures: its text report's decode
  // rate and time to first token (as the app formats them), and `gpusizer fit`.
  const args = ['--model', 'llama-3-70b', '--weights', 'q4_k_m', '--context', '8192', '--gpu', 'rtx-4090', '--gpus', '2'];
  const text = execFileSync(cli, ['estimate', ...args], { encoding: 'utf8' });
  const decode = text.match(/decode +~([\d.,]+) /)[1], ttft = text.match(/time to first token ([\d.]+ \w+)/)[1];
  const speed = await page.textContent('#speed');
  assert.ok(speed.startsWith(`Speed: decode ~${decode} tok/s per sequence, `), speed);
  assert.ok(speed.endsWith(`; time to first token ~${ttft}.`), speed);
  const fit = cliJson(['fit', ...args]);
  const n = (x) => x.toLocaleString('en-US');
  assert.equal(await page.textContent('#what-fits'), `What fits: longest context at batch 1: ${n(fit.max_context)} tokens; largest batch ` +
    `at 8,192 tokens: ${n(fit.max_batch)}; most precise weights that fit: ${fit.best_weights}; KV cache: ${fit.best_kv_cache}.`);
  assert.match(await page.textContent('#verdict'), /^Fits: /);

  // One GPU: the canvas's verdict, the mirror's and the link follow; the control reads it back.
  await page.fill('#c-gpus', '1');
  await page.press('#c-gpus', 'Enter');
  await page.waitForFunction(() => window.gpusizerApp.report.config.gpus === 1, null, { timeout: 5000 });
  const after = await page.evaluate(() => window.gpusizerApp);
  assert.equal(after.fits, false);
  assert.match(after.link, /&g=rtx-4090$/);
  await page.waitForFunction(() => location.hash.endsWith('&g=rtx-4090'), null, { timeout: 5000 });
  assert.match(await page.textContent('#verdict'), /^Does not fit: /);
  nodes = await axNodes(page);
  assert.equal(find(nodes, 'spinbutton', 'GPU count')?.value, 1);
  assert.equal(await page.getAttribute('#accessible-link', 'href'), 'embed.html' + after.link);

  // Another GPU (its count kept), another weights format and context, by the form controls.
  await page.selectOption('#c-gpu', 'h100-sxm');
  await page.waitForFunction(() => window.gpusizerApp.report.config.gpu === 'h100-sxm', null, { timeout: 5000 });
  await page.selectOption('#c-weights', 'fp8');
  await page.waitForFunction(() => window.gpusizerApp.report.config.weights === 'fp8', null, { timeout: 5000 });
  await page.fill('#c-context', '32768');
  await page.press('#c-context', 'Enter');
  await page.waitForFunction(() => window.gpusizerApp.report.config.context === 32768, null, { timeout: 5000 });
  await page.selectOption('#c-model', 'llama-3-8b');
  await page.waitForFunction(() => window.gpusizerApp.report.config.model === 'llama-3-8b', null, { timeout: 5000 });
  assert.match(await page.evaluate(() => window.gpusizerApp.link), /m=llama-3-8b&w=fp8&ctx=32768&g=h100-sxm$/);
  // A value the app refuses: it says why, and the control goes back to what the canvas shows.
  await page.fill('#c-context', '200000000');   // over the key's range (2^27 tokens)
  await page.press('#c-context', 'Enter');
  await page.waitForFunction(() => /^Link not opened: context/.test(document.getElementById('status').textContent), null, { timeout: 5000 });
  await page.waitForFunction(() => document.getElementById('c-context').value === '32768', null, { timeout: 5000 });
  assert.deepEqual(seen.errors, []);
  await page.close();
});

test('E8: a tab chosen from the tab list shows on the canvas', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const seen = watch(page, url);
  await openApp(page, url, '#v=1&m=llama-3-8b&g=rtx-4090');
  await page.waitForFunction(() => document.querySelector('#c-tabs [aria-selected=true]'), null, { timeout: 5000 });
  await page.focus('#c-tabs [aria-selected=true]');
  await page.keyboard.press('ArrowRight');   // Memory -> Speed & power
  await page.waitForFunction(() => window.gpusizerApp.tab === 'speed', null, { timeout: 5000 });
  assert.equal(await page.evaluate(() => document.activeElement.textContent), 'Speed & power');
  await page.keyboard.press('End');
  const last = await page.evaluate(() => window.gpusizerChoices.tabs.at(-1)[0]);
  await page.waitForFunction((t) => window.gpusizerApp.tab === t, last, { timeout: 5000 });
  await page.click('#c-tabs [data-tab=plan]');
  await page.waitForFunction(() => window.gpusizerApp.layout.some((r) => r.name === 'serving layouts switch'), null, { timeout: 5000 });
  const nodes = await axNodes(page);
  assert.deepEqual(nodes.filter((n) => n.role === 'tab' && n.selected).map((n) => n.name), ['Plan']);
  assert.deepEqual(seen.errors, []);
  await page.close();
});
