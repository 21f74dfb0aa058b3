// embed-page.js: embed.html's one job: the URL fragment is the widget's configuration. The page
// around it speaks the widget's language (the fragment's lang=, else the browser's): <html lang>
// and its marked texts (data-i18n), from the widget's own table.
'use strict';
(function () {
  const widget = document.getElementById('widget');
  const marked = [...document.querySelectorAll('[data-i18n]')].map((e) => [e, e.textContent.trim()]);
  const follow = () => {
    widget.setAttribute('link', location.hash);
    if (!widget.t) return;   // no custom elements here: the widget is not running either
    document.documentElement.lang = widget.language;
    for (const [e, en] of marked) e.textContent = widget.t(en);
  };
  follow();
  window.addEventListener('hashchange', follow);
})();
