// keyboard.test.mjs: the full app with the keyboard alone (QA D9: "a keyboard-only user cannot
// reach or change a single control"). ImGui's keyboard navigation: Ctrl+Tab moves between the
// setup panel and the results, the arrows move between controls (the focus ring is drawn; the
// page publishes where it is in window.gpusizerNav), Space activates a slider, the arrows
// change it, Space lets go; the change is in the share link like a mouse drag's.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { clickFrames, frames, openApp, repo, requireSetup, useBrowser, watch } from './harness.mjs';

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

// QA E7: Tab was inert (GLFW cancels it: the focus stayed on BODY and no ring showed) and the
// "From the Hub" button could not be reached. Now the canvas is one stop: the first Tab puts
// ImGui's focus ring on the Setup panel's first control (the Model header, above the model
// picker), the arrows move it, the next Tab leaves the canvas for the Hub button and then the
// settings' form controls, and Shift+Tab comes back, ring and all.
const active = (page) => page.evaluate(() => document.activeElement && (document.activeElement.id || document.activeElement.tagName));
const nav = (page) => page.evaluate(() => window.gpusizerNav || null);

test('E7: Tab reaches the first canvas control, the Hub button, the settings, and comes back', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const seen = watch(page, url);
  const state = await openApp(page, url, '#v=1&m=llama-3-8b&g=rtx-4090');
  const setup = state.layout.find((r) => r.name === 'Setup');
  const model = state.layout.find((r) => r.name === 'cell box|model');
  assert.ok(setup && model);
  assert.equal(await nav(page), null, 'no focus ring before a key');

  await page.keyboard.press('Tab');
  assert.equal(await active(page), 'canvas', 'the first Tab goes to the canvas');
  await page.waitForFunction(() => window.gpusizerNav, null, { timeout: 5000 });
  const first = await nav(page);
  assert.ok(first.x >= setup.x && first.x + first.w <= setup.x + setup.w + 1, 'the ring is in the Setup panel');
  assert.ok(first.y + first.h <= model.y, `the ring is on the first control, above the model picker (at y ${first.y}, the picker at ${model.y})`);
  await hold(page, 'ArrowDown');
  const moved = await nav(page);
  assert.ok(moved && moved.y > first.y, 'the arrows move the ring down from there');

  await page.keyboard.press('Tab');
  assert.equal(await active(page), 'hub-toggle', 'Tab leaves the canvas for the Hub button');
  await page.waitForFunction(() => !window.gpusizerNav, null, { timeout: 5000 });   // the canvas's ring goes with its focus
  // The settings, then the tab list (one stop: the tab shown) and the light version's link.
  const order = [];
  for (let i = 0; i < 7; ++i) {
    await page.keyboard.press('Tab');
    order.push(await page.evaluate(() => document.activeElement.id || document.activeElement.getAttribute('role') + ' ' + document.activeElement.textContent));
  }
  assert.deepEqual(order, ['c-model', 'c-weights', 'c-context', 'c-gpu', 'c-gpus', 'tab Memory', 'accessible-link']);
  // While one has the focus, the settings are in sight (a keyboard user sees where the focus is).
  const box = await page.locator('#controls').boundingBox();
  assert.ok(box && box.width > 200 && box.height > 100, `the settings panel shows (${JSON.stringify(box)})`);
  for (let i = 0; i < 7; ++i) await page.keyboard.press('Shift+Tab');
  assert.equal(await active(page), 'hub-toggle');
  const hidden = await page.locator('#controls').boundingBox();
  assert.ok(hidden.width <= 1 && hidden.height <= 1, 'the settings go out of sight once the focus leaves them');
  await page.keyboard.press('Shift+Tab');
  assert.equal(await active(page), 'canvas', 'Shift+Tab comes back to the canvas');
  await page.waitForFunction(() => window.gpusizerNav, null, { timeout: 5000 });
  assert.deepEqual(seen.errors, []);
  await page.close();
});

