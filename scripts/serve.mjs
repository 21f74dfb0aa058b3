// serve.mjs: a small static file server for the browser build, on 127.0.0.1 only.
//   node scripts/serve.mjs [DIR] [--port N]      (DIR defaults to build/wasm/site, port to 8080; 0 = any)
// It serves files under DIR and nothing else: GET and HEAD, no directory listings, no paths
// outside DIR. The tests import serve() to start one on a free port.
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';

const kTypes = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.png': 'image/png',
  '.txt': 'text/plain; charset=utf-8',
};

// Starts a server for `dir` on 127.0.0.1:`port`; resolves to {server, url}.
export function serve(dir, port = 0) {
  const root = resolve(dir);
  const server = createServer(async (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD' }).end();
      return;
    }
    let path;
    try {
      path = decodeURIComponent(new URL(req.url, 'http://127.0.0.1').pathname);
    } catch {
      res.writeHead(400).end();
      return;
    }
    if (path.endsWith('/')) path += 'index.html';
    const file = resolve(join(root, path));
    if (file !== root && !file.startsWith(root + sep)) {
      res.writeHead(403).end();
      return;
    }
    try {
      if (!(await stat(file)).isFile()) throw new Error('not a file');
      const body = await readFile(file);
      res.writeHead(200, {
        'Content-Type': kTypes[extname(file)] || 'application/octet-stream',
        'Content-Length': body.length,
        'Cache-Control': 'no-cache',
      });
      res.end(req.method === 'HEAD' ? undefined : body);
    } catch {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('not found\n');
    }
  });
  return new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(port, '127.0.0.1', () => ok({ server, url: `http://127.0.0.1:${server.address().port}/` }));
  });
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv.slice(2);
  let dir = 'build/wasm/site';
  let port = 8080;
  for (let i = 0; i < args.length; ++i) {
    if (args[i] === '--port') port = Number(args[++i]);
    else dir = args[i];
  }
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error('serve.mjs: --port must be 0 to 65535');
    process.exit(2);
  }
  serve(dir, port).then(
    ({ url }) => console.log(`gpusizer: serving ${resolve(dir)} at ${url}  (Ctrl+C stops)`),
    (err) => {
      console.error(`serve.mjs: cannot listen on 127.0.0.1:${port}: ${err.message}`);
      process.exit(1);
    });
}
