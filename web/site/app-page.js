// app-page.js: starts the app (app.js, app.wasm) on index.html's canvas, or says why it cannot.
// The app itself reads and writes the URL fragment (the share link) and the status line; see
// web/main.cpp. Nothing here inserts markup: messages go in as text.
'use strict';
(function () {
  function fail(reason) {
    document.getElementById('canvas').hidden = true;
    document.getElementById('fallback-reason').textContent = reason;
    // Keep the configuration: the widget reads the same link.
    document.getElementById('fallback-link').href = 'embed.html' + location.hash;
    document.getElementById('fallback').hidden = false;
  }

  // A probe on a canvas of its own: the app creates its context on #canvas.
  if (!document.createElement('canvas').getContext('webgl2')) {
    fail('This browser gives no WebGL2 context, which the full app draws with.');
    return;
  }

  window.Module = {
    canvas: document.getElementById('canvas'),
    print: (text) => console.log(text),
    printErr: (text) => console.error(text),
    onAbort: (what) => fail('The app stopped: ' + what),
  };
  const script = document.createElement('script');
  script.src = 'app.js';
  script.onerror = () => fail('app.js could not be loaded.');
  document.body.appendChild(script);
})();
