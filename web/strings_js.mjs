// strings_js.mjs: the strings table (assets/strings.json) into a script of the site, at build
// time. The script marks where its table goes with `/* @strings */ {}` (an empty table: the
// source runs in English as it is); this writes the script with the marker's `{}` replaced by
// the Portuguese of the rows its surface uses ("in": page or widget), as a JSON object from the
// English text to the Portuguese. The page gets site/i18n.js (index.html loads it first); the
// widget gets its one script, before the Closure Compiler minifies it (the widget fetches
// nothing more). With no script, it writes the surface's rows as a table of the same form as
// assets/strings.json ({"strings": [{"en", "pt-BR"}]}, without "in" and the notes): the browser
// app's, which ui/CMakeLists.txt compiles in (ui/i18n.cpp reads it), without the page's and the
// widget's rows.
//   node web/strings_js.mjs assets/strings.json page web/site/i18n.js build/.../i18n.js
//   node web/strings_js.mjs assets/strings.json app build/.../strings.json
import { readFileSync, writeFileSync } from 'node:fs';

const args = process.argv.slice(2);
const [tablePath, surface] = args;
const [input, output] = args.length === 3 ? [null, args[2]] : args.slice(2);
if (!tablePath || !surface || !output || args.length > 4) {
  console.error('usage: node strings_js.mjs STRINGS.json page|widget IN.js OUT.js\n       node strings_js.mjs STRINGS.json app OUT.json');
  process.exit(2);
}
const kMarker = '/* @strings */ {}';
const rows = JSON.parse(readFileSync(tablePath, 'utf8')).strings;
const table = {};
for (const row of rows) {
  // A row the same in both languages ("Hardware") needs no entry: its English is shown.
  if (Array.isArray(row.in) && row.in.includes(surface) && row['pt-BR'] !== row.en) table[row.en] = row['pt-BR'];
}
// FNV-1a, 32 bits, over the text's UTF-8 bytes: ui/i18n.cpp's text_hash.
function textHash(text) {
  let h = 0x811c9dc5;
  for (const byte of Buffer.from(text, 'utf8')) h = Math.imul(h ^ byte, 0x01000193) >>> 0;
  return h.toString(16).padStart(8, '0');
}
if (!input) {
  // The app's rows as one object, the English text's hash -> Portuguese (ui/i18n.cpp reads this
  // form as well as the whole table's). The English is in the program already, as the argument of
  // tr(): keyed by its hash the table drops a second copy of it (13 KB gzipped of the app). Two
  // texts with one hash would show one's translation for the other: refused.
  const hashed = {};
  for (const [en, pt] of Object.entries(table)) {
    const h = textHash(en);
    if (h in hashed) {
      console.error(`strings_js.mjs: two app texts share the hash ${h}; reword one of them:\n  ${en}`);
      process.exit(1);
    }
    hashed[h] = pt;
  }
  writeFileSync(output, JSON.stringify({ 'pt-BR#': hashed }) + '\n');
  console.log(`strings_js.mjs: ${Object.keys(table).length} ${surface} rows into ${output}`);
  process.exit(0);
}
const source = readFileSync(input, 'utf8');
const at = source.indexOf(kMarker);
if (at < 0 || source.indexOf(kMarker, at + 1) >= 0) {
  console.error(`strings_js.mjs: ${input} must hold the marker ${kMarker} once`);
  process.exit(1);
}
// The table's text is JSON, which is JavaScript; U+2028 and U+2029 are escaped for older parsers.
const json = JSON.stringify({ 'pt-BR': table }).replace(/[\u2028\u2029]/g, (c) => '\\u' + c.charCodeAt(0).toString(16));
writeFileSync(output, source.slice(0, at) + json + source.slice(at + kMarker.length));
console.log(`strings_js.mjs: ${Object.keys(table).length} ${surface} rows into ${output}`);
