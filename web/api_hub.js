// web/api_hub.js: gs.fromHub, in the whole API only (emcc --post-js before api_post.js, inside
// createGpuSizer's scope). It wraps the module's ready promise after api_post.js has built the
// object of functions: the object handed out is that one plus fromHub, frozen again.
//
//   await gs.fromHub('unsloth/Qwen3-8B-GGUF', {file: 'Qwen3-8B-Q4_K_M.gguf'})   // configuration JSON
//
// The Hub is read by site/hub.mjs (imported by api_hub_pre.js): config.json, or the chosen GGUF
// file's header by HTTP Range requests. The answer is a configuration `estimate` accepts, with
// the repository in the model ({"hub": "org/name", ...}, model.source "hub") so that
// linkFromConfig carries it; the core reads it once here, so an architecture it cannot size is
// refused now, as a GpuSizerError naming the key. A Hub failure rejects with the HubError
// (`kind`: gated, not_found, rate_limited, offline, ...), whose message says what to do.
(function () {
  var resolveApi = readyPromiseResolve;
  readyPromiseResolve = function (api) {
    var all = {};
    for (var name in api) all[name] = api[name];
    all['fromHub'] = function (id, options) {
      var o = options || {};
      if (typeof id !== 'string') return Promise.reject(GpuSizerError('id', 'id: must be a repository id such as "Qwen/Qwen3-8B" (a string)'));
      if (typeof o !== 'object') return Promise.reject(GpuSizerError('options', 'options: must be an object {endpoint, revision, file}'));
      var given = {};
      ['endpoint', 'revision', 'file', 'fetch', 'onProgress'].forEach(function (k) { if (o[k] !== undefined && o[k] !== null) given[k] = o[k]; });
      // A GGUF header is read by hub.mjs itself; a safetensors one needs the core's reader, told
      // the file's size (the bytes are only its header).
      if (!/\.gguf$/i.test(String(given['file'] || ''))) given['inspect'] = function (bytes, size) { return api['inspect'](bytes, size); };
      return gpusizerHub['fromHub'](id, given).then(function (text) {
        var answer = JSON.parse(text);
        var configuration = answer['configuration'];
        if (!configuration)
          throw GpuSizerError('file', 'file: ' + id + ' has no config.json; name one of its GGUF files: ' +
                              answer['files'].map(function (f) { return f['path']; }).slice(0, 8).join(', '));
        var out = JSON.stringify(configuration);
        api['linkFromConfig'](out);   // the core reads it: throws a GpuSizerError naming the key
        return out;
      });
    };
    resolveApi(Object.freeze(all));
  };
})();
