// The weight budget of the web app, checked in CI after `npm run build`: the bytes a browser transfers, which
// are the brotli files the build writes beside each file (apps/web/plugins/precompress.ts) and the server
// sends (apps/server/src/http/serveWebApp.ts). Every compressible file must have its `.br` and `.gz`.
// First visit: what index.html makes the browser fetch (itself, its entry script and the modules it
// preloads, its stylesheets, its icon), which is what the sign-in form needs to work: the form is usable
// with these alone. The phone library (libphonenumber-js and its metadata) is not among them: the form
// loads it once it shows (apps/web/src/sign-in/loadPhoneLibrary.ts), and the check fails if it comes back. WalletConnect: the
// chunks only the lazy WalletConnect sign-in (src/walletconnect/WalletConnectSignIn.tsx) loads,
// WalletConnect's SDK above all; they have a budget of their own and are left out of "all JavaScript",
// which is every other JavaScript file of the build. The password check: the worker the recovery setup
// starts to judge a new recovery password (src/recovery/passwordStrengthWorker.ts: zxcvbn and its common and
// English dictionaries, some two megabytes of words); a budget of its own too, and never on the first visit.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const KB = 1024;
export const BUDGET = {
  // Measured at 74.0 KiB brotli on React 19.3.1 (its 57 KiB of React are the bench's hello page's whole
  // script), plus ~15%: the limit is 130 KiB, its aim under 100.
  firstVisit: 85 * KB,
  // Measured at 239.8 KiB brotli, then 277.0 KiB with sponsored fees (issue 29: viem's account-abstraction
  // client and EIP-5792, ~37 KiB, both on demand with a send's review or the first 5792 call), plus ~5%: the
  // product's limit is 300 KiB.
  total: 290 * KB,
  // Measured at 95.5 KiB brotli (sign-client 2.25.0 with its crypto, msgpack and storage code), plus ~10%
  // (122.2 KiB gzip, budget 135 KiB, before the check measured brotli).
  walletConnect: 105 * KB,
  // Measured at 737.7 KiB brotli (@zxcvbn-ts/core 4.2.0, language-common 4.1.3, language-en 4.1.1: the
  // dictionaries are nearly all of it), plus ~10%.
  passwordCheck: 810 * KB,
  // Script files a first visit fetches: the entry (main.tsx and every module it imports statically, one
  // chunk by apps/web/vite.config.ts) and, when the lazy chunks need them too, rolldown's runtime helpers
  // (which rolldown keeps in a file of their own). Each more is one more request the browser's main thread
  // sets up and answers before the form works.
  firstVisitScripts: 2,
};
/** The files the build precompresses (as apps/web/plugins/precompress.ts's COMPRESSIBLE). */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|map)$/;
/**
 * Text only the phone library's metadata holds (its calling-code index, kept by name in any build): a first
 * visit script holding it has the library on the sign-in form's critical path.
 */
const PHONE_LIBRARY_MARK = 'country_calling_codes';
/** The lazy chunk of src/walletconnect/WalletConnectSignIn.tsx (Vite names a chunk after its module). */
const WALLETCONNECT_ENTRY = /^assets\/WalletConnectSignIn-[\w-]+\.js$/;
/** The worker of src/recovery/passwordStrengthWorker.ts (a worker is one file, named after its module). */
const PASSWORD_CHECK_ENTRY = /^assets\/passwordStrengthWorker-[\w-]+\.js$/;
export const WEB_DIST = fileURLToPath(new URL('../apps/web/dist/', import.meta.url));

/**
 * Measures the build in `dist`: which files a first visit fetches, which are WalletConnect's, what each
 * weighs as sent with brotli, and which compressible files lack a precompressed sibling.
 */
