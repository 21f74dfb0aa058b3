// theme_export.test.mjs: the app's light and dark themes and its PNG export, in Chromium.
// - The app starts in the OS's theme (prefers-color-scheme), follows it while the reader has not
//   chosen, and the switch in the app wins from then on, remembered by the browser
//   (localStorage) and never written into the share link.
// - Every text color of both themes has a contrast of at least 4.5:1 (WCAG 2.1, 1.4.3) against
//   the backgrounds it is drawn on: the colors come from the app itself
//   (window.gpusizerThemeColors, published from ui/theme.cpp) and from the page's CSS.
// - "Save PNG" downloads a valid PNG (signature, chunk CRCs, inflated and unfiltered here) of
//   the results: the size of the results panel, hundreds of colours, mostly the theme's
//   background with the chart and breakdown on it. The desktop app's "Save PNG" (the same ui
//   code, glReadPixels and stb_image_write) writes the same kind of picture, under Xvfb.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { inflateSync } from 'node:zlib';

import { cli, frames, layoutRect, openApp, requireSetup, useBrowser, watch, clickFrames } from './harness.mjs';

requireSetup();

let browser, url;
useBrowser((b, u) => {
  browser = b;
  url = u;
});

async function click(page, name) {
  const r = layoutRect(await page.evaluate(() => window.gpusizerApp), name);
  await clickFrames(page, r.x + r.w / 2, r.y + r.h / 2);
  await frames(page, 3);
}

const themeOf = (page) => page.evaluate(() => ({
  app: window.gpusizerThemeColors && window.gpusizerThemeColors.theme,
  page: document.documentElement.dataset.theme,
  saved: localStorage.getItem('gpusizer-theme'),
}));

// The canvas pixel at (x, y) CSS pixels, as drawn (a screenshot of one pixel, decoded here).
async function pixel(page, x, y) {
  const png = decodePng(await page.screenshot({ clip: { x, y, width: 1, height: 1 } }));
  return [png.rgba[0], png.rgba[1], png.rgba[2]];
}

// ---------------------------------------------------------------------------------------------
// WCAG 2.1 contrast (https://www.w3.org/TR/WCAG21/#dfn-contrast-ratio)
// ---------------------------------------------------------------------------------------------
const channel = (c) => (c / 255 <= 0.04045 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4);
const luminance = ([r, g, b]) => 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
const contrast = (a, b) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
};
// A color with alpha over an opaque one.
const over = ([r, g, b, a = 1], [R, G, B]) => [r * a + R * (1 - a), g * a + G * (1 - a), b * a + B * (1 - a)];
const cssRgb = (text) => text.match(/[\d.]+/g).slice(0, 3).map(Number);

// ---------------------------------------------------------------------------------------------
// A PNG decoder for the test (8-bit RGB or RGBA, not interlaced: what browsers write)
// ---------------------------------------------------------------------------------------------
const kCrcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; ++k) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes) {
  let c = 0xffffffff;
  for (const b of bytes) c = kCrcTable[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function decodePng(buf) {
  assert.deepEqual([...buf.subarray(0, 8)], [137, 80, 78, 71, 13, 10, 26, 10], 'PNG signature');
  let at = 8, width = 0, height = 0, colorType = 0;
  const idat = [];
  const types = [];
  while (at < buf.length) {
    const len = buf.readUInt32BE(at);
    const type = buf.toString('latin1', at + 4, at + 8);
    const body = buf.subarray(at + 8, at + 8 + len);
    assert.equal(buf.readUInt32BE(at + 8 + len), crc32(buf.subarray(at + 4, at + 8 + len)), `CRC of the ${type} chunk`);
    types.push(type);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      assert.equal(body[8], 8, 'bit depth');
      colorType = body[9];
      assert.ok(colorType === 2 || colorType === 6, `color type ${colorType}`);
      assert.equal(body[12], 0, 'not interlaced');
    } else if (type === 'IDAT') idat.push(body);
    at += 12 + len;
  }
  assert.equal(types[0], 'IHDR');
  assert.equal(types[types.length - 1], 'IEND');
  const bpp = colorType === 6 ? 4 : 3;
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * bpp;
  assert.equal(raw.length, height * (stride + 1), 'inflated size');
  const rgba = new Uint8Array(width * height * 4);
  let prev = new Uint8Array(stride);
  for (let y = 0; y < height; ++y) {
    const filter = raw[y * (stride + 1)];
    const line = Uint8Array.from(raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1)));
    for (let i = 0; i < stride; ++i) {
      const a = i >= bpp ? line[i - bpp] : 0, b = prev[i], c = i >= bpp ? prev[i - bpp] : 0;
      let p;
      if (filter === 0) p = 0;
      else if (filter === 1) p = a;
      else if (filter === 2) p = b;
      else if (filter === 3) p = (a + b) >> 1;
      else if (filter === 4) {
        const q = a + b - c, pa = Math.abs(q - a), pb = Math.abs(q - b), pc = Math.abs(q - c);
        p = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      } else assert.fail(`filter type ${filter}`);
      line[i] = (line[i] + p) & 0xff;
    }
    for (let x = 0; x < width; ++x)
      for (let k = 0; k < 4; ++k) rgba[(y * width + x) * 4 + k] = k < bpp ? line[x * bpp + k] : 255;
    prev = line;
  }
  return { width, height, rgba };
}

