// hub.test.mjs: web/site/hub.mjs ("From the Hub") against a local server that plays the Hub:
// the model API, the tree listing, config.json, files behind a redirect to another host (as the
// Hub's LFS files are), Range requests, CORS headers, gated / missing / rate-limited repos, a
// server that ignores Range, and no server at all. Runs in Node.js (fetch, Blob): no browser.
//   node tests/hub.test.mjs
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const hub = await import(pathToFileURL(join(here, '..', 'web', 'site', 'hub.mjs')).href);
const { fromHub, parseRepoId, readHeader, readFileHeader, createHubClient, HubError, kFirstRead, reduceGgufHeader, ggufPartNames } = hub;
const { startFakeHub } = await import(pathToFileURL(join(here, 'fake_hub.mjs')).href);

function listen(handler) {
  return new Promise((resolve) => {
    const s = createServer(handler);
    s.listen(0, '127.0.0.1', () => resolve({ server: s, url: `http://127.0.0.1:${s.address().port}` }));
  });
}

// ---------------------------------------------------------------------------------------------
// A GGUF v3 header writer and reader, just enough for the test (the core's reader is tested in
// tests/test_model_file*.cpp; here inspect only has to accept a whole header and refuse a cut one).
// ---------------------------------------------------------------------------------------------
function ggufHeader({ vocab, tensors }) {
  const parts = [];
  const u32 = (v) => { const b = Buffer.alloc(4); b.writeUInt32LE(v); parts.push(b); };
  const u64 = (v) => { const b = Buffer.alloc(8); b.writeBigUInt64LE(BigInt(v)); parts.push(b); };
  const str = (s) => { const b = Buffer.from(s, 'utf8'); u64(b.length); parts.push(b); };
  parts.push(Buffer.from('GGUF'));
  u32(3);
  u64(tensors.length);
  u64(2);
  str('general.architecture'); u32(8); str('llama');
  str('tokenizer.ggml.tokens'); u32(9); u32(8); u64(vocab);
  for (let i = 0; i < vocab; ++i) str(`tok${i}`);
  let offset = 0;
  for (const t of tensors) {
    str(t.name); u32(t.dims.length); for (const d of t.dims) u64(d); u32(0 /* F32 */); u64(offset);
    offset += t.dims.reduce((a, b) => a * b, 1) * 4;
  }
  const head = Buffer.concat(parts);
  const aligned = Math.ceil(head.length / 32) * 32;
  return { header: Buffer.concat([head, Buffer.alloc(aligned - head.length)]), headerBytes: head.length, dataBytes: offset };
}

// Returns {kv, tensors, header_bytes}; throws RangeError when the bytes end inside the header.
function inspectGguf(bytes) {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let p = 0;
  const need = (n) => { if (p + n > b.length) throw new RangeError(`the file ends at byte ${b.length} (truncated header)`); };
  const u32 = () => { need(4); const v = b.readUInt32LE(p); p += 4; return v; };
  const u64 = () => { need(8); const v = Number(b.readBigUInt64LE(p)); p += 8; return v; };
  const str = () => { const n = u64(); need(n); const s = b.toString('utf8', p, p + n); p += n; return s; };
  need(4);
  if (b.toString('latin1', 0, 4) !== 'GGUF') throw new Error('not a GGUF file (magic)');
  p = 4;
  u32();
  const nt = u64(), nkv = u64();
  for (let i = 0; i < nkv; ++i) {
    str();
    const type = u32();
    if (type === 8) str();
    else if (type === 4) u32();
    else if (type === 9) { const et = u32(); const n = u64(); for (let j = 0; j < n; ++j) { if (et === 8) str(); else throw new Error('array type'); } }
    else throw new Error('kv type');
  }
  const names = [];
  for (let i = 0; i < nt; ++i) { names.push(str()); const nd = u32(); for (let d = 0; d < nd; ++d) u64(); u32(); u64(); }
  return JSON.stringify({ kv: nkv, tensors: names, header_bytes: p });
}

