// widget.test.mjs: the documentation widget (<gpusizer-widget>, embed.html) in Chromium. It
// opens the configuration of its link with the CLI's numbers; each slider and select changes the
// numbers it shows; it embeds with one <script> tag or one <iframe>; it makes no request but
// for the site's own files.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cli, cliJson, configFile, differences, requireSetup, useBrowser, watch, widgetView } from './harness.mjs';

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
  assert.deepEqual(differences(w.report, widgetView(cliJson(['estimate', '--link', link]))), []);
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

// A GPU that is not in the catalog (docs/config.md, "Custom GPU"): the widget's module has no room
// for them (GPUSIZER_CUSTOM_GPU=0, web/CMakeLists.txt), so a link of one is refused with a message
// that sends the reader to the app, which opens it (tests/test_ui_state.cpp), and the widget shows
// its default configuration; the JS API of the lite module refuses one with the same message.
test('a link of a custom GPU: refused with a message naming the app, the default shown', async () => {
  const page = await browser.newPage({ viewport: { width: 600, height: 600 } });
  const seen = watch(page, url);
  const link = '#v=1&m=llama-3-70b&w=q4_k_m&g=customx2&gc=b:rtx-4090~n:My%204090%20OC~bw:1108.8~tdp:500';
  const w = await openWidget(page, link);
  const message = await page.evaluate(() => document.getElementById('widget').shadowRoot.querySelector('.message').textContent);
  assert.equal(message, 'Link not opened: gpu: the widget takes no custom GPU: open the link in the gpusizer app. ' +
    'Showing the default configuration.');
  assert.notEqual(w.report.gpu.id, 'custom');
  assert.deepEqual(seen.errors, []);
  await page.close();
});

// The model list is the catalog's (`gpusizer models`), grouped by family as the app's picker.
test('the model list is the catalog, grouped by family', async () => {
  const page = await browser.newPage({ viewport: { width: 600, height: 600 } });
  await openWidget(page, '#v=1&m=llama-3.1-8b&w=q4_k_m&g=rtx-4090');
  const groups = await page.evaluate(() => [...document.getElementById('widget').shadowRoot
    .querySelectorAll('#gs-model optgroup')].map((g) => ({ label: g.label, ids: [...g.querySelectorAll('option')].map((o) => o.value) })));
  const models = cliJson(['models']);
  const expected = [];
  for (const m of models) {
    let g = expected.find((x) => x.label === m.family);
    if (!g) expected.push(g = { label: m.family, ids: [] });
    g.ids.push(m.id);
  }
  assert.deepEqual(groups, expected);
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

  // Towards more precise formats: the one listed before Q4_K_M (gs.formats(), most precise
  // first; Q4_1 at 5.0 bits per weight since the ggml types joined the list).
  // `gpusizer formats` lists them in the same order; every GGUF type runs on llama.cpp.
  const order = execFileSync(cli, ['formats'], { encoding: 'utf8' }).split('kv_cache:')[0]
    .split('\n').filter((l) => /^  \S/.test(l)).map((l) => l.trim().split(/\s+/));
  const before = order[order.findIndex((f) => f[0] === 'q4_k_m') - 1];
  next = await press(page, 'gs-weights', 'ArrowLeft');
  assert.equal(next.report.config.weights, before[0]);
  assert.ok(total(next) > total(w));
  assert.equal(next.weights, before.slice(1, 3).join(' '));   // "GGUF Q4_1", without "(llama.cpp)"
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
  assert.deepEqual(differences(w.report, widgetView(cliJson(['estimate', '--link', w.link]))), []);
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
  assert.deepEqual(differences(framed, widgetView(cliJson(['estimate', '--link', '#v=1&m=mistral-7b&w=q8_0&g=l4']))), []);
  assert.deepEqual(seen.errors, []);
  assert.deepEqual(seen.foreign, []);
  await page.close();
});