function colourStats({ width, height, rgba }) {
  const counts = new Map();
  for (let i = 0; i < rgba.length; i += 4) {
    const k = (rgba[i] << 16) | (rgba[i + 1] << 8) | rgba[i + 2];
    counts.set(k, (counts.get(k) || 0) + 1);
  }
  let top = 0, topCount = 0;
  for (const [k, n] of counts) if (n > topCount) [top, topCount] = [k, n];
  return { colors: counts.size, most: [top >> 16, (top >> 8) & 255, top & 255], nonBackground: 1 - topCount / (width * height) };
}

// ---------------------------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------------------------

test('the app starts in the OS theme, canvas and page alike', async () => {
  for (const scheme of ['dark', 'light']) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: scheme });
    const page = await context.newPage();
    const seen = watch(page, url);
    await openApp(page, url);
    await frames(page, 2);
    const t = await themeOf(page);
    assert.deepEqual(t, { app: scheme, page: scheme, saved: null }, `with prefers-color-scheme: ${scheme}`);
    // The canvas's background is the theme's (below the setup panel's last control), and the
    // page's background behind it is the same color.
    const colors = await page.evaluate(() => window.gpusizerThemeColors);
    assert.deepEqual(await pixel(page, 200, 790), colors.background.slice(0, 3), `the canvas background in the ${scheme} theme`);
    const body = cssRgb(await page.evaluate(() => getComputedStyle(document.body).backgroundColor));
    assert.deepEqual(body, colors.background.slice(0, 3), `the page background in the ${scheme} theme`);
    assert.deepEqual(seen.errors, []);
    await context.close();
  }
});

test('the OS theme is followed live until the reader chooses; the choice is remembered, not linked', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: 'light' });
  const page = await context.newPage();
  await openApp(page, url, '#v=1&m=llama-3.1-8b&w=q4_k_m&g=rtx-4060-ti-16gb');
  assert.equal((await themeOf(page)).app, 'light');
  // The OS switches to dark: the app follows.
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.mouse.move(5, 5);   // any input draws a frame
  await frames(page, 3);
  assert.deepEqual(await themeOf(page), { app: 'dark', page: 'dark', saved: null });
  const before = await page.evaluate(() => ({ hash: location.hash, link: window.gpusizerApp.link }));

  // The reader picks light in the app.
  await click(page, 'theme button');
  assert.deepEqual(await themeOf(page), { app: 'light', page: 'light', saved: 'light' });
  const colors = await page.evaluate(() => window.gpusizerThemeColors);
  assert.deepEqual(await pixel(page, 200, 790), colors.background.slice(0, 3), 'the canvas is redrawn in the light theme');
  // The configuration and its link are untouched, and no history entry was made.
  const after = await page.evaluate(() => ({ hash: location.hash, link: window.gpusizerApp.link }));
  assert.deepEqual(after, before);
  assert.doesNotMatch(after.link, /theme|light|dark/);

  // The OS's next change no longer moves it, and a reload keeps the choice.
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.emulateMedia({ colorScheme: 'light' });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.mouse.move(6, 6);
  await frames(page, 3);
  assert.equal((await themeOf(page)).app, 'light');
  await page.reload();
  await page.waitForFunction(() => window.gpusizerThemeColors && document.documentElement.getAttribute('data-first-frame') === '1');
  assert.deepEqual(await themeOf(page), { app: 'light', page: 'light', saved: 'light' });
  assert.equal(await page.evaluate(() => location.hash), before.hash);
  await context.close();
});

