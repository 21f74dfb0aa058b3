// web-screenshots.mjs: the README's pictures of the browser build, taken in headless Chromium.
//   node scripts/web-screenshots.mjs [OUT_DIR]     (default docs/images; needs build/wasm/site)
// web-app.png: the app page at 1280x800 (dark theme), web-app-light.png the same in the light
// theme; web-tablet.png: at 820x1180 with touch; web-phone.png and web-phone-open.png: at
// 390x844 with touch (one column, then with a section opened by a tap), web-phone-light.png in
// the light theme; web-cost.png and web-phone-cost.png: the Cost tab at 1280x800 and 390x844;
// web-simulate.png and web-phone-simulate.png: the Plan tab's request simulation, the same sizes;
// web-pinned.png, web-report-menu.png and web-phone-pinned.png: the Pinned tab and the Report menu;
// web-widget.png: the widget on a documentation page. The app follows the OS's
// theme: each picture's context sets prefers-color-scheme.
// In Brazilian Portuguese (issue 28): web-app-pt-BR.png at 1280x800, web-phone-pt-BR.png at 390x844
// with touch, web-widget-pt-BR.png the widget on a documentation page in Portuguese (data-lang).
//   node scripts/web-screenshots.mjs [OUT_DIR] --pt-BR    takes only these three
import { join } from 'node:path';

import { clickFrames, frames, launch, openApp, requireSetup, serveSite } from '../tests/browser/harness.mjs';

requireSetup();
const out = process.argv.slice(2).find((a) => !a.startsWith('--')) || 'docs/images';
const onlyPortuguese = process.argv.includes('--pt-BR');
// A finger drag up through CDP (Playwright has tap only): from y = `from`, `steps` moves of `dy`.
async function swipeUp(context, page, from, steps, dy) {
  const cdp = await context.newCDPSession(page);
  const at = (y) => [{ x: 120, y, id: 1 }];
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: at(from) });
  await frames(page, 2);
  for (let i = 1; i <= steps; ++i) {
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: at(from - dy * i) });
    await frames(page, 1);
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await frames(page, 12);
}

// Clicks (or taps) the item the app names `name` in its layout, once it is there.
async function named(page, name, tap) {
  await page.waitForFunction((n) => window.gpusizerApp.layout.some((r) => r.name === n), name, { timeout: 10000 });
  const r = (await page.evaluate(() => window.gpusizerApp)).layout.find((x) => x.name === name);
  // A tap lands only within the viewport: an item below the fold says so rather than miss.
  const height = page.viewportSize().height;
  if (r.y + r.h / 2 >= height) throw new Error(`${name} is below the fold (y ${r.y} of ${height}): swipe up first`);
  if (tap) await page.touchscreen.tap(r.x + r.w / 2, r.y + r.h / 2);
  else await clickFrames(page, r.x + r.w / 2, r.y + r.h / 2);
  await frames(page, 8);
}

const { server, url } = await serveSite();
const browser = await launch();
const kLink = '#v=1&m=llama-3.1-8b&w=q4_k_m&ctx=32768&g=rtx-4060-ti-16gb';

// The same configuration in Portuguese: the app (desktop, and a phone with touch) opened with
// lang=pt-BR, and the widget on a documentation page in Portuguese.
{
  const app = await browser.newPage({ viewport: { width: 1280, height: 800 }, colorScheme: 'dark', locale: 'pt-BR' });
  await openApp(app, url, kLink + '&lang=pt-BR');
  await app.mouse.move(1279, 799);
  await frames(app, 6);
  await app.screenshot({ path: join(out, 'web-app-pt-BR.png') });
  await app.close();
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2,
    colorScheme: 'dark', locale: 'pt-BR' });
  const page = await context.newPage();
  await openApp(page, url, kLink + '&lang=pt-BR');
  await frames(page, 6);
  await page.screenshot({ path: join(out, 'web-phone-pt-BR.png') });
  await context.close();
  const docs = await browser.newPage({ viewport: { width: 760, height: 640 }, colorScheme: 'light', locale: 'pt-BR' });
  await docs.route(url + 'docs/exemplo.html', (route) => route.fulfill({
    contentType: 'text/html',
    body: `<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>docs</title>
      <style>body { font: 16px/1.5 system-ui, "DejaVu Sans", sans-serif; color: #1d2330; margin: 28px 40px; max-width: 640px; }
      h2 { margin: 0 0 6px; font-size: 22px; } p { margin: 0 0 14px; color: #3b4352; }</style>
      </head><body><h2>Rodando o Llama 3.1 8B localmente</h2>
      <p>Os pesos em Q4_K_M ocupam 4,3 GiB na GPU, e o KV cache cresce com o contexto. Teste com a sua GPU:</p>
      <script src="../gpusizer-widget.js" data-lang="pt-BR" data-link="${kLink}"></script>
      </body></html>`,
  }));
  await docs.goto(url + 'docs/exemplo.html');
  await docs.waitForFunction(() => document.querySelector('gpusizer-widget')?.report, null, { timeout: 20000 });
  const bottom = await docs.evaluate(() => Math.ceil(document.querySelector('gpusizer-widget').getBoundingClientRect().bottom) + 28);
  await docs.screenshot({ path: join(out, 'web-widget-pt-BR.png'), clip: { x: 0, y: 0, width: 760, height: bottom } });
  await docs.close();
}
if (onlyPortuguese) {
  await browser.close();
  server.close();
  console.log(`wrote web-app-pt-BR.png, web-phone-pt-BR.png and web-widget-pt-BR.png in ${out}`);
  process.exit(0);
}

