// links.test.mjs: share links in the browser. A link opens the same report in the app page as
// `gpusizer estimate --link LINK --json` prints; a malformed or hostile link (in the app page and
// in the widget) shows a clear message naming what is wrong, falls back to the default
// configuration, and never becomes markup: nothing from it executes or lands in the DOM as HTML.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { cliJson, differences, openApp, requireSetup, useBrowser, watch, widgetView } from './harness.mjs';

requireSetup({ needCli: true });

let browser, url;
useBrowser((b, u) => {
  browser = b;
  url = u;
});

// The app's opening view (ui/state.cpp default_state()); the widget opens with it too.
const kDefaultLink = '#v=1&m=llama-3-70b&w=q4_k_m&g=rtx-4090x2';

// Links across the configuration space: the README's examples, training with ZeRO and
// offload, LoRA/QLoRA, MoE with expert parallelism, vLLM, a custom model by parameter count
// and by its Hugging Face config, KV-cache formats, and a whole URL with another host.
const kLinks = [
  '#v=1&m=llama-3-70b&w=q4_k_m&ctx=8192&g=rtx-4090x2',
  '#v=1&m=mixtral-8x7b&g=a100-80gb-sxm',
  '#v=1&m=llama-3.1-8b&w=q4_k_m&g=rtx-4060-ti-16gb',
  '#v=1&m=deepseek-r1&w=fp8&ctx=32768&g=h200x8&rt=vllm',
  '#v=1&m=llama-3-8b&mode=qlora&ctx=2048&g=rtx-3060',
  '#v=1&m=llama-3-70b&mode=train&z=3&rc=selective&g=h100-sxmx64',
  '#v=1&m=llama-3-8b&mode=lora&lr=64&lt=q_proj,v_proj&b=4&g=a100-40gb-sxm',
  '#v=1&m=llama-3-70b&mode=train&opt=adamw_8bit&z=2&off=optimizer&g=a100-80gb-sxmx8',
  '#v=1&m=qwen2.5-7b&w=int4&kv=fp8&b=8&ctx=16384&g=l4',
  '#v=1&m=custom&np=13000000000&g=rtx-3090x3',
  '#v=1&m=custom&hf=%7B%22model_type%22%3A%22llama%22%2C%22num_hidden_layers%22%3A2%2C%22hidden_size%22%3A256%2C' +
    '%22intermediate_size%22%3A512%2C%22num_attention_heads%22%3A4%2C%22vocab_size%22%3A1000%7D&g=l4',
  'https://docs.example.org/gpusizer/#v=1&m=mistral-7b&w=q8_0&kv=q8_0&g=rtx-4090',
];

test('a link opens the same report in the app as the CLI prints for it', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const seen = watch(page, url);
  let first = true;
  for (const link of kLinks) {
    const fragment = link.slice(link.indexOf('#'));
    const expected = cliJson(['estimate', '--link', link]);
    if (first) await openApp(page, url, fragment);
    else await page.evaluate((f) => { location.hash = f; }, fragment);   // a new address, same page
    first = false;
    // Wait for the report of this configuration (or fail below with the differences).
    await page.waitForFunction((config) => window.gpusizerApp.report && JSON.stringify(window.gpusizerApp.report.config) === config,
      JSON.stringify(expected.config), { timeout: 5000 }).catch(() => {});
    const state = await page.evaluate(() => window.gpusizerApp);
    assert.equal(state.message_is_error, false, `${link}: ${state.message}`);
    assert.equal(state.message, 'Opened the link.');
    assert.deepEqual(differences(state.report, expected), [], `the app's report for ${link}`);
    // And back: the app's link opens that report in the CLI too.
    assert.deepEqual(differences(cliJson(['estimate', '--link', state.link]), expected), [], `the CLI's report for ${state.link}`);
  }
  assert.deepEqual(seen.errors, []);
  await page.close();
});

