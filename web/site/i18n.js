// i18n.js: the page's language (index.html loads it before its other scripts). English is the
// key: t('Fits') gives the current language's text, from the rows of assets/strings.json that
// the page uses, which the build writes into this file (web/strings_js.mjs fills the marker
// below; the source as it is speaks English). The language is the link's lang= (#...&lang=pt-BR),
// else the browser's (navigator.language), as the app decides it (ui/app.cpp); the app then says
// which it speaks (web/main.cpp language_changed), also when the reader switches it, and the
// page follows: <html lang>, the elements marked data-i18n (their text) and data-i18n-attrs (the
// attributes it names), and what the page's scripts write (gpusizerI18n.onChange).
//   const { t, f } = window.gpusizerI18n;   f(t('%s of %s per GPU'), a, b)
// Nothing here inserts markup: texts go in as textContent and attribute values.
'use strict';
(function () {
  const kStrings = /* @strings */ {};

  // A BCP 47 tag as a link or a browser gives it ("pt-BR", "pt", "PT_br", "en-US") as a language
  // the page has, or '' (ui/i18n.cpp language_from_tag: every Portuguese gets the Brazilian text).
  function fromTag(tag) {
    const primary = String(tag || '').split(/[-_]/)[0].toLowerCase();
    return primary === 'pt' ? 'pt-BR' : primary === 'en' ? 'en' : '';
  }
  function linkLanguage() {
    const m = location.hash.match(/[#&]lang=([^&]*)/);
    if (!m) return '';
    try { return fromTag(decodeURIComponent(m[1])); } catch (e) { return ''; }
  }

  let lang = 'en';
  const listeners = [];
  const english = new WeakMap();   // a marked element's English: its text, and its attributes'

  const t = (en) => (kStrings[lang] && kStrings[lang][en]) || en;
  // printf's "%s" in order (the table's rows keep the same conversions in both languages).
  const f = (format, ...args) => {
    let i = 0;
    return format.replace(/%[s%]/g, (c) => (c === '%%' ? '%' : String(args[i++])));
  };
  // A number as the page formats it ("1,234.5", "8.94 GiB", "3.1 days") in the language's
  // separators and words ("1.234,5", "8,94 GiB", "3,1 dias"): ui/i18n.cpp localized_number.
  const num = (s) => {
    s = String(s);
    if (lang !== 'pt-BR') return s;
    return s.replace(/[.,]/g, (c) => (c === '.' ? ',' : '.')).replace(/ days$/, ' dias').replace(/ years$/, ' anos');
  };

  function translatePage() {
    document.documentElement.lang = lang;
    for (const e of document.querySelectorAll('[data-i18n], [data-i18n-attrs]')) {
      let en = english.get(e);
      if (!en) {
        en = { attrs: {} };
        if (e.hasAttribute('data-i18n')) en.text = e.textContent.replace(/\s+/g, ' ').trim();
        for (const name of (e.getAttribute('data-i18n-attrs') || '').split(/\s+/).filter(Boolean)) en.attrs[name] = e.getAttribute(name);
        english.set(e, en);
      }
      if (en.text !== undefined) e.textContent = t(en.text);
      for (const [name, value] of Object.entries(en.attrs)) if (value !== null) e.setAttribute(name, t(value));
    }
  }

  window.gpusizerI18n = {
    t, f, num, fromTag,
    get lang() { return lang; },
    // Switches the page to `code` ("en", "pt-BR"); the page's scripts redraw their texts.
    set(code) {
      const next = fromTag(code) || 'en';
      if (next === lang && document.documentElement.lang === next) return;
      lang = next;
      translatePage();
      for (const fn of listeners) fn(lang);
    },
    onChange(fn) { listeners.push(fn); },
  };

  // The language to start with, until the app says: the link's, else the browser's.
  lang = linkLanguage() || fromTag(navigator.language) || 'en';
  // The marked elements are the page's static ones: index.html loads this script after them.
  translatePage();
})();