// QA E7: in the Hub panel Escape closes it and the focus goes back to its button, also once the
// focus has fallen to the page itself (BODY), from where Tab moves on again.
test('E7: Escape closes the Hub panel and gives the focus back to its button', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const seen = watch(page, url);
  await openApp(page, url);
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  assert.equal(await active(page), 'hub-toggle');
  await page.keyboard.press('Enter');
  assert.equal(await active(page), 'hub-repo', 'the panel opens on its field');
  await page.keyboard.type('a');   // the panel's keys are the panel's
  assert.equal(await page.inputValue('#hub-repo'), 'a');
  await page.keyboard.press('Escape');
  assert.equal(await page.evaluate(() => document.getElementById('hub-panel').hidden), true, 'Escape in the panel closes it');
  assert.equal(await active(page), 'hub-toggle');
  await page.keyboard.press('Enter');
  await page.evaluate(() => document.activeElement.blur());
  assert.equal(await active(page), 'BODY');
  await page.keyboard.press('Escape');
  assert.equal(await page.evaluate(() => document.getElementById('hub-panel').hidden), true, 'Escape on the page closes the panel');
  assert.equal(await active(page), 'hub-toggle');
  await page.keyboard.press('Shift+Tab');
  assert.equal(await active(page), 'canvas', 'and Tab moves on from there');
  assert.deepEqual(seen.errors, []);
  await page.close();
});

// ui/state.cpp filter_matches: the search splits at spaces and hyphens; every token must be in
// the id, or every token in the name, whatever the case.
function matches(filter, a, b) {
  const tokens = filter.toLowerCase().split(/[ -]/).filter(Boolean);
  return tokens.every((t) => a.toLowerCase().includes(t)) || tokens.every((t) => b.toLowerCase().includes(t));
}

// QA E7: Enter did nothing in the Model and GPU lists (Dear ImGui 1.86 activates with Space
// only). Now Enter picks the item the ring is on, and Enter in the search picks its one match.
test('E7: Enter picks the highlighted model and GPU, and the one match of a search', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const seen = watch(page, url);
  const state = await openApp(page, url, '#v=1&m=llama-3-8b&g=a100-80gb');
  // The catalog the app carries (assets/*.json, built into the module), in its order.
  const choices = {
    models: JSON.parse(readFileSync(join(repo, 'assets', 'models.json'), 'utf8')).models.map((m) => [m.id, m.name, m.family || '']),
    gpus: JSON.parse(readFileSync(join(repo, 'assets', 'gpus.json'), 'utf8')).gpus.map((g) => [g.id, g.name]),
  };
  const box = (name) => state.layout.find((r) => r.name === 'cell box|' + name);

  // Models: "mistral" shows several; the list shows them by family, families in the order they
  // first appear (ui/view_setup.cpp): ArrowDown from the search lands on the first shown.
  const shown = choices.models.filter(([id, name, family]) => matches('mistral', id, name) || matches('mistral', family, family));
  assert.ok(shown.length >= 2, 'several models match "mistral"');
  const families = [...new Set(choices.models.map((m) => m[2]))];
  const firstShown = families.flatMap((f) => shown.filter((m) => m[2] === f))[0];
  await clickFrames(page, box('model').x + 20, box('model').y + box('model').h / 2);
  await page.keyboard.type('mistral');
  await frames(page, 3);
  await hold(page, 'ArrowDown');
  await hold(page, 'Enter');
  await page.waitForFunction((id) => window.gpusizerApp.report.config.model === id, firstShown[0], { timeout: 5000 });

  // GPUs: a search with one match, and Enter in the search field.
  const unique = choices.gpus.map((g) => g[0]).find((id) => id !== 'a100-80gb' && choices.gpus.filter((g) => matches(id, g[0], g[1])).length === 1);
  assert.ok(unique, 'some GPU id matches that GPU alone');
  await clickFrames(page, box('gpu').x + 20, box('gpu').y + box('gpu').h / 2);
  await page.keyboard.type(unique);
  await frames(page, 3);
  await hold(page, 'Enter');
  await page.waitForFunction((id) => window.gpusizerApp.report.config.gpu === id, unique, { timeout: 5000 });
  assert.deepEqual(seen.errors, []);
  await page.close();
});
