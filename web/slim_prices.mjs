// slim_prices.mjs: assets/prices.json as the app's module carries it: every row and figure the
// cost model reads (GPU, provider, kind, price per GPU-hour, date, the source's address), without
// the quotes, titles and notes that document each row in the file itself.
//   node web/slim_prices.mjs assets/prices.json out/prices.json
import { readFileSync, writeFileSync } from 'node:fs';

const [input, output] = process.argv.slice(2);
if (!input || !output) {
  console.error('usage: node slim_prices.mjs IN.json OUT.json');
  process.exit(2);
}
const prices = JSON.parse(readFileSync(input, 'utf8'));
const source = (s) => ({ url: s.url });
prices.description = '';
prices.rent = prices.rent.map(({ gpu, provider, kind, usd_per_gpu_hour, date, source: s }) =>
  ({ gpu, provider, kind, usd_per_gpu_hour, date, source: source(s) }));
prices.hosts = prices.hosts.map(({ platform, usd, gpus, date, source: s }) => ({ platform, usd, gpus, date, source: source(s) }));
writeFileSync(output, JSON.stringify(prices));