// ---------------------------------------------------------------------------------------------
// The fake Hub: one host for the API and /resolve/, another for the files (the CDN).
// ---------------------------------------------------------------------------------------------
const kDense = 'acme/dense-8b';          // config.json + safetensors, BF16
const kGguf = 'acme/dense-8b-GGUF';      // GGUF files only
const gguf = ggufHeader({ vocab: 200000, tensors: [{ name: 'token_embd.weight', dims: [4096, 1000] }, { name: 'output.weight', dims: [4096, 1000] }] });
const kGgufName = 'dense-8b-Q4_K_M.gguf';
const kGgufBytes = gguf.header.length + 50e6;     // header + 50 MB of (virtual) tensor data
const kCutName = 'dense-8b-cut.gguf';             // a file that ends inside its header
const kCutBytes = 1500000;
const stHeader = Buffer.from(JSON.stringify({ __metadata__: { format: 'pt' }, 'model.embed_tokens.weight': { dtype: 'BF16', shape: [1000, 64], data_offsets: [0, 128000] } }));
const kStName = 'model.safetensors';
const kStBytes = 8 + stHeader.length + 128000;
const hfConfig = { model_type: 'llama', hidden_size: 4096, num_hidden_layers: 32, num_attention_heads: 32, num_key_value_heads: 8, intermediate_size: 14336, vocab_size: 128256 };

const at = (name) => (i) => {
  if (name === kGgufName || name === kCutName) return i < gguf.header.length ? gguf.header[i] : 0;
  if (i < 8) { const b = Buffer.alloc(8); b.writeBigUInt64LE(BigInt(stHeader.length)); return b[i]; }
  return i - 8 < stHeader.length ? stHeader[i - 8] : 0;
};
const fake = await startFakeHub({
  [kDense]: { sha: { main: 'a'.repeat(40), v2: 'b'.repeat(40) }, safetensors: { parameters: { BF16: 8030261248 }, total: 8030261248 },
              config: hfConfig, files: { [kStName]: { size: kStBytes, at: at(kStName) } } },
  // QA E11: a config.json nested 100,000 deep (JSON.stringify of it overflows the stack).
  'acme/deep': { configText: '{"a":'.repeat(100000) + '1' + '}'.repeat(100000) },
  // QA E15: a malformed model API answer and file list (counts that are not whole numbers, sizes
  // null or absurd), and a split name that claims 100 parts.
  'acme/odd': { safetensors: { parameters: { BF16: 8030261248, F32: 'NaN', F16: -1, I8: 1.5 }, total: null }, config: hfConfig,
                files: { 'a.safetensors': { size: null, at: () => 0 }, 'b.safetensors': { size: 1e288, at: () => 0 },
                         'c.safetensors': { size: 4096, at: () => 0 } } },
  'acme/split-GGUF': { files: { 'big-00001-of-00100.gguf': { size: kGgufBytes, at: at(kGgufName) } } },
  [kGguf]: { sha: { main: 'c'.repeat(40) }, extra: ['README.md'],
             files: { [kGgufName]: { size: kGgufBytes, at: at(kGgufName) }, [kCutName]: { size: kCutBytes, at: at(kCutName) } } },
});
const { api, log, state } = fake;

let failures = 0;
async function check(name, fn) {
  log.length = 0;
  state.ignoreRange = false;
  try {
    await fn();
    console.log(`ok   ${name}`);
  } catch (e) {
    failures += 1;
    console.log(`FAIL ${name}\n     ${e?.stack || e}`);
  }
}
async function rejects(promise, kind, pattern) {
  try {
    await promise;
  } catch (e) {
    assert.ok(e instanceof HubError, `a HubError, got ${e}`);
    assert.equal(e.kind, kind, e.message);
    if (pattern) assert.match(e.message, pattern);
    return e;
  }
  assert.fail(`expected a ${kind} error`);
}

await check('repository ids: org/name, @revision, pasted URLs; anything else is refused', () => {
  assert.deepEqual(parseRepoId('Qwen/Qwen3-8B'), { repo: 'Qwen/Qwen3-8B', revision: 'main' });
  assert.deepEqual(parseRepoId(' openai/gpt-oss-20b@v1.0 '), { repo: 'openai/gpt-oss-20b', revision: 'v1.0' });
  assert.deepEqual(parseRepoId('https://huggingface.co/unsloth/Qwen3-30B-A3B-GGUF/tree/main'), { repo: 'unsloth/Qwen3-30B-A3B-GGUF', revision: 'main' });
  for (const bad of ['', 'gpt2', 'a/b/c', '../etc/passwd', 'org/na me', 'org/..', '<script>/x', 'org/name@'])
    assert.throws(() => parseRepoId(bad), (e) => e.kind === 'bad_id');
});

