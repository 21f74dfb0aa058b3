// gpusizer-widget.js: the light calculator for documentation pages. Native HTML sliders over
// the JS API's widget module (gpusizer-lite.js + .wasm: the same core as the CLI and the app,
// with the catalog's figures but not its notes); no WebGL.
//
// One tag puts a widget where the tag is (the link is the configuration it opens with):
//   <script src="https://example.org/gpusizer/gpusizer-widget.js" data-link="#v=1&m=llama-3.1-8b&g=rtx-4090"></script>
// or the element, anywhere after the script:
//   <gpusizer-widget link="#v=1&m=llama-3.1-8b&g=rtx-4090"></gpusizer-widget>
// or, with no script on the page at all, an iframe of embed.html#v=1&m=...
//
// A link is only ever data: every text goes in with textContent, every value through the
// API's checks, and a link that cannot be read shows its reason and the default configuration.
// The widget fires `gpusizer-change` (detail: {link, report}) after each estimate. It follows
// the reader's light or dark setting unless the host page says theme="light" or theme="dark"
// (on the element, or data-theme on the script tag) to match its own (QA D19).
//
// It speaks English or Brazilian Portuguese (issue 28): the element's lang="pt-BR" (data-lang on
// the script tag, for the widgets it defines), else the link's lang=, else the browser's language.
// Its texts are the rows of assets/strings.json that the widget uses ("in": widget), which the
// build writes into this script (web/strings_js.mjs fills the marker below; as it is, the source
// speaks English): t('Fits') in the widget's language; numbers in its separators ("8,94 GiB").
'use strict';
(function () {
  const script = document.currentScript;
  const kStrings = /* @strings */ {};
  // A BCP 47 tag ("pt-BR", "pt", "en-US") as a language the widget has, or '' (ui/i18n.cpp
  // language_from_tag: every Portuguese gets the Brazilian text).
  function fromTag(tag) {
    const primary = String(tag || '').split(/[-_]/)[0].toLowerCase();
    return primary === 'pt' ? 'pt-BR' : primary === 'en' ? 'en' : '';
  }
  const scriptLang = fromTag(script && script.getAttribute('data-lang'));
  // <script src=".../gpusizer-widget.js" data-link="#v=1&..."></script>: a widget in its place,
  // for every such tag on the page (the element is defined once, by the first).
  function placeHere() {
    if (script && script.hasAttribute('data-link')) {
      const w = document.createElement('gpusizer-widget');
      w.setAttribute('link', script.getAttribute('data-link'));
      if (script.hasAttribute('data-theme')) w.setAttribute('theme', script.getAttribute('data-theme'));
      if (script.hasAttribute('data-lang')) w.setAttribute('lang', script.getAttribute('data-lang'));
      script.after(w);
    }
  }
  if (window.customElements && customElements.get('gpusizer-widget')) {
    placeHere();
    return;
  }

  const base = script && script.src ? script.src : location.href;
  const apiUrl = new URL('gpusizer-lite.js', base).href;
  const appUrl = new URL('index.html', base).href;

  // The app's opening view (ui/state.cpp default_state).
  const kDefaultLink = '#v=1&m=llama-3-70b&w=q4_k_m&g=rtx-4090x2';
  // The parameters slider: 0.1 B to 2 T parameters on a log scale, in 1000 steps.
  const kParamsMin = 1e8;
  const kParamsMax = 2e12;
  // The context slider: powers of two from 512 to 1,048,576 tokens (the app's range).
  const kContextMinLog2 = 9;
  const kContextMaxLog2 = 20;
  // Memory parts: the core's kMemoryParts with ui/theme.hpp's colours (test_memory_parts.cpp checks).
  const kParts = [
    ['weights', 'weights', '#4c78a8'],
    ['kv_cache', 'KV cache', '#f58518'],
    ['activations', 'activations', '#54a24b'],
    ['gradients', 'gradients', '#e45756'],
    ['optimizer', 'optimizer', '#b279a2'],
    ['overhead', 'overhead', '#9d9d9d'],
  ];

  // One module for the page, shared by every widget on it.
  let apiPromise = null;
  function loadApi() {
    if (!apiPromise) {
      apiPromise = import(apiUrl)
        .then((m) => m.default())
        .then((gs) => ({
          gs,
          models: JSON.parse(gs.models()),
          gpus: JSON.parse(gs.gpus()),
          formats: JSON.parse(gs.formats()).weights,
        }));
    }
    return apiPromise;
  }

  // ------------------------------------------------------------------------------------------
  // Formatting: the same rules as the core's format.cpp (GiB for memory, MiB below one GiB).
  // ------------------------------------------------------------------------------------------
  const kGiB = 1024 * 1024 * 1024;
  // printf's "%.*f": exact ties round to even (290.5 MiB prints as 290, as the app shows it).
  function fixed(x, decimals) {
    const k = Math.pow(10, decimals);
    const y = x * k;
    const f = Math.floor(y);
    const r = y - f === 0.5 ? (f % 2 === 0 ? f : f + 1) : Math.round(y);
    return (r / k).toFixed(decimals);
  }
  function formatGiB(bytes) {
    if (!isFinite(bytes)) return '?';
    if (bytes === 0) return '0';
    if (Math.abs(bytes) < kGiB) return fixed(bytes / (1024 * 1024), 0) + ' MiB';
    return fixed(bytes / kGiB, 2) + ' GiB';
  }
  function formatCount(n) {
    const a = Math.abs(n);
    if (a >= 1e12) return fixed(n / 1e12, 2) + ' T';
    if (a >= 1e9) return fixed(n / 1e9, 2) + ' B';
    if (a >= 1e6) return fixed(n / 1e6, 1) + ' M';
    return String(Math.round(n));
  }
  // "GGUF Q4_K_M (llama.cpp)" -> "GGUF Q4_K_M": the slider's read-out; the title has it all.
  function shortLabel(label) { return label.replace(/ \(.*\)$/, ''); }
  function formatInt(n) { return Math.round(n).toLocaleString('en-US'); }

  // Creates an element; `text` goes in as text, everything else as attributes.
  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === 'text') e.textContent = v;
      else e.setAttribute(k, v);
    }
    for (const c of children) e.append(c);
    return e;
  }

  const kStyle = `
    :host { display: block; max-width: 560px; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif;
            color: var(--gpusizer-text, #1d2330); --muted: var(--gpusizer-muted, #5b6473); --line: var(--gpusizer-line, #d7dbe2);
            --bg: var(--gpusizer-background, #ffffff); --accent: var(--gpusizer-accent, #2f6fd6);
            /* Verdict colours at WCAG AA (4.5:1) on the background (QA E14): 5.3:1 and 6.5:1 on white. */
            --fits: var(--gpusizer-fits, #1e7b3e); --nofit: var(--gpusizer-nofit, #b3261e); }
    @media (prefers-color-scheme: dark) {
      :host(:not([theme=light])) { color: var(--gpusizer-text, #e6e8ec); --muted: var(--gpusizer-muted, #a0a8b6); --line: var(--gpusizer-line, #3a404b);
              --bg: var(--gpusizer-background, #1b1d22); --accent: var(--gpusizer-accent, #6ea0ff);
              --fits: var(--gpusizer-fits, #5fd48a); --nofit: var(--gpusizer-nofit, #ff8a80); }
    }
    :host([theme=dark]) { color: var(--gpusizer-text, #e6e8ec); --muted: var(--gpusizer-muted, #a0a8b6); --line: var(--gpusizer-line, #3a404b);
            --bg: var(--gpusizer-background, #1b1d22); --accent: var(--gpusizer-accent, #6ea0ff);
            --fits: var(--gpusizer-fits, #5fd48a); --nofit: var(--gpusizer-nofit, #ff8a80); }
    .box { border: 1px solid var(--line); border-radius: 8px; padding: 12px 14px; background: var(--bg); }
    .title { display: flex; justify-content: space-between; align-items: baseline; margin-bottom: 8px; }
    .title b { color: var(--accent); }
    .title span { color: var(--muted); font-size: 12px; }
    .grid { display: grid; grid-template-columns: 6.5em 1fr 8.5em; gap: 6px 10px; align-items: center; }
    label { color: var(--muted); }
    select, input[type=range] { width: 100%; margin: 0; min-width: 0; accent-color: var(--accent); }
    select { grid-column: 2 / 4; font: inherit; padding: 2px 4px; color: inherit; background: var(--bg);
             border: 1px solid var(--line); border-radius: 4px; }
    output { font-variant-numeric: tabular-nums; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
    .result { margin-top: 12px; border-top: 1px solid var(--line); padding-top: 10px; }
    .verdict { font-size: 18px; font-weight: 600; margin-right: 6px; }
    .fits { color: var(--fits); } .nofit { color: var(--nofit); }
    .what { color: var(--muted); font-size: 12px; margin: 2px 0 8px; }
    .bar { position: relative; display: flex; height: 18px; border-radius: 4px; overflow: hidden; background: color-mix(in srgb, var(--line) 45%, transparent); }
    .bar span { display: block; height: 100%; }
    .cap { position: absolute; top: 0; bottom: 0; width: 2px; background: #d64541; }
    .legend { display: flex; flex-wrap: wrap; gap: 2px 12px; list-style: none; padding: 0; margin: 6px 0 0; font-size: 12px; }
    .legend i { display: inline-block; width: 9px; height: 9px; border-radius: 2px; margin-right: 4px; }
    .message { margin: 8px 0 4px; font-size: 12px; color: var(--muted); overflow-wrap: anywhere; }
    .message:empty { display: none; }
    .message.error { color: var(--nofit); }
    .open { display: inline-block; margin-top: 8px; font-size: 12px; color: var(--accent); }
    .pin { margin: 8px 10px 0 0; font: inherit; font-size: 12px; min-height: 28px; padding: 2px 10px; color: var(--accent);
           background: var(--bg); border: 1px solid var(--line); border-radius: 4px; cursor: pointer; }
    @media (pointer: coarse) { .pin { min-height: 44px; } }
    .compare { width: 100%; margin-top: 8px; border-collapse: collapse; font-size: 12px; font-variant-numeric: tabular-nums; }
    .compare th, .compare td { text-align: left; padding: 2px 6px 2px 0; border-top: 1px solid var(--line); vertical-align: top; }
    .compare th { color: var(--muted); font-weight: normal; }
    .compare td.changed { font-weight: 600; }
  `;

  class GpuSizerWidget extends HTMLElement {
    static get observedAttributes() { return ['link', 'lang']; }

    constructor() {
      super();
      this._config = null;      // the configuration shown (configuration JSON as an object)
      this._report = null;      // the last report (the CLI's JSON format)
      this._link = '';
      this._api = null;
      this._pending = 0;        // requestAnimationFrame id of a queued estimate
      this._pinned = null;      // the pinned configuration, compared with the one shown (issue 29)
      this._source = null;      // the slider whose change is being estimated
      this._built = false;
      this._lang = 'en';
      this._langChosen = false;   // by the page (lang, data-lang) or the link, not the browser
      this._note = null;          // the message shown with the figures: a function of the language
    }

    get report() { return this._report; }
    get link() { return this._link; }
    // The language the widget speaks ("en", "pt-BR"), and a text in it (embed-page.js uses both
    // for embed.html's own title).
    get language() { return this._lang; }
    t(en) { return (kStrings[this._lang] && kStrings[this._lang][en]) || en; }

    // printf's "%s" in order (the table's rows keep the same conversions in both languages).
    _f(format, ...args) {
      let i = 0;
      return format.replace(/%[s%]/g, (c) => (c === '%%' ? '%' : String(args[i++])));
    }
    // A number as formatted above ("8.94 GiB", "1,234") in the language's separators ("8,94 GiB",
    // "1.234"), as the app writes them (ui/i18n.cpp localized_number).
    _n(text) { return this._lang === 'pt-BR' ? text.replace(/[.,]/g, (c) => (c === '.' ? ',' : '.')) : text; }
    _gib(bytes) { return this._n(formatGiB(bytes)); }
    _int(n) { return this._n(formatInt(n)); }
    _count(n) { return this._n(formatCount(n)); }

    // The element's lang, else the script tag's data-lang, else the link's lang=, else the browser's.
    _chooseLanguage() {
      const link = (String(this.getAttribute('link') || '').match(/[#&]lang=([^&]*)/) || [])[1];
      const chosen = fromTag(this.getAttribute('lang')) || scriptLang || fromTag(link);
      this._langChosen = !!chosen;
      const lang = chosen || fromTag(navigator.language) || 'en';
      if (lang === this._lang) return false;
      this._lang = lang;
      return true;
    }

    connectedCallback() {
      if (this._built) return;
      this._built = true;
      this._chooseLanguage();
      const root = this.attachShadow({ mode: 'open' });
      // A constructed style sheet where the browser has them: a page's Content-Security-Policy
      // may forbid <style> elements, never these.
      if (root.adoptedStyleSheets !== undefined && typeof CSSStyleSheet === 'function' && CSSStyleSheet.prototype.replaceSync) {
        const sheet = new CSSStyleSheet();
        sheet.replaceSync(kStyle);
        root.adoptedStyleSheets = [sheet];
      } else {
        root.append(el('style', { text: kStyle }));
      }
      // The box says its language (lang), for screen readers and hyphenation, whatever the page's.
      this._box = el('div', { class: 'box', part: 'box', lang: this._lang });
      this._subtitle = el('span');
      this._box.append(el('div', { class: 'title' }, el('b', { text: 'gpusizer' }), this._subtitle));
      this._subtitle.textContent = this.t('GPU memory for LLMs');
      this._message = el('p', { class: 'message', role: 'status', 'aria-live': 'polite', text: this.t('Loading…') });
      this._box.append(this._message);
      root.append(this._box);
      // The module's GpuSizerError says why in plain words (web/api_post.js).
      loadApi().then((api) => this._start(api),
        (err) => this._say(this._f(this.t('The calculator could not be loaded: %s'), err && err.message ? err.message : err), true));
    }

    attributeChangedCallback(name, _old, value) {
      // A new language (its own, or the link's lang=): every text again, the figures kept.
      const relabel = this._built && this._chooseLanguage();
      if (relabel) {
        this._box.lang = this._lang;
        this._subtitle.textContent = this.t('GPU memory for LLMs');
      }
      if (!this._api) return;
      if (relabel) this._relabel();
      if (name === 'link') this._open(value || '');
      else if (relabel && this._config) this._estimate();
    }

    // ------------------------------------------------------------------------------------------
    // Building the controls
    // ------------------------------------------------------------------------------------------
    _start(api) {
      this._api = api;
      const grid = el('div', { class: 'grid' });
      this._labels = {};
      const row = (id, control, output) => {
        control.id = id;
        grid.append(this._labels[id] = el('label', { for: id }), control);
        if (output) grid.append(output);
      };

      this._model = el('select');
      this._custom = el('option', { value: '' });
      this._model.append(this._custom);
      // Grouped by family (models.json `family`), families in catalog order, as the app's picker.
      const families = new Map();
      for (const m of api.models) {
        const f = m.family || '';
        if (!families.has(f)) families.set(f, el('optgroup', f ? { label: f } : { 'data-other': '' }));
        families.get(f).append(el('option', { value: m.id }));
      }
      for (const group of families.values()) this._model.append(group);
      row('gs-model', this._model);

      this._params = el('input', { type: 'range', min: '0', max: '1000', step: '1' });
      this._paramsOut = el('output', { for: 'gs-params', 'aria-live': 'off' });
      row('gs-params', this._params, this._paramsOut);

      this._weights = el('input', { type: 'range', min: '0', max: String(api.formats.length - 1), step: '1' });
      this._weightsOut = el('output', { for: 'gs-weights', 'aria-live': 'off' });
      row('gs-weights', this._weights, this._weightsOut);

      this._context = el('input', { type: 'range', min: String(kContextMinLog2), max: String(kContextMaxLog2), step: '1' });
      this._contextOut = el('output', { for: 'gs-context', 'aria-live': 'off' });
      row('gs-context', this._context, this._contextOut);

      this._gpu = el('select');
      for (const g of api.gpus) this._gpu.append(el('option', { value: g.id }));
      row('gs-gpu', this._gpu);

      this._gpus = el('input', { type: 'range', min: '1', max: '64', step: '1' });
      this._gpusOut = el('output', { for: 'gs-gpus', 'aria-live': 'off' });
      row('gs-gpus', this._gpus, this._gpusOut);

      this._verdict = el('span', { class: 'verdict' });
      this._total = el('span', { class: 'total' });
      this._what = el('div', { class: 'what' });
      this._bar = el('div', { class: 'bar', role: 'img' });
      this._legend = el('ul', { class: 'legend' });
      // The verdict and its numbers are one live region: a screen reader moving a slider hears
      // whether it fits (the read-outs beside the sliders are the sliders' aria-valuetext).
      this._headline = el('div', { role: 'status', 'aria-live': 'polite', 'aria-atomic': 'true' }, this._verdict, ' ', this._total);
      this._result = el('div', { class: 'result' }, this._headline, this._what, this._bar, this._legend);
      this._openLink = el('a', { class: 'open', target: '_blank', rel: 'noopener' });
      // Pin the configuration shown, change anything, and see both side by side (the app's
      // Pinned tab in brief; the link carries both, &pin= as the app writes it).
      this._pin = el('button', { type: 'button', class: 'pin' });
      this._compare = el('table', { class: 'compare' });
      this._pin.addEventListener('click', () => {
        this._pinned = this._pinned ? null : JSON.parse(JSON.stringify(this._config));
        this._note = null;
        this._estimate();
      });
      this._relabel();

      this._box.replaceChildren(this._box.firstChild, grid, this._result, this._compare, this._message, this._pin, this._openLink);
      // A Hugging Face config.json dropped on the widget becomes its model; model files (QA E6)
      // are read by the full calculator, whose module has the GGUF and safetensors readers.
      this._box.addEventListener('dragover', (e) => e.preventDefault());
      this._box.addEventListener('drop', (e) => {
        e.preventDefault();
        const file = e.dataTransfer && e.dataTransfer.files[0];
        if (!file) return;
        if (/\.(gguf|safetensors)$/i.test(file.name))
          return this._say(this._f(this.t('%s: model files open in the full calculator (drop it there, or use its Open file...)'), file.name), true);
        file.text().then((text) => {
          let hf = null;
          try { hf = JSON.parse(text); } catch (err) { /* said below */ }
          if (!hf || typeof hf !== 'object' || !(hf.model_type || hf.architectures))
            return this._say(this._f(this.t('%s is not a Hugging Face config.json (it has no model_type)'), file.name), true);
          this._edit((c) => { c.model = { hf_config: hf }; c.tp = c.pp = c.dp = 0; });
        });
      });

      this._model.addEventListener('change', () => this._edit((c) => {
        if (this._model.value) c.model = this._model.value;
        else c.model = { num_parameters: this._paramsValue() };
        c.tp = c.pp = c.dp = 0;
      }));
      this._params.addEventListener('input', () => this._edit((c) => {
        c.model = { num_parameters: this._paramsValue() };
        c.tp = c.pp = c.dp = 0;
      }, this._params));
      this._weights.addEventListener('input', () => this._edit((c) => { c.weights = this._weightChoices[Number(this._weights.value)].id; }));
      this._context.addEventListener('input', () => this._edit((c) => { c.context = 2 ** Number(this._context.value); }));
      this._gpu.addEventListener('change', () => this._edit((c) => { c.gpu = this._gpu.value; }));
      this._gpus.addEventListener('input', () => this._edit((c) => {
        c.gpus = Number(this._gpus.value);
        c.tp = c.pp = c.dp = 0;   // the split follows the count, as in the app's automatic mode
      }));

      this._open(this.getAttribute('link') || '');
    }

    // The controls' words in the widget's language: labels, the lists' entries (their counts and
    // sizes in its separators), the link to the app.
    _relabel() {
      const t = (en) => this.t(en);
      const labels = { 'gs-model': t('Model'), 'gs-params': t('Parameters'), 'gs-weights': t('Precision'), 'gs-context': t('Context'),
        'gs-gpu': t('GPU'), 'gs-gpus': t('GPUs') };
      for (const [id, text] of Object.entries(labels)) this._labels[id].textContent = text;
      this._custom.textContent = t('Custom, by parameter count');
      const models = new Map(this._api.models.map((m) => [m.id, m]));
      for (const g of this._model.querySelectorAll('optgroup[data-other]')) g.label = t('other');
      for (const o of this._model.querySelectorAll('option[value]:not([value=""])')) {
        const m = models.get(o.value);
        o.textContent = m.name + ' (' + this._count(m.params) + ')';
      }
      const gpus = new Map(this._api.gpus.map((g) => [g.id, g]));
      for (const o of this._gpu.options) o.textContent = gpus.get(o.value).name + ' (' + this._n(String(gpus.get(o.value).memory_gib)) + ' GiB)';
      this._openLink.textContent = t('Open in the full calculator');
    }

    _paramsValue() {
      const t = Number(this._params.value) / 1000;
      const n = kParamsMin * Math.pow(kParamsMax / kParamsMin, t);
      const step = Math.pow(10, Math.floor(Math.log10(n)) - 2);   // three significant digits
      return Math.round(n / step) * step;
    }

    // ------------------------------------------------------------------------------------------
    // Opening a link, editing, estimating
    // ------------------------------------------------------------------------------------------
    _open(link) {
      const gs = this._api.gs;
      let note = null;
      let config = null;
      this._pinned = null;
      if (link && link !== '#') {
        try {
          // A pinned configuration (&pin=<its link's keys, percent-encoded>): read apart.
          const at = link.indexOf('&pin=');
          if (at >= 0) {
            const end = link.indexOf('&', at + 5);
            this._pinned = JSON.parse(gs.configFromLink('#v=1&' + decodeURIComponent(link.slice(at + 5, end < 0 ? undefined : end))));
            gs.estimate(this._pinned);
            link = link.slice(0, at) + (end < 0 ? '' : link.slice(end));
          }
          config = JSON.parse(gs.configFromLink(link));
          gs.estimate(config);   // a link that cannot be estimated is refused whole, as in the app
        } catch (e) {
          config = this._pinned = null;
          // The core's message stays English (it names the key).
          note = () => this._f(this.t('Link not opened: %s. Showing the default configuration.'), e.message);
        }
      }
      if (!config) config = JSON.parse(gs.configFromLink(kDefaultLink));
      this._config = config;
      this._note = note;
      this._estimate();
    }

    // Applies a control's change; `source` is the slider being moved (left where the user put it).
    _edit(change, source) {
      if (!this._config) return;
      change(this._config);
      this._note = null;
      // The widget has no expert-parallel control: a change of its own drops ep (automatic),
      // as it resets tp, pp and dp, rather than leave a split that no longer divides (QA D12).
      delete this._config.ep;
      this._source = source || null;
      if (this._pending) return;   // one estimate per animation frame, the latest values
      this._pending = requestAnimationFrame(() => {
        this._pending = 0;
        this._estimate();
        this._source = null;
      });
    }

    // Estimates the configuration shown and draws it; this._note (a link refused) is said with it.
    _estimate() {
      const gs = this._api.gs;
      let report = null;
      try {
        report = JSON.parse(gs.estimate(this._config));
      } catch (e) {
        this._say(this._f(this.t('Cannot estimate this configuration: %s'), e.message), true);
        this._result.style.opacity = '0.35';
        this._sync(null);
        return;
      }
      this._report = report;
      this._link = gs.linkFromConfig(this._config);
      const pinned = this._pinned && JSON.parse(gs.estimate(this._pinned));
      if (pinned) this._link += '&pin=' + encodeURIComponent(gs.linkFromConfig(this._pinned).replace(/^#v=1&/, ''));
      this._pin.textContent = pinned ? this.t('Unpin') : this.t('Pin to compare');
      this._pin.setAttribute('aria-pressed', String(!!pinned));
      this._drawCompare(pinned, report);
      this._result.style.opacity = '';
      // Else the report's first warning: a context past the model's trained length, layers in
      // host RAM... (QA E17: the app warned, the widget did not). The core's words: English.
      this._say(this._note ? this._note() : report.warnings[0] || '', !!this._note);
      this._sync(report);
      this._draw(report);
      // The full calculator opens in the language the page or the link chose for the widget.
      this._openLink.href = appUrl + this._link + (this._langChosen ? '&lang=' + this._lang : '');
      this.dispatchEvent(new CustomEvent('gpusizer-change', { detail: { link: this._link, report } }));
    }

    // Sets the controls from the configuration (and the report's resolved values).
    _sync(report) {
      const api = this._api;
      const c = this._config;
      const custom = typeof c.model !== 'string';
      this._model.value = custom ? '' : c.model;
      let params = report ? report.params : 0;
      if (!params && custom && c.model.num_parameters) params = c.model.num_parameters;
      if (params > 0) {
        const t = Math.log(params / kParamsMin) / Math.log(kParamsMax / kParamsMin);
        if (this._source !== this._params) this._params.value = String(Math.round(Math.min(1, Math.max(0, t)) * 1000));
        this._paramsOut.textContent = this._count(params);
        this._params.setAttribute('aria-valuetext', this._f(this.t('%s parameters'), this._count(params)));
      }
      const weights = report ? report.config.weights : c.weights;
      // The precision slider offers only what this configuration can use (QA D12: QLoRA takes
      // nf4 only, vLLM no GGUF formats, training no integer formats): each format is tried
      // once per configuration.
      const others = JSON.stringify(Object.assign({}, c, { weights: null }));
      if (others !== this._choicesFor) {
        this._choicesFor = others;
        this._weightChoices = api.formats.filter((f) => {
          if (f.id === weights) return true;
          try { api.gs.estimate(Object.assign({}, c, { weights: f.id, ep: 0 })); return true; } catch (e) { return e.key !== 'weights'; }
        });
        this._weights.max = String(this._weightChoices.length - 1);
      }
      const wi = this._weightChoices.findIndex((f) => f.id === weights);
      if (wi >= 0) {
        const f = this._weightChoices[wi];
        this._weights.value = String(wi);
        this._weightsOut.textContent = shortLabel(f.label);
        this._weightsOut.title = f.label;
        this._weights.setAttribute('aria-valuetext', shortLabel(f.label));
      }
      const context = report ? report.config.context : c.context;
      if (context > 0) {
        this._context.value = String(Math.round(Math.log2(context)));
        // 1M as model cards write it, so that the read-out fits a phone (QA E17: cut to
        // "1,048,576 tok..." at 390 px); the whole number for screen readers.
        this._contextOut.textContent = this._f(this.t('%s tokens'), context % 1048576 ? this._int(context) : context / 1048576 + 'M');
        this._context.setAttribute('aria-valuetext', this._f(this.t('%s tokens'), this._int(context)));
      }
      this._gpu.value = c.gpu;
      this._gpus.max = String(Math.max(64, c.gpus));
      this._gpus.value = String(c.gpus);
      this._gpusOut.textContent = this._f(c.gpus === 1 ? this.t('%s GPU') : this.t('%s GPUs'), c.gpus);
      this._gpus.setAttribute('aria-valuetext', this._gpusOut.textContent);
    }

    _draw(r) {
      const t = (en) => this.t(en);
      const m = r.memory;
      const parts = m.per_gpu;
      this._verdict.textContent = r.fits ? t('Fits') : t('Does not fit');
      this._verdict.className = 'verdict ' + (r.fits ? 'fits' : 'nofit');
      this._total.textContent = r.fits ? this._f(t('%s of %s per GPU, %s to spare'), this._gib(parts.total), this._gib(m.gpu_usable), this._gib(m.headroom))
        : this._f(t('%s of %s per GPU, %s short'), this._gib(parts.total), this._gib(m.gpu_usable), this._gib(-m.headroom));
      const c = r.config;
      // The mode as the configuration names it, in words where the language has its own.
      const mode = { inference: t('inference'), train: t('train') }[c.mode] || c.mode;
      // What the machine draws at the plug doing the job (not its nameplate).
      const wall = Math.round(r.power.wall_w);
      const power = !(r.power.wall_w > 0) ? '' : r.power.wall_phase === 'train' ? this._f(t(' · ~%s W at the wall training'), wall)
        : r.power.wall_phase === 'serving' ? this._f(t(' · ~%s W at the wall under load'), wall) : this._f(t(' · ~%s W at the wall generating'), wall);
      this._what.textContent = this._f(t('%s on %s × %s · %s, %s weights, batch %s, %s, tp %s pp %s dp %s'), r.model.name, c.gpus, r.gpu.name, mode,
        c.weights, c.batch, c.runtime, r.parallel.tp, r.parallel.pp, r.parallel.dp) + power;
      const scale = Math.max(parts.total, m.gpu_usable);
      const segments = [];
      const items = [];
      for (const [key, label, color] of kParts) {
        const bytes = parts[key];
        const name = t(label);
        if (bytes > 0) {
          const s = el('span', { title: name + ' ' + this._gib(bytes) });
          s.style.width = (100 * bytes / scale).toFixed(3) + '%';
          s.style.background = color;
          segments.push(s);
        }
        if (bytes > 0 || key === 'weights' || key === 'kv_cache') {
          const swatch = el('i');
          swatch.style.background = color;
          items.push(el('li', {}, swatch, name + ' ' + this._gib(bytes)));
        }
      }
      const cap = el('span', { class: 'cap', title: this._f(t('usable %s'), this._gib(m.gpu_usable)) });
      cap.style.left = 'calc(' + (100 * m.gpu_usable / scale).toFixed(3) + '% - 2px)';
      segments.push(cap);
      this._bar.replaceChildren(...segments);
      this._bar.setAttribute('aria-label', this._total.textContent);
      this._legend.replaceChildren(...items);
    }

    // The pinned configuration beside the one shown: what differs is in bold.
    _drawCompare(pinned, now) {
      const t = (en) => this.t(en);
      this._compare.hidden = !pinned;
      if (!pinned) return this._compare.replaceChildren();
      const rows = [['', t('Pinned'), t('Now')]];
      const line = (name, f) => rows.push([name, f(pinned), f(now)]);
      line(t('Model'), (r) => r.model.name);
      line(t('Weights'), (r) => r.config.weights);
      line(t('Context'), (r) => this._f(t('%s tokens'), this._int(r.config.context)));
      line(t('GPUs'), (r) => r.config.gpus + ' × ' + r.gpu.name);
      line(t('Per GPU'), (r) => this._f(r.fits ? t('%s of %s, fits') : t('%s of %s, does not fit'), this._gib(r.memory.per_gpu.total), this._gib(r.memory.gpu_usable)));
      line(t('Speed'), (r) => r.config.mode === 'inference' ? this._n(r.speed.decode_tokens_per_s.toFixed(1)) + ' tokens/s' :
        this._f(t('%s tokens/s training'), this._int(r.speed.train_tokens_per_s)));
      line(t('At the wall'), (r) => Math.round(r.power.wall_w) + ' W');
      this._compare.replaceChildren(...rows.map((cells, i) => el('tr', {}, ...cells.map((text, k) =>
        el(i && k ? 'td' : 'th', k && i && cells[1] !== cells[2] ? { class: 'changed', text } : { text })))));
    }

    _say(text, isError) {
      // The core's messages hold no NUL or bidirectional control (printable_text, QA D16, E11).
      this._message.textContent = text;
      this._message.className = 'message' + (isError ? ' error' : '');
    }
  }

  customElements.define('gpusizer-widget', GpuSizerWidget);

  placeHere();
})();