// Malformed links (each names what is wrong) and hostile ones (markup and script in values).
const kBadLinks = [
  ['#v=2&m=llama-3-8b', 'version'],
  ['#v=1&m=llama-3-8b&ctx=lots', 'context'],
  ['#v=1&m=llama-3-8b&b=0', 'batch'],
  ['#v=1&m=llama-3-8b&zz=1', 'unknown key'],
  ['#v=1&m=llama-3-8b&w=%ZZ', 'escape'],
  ['#v=1&m=llama-3-8b&g=rtx-9999', 'gpu'],
  ['#v=1&m=%3Cscript%3Ewindow.__pwned%3D1%3C%2Fscript%3E', 'model'],
  ['#v=1&m=llama-3-8b&g=%3Cimg%20src%3Dx%20onerror%3D%22window.__pwned%3D1%22%3E', 'gpu'],
  ['#v=1&m=%22%3E%3Csvg%20onload%3Dwindow.__pwned%3D1%3E', 'model'],
  ['#v=1&m=custom&hf=%7B%22model_type%22%3A%22%3Ciframe%20src%3Djavascript%3Awindow.__pwned%3D1%3E%22%7D', 'hf_config'],
  ['#javascript:window.__pwned=1', 'unknown key'],
];

const defaultReport = () => cliJson(['estimate', '--link', kDefaultLink]);

test('a malformed or hostile link in the app: a clear message, the default view, no markup', async () => {
  for (const [link, mentions] of kBadLinks) {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const seen = watch(page, url);
    const state = await openApp(page, url, link);
    assert.equal(state.message_is_error, true, link);
    assert.ok(state.message.startsWith('Link not opened: '), `${link}: ${state.message}`);
    assert.ok(state.message.toLowerCase().includes(mentions), `${link}: "${state.message}" does not mention ${mentions}`);
    assert.deepEqual(differences(state.report, defaultReport()), [], `${link}: the default configuration`);
    const dom = await page.evaluate(() => ({
      pwned: window.__pwned,
      status: document.getElementById('status').textContent,
      statusChildren: document.getElementById('status').children.length,
      elements: [...document.querySelectorAll('img, iframe, svg, object, embed')].length,
      scripts: [...document.scripts].map((s) => s.src.replace(/^.*\//, '')),
    }));
    assert.equal(dom.pwned, undefined, `${link}: injected code ran`);
    assert.equal(dom.status, state.message, 'the status line shows the message as text');
    assert.equal(dom.statusChildren, 0);
    assert.equal(dom.elements, 0, `${link}: an element was injected`);
    assert.deepEqual(dom.scripts, ['i18n.js', 'hub-panel.js', 'app-page.js', 'app.js']);
    assert.deepEqual(seen.dialogs, [], `${link}: a dialog opened`);
    assert.deepEqual(seen.errors, []);
    assert.deepEqual(seen.foreign, []);
    await page.close();
  }
});

test('a malformed or hostile link in the widget: a clear message, the default view, no markup', async () => {
  for (const [link, mentions] of kBadLinks) {
    const page = await browser.newPage({ viewport: { width: 600, height: 600 } });
    const seen = watch(page, url);
    await page.goto(url + 'embed.html' + link);
    await page.waitForFunction(() => document.getElementById('widget').report, null, { timeout: 20000 });
    const w = await page.evaluate(() => {
      const el = document.getElementById('widget');
      const root = el.shadowRoot;
      return {
        report: el.report,
        link: el.link,
        message: root.querySelector('.message').textContent,
        messageIsError: root.querySelector('.message').classList.contains('error'),
        messageChildren: root.querySelector('.message').children.length,
        injected: root.querySelectorAll('img, iframe, svg, script, object, embed').length +
          document.querySelectorAll('img, iframe, svg, object, embed').length,
        pwned: window.__pwned,
      };
    });
    assert.ok(w.messageIsError, link);
    assert.ok(w.message.startsWith('Link not opened: '), `${link}: ${w.message}`);
    assert.ok(w.message.toLowerCase().includes(mentions), `${link}: "${w.message}" does not mention ${mentions}`);
    assert.ok(w.message.endsWith('Showing the default configuration.'));
    assert.equal(w.messageChildren, 0);
    assert.equal(w.link, kDefaultLink);
    assert.deepEqual(differences(w.report, widgetView(defaultReport())), [], `${link}: the default configuration`);
    assert.equal(w.injected, 0, `${link}: an element was injected`);
    assert.equal(w.pwned, undefined, `${link}: injected code ran`);
    assert.deepEqual(seen.dialogs, []);
    assert.deepEqual(seen.errors, []);
    assert.deepEqual(seen.foreign, []);
    await page.close();
  }
});
