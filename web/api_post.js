// web/api_post.js: the JS side of the API module (emcc --post-js, inside createGpuSizer's
// scope, so it sees Module, stackSave and the ready promise). createGpuSizer() resolves to a
// plain frozen object holding only the documented functions, not the Emscripten Module:
//
// - Arguments are checked here: their count, and a configuration given as an object becomes
//   JSON text with JSON.stringify, which refuses NaN, Infinity and cycles instead of writing
//   them as null ("use the default").
// - JSON text nested deeper than kMaxDepth or longer than kMaxChars is refused here, before the
//   core sees it: the core's JSON writer and destructor recurse, and a value nested thousands
//   deep overflows the wasm call stack.
// - The wasm functions never throw (web/bindings.cpp keeps the error); the GpuSizerError is
//   thrown from here, after every wasm frame has returned, so nothing of the module's stack or
//   heap is lost however many errors a caller provokes. Should a JS exception still cross the
//   wasm frames (the engine's stack limit, a bug), the stack pointer is put back as it was.

// Deeper than any configuration, report or Hugging Face config.json (3 to 4 levels), far
// below the depth at which the core's recursive JSON code overflows the stack (about 7,000).
var kMaxDepth = 100;
// A configuration is a few kilobytes, a benchmark report tens: 8 MiB is no legitimate input.
var kMaxChars = 8 * 1024 * 1024;

/** @constructor @extends {Error} */
function GpuSizerError(key, message) {
  var e = new Error(message);
  e['name'] = 'GpuSizerError';
  e['key'] = key;
  return e;
}

// Throws if `text` (JSON, or a share link's decoded values) nests arrays and objects deeper
// than kMaxDepth; the key is the path of object keys down to where it is too deep, after
// `prefix` (a share link's key, such as "hf").
function checkNesting(text, what, prefix) {
  if (text.length > kMaxChars) throw GpuSizerError(what, what + ': is longer than ' + kMaxChars + ' characters');
  var depth = 0, inString = false, keys = [], last = '', start = -1;
  for (var i = 0; i < text.length; ++i) {
    var c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) ++i;                      // backslash: skip the escaped character
      else if (c === 34) { inString = false; last = text.slice(start, i); }
      continue;
    }
    if (c === 34) { inString = true; start = i + 1; }
    else if (c === 58) keys[depth] = last;    // "key": the key of this level
    else if (c === 91 || c === 123) {         // [ {
      if (++depth > kMaxDepth) {
        var path = (prefix ? [prefix] : []).concat(keys.slice(1, depth)).filter(function (k) { return k; }).join('.');
        throw GpuSizerError(path || what, (path || what) + ': is nested more than ' + kMaxDepth + ' levels deep');
      }
      keys[depth] = '';
    } else if (c === 93 || c === 125) {       // ] }
      if (depth > 0) --depth;
    }
  }
}

// A configuration (or constraints) as JSON text: text as given, an object through JSON.stringify.
function configText(value, what) {
  if (typeof value === 'string') {
    checkNesting(value, what);
    return value;
  }
  if (value === null || typeof value !== 'object') throw GpuSizerError(what, what + ': must be JSON text or an object');
  var text;
  try {
    text = JSON.stringify(value, function (key, v) {
      if (typeof v === 'number' && !isFinite(v)) throw GpuSizerError(key || what, (key || what) + ': must be a finite number, got ' + v);
      return v;
    });
  } catch (e) {
    if (e && e['name'] === 'GpuSizerError') throw e;
    // A cycle, or nesting deeper than the engine's own stack.
    throw GpuSizerError(what, what + ': cannot be written as JSON: ' + (e && e.message ? e.message : e));
  }
  checkNesting(text, what);
  return text;
}

// A share link: a string; JSON values in it (hf=...) are checked once decoded.
function linkText(value) {
  if (typeof value !== 'string') throw GpuSizerError('link', 'link: must be a string such as "#v=1&m=llama-3-8b"');
  if (value.length > kMaxChars) throw GpuSizerError('link', 'link: is longer than ' + kMaxChars + ' characters');
  var parts = value.replace(/^[^#]*#/, '').split('&');
  for (var i = 0; i < parts.length; ++i) {
    var eq = parts[i].indexOf('=');
    var v = eq < 0 ? '' : parts[i].slice(eq + 1);
    try { v = decodeURIComponent(v); } catch (e) { /* the core says what is wrong with it */ }
    if (v.charAt(0) === '{' || v.charAt(0) === '[') checkNesting(v, 'link', eq < 0 ? '' : parts[i].slice(0, eq));
  }
  return value;
}

// Wraps the wasm function `name`: `args` converts each argument (their number is checked).
function wrap(name, args, optionalLast) {
  var raw = Module[name];
  if (!raw) return null;
  return function () {
    var n = arguments.length;
    if (n > args.length || n < args.length - (optionalLast ? 1 : 0))
      throw GpuSizerError('arguments', name + ': takes ' + (optionalLast ? (args.length - 1) + ' or ' : '') + args.length +
                          ' argument' + (args.length === 1 ? '' : 's') + ', got ' + n);
    var given = [];
    for (var i = 0; i < args.length; ++i) given.push(args[i](arguments[i], i));
    var sp = stackSave();
    var out;
    try {
      out = raw.apply(null, given);
    } catch (e) {
      stackRestore(sp);
      throw GpuSizerError('', 'internal error: ' + (e && e.message ? e.message : e));
    }
    var error = Module['lastError']();
    if (error) throw GpuSizerError(error['key'], error['message']);
    return out;
  };
}

function config(v) { return configText(v, 'configuration'); }

// The full module's other functions (web/api_full.js adds them; the widget's module has none).
var moreFunctions = {};

// createGpuSizer() rejects with a GpuSizerError (key "module") that a reader can act on, not
// Emscripten's abort text with its build advice for developers (QA E16): a CompileError is the
// page's Content-Security-Policy refusing WebAssembly, the usual cause.
(function () {
  var rejectModule = readyPromiseReject;
  readyPromiseReject = function (e) {
    var text = String(e && e.message || e);
    rejectModule(GpuSizerError('module', 'module: ' + (/CompileError|unsafe-eval/.test(text)
      ? "this page's Content-Security-Policy does not allow WebAssembly (its script-src needs 'wasm-unsafe-eval')"
      : 'the calculator could not start: ' + text.replace(/ *Build with -s ASSERTIONS.*$/, ''))));
  };
})();

(function () {
  var resolveModule = readyPromiseResolve;
  readyPromiseResolve = function (module) {
    var api = {};
    var spec = {
      'estimate': [[config]],
      'models': [[]],
      'gpus': [[]],
      'formats': [[]],
      'linkFromConfig': [[config]],
      'configFromLink': [[linkText]],
    };
    for (var more in moreFunctions) spec[more] = moreFunctions[more];
    for (var name in spec) {
      var f = wrap(name, spec[name][0], spec[name][1]);
      if (f) api[name] = f;
    }
    resolveModule(Object.freeze(api));
  };
})();