for (const [scheme, file] of [['dark', 'web-app.png'], ['light', 'web-app-light.png']]) {
  const app = await browser.newPage({ viewport: { width: 1280, height: 800 }, colorScheme: scheme });
  await openApp(app, url, kLink);
  await app.mouse.move(1279, 799);   // no hover highlight in the picture
  await frames(app, 6);
  await app.screenshot({ path: join(out, file) });
  await app.close();
}

// A touch device's context (twice the pixels) with the app opened on kLink and settled: the
// page, the context to close and the app's first state.
const openTouch = async (width, height, colorScheme) => {
  const context = await browser.newContext({ viewport: { width, height }, hasTouch: true, isMobile: true, deviceScaleFactor: 2, colorScheme });
  const page = await context.newPage();
  const state = await openApp(page, url, kLink);
  await frames(page, 6);
  return { context, page, state };
};

for (const [width, height, scheme, file] of [[820, 1180, 'dark', 'web-tablet.png'], [390, 844, 'light', 'web-phone-light.png']]) {
  const { context, page } = await openTouch(width, height, scheme);
  await page.screenshot({ path: join(out, file) });
  await context.close();
}

const phone = await openTouch(390, 844, 'dark');
await phone.page.screenshot({ path: join(out, 'web-phone.png') });
const section = phone.state.layout.find((r) => r.name === 'workload section');
await phone.page.touchscreen.tap(section.x + section.w / 2, section.y + section.h / 2);
await frames(phone.page, 8);
await phone.page.screenshot({ path: join(out, 'web-phone-open.png') });
await phone.context.close();

// The Cost tab (two RTX 4090 with Llama 3 70B Q4_K_M): web-cost.png at 1280x800, clicked;
// web-phone-cost.png at 390x844, tapped.
const kCostLink = '#v=1&m=llama-3-70b&w=q4_k_m&g=rtx-4090x2';
{
  const desk = await browser.newPage({ viewport: { width: 1280, height: 800 }, colorScheme: 'dark' });
  const state = await openApp(desk, url, kCostLink);
  const tab = state.layout.find((r) => r.name === 'cost tab');
  await clickFrames(desk, tab.x + tab.w / 2, tab.y + tab.h / 2);
  await desk.mouse.move(1279, 799);
  await frames(desk, 8);
  await desk.screenshot({ path: join(out, 'web-cost.png') });
  await desk.close();
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2,
    colorScheme: 'dark' });
  const page = await context.newPage();
  const phoneState = await openApp(page, url, kCostLink);
  const phoneTab = phoneState.layout.find((r) => r.name === 'cost tab');
  await page.touchscreen.tap(phoneTab.x + phoneTab.w / 2, phoneTab.y + phoneTab.h / 2);
  await frames(page, 8);
  // A finger drag up to the tab's figures.
  await swipeUp(context, page, 760, 20, 24);
  await page.screenshot({ path: join(out, 'web-phone-cost.png') });
  await context.close();
}

