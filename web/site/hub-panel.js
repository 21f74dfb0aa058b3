// hub-panel.js: the app page's "From the Hub" panel (index.html). Type a repository id
// (org/name, optionally @revision): hub.mjs fetches config.json, the parameter counts by dtype
// and the file list; a chosen GGUF file's header is read by HTTP Range requests. The resulting
// configuration (its model {"hub": ..., "gguf_headers" or "hf_config"}) goes to the app
// (Module.gpusizerPending, web/main.cpp), whose own core makes it the model of the current
// configuration (GPU, context... stay) and says whether it could: the page loads no second copy
// of the core for the panel. A link with hf=org/name (and f=file, rev=revision) opens the panel
// and loads that model again, keeping the link's weights.
//
// The Hub's address is the page's query parameter `hub=` (mirrors, the test suite). A link to a
// page with another Hub than the default fetches nothing until the reader presses Fetch (QA E3:
// a shared link made the page contact any server on open and show its numbers under any name);
// what a non-default Hub produced says which Hub it came from.
// Nothing here inserts markup: every text goes in as textContent. The panel speaks the page's
// language (i18n.js), hub.mjs's messages included (their Phrase, shown through the table), and
// says again what it shows when the language changes.
'use strict';
(function () {
  const { t, f, num } = window.gpusizerI18n;
  // A hub.mjs Phrase ({text, args}) in the page's language; anything else as it is.
  const words = (x) => (x && typeof x === 'object' && typeof x.text === 'string' && Array.isArray(x.args) ? f(t(x.text), ...x.args.map(words)) : x);
  const panel = document.getElementById('hub-panel');
  const toggle = document.getElementById('hub-toggle');
  if (!panel || !toggle) return;
  // The app could not start (app-page.js hid the canvas and this panel: no WebGL, no
  // WebAssembly): nothing here could be shown, so a link's hf= is not followed (QA E16).
  const canvas = document.getElementById('canvas');
  const appGone = () => !canvas || canvas.hidden;
  const form = document.getElementById('hub-form');
  const input = document.getElementById('hub-repo');
  const status = document.getElementById('hub-status');
  const error = document.getElementById('hub-error');
  const list = document.getElementById('hub-files');
  const fileset = document.getElementById('hub-fileset');
  const load = document.getElementById('hub-load');
  const endpointNote = document.getElementById('hub-endpoint');

  // Keys and pastes typed into the panel are the panel's: app-page.js keeps them from the app's
  // listeners (stopping them here, on the window, kept them from the panel's own Escape too).

  const query = new URLSearchParams(location.search);
  const endpoint = query.get('hub') || undefined;
  const showEndpoint = () => { if (endpoint) endpointNote.textContent = f(t('Hub address: %s'), endpoint); };
  showEndpoint();

  let hubModule = null;
  const hub = () => (hubModule ||= import('./hub.mjs'));

  // Hands a model ({"model", "weights"?}) to the app (web/main.cpp's pending slots 9-11) once it
  // runs (on a shared link the page may still be starting), and waits for its answer: an Error
  // with the app's message when it refuses the model.
  // The app's module once it runs (up to 30 s: on a shared link the page may still be starting), else null.
  async function appModule() {
    for (let i = 0; i < 300 && !appGone() && !(window.Module && window.Module.gpusizerPending); ++i) await new Promise((r) => setTimeout(r, 100));
    return window.Module && window.Module.gpusizerPending ? window.Module : null;
  }
  async function handToApp(name, configuration, keepWeights) {
    const M = await appModule();
    if (!M) throw new Error(t('the app did not start, so the model cannot be shown'));
    M.gpusizerModelOpened = null;
    M.gpusizerPending[10] = JSON.stringify(configuration);
    M.gpusizerPending[11] = keepWeights ? '1' : '';
    M.gpusizerPending[9] = name;
    M.gpusizerActive = 1;
    for (let i = 0; i < 300 && !appGone() && !M.gpusizerModelOpened; ++i) await new Promise((r) => setTimeout(r, 50));
    const answer = M.gpusizerModelOpened;
    // The app's message without its lead, in either language ("Model not opened: ").
    if (answer && !answer[1]) {
      const lead = [t('Model not opened: '), 'Model not opened: '].find((l) => answer[2].startsWith(l));
      throw new Error(lead ? answer[2].slice(lead.length) : answer[2]);
    }
  }

  // A model file dropped on the page or picked with "Open file..." (web/main.cpp hands it here;
  // QA E6): a GGUF file's header is read from the reader's disk by slices, as the Hub's by Range
  // requests, with the other parts of a split file among `files`; the app takes the model
  // through its pending slots 9 and 10. A lone .safetensors file holds no architecture.
  window.gpusizerReadModelFile = async function (file, files, pending) {
    try {
      if (/\.safetensors$/i.test(file.name))
        throw new Error(f(t("%s holds the weights' names, shapes and types but not the architecture: open the checkpoint's config.json (it becomes the model), or load the repository with \"From the Hub\""), file.name));
      const h = await hub();
      const parts = h.ggufPartNames(file.name);
      const byName = new Map(files.map((f) => [f.name, f]));
      const missing = parts.filter((p) => !byName.has(p));
      if (missing.length)
        throw new Error(f(t('%s is one of %s parts of a split model: open them together (missing: %s)'), file.name, parts.length,
                          missing.slice(0, 3).join(', ') + (missing.length > 3 ? ', ...' : '')));
      const headers = {};
      for (const part of parts) {
        const read = await h.readFileHeader(byName.get(part), h.reduceGgufHeader);
        headers[part] = h.toBase64(read.inspect.bytes);
      }
      pending[10] = JSON.stringify({ model: { file: parts[0], gguf_headers: headers } });
      pending[11] = '';
      pending[9] = file.name;
    } catch (e) {
      pending[4] = t('Model not opened: ') + ((e && e.message) || String(e));
    }
    window.Module.gpusizerActive = 1;
  };

  const kUnits = ['B', 'KB', 'MB', 'GB', 'TB'];
  function size(bytes) {
    if (typeof bytes !== 'number' || !(bytes >= 0) || !Number.isSafeInteger(bytes)) return t('size unknown');
    let v = bytes, u = 0;
    while (v >= 1000 && u < kUnits.length - 1) { v /= 1000; ++u; }
    return num((u === 0 ? String(v) : v.toFixed(v < 10 ? 2 : 1)) + ' ' + kUnits[u]);
  }

  function open(show) {
    panel.hidden = !show;
    toggle.setAttribute('aria-expanded', String(show));
    if (show) input.focus();
  }
  toggle.addEventListener('click', () => open(panel.hidden));
  document.getElementById('hub-close').addEventListener('click', () => { open(false); toggle.focus(); });
  panel.addEventListener('keydown', (e) => { if (e.key === 'Escape') { open(false); toggle.focus(); } });
  // Escape closes the open panel from the page itself too: the focus lands there when the control
  // that had it goes (QA E7: stranded on BODY, the panel could not be closed by keyboard).
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && !panel.hidden && (document.activeElement === document.body || !document.activeElement)) {
      open(false);
      toggle.focus();
    }
  });

  // The status line, and the failure shown, as functions of the language: written again when it
  // changes.
  let saying = null;
  function say(text) {
    saying = text;
    status.textContent = typeof text === 'function' ? text() : text;
  }
  const requests = (n) => f(n === 1 ? t('%s request') : t('%s requests'), n);
  // What a fromHub answer cost: an answer kept from earlier in this session fetched nothing
  // (QA E15: "0 requests, 0 B fetched in all").
  const fetchedInAll = (h) => (h.requests ? f(t('%s, %s fetched in all'), requests(h.requests), size(h.bytes_fetched))
    : t('from what this page fetched before, nothing fetched now'));
  // A failure's words: a HubError's Phrase, the panel's own (`say`), else its message.
  const failure = (e) => (e && e.phrase ? words(e.phrase) : e && e.say ? e.say() : e && e.message ? e.message : String(e));
  let failed = null;
  function fail(e) {
    // A HubError's message says what happened and what to do (paste config.json, open the file).
    failed = e;
    error.textContent = failure(e);
    error.hidden = false;
    panel.setAttribute('data-state', 'error');
    panel.setAttribute('data-error-kind', (e && e.kind) || 'error');
    say('');
  }
  // A new request starts clean: the last failure's message and kind go (a script or a screen
  // reader that reads data-error-kind must not see a failure that no longer holds).
  function clearError() {
    allParts.remove();
    failed = null;
    error.hidden = true;
    error.textContent = '';
    panel.removeAttribute('data-error-kind');
  }
  const int = (n) => num(n.toLocaleString('en-US'));
  function progress(p) {
    const what = p.words || p.what;
    if (p.phase === 'request')
      say(() => (p.range ? f(t('Fetching %s (bytes %s to %s)…'), words(what), int(p.range[0]), int(p.range[1] - 1)) : f(t('Fetching %s…'), words(what))));
    else if (p.phase === 'header') say(() => f(t('Reading the header of %s…'), words(what)));
  }

  let answer = null;   // the last fromHub answer (repository, files) without a file

  // Lists the repository's GGUF files (and its config.json) as radio buttons: the first
  // kShownFiles that match the filter, which appears when there are more (QA E15: a repository of
  // 100,000 files made 100,001 radio buttons and took 7 s).
  const kShownFiles = 100;
  const filter = document.createElement('input');
  filter.type = 'search';
  filter.id = 'hub-filter';
  const labelFilter = () => {
    filter.placeholder = t('Filter the files');
    filter.setAttribute('aria-label', t('Filter the files'));
  };
  labelFilter();
  filter.setAttribute('aria-describedby', 'hub-count');
  const count = document.createElement('p');
  count.id = 'hub-count';
  count.className = 'hub-help';
  filter.hidden = count.hidden = true;
  list.before(filter, count);   // outside the list, which is rebuilt as the filter changes (keeps its focus)
  filter.addEventListener('input', () => { if (answer) showFiles(answer, (list.querySelector('input[name=hub-file]:checked') || {}).value); });
  function showFiles(a, chosen) {
    const items = [];
    const add = (value, label, checked) => {
      const row = document.createElement('label');
      const radio = document.createElement('input');
      radio.type = 'radio';
      radio.name = 'hub-file';
      radio.value = value;
      radio.checked = checked;
      row.append(radio, ' ' + label);
      items.push(row);
    };
    const ggufs = a.files.filter((f) => /\.gguf$/i.test(f.path));
    if (a.configuration) add('', !a.parameters ? 'config.json' : f(t('config.json (%s B parameters: %s)'), num((a.parameters.total / 1e9).toFixed(2)),
      Object.entries(a.parameters.by_dtype).map(([k, n]) => k + ' ' + num((n / 1e9).toFixed(2)) + ' B').join(', ')), !chosen);
    const words = filter.value.toLowerCase().split(/\s+/).filter(Boolean);
    const matching = ggufs.filter((f) => f.path === chosen || words.every((w) => f.path.toLowerCase().includes(w)));
    const shown = matching.slice(0, kShownFiles);
    const picked = ggufs.find((f) => f.path === chosen);
    if (picked && !shown.includes(picked)) shown[shown.length ? shown.length - 1 : 0] = picked;   // the link's file stays listed
    for (const f of shown) add(f.path, f.path + ' — ' + size(f.bytes), f.path === chosen || (!chosen && !a.configuration && f === ggufs[0]));
    const many = ggufs.length > kShownFiles;
    count.textContent = many ? f(t('Showing %s of %s matching (%s GGUF files): type in the filter to find one.'), shown.length, int(matching.length),
      int(ggufs.length)) : '';
    filter.hidden = count.hidden = !many;
    list.replaceChildren(...items);
    fileset.hidden = items.length === 0 && !many;
    load.hidden = items.length === 0;
    if (!items.length && !many) fail({ say: () => f(t('%s has no config.json and no GGUF file: nothing to size. Paste a config.json or open a file instead.'), a.hub.repo) });
  }

  // Each fetch or load the reader starts has its number; an answer to an earlier one that arrives
  // after a later one started is dropped (QA E2: a slow answer overwrote a later, faster one, and
  // "Load" then loaded the repository no longer in the field).
  let generation = 0;
  const stale = (g) => g !== generation;
  // Starts a fetch or a load: its number, the panel busy.
  function begin() {
    clearError();
    panel.setAttribute('data-state', 'busy');
    panel.setAttribute('aria-busy', 'true');
    return ++generation;
  }

  async function fetchRepo(id, options = {}) {
    const g = begin();
    try {
      const h = await hub();
      const a = JSON.parse(await h.fromHub(id, { endpoint, revision: options.revision, onProgress: (p) => stale(g) || progress(p), session: true }));
      if (stale(g)) return null;
      answer = a;
      filter.value = '';
      showFiles(a, options.file);
      const n = a.files.filter((f) => /\.gguf$/i.test(f.path)).length;
      say(() => f(a.configuration ? (n === 1 ? t('Found %s: %s GGUF file and config.json (%s).') : t('Found %s: %s GGUF files and config.json (%s).'))
        : n === 1 ? t('Found %s: %s GGUF file (%s).') : t('Found %s: %s GGUF files (%s).'), a.hub.repo + '@' + a.hub.revision, n, fetchedInAll(a.hub)));
      panel.setAttribute('data-state', 'listed');
      return a;
    } catch (e) {
      if (!stale(g)) fail(e);
      return null;
    } finally {
      if (!stale(g)) panel.removeAttribute('aria-busy');
    }
  }

  // The chosen file's header (or config.json) into the app, with the current configuration's
  // other keys. `fromLink`: the link's own weights are kept.
  // A split file of more parts than hub.mjs reads unasked (kMaxPartsUnasked): the reader is
  // asked, with a button that reads them all (QA E15).
  const allParts = document.createElement('button');
  allParts.type = 'button';
  allParts.id = 'hub-all-parts';
  let partsAsked = null;   // [fromLink] of the load that stopped
  let partsCount = 0;      // its number of parts
  allParts.addEventListener('click', () => { const a = partsAsked; partsAsked = null; allParts.remove(); if (a) loadChosen(a[0], Infinity); });
  async function loadChosen(fromLink, maxParts) {
    if (!answer) return;
    const chosen = list.querySelector('input[name=hub-file]:checked');
    if (!chosen) return fail({ say: () => t('Choose what to size from: config.json or one of the GGUF files.') });
    const file = chosen.value;
    const g = begin();
    try {
      const h = await hub();
      const rev = answer.hub.revision;
      const a = JSON.parse(await h.fromHub(answer.hub.repo + '@' + rev, { endpoint, file: file || undefined, onProgress: (p) => stale(g) || progress(p), session: true, maxParts }));
      if (stale(g)) return;
      // The app's own core takes the model into its configuration, the rest of which stays (from
      // a link: its format too); what it refuses is said here (no second copy of the core).
      await handToApp(a.hub.repo + (file ? '/' + file : ''), a.configuration, fromLink);
      const head = a.header;
      const fetched = () => (!head ? '' : head.parts > 1
        ? f(t('read %s of the %s file (%s parts) by Range requests, '), size(head.bytes_read), size(head.file_bytes), head.parts)
        : f(t('read %s of the %s file by Range requests, '), size(head.bytes_read), size(head.file_bytes)));
      say(() => (endpoint ? f(t('Loaded %s %s from %s (not the Hugging Face Hub): %s%s.'), a.hub.repo, file || 'config.json', endpoint, fetched(), fetchedInAll(a.hub))
        : f(t('Loaded %s %s: %s%s.'), a.hub.repo, file || 'config.json', fetched(), fetchedInAll(a.hub))));
      panel.setAttribute('data-state', 'loaded');
      panel.setAttribute('data-bytes-fetched', String(a.hub.bytes_fetched));
      // The figures it loaded are the app's now: the panel gets out of their way (QA E9: it
      // stayed open over the memory table), its report kept for when it opens again; the app's
      // status line names what was opened.
      if (!panel.hidden) {
        const had = panel.contains(document.activeElement);
        open(false);
        if (had) toggle.focus();
      }
    } catch (e) {
      if (stale(g)) return;
      fail(e);
      if (e && e.kind === 'too_many_parts') {
        partsAsked = [fromLink];
        partsCount = (e.message.match(/into (\d+) parts/) || [])[1];
        allParts.textContent = f(t('Read all %s parts'), partsCount);
        error.after(allParts);
      }
    } finally {
      if (!stale(g)) panel.removeAttribute('aria-busy');
    }
  }

  // A link's repository waiting for the reader's consent to a non-default Hub (openLink).
  let waiting = null;
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const w = waiting;
    waiting = null;
    if (w && input.value === w.id) followLink(w.id, w.p, w.link);
    else fetchRepo(input.value);
  });
  load.addEventListener('click', () => loadChosen(false));

  // A share link naming a repository (hf=org/name, not a pasted config.json, which starts with
  // '{'): fetch it and load it again, with the link's other keys.
  function fromLinkParams() {
    const params = {};
    for (const part of location.hash.replace(/^#/, '').split('&')) {
      const eq = part.indexOf('=');
      if (eq <= 0) continue;
      try { params[part.slice(0, eq)] = decodeURIComponent(part.slice(eq + 1).replace(/\+/g, ' ')); } catch (e) { /* the app says so */ }
    }
    return params;
  }
  async function openLink() {
    const p = fromLinkParams();
    if (!p.hf || p.hf.charAt(0) === '{' || appGone()) return;
    const id = p.hf + (p.rev ? '@' + p.rev : '');
    if (answer && panel.getAttribute('data-link') === location.hash) return;
    panel.setAttribute('data-link', location.hash);
    input.value = id;
    open(true);
    const link = location.hash;
    if (endpoint) {   // not the default Hub: ask first
      waiting = { id, p, link };
      clearError();
      panel.setAttribute('data-state', 'confirm');
      say(() => f(t('This page is set to fetch models from %s, not the Hugging Face Hub. Nothing was fetched: press Fetch to load %s from it.'), endpoint, id));
      return;
    }
    await followLink(id, p, link);
  }
  // The app waits for the model a link names (QA E5): a failure goes to it too, which says so in
  // place of the figures (web/main.cpp, pending slots 5 and 6).
  async function tellApp(repo) {
    if (panel.getAttribute('data-state') !== 'error') return;
    const M = await appModule();
    if (!M) return;
    M.gpusizerPending[6] = error.textContent;
    M.gpusizerPending[5] = repo;
    M.gpusizerActive = 1;
  }
  async function followLink(id, p, link) {
    const a = await fetchRepo(id, { file: p.f || '' });
    if (!a) return tellApp(p.hf);
    if (p.f && !a.files.some((f) => f.path === p.f)) {
      fail({ kind: 'not_found', say: () => f(t('%s has no file %s (the link names it): choose one of its files below.'), id, p.f) });
      return tellApp(p.hf);
    }
    await loadChosen(true);
    tellApp(p.hf);
  }
  // The page's language changed (the app's switch): what the panel shows, in the new one.
  window.gpusizerI18n.onChange(() => {
    showEndpoint();
    labelFilter();
    if (typeof saying === 'function') status.textContent = saying();
    if (failed && !error.hidden) error.textContent = failure(failed);
    if (partsCount) allParts.textContent = f(t('Read all %s parts'), partsCount);
    if (answer && !fileset.hidden) showFiles(answer, (list.querySelector('input[name=hub-file]:checked') || {}).value);
  });
  window.addEventListener('hashchange', openLink);
  // Once the page's scripts have run: app-page.js (after this one) decides first whether the app
  // can start at all.
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', openLink);
  else openLink();
})();