// QA D5: the one-tag embed used twice gave one widget (the script returned early the second
// time, before looking at its data-link).
test('two <script data-link> tags on one page give two widgets, each with its own link', async () => {
  const page = await browser.newPage();
  const seen = watch(page, url);
  await page.route(url + 'two-tags.html', (route) => route.fulfill({
    contentType: 'text/html',
    body: '<!doctype html><title>two</title><p>First:</p>' +
      '<script src="gpusizer-widget.js" data-link="#v=1&m=llama-3.1-8b&w=q4_k_m&g=rtx-4060-ti-16gb"></script>' +
      '<p>Second:</p><script src="gpusizer-widget.js" data-link="#v=1&m=mistral-7b&w=q8_0&g=l4"></script>',
  }));
  await page.goto(url + 'two-tags.html');
  await page.waitForFunction(() => [...document.querySelectorAll('gpusizer-widget')].filter((w) => w.report).length === 2, null, { timeout: 20000 });
  const models = await page.evaluate(() => [...document.querySelectorAll('gpusizer-widget')].map((w) => w.report.model.id));
  assert.deepEqual(models, ['llama-3.1-8b', 'mistral-7b']);
  assert.deepEqual(seen.errors, []);
  await page.close();
});

// QA D10: in Chromium's accessibility tree the sliders announce what they show ("Q4_K_M",
// "32,768 tokens"), not their index; each control's name is its visible label (WCAG 2.5.3);
// the verdict and its numbers are one live region, with a space between them.
test('accessibility tree: names are the visible labels, sliders have value texts, the verdict is live', async () => {
  const page = await browser.newPage();
  await openWidget(page, '#v=1&m=llama-3.1-8b&w=q4_k_m&ctx=32768&g=rtx-4060-ti-16gb');
  const cdp = await page.context().newCDPSession(page);
  const { nodes } = await cdp.send('Accessibility.getFullAXTree');
  const value = (n, k) => (n[k] ? n[k].value : undefined);
  const prop = (n, k) => n.properties?.find((p) => p.name === k)?.value?.value;
  const sliders = nodes.filter((n) => value(n, 'role') === 'slider').map((n) => value(n, 'name'));
  assert.deepEqual(sliders, ['Parameters', 'Precision', 'Context', 'GPUs']);
  const combos = nodes.filter((n) => value(n, 'role') === 'combobox').map((n) => value(n, 'name'));
  assert.deepEqual(combos, ['Model', 'GPU']);
  // The value texts. This Chromium's CDP tree reports a slider's number as its "valuetext"
  // whatever aria-valuetext says (a div with role=slider too), so they are read from the DOM.
  const dom = await page.evaluate(() => {
    const root = document.getElementById('widget').shadowRoot;
    const v = (id) => root.getElementById(id).getAttribute('aria-valuetext');
    const status = root.querySelector('.result [role=status]');
    return { texts: [v('gs-params'), v('gs-weights'), v('gs-context'), v('gs-gpus')], live: status.getAttribute('aria-live'),
      headline: status.textContent, outputs: [...root.querySelectorAll('output')].map((o) => o.getAttribute('aria-live')) };
  });
  assert.deepEqual(dom.texts, ['8.03 B parameters', 'GGUF Q4_K_M', '32,768 tokens', '1 GPU']);
  assert.equal(dom.live, 'polite');
  assert.match(dom.headline, /^Fits \d/, 'a space between the verdict and the numbers');
  // The read-outs repeat the sliders' value texts: they are not announced on every step.
  assert.deepEqual(dom.outputs, ['off', 'off', 'off', 'off']);
  const live = nodes.filter((n) => prop(n, 'live') === 'polite').length;
  assert.ok(live >= 1, 'the verdict is in a polite live region of the tree');
  await page.close();
});

// QA D12: the widget has no mode, runtime or expert-parallel control, yet offered every
// precision and GPU count: with QLoRA every position but NF4 failed, with vLLM every GGUF one,
// with ep=8 every count not divisible by 8. Every position of its sliders can now be estimated.
test('every slider position can be estimated, whatever the link set that the widget cannot', async () => {
  const page = await browser.newPage();
  for (const link of ['#v=1&m=llama-3-8b&mode=qlora&g=rtx-3060', '#v=1&m=llama-3-8b&rt=vllm&g=l4', '#v=1&m=llama-3-8b&mode=train&g=h100-sxm',
    '#v=1&m=mixtral-8x7b&ep=8&g=h100-sxmx8']) {
    await openWidget(page, link);
    const failures = await page.evaluate(async () => {
      const w = document.getElementById('widget');
      const root = w.shadowRoot;
      const out = [];
      for (const id of ['gs-weights', 'gs-gpus']) {
        const s = root.getElementById(id);
        const positions = [];
        for (let v = Number(s.min); v <= Math.min(Number(s.max), Number(s.min) + 40 * Number(s.step || 1)); v += Number(s.step || 1)) positions.push(v);
        for (const v of positions) {
          s.value = String(v);
          s.dispatchEvent(new Event('input', { bubbles: true }));
          await new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok)));
          const message = root.querySelector('.message').textContent;
          if (/Cannot estimate/.test(message)) out.push(id + '=' + v + ': ' + message);
        }
      }
      return out;
    });
    assert.deepEqual(failures, [], link);
  }
  await page.close();
});

