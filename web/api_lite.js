// web/api_lite.js: the widget's module's raw functions (emcc --post-js before api_post.js, inside
// createGpuSizer's scope). The module has no Embind: web/bindings.cpp exports plain functions over
// UTF-8 bytes, and these wrappers give api_post.js the raw functions Embind gave it, with the same
// strings in and out: a JS string goes in as its UTF-8 bytes and their length (a U+0000 in it
// stays), and the answer comes back from its length, decoded as Embind decoded a std::string.

var liteDecoder = new TextDecoder('utf-8');

// The answer of length n that the last export left at gs_answer().
function liteAnswer(n) {
  var at = _gs_answer();
  return liteDecoder.decode(HEAPU8.subarray(at, at + n));
}

// An export taking no argument, or one string.
function liteText(f) {
  return function (text) {
    if (text === undefined) return liteAnswer(f());
    var size = lengthBytesUTF8(text);
    var at = _malloc(size + 1);
    stringToUTF8(text, at, size + 1);
    try {
      return liteAnswer(f(at, size));
    } finally {
      _free(at);
    }
  };
}

Module['estimate'] = liteText(_gs_estimate);
Module['models'] = liteText(_gs_models);
Module['gpus'] = liteText(_gs_gpus);
Module['linkFromConfig'] = liteText(_gs_link_from_config);
Module['configFromLink'] = liteText(_gs_config_from_link);

// {"weights": [{"id", "label", "bits"}], "kv_cache": [{"id", "bytes", "llama_cpp_only"}]} as the
// full module writes it (JSON.stringify with two spaces), from the rows bindings.cpp answers.
Module['formats'] = function () {
  var rows = JSON.parse(liteAnswer(_gs_formats()));
  return JSON.stringify({
    'weights': rows[0].map(function (w) { return { 'id': w[0], 'label': w[1], 'bits': w[2] }; }),
    'kv_cache': rows[1].map(function (k) { return { 'id': k[0], 'bytes': k[1], 'llama_cpp_only': k[2] }; }),
  }, null, 2);
};

// The last call's error: {key, message}, or null when it succeeded.
Module['lastError'] = function () {
  var n = _gs_last_error(0);
  if (n < 0) return null;
  var key = liteAnswer(n);
  return { 'key': key, 'message': liteAnswer(_gs_last_error(1)) };
};
