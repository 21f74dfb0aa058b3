// web-hub-screenshot.mjs: the README's picture of "From the Hub" (docs/images/web-hub.png): the
// app page at 1280x800 after the panel has read a GGUF file's header from a local server that
// plays the Hub (tests/fake_hub.mjs) and loaded it. The file is the suite's Llama fixture
// (tests/write_fixtures.cpp) behind 50 MB of tensor data, published as acme/tiny-llama-GGUF.
//   node scripts/web-hub-screenshot.mjs [OUT_DIR]   (needs build/wasm/site and build/native/gpusizer_write_fixtures)
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { frames, launch, repo, requireSetup, serveSite } from '../tests/browser/harness.mjs';
import { startFakeHub } from '../tests/fake_hub.mjs';

requireSetup();
const out = process.argv[2] || 'docs/images';
const dir = mkdtempSync(join(tmpdir(), 'gpusizer-hub-shot-'));
execFileSync(process.env.GPUSIZER_WRITE_FIXTURES || join(repo, 'build', 'native', 'gpusizer_write_fixtures'), [dir]);
const header = readFileSync(join(dir, 'llama-v3.gguf'));
const fake = await startFakeHub({
  'acme/tiny-llama-GGUF': {
    config: null,
    files: {
      'tiny-llama-Q4_K_M.gguf': { size: header.length + 50e6, at: (i) => (i < header.length ? header[i] : 0) },
      'tiny-llama-Q8_0.gguf': { size: header.length + 95e6, at: (i) => (i < header.length ? header[i] : 0) },
    },
  },
});
const { server, url } = await serveSite();
const browser = await launch();
const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
await page.goto(`${url}index.html?hub=${encodeURIComponent(fake.api.url)}#v=1&m=llama-3.1-8b&ctx=32768&g=rtx-4060-ti-16gb`);
await page.waitForFunction(() => document.documentElement.getAttribute('data-first-frame') === '1' && window.gpusizerApp, null, { timeout: 30000 });
await page.click('#hub-toggle');
await page.fill('#hub-repo', 'acme/tiny-llama-GGUF');
await page.keyboard.press('Enter');
await page.waitForSelector('#hub-panel[data-state=listed]');
await page.click('#hub-load');
await page.waitForSelector('#hub-panel[data-state=loaded]', { state: 'attached' });
await page.waitForFunction(() => window.gpusizerApp.report && window.gpusizerApp.report.model.source === 'hub');
await page.click('#hub-toggle');   // the panel closes after a load (QA E9): opened again, it shows what it loaded
await page.mouse.move(1279, 799);
await frames(page, 8);
await page.screenshot({ path: join(out, 'web-hub.png') });
await browser.close();
server.close();
await fake.close();
console.log(`wrote web-hub.png in ${out}`);
