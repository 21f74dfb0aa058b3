// hub.test.mjs (browser): the app page's "From the Hub" panel (web/site/hub-panel.js) and
// gs.fromHub against a local server that plays the Hub (tests/fake_hub.mjs). The GGUF file is the
// suite's own Llama fixture (tests/write_fixtures.cpp) behind 50 MB of (virtual) tensor data:
// its header is read by Range requests, the app's report gives the file's exact bytes (the
// CLI's `estimate --gguf` figures for the same file), and the share link carries the repository,
// so that opening it fetches the model again. Gated (401) and missing (404) repositories say so.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, test } from 'node:test';
import { pathToFileURL } from 'node:url';

import { cliJson, openApp, repo, requireSetup, useBrowser, watch } from './harness.mjs';

requireSetup({ needCli: true });
const writer = resolve(process.env.GPUSIZER_WRITE_FIXTURES || join(repo, 'build', 'native', 'gpusizer_write_fixtures'));
const { startFakeHub } = await import(pathToFileURL(join(repo, 'tests', 'fake_hub.mjs')).href);

const dir = mkdtempSync(join(tmpdir(), 'gpusizer-hub-'));
execFileSync(writer, [dir]);
const fixture = join(dir, 'llama-v3.gguf');
const header = readFileSync(fixture);
const kRepo = 'acme/tiny-llama-GGUF';
const kFile = 'tiny-llama-Q4_K_M.gguf';
const kFileBytes = header.length + 50e6;
// A safetensors checkpoint: config.json and one file, a 16-byte BF16 tensor behind its header.
const kStRepo = 'acme/tiny-dense';
const kStFile = 'model.safetensors';
const stJson = Buffer.from(JSON.stringify({ 'model.embed_tokens.weight': { dtype: 'BF16', shape: [2, 4], data_offsets: [0, 16] } }));
const stFile = Buffer.concat([Buffer.alloc(8), stJson, Buffer.alloc(16)]);
stFile.writeBigUInt64LE(BigInt(stJson.length));
const stConfig = { model_type: 'llama', hidden_size: 4096, num_hidden_layers: 32, num_attention_heads: 32, num_key_value_heads: 8,
                   intermediate_size: 14336, vocab_size: 128256 };
// A GGUF file cut in the middle of its header (an upload that stopped short): the header is the
// first header_bytes of the fixture, which `inspect` states.
const kCutRepo = 'acme/cut-GGUF';
const kCutFile = 'cut-Q4_K_M.gguf';
const kHeaderBytes = cliJson(['inspect', fixture]).header_bytes;
const fake = await startFakeHub({
  [kRepo]: { files: { [kFile]: { size: kFileBytes, at: (i) => (i < header.length ? header[i] : 0) } } },
  [kCutRepo]: { files: { [kCutFile]: header.subarray(0, kHeaderBytes >> 1) } },
  [kStRepo]: { config: stConfig, files: { [kStFile]: stFile } },
  // QA E15: 1,000 GGUF files (the list shows 100 and a filter), and a split file of 100 parts.
  'acme/many-GGUF': { files: Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`m-${String(i).padStart(5, '0')}.gguf`, { size: 1e9, at: () => 0 }])) },
  'acme/split-GGUF': { files: { 'big-00001-of-00100.gguf': { size: kFileBytes, at: (i) => (i < header.length ? header[i] : 0) } } },
});
after(() => fake.close());

let browser, url;
useBrowser((b, u) => {
  browser = b;
  url = u;
});

const appUrl = () => `index.html?hub=${encodeURIComponent(fake.api.url)}`;

async function openPanel(page, fragment = '') {
  await page.goto(url + appUrl() + fragment);
  await page.waitForFunction(() => document.documentElement.getAttribute('data-first-frame') === '1' && window.gpusizerApp, null, { timeout: 30000 });
}