// The Plan tab's request simulation (Llama 3.1 8B on one H100 under vLLM, 1,000 + 200 tokens):
// web-simulate.png at 1280x800, clicked; web-phone-simulate.png at 390x844, tapped and scrolled.
const kSimLink = '#v=1&m=llama-3.1-8b&g=h100-sxm&rt=vllm&isl=1000&osl=200';
{
  const desk = await browser.newPage({ viewport: { width: 1280, height: 800 }, colorScheme: 'dark' });
  let state = await openApp(desk, url, kSimLink);
  await named(desk, 'plan tab');
  await named(desk, 'request simulation switch');
  await desk.mouse.move(1279, 799);
  await frames(desk, 8);
  await desk.screenshot({ path: join(out, 'web-simulate.png') });
  await desk.close();
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2,
    colorScheme: 'dark' });
  const page = await context.newPage();
  state = await openApp(page, url, kSimLink);
  await named(page, 'plan tab', true);
  await swipeUp(context, page, 700, 10, 30);   // the tab's switches, below the fold on a phone
  await named(page, 'request simulation switch', true);
  await swipeUp(context, page, 780, 20, 26);
  await page.screenshot({ path: join(out, 'web-phone-simulate.png') });
  await context.close();
}

// Two configurations side by side (the Pinned tab: Q8_0 on an RTX 4090 pinned, Q4_K_M at 32k
// tokens on an RTX 4060 Ti now) and the Report menu: web-pinned.png and web-report-menu.png at
// 1280x800, web-phone-pinned.png at 390x844, tapped and scrolled.
const kPinLink = '#v=1&m=llama-3.1-8b&w=q4_k_m&ctx=32768&g=rtx-4060-ti-16gb&pin=m%3Dllama-3.1-8b%26w%3Dq8_0%26g%3Drtx-4090';
{
  const desk = await browser.newPage({ viewport: { width: 1280, height: 800 }, colorScheme: 'dark' });
  await openApp(desk, url, kPinLink);
  await named(desk, 'pinned tab');
  await desk.mouse.move(1279, 799);
  await frames(desk, 8);
  await desk.screenshot({ path: join(out, 'web-pinned.png') });
  await named(desk, 'report button');
  await desk.mouse.move(760, 40);
  await frames(desk, 8);
  await desk.screenshot({ path: join(out, 'web-report-menu.png'), clip: { x: 390, y: 0, width: 890, height: 260 } });
  await desk.close();
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2,
    colorScheme: 'dark' });
  const page = await context.newPage();
  await openApp(page, url, kPinLink);
  await named(page, 'pinned tab', true);
  await swipeUp(context, page, 800, 26, 28);
  await page.screenshot({ path: join(out, 'web-phone-pinned.png') });
  await context.close();
}

const docs = await browser.newPage({ viewport: { width: 760, height: 640 }, colorScheme: 'light' });
await docs.route(url + 'docs/example.html', (route) => route.fulfill({
  contentType: 'text/html',
  body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>docs</title>
    <style>body { font: 16px/1.5 system-ui, "DejaVu Sans", sans-serif; color: #1d2330; margin: 28px 40px; max-width: 640px; }
    h2 { margin: 0 0 6px; font-size: 22px; } p { margin: 0 0 14px; color: #3b4352; } code { background: #f1f3f6; padding: 1px 4px; border-radius: 3px; }</style>
    </head><body><h2>Running Llama 3.1 8B locally</h2>
    <p>The Q4_K_M weights take 4.3 GiB on the GPU, and the KV cache grows with the context. Try your own GPU:</p>
    <script src="../gpusizer-widget.js" data-link="#v=1&m=llama-3.1-8b&w=q4_k_m&ctx=32768&g=rtx-4060-ti-16gb"></script>
    </body></html>`,
}));
await docs.goto(url + 'docs/example.html');
await docs.waitForFunction(() => document.querySelector('gpusizer-widget')?.report, null, { timeout: 20000 });
const height = await docs.evaluate(() => Math.ceil(document.querySelector('gpusizer-widget').getBoundingClientRect().bottom) + 28);
await docs.screenshot({ path: join(out, 'web-widget.png'), clip: { x: 0, y: 0, width: 760, height } });

// web-phone-widget-pinned.png: the widget on a phone with a pinned configuration (issue 29).
const pinned = await browser.newPage({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 });
await pinned.goto(url + 'embed.html#v=1&m=llama-3-8b&g=h100-sxm&pin=m%3Dllama-3-8b%26g%3Drtx-4090');
await pinned.waitForFunction(() => document.getElementById('widget')?.report, null, { timeout: 20000 });
await pinned.screenshot({ path: join(out, 'web-phone-widget-pinned.png'), fullPage: true });

await browser.close();
server.close();
console.log(`wrote web-app-pt-BR.png, web-phone-pt-BR.png, web-widget-pt-BR.png, web-app.png, web-app-light.png, web-tablet.png, web-phone.png, web-phone-light.png, web-phone-open.png, web-cost.png, web-phone-cost.png, web-simulate.png, web-phone-simulate.png, web-widget.png and web-phone-widget-pinned.png in ${out}`);
