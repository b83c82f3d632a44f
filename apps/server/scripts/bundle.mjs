// Bundles the server (apps/server/src/main.ts) into apps/server/dist/ with Rolldown: one file for what
// every start needs, and a chunk for each part loaded only when it is on (the dev routes, the sandbox
// on-ramp, the dev chain's door). A start that loads ~2,500 ES modules one by one (viem alone is ~1,100,
// 740 of them chain definitions) spends most of its time resolving and opening files; the bundle has only
// what the server uses, so a production server answers in a fraction of the time (bench/server.mjs).
//
// Fastify, its plugins and pino are bundled too: loading their hundreds of CommonJS files one by one was
// a sixth of a cold start. (pino's worker files are for transports, which Dial does not use: it writes to
// stdout.) Kept as they are, loaded from node_modules at run time: Node built-ins, packages with native code
// (better-sqlite3), the drivers and clients loaded only when configured (pg, redis, nodemailer, and
// @fastify/static for the web app's files), and the dev chain (@dial/devchain, a dev dependency). Every
// file goes to the top of dist/ (see src/serverRoot.ts: `import.meta.url` stays one level below
// apps/server/).
//
//   node apps/server/scripts/bundle.mjs      → apps/server/dist/ (the server's `npm run build`)
//   bundleServer({ outDir })                  → the same, elsewhere (productionImports.test.ts)
import { rmSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { rolldown } from 'rolldown';

const SERVER = new URL('../', import.meta.url);

/** Loaded from node_modules at run time rather than bundled. */
export const EXTERNAL_PACKAGES = [
  '@fastify/static',
  'better-sqlite3',
  'pg',
  'redis',
  'nodemailer',
  '@dial/devchain',
];

/**
 * Writes the bundle.
 *
 * @param {{ outDir?: string }} [options] - Where to (default: apps/server/dist, emptied first).
 * @returns {Promise<string[]>} the files written.
 */
export async function bundleServer({ outDir = fileURLToPath(new URL('dist/', SERVER)) } = {}) {
  rmSync(outDir, { recursive: true, force: true });
  const bundle = await rolldown({
    input: fileURLToPath(new URL('src/main.ts', SERVER)),
    platform: 'node',
    external: (id) =>
      id.startsWith('node:') || EXTERNAL_PACKAGES.some((name) => id === name || id.startsWith(`${name}/`)),
    resolve: {
      // The workspace packages from their TypeScript source, as the server's own tests read them.
      conditionNames: ['source', 'import', 'node', 'default'],
      // TypeScript's NodeNext imports name the .js a .ts file becomes.
      extensionAlias: { '.js': ['.ts', '.js'] },
    },
    tsconfig: fileURLToPath(new URL('tsconfig.build.json', SERVER)),
    logLevel: 'warn',
  });
  try {
    const { output } = await bundle.write({
      dir: outDir,
      format: 'esm',
      entryFileNames: 'main.js',
      // A chunk loaded on demand is named after its module (devRoutes-….js); a shared one only by its hash, as
      // Rolldown would name it after any module it holds.
      chunkFileNames: (chunk) => (chunk.isDynamicEntry ? '[name]-[hash].js' : 'shared-[hash].js'),
      sourcemap: true,
    });
    return output.map((file) => file.fileName);
  } finally {
    await bundle.close();
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const files = await bundleServer();
  console.log(`apps/server/dist: ${files.filter((file) => file.endsWith('.js')).join(', ')}`);
}