test('the panel lists the GGUF files, reads the header by Range requests and loads the exact figures', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const seen = watch(page, url);
  // The app's own module reads what the panel fetched: no second copy of the core (issue 29:
  // gpusizer.wasm, 351 KB gzipped, came down for the panel alone).
  const modules = [];
  page.on('request', (r) => { if (/gpusizer(-lite)?\.(js|wasm)$/.test(new URL(r.url()).pathname)) modules.push(r.url()); });
  await openPanel(page, '#v=1&m=llama-3-8b&g=h100-sxm');
  // Keyboard only: the button, the field, Enter.
  await page.focus('#hub-toggle');
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'hub-repo');
  await page.keyboard.type(kRepo);
  await page.keyboard.press('Backspace');   // the app's key handlers must not take it
  await page.keyboard.type('F');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#hub-panel[data-state=listed]', { timeout: 10000 });
  const files = await page.$$eval('#hub-files label', (ls) => ls.map((l) => l.textContent));
  // The fixture file (header and its 0.9 MB of tensors) and the 50 MB after it, as the panel writes it.
  const mb = (kFileBytes / 1e6).toFixed(1) + ' MB';
  assert.deepEqual(files, [` ${kFile} — ${mb}`]);
  fake.log.length = 0;
  await page.click('#hub-load');
  await page.waitForSelector('#hub-panel[data-state=loaded]', { state: 'attached', timeout: 20000 });
  // QA E9: the panel gets out of the figures' way once they are loaded; the focus goes back to its button.
  assert.equal(await page.evaluate(() => [document.getElementById('hub-panel').hidden, document.activeElement.id].join()), 'true,hub-toggle');
  // One Range request from byte 0: the fixture's header is smaller than the first read (1 MiB).
  const ranges = fake.log.filter((l) => l.host === 'cdn').map((l) => l.range);
  assert.deepEqual(ranges, ['bytes=0-1048575']);
  const status = await page.textContent('#hub-status');
  assert.ok(status.includes(`read 1.05 MB of the ${mb} file by Range requests`), status);

  // The app's report: the same as the CLI's for the file on disk (model name and source aside).
  await page.waitForFunction(() => window.gpusizerApp.report && window.gpusizerApp.report.model.source === 'hub', null, { timeout: 10000 });
  const state = await page.evaluate(() => window.gpusizerApp);
  const want = cliJson(['estimate', '--gguf', fixture, '--gpu', 'h100-sxm']);
  assert.equal(state.report.memory.per_gpu.weights, want.memory.per_gpu.weights);
  assert.equal(state.report.memory.per_gpu.total, want.memory.per_gpu.total);
  assert.equal(state.report.config.weights, 'q4_k_m');   // the file's general.file_type
  assert.equal(state.report.config.gpu, 'h100-sxm');     // the rest of the configuration kept
  // The share link names the repository and the file, not the header.
  assert.match(state.link, new RegExp(`^#v=1&hf=${kRepo}&f=${kFile}&w=q4_k_m&g=h100-sxm$`));
  assert.deepEqual(modules, []);
  assert.deepEqual(seen.errors, []);
  await page.close();
});

