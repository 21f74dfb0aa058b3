// lite_printf.test.mjs: the widget module's snprintf (web/lite_printf.cpp, its digits from the
// JavaScript engine) writes what musl's printf writes, to the byte, over the formats and values of
// tests/lite_printf_check.cpp, which the wasm preset builds as build/wasm/tests/lite_printf_check.js.
// Node.js alone runs it: its number formatting is V8's, as Chromium's is.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { requireSetup, site } from './harness.mjs';

requireSetup();

const check = join(site, '..', 'tests', 'lite_printf_check.js');

test("snprintf in the widget's module: musl's text for every format and value checked", () => {
  assert.ok(existsSync(check), `${check} is missing: cmake --build --preset wasm builds it`);
  let out;
  try {
    out = execFileSync(process.execPath, [check], { encoding: 'utf8' });
  } catch (e) {
    assert.fail(`lite_printf_check.js exited ${e.status}:\n${e.stdout}`);
  }
  assert.match(out, /formats checked, 0 different/);
});