export function measureWeight(dist = WEB_DIST) {
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const referenced = (pattern) => [...html.matchAll(pattern)].map((match) => match[1]);
  const firstVisitScripts = [
    ...referenced(/<script[^>]*\bsrc="\/?([^"]+\.js)"/g),
    ...referenced(/<link[^>]*rel="modulepreload"[^>]*href="\/?([^"]+\.js)"/g),
  ];
  if (firstVisitScripts.length === 0) throw new Error('index.html loads no script: is the build broken?');
  const firstVisitFiles = [
    'index.html',
    ...firstVisitScripts,
    ...referenced(/<link[^>]*rel="stylesheet"[^>]*href="\/?([^"]+)"/g),
    ...referenced(/<link[^>]*rel="icon"[^>]*href="\/?([^"]+)"/g),
  ];

  const everyFile = readdirSync(dist, { recursive: true })
    .map((name) => relative(dist, join(dist, name)).split('\\').join('/'))
    .filter((name) => statSync(join(dist, name)).isFile());
  const missingSiblings = everyFile
    .filter((name) => COMPRESSIBLE.test(name))
    .flatMap((name) => ['br', 'gz'].map((extension) => `${name}.${extension}`))
    .filter((sibling) => !existsSync(join(dist, sibling)));
  const allScripts = everyFile.filter((name) => /^assets\/[^/]+\.js$/.test(name));

  /** The bytes sent for `file` to a browser that takes brotli: its `.br`, or the file itself without one. */
  const sent = (file) => {
    const br = join(dist, `${file}.br`);
    return statSync(existsSync(br) ? br : join(dist, file)).size;
  };
  const sum = (files) => [...files].reduce((total, file) => total + sent(file), 0);

  /** The chunks a chunk imports, statically (`from"./x.js"`, `import"./x.js"`) or lazily (`import("./x.js")`). */
  const importsOf = (file) => {
    const text = readFileSync(join(dist, file), 'utf8');
    const found = new Set();
    for (const match of text.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*["'`]\.\/([\w.-]+\.js)["'`]/g)) {
      found.add(`assets/${match[1]}`);
    }
    return [...found].filter((target) => allScripts.includes(target));
  };
  /** Every chunk reachable from `roots`, not going into `stopAt`. */
  const reachable = (roots, stopAt = new Set()) => {
    const seen = new Set();
    const queue = roots.filter((root) => !stopAt.has(root));
    while (queue.length > 0) {
      const file = queue.pop();
      if (seen.has(file)) continue;
      seen.add(file);
      for (const target of importsOf(file)) if (!seen.has(target) && !stopAt.has(target)) queue.push(target);
    }
    return seen;
  };

  const phoneLibraryOnFirstVisit = firstVisitScripts.filter((file) =>
    readFileSync(join(dist, file), 'utf8').includes(PHONE_LIBRARY_MARK),
  );
  const walletConnectEntries = allScripts.filter((file) => WALLETCONNECT_ENTRY.test(file));
  // The app without WalletConnect: what the page can load if the WalletConnect chunk never loads. Workers
  // are started by URL, not imported, so every chunk no import reaches counts as the app's too.
  const app = reachable(firstVisitScripts, new Set(walletConnectEntries));
  const walletConnect = [...reachable(walletConnectEntries)].filter(
    (file) => !app.has(file) && !firstVisitScripts.includes(file),
  );
  const passwordCheckEntries = allScripts.filter((file) => PASSWORD_CHECK_ENTRY.test(file));
  const passwordCheck = [...reachable(passwordCheckEntries)].filter(
    (file) => !app.has(file) && !firstVisitScripts.includes(file) && !walletConnect.includes(file),
  );
  const otherScripts = allScripts.filter(
    (file) => !walletConnect.includes(file) && !passwordCheck.includes(file),
  );

  return {
    files: everyFile.filter((name) => !/\.(?:br|gz)$/.test(name)).map((file) => ({ file, sent: sent(file) })),
    firstVisitFiles,
    firstVisitScripts,
    allScripts,
    walletConnectFiles: walletConnect,
    walletConnectEntries,
    passwordCheckFiles: passwordCheck,
    passwordCheckEntries,
    missingSiblings,
    /** First-visit scripts holding the phone library (none, or the sign-in form waits for it). */
    phoneLibraryOnFirstVisit,
    /** Bytes, brotli as sent. */
    firstVisit: sum(firstVisitFiles),
    firstVisitScriptBytes: sum(firstVisitScripts),
    /** Bytes of the same first-visit files uncompressed: what a server without compression sends. */
    firstVisitUncompressed: firstVisitFiles.reduce(
      (total, file) => total + statSync(join(dist, file)).size,
      0,
    ),
    total: sum(otherScripts),
    walletConnect: sum(walletConnect),
    passwordCheck: sum(passwordCheck),
  };
}