test('a link with hf=org/name&f=file opens the same model again, from another Hub only once the reader agrees', async () => {
  const page = await browser.newPage({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  const seen = watch(page, url);
  fake.log.length = 0;
  await openPanel(page, `#v=1&hf=${kRepo}&f=${kFile}&ctx=4096&g=rtx-4090`);
  // QA E3: the page's Hub is not the default one: the panel asks, and nothing is fetched.
  await page.waitForSelector('#hub-panel[data-state=confirm]', { timeout: 30000 });
  await page.waitForTimeout(500);
  assert.deepEqual(fake.log, [], 'no request to a non-default Hub before the reader agrees');
  const asking = await page.textContent('#hub-status');
  assert.ok(asking.includes(fake.api.url) && asking.includes('Nothing was fetched'), asking);
  await page.tap('#hub-form button[type=submit]');
  await page.waitForSelector('#hub-panel[data-state=loaded]', { state: 'attached', timeout: 30000 });
  // What it produced names the Hub it came from.
  assert.ok((await page.textContent('#hub-status')).includes('from ' + fake.api.url), await page.textContent('#hub-status'));
  await page.waitForFunction(() => window.gpusizerApp.report && window.gpusizerApp.report.model.source === 'hub', null, { timeout: 10000 });
  const state = await page.evaluate(() => window.gpusizerApp);
  const want = cliJson(['estimate', '--gguf', fixture, '--gpu', 'rtx-4090', '--context', '4096']);
  assert.equal(state.report.memory.per_gpu.total, want.memory.per_gpu.total);
  assert.equal(state.report.config.context, 4096);
  // The panel fits a phone's width.
  const box = await page.$eval('#hub-panel', (e) => e.getBoundingClientRect().toJSON());
  assert.ok(box.x >= 0 && box.right <= 390, JSON.stringify(box));
  assert.deepEqual(seen.errors.filter((e) => !/Failed to load resource/.test(e)), []);
  await page.close();
});

test('QA E2: an earlier, slower answer does not overwrite a later one, and Load loads what the field names', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const seen = watch(page, url);
  await openPanel(page, '#v=1&m=llama-3-8b&g=h100-sxm');
  await page.click('#hub-toggle');
  fake.state.slow = { [kStRepo]: 2500 };   // the first repository answers 2.5 s late
  await page.fill('#hub-repo', kStRepo);
  await page.press('#hub-repo', 'Enter');
  await page.waitForTimeout(200);
  await page.fill('#hub-repo', kRepo);
  await page.press('#hub-repo', 'Enter');
  await page.waitForSelector('#hub-panel[data-state=listed]', { timeout: 10000 });
  assert.ok((await page.textContent('#hub-status')).includes('Found ' + kRepo), await page.textContent('#hub-status'));
  await page.waitForTimeout(3500);   // the slow answer has come and gone
  fake.state.slow = {};
  const status = await page.textContent('#hub-status');
  assert.ok(status.includes('Found ' + kRepo) && !status.includes(kStRepo), status);
  assert.equal(await page.getAttribute('#hub-panel', 'data-state'), 'listed');
  await page.click('#hub-load');
  await page.waitForSelector('#hub-panel[data-state=loaded]', { state: 'attached', timeout: 20000 });
  assert.ok((await page.textContent('#hub-status')).includes('Loaded ' + kRepo), await page.textContent('#hub-status'));
  assert.deepEqual(seen.errors, []);
  await page.close();
});

test('QA E5: while a Hub link loads, and after it failed, no other model\'s verdict; the link\'s other keys kept', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const seen = watch(page, url);
  await openPanel(page, '#v=1&hf=acme/missing-model&ctx=4096&g=rtx-4090');
  await page.waitForSelector('#hub-panel[data-state=confirm]', { timeout: 30000 });
  // Waiting (for the reader's Fetch): no report, the loading message, the link as given.
  let state = await page.evaluate(() => window.gpusizerApp);
  assert.equal(state.report, null);
  assert.ok(state.message.startsWith('Loading acme/missing-model from the Hugging Face Hub'), state.message);
  assert.ok(state.layout.some((r) => r.name === 'hub waiting message'));
  assert.match(state.link, /hf=acme\/missing-model/);
  assert.match(state.link, /g=rtx-4090/);
  assert.ok(!(await page.title()).includes('Llama 3 70B'), await page.title());
  // The repository does not exist: the results say so, in the browser's terms.
  await page.click('#hub-form button[type=submit]');
  await page.waitForFunction(() => window.gpusizerApp.message.startsWith('Could not load acme/missing-model'), null, { timeout: 20000 });
  state = await page.evaluate(() => window.gpusizerApp);
  assert.equal(state.report, null);
  assert.ok(!state.message.includes('--gguf') && !state.message.includes('CLI'), state.message);
  assert.deepEqual(seen.errors.filter((e) => !/Failed to load resource/.test(e)), []);
  await page.close();
});

// Issue 28: the panel in Portuguese (the link's lang=pt-BR): its controls, what it says while it
// works, hub.mjs's messages through the table, and sizes with decimal commas. The Portuguese is
// the table's (assets/strings.json), the English the panel's own above.
test('the panel in Portuguese: its labels, its status lines and the Hub\'s errors through the table, sizes in pt-BR', async () => {
  const rows = new Map(JSON.parse(readFileSync(join(repo, 'assets', 'strings.json'), 'utf8')).strings.map((r) => [r.en, r['pt-BR']]));
  const pt = (en) => { assert.ok(rows.has(en), en); return rows.get(en); };
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const seen = watch(page, url);
  await openPanel(page, '#v=1&m=llama-3-8b&g=h100-sxm&lang=pt-BR');
  await page.waitForFunction(() => document.documentElement.lang === 'pt-BR', null, { timeout: 5000 });
  await page.click('#hub-toggle');
  assert.equal(await page.textContent('#hub-title'), pt('From the Hugging Face Hub'));
  assert.equal(await page.textContent('#hub-form button[type=submit]'), pt('Fetch'));
  assert.equal(await page.textContent('#hub-endpoint'), pt('Hub address: %s').replace('%s', fake.api.url));
  await page.fill('#hub-repo', kRepo);
  await page.click('#hub-form button[type=submit]');
  await page.waitForSelector('#hub-panel[data-state=listed]', { timeout: 10000 });
  // "acme/tiny-llama-GGUF@main tem 1 arquivo GGUF (2 requisições, ... baixados no total)."
  const found = pt('Found %s: %s GGUF file (%s).').replace('%s', kRepo + '@main').replace('%s', '1').split('%s')[0];
  assert.ok((await page.textContent('#hub-status')).startsWith(found), await page.textContent('#hub-status'));
  const mb = (kFileBytes / 1e6).toFixed(1).replace('.', ',') + ' MB';
  assert.deepEqual(await page.$$eval('#hub-files label', (ls) => ls.map((l) => l.textContent)), [` ${kFile} — ${mb}`]);
  await page.click('#hub-load');
  await page.waitForSelector('#hub-panel[data-state=loaded]', { state: 'attached', timeout: 20000 });
  const read = pt('read %s of the %s file by Range requests, ').replace('%s', '1,05 MB').replace('%s', mb);
  assert.ok((await page.textContent('#hub-status')).includes(read), await page.textContent('#hub-status'));
  assert.deepEqual(seen.errors, []);
  // A HubError (hub.mjs) in the page's language: the table's row with the request's words (the
  // browser logs the 404 itself).
  await page.click('#hub-toggle');
  await page.fill('#hub-repo', 'acme/nothing-here');
  await page.click('#hub-form button[type=submit]');
  await page.waitForSelector('#hub-panel[data-error-kind=not_found]', { timeout: 10000 });
  assert.equal(await page.textContent('#hub-error'),
    pt('%s: not found (HTTP 404). Check the repository id, the revision and the file name.').replace('%s', 'acme/nothing-here@main'));
  await page.close();
});

