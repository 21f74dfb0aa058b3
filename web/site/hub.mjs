// hub.mjs: "From the Hub". Reads what sizing needs from a Hugging Face repository without
// downloading weights: config.json, the parameter counts by dtype (the model API), the list of
// files with their sizes (the tree API) and, for a chosen GGUF or safetensors file, its header
// only, by HTTP Range requests. A local File is read the same way, by slices, never uploaded.
//
//   import { fromHub, readFileHeader, parseRepoId } from './hub.mjs';
//   const answer = await fromHub('Qwen/Qwen3-8B@main', { inspect: (bytes, size) => gs.inspect(bytes) });
//
// Every failure is a HubError whose `kind` says what happened (bad_id, not_found, gated,
// rate_limited, offline, timeout, bad_redirect, server, bad_response, no_range, too_large,
// too_many_parts, unreadable) and whose
// message says what to do next. The Hub's address is an option (`endpoint`), so that mirrors
// and the test suite (tests/hub.test.mjs, a local server playing the Hub) can point it elsewhere.
//
// Hub endpoints used (huggingface.co/docs/hub/api, huggingface_hub's HfApi):
//   GET {endpoint}/api/models/{repo}/revision/{rev}     id, sha, gated, safetensors {parameters, total}
//   GET {endpoint}/api/models/{repo}/tree/{rev}          [{type, path, size, lfs?: {size}}]
//   GET {endpoint}/{repo}/resolve/{rev}/{file}           the file (LFS files redirect to a CDN host)

export const kDefaultEndpoint = 'https://huggingface.co';

// How much of a GGUF file is read at first, and at most. A GGUF header holds the tokenizer's
// vocabulary: ~4-8 MiB for a 150k-260k token vocabulary (strings + scores + types), so the
// reader starts at 1 MiB and doubles; 64 MiB is far above any published header.
export const kFirstRead = 1 << 20;
export const kMaxHeaderBytes = 64 << 20;
// A safetensors header is an 8-byte length and that much JSON; the format caps it at 100 MB
// (safetensors' MAX_HEADER_SIZE), we at the same 64 MiB as GGUF.
const kSafetensorsLengthBytes = 8;

// A message as words with values in them: its English text is the message (String(phrase)),
// and a page in another language shows t(phrase.text) with the same values, each a Phrase in turn
// or a plain value (hub-panel.js; the rows are assets/strings.json's, "in": page). t() here makes
// one; the messages of the GGUF reader below, like the core's, stay English.
export class Phrase {
  constructor(text, args) {
    this.text = text;
    this.args = args;
  }
  toString() {
    let i = 0;
    return this.text.replace(/%[s%]/g, (c) => (c === '%%' ? '%' : String(this.args[i++])));
  }
}
const t = (text, ...args) => new Phrase(text, args);

// `message`: a Phrase (kept as `phrase`) or a string.
export class HubError extends Error {
  constructor(kind, message) {
    super(String(message));
    this.name = 'HubError';
    this.kind = kind;
    if (message instanceof Phrase) this.phrase = message;
  }
}

