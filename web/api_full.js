// web/api_full.js: the JS side of the whole API's functions that the widget's module lacks
// (emcc --post-js after api_post.js, in gpusizer.js only; inside createGpuSizer's scope): their
// argument checks, added to api_post.js's table of functions. Kept apart so that the widget's
// download carries none of them.

// gs.inspect(bytes[, fileSize]): a header's bytes (the file, or its first bytes), as a
// Uint8Array; fileSize, when given, the whole file's size in bytes (then the tensors must end
// within it), else -1 (the bytes may be the start of a file of any size).
function headerBytes(value) {
  if (!(value instanceof Uint8Array)) throw GpuSizerError('bytes', 'bytes: must be a Uint8Array holding a GGUF or safetensors header');
  return value;
}
function fileSize(value) {
  if (value === undefined || value === null) return -1;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0)
    throw GpuSizerError('fileSize', 'fileSize: must be the file\'s size in bytes (a whole number, 0 or more), got ' + String(value));
  return value;
}
// gs.reconcile(text[, config]): a startup log's text.
function logText(value) {
  if (typeof value !== 'string') throw GpuSizerError('log', 'log: must be the text of an engine\'s startup log (a string)');
  return value;
}

function constraints(v) { return v === undefined || v === null ? '' : configText(v, 'constraints'); }
// gs.plan(config[, query]): the search's fields (mode, top, tokens, ...), JSON text or an object.
function query(v) { return v === undefined || v === null ? '' : configText(v, 'query'); }
// gs.simulate(config[, options]): the simulation's fields (requests, seed, trace, ...), JSON text or an object.
function simOptions(v) { return v === undefined || v === null ? '' : configText(v, 'options'); }
// gs.launch(config, engine): vllm, llama-cpp, sglang, ollama or trt-llm.
function engineName(v) {
  if (typeof v !== 'string') throw GpuSizerError('engine', 'engine: must be one of vllm, llama-cpp, sglang, ollama, trt-llm (a string)');
  return v;
}
function reportText(v) {
  if (typeof v !== 'string') throw GpuSizerError('measured', "measured: must be the report's JSON text (a string)");
  checkNesting(v, 'report');
  return v;
}

moreFunctions['estimateMeasured'] = [[config, reportText]];
moreFunctions['recommend'] = [[config, constraints], true];
moreFunctions['fit'] = [[config]];
moreFunctions['plan'] = [[config, query], true];
moreFunctions['simulate'] = [[config, simOptions], true];
moreFunctions['assumptions'] = [[config]];
moreFunctions['launch'] = [[config, engineName]];
moreFunctions['links'] = [[]];
moreFunctions['inspect'] = [[headerBytes, fileSize], true];
moreFunctions['reconcile'] = [[logText, constraints], true];
