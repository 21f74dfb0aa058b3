// inspect.test.mjs: gs.inspect(bytes) and gs.reconcile(text) in Chromium give the CLI's JSON
// (`gpusizer inspect FILE --json`, `gpusizer reconcile LOG --json`) on the suite's own GGUF
// fixtures (tests/write_fixtures.cpp) and the real log excerpts in tests/data/logs; bad input
// throws a GpuSizerError naming what was wrong, and the module keeps working.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { test } from 'node:test';

import { cli, repo, requireSetup, useApiPage } from './harness.mjs';

requireSetup({ needCli: true });
const writer = resolve(process.env.GPUSIZER_WRITE_FIXTURES || join(repo, 'build', 'native', 'gpusizer_write_fixtures'));

let page, seen;
useApiPage((p) => ({ page, seen } = p));

// gs[name](...args) in the page; bytes travel as a plain array and become a Uint8Array there.
function call(name, args, bytesAt = -1) {
  return page.evaluate(([n, a, at]) => {
    if (at >= 0) a[at] = new Uint8Array(a[at]);
    try {
      return { value: window.gs[n](...a) };
    } catch (e) {
      return { error: { name: e.name, message: e.message, key: e.key } };
    }
  }, [name, args, bytesAt]);
}

test('gs.inspect: every GGUF fixture reads as the CLI reads it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gpusizer-inspect-'));
  execFileSync(writer, [dir]);
  // Single files only: a split part read alone is one file to the API (the CLI joins the parts).
  const files = readdirSync(dir).filter((f) => f.endsWith('.gguf') && !/-\d{5}-of-\d{5}\.gguf$/.test(f));
  assert.ok(files.length >= 3, `fixtures in ${dir}: ${files}`);
  for (const f of files) {
    const path = join(dir, f);
    const want = JSON.parse(execFileSync(cli, ['inspect', path, '--json'], { encoding: 'utf8' }));
    const got = await call('inspect', [[...readFileSync(path)]], 0);
    assert.ok(got.value, `${f}: ${JSON.stringify(got.error)}`);
    const js = JSON.parse(got.value);
    // The files are named by the caller: the CLI by path, the API "header".
    assert.deepEqual(js.files, ['header']);
    delete js.files;
    delete want.files;
    assert.deepEqual(js, want, f);
  }
});

test('gs.inspect: a file\'s first bytes read as the file; fileSize checks where the tensors end', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gpusizer-inspect-'));
  execFileSync(writer, [dir]);
  const f = readdirSync(dir).find((n) => n.endsWith('.gguf') && !/-\d{5}-of-\d{5}\.gguf$/.test(n));
  const whole = [...readFileSync(join(dir, f))];
  const want = JSON.parse((await call('inspect', [whole], 0)).value);
  // The README's way: file.slice(0, n), n past the header but short of the tensor data's end.
  const n = want.header_bytes + 1;
  assert.ok(n < whole.length, `${f}: header ${want.header_bytes} of ${whole.length} bytes`);
  const prefix = whole.slice(0, n);
  const got = await call('inspect', [prefix], 0);
  assert.ok(got.value, JSON.stringify(got.error));
  assert.deepEqual(JSON.parse(got.value), want);
  const sized = await call('inspect', [prefix, whole.length], 0);
  assert.deepEqual(JSON.parse(sized.value), want);
  // Told the file is only as long as the prefix: the tensors end past it.
  const short = await call('inspect', [prefix, n], 0);
  assert.equal(short.error?.name, 'GpuSizerError');
  assert.match(short.error.message, /truncated file\?/);
  // Cut inside the header: asks for more bytes.
  const cut = await call('inspect', [whole.slice(0, 40)], 0);
  assert.match(cut.error?.message ?? '', /give more of the file's first bytes/);
  // A size that is not a byte count names the argument.
  for (const bad of [-1, 1.5, '100', NaN]) {
    const r = await call('inspect', [prefix, bad], 0);
    assert.equal(r.error?.key, 'fileSize', String(bad));
  }
});

test('gs.reconcile: the log beside the estimate, as the CLI prints it', async () => {
  const log = join(repo, 'tests', 'data', 'logs', 'llama_cpp_two_gpus_pr8035.log');
  const want = JSON.parse(execFileSync(cli, ['reconcile', log, '--model', 'llama-3-70b', '--json'], { encoding: 'utf8' }));
  const got = await call('reconcile', [readFileSync(log, 'utf8'), { model: 'llama-3-70b' }]);
  assert.ok(got.value, JSON.stringify(got.error));
  assert.deepEqual(JSON.parse(got.value), want);
  assert.equal(want.estimate.config.pp, 2);

  // Without a model the catalog match (or its absence) is the same too.
  const gpt = join(repo, 'tests', 'data', 'logs', 'llama_cpp_gpt_oss_issue15125.log');
  const want2 = JSON.parse(execFileSync(cli, ['reconcile', gpt, '--json'], { encoding: 'utf8' }));
  const got2 = await call('reconcile', [readFileSync(gpt, 'utf8')]);
  assert.deepEqual(JSON.parse(got2.value), want2);
});

test('gs.inspect / gs.reconcile: bad input is a GpuSizerError naming it; the module keeps working', async () => {
  const notBytes = await call('inspect', ['GGUF']);
  assert.equal(notBytes.error?.name, 'GpuSizerError');
  assert.equal(notBytes.error?.key, 'bytes');
  const badVersion = await call('inspect', [[0x47, 0x47, 0x55, 0x46, 9, 0, 0, 0]], 0);
  assert.equal(badVersion.error?.name, 'GpuSizerError');
  assert.match(badVersion.error.message, /version/);
  const noLog = await call('reconcile', ['hello']);
  assert.equal(noLog.error?.key, 'log');
  const fileKey = await call('reconcile', [readFileSync(join(repo, 'tests', 'data', 'logs', 'llama_cpp_two_gpus_pr8035.log'), 'utf8'), { gguf: 'x.gguf' }]);
  assert.match(JSON.parse(fileKey.value).estimate_error, /gguf/);   // the browser reads no files
  const ok = await call('estimate', [{ model: 'llama-3-8b' }]);
  assert.ok(ok.value);
  assert.deepEqual(seen.errors, []);
});
