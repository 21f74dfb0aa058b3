// i18n.test.mjs: the page and the widget in Brazilian Portuguese (issue 28). The app opened with
// &lang=pt-BR, or in a browser whose language is Portuguese, speaks it and so does the page around
// it: <html lang>, the mirror's sentences with the figures in Brazilian separators ("8,94 GiB de
// 16,00 GiB por GPU"), the form controls' and the tabs' accessible names; the app's language switch
// takes the page along, and back. The widget speaks it with data-lang="pt-BR", lang="pt-BR", the
// link's lang= or the browser's language ("Cabe", decimal commas). Every Portuguese text expected
// here is read from the table (assets/strings.json), the figures from the CLI.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { cliJson, clickFrames, layoutRect, openApp, repo, requireSetup, useBrowser, watch } from './harness.mjs';

requireSetup({ needCli: true });

let browser, url;
useBrowser((b, u) => {
  browser = b;
  url = u;
});

// English -> Portuguese, from the table the build writes into the page and the widget.
const table = new Map(JSON.parse(readFileSync(join(repo, 'assets', 'strings.json'), 'utf8')).strings.map((r) => [r.en, r['pt-BR']]));
const pt = (en) => {
  assert.ok(table.has(en), `no row for "${en}"`);
  return table.get(en);
};
const f = (format, ...args) => {
  let i = 0;
  return format.replace(/%s/g, () => String(args[i++]));
};
// The CLI's figures as the app and the widget write them (format_gib), and in pt-BR separators.
const kGiB = 1024 ** 3;
const gib = (b) => (Math.abs(b) < kGiB ? (b / 1024 ** 2).toFixed(0) + ' MiB' : (b / kGiB).toFixed(2) + ' GiB');
const brazilian = (s) => s.replace(/[.,]/g, (c) => (c === '.' ? ',' : '.'));

const kLink = '#v=1&m=llama-3.1-8b&w=q4_k_m&ctx=32768&g=rtx-4060-ti-16gb';
const kArgs = ['estimate', '--model', 'llama-3.1-8b', '--weights', 'q4_k_m', '--context', '32768', '--gpu', 'rtx-4060-ti-16gb'];
const kTabs = ['Memory', 'Speed & power', 'Cost', 'Plots', 'Compare GPUs', 'Recommend', 'Measured', 'Assumptions', 'Engine log', 'Plan', 'Pinned'];

// Chromium's accessibility tree (CDP), as accessibility.test.mjs reads it.
async function axNodes(page) {
  const cdp = await page.context().newCDPSession(page);
  const { nodes } = await cdp.send('Accessibility.getFullAXTree');
  await cdp.detach();
  return nodes.filter((n) => !n.ignored).map((n) => ({ role: n.role?.value, name: n.name?.value, value: n.value?.value }));
}
const names = (nodes, role) => nodes.filter((n) => n.role === role).map((n) => n.name);

// The mirror's verdict for the CLI's report, in Portuguese.
function verdictPt(r) {
  const m = r.memory;
  return f(pt(r.fits ? 'Fits: %s of %s per GPU, %s to spare.' : 'Does not fit: %s of %s per GPU, %s short.'),
    brazilian(gib(m.per_gpu.total)), brazilian(gib(m.gpu_usable)), brazilian(gib(Math.abs(m.headroom))));
}