test('gated (401) and missing (404) repositories: a message that says what to do', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await openPanel(page);
  await page.click('#hub-toggle');
  for (const [id, kind, text] of [['acme/gated-model', 'gated', /gated or private.*paste or open/],
                                  ['acme/nothing-here', 'not_found', /not found \(HTTP 404\)\. Check the repository id/]]) {
    await page.fill('#hub-repo', id);
    await page.click('#hub-form button[type=submit]');
    await page.waitForSelector(`#hub-panel[data-error-kind=${kind}]`, { timeout: 10000 });
    assert.match(await page.textContent('#hub-error'), text);
    assert.equal(await page.getAttribute('#hub-error', 'role'), 'alert');
  }
  await page.close();
});

// The failures a browser meets and Node does not, each in Chromium: a 429 whose Retry-After the
// page may read (the fake Hub exposes it, as the Hub does), an answer without CORS headers (the
// browser hides it: fetch rejects as when offline), no network at all, an answer that is not
// JSON, and a GGUF header cut short. Each leaves a message that says what to do, the app keeps
// its model and report, and the next good request clears the message.
test('rate-limited, CORS-refused, offline, not JSON, truncated: a message each, then a clean recovery', async () => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  const page = await context.newPage();
  const seen = watch(page, url);
  await openPanel(page, '#v=1&m=llama-3-8b&g=rtx-4090');
  const before = await page.evaluate(() => window.gpusizerApp.report.memory.per_gpu.total);
  await page.click('#hub-toggle');
  const submit = async (id) => {
    await page.fill('#hub-repo', id);
    await page.click('#hub-form button[type=submit]');
  };
  const expectError = async (kind, text) => {
    await page.waitForSelector('#hub-panel[data-state=error]', { timeout: 10000 });
    assert.equal(await page.getAttribute('#hub-panel', 'data-error-kind'), kind, await page.textContent('#hub-error'));
    assert.match(await page.textContent('#hub-error'), text);
    assert.equal(await page.getAttribute('#hub-error', 'role'), 'alert');
    // A failed fetch leaves the app's model, report and first frame as they were.
    const state = await page.evaluate(() => window.gpusizerApp);
    assert.equal(state.report.memory.per_gpu.total, before);
    assert.equal(state.report.model.source, 'catalog');
  };
  await submit('acme/busy-model');
  await expectError('rate_limited', /rate-limiting requests \(HTTP 429\); retry after 30 s\. Wait a minute/);
  await submit('acme/nocors-model');
  await expectError('offline', /no answer from .*CORS.*Paste config\.json or open the file/);
  await submit('acme/broken-model');
  await expectError('bad_response', /not JSON/);
  await context.setOffline(true);
  await submit(kRepo);
  await expectError('offline', /You may be offline/);
  await context.setOffline(false);

  // Back online, a good repository clears the message; a file whose header is cut short fails
  // when it is read, and names the file.
  await submit(kCutRepo);
  await page.waitForSelector('#hub-panel[data-state=listed]', { timeout: 10000 });
  assert.equal(await page.getAttribute('#hub-panel', 'data-error-kind'), null);
  assert.equal((await page.textContent('#hub-error')).trim(), '');
  await page.click('#hub-load');
  await expectError('unreadable', new RegExp(`${kCutFile}.*(truncated|goes on past|ends at)`));
  // The browser logs the refused and failed requests itself; nothing was thrown uncaught.
  assert.deepEqual(seen.errors.filter((e) => e.startsWith('uncaught')), []);
  await context.close();
});