// 'org/name' or 'org/name@revision'; also accepts a pasted huggingface.co URL.
export function parseRepoId(text) {
  let s = String(text ?? '').trim();
  const url = s.match(/^https?:\/\/[^/]+\/([^/?#]+\/[^/?#@]+)(?:\/(?:tree|blob|resolve)\/([^/?#]+))?/);
  if (url) s = url[1] + (url[2] ? '@' + decodeURIComponent(url[2]) : '');
  const m = s.match(/^([A-Za-z0-9][\w.-]{0,95})\/([A-Za-z0-9][\w.-]{0,95})(?:@([\w./-]{1,200}))?$/);
  if (!m || s.includes('..'))
    throw new HubError('bad_id', t('"%s" is not a repository id: write it as org/name or org/name@revision, e.g. Qwen/Qwen3-8B.', String(text).slice(0, 80)));
  return { repo: `${m[1]}/${m[2]}`, revision: m[3] || 'main' };
}

// The deepest nesting of arrays and objects in JSON text, counted without recursion. An answer
// nested deeper than kMaxJsonDepth is refused before it is parsed: JSON.stringify (the answer is
// handed on as JSON text) recurses, and a config.json nested 100,000 deep overflowed the stack
// with a bare "Maximum call stack size exceeded" (QA E11). A config.json nests 3 or 4 levels;
// the core refuses more than 100 (web/api_post.js's kMaxDepth) anyway.
export const kMaxJsonDepth = 100;
export function jsonDepth(text) {
  let depth = 0, most = 0, inString = false;
  for (let i = 0; i < text.length; ++i) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) ++i;                    // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) most = Math.max(most, ++depth);   // [ {
    else if ((c === 93 || c === 125) && depth > 0) --depth;            // ] }
  }
  return most;
}
function parseAnswer(text, what) {
  if (jsonDepth(text) > kMaxJsonDepth)
    throw new HubError('bad_response', t("%s is nested more than %s levels deep; a model's config.json nests 3 or 4. It is not used.", what, kMaxJsonDepth));
  try {
    return JSON.parse(text);
  } catch {
    throw new HubError('bad_response', t('%s: the answer is not JSON.', what));
  }
}

function describeStatus(status, what, headers) {
  const code = headers?.get?.('x-error-code') || '';
  if (status === 401 || status === 403 || code === 'GatedRepo')
    return new HubError('gated', t('%s: the Hub refuses access (HTTP %s). The repository is gated or private: accept its licence on the Hub and download config.json or the file, then paste or open it here.',
      what, status + (code ? ', ' + code : '')));
  if (status === 404)
    return new HubError('not_found', t('%s: not found (HTTP 404). Check the repository id, the revision and the file name.', what));
  if (status === 429) {
    const retry = headers?.get?.('retry-after');
    return new HubError('rate_limited', retry ? t('%s: the Hub is rate-limiting requests (HTTP 429); retry after %s s. Wait a minute and try again, or paste config.json.', what, retry)
      : t('%s: the Hub is rate-limiting requests (HTTP 429). Wait a minute and try again, or paste config.json.', what));
  }
  if (status === 416)
    return new HubError('no_range', t('%s: the server refused the byte range (HTTP 416).', what));
  return new HubError('server', t('%s: the Hub answered HTTP %s. Try again later, or paste config.json / open the file.', what, status));
}

// A request with no answer in this long has none (QA E5: a Hub that never answered left the
// panel "Fetching..." for as long as the page stayed open); the reader can try again.
export const kRequestTimeoutMs = 30000;

// Where a Hub's redirect may lead (QA E3): the endpoint's own host; for the Hugging Face Hub its
// CDN hosts (https, under huggingface.co or hf.co: cdn-lfs.huggingface.co, cas-bridge.xethub.hf.co);
// for a mirror, https hosts under its own name. A browser follows a redirect before the page can
// see it, so an answer from anywhere else is refused, not used.
function redirectCheck(base) {
  const b = new URL(base);
  const hf = (h) => h === 'huggingface.co' || h.endsWith('.huggingface.co') || h === 'hf.co' || h.endsWith('.hf.co');
  return (target) => {
    let t;
    try {
      t = new URL(target);
    } catch {
      return false;
    }
    if (t.hostname === b.hostname) return t.protocol === b.protocol || t.protocol === 'https:';
    return t.protocol === 'https:' && (hf(b.hostname) ? hf(t.hostname) : t.hostname.endsWith('.' + b.hostname));
  };
}

// A client for one endpoint: every request goes through it, so it counts requests and bytes and
// keeps answers for the session (same URL and range: same answer).
// Answers kept for the session, by endpoint (fromHub's clients share them; a failure is not kept).
const sessionCaches = new Map();

export function createHubClient({ endpoint = kDefaultEndpoint, fetch: fetchFn = globalThis.fetch, onProgress = null, session = false,
  timeoutMs = kRequestTimeoutMs } = {}) {
  const base = String(endpoint).replace(/\/+$/, '');
  const redirectAllowed = redirectCheck(base);
  if (session && !sessionCaches.has(base)) sessionCaches.set(base, new Map());
  const cache = session ? sessionCaches.get(base) : new Map();
  const stats = { requests: 0, bytes: 0 };

  async function request(path, what, { range = null, as = 'json' } = {}) {
    const url = base + path;
    const key = url + (range ? `#${range[0]}-${range[1]}` : '');
    if (cache.has(key)) {
      onProgress?.({ phase: 'cached', what: String(what), words: what, url, range });
      return cache.get(key);
    }
    const headers = range ? { Range: `bytes=${range[0]}-${range[1] - 1}` } : {};
    onProgress?.({ phase: 'request', what: String(what), words: what, url, range });
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), timeoutMs);
    try {
      return await answer(url, key, what, range, as, headers, abort.signal);
    } catch (e) {
      if (abort.signal.aborted && !(e instanceof HubError))
        throw new HubError('timeout', t('%s: no answer from %s in %s s. Try again, or paste config.json / open the file instead.', what, base, Math.round(timeoutMs / 1000)));
      throw e;
    } finally {
      clearTimeout(timer);
    }
  }

  async function answer(url, key, what, range, as, headers, signal) {
    let res;
    try {
      res = await fetchFn(url, { headers, redirect: 'follow', signal });
    } catch (e) {
      if (signal.aborted) throw e;
      throw new HubError('offline', t('%s: no answer from %s (%s). You may be offline, or the server does not allow this page to read it (CORS). Paste config.json or open the file instead.',
        what, base, e?.message || e));
    }
    if (res.redirected && !redirectAllowed(res.url)) {
      res.body?.cancel?.().catch(() => {});
      throw new HubError('bad_redirect', t("%s: %s sent the request on to %s, which is not the Hub's; its answer is not used.", what, base, new URL(res.url).origin));
    }
    stats.requests += 1;
    if (!res.ok) throw describeStatus(res.status, what, res.headers);
    let body;
    if (range) {
      // A server that ignores Range answers 200 with the whole file. From byte 0 that is the
      // same bytes (read no more than asked, then cancel); from further on it is not.
      if (res.status !== 206 && range[0] !== 0) {
        res.body?.cancel?.().catch(() => {});
        throw new HubError('no_range', t('%s: the server ignores byte ranges; gpusizer reads headers only and will not download the whole file.', what));
      }
      body = await readAtMost(res, range[1] - range[0], what);
    } else if (as === 'json') {
      const text = await res.text();
      stats.bytes += text.length;
      body = parseAnswer(text, what);
    } else {
      body = await res.text();
      stats.bytes += body.length;
    }
    onProgress?.({ phase: 'done', what: String(what), words: what, url, bytes: stats.bytes, requests: stats.requests });
    cache.set(key, body);
    return body;
  }

  async function readAtMost(res, limit, what) {
    const out = new Uint8Array(limit);
    let n = 0;
    if (res.body?.getReader) {
      const reader = res.body.getReader();
      while (n < limit) {
        const { done, value } = await reader.read();
        if (done) break;
        const take = Math.min(value.length, limit - n);
        out.set(value.subarray(0, take), n);
        n += take;
      }
      reader.cancel().catch(() => {});
    } else {
      const all = new Uint8Array(await res.arrayBuffer());
      n = Math.min(all.length, limit);
      out.set(all.subarray(0, n));
    }
    stats.bytes += n;
    onProgress?.({ phase: 'bytes', what: String(what), words: what, bytes: stats.bytes });
    return out.subarray(0, n);
  }

  const enc = (s) => s.split('/').map(encodeURIComponent).join('/');
  return {
    endpoint: base,
    stats,
    info: (repo, rev) => request(`/api/models/${enc(repo)}/revision/${encodeURIComponent(rev)}`, `${repo}@${rev}`),
    tree: (repo, rev) => request(`/api/models/${enc(repo)}/tree/${encodeURIComponent(rev)}?recursive=true`, t('the file list of %s', `${repo}@${rev}`)),
    text: (repo, rev, file) => request(`/${enc(repo)}/resolve/${encodeURIComponent(rev)}/${enc(file)}`, t('%s in %s', file, `${repo}@${rev}`), { as: 'text' }),
    range: (repo, rev, file, begin, end) =>
      request(`/${enc(repo)}/resolve/${encodeURIComponent(rev)}/${enc(file)}`, t('%s in %s', file, `${repo}@${rev}`), { range: [begin, end] }),
  };
}

