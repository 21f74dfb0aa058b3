// embed-page.js: embed.html's one job: the URL fragment is the widget's configuration.
'use strict';
(function () {
  const widget = document.getElementById('widget');
  const follow = () => widget.setAttribute('link', location.hash);
  follow();
  window.addEventListener('hashchange', follow);
})();
