// app-page.js: starts the app (app.js, app.wasm) on index.html's canvas, or says why it cannot.
// The app itself reads and writes the URL fragment (the share link) and the status line; see
// web/main.cpp. Nothing here inserts markup: messages go in as text.
'use strict';
(function () {
  // `widgetWorks`: whether the light version (embed.html) can run here, which needs WebAssembly
  // but not WebGL; it is not offered where the page cannot compile WebAssembly (QA E16). The Hub
  // button goes too: with no app, nothing can show what it fetches (hub-panel.js stops).
  function fail(reason, widgetWorks) {
    document.getElementById('canvas').hidden = true;
    document.getElementById('fallback-reason').textContent = reason;
    // Keep the configuration: the widget reads the same link.
    document.getElementById('fallback-link').href = 'embed.html' + location.hash;
    document.getElementById('fallback-offer').hidden = !widgetWorks;
    for (const id of ['hub-toggle', 'hub-panel']) document.getElementById(id).hidden = true;
    document.getElementById('fallback').hidden = false;
  }

  // Emscripten's abort text, for a reader: a Content-Security-Policy that forbids WebAssembly is
  // the usual cause of a CompileError, and the build advice in the text is for developers.
  const kNoWasm = /CompileError|Content Security|unsafe-eval/;
  function explain(what) {
    if (kNoWasm.test(what))
      return "This page's Content-Security-Policy does not allow WebAssembly: its script-src needs 'wasm-unsafe-eval'.";
    return 'The app stopped: ' + what.replace(/ *Build with -s ASSERTIONS=1.*$/, '');
  }

  // The results as DOM text (index.html's #mirror), from each state the app publishes: the
  // verdict in a live region (announced when it changes), the breakdown as a table, and the
  // page title naming the configuration.
  const kGiB = 1024 * 1024 * 1024;
  const gib = (b) => (Math.abs(b) < kGiB ? (b / (1024 * 1024)).toFixed(0) + ' MiB' : (b / kGiB).toFixed(2) + ' GiB');
  // The core's kMemoryParts (gpusizer/report.hpp) in order; tests/test_memory_parts.cpp checks.
  const kParts = [['weights', 'Weights'], ['kv_cache', 'KV cache'], ['activations', 'Activations'], ['gradients', 'Gradients'],
    ['optimizer', 'Optimizer states'], ['overhead', 'Overhead']];
  let mirrored = '';
  window.gpusizerMirror = function (state) {
    const r = state.report;
    const verdict = document.getElementById('verdict');
    if (!r || !verdict) return;
    const m = r.memory;
    // The figures as the canvas writes them (state.shown, ui/status.cpp: QA E12), else from the JSON.
    const shown = state.shown || {};
    const fig = (key, bytes) => shown[key] || gib(bytes);
    const text = (r.fits ? 'Fits: ' : 'Does not fit: ') + fig('total', m.per_gpu.total) + ' of ' + fig('usable', m.gpu_usable) +
      ' per GPU, ' + fig('headroom', Math.abs(m.headroom)) + (r.fits ? ' to spare.' : ' short.');
    const what = r.model.name + ' on ' + r.config.gpus + ' × ' + r.gpu.name + ', ' + r.config.weights + ' weights, ' +
      r.config.context.toLocaleString('en-US') + ' tokens, batch ' + r.config.batch + '.';
    if (text + what + state.link === mirrored) return;
    mirrored = text + what + state.link;
    verdict.textContent = text;
    document.getElementById('configuration').textContent = what;
    // The address without query or fragment, as "Copy link" copies it (QA E4; a ?hub= stays behind, E3).
    document.getElementById('share-link').textContent = location.href.replace(/[?#].*$/, '') + state.link;
    const rows = [];
    for (const [key, name] of kParts) {
      if (!(m.per_gpu[key] > 0) && key !== 'weights' && key !== 'kv_cache') continue;
      const tr = document.createElement('tr');
      const th = document.createElement('th');
      th.scope = 'row';
      th.textContent = name;
      const td = document.createElement('td');
      td.textContent = fig(key, m.per_gpu[key]);
      tr.append(th, td);
      rows.push(tr);
    }
    const total = document.createElement('tr');
    const th = document.createElement('th');
    th.scope = 'row';
    th.textContent = 'Total';
    const td = document.createElement('td');
    td.textContent = fig('total', m.per_gpu.total) + ' of ' + fig('usable', m.gpu_usable) + ' usable';
    total.append(th, td);
    rows.push(total);
    document.querySelector('#breakdown tbody').replaceChildren(...rows);
    document.title = (r.fits ? 'Fits: ' : 'Does not fit: ') + r.model.name + ' on ' + r.config.gpus + ' × ' + r.gpu.name + ' · gpusizer';
    // The link preview's tags describe this configuration too (index.html: for previews made from
    // the open page; the fragment never reaches a crawler).
    for (const [selector, value] of [['meta[property="og:title"]', document.title], ['meta[name="twitter:title"]', document.title],
      ['meta[property="og:description"]', text + ' ' + what], ['meta[name="twitter:description"]', text + ' ' + what],
      ['meta[name="description"]', text + ' ' + what]]) {
      const tag = document.querySelector(selector);
      if (tag) tag.setAttribute('content', value);
    }
  };

  // The theme (light or dark): the reader's choice in the app, remembered by this browser
  // (localStorage, never in the share link), else the OS's preference, followed while it
  // changes. <html data-theme> gives app.css the same colors as the canvas from the start.
  const kThemeKey = 'gpusizer-theme';
  const osDark = window.matchMedia ? window.matchMedia('(prefers-color-scheme: dark)') : null;
  const saved = () => { try { const t = localStorage.getItem(kThemeKey); return t === 'light' || t === 'dark' ? t : ''; } catch (e) { return ''; } };
  const osTheme = () => (osDark && osDark.matches ? 'dark' : 'light');
  const theme = window.gpusizerTheme = {
    pending: '',   // a change of the OS's preference for the app's next frame (web/main.cpp)
    current: () => saved() || osTheme(),
    choose(name) {
      try { localStorage.setItem(kThemeKey, name); } catch (e) { /* private mode: for this page only */ }
      document.documentElement.dataset.theme = name;
    },
  };
  document.documentElement.dataset.theme = theme.current();
  if (osDark && osDark.addEventListener)
    osDark.addEventListener('change', () => {
      if (saved()) return;
      document.documentElement.dataset.theme = theme.pending = osTheme();
      if (window.Module) window.Module.gpusizerActive = 1;
    });

  // A probe on a canvas of its own: the app creates its context on #canvas.
  if (!document.createElement('canvas').getContext('webgl2')) {
    fail('This browser gives no WebGL2 context, which the full app draws with.', typeof WebAssembly === 'object');
    return;
  }

  window.Module = {
    canvas: document.getElementById('canvas'),
    print: (text) => console.log(text),
    printErr: (text) => console.error(text),
    onAbort: (what) => fail(explain(String(what)), !kNoWasm.test(String(what))),
  };
  const script = document.createElement('script');
  script.src = 'app.js';
  script.onerror = () => fail('app.js could not be loaded.', true);
  document.body.appendChild(script);
})();