// A file's first bytes, grown until `inspect` accepts them. `read(begin, end)` returns the
// bytes of [begin, end) (fewer only at the end of the file). GGUF: start at kFirstRead and
// double; safetensors: the 8-byte length, then the header (inspect gets exactly the header).
// Only the missing part is read each time.
export async function readHeader(read, fileSize, name, inspect, { maxBytes = kMaxHeaderBytes } = {}) {
  const size = Number.isFinite(fileSize) && fileSize > 0 ? fileSize : Infinity;
  let have = new Uint8Array(0);
  const grow = async (want) => {
    want = Math.min(want, size);
    if (want <= have.length) return;
    const more = await read(have.length, want);
    const next = new Uint8Array(have.length + more.length);
    next.set(have);
    next.set(more, have.length);
    have = next;
  };
  await grow(Math.min(kFirstRead, maxBytes));
  const magic = String.fromCharCode(...have.subarray(0, 4));
  if (magic !== 'GGUF' && have.length >= kSafetensorsLengthBytes && /\.safetensors$/i.test(name)) {
    const view = new DataView(have.buffer, have.byteOffset, have.byteLength);
    const n = Number(view.getBigUint64(0, true));
    if (n > maxBytes) throw new HubError('too_large', t('%s: its header says %s bytes, more than the %s gpusizer reads.', name, n, maxBytes));
    await grow(kSafetensorsLengthBytes + n);
    const header = have.subarray(0, kSafetensorsLengthBytes + n);
    return { bytes: header, fetched: have.length, result: inspect(header, fileSize) };
  }
  // GGUF (or an unknown file, which inspect refuses by its magic): grow until it parses.
  for (;;) {
    try {
      return { bytes: have, fetched: have.length, result: inspect(have, fileSize) };
    } catch (e) {
      // A header cut short and a broken one look alike from outside; read on while the file
      // has more and the cap allows, then report inspect's own message.
      const atEnd = have.length >= size;
      if (atEnd || have.length >= maxBytes || magic !== 'GGUF')
        throw new HubError('unreadable', have.length >= maxBytes && !atEnd ? t('%s: %s (after reading %s bytes, the most gpusizer reads)', name, e?.message || e, have.length)
          : `${name}: ${e?.message || e}`);
      const before = have.length;
      await grow(Math.min(have.length * 2, maxBytes));
      if (have.length === before) throw new HubError('unreadable', `${name}: ${e?.message || e}`);
    }
  }
}