/** Prints the weights and exits 1 when a budget is exceeded or a sibling is missing. */
function check() {
  const weight = measureWeight();
  const format = (bytes) => `${(bytes / KB).toFixed(1)} KiB`;
  for (const { file, sent } of weight.files) {
    const tag = weight.firstVisitFiles.includes(file)
      ? 'first visit'
      : weight.walletConnectFiles.includes(file)
        ? 'WalletConnect, on demand'
        : weight.passwordCheckFiles.includes(file)
          ? 'password check, on demand'
          : 'on demand';
    console.log(`${format(sent).padStart(10)}  ${file} (${tag})`);
  }
  console.log('(brotli, as the server sends it)');
  console.log(
    `first visit: ${format(weight.firstVisit)} (budget ${format(BUDGET.firstVisit)}), of which JavaScript ` +
      `${format(weight.firstVisitScriptBytes)} in ${weight.firstVisitScripts.length} ` +
      `file${weight.firstVisitScripts.length === 1 ? '' : 's'} (at most ` +
      `${BUDGET.firstVisitScripts}); ${format(weight.firstVisitUncompressed)} uncompressed`,
  );
  console.log(
    `all JavaScript but WalletConnect and the password check: ${format(weight.total)} (budget ${format(BUDGET.total)})`,
  );
  if (weight.walletConnectEntries.length === 0) {
    console.log(
      'WalletConnect: no chunk in this build (nothing loads src/walletconnect/WalletConnectSignIn.tsx)',
    );
  } else {
    console.log(`WalletConnect: ${format(weight.walletConnect)} (budget ${format(BUDGET.walletConnect)})`);
  }

  if (weight.passwordCheckEntries.length === 0) {
    console.log(
      'password check: no worker in this build (nothing starts src/recovery/passwordStrengthWorker.ts)',
    );
  } else {
    console.log(`password check: ${format(weight.passwordCheck)} (budget ${format(BUDGET.passwordCheck)})`);
  }

  const over = [];
  if (weight.missingSiblings.length > 0) {
    console.error(`Not precompressed (run \`npm run build\`): ${weight.missingSiblings.join(', ')}`);
    over.push('files without a precompressed sibling');
  }
  if (weight.firstVisit > BUDGET.firstVisit) over.push('first visit');
  if (weight.firstVisitScripts.length > BUDGET.firstVisitScripts) {
    over.push(
      `first-visit scripts (${weight.firstVisitScripts.length}, at most ${BUDGET.firstVisitScripts}: ` +
        `${weight.firstVisitScripts.join(', ')})`,
    );
  }
  if (weight.total > BUDGET.total) over.push('all JavaScript');
  if (weight.walletConnect > BUDGET.walletConnect) over.push('WalletConnect');
  if (weight.walletConnectEntries.some((file) => weight.firstVisitScripts.includes(file)))
    over.push('WalletConnect on the first visit');
  if (weight.passwordCheck > BUDGET.passwordCheck) over.push('the password check');
  if (weight.passwordCheckEntries.some((file) => weight.firstVisitScripts.includes(file)))
    over.push('the password check on the first visit');
  if (weight.phoneLibraryOnFirstVisit.length > 0) {
    over.push(`the phone library on the first visit (${weight.phoneLibraryOnFirstVisit.join(', ')})`);
  }
  if (over.length > 0) {
    console.error(`Over the weight budget: ${over.join(', ')}.`);
    process.exit(1);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) check();