test('the app with &lang=pt-BR: <html lang>, the mirror in Portuguese with Brazilian figures, Portuguese accessible names', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const seen = watch(page, url);
  const r = cliJson(kArgs);
  assert.equal(r.fits, true);
  const state = await openApp(page, url, kLink + '&lang=pt-BR');
  assert.equal(state.lang, 'pt-BR');
  await page.waitForFunction(() => document.documentElement.lang === 'pt-BR' && document.getElementById('verdict').textContent, null, { timeout: 5000 });
  // "Cabe: 5,61 GiB de 15,57 GiB por GPU, 9,96 GiB de folga." as the canvas writes it.
  const verdict = await page.textContent('#verdict');
  assert.equal(verdict, verdictPt(r));
  assert.match(verdict, /^Cabe: \d+,\d\d GiB de \d+,\d\d GiB por GPU, \d+,\d\d GiB de folga\.$/);
  assert.equal(await page.textContent('#configuration'), f(pt('%s on %s × %s, %s weights, %s tokens, batch %s.'), r.model.name, 1, r.gpu.name,
    'q4_k_m', '32.768', 1));
  assert.ok((await page.textContent('#speed')).startsWith(pt('Speed: decode ~%s tok/s per sequence, ~%s tok/s in all; prefill ~%s tok/s; time to first token ~%s.').split('%s')[0]));
  assert.equal(await page.title(), f(pt('Fits: %s on %s × %s · gpusizer'), r.model.name, 1, r.gpu.name));
  // The breakdown's heads and rows, and the page's own controls.
  assert.deepEqual(await page.$$eval('#breakdown thead th', (th) => th.map((x) => x.textContent)), [pt('Part'), pt('Memory')]);
  const rows = await page.$$eval('#breakdown tbody th', (th) => th.map((x) => x.textContent));
  assert.deepEqual(rows.slice(0, 2), [pt('Weights'), pt('KV cache')]);
  assert.equal(rows.at(-1), pt('Total'));
  assert.equal(await page.textContent('#hub-toggle'), pt('From the Hub'));
  assert.equal(await page.getAttribute('#hub-repo', 'placeholder'), pt('org/name or org/name@revision'));

  const nodes = await axNodes(page);
  for (const [role, name] of [['combobox', 'Model'], ['combobox', 'Weights'], ['spinbutton', 'Context (tokens)'], ['combobox', 'GPU'],
    ['spinbutton', 'GPU count'], ['tablist', 'Results'], ['link', 'Accessible calculator'], ['button', 'From the Hub']])
    assert.ok(nodes.some((n) => n.role === role && n.name === pt(name)), `a ${role} named "${pt(name)}"`);
  assert.deepEqual(names(nodes, 'tab'), kTabs.map(pt));
  assert.ok(nodes.some((n) => n.name === pt('gpusizer calculator')), 'the canvas is named in Portuguese');
  assert.ok(nodes.some((n) => n.role === 'StaticText' && n.name === verdict), 'the verdict is read out in Portuguese');
  // The link keeps the language, the numbers of the mirror the app's (its status figures).
  assert.match(state.link, /&lang=pt-BR$/);
  assert.deepEqual(seen.errors, []);
  assert.deepEqual(seen.foreign, []);
  await page.close();
});

test('the app\'s language switch takes the page along, and back to English', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const seen = watch(page, url);
  const r = cliJson(kArgs);
  const state = await openApp(page, url, kLink);
  assert.equal(state.lang, 'en');
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'en');
  await page.waitForFunction(() => /^Fits: /.test(document.getElementById('verdict').textContent), null, { timeout: 5000 });
  // The app's button names the other language ("Português").
  const button = layoutRect(state, 'language button');
  await clickFrames(page, button.x + button.w / 2, button.y + button.h / 2);
  await page.waitForFunction(() => document.documentElement.lang === 'pt-BR', null, { timeout: 5000 });
  await page.waitForFunction((v) => document.getElementById('verdict').textContent === v, verdictPt(r), { timeout: 5000 });
  assert.equal(await page.textContent('#hub-toggle'), pt('From the Hub'));
  assert.deepEqual(await page.$$eval('#c-tabs [role=tab]', (b) => b.map((x) => x.textContent)), kTabs.map(pt));
  assert.equal(await page.textContent('label[for=c-gpus]'), pt('GPU count'));
  assert.match(await page.title(), /^Cabe: /);
  await page.waitForFunction(() => /&lang=pt-BR/.test(location.hash), null, { timeout: 5000 });
  // The selected tab and the control values survive the switch.
  assert.equal(await page.getAttribute('#c-tabs [aria-selected=true]', 'data-tab'), 'memory');
  assert.equal(await page.inputValue('#c-model'), 'llama-3.1-8b');

  const again = layoutRect(await page.evaluate(() => window.gpusizerApp), 'language button');
  await clickFrames(page, again.x + again.w / 2, again.y + again.h / 2);
  await page.waitForFunction(() => document.documentElement.lang === 'en', null, { timeout: 5000 });
  await page.waitForFunction(() => /^Fits: \d+\.\d\d GiB of /.test(document.getElementById('verdict').textContent), null, { timeout: 5000 });
  assert.equal(await page.textContent('#hub-toggle'), 'From the Hub');
  assert.deepEqual(await page.$$eval('#c-tabs [role=tab]', (b) => b.map((x) => x.textContent)), kTabs);
  assert.equal(await page.title(), `Fits: ${r.model.name} on 1 × ${r.gpu.name} · gpusizer`);
  assert.deepEqual(seen.errors, []);
  await page.close();
});