// A local File (picked or dropped): its header, read by slices.
export async function readFileHeader(file, inspect, options = {}) {
  const read = async (begin, end) => new Uint8Array(await file.slice(begin, end).arrayBuffer());
  const { fetched, result } = await readHeader(read, file.size, file.name, inspect, options);
  return { file: file.name, file_bytes: file.size, bytes_read: fetched, inspect: result };
}

// A GGUF header as a configuration carries it (core/src/hub_model.cpp): the same metadata and
// tensor infos without the arrays longer than kKeptArrayItems (the tokenizer's tokens, scores,
// types and merges: 4-8 MiB of a header), their length kept as {arch}.vocab_size, so that a
// 1,000-tensor model's header is some 65 KB. Throws a RangeError while `bytes` end inside the
// header (readHeader then reads more), an Error when they are not a GGUF header.
// Format: github.com/ggml-org/ggml docs/gguf.md (version 2 and 3: 64-bit counts and lengths).
const kKeptArrayItems = 4096;   // the core's kGgufMaxKeptArrayItems: it keeps no more items either
const kGgufCaps = { kv: 1 << 16, tensors: 1 << 18, string: 64 << 20, array: 1 << 26, dims: 4, nesting: 4 };
const kScalarBytes = { 0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8 };

export function reduceGgufHeader(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let p = 0;
  const need = (n) => { if (p + n > bytes.length) throw new RangeError(`the header goes on past byte ${bytes.length}`); };
  const u32 = () => { need(4); const v = view.getUint32(p, true); p += 4; return v; };
  const u64 = (cap, what) => {
    need(8);
    const v = view.getBigUint64(p, true);
    p += 8;
    if (v > BigInt(cap)) throw new Error(`GGUF header: ${what} ${v} is more than ${cap}`);
    return Number(v);
  };
  const str = () => { const n = u64(kGgufCaps.string, 'a string length'); need(n); const s = p; p += n; return bytes.subarray(s, p); };
  const text = (b) => new TextDecoder().decode(b);
  const skipValue = (type, depth) => {
    if (type === 8) return void str();
    if (type === 9) {
      if (depth >= kGgufCaps.nesting) throw new Error('GGUF header: arrays nested too deep');
      const item = u32();
      const count = u64(kGgufCaps.array, 'an array length');
      if (kScalarBytes[item] !== undefined) { need(count * kScalarBytes[item]); p += count * kScalarBytes[item]; return count; }
      for (let i = 0; i < count; ++i) skipValue(item, depth + 1);
      return count;
    }
    if (kScalarBytes[type] === undefined) throw new Error(`GGUF header: unknown value type ${type}`);
    need(kScalarBytes[type]);
    p += kScalarBytes[type];
  };
  need(4);
  if (text(bytes.subarray(0, 4)) !== 'GGUF') throw new Error('not a GGUF file (its first bytes are not "GGUF")');
  p = 4;
  const version = u32();
  if (version !== 2 && version !== 3) throw new Error(`GGUF version ${version}: gpusizer reads versions 2 and 3`);
  const nTensors = u64(kGgufCaps.tensors, 'the tensor count');
  const nKv = u64(kGgufCaps.kv, 'the metadata count');
  const kept = [];
  let arch = '', tokens = 0;
  const keys = new Set();
  for (let i = 0; i < nKv; ++i) {
    const start = p;
    const key = text(str());
    const type = u32();
    const valueAt = p;
    const count = skipValue(type, 0);
    keys.add(key);
    if (key === 'general.architecture' && type === 8) arch = text(bytes.subarray(valueAt + 8, p));
    if (key === 'tokenizer.ggml.tokens' && type === 9) tokens = count;
    if (type === 9 && count > kKeptArrayItems) continue;
    kept.push(bytes.subarray(start, p));
  }
  const infoStart = p;
  for (let i = 0; i < nTensors; ++i) {
    str();
    const dims = u32();
    if (dims > kGgufCaps.dims) throw new Error(`GGUF header: tensor ${i} has ${dims} dimensions`);
    need(dims * 8 + 4 + 8);
    p += dims * 8 + 4 + 8;
  }
  const infos = bytes.subarray(infoStart, p);
  // {arch}.vocab_size (u32) when the token list is left out and the file does not state it.
  const extra = [];
  if (arch && !keys.has(`${arch}.vocab_size`) && tokens > kKeptArrayItems) {
    const name = new TextEncoder().encode(`${arch}.vocab_size`);
    const b = new Uint8Array(8 + name.length + 4 + 4);
    const v = new DataView(b.buffer);
    v.setBigUint64(0, BigInt(name.length), true);
    b.set(name, 8);
    v.setUint32(8 + name.length, 4, true);
    v.setUint32(12 + name.length, tokens, true);
    extra.push(b);
  }
  const parts = [...kept, ...extra];
  const head = new Uint8Array(24);
  const hv = new DataView(head.buffer);
  head.set(bytes.subarray(0, 8));
  hv.setBigUint64(8, BigInt(nTensors), true);
  hv.setBigUint64(16, BigInt(parts.length), true);
  const out = new Uint8Array(24 + parts.reduce((s, b) => s + b.length, 0) + infos.length);
  let o = 24;
  out.set(head);
  for (const b of parts) { out.set(b, o); o += b.length; }
  out.set(infos, o);
  return { bytes: out, header_bytes: p, architecture: arch, tensors: nTensors };
}