await check('a safetensors repository: config.json as an estimate configuration, BF16 from the parameter counts', async () => {
  const a = JSON.parse(await fromHub(kDense, { endpoint: api.url + '/' }));
  // The repository stays in the model (share links carry it); config.json describes it.
  assert.deepEqual(a.configuration, { model: { hub: kDense, hf_config: hfConfig }, weights: 'bf16' });
  assert.deepEqual(a.parameters, { by_dtype: { BF16: 8030261248 }, total: 8030261248 });
  assert.deepEqual(a.files, [{ path: kStName, bytes: kStBytes }]);
  assert.equal(a.hub.sha, 'a'.repeat(40));
  assert.equal(a.hub.requests, 3);   // model API, tree, config.json
  assert.equal(a.header, null);
});

await check('a revision goes into every request', async () => {
  const a = JSON.parse(await fromHub(`${kDense}@v2`, { endpoint: api.url }));
  assert.equal(a.hub.revision, 'v2');
  assert.equal(a.configuration.model.revision, 'v2');
  assert.equal(a.hub.sha, 'b'.repeat(40));
  assert.deepEqual(log.filter((l) => l.host === 'hub').map((l) => l.path),
    [`/api/models/${kDense}/revision/v2`, `/api/models/${kDense}/tree/v2`, `/${kDense}/resolve/v2/config.json`]);
});

await check('a GGUF header is read by Range requests through the redirect, never the whole file', async () => {
  const a = JSON.parse(await fromHub(kGguf, { endpoint: api.url, file: kGgufName, inspect: inspectGguf }));
  // No config.json: the header describes the model. It travels without the 200,000-token
  // vocabulary (its length becomes llama.vocab_size), with the same tensor infos.
  assert.deepEqual(Object.keys(a.configuration.model), ['hub', 'file', 'gguf_headers']);
  assert.equal(a.configuration.model.file, kGgufName);
  const reduced = Buffer.from(a.configuration.model.gguf_headers[kGgufName], 'base64');
  const r = JSON.parse(inspectGguf(new Uint8Array(reduced)));
  assert.deepEqual(r, { kv: 2, tensors: ['token_embd.weight', 'output.weight'], header_bytes: reduced.length });
  assert.ok(reduced.includes(Buffer.from('llama.vocab_size')) && reduced.readUInt32LE(reduced.indexOf('llama.vocab_size') + 20) === 200000);
  assert.ok(reduced.length < 300, `${reduced.length} bytes`);
  assert.equal(a.header.architecture, 'llama');
  assert.equal(a.header.tensors, 2);
  assert.deepEqual(a.files.map((f) => f.path), [kGgufName, kCutName]);
  assert.deepEqual(a.header.inspect.tensors, ['token_embd.weight', 'output.weight']);
  assert.equal(a.header.inspect.header_bytes, gguf.headerBytes);
  // 200,000 vocabulary strings make a ~2.7 MB header: 1 MiB, then 2, then 4 (only the missing
  // part is requested each time).
  const ranges = log.filter((l) => l.host === 'cdn').map((l) => l.range);
  assert.deepEqual(ranges, ['bytes=0-1048575', 'bytes=1048576-2097151', 'bytes=2097152-4194303']);
  assert.ok(gguf.headerBytes > 2 * kFirstRead && gguf.headerBytes < 4 * kFirstRead, `header ${gguf.headerBytes} B`);
  assert.equal(a.header.bytes_read, 4 * kFirstRead);
  assert.ok(a.hub.bytes_fetched < 4 * kFirstRead + 4096 && a.hub.bytes_fetched < kGgufBytes / 10, `${a.hub.bytes_fetched} bytes fetched`);
});

