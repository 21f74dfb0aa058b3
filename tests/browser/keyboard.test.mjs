// keyboard.test.mjs: the full app with the keyboard alone (QA D9: "a keyboard-only user cannot
// reach or change a single control"). ImGui's keyboard navigation: Ctrl+Tab moves between the
// setup panel and the results, the arrows move between controls (the focus ring is drawn; the
// page publishes where it is in window.gpusizerNav), Space activates a slider, the arrows
// change it, Space lets go; the change is in the share link like a mouse drag's.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { frames, openApp, requireSetup, useBrowser, watch } from './harness.mjs';

requireSetup();

let browser, url;
useBrowser((b, u) => {
  browser = b;
  url = u;
});

// Dear ImGui 1.86 reads key states once a frame: each key is held for a few frames.
async function hold(page, ...keys) {
  for (const k of keys) await page.keyboard.down(k);
  await frames(page, 3);
  for (const k of [...keys].reverse()) await page.keyboard.up(k);
  await frames(page, 3);
}

const overlaps = (a, b) => a && b && a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

test('D9: keyboard alone: Ctrl+Tab to the setup, arrows to the GPUs slider, Space and arrows change it', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const seen = watch(page, url);
  const state = await openApp(page, url, '#v=1&m=llama-3-70b&w=q4_k_m&g=rtx-4090x2');
  assert.equal(state.report.config.gpus, 2);
  const slider = state.layout.find((r) => r.name === 'gpus slider');
  assert.ok(slider, 'the app reports the GPUs slider');
  assert.equal(await page.evaluate(() => window.gpusizerNav || null), null, 'no focus ring before a key');

  await hold(page, 'Control', 'Tab');
  let nav = null;
  for (let i = 0; i < 30 && !overlaps(nav, slider); ++i) {
    await hold(page, 'ArrowDown');
    nav = await page.evaluate(() => window.gpusizerNav || null);
    assert.ok(nav, 'the arrows show a focus ring');
    // The ring stays in the setup panel, at or above the slider: nothing is skipped.
    assert.ok(nav.y <= slider.y + slider.h, `the focus went past the GPUs slider (at y ${nav.y})`);
  }
  assert.ok(overlaps(nav, slider), 'the arrows reach the GPUs slider');

  // Space takes the slider, two steps to the right, Space lets go: more GPUs (the steps are
  // 1, 2, 3, 4, ...: two steps from 2 give 4, or more when a loaded machine's slow frames let
  // ImGui's key repeat (0.25 s) fire).
  await hold(page, 'Space');
  await hold(page, 'ArrowRight');
  await hold(page, 'ArrowRight');
  await hold(page, 'Space');
  await page.waitForFunction(() => window.gpusizerApp.report.config.gpus !== 2, null, { timeout: 5000 });
  const after = await page.evaluate(() => window.gpusizerApp);
  const gpus = after.report.config.gpus;
  assert.ok(gpus >= 4, `${gpus} GPUs after two steps right from 2`);
  assert.match(after.link, new RegExp(`g=rtx-4090x${gpus}(&|$)`));
  await page.waitForFunction((g) => location.hash.includes(`g=rtx-4090x${g}`), gpus, { timeout: 5000 });
  // The arrows on a slider let go of move it no more: arrows move the focus again.
  await hold(page, 'ArrowDown');
  assert.equal(await page.evaluate(() => window.gpusizerApp.report.config.gpus), gpus);
  assert.deepEqual(seen.errors, []);
  await page.close();
});

// The results' tabs wrap into rows on a narrow screen (390 px: three rows): the arrows still
// reach each of them, the last (Plan) included, and Space opens the one in focus.
test('keyboard alone reaches every results tab in their rows, and Space opens Plan', async () => {
  const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
  const seen = watch(page, url);
  await openApp(page, url);
  const names = ['memory tab', 'speed & power tab', 'cost tab', 'plots tab', 'compare gpus tab', 'recommend tab', 'measured tab',
    'assumptions tab', 'engine log tab', 'plan tab'];
  const reached = new Set();
  const focused = async () => {
    const [nav, layout] = await page.evaluate(() => [window.gpusizerNav || null, window.gpusizerApp.layout]);
    return names.find((n) => overlaps(nav, layout.find((r) => r.name === n)));
  };
  // Down through the column to the first row of tabs, then right along each row and down to
  // the next, as a keyboard user would.
  let at;
  for (let i = 0; i < 40 && !at; ++i) {
    await hold(page, 'ArrowDown');
    at = await focused();
  }
  assert.ok(at, 'the arrows reach the tabs');
  for (let i = 0; i < 30 && at !== 'plan tab'; ++i) {
    reached.add(at);
    const before = at;
    await hold(page, 'ArrowRight');
    at = await focused();
    if (at === before || !at) {
      await hold(page, 'ArrowDown');
      at = await focused();
      // The row's first tab: left to it, so no tab of the row is skipped.
      for (let k = 0; k < 5; ++k) {
        await hold(page, 'ArrowLeft');
        const left = await focused();
        if (!left || left === at) break;
        at = left;
      }
    }
  }
  assert.equal(at, 'plan tab', 'the arrows reach the Plan tab');
  reached.add(at);
  assert.deepEqual(names.filter((n) => !reached.has(n)), [], 'tabs the arrows never reached');
  await hold(page, 'Space');
  await page.waitForFunction(() => window.gpusizerApp.layout.some((r) => r.name === 'serving layouts switch'), null, { timeout: 5000 });
  assert.deepEqual(seen.errors, []);
  await page.close();
});
