// fake_hub.mjs: a local HTTP server that plays the Hugging Face Hub, for tests/hub.test.mjs
// (Node) and tests/browser/hub.test.mjs (the app in Chromium). Two hosts, as on the Hub: the
// API and /resolve/ on one, the files on another (the CDN the Hub redirects LFS files to).
//
//   const hub = await startFakeHub({'acme/m': {sha, safetensors, config, files: {name: file}}});
//   (configText in place of config: config.json's text as given, such as JSON too deep to write)
//   hub.api.url, hub.cdn.url, hub.log (each request), hub.state.ignoreRange, hub.state.slow ({repo: ms}),
//   hub.close()
//
// A file is a Buffer (served as is) or {size, at(i)} (byte i of a virtual file: big files cost
// no memory). Repos named acme/gated* answer 401 (X-Error-Code: GatedRepo), acme/busy* 429 with
// Retry-After: 30, acme/broken* 200 with HTML, acme/nocors* 200 without CORS headers (a browser
// page on another origin may not read it); any other unknown path 404 (RepoNotFound).
// Every other answer carries CORS headers, so a page on another origin can read it.
// Endpoints (huggingface.co/docs/hub/api):
//   GET /api/models/{repo}/revision/{rev}   {id, sha, safetensors?}
//   GET /api/models/{repo}/tree/{rev}       [{type, path, size, lfs?: {size}}]
//   GET /{repo}/resolve/{rev}/{file}        config.json, or a 302 to the CDN for other files
import { createServer } from 'node:http';

export const kCors = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Headers': 'Range',
  'Access-Control-Expose-Headers': 'Content-Range, Content-Length, X-Error-Code, Retry-After',
};

function listen(handler) {
  return new Promise((resolve) => {
    const s = createServer(handler);
    s.listen(0, '127.0.0.1', () => resolve({ server: s, url: `http://127.0.0.1:${s.address().port}` }));
  });
}

const sizeOf = (f) => (Buffer.isBuffer(f) ? f.length : f.size);
const byteOf = (f, i) => (Buffer.isBuffer(f) ? f[i] : f.at(i));

export async function startFakeHub(repos) {
  const log = [];
  const state = { ignoreRange: false, slow: {} };
  // The CDN's paths: /{repo}/{file}.
  const find = (path) => {
    for (const [repo, r] of Object.entries(repos))
      if (path.startsWith(repo + '/') && r.files?.[path.slice(repo.length + 1)] !== undefined) return { repo, name: path.slice(repo.length + 1), file: r.files[path.slice(repo.length + 1)] };
    return null;
  };

  function serveFile(req, res, name, file) {
    const size = sizeOf(file);
    const m = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range || '');
    let begin = 0, end = size;
    if (req.method === 'OPTIONS') return res.writeHead(204, kCors).end();
    if (m && !state.ignoreRange) {
      begin = Number(m[1]);
      end = Math.min(size, Number(m[2]) + 1);
      if (begin >= size) return res.writeHead(416, { ...kCors, 'Content-Range': `bytes */${size}` }).end();
      res.writeHead(206, { ...kCors, 'Content-Range': `bytes ${begin}-${end - 1}/${size}`, 'Content-Length': end - begin });
    } else {
      res.writeHead(200, { ...kCors, 'Content-Length': size });
    }
    log.push({ host: 'cdn', file: name, begin, end, range: req.headers.range || null });
    // Stream in 64 KiB chunks; stop when the client goes away (a reader that read enough).
    let i = begin;
    const pump = () => {
      while (i < end) {
        const n = Math.min(65536, end - i);
        const chunk = Buffer.isBuffer(file) ? file.subarray(i, i + n) : Buffer.from(Array.from({ length: n }, (_, k) => byteOf(file, i + k)));
        i += n;
        if (!res.write(chunk)) return res.once('drain', pump);
      }
      res.end();
    };
    res.on('close', () => { i = end; });
    pump();
  }

  const cdn = await listen((req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname.slice(1));
    const f = find(path);
    if (!f) return res.writeHead(404, kCors).end();
    serveFile(req, res, f.name, f.file);
  });

  const api = await listen(async (req, res) => {
    const url = new URL(req.url, 'http://x');
    const path = decodeURIComponent(url.pathname);
    if (req.method === 'OPTIONS') return res.writeHead(204, kCors).end();
    log.push({ host: 'hub', path });
    // A repository slow to answer (state.slow: {repo: ms}), for answers that arrive out of order.
    for (const [repo, ms] of Object.entries(state.slow))
      if (path.includes('/' + repo + '/') || path.startsWith('/' + repo + '/')) await new Promise((r) => setTimeout(r, ms));
    const json = (status, body, headers = {}) => res.writeHead(status, { ...kCors, 'Content-Type': 'application/json', ...headers }).end(JSON.stringify(body));
    if (/^\/(api\/models\/)?acme\/gated/.test(path))
      return json(401, { error: 'Access to this model is restricted.' }, { 'X-Error-Code': 'GatedRepo' });
    if (/^\/(api\/models\/)?acme\/busy/.test(path)) return json(429, { error: 'rate limited' }, { 'Retry-After': '30' });
    if (/^\/(api\/models\/)?acme\/broken/.test(path)) return res.writeHead(200, kCors).end('<html>not json');
    if (/^\/(api\/models\/)?acme\/nocors/.test(path))
      return res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ id: 'acme/nocors', sha: 'c'.repeat(40) }));
    let m = /^\/api\/models\/([^/]+\/[^/]+)\/revision\/([^/]+)$/.exec(path);
    if (m && repos[m[1]]) {
      const r = repos[m[1]];
      const body = { id: m[1], sha: (r.sha && r.sha[m[2]]) || (r.sha && r.sha.main) || 'c'.repeat(40) };
      if (r.safetensors) body.safetensors = r.safetensors;
      return json(200, body);
    }
    m = /^\/api\/models\/([^/]+\/[^/]+)\/tree\/([^/]+)$/.exec(path);
    if (m && repos[m[1]]) {
      const r = repos[m[1]];
      const tree = [];
      if (r.config || r.configText) tree.push({ type: 'file', path: 'config.json', size: (r.configText ?? JSON.stringify(r.config)).length });
      for (const p of r.extra || []) tree.push({ type: 'file', path: p, size: 10 });
      for (const [name, f] of Object.entries(r.files || {})) tree.push({ type: 'file', path: name, size: 135, lfs: { size: sizeOf(f), oid: 'x' } });
      return json(200, tree);
    }
    m = /^\/([^/]+\/[^/]+)\/resolve\/([^/]+)\/(.+)$/.exec(path);
    if (m && repos[m[1]]?.configText && m[3] === 'config.json') return res.writeHead(200, { ...kCors, 'Content-Type': 'application/json' }).end(repos[m[1]].configText);
    if (m && repos[m[1]]?.config && m[3] === 'config.json') return json(200, repos[m[1]].config);
    // Large files: a redirect to the other host, as the Hub sends LFS files to its CDN.
    if (m && repos[m[1]]?.files?.[m[3]] !== undefined)
      return res.writeHead(302, { ...kCors, Location: `${cdn.url}/${m[1]}/${encodeURIComponent(m[3])}` }).end();
    json(404, { error: 'Repository not found' }, { 'X-Error-Code': 'RepoNotFound' });
  });

  return {
    api, cdn, log, state,
    close: () => Promise.all([new Promise((r) => api.server.close(r)), new Promise((r) => cdn.server.close(r))]),
  };
}