// gs.fromHub(id, {file}) in a page of the API; then the answer estimated on an H100, its link,
// and what estimate says of the repository alone (not fetched). A rejected fromHub comes back
// as fromHubError.
async function fromHubInPage(id, file) {
  const page = await browser.newPage();
  await page.goto(url + 'embed.html');
  const got = await page.evaluate(async ([endpoint, id, file]) => {
    const { default: createGpuSizer } = await import(new URL('gpusizer.js', location.href).href);
    const gs = await createGpuSizer();
    let config;
    try {
      config = JSON.parse(await gs.fromHub(id, { endpoint, file }));
    } catch (e) {
      return { fromHubError: { name: e.name, key: e.key, message: e.message } };
    }
    const report = JSON.parse(gs.estimate({ ...config, gpu: 'h100-sxm' }));
    let error = null;
    try { gs.estimate({ model: { hub: id, file } }); } catch (e) { error = { key: e.key, message: e.message }; }
    return { config, report, link: gs.linkFromConfig(config), error, frozen: Object.isFrozen(gs) };
  }, [fake.api.url, id, file]);
  await page.close();
  return got;
}

test('gs.fromHub: a configuration estimate accepts, with the repository', async () => {
  const got = await fromHubInPage(kRepo, kFile);
  assert.ok(got.config, JSON.stringify(got.fromHubError));
  assert.deepEqual(Object.keys(got.config.model), ['hub', 'file', 'gguf_headers']);
  assert.equal(got.report.model.source, 'hub');
  const want = cliJson(['estimate', '--gguf', fixture, '--gpu', 'h100-sxm']);
  assert.equal(got.report.memory.per_gpu.weights, want.memory.per_gpu.weights);
  assert.equal(got.link, `#v=1&hf=${kRepo}&f=${kFile}&w=q4_k_m&g=rtx-4090`);
  assert.equal(got.error.key, 'model.hub');
  assert.ok(got.frozen);
});

// The core reads the safetensors header that hub.mjs fetched (exactly its 8 + n bytes): it must
// take them as the start of the file, whose size the tree listing gave.
test('gs.fromHub: a safetensors file\'s header is read by the core, the configuration is config.json\'s', async () => {
  const got = await fromHubInPage(kStRepo, kStFile);
  assert.ok(got.config, JSON.stringify(got.fromHubError));
  assert.equal(got.config.model.hub, kStRepo);
  assert.equal(got.config.model.hf_config.hidden_size, 4096);
  assert.equal(got.report.model.source, 'hub');
});

// QA E15: a repository of 100,000 files rendered 100,001 radio buttons; a split name of 4,096
// parts made 4,096 Range requests on its own; an answer kept from earlier said "0 requests, 0 B
// fetched in all".
test('E15: a long file list shows 100 and a filter, a split file of 100 parts waits to be asked, a kept answer says so', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await openPanel(page, '#v=1&m=llama-3-8b&g=h100-sxm');
  const fetchRepo = async (id) => {
    await page.fill('#hub-repo', id);
    await page.press('#hub-repo', 'Enter');
    await page.waitForSelector('#hub-panel[data-state=listed]', { timeout: 10000 });
  };
  await page.click('#hub-toggle');
  await fetchRepo('acme/many-GGUF');
  assert.equal(await page.$$eval('#hub-files input[type=radio]', (r) => r.length), 100);
  assert.match(await page.textContent('#hub-count'), /Showing 100 of 1,000 matching \(1,000 GGUF files\)/);
  await page.fill('#hub-filter', 'm-00999');
  // The match, and the file chosen so far (the first), which stays listed: Load loads what is checked.
  assert.deepEqual(await page.$$eval('#hub-files label', (ls) => ls.map((l) => l.textContent)), [' m-00000.gguf — 1.00 GB', ' m-00999.gguf — 1.00 GB']);
  // The same repository again: answered from what the page fetched before.
  await fetchRepo('acme/many-GGUF');
  assert.match(await page.textContent('#hub-status'), /nothing fetched now/);
  assert.doesNotMatch(await page.textContent('#hub-status'), /0 requests/);

  await fetchRepo('acme/split-GGUF');
  fake.log.length = 0;
  await page.click('#hub-load');
  await page.waitForSelector('#hub-panel[data-error-kind=too_many_parts]', { timeout: 10000 });
  assert.match(await page.textContent('#hub-error'), /split into 100 parts/);
  assert.equal(await page.textContent('#hub-all-parts'), 'Read all 100 parts');
  assert.deepEqual(fake.log.filter((l) => l.host === 'cdn'), [], 'no part was requested before the reader asked');
  // Asked, the parts are read: the first, then the second, which the repository lacks.
  await page.click('#hub-all-parts');
  await page.waitForSelector('#hub-panel[data-error-kind=not_found]', { timeout: 10000 });
  assert.ok(fake.log.some((l) => l.host === 'cdn' && l.file === 'big-00001-of-00100.gguf'));
  await page.close();
});