// RFC 4648 base64 (btoa's alphabet), in chunks: String.fromCharCode takes a bounded argument list.
export function toBase64(bytes) {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

// A size or a count from the Hub's answers: a whole number from 0 to 2^53, else null (QA E15:
// "null B" and "1.0000000000000001e+288 TB" in the file list).
export function byteCount(n) {
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 ? n : null;
}

// The part names of a split GGUF file (llama.cpp's llama_split_path: "%s-%05d-of-%05d.gguf"),
// or the name itself.
export function ggufPartNames(file) {
  const m = /^(.*)-(\d{5})-of-(\d{5})\.gguf$/i.exec(file);
  if (!m || Number(m[3]) < 1 || Number(m[2]) > Number(m[3]) || Number(m[3]) > 4096) return [file];
  return Array.from({ length: Number(m[3]) }, (_, i) => `${m[1]}-${String(i + 1).padStart(5, '0')}-of-${m[3]}.gguf`);
}

// The weight format a configuration names for a checkpoint stored in one dtype.
const kDtypeFormat = { BF16: 'bf16', F16: 'fp16', F32: 'fp32', F8_E4M3: 'fp8', F8_E5M2: 'fp8' };

// Everything gpusizer needs from a repository, as JSON text:
//   configuration   a configuration `estimate` accepts: {"model": {"hub": repo, "revision"?,
//                   "hf_config"}, "weights"?} from config.json, or with `file` (a GGUF file)
//                   {"model": {"hub", "revision"?, "file", "gguf_headers": {part: base64}}} (the
//                   header of every split part, reduced by reduceGgufHeader; model.source "hub");
//                   null when there is nothing to size (a GGUF-only repository and no file chosen)
//   hub             repo, revision, sha, endpoint, file, requests, bytes_fetched
//   parameters      {by_dtype, total} from the model API (safetensors checkpoints)
//   files           the repository's .gguf / .safetensors files with their sizes
//   header          when `file` is given: {file, file_bytes, bytes_read, tensors, architecture,
//                   inspect: `inspect`'s answer for the first part (when given)}
// `inspect(bytes, fileSize)` reads a GGUF or safetensors header (the API's gs.inspect); a GGUF
// file needs none, a safetensors file does.
// `session: true` keeps the answers for the page's session (the app's Hub panel).
// `maxParts`: a split GGUF file of more parts is refused (kind too_many_parts) unless raised.
export const kMaxPartsUnasked = 64;
export async function fromHub(id, { endpoint, revision, file, fetch, inspect, onProgress, session = false, timeoutMs, maxParts = kMaxPartsUnasked } = {}) {
  const parsed = parseRepoId(id);
  const rev = revision || parsed.revision;
  const hub = createHubClient({ endpoint, fetch, onProgress, session, timeoutMs });
  const info = await hub.info(parsed.repo, rev);
  if (info === null || typeof info !== 'object' || Array.isArray(info))
    throw new HubError('bad_response', t("%s: the model API's answer is not an object.", `${parsed.repo}@${rev}`));
  const tree = await hub.tree(parsed.repo, rev);
  if (!Array.isArray(tree)) throw new HubError('bad_response', t('the file list of %s is not a list.', `${parsed.repo}@${rev}`));
  const files = tree
    .filter((e) => e && e.type === 'file' && typeof e.path === 'string' && /\.(gguf|safetensors)$/i.test(e.path))
    .map((e) => ({ path: e.path, bytes: byteCount(e.lfs ? e.lfs.size : e.size) }));
  const hasConfig = tree.some((e) => e && e.path === 'config.json');

  const answer = {
    configuration: null,
    hub: { repo: parsed.repo, revision: rev, sha: typeof info.sha === 'string' ? info.sha : null, endpoint: hub.endpoint, file: file || null },
    parameters: null,
    files,
    header: null,
  };
  const model = { hub: parsed.repo };
  if (rev !== 'main') model.revision = rev;
  const st = info.safetensors;
  // Counts that are whole numbers only (QA E15: a malformed answer showed "F32 NaN B").
  if (st && typeof st === 'object' && st.parameters && typeof st.parameters === 'object') {
    const byDtype = {};
    for (const [k, n] of Object.entries(st.parameters)) if (byteCount(n) !== null) byDtype[k] = n;
    const sum = Object.values(byDtype).reduce((a, n) => a + n, 0);
    if (sum > 0) answer.parameters = { by_dtype: byDtype, total: byteCount(st.total) || sum };
  }

  const gguf = file && /\.gguf$/i.test(file);
  if (hasConfig && !gguf) {
    const text = await hub.text(parsed.repo, rev, 'config.json');
    let hfConfig;
    try {
      hfConfig = parseAnswer(text, t('%s in %s', 'config.json', `${parsed.repo}@${rev}`));
    } catch (e) {
      throw e.message.includes('nested') ? e : new HubError('bad_response', t('%s is not JSON.', t('%s in %s', 'config.json', `${parsed.repo}@${rev}`)));
    }
    answer.configuration = { model: { ...model, hf_config: hfConfig } };
    // One dtype for (nearly) every parameter: that is the checkpoint's weight format.
    if (answer.parameters && !hfConfig.quantization_config) {
      const entries = Object.entries(answer.parameters.by_dtype).filter(([, n]) => Number(n) > 0);
      const total = entries.reduce((s, [, n]) => s + Number(n), 0);
      const [dtype, n] = entries.sort((a, b) => Number(b[1]) - Number(a[1]))[0] || [];
      if (dtype && kDtypeFormat[dtype] && n / total > 0.99) answer.configuration.weights = kDtypeFormat[dtype];
    }
  }

  if (file) {
    const entry = files.find((f) => f.path === file);
    if (!entry)
      throw new HubError('not_found', t('%s has no file %s: pick one of %s.', `${parsed.repo}@${rev}`, file,
        files.map((f) => f.path).slice(0, 8).join(', ') || t('(no .gguf or .safetensors files)')));
    if (!gguf && typeof inspect !== 'function') throw new HubError('unreadable', t('reading a safetensors header needs the inspect function (gs.inspect).'));
    const headers = {};
    let bytesRead = 0, first = null;
    // Every part of a split file: each holds its own tensors. A name can claim up to 4,096 parts,
    // each at least one Range request: more than maxParts wait for the caller to ask for them
    // (QA E15: a link made 4,096 requests on its own).
    const parts = gguf ? ggufPartNames(file) : [file];
    if (parts.length > maxParts)
      throw new HubError('too_many_parts', t("%s is split into %s parts, and each part's header takes a Range request or more: more than the %s read without asking. Ask for all %s to read them (maxParts).",
        file, parts.length, maxParts, parts.length));
    for (const part of parts) {
      const partEntry = files.find((f) => f.path === part);
      if (!partEntry) throw new HubError('not_found', t('%s has no %s, a part of the split file %s.', `${parsed.repo}@${rev}`, part, file));
      const read = (begin, end) => hub.range(parsed.repo, rev, part, begin, end);
      // A GGUF header is complete when reduceGgufHeader reads it to its end; `inspect` (when
      // given) reads the first part for the answer.
      const check = (bytes, size) => {
        const reduced = gguf ? reduceGgufHeader(bytes) : null;
        return { reduced, inspected: typeof inspect === 'function' && first === null ? inspect(bytes, size) : null };
      };
      onProgress?.({ phase: 'header', what: part });
      const { fetched, result } = await readHeader(read, partEntry.bytes ?? NaN, part, check);
      bytesRead += fetched;
      if (gguf) headers[part] = toBase64(result.reduced.bytes);
      if (first === null) first = { entry, result };
    }
    const inspected = first.result.inspected;
    answer.header = {
      file, file_bytes: gguf ? ggufPartNames(file).reduce((s, p) => s + (files.find((f) => f.path === p)?.bytes || 0), 0) : entry.bytes,
      bytes_read: bytesRead, parts: gguf ? Object.keys(headers).length : 1,
      architecture: first.result.reduced?.architecture ?? null, tensors: first.result.reduced?.tensors ?? null,
      inspect: typeof inspected === 'string' ? JSON.parse(inspected) : inspected,
    };
    if (gguf) answer.configuration = { model: { ...model, file, gguf_headers: headers } };
  }
  if (!hasConfig && !file && files.length === 0)
    throw new HubError('not_found', t('%s has neither config.json nor .gguf / .safetensors files: it is not a model gpusizer can read.', `${parsed.repo}@${rev}`));

  answer.hub.requests = hub.stats.requests;
  answer.hub.bytes_fetched = hub.stats.bytes;
  return JSON.stringify(answer);
}