test('a browser in Portuguese gets the app, the page and the widget in Portuguese by default', async () => {
  // Chromium's language (Accept-Language and navigator.language) as a Brazilian reader's.
  const context = await browser.newContext({ locale: 'pt-BR', viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const seen = watch(page, url);
  const r = cliJson(kArgs);
  const state = await openApp(page, url, kLink);
  assert.equal(await page.evaluate(() => navigator.language), 'pt-BR');
  assert.equal(state.lang, 'pt-BR');
  assert.doesNotMatch(state.link, /lang=/, 'the browser\'s language is not written into the link');
  await page.waitForFunction((v) => document.documentElement.lang === 'pt-BR' && document.getElementById('verdict').textContent === v, verdictPt(r),
    { timeout: 5000 });
  // The widget: the browser's language too, and its link to the app leaves the choice to the app.
  await page.goto(url + 'embed.html' + kLink);
  await page.waitForFunction(() => document.getElementById('widget').report, null, { timeout: 20000 });
  const w = await page.evaluate(() => {
    const root = document.getElementById('widget').shadowRoot;
    return { verdict: root.querySelector('.verdict').textContent, open: root.querySelector('a.open').href, lang: document.documentElement.lang };
  });
  assert.equal(w.verdict, pt('Fits'));
  assert.equal(w.lang, 'pt-BR');
  assert.equal(w.open, url + 'index.html' + kLink);
  assert.deepEqual(seen.errors, []);
  await context.close();
});

// What a widget shows, by the selector of its element.
function widgetTexts(page, selector) {
  return page.evaluate((sel) => {
    const el = document.querySelector(sel);
    const root = el.shadowRoot;
    const text = (s) => root.querySelector(s).textContent;
    return {
      verdict: text('.verdict'), total: text('.total'), legend: [...root.querySelectorAll('.legend li')].map((li) => li.textContent),
      params: text('#gs-params + output'), context: text('#gs-context + output'), gpus: text('#gs-gpus + output'),
      labels: [...root.querySelectorAll('label')].map((l) => l.textContent), open: root.querySelector('a.open').href,
      openText: root.querySelector('a.open').textContent, pin: root.querySelector('.pin').textContent, lang: root.querySelector('.box').lang,
    };
  }, selector);
}

test('the widget with data-lang="pt-BR", lang="pt-BR" and the link\'s lang=: "Cabe", decimal commas, Portuguese names', async () => {
  const page = await browser.newPage({ viewport: { width: 900, height: 1400 } });
  const seen = watch(page, url);
  const r = cliJson(kArgs);
  await page.route(url + 'docs/pt.html', (route) => route.fulfill({
    contentType: 'text/html',
    body: `<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>docs</title></head><body>
      <script src="../gpusizer-widget.js" data-lang="pt-BR" data-link="${kLink}"></script>
      <gpusizer-widget id="by-attribute" lang="pt-BR" link="${kLink}"></gpusizer-widget>
      <gpusizer-widget id="no-lang" link="${kLink}"></gpusizer-widget>
    </body></html>`,
  }));
  await page.goto(url + 'docs/pt.html');
  await page.waitForFunction(() => [...document.querySelectorAll('gpusizer-widget')].every((w) => w.report), null, { timeout: 20000 });
  const m = r.memory;
  for (const selector of ['script + gpusizer-widget', '#by-attribute']) {
    const w = await widgetTexts(page, selector);
    assert.equal(w.lang, 'pt-BR');
    assert.equal(w.verdict, pt('Fits'));
    assert.equal(w.total, f(pt('%s of %s per GPU, %s to spare'), brazilian(gib(m.per_gpu.total)), brazilian(gib(m.gpu_usable)), brazilian(gib(m.headroom))));
    assert.match(w.total, /^\d+,\d\d GiB de \d+,\d\d GiB por GPU, \d+,\d\d GiB de folga$/);
    assert.equal(w.params, '8,03 B');
    assert.equal(w.context, '32.768 tokens');
    assert.deepEqual(w.labels, ['Model', 'Parameters', 'Precision', 'Context', 'GPU', 'GPUs'].map(pt));
    assert.equal(w.legend[0], pt('weights') + ' ' + brazilian(gib(m.per_gpu.weights)));
    assert.equal(w.openText, pt('Open in the full calculator'));
    assert.equal(w.pin, pt('Pin to compare'));
    // The full calculator opens in the widget's language.
    assert.equal(w.open, url + 'index.html' + kLink + '&lang=pt-BR');
  }
  // An element without its own lang on the same page: the script's data-lang is for the widgets it defines.
  assert.equal((await widgetTexts(page, '#no-lang')).verdict, pt('Fits'));
  // The accessibility tree: the controls' names in Portuguese, for each of the three widgets; the
  // sliders' value texts from the DOM (this Chromium's CDP tree reports a slider's number as its
  // value text, widget.test.mjs).
  const nodes = await axNodes(page);
  assert.deepEqual(names(nodes, 'slider'), Array(3).fill(['Parameters', 'Precision', 'Context', 'GPUs'].map(pt)).flat());
  assert.deepEqual(names(nodes, 'combobox'), Array(3).fill(['Model', 'GPU'].map(pt)).flat());
  const valueTexts = await page.evaluate(() => {
    const root = document.getElementById('by-attribute').shadowRoot;
    return ['gs-params', 'gs-weights', 'gs-context', 'gs-gpus'].map((id) => root.getElementById(id).getAttribute('aria-valuetext'));
  });
  assert.deepEqual(valueTexts, [f(pt('%s parameters'), '8,03 B'), 'GGUF Q4_K_M', '32.768 tokens', '1 GPU']);

  // The pinned comparison in Portuguese, then the language changed live on the element.
  await page.locator('#by-attribute >> .pin').click();
  await page.waitForFunction(() => !document.querySelector('#by-attribute').shadowRoot.querySelector('.compare').hidden, null, { timeout: 5000 });
  const heads = await page.evaluate(() => [...document.querySelector('#by-attribute').shadowRoot.querySelectorAll('.compare tr:first-child th')]
    .map((th) => th.textContent));
  assert.deepEqual(heads, ['', pt('Pinned'), pt('Now')]);
  await page.evaluate(() => document.querySelector('#by-attribute').setAttribute('lang', 'en'));
  const en = await widgetTexts(page, '#by-attribute');
  assert.equal(en.verdict, 'Fits');
  assert.match(en.total, /^\d+\.\d\d GiB of \d+\.\d\d GiB per GPU, \d+\.\d\d GiB to spare$/);
  assert.equal(en.pin, 'Unpin');
  assert.deepEqual(en.labels, ['Model', 'Parameters', 'Precision', 'Context', 'GPU', 'GPUs']);
  assert.deepEqual(seen.errors, []);
  assert.deepEqual(seen.foreign, []);
  await page.close();
});

test('embed.html with lang=pt-BR in its link: the widget and the page around it in Portuguese', async () => {
  const page = await browser.newPage({ viewport: { width: 600, height: 700 } });
  const seen = watch(page, url);
  await page.goto(url + 'embed.html' + kLink + '&lang=pt-BR');
  await page.waitForFunction(() => document.getElementById('widget').report, null, { timeout: 20000 });
  const w = await widgetTexts(page, '#widget');
  assert.equal(w.verdict, pt('Fits'));
  assert.equal(w.gpus, '1 GPU');
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'pt-BR');
  assert.equal(await page.title(), pt('gpusizer widget'));
  assert.equal(await page.evaluate(() => document.getElementById('widget').link), kLink);
  // A link without lang= afterwards: the browser's language again (English here).
  await page.evaluate((l) => { location.hash = l; }, kLink.replace('ctx=32768', 'ctx=8192'));
  await page.waitForFunction(() => document.getElementById('widget').shadowRoot.querySelector('.verdict').textContent === 'Fits', null, { timeout: 5000 });
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'en');
  assert.equal(await page.title(), 'gpusizer widget');
  assert.deepEqual(seen.errors, []);
  await page.close();
});