test('every text color has a contrast of at least 4.5:1 in both themes (app and page)', async () => {
  for (const scheme of ['dark', 'light']) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: scheme });
    const page = await context.newPage();
    await openApp(page, url);
    await frames(page, 2);
    const c = await page.evaluate(() => window.gpusizerThemeColors);
    assert.equal(c.theme, scheme);
    const bg = c.background;
    // ImGui's text and muted text on every surface they sit on (surfaces with alpha composited
    // over the background: the panels draw none of their own).
    const surfaces = ['background', 'child', 'frame', 'button', 'header', 'tab_active', 'popup', 'table_header'];
    const checks = [];
    for (const s of surfaces) checks.push(['text', s]);
    for (const s of ['background', 'child', 'frame', 'popup', 'table_header']) checks.push(['text_disabled', s]);
    // The meaning colors drawn as text on the background: the verdict, the usable-memory label,
    // warnings, the app's name, the chart's labels.
    for (const t of ['fits', 'no_fit', 'capacity', 'warning', 'accent', 'chart_text', 'chart_text_muted']) checks.push([t, 'background']);
    const low = [];
    for (const [fg, surface] of checks) {
      const under = surface === 'background' ? bg.slice(0, 3) : over(c[surface], bg);
      const ratio = contrast(over(c[fg], under), under);
      if (ratio < 4.5) low.push(`${fg} on ${surface}: ${ratio.toFixed(2)}`);
    }
    assert.deepEqual(low, [], `text below 4.5:1 in the ${scheme} theme`);
    // The page's own text (the fallback message and its link) in the same theme.
    const css = await page.evaluate(() => {
      document.getElementById('fallback').hidden = false;
      const s = getComputedStyle(document.body);
      return { text: s.color, bg: s.backgroundColor, link: getComputedStyle(document.querySelector('#fallback a')).color };
    });
    assert.ok(contrast(cssRgb(css.text), cssRgb(css.bg)) >= 4.5, `page text ${css.text} on ${css.bg}`);
    assert.ok(contrast(cssRgb(css.link), cssRgb(css.bg)) >= 4.5, `page link ${css.link} on ${css.bg}`);
    await context.close();
  }
});

test('Save PNG downloads a valid PNG of the results (breakdown and chart) in either theme', async () => {
  for (const scheme of ['dark', 'light']) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: scheme, acceptDownloads: true });
    const page = await context.newPage();
    const seen = watch(page, url);
    const state = await openApp(page, url, '#v=1&m=llama-3.1-8b&w=q4_k_m&g=rtx-4060-ti-16gb');
    const results = layoutRect(state, 'Results');
    const [download] = await Promise.all([page.waitForEvent('download', { timeout: 20000 }), click(page, 'save png button')]);
    assert.equal(download.suggestedFilename(), 'gpusizer-llama-3.1-8b-rtx-4060-ti-16gb.png');
    const png = decodePng(readFileSync(await download.path()));
    // The results panel below the link bar: its full width, most of its height.
    assert.equal(png.width, Math.round(results.w));
    assert.ok(png.height > results.h * 0.8 && png.height < results.h, `height ${png.height} of a ${results.h} px panel`);
    const stats = colourStats(png);
    const colors = await page.evaluate(() => window.gpusizerThemeColors);
    assert.deepEqual(stats.most, colors.background.slice(0, 3), `the picture's background is the ${scheme} theme's`);
    // Text, the stacked bar and the chart's lines give hundreds of colours (anti-aliasing); a
    // blank or wrongly-read framebuffer gives one.
    assert.ok(stats.colors > 200, `only ${stats.colors} colours`);
    assert.ok(stats.nonBackground > 0.08, `only ${(100 * stats.nonBackground).toFixed(1)}% of the pixels are not background`);
    // The stacked bar's weights color (Tableau blue, ui/theme.hpp part_color(0)) is in it.
    let weights = 0;
    for (let i = 0; i < png.rgba.length; i += 4) if (png.rgba[i] === 76 && png.rgba[i + 1] === 120 && png.rgba[i + 2] === 168) ++weights;
    assert.ok(weights > 1000, `${weights} pixels of the weights color`);
    const after = await page.evaluate(() => window.gpusizerApp);
    assert.match(after.message, /^Saved the results as gpusizer-llama-3\.1-8b-rtx-4060-ti-16gb\.png/);
    assert.equal(after.message_is_error, false);
    assert.deepEqual(seen.errors, []);
    await context.close();
  }
});