// QA D19: on a light documentation page read with a dark OS setting the widget was a dark
// block; theme="light" (or data-theme on the script tag) keeps it light.
test('theme="light" keeps the widget light on a dark-mode OS; without it, it follows the OS', async () => {
  const context = await browser.newContext({ colorScheme: 'dark' });
  const page = await context.newPage();
  await page.route(url + 'themed.html', (route) => route.fulfill({
    contentType: 'text/html',
    body: '<!doctype html><title>t</title><script src="gpusizer-widget.js" data-theme="light" data-link="#v=1&m=mistral-7b&g=l4"></script>' +
      '<gpusizer-widget id="plain" link="#v=1&m=mistral-7b&g=l4"></gpusizer-widget>',
  }));
  await page.goto(url + 'themed.html');
  await page.waitForFunction(() => [...document.querySelectorAll('gpusizer-widget')].every((w) => w.report), null, { timeout: 20000 });
  const bg = await page.evaluate(() => [...document.querySelectorAll('gpusizer-widget')].map(
    (w) => getComputedStyle(w.shadowRoot.querySelector('.box')).backgroundColor));
  assert.deepEqual(bg, ['rgb(255, 255, 255)', 'rgb(27, 29, 34)']);
  // QA E14: the verdict's colours reach WCAG AA (4.5:1) on either background, both verdicts.
  const contrast = await page.evaluate(() => {
    const rgb = (s) => s.match(/\d+/g).slice(0, 3).map(Number);
    const lum = ([r, g, b]) => [r, g, b].map((c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; })
      .reduce((a, c, i) => a + c * [0.2126, 0.7152, 0.0722][i], 0);
    const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
    const out = [];
    for (const w of document.querySelectorAll('gpusizer-widget')) {
      const box = rgb(getComputedStyle(w.shadowRoot.querySelector('.box')).backgroundColor);
      const v = w.shadowRoot.querySelector('.verdict');
      for (const cls of ['verdict fits', 'verdict nofit']) {
        v.className = cls;
        out.push(ratio(rgb(getComputedStyle(v).color), box));
      }
    }
    return out;
  });
  for (const c of contrast) assert.ok(c >= 4.5, `verdict contrast ${c.toFixed(2)}:1 is below 4.5:1 (${contrast.map((x) => x.toFixed(2))})`);
  await context.close();
});