// Files dropped on the page: the browser hands them as a DataTransfer (the fixture's bytes here).
function drop(page, files) {
  return page.evaluate((list) => {
    const dt = new DataTransfer();
    for (const { name, b64 } of list) dt.items.add(new File([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], name));
    window.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, files.map(({ name, bytes }) => ({ name, b64: Buffer.from(bytes).toString('base64') })));
}
const message = (page, re) => page.waitForFunction((src) => new RegExp(src).test(window.gpusizerApp.message), re.source, { timeout: 15000 });

test('QA E6: a dropped GGUF file, a config.json and a safetensors file open, or say why, without a parser error', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const seen = watch(page, url);
  await openApp(page, url, '#v=1&m=llama-3-8b&g=h100-sxm&ctx=4096');
  // The GGUF file: its header is read from the disk, the figures are the CLI's for the file.
  await drop(page, [{ name: 'llama-v3.gguf', bytes: header }]);
  await message(page, /^Opened llama-v3\.gguf \(GGUF, /);
  let state = await page.evaluate(() => window.gpusizerApp);
  const want = cliJson(['estimate', '--gguf', fixture, '--gpu', 'h100-sxm', '--context', '4096']);
  assert.equal(state.report.memory.per_gpu.weights, want.memory.per_gpu.weights);
  assert.equal(state.report.memory.per_gpu.total, want.memory.per_gpu.total);
  assert.equal(state.report.config.gpu, 'h100-sxm');   // the rest of the configuration kept
  assert.equal(state.report.config.weights, 'q4_k_m');   // the file's general.file_type
  // The link names the file; opened again it says that a link cannot carry it.
  assert.match(state.link, /&gguf=llama-v3\.gguf/);
  await page.evaluate((l) => { location.hash = l.replace('ctx=4096', 'ctx=2048'); }, state.link);
  await message(page, /gguf: names a file that was not read: a link cannot carry a file from someone's disk: drop the file/);
  // One part of a split file alone: which parts are missing.
  await drop(page, [{ name: 'big-00002-of-00003.gguf', bytes: header }]);
  await message(page, /^Model not opened: big-00002-of-00003\.gguf is one of 3 parts of a split model: open them together \(missing: big-00001-of-00003\.gguf, big-00003-of-00003\.gguf\)/);
  // A safetensors file alone holds no architecture.
  await drop(page, [{ name: 'model.safetensors', bytes: stFile }]);
  await message(page, /^Model not opened: model\.safetensors holds the weights' names, shapes and types but not the architecture/);
  // A bare config.json (dropped with its weights): the model of the current configuration.
  await drop(page, [{ name: 'model.safetensors', bytes: stFile }, { name: 'config.json', bytes: Buffer.from(JSON.stringify(stConfig)) }]);
  await message(page, /^Opened config\.json \(a Hugging Face config\.json, /);
  state = await page.evaluate(() => window.gpusizerApp);
  // Llama 3 8B's fields: the catalog's Llama 3 8B's weights.
  assert.equal(state.report.memory.per_gpu.weights,
    cliJson(['estimate', '--model', 'llama-3-8b', '--gpu', 'h100-sxm', '--context', '4096']).memory.per_gpu.weights);
  assert.equal(state.report.config.gpu, 'h100-sxm');
  assert.doesNotMatch(state.message, /parse error|unknown configuration key/);
  assert.deepEqual(seen.errors, []);
  await page.close();
});
