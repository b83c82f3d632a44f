// The weight budget of the web app, checked in CI after `npm run build`.
// First visit: the scripts index.html loads (its entry and the modules it preloads), which is what the
// sign-in form needs to work. WalletConnect: the chunks only the lazy WalletConnect sign-in
// (src/walletconnect/WalletConnectSignIn.tsx) loads, WalletConnect's SDK above all; they have a budget of
// their own and are left out of "all JavaScript", which is every other JavaScript file of the build.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const KB = 1024;
const BUDGET = {
  firstVisit: 130 * KB,
  total: 300 * KB,
  // Measured at 122.2 KB gzip (sign-client 2.25.0 with its crypto, msgpack and storage code), plus ~10%.
  walletConnect: 135 * KB,
};
/** The lazy chunk of src/walletconnect/WalletConnectSignIn.tsx (Vite names a chunk after its module). */
const WALLETCONNECT_ENTRY = /^assets\/WalletConnectSignIn-[\w-]+\.js$/;
const dist = new URL('../apps/web/dist/', import.meta.url).pathname;

const gzipSize = (file) => gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;
const format = (bytes) => `${(bytes / KB).toFixed(1)} KB`;
const sum = (files) => [...files].reduce((total, file) => total + gzipSize(file), 0);

const html = readFileSync(join(dist, 'index.html'), 'utf8');
const firstVisitFiles = [
  ...html.matchAll(/<script[^>]*\bsrc="\/?([^"]+\.js)"/g),
  ...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="\/?([^"]+\.js)"/g),
].map((match) => match[1]);
if (firstVisitFiles.length === 0) throw new Error('index.html loads no script: is the build broken?');

const allFiles = readdirSync(join(dist, 'assets'))
  .filter((name) => name.endsWith('.js'))
  .map((name) => `assets/${name}`);

/** The chunks a chunk imports, statically (`from"./x.js"`, `import"./x.js"`) or lazily (`import("./x.js")`). */
function importsOf(file) {
  const text = readFileSync(join(dist, file), 'utf8');
  const found = new Set();
  for (const match of text.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*["'`]\.\/([\w.-]+\.js)["'`]/g)) {
    found.add(`assets/${match[1]}`);
  }
  return [...found].filter((target) => allFiles.includes(target));
}

/** Every chunk reachable from `roots`, not going into `stopAt`. */
function reachable(roots, stopAt = new Set()) {
  const seen = new Set();
  const queue = roots.filter((root) => !stopAt.has(root));
  while (queue.length > 0) {
    const file = queue.pop();
    if (seen.has(file)) continue;
    seen.add(file);
    for (const target of importsOf(file)) if (!seen.has(target) && !stopAt.has(target)) queue.push(target);
  }
  return seen;
}

const walletConnectEntries = allFiles.filter((file) => WALLETCONNECT_ENTRY.test(file));
// The app without WalletConnect: what the page can load if the WalletConnect chunk never loads. Workers
// are started by URL, not imported, so every chunk no import reaches counts as the app's too.
const app = reachable(firstVisitFiles, new Set(walletConnectEntries));
const walletConnect = new Set(
  [...reachable(walletConnectEntries)].filter((file) => !app.has(file) && !firstVisitFiles.includes(file)),
);
const rest = allFiles.filter((file) => !walletConnect.has(file));

const firstVisit = sum(firstVisitFiles);
const total = sum(rest);
const walletConnectSize = sum(walletConnect);

for (const file of allFiles) {
  const tag = firstVisitFiles.includes(file)
    ? 'first visit'
    : walletConnect.has(file)
      ? 'WalletConnect, on demand'
      : 'on demand';
  console.log(`${format(gzipSize(file)).padStart(10)}  ${file} (${tag})`);
}
console.log(`first visit: ${format(firstVisit)} gzip (budget ${format(BUDGET.firstVisit)})`);
console.log(`all JavaScript but WalletConnect: ${format(total)} gzip (budget ${format(BUDGET.total)})`);
if (walletConnectEntries.length === 0) {
  console.log(
    'WalletConnect: no chunk in this build (nothing loads src/walletconnect/WalletConnectSignIn.tsx)',
  );
} else {
  console.log(`WalletConnect: ${format(walletConnectSize)} gzip (budget ${format(BUDGET.walletConnect)})`);
}

const over = [];
if (firstVisit > BUDGET.firstVisit) over.push('first visit');
if (total > BUDGET.total) over.push('all JavaScript');
if (walletConnectSize > BUDGET.walletConnect) over.push('WalletConnect');
if (walletConnectEntries.some((file) => firstVisitFiles.includes(file)))
  over.push('WalletConnect on the first visit');
if (over.length > 0) {
  console.error(`Over the weight budget: ${over.join(', ')}.`);
  process.exit(1);
}
