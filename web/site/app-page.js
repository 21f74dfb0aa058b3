// app-page.js: starts the app (app.js, app.wasm) on index.html's canvas, or says why it cannot.
// The app itself reads and writes the URL fragment (the share link) and the status line; see
// web/main.cpp. Nothing here inserts markup: messages go in as text. Its texts are in the page's
// language (i18n.js: t() and the rows of assets/strings.json), which follows the app's.
'use strict';
(function () {
  const { t, f, num } = window.gpusizerI18n;
  // `widgetWorks`: whether the light version (embed.html) can run here, which needs WebAssembly
  // but not WebGL; it is not offered where the page cannot compile WebAssembly (QA E16). The Hub
  // button goes too: with no app, nothing can show what it fetches (hub-panel.js stops), and so
  // do the settings' form controls, which drive the app.
  function fail(reason, widgetWorks) {
    document.getElementById('canvas').hidden = true;
    document.getElementById('fallback-reason').textContent = reason;
    // Keep the configuration: the widget reads the same link.
    document.getElementById('fallback-link').href = 'embed.html' + location.hash;
    document.getElementById('fallback-offer').hidden = !widgetWorks;
    for (const id of ['hub-toggle', 'hub-panel', 'controls']) document.getElementById(id).hidden = true;
    document.getElementById('fallback').hidden = false;
  }

  // Emscripten's abort text, for a reader: a Content-Security-Policy that forbids WebAssembly is
  // the usual cause of a CompileError, and the build advice in the text is for developers.
  const kNoWasm = /CompileError|Content Security|unsafe-eval/;
  function explain(what) {
    if (kNoWasm.test(what))
      return t("This page's Content-Security-Policy does not allow WebAssembly: its script-src needs 'wasm-unsafe-eval'.");
    return f(t('The app stopped: %s'), what.replace(/ *Build with -s ASSERTIONS=1.*$/, ''));
  }

  // Keys and the clipboard (QA E7). The app (app.js: Emscripten's GLFW, web/main.cpp) listens on
  // the window and the document: GLFW hands every key to ImGui and cancels Tab and Backspace, and
  // main.cpp takes every paste and Ctrl+Z. The listeners app.js adds (after this script) see no
  // key or paste aimed at the page's own controls, and never Tab (Ctrl+Tab is ImGui's, between
  // its windows): the browser moves the focus with Tab, and the page's own controls (the Hub
  // panel, the settings below) keep their keys, Escape and Backspace included. Key releases all
  // reach the app, so that a key pressed on the canvas is never left down in ImGui.
  const canvas = document.getElementById('canvas');
  let tabAt = -1e9;   // when Tab was last pressed (added before the filter below, which hides Tab)
  window.addEventListener('keydown', (e) => { if (e.key === 'Tab') tabAt = performance.now(); }, true);
  const kAppInput = ['keydown', 'keypress', 'paste', 'copy', 'cut'];
  // (A paste is aimed where the page's selection starts, which is text of the mirror after a
  // Ctrl+A in the app's link field: the app's.)
  const forApp = (e) => (e.key !== 'Tab' || e.ctrlKey) && !(e.target instanceof Element && e.target.closest('#hub-panel, #hub-toggle, #controls'));
  for (const target of [window, document]) {
    const add = target.addEventListener;
    target.addEventListener = function (type, listener, options) {
      const inner = listener;
      if (kAppInput.includes(type) && typeof inner === 'function') listener = function (e) { if (forApp(e)) return inner.call(this, e); };
      return add.call(this, type, listener, options);
    };
  }
  // Ctrl+wheel (pinch on a touchpad) zooms the page (QA D9): GLFW's wheel listener on the canvas
  // cancels every wheel event, so it does not see these.
  for (const type of ['wheel', 'mousewheel'])
    window.addEventListener(type, (e) => { if (e.ctrlKey) e.stopImmediatePropagation(); }, { capture: true, passive: true });
  // The canvas is one stop in the Tab order: taken with Tab (or Shift+Tab), the app shows its
  // focus ring on the first control; left, the app lets go of a field being edited and hides the
  // ring (web/main.cpp, Module.gpusizerPending[8]: "in", "out"). A click focuses it too, without.
  const focusEvent = (v) => {
    const M = window.Module;
    if (!M || !M.gpusizerPending) return;
    M.gpusizerPending[8] = v;
    M.gpusizerActive = 1;
  };
  canvas.addEventListener('focus', () => { if (performance.now() - tabAt < 1000) focusEvent('in'); });
  canvas.addEventListener('blur', (e) => {
    // Not when the window loses the focus (it comes back to the same field), nor for the on-screen
    // keyboard's input, which types into the canvas's field.
    if (document.hasFocus() && !(e.relatedTarget && e.relatedTarget.id === 'gpusizer-keyboard')) focusEvent('out');
  });

  // The settings as form controls (index.html #controls; QA E8), in step with the canvas: each
  // published state sets their values, and a change opens the share link with the key changed,
  // as if it were typed in the address bar (Module.gpusizerPending[0], web/main.cpp): the app
  // checks it, says why in the status line when it cannot open it (the controls then go back to
  // what the canvas shows), and writes the link it opened as a new history entry (Back undoes).
  const $ = (id) => document.getElementById(id);
  const ctl = { model: $('c-model'), weights: $('c-weights'), context: $('c-context'), gpu: $('c-gpu'), gpus: $('c-gpus'), tabs: $('c-tabs') };
  let shownState = null;
  // The link's "key=value" parts with `set` replacing or joining them and the keys in `drop` gone;
  // the other parts stay as they are, in their order.
  function linkWith(link, set, drop = []) {
    const parts = link.replace(/^#/, '').split('&').filter(Boolean);
    const key = (p) => p.slice(0, p.indexOf('=') < 0 ? p.length : p.indexOf('='));
    const out = [];
    for (const p of parts) {
      const k = key(p);
      if (drop.includes(k)) continue;
      out.push(k in set ? k + '=' + encodeURIComponent(set[k]) : p);
    }
    for (const k of Object.keys(set)) if (!parts.some((p) => key(p) === k)) out.push(k + '=' + encodeURIComponent(set[k]));
    return '#' + out.join('&');
  }
  function openLink(link) {
    const M = window.Module;
    if (!M || !M.gpusizerPending) return;
    M.gpusizerPending[0] = link;
    M.gpusizerActive = 1;
  }
  // g=<gpu id>[x<count>] of the link: [id, count].
  function gpuOf(state) {
    const g = (state.link.match(/(?:^#|&)g=([^&]*)/) || [])[1] || '';
    const m = decodeURIComponent(g).match(/^(.*?)(?:x(\d+))?$/);
    return [m[1], state.report ? state.report.config.gpus : Number(m[2] || 1)];
  }
  // The keys that name the model (a catalog id, a Hub repository, a file, a parameter count).
  const kModelKeys = ['hf', 'rev', 'f', 'np', 'gguf', 'hfd', 'mmp'];
  const kLayoutKeys = ['tp', 'pp', 'dp', 'cp'];   // set by hand: the app's own layout again, as its GPUs slider does
  function option(value, text) {
    const o = document.createElement('option');
    o.value = value;
    o.textContent = text;
    return o;
  }
  // The results' tabs as the canvas draws them on this platform (ui/app.cpp draw_tabs: the
  // browser has no "Local models"), as (App::select_tab() name, label in the page's language);
  // the accessibility test checks them against the canvas's layout.
  const tabs = () => [['memory', t('Memory')], ['speed', t('Speed & power')], ['cost', t('Cost')], ['plots', t('Plots')],
    ['compare', t('Compare GPUs')], ['recommend', t('Recommend')], ['measured', t('Measured')], ['assumptions', t('Assumptions')],
    ['log', t('Engine log')], ['plan', t('Plan')], ['pinned', t('Pinned')]];
  // The choices, read once from the texts the app published (window.gpusizerChoices, web/main.cpp:
  // the built-in catalog and the weight formats), and left there as lists:
  // {models: [[id, name, family]], gpus: [[id, name, segment]], weights: [[id, label]], tabs}.
  function readChoices() {
    const c = window.gpusizerChoices;
    if (!Array.isArray(c)) return c;
    // Each a text of lines of tab-separated fields.
    const [gpus, models, weights] = c.map((text) => text.split('\n').filter(Boolean).map((line) => line.split('\t')));
    return window.gpusizerChoices = { models, gpus, weights, tabs: tabs() };
  }
  function fillChoices(c) {
    const groups = new Map();
    for (const [id, name, family] of c.models) {
      if (!groups.has(family)) groups.set(family, document.createElement('optgroup'));
      groups.get(family).label = family || t('other');
      groups.get(family).append(option(id, name));
    }
    ctl.model.replaceChildren(...groups.values());
    ctl.weights.replaceChildren(option('native', t("as published (the checkpoint's format)")), ...c.weights.map(([id, label]) => option(id, label)));
    const segments = new Map();
    for (const [id, name, segment] of c.gpus) {
      if (!segments.has(segment)) segments.set(segment, document.createElement('optgroup'));
      segments.get(segment).label = segment;
      segments.get(segment).append(option(id, name));
    }
    ctl.gpu.replaceChildren(...segments.values());
    ctl.tabs.replaceChildren(...c.tabs.map(([id, label]) => {
      const b = document.createElement('button');
      b.type = 'button';
      b.setAttribute('role', 'tab');
      b.dataset.tab = id;
      b.textContent = label;
      return b;
    }));
  }
  // A select's value, with an option of its own for a value the list lacks (a model from a file
  // or the Hub, a custom GPU), named as the app names it.
  function selectValue(select, value, name) {
    for (const o of select.querySelectorAll('option[data-extra]')) o.remove();
    if (![...select.options].some((o) => o.value === value)) {
      const o = option(value, name);
      o.dataset.extra = '1';
      select.prepend(o);
    }
    select.value = value;
  }
  const edited = new Set();   // number fields typed in and not yet committed: not overwritten
  function showControls(state) {
    const c = readChoices();
    if (c && !ctl.model.options.length) fillChoices(c);
    shownState = state;
    const r = state.report;
    if (r) {
      const model = typeof r.config.model === 'string' ? r.config.model : 'custom';
      selectValue(ctl.model, model, r.model.name);
      selectValue(ctl.weights, r.config.weights, r.config.weights);
      selectValue(ctl.gpu, gpuOf(state)[0], r.gpu.name);
      if (!edited.has(ctl.context)) ctl.context.value = r.config.context;
      if (!edited.has(ctl.gpus)) ctl.gpus.value = r.config.gpus;
    }
    for (const b of ctl.tabs.children) {
      const on = b.dataset.tab === state.tab;
      b.setAttribute('aria-selected', String(on));
      b.tabIndex = on ? 0 : -1;   // one stop for the tab list; the arrows move in it
    }
    $('accessible-link').href = 'embed.html' + state.link;
  }
  ctl.model.addEventListener('change', () => {
    if (shownState && ctl.model.value !== 'custom') openLink(linkWith(shownState.link, { m: ctl.model.value }, kModelKeys));
  });
  ctl.weights.addEventListener('change', () => { if (shownState) openLink(linkWith(shownState.link, { w: ctl.weights.value })); });
  ctl.gpu.addEventListener('change', () => {
    if (!shownState) return;
    const n = gpuOf(shownState)[1];
    openLink(linkWith(shownState.link, { g: ctl.gpu.value + (n > 1 ? 'x' + n : '') }, ['gc']));
  });
  function commit(field) {
    edited.delete(field);
    if (!shownState) return;
    const typed = field.value;
    showControls(shownState);   // what the canvas shows, until the app answers (or refuses)
    if (typed === '') return;
    const n = Math.round(Number(typed));
    if (field === ctl.context) openLink(linkWith(shownState.link, { ctx: n }));
    else openLink(linkWith(shownState.link, { g: gpuOf(shownState)[0] + (n !== 1 ? 'x' + n : '') }, kLayoutKeys));
  }
  for (const field of [ctl.context, ctl.gpus]) {
    field.addEventListener('input', () => edited.add(field));
    field.addEventListener('change', () => commit(field));
  }
  $('controls-form').addEventListener('submit', (e) => {
    e.preventDefault();
    if (edited.has(document.activeElement)) commit(document.activeElement);   // where Enter fired no change
  });
  // The results' tabs: a tab list (one Tab stop, the arrows move and choose, Home and End).
  const chooseTab = (b) => {
    const M = window.Module;
    if (!b || !M || !M.gpusizerPending) return;
    M.gpusizerPending[7] = b.dataset.tab;
    M.gpusizerActive = 1;
    for (const x of ctl.tabs.children) x.tabIndex = x === b ? 0 : -1;
    b.focus();
  };
  ctl.tabs.addEventListener('click', (e) => chooseTab(e.target.closest('[role=tab]')));
  ctl.tabs.addEventListener('keydown', (e) => {
    const tabs = [...ctl.tabs.children];
    const at = tabs.indexOf(document.activeElement);
    const to = { ArrowRight: at + 1, ArrowDown: at + 1, ArrowLeft: at - 1, ArrowUp: at - 1, Home: 0, End: tabs.length - 1 }[e.key];
    if (to === undefined || at < 0) return;
    e.preventDefault();
    chooseTab(tabs[(to + tabs.length) % tabs.length]);
  });

  // Figures as the canvas writes them (core/src/format.cpp: format_int, format_rate,
  // format_duration; toFixed for printf's "%.*f"), in the language's separators (num()).
  const int = (n) => (Number.isFinite(n) ? num(Math.round(n).toLocaleString('en-US')) : '?');
  const rate = (x) => (!Number.isFinite(x) ? '?' : x >= 1e6 ? num((x / 1e6).toFixed(2) + ' M') : x >= 1e4 ? int(x) : num(x.toFixed(x >= 100 ? 0 : 1)));
  function duration(s) {
    if (!Number.isFinite(s)) return '?';
    const units = [[1e-3, 1e-6, 1, ' us'], [1, 1e-3, s < 0.01 ? 2 : 1, ' ms'], [120, 1, 2, ' s'], [7200, 60, 1, ' min'],
      [3 * 86400, 3600, 1, ' h'], [3 * 365.25 * 86400, 86400, 1, ' days'], [Infinity, 365.25 * 86400, 1, ' years']];
    if (s <= 0) return '0';
    const [, unit, decimals, name] = units.find(([below]) => s < below);
    return num((s / unit).toFixed(decimals) + name);
  }
  // The Speed & power tab's lead figures, and the Memory tab's "What fits", as sentences.
  function speedLine(r) {
    const s = r.speed;
    if (r.config.mode !== 'inference') return f(t('Speed: training ~%s tok/s; one optimizer step ~%s.'), rate(s.train_tokens_per_s), duration(s.train_step_s));
    return f(t('Speed: decode ~%s tok/s per sequence, ~%s tok/s in all; prefill ~%s tok/s; time to first token ~%s.'),
      rate(s.decode_tokens_per_s), rate(s.decode_throughput_tokens_per_s), rate(s.prefill_tokens_per_s), duration(s.ttft_s));
  }
  const fitLine = (r, fit) => (!fit ? '' : f(t('What fits: longest context at batch %s: %s tokens; largest batch at %s tokens: %s; most precise weights that fit: %s; KV cache: %s.'),
    r.config.batch, int(fit.max_context), int(r.config.context), int(fit.max_batch),
    fit.best_weights || t('none'), fit.best_kv_cache || t('none')));

  // The results as DOM text (index.html's #mirror), from each state the app publishes: the
  // verdict in a live region (announced when it changes), the breakdown as a table, and the
  // page title naming the configuration, in the page's language (the app's: its figures, in
  // state.shown, are written in it).
  const kGiB = 1024 * 1024 * 1024;
  const gib = (b) => num(Math.abs(b) < kGiB ? (b / (1024 * 1024)).toFixed(0) + ' MiB' : (b / kGiB).toFixed(2) + ' GiB');
  // The core's kMemoryParts in order (gpusizer/report.hpp; tests/test_memory_parts.cpp checks),
  // named with t(name) where shown.
  const kParts = [['weights', 'Weights'], ['kv_cache', 'KV cache'], ['activations', 'Activations'], ['gradients', 'Gradients'],
    ['optimizer', 'Optimizer states'], ['overhead', 'Overhead']];
  let mirrored = '';
  let lastState = null;
  window.gpusizerMirror = function (state) {
    lastState = state;
    // The app's language, should the page not have followed it yet (it does on language_changed):
    // the handler below draws again.
    if (state.lang && state.lang !== window.gpusizerI18n.lang) return window.gpusizerI18n.set(state.lang);
    showControls(state);
    const r = state.report;
    const verdict = document.getElementById('verdict');
    if (!r || !verdict) return;
    const m = r.memory;
    // The figures as the canvas writes them (state.shown, ui/status.cpp: QA E12), else from the JSON.
    const shown = state.shown || {};
    const fig = (key, bytes) => shown[key] || gib(bytes);
    const text = f(r.fits ? t('Fits: %s of %s per GPU, %s to spare.') : t('Does not fit: %s of %s per GPU, %s short.'),
      fig('total', m.per_gpu.total), fig('usable', m.gpu_usable), fig('headroom', Math.abs(m.headroom)));
    const what = f(t('%s on %s × %s, %s weights, %s tokens, batch %s.'), r.model.name, r.config.gpus, r.gpu.name, r.config.weights,
      int(r.config.context), r.config.batch);
    const speed = speedLine(r), fits = fitLine(r, state.fit);
    const key = text + what + state.link + speed + fits + window.gpusizerI18n.lang;
    if (key === mirrored) return;
    mirrored = key;
    verdict.textContent = text;
    document.getElementById('configuration').textContent = what;
    document.getElementById('speed').textContent = speed;
    document.getElementById('what-fits').textContent = fits;
    // The address without query or fragment, as "Copy link" copies it (QA E4; a ?hub= stays behind, E3).
    document.getElementById('share-link').textContent = location.href.replace(/[?#].*$/, '') + state.link;
    const rows = [];
    const row = (name, value) => {
      const tr = document.createElement('tr');
      const th = document.createElement('th');
      th.scope = 'row';
      th.textContent = name;
      const td = document.createElement('td');
      td.textContent = value;
      tr.append(th, td);
      rows.push(tr);
    };
    for (const [key, name] of kParts)
      if (m.per_gpu[key] > 0 || key === 'weights' || key === 'kv_cache') row(t(name), fig(key, m.per_gpu[key]));
    row(t('Total'), f(t('%s of %s usable'), fig('total', m.per_gpu.total), fig('usable', m.gpu_usable)));
    document.querySelector('#breakdown tbody').replaceChildren(...rows);
    document.title = f(r.fits ? t('Fits: %s on %s × %s · gpusizer') : t('Does not fit: %s on %s × %s · gpusizer'), r.model.name, r.config.gpus, r.gpu.name);
    // The link preview's tags describe this configuration too (index.html: for previews made from
    // the open page; the fragment never reaches a crawler).
    for (const [selector, value] of [['meta[property="og:title"]', document.title], ['meta[name="twitter:title"]', document.title],
      ['meta[property="og:description"]', text + ' ' + what], ['meta[name="twitter:description"]', text + ' ' + what],
      ['meta[name="description"]', text + ' ' + what]]) {
      const tag = document.querySelector(selector);
      if (tag) tag.setAttribute('content', value);
    }
  };
  // The app switched the language (web/main.cpp language_changed; i18n.js has translated the
  // marked elements): what this script wrote follows. The mirror waits for the app's next state
  // when the last one is in the other language (its figures are written in it).
  window.gpusizerI18n.onChange((lang) => {
    const c = readChoices();
    if (c && ctl.model.options.length) {
      c.tabs = tabs();
      fillChoices(c);
      if (lastState) showControls(lastState);
    }
    if (lastState && (!lastState.lang || lastState.lang === lang)) window.gpusizerMirror(lastState);
  });

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
    fail(t('This browser gives no WebGL2 context, which the full app draws with.'), typeof WebAssembly === 'object');
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
  script.onerror = () => fail(f(t('%s could not be loaded.'), 'app.js'), true);
  document.body.appendChild(script);
})();
