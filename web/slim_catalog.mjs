// slim_catalog.mjs: the catalog the widget's module carries (gpusizer-lite.wasm). The same
// entries and figures as assets/, minified, without what a calculation never reads (notes, lists
// of unverified cells, published counts as printed); each entry's sources become a pointer to the full asset file,
// which the app and the full API module carry as they are.
//   node web/slim_catalog.mjs assets/gpus.json out/gpus.json
import { readFileSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';

const [input, output] = process.argv.slice(2);
if (!input || !output) {
  console.error('usage: node slim_catalog.mjs IN.json OUT.json');
  process.exit(2);
}
const file = basename(input);
// Prose, and the published parameter counts as printed with their conventions (they serve the
// catalog's own check against the derived counts, tests/test_params.cpp, not an estimate).
const dropped = new Set(['note', 'notes', 'price_note', 'unverified', 'params_published_as', 'active_params_published_as',
  'params_convention', 'active_params_convention']);
function slim(value) {
  if (Array.isArray(value)) return value.map(slim);
  if (value === null || typeof value !== 'object') return value;
  const out = {};
  for (const [key, v] of Object.entries(value)) {
    if (dropped.has(key)) continue;
    out[key] = key === 'sources' ? [`assets/${file} in the gpusizer sources`] : slim(v);
  }
  return out;
}
writeFileSync(output, JSON.stringify(slim(JSON.parse(readFileSync(input, 'utf8')))));