test('the fallbacks in Portuguese: no WebGL (the link\'s language), no JavaScript (both languages)', async () => {
  // No WebGL: getContext('webgl2') answers null, as qa_regressions.test.mjs E16 makes it.
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const seen = watch(page, url);
  await page.addInitScript(() => {
    const get = HTMLCanvasElement.prototype.getContext;
    HTMLCanvasElement.prototype.getContext = function (kind, ...rest) { return /webgl/.test(kind) ? null : get.call(this, kind, ...rest); };
  });
  await page.goto(url + 'index.html' + kLink + '&lang=pt-BR');
  await page.waitForSelector('#fallback:not([hidden])', { timeout: 10000 });
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'pt-BR');
  assert.equal(await page.textContent('#fallback-reason'), pt('This browser gives no WebGL2 context, which the full app draws with.'));
  assert.equal(await page.textContent('#fallback-offer'), pt('The light version of the calculator works without WebGL:') + ' embed.html.');
  assert.equal(await page.title(), pt('gpusizer: GPU memory for LLM inference and training'));
  assert.deepEqual(seen.errors, []);
  await page.close();
  // No JavaScript: nothing can choose, so the page says it in both languages, each marked.
  const context = await browser.newContext({ javaScriptEnabled: false, locale: 'pt-BR' });
  const bare = await context.newPage();
  await bare.goto(url + 'index.html');
  const said = await bare.$$eval('#noscript p', (ps) => ps.map((p) => [p.lang, p.textContent]));
  assert.deepEqual(said, [['', 'gpusizer runs in the browser and needs JavaScript.'], ['pt-BR', pt('gpusizer runs in the browser and needs JavaScript.')]]);
  await context.close();
});