// QA D16: a right-to-left override or a NUL in a link's model id was echoed as is, reversing
// or cutting the message.
test('a link with U+202E or NUL: the message names the model without the control characters', async () => {
  const page = await browser.newPage();
  await page.goto(url + 'embed.html#v=1&m=llama-3-8b%E2%80%AEevil%00x');
  await page.waitForFunction(() => /Link not opened/.test(document.getElementById('widget').shadowRoot.textContent), null, { timeout: 20000 });
  const text = await page.evaluate(() => document.getElementById('widget').shadowRoot.querySelector('.message').textContent);
  assert.doesNotMatch(text, /[\u202E\u0000]/);
  // Both are replaced by the core (gpusizer::printable_text), and the message goes on past the
  // NUL to its examples (QA E11), with no pointer to the CLI (its Model list is in sight).
  assert.match(text, /unknown model 'llama-3-8b\uFFFDevil\uFFFDx'; for example: [^(]*\. Showing the default configuration\.$/, text);
  assert.doesNotMatch(text, /gpusizer models/);
  await page.close();
});

test('the widget\'s module (plain exports, no Embind) answers as the full module: the same texts and errors', async () => {
  // gpusizer-lite.js passes each string as its UTF-8 bytes and length (web/api_lite.js), where the
  // full module (gpusizer.js) goes through Embind: the same texts must come back either way.
  const page = await browser.newPage();
  await page.goto(url + 'embed.html');
  const r = await page.evaluate(async () => {
    const load = async (file) => (await import(new URL(file, location.href).href)).default();
    const lite = await load('gpusizer-lite.js');
    const full = await load('gpusizer.js');
    const error = (gs, ...a) => {
      try {
        gs.estimate(...a);
        return null;
      } catch (e) {
        return [e.name, e.key, e.message];
      }
    };
    const config = { model: 'llama-3.1-8b', weights: 'q4_k_m', gpu: 'rtx-4090', context: 32768 };
    const both = (f) => [f(lite), f(full)];
    return {
      keys: Object.keys(lite).sort(),
      formats: both((gs) => gs.formats()),
      link: both((gs) => gs.linkFromConfig(config)),
      opened: both((gs) => gs.configFromLink('#v=1&m=llama-3.1-8b&w=q4_k_m&g=rtx-4090&ctx=32768')),
      memory: both((gs) => JSON.parse(gs.estimate(config)).memory),
      // A raw U+0000 in a JSON string: the core sees it (not text cut short at it) and names it.
      nul: both((gs) => error(gs, '{"model": "a\u0000b"}')),
      // Two-byte UTF-8 in and out: the parser quotes what it last read.
      accent: both((gs) => error(gs, '{"model": "\u00e9')),
      // After an error, the next call succeeds and the error is not reported again.
      again: both((gs) => JSON.parse(gs.estimate(config)).memory.gpu_capacity),
    };
  });
  assert.deepEqual(r.keys, ['configFromLink', 'estimate', 'formats', 'gpus', 'linkFromConfig', 'models']);
  for (const k of ['formats', 'link', 'opened', 'memory', 'nul', 'accent', 'again']) assert.deepEqual(r[k][0], r[k][1], k);
  assert.match(r.formats[0], /^\{\n {2}"weights": \[\n {4}\{\n {6}"id": /);
  // The CLI's messages for the same two texts (`gpusizer estimate --config F` prints the same
  // after naming its file).
  assert.deepEqual(r.nul[0], ['GpuSizerError', 'config', 'config: is not valid JSON (parse error at line 1, column 13: ' +
    'syntax error while parsing value - invalid string: control character U+0000 (NUL) must be escaped to \\u0000; last read: \'"a<U+0000>\')']);
  assert.match(r.accent[0][2], /missing closing quote; last read: '"\u00e9'\)$/);
  await page.close();
});

test('QA E17: past the trained context the widget warns, and a phone shows the whole read-out', async () => {
  const page = await browser.newPage({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  const w = await openWidget(page, '#v=1&m=llama-3.1-8b&ctx=1048576');
  assert.equal(w.context, '1M tokens');
  const out = await page.evaluate(() => {
    const root = document.getElementById('widget').shadowRoot;
    const o = root.querySelector('#gs-context + output');
    return { cut: o.scrollWidth > o.clientWidth, value: root.querySelector('#gs-context').getAttribute('aria-valuetext'),
             message: root.querySelector('.message').textContent };
  });
  assert.equal(out.cut, false, 'the context read-out is cut');
  assert.equal(out.value, '1,048,576 tokens');
  // The core's warning, as the app shows it.
  const want = cliJson(['estimate', '--model', 'llama-3.1-8b', '--context', '1048576']).warnings[0];
  assert.match(want, /exceeds Meta Llama 3\.1 8B's trained maximum of 131072 tokens/);
  assert.equal(out.message, want);
  await page.close();
});

test('issue 29: pin a configuration, change it, and see both side by side; the link carries both', async () => {
  const page = await browser.newPage();
  await openWidget(page, '#v=1&m=llama-3-8b&g=rtx-4090');
  const root = (sel) => page.locator('#widget >> ' + sel);
  assert.equal(await root('button.pin').textContent(), 'Pin to compare');
  assert.equal(await page.evaluate(() => document.getElementById('widget').shadowRoot.querySelector('.compare').hidden), true);
  await root('button.pin').click();
  await page.selectOption('#widget >> #gs-gpu', 'h100-sxm');
  await page.waitForFunction(() => document.getElementById('widget').report.config.gpu === 'h100-sxm');
  const table = () => page.evaluate(() => [...document.getElementById('widget').shadowRoot.querySelectorAll('.compare tr')]
    .map((tr) => [...tr.children].map((c) => (c.className === 'changed' ? '*' : '') + c.textContent)));
  const rows = await table();
  const pinned = cliJson(['estimate', '--model', 'llama-3-8b', '--gpu', 'rtx-4090']);
  const now = cliJson(['estimate', '--model', 'llama-3-8b', '--gpu', 'h100-sxm']);
  assert.deepEqual(rows[0], ['', 'Pinned', 'Now']);
  assert.deepEqual(rows.find((r) => r[0] === 'Model'), ['Model', pinned.model.name, now.model.name]);   // the same: not bold
  assert.deepEqual(rows.find((r) => r[0] === 'GPUs'), ['GPUs', '*1 × ' + pinned.gpu.name, '*1 × ' + now.gpu.name]);
  assert.deepEqual(rows.find((r) => r[0] === 'At the wall'),
    ['At the wall', '*' + Math.round(pinned.power.wall_w) + ' W', '*' + Math.round(now.power.wall_w) + ' W']);
  // The link carries both, as the app writes it; opened again, the widget shows the same table.
  const link = await page.evaluate(() => document.getElementById('widget').link);
  assert.match(link, /&pin=m%3Dllama-3-8b/);
  assert.match(await root('a.open').getAttribute('href'), /&pin=/);
  const again = await browser.newPage();
  await openWidget(again, link);
  assert.deepEqual(await again.evaluate(() => [...document.getElementById('widget').shadowRoot.querySelectorAll('.compare tr')]
    .map((tr) => [...tr.children].map((c) => (c.className === 'changed' ? '*' : '') + c.textContent))), rows);
  await again.close();
  // Unpin: the table goes, and the link is the configuration's alone.
  await root('button.pin').click();
  assert.equal(await page.evaluate(() => document.getElementById('widget').shadowRoot.querySelector('.compare').hidden), true);
  assert.doesNotMatch(await page.evaluate(() => document.getElementById('widget').link), /pin=/);
  await page.close();
});

test('QA E6: a config.json dropped on the widget becomes its model; a model file points to the full calculator', async () => {
  const page = await browser.newPage();
  await openWidget(page, '#v=1&m=qwen2.5-7b&g=rtx-4090&ctx=4096');
  const drop = (name, text) => page.evaluate(([n, t]) => {
    const dt = new DataTransfer();
    dt.items.add(new File([t], n));
    document.getElementById('widget').shadowRoot.querySelector('.box')
      .dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, [name, text]);
  // Llama 3 8B's config.json fields: the catalog's Llama 3 8B's weights, on the widget's GPU and context.
  const hf = { architectures: ['LlamaForCausalLM'], model_type: 'llama', hidden_size: 4096, num_hidden_layers: 32, num_attention_heads: 32,
               num_key_value_heads: 8, intermediate_size: 14336, vocab_size: 128256, max_position_embeddings: 8192 };
  await drop('config.json', JSON.stringify(hf));
  await page.waitForFunction(() => typeof document.getElementById('widget').report.config.model === 'object', null, { timeout: 10000 });
  const w = await page.evaluate(() => document.getElementById('widget').report);
  const want = cliJson(['estimate', '--model', 'llama-3-8b', '--gpu', 'rtx-4090', '--context', '4096']);
  assert.equal(w.memory.per_gpu.weights, want.memory.per_gpu.weights);
  assert.equal(w.config.gpu, 'rtx-4090');
  assert.match(await page.evaluate(() => document.getElementById('widget').link), /m=custom&hf=/);
  await drop('tiny.gguf', 'GGUF');
  await page.waitForFunction(() => /full calculator/.test(document.getElementById('widget').shadowRoot.querySelector('.message').textContent));
  await drop('notes.json', '{"a": 1}');
  await page.waitForFunction(() => /not a Hugging Face config\.json/.test(document.getElementById('widget').shadowRoot.querySelector('.message').textContent));
  await page.close();
});

// The widget's module carries the field reader and the engine versions' reading, as the app does:
// a config.json whose model_type has no row is read by its fields, and a version without a profile
// of its own (what a link from the app carries) is read as the nearest one, with the same note.
test('the widget reads a model_type without a row by its fields, and an engine version by its nearest profile', async () => {
  const hf = { model_type: 'brand_new_lm', hidden_size: 2048, num_hidden_layers: 24, num_attention_heads: 16, num_key_value_heads: 4,
               intermediate_size: 5632, vocab_size: 64000, max_position_embeddings: 32768 };
  const configs = [
    { model: { hf_config: hf }, gpu: 'rtx-4090', context: 8192 },
    { model: 'qwen3-8b', gpu: 'h100-sxm', runtime: 'vllm', runtime_version: '0.24.0', context: 32768 },
  ];
  const page = await browser.newPage();
  await page.goto(url + 'embed.html');
  const lite = await page.evaluate(async (list) => {
    const gs = await (await import(new URL('gpusizer-lite.js', location.href).href)).default();
    return list.map((c) => { try { return JSON.parse(gs.estimate(c)); } catch (e) { return `error ${e.message}`; } });
  }, configs);
  const native = configs.map((c) => cliJson(['estimate', '--config', configFile(c)]));
  for (let i = 0; i < configs.length; ++i) {
    assert.equal(typeof lite[i], 'object', `${JSON.stringify(configs[i])}: ${lite[i]}`);
    assert.equal(lite[i].memory.per_gpu.total, native[i].memory.per_gpu.total);
    assert.equal(lite[i].memory.kv_capacity_tokens, native[i].memory.kv_capacity_tokens);
    assert.deepEqual(lite[i].warnings, native[i].warnings);
  }
  assert.ok(lite[0].params > 1e9, `${lite[0].params} parameters read from the fields`);
  assert.ok(lite[1].warnings.some((w) => /0\.24\.0: no profile of its own; read as/.test(w)), lite[1].warnings.join(' | '));
  await page.close();
});

// The widget's module computes with the browser's Math (emcc -sJS_MATH=1: musl's pow, log and exp
// left out, 1.6 KB gzipped) and its own number formatting (lite_printf.cpp): every number of its
// report must still be the native build's, bit for bit, over the accuracy table's catalog
// configurations (a GPU, model and engine each, training and serving).
test('the widget\'s module reports the native CLI\'s numbers exactly, over the accuracy table\'s configurations', async () => {
  const rows = JSON.parse(readFileSync(new URL('../validation/accuracy.json', import.meta.url))).rows;
  const configs = rows.map((r) => r.config).filter((c) => typeof c === 'object' && typeof c.model === 'string' && !c.custom_gpu)
    .filter((_, i) => i % 4 === 0);   // a quarter of them (about 150): a minute of CLI runs
  assert.ok(configs.length > 100, `${configs.length} configurations`);
  const page = await browser.newPage();
  await page.goto(url + 'embed.html');
  const lite = await page.evaluate(async (list) => {
    const gs = await (await import(new URL('gpusizer-lite.js', location.href).href)).default();
    return list.map((c) => { try { return gs.estimate(c); } catch (e) { return `error ${e.message}`; } });
  }, configs);
  let numbers = 0;
  const mismatches = [];
  // (A figure the widget's module leaves null is one it does not compute: the cost's GPU price and
  // training goodput are not in it.)
  const walk = (a, b, path) => {
    if (typeof a === 'number' && typeof b === 'number') {
      ++numbers;
      if (a !== b) mismatches.push(`${path}: native ${a}, widget ${b}`);
    } else if (a && typeof a === 'object') {
      for (const k of Object.keys(a)) if (b && typeof b === 'object' && k in b) walk(a[k], b[k], `${path}.${k}`);
    }
  };
  configs.forEach((c, i) => {
    if (lite[i].startsWith('error')) return;   // the widget refuses what it does not carry (Hub models)
    walk(cliJson(['estimate', '--config', configFile(c)]), JSON.parse(lite[i]), `${c.model}@${c.gpu}`);
  });
  assert.ok(numbers > 10000, `${numbers} numbers compared`);
  assert.deepEqual(mismatches.slice(0, 10), []);
  await page.close();
});