await check('a safetensors header: inspect gets the 8-byte length and exactly the header', async () => {
  const a = JSON.parse(await fromHub(kDense, { endpoint: api.url, file: kStName,
    inspect: (bytes) => JSON.stringify({ header: JSON.parse(Buffer.from(bytes.subarray(8)).toString()) }) }));
  assert.deepEqual(Object.keys(a.header.inspect.header), ['__metadata__', 'model.embed_tokens.weight']);
  // The file (128 KB of data) is smaller than the first read: one request for all of it.
  assert.deepEqual(log.filter((l) => l.host === 'cdn').map((l) => l.range), [`bytes=0-${kStBytes - 1}`]);
  assert.equal(a.header.bytes_read, kStBytes);
});

await check('answers are kept for the session: the same range is fetched once', async () => {
  const client = createHubClient({ endpoint: api.url });
  const a = await client.range(kGguf, 'main', kGgufName, 0, 4096);
  const b = await client.range(kGguf, 'main', kGgufName, 0, 4096);
  assert.equal(a, b);
  assert.equal(client.stats.requests, 1);
  assert.equal(client.stats.bytes, 4096);
});

await check('a header cut short: read to the end of the file, then the reader\'s message', async () => {
  const e = await rejects(fromHub(kGguf, { endpoint: api.url, file: kCutName, inspect: inspectGguf }), 'unreadable', /goes on past byte 1500000/);
  assert.match(e.message, new RegExp(kCutName));
  const read = log.filter((l) => l.host === 'cdn').reduce((s, l) => s + (l.end - l.begin), 0);
  assert.equal(read, kCutBytes);
});

await check('a server that ignores Range: the first bytes only, then a clear refusal', async () => {
  state.ignoreRange = true;
  await rejects(fromHub(kGguf, { endpoint: api.url, file: kGgufName, inspect: inspectGguf }), 'no_range', /ignores byte ranges/);
  // It answered 200 with the whole 53 MB file: the reader cancelled after the first 1 MiB.
  const first = log.find((l) => l.host === 'cdn');
  assert.equal(first.range, 'bytes=0-1048575');
});

await check('QA E5: a Hub that never answers times out with a message; QA E3: a redirect off the Hub is refused', async () => {
  // A fetch that never answers until it is aborted.
  const hanging = (url, { signal }) => new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('aborted'))));
  const slow = createHubClient({ endpoint: api.url, fetch: hanging, timeoutMs: 50 });
  await rejects(slow.info(kDense, 'main'), 'timeout', /no answer from .* in 0 s\. Try again/);
  // A redirect to another host: not the endpoint's, not https under its name.
  const redirected = async () => ({ ok: true, status: 200, redirected: true, url: 'http://elsewhere.example/x', headers: new Headers(),
    body: null, text: async () => '{"id": "x"}' });
  await rejects(createHubClient({ endpoint: api.url, fetch: redirected }).info(kDense, 'main'), 'bad_redirect', /elsewhere\.example.*not used/);
  await rejects(createHubClient({ endpoint: 'https://huggingface.co', fetch: redirected }).info(kDense, 'main'), 'bad_redirect');
  // The Hub's own CDN hosts are where it sends files: allowed.
  const toCdn = async () => ({ ok: true, status: 200, redirected: true, url: 'https://cas-bridge.xethub.hf.co/x', headers: new Headers(),
    body: null, text: async () => '{"id": "x"}' });
  assert.deepEqual(await createHubClient({ endpoint: 'https://huggingface.co', fetch: toCdn }).info(kDense, 'main'), { id: 'x' });
  // The fake Hub's CDN (the same host, another port) is its own: every other test goes through it.
});

await check('gated, missing, rate-limited, not JSON, no such file, no server: each says what to do', async () => {
  await rejects(fromHub('acme/gated-model', { endpoint: api.url }), 'gated', /gated or private.*paste or open/);
  await rejects(fromHub('acme/nothing-here', { endpoint: api.url }), 'not_found', /HTTP 404/);
  await rejects(fromHub('acme/busy', { endpoint: api.url }), 'rate_limited', /retry after 30 s/);
  await rejects(fromHub('acme/broken', { endpoint: api.url }), 'bad_response', /not JSON/);
  await rejects(fromHub(kGguf, { endpoint: api.url, file: 'other.gguf', inspect: inspectGguf }), 'not_found', new RegExp(kGgufName));
  const closed = await listen(() => {});
  const dead = closed.url;
  await new Promise((r) => closed.server.close(r));
  await rejects(fromHub(kDense, { endpoint: dead }), 'offline', /offline.*CORS/);
});