test('the desktop app saves the same picture (Save PNG on its last frame, under Xvfb)', (t) => {
  const app = join(cli, '..', 'gpusizer-app');
  const xvfb = ['/usr/bin/xvfb-run', '/bin/xvfb-run'].find(existsSync);
  if (!existsSync(app) || !xvfb) return t.skip('no gpusizer-app or xvfb-run');
  for (const theme of ['dark', 'light']) {
    const dir = mkdtempSync(join(tmpdir(), 'gpusizer-png-'));
    const r = spawnSync(xvfb, ['-a', '-s', '-screen 0 1280x800x24', app, '#v=1&m=llama-3.1-8b&w=q4_k_m&g=rtx-4060-ti-16gb',
      '--screenshot', join(dir, 'screen.png'), '--size', '1280x800', '--layout', join(dir, 'layout.json'), '--save-png'],
    { cwd: dir, encoding: 'utf8', env: { ...process.env, GPUSIZER_THEME: theme }, timeout: 60000 });
    assert.equal(r.status, 0, r.stderr);
    const layout = JSON.parse(readFileSync(join(dir, 'layout.json'), 'utf8'));
    assert.match(layout.message, /^Saved the results as .*gpusizer-llama-3\.1-8b-rtx-4060-ti-16gb\.png$/);
    const png = decodePng(readFileSync(join(dir, 'gpusizer-llama-3.1-8b-rtx-4060-ti-16gb.png')));
    const results = layout.layout.find((x) => x.name === 'Results');
    assert.equal(png.width, Math.round(results.w));
    assert.ok(png.height > results.h * 0.8 && png.height < results.h, `height ${png.height} of a ${results.h} px panel`);
    const stats = colourStats(png);
    assert.ok(stats.colors > 200, `only ${stats.colors} colours`);
    assert.ok(stats.nonBackground > 0.08);
    // Its background is the theme's (ui/theme.cpp: #1b1d22 dark, #f3f4f6 light), so the rows
    // were read the right way up and the theme came from GPUSIZER_THEME.
    assert.deepEqual(stats.most, theme === 'dark' ? [27, 29, 34] : [243, 244, 246]);
  }
});

test('Report copies the report as CSV and JSON and downloads the CLI\'s text (QA: copyable numbers)', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: url });
  const page = await context.newPage();
  const seen = watch(page, url);
  const link = '#v=1&m=llama-3.1-8b&w=q4_k_m&g=rtx-4060-ti-16gb';
  await openApp(page, url, link);
  const cliJson = JSON.parse(spawnSync(cli, ['estimate', '--share-link', link, '--json'], { encoding: 'utf8' }).stdout);
  // Opens the menu, then picks an item of it (its place is recorded once the popup is drawn).
  const pick = async (item) => {
    await click(page, 'report button');
    await frames(page, 2);
    await click(page, item);
  };

  await pick('report copy csv');
  await page.waitForFunction(() => window.gpusizerApp.message.startsWith('Report copied as CSV'), null, { timeout: 3000 });
  const csv = (await page.evaluate(() => navigator.clipboard.readText())).split('\n');
  assert.equal(csv[0], 'key,value');
  const row = (key) => csv.find((l) => l.startsWith(key + ','));
  // Dotted keys of the report's JSON, each value as JSON writes it.
  assert.equal(row('memory.per_gpu.total'), `memory.per_gpu.total,${cliJson.memory.per_gpu.total}`);
  assert.equal(row('fits'), 'fits,true');
  assert.equal(row('config.model'), 'config.model,llama-3.1-8b');
  assert.equal(row('gpu.name'), `gpu.name,${cliJson.gpu.name}`);

  await pick('report copy json');
  await page.waitForFunction(() => window.gpusizerApp.message.startsWith('Report copied as JSON'), null, { timeout: 3000 });
  const copied = JSON.parse(await page.evaluate(() => navigator.clipboard.readText()));
  assert.deepEqual(copied.memory, cliJson.memory);
  assert.equal(copied.config.model, 'llama-3.1-8b');

  const [download] = await Promise.all([page.waitForEvent('download', { timeout: 20000 }), pick('report save text')]);
  assert.equal(download.suggestedFilename(), 'gpusizer-llama-3.1-8b-rtx-4060-ti-16gb.txt');
  const text = readFileSync(await download.path(), 'utf8');
  // What `gpusizer estimate` prints for the same link, line for line (the core writes both), before
  // the share link the CLI adds.
  assert.equal(text + `\n  share link: ${link}\n`, spawnSync(cli, ['estimate', '--share-link', link], { encoding: 'utf8' }).stdout);
  assert.match((await page.evaluate(() => window.gpusizerApp)).message, /^Saved the report as gpusizer-llama-3\.1-8b-rtx-4060-ti-16gb\.txt/);
  assert.deepEqual(seen.errors, []);
  await context.close();
});
