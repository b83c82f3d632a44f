// The weight budget of the web app, checked in CI after `npm run build`.
// First visit: the scripts index.html loads (its entry and the modules it preloads), which is what the
// sign-in form needs to work. In all: every JavaScript file of the build.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const KB = 1024;
const BUDGET = { firstVisit: 130 * KB, total: 300 * KB };
const dist = new URL('../apps/web/dist/', import.meta.url).pathname;

const gzipSize = (file) => gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;
const format = (bytes) => `${(bytes / KB).toFixed(1)} KB`;

const html = readFileSync(join(dist, 'index.html'), 'utf8');
const firstVisitFiles = [
  ...html.matchAll(/<script[^>]*\bsrc="\/?([^"]+\.js)"/g),
  ...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="\/?([^"]+\.js)"/g),
].map((match) => match[1]);
if (firstVisitFiles.length === 0) throw new Error('index.html loads no script: is the build broken?');

const allFiles = readdirSync(join(dist, 'assets'))
  .filter((name) => name.endsWith('.js'))
  .map((name) => `assets/${name}`);

const firstVisit = firstVisitFiles.reduce((sum, file) => sum + gzipSize(file), 0);
const total = allFiles.reduce((sum, file) => sum + gzipSize(file), 0);

for (const file of allFiles) {
  const tag = firstVisitFiles.includes(file) ? 'first visit' : 'on demand';
  console.log(`${format(gzipSize(file)).padStart(10)}  ${file} (${tag})`);
}
console.log(`first visit: ${format(firstVisit)} gzip (budget ${format(BUDGET.firstVisit)})`);
console.log(`all JavaScript: ${format(total)} gzip (budget ${format(BUDGET.total)})`);

const over = [];
if (firstVisit > BUDGET.firstVisit) over.push('first visit');
if (total > BUDGET.total) over.push('all JavaScript');
if (over.length > 0) {
  console.error(`Over the weight budget: ${over.join(', ')}.`);
  process.exit(1);
}