await check('QA E11: a config.json nested 100,000 deep is refused with a message, not a stack overflow', async () => {
  await rejects(fromHub('acme/deep', { endpoint: api.url }), 'bad_response', /config\.json in acme\/deep@main is nested more than 100 levels deep/);
  // The bound: 100 levels pass the check, 101 do not (the core then reads or refuses the config).
  assert.equal(hub.jsonDepth('{"a":'.repeat(100) + '1' + '}'.repeat(100)), 100);
  assert.equal(hub.jsonDepth('["[[[", {"x": "{{"}]'), 2);   // brackets inside strings do not count
});

await check('QA E15: counts and sizes that are not whole numbers are dropped, not shown as NaN or 1e288', async () => {
  const a = JSON.parse(await fromHub('acme/odd', { endpoint: api.url }));
  // Only BF16 is a whole, non-negative count; the total, missing, is their sum.
  assert.deepEqual(a.parameters, { by_dtype: { BF16: 8030261248 }, total: 8030261248 });
  assert.deepEqual(a.files, [{ path: 'a.safetensors', bytes: null }, { path: 'b.safetensors', bytes: null }, { path: 'c.safetensors', bytes: 4096 }]);
  assert.equal(hub.byteCount(2 ** 53), null);
  assert.equal(hub.byteCount(2 ** 53 - 1), 2 ** 53 - 1);
});

await check('QA E15: a split file of more than 64 parts is read only when asked', async () => {
  const file = 'big-00001-of-00100.gguf';
  await rejects(fromHub('acme/split-GGUF', { endpoint: api.url, file }), 'too_many_parts', /split into 100 parts.*more than the 64 read without asking/);
  // No part was requested: the refusal comes before the first Range request.
  assert.deepEqual(log.filter((l) => l.host === 'cdn'), []);
  // Asked for, the parts are read: the first, then the second, which this repository lacks.
  await rejects(fromHub('acme/split-GGUF', { endpoint: api.url, file, maxParts: 100 }), 'not_found', /has no big-00002-of-00100\.gguf/);
});

await check('a local file is read by slices, never whole', async () => {
  const whole = Buffer.concat([gguf.header, Buffer.alloc(3 << 20)]);
  let sliced = 0;
  const file = new File([whole], 'local.gguf');
  const spy = { name: file.name, size: file.size, slice: (a, b) => { sliced += b - a; return file.slice(a, b); } };
  const r = await readFileHeader(spy, inspectGguf);
  assert.equal(JSON.parse(r.inspect).header_bytes, gguf.headerBytes);
  assert.equal(sliced, 4 * kFirstRead);
  assert.ok(sliced < whole.length);
});

await check('split GGUF files: every part, by llama.cpp\'s names', () => {
  assert.deepEqual(ggufPartNames('q/m-00002-of-00003.gguf'), ['q/m-00001-of-00003.gguf', 'q/m-00002-of-00003.gguf', 'q/m-00003-of-00003.gguf']);
  assert.deepEqual(ggufPartNames('m-Q4_K_M.gguf'), ['m-Q4_K_M.gguf']);
  assert.deepEqual(ggufPartNames('m-00004-of-00003.gguf'), ['m-00004-of-00003.gguf']);
});

await check('reduceGgufHeader refuses what is not a GGUF header, and absurd counts', () => {
  assert.throws(() => reduceGgufHeader(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8])), /not a GGUF file/);
  const b = Buffer.concat([Buffer.from('GGUF'), Buffer.from([3, 0, 0, 0]), Buffer.alloc(8, 0xff), Buffer.alloc(8)]);
  assert.throws(() => reduceGgufHeader(new Uint8Array(b)), /tensor count .* is more than/);
  assert.throws(() => reduceGgufHeader(new Uint8Array(b.subarray(0, 10))), RangeError);
});

await check('readHeader stops at its cap', async () => {
  const read = async (a, b) => new Uint8Array(Math.max(0, b - a));   // GGUF magic never comes
  await rejects(readHeader(read, 1e9, 'zeros.gguf', inspectGguf, { maxBytes: 1 << 20 }), 'unreadable', /magic/);
});

await fake.close();
if (failures) {
  console.log(`${failures} failed`);
  process.exit(1);
}
console.log('all passed');
