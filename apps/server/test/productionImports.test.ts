import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Starts the real server (src/main.ts, in a child `node`) with module hooks that write down every module it
 * loads (importRecorder/), and checks that a production server loads nothing meant for development: not
 * @dial/devchain (packages/devchain), not EDR, not the dev routes nor the sandbox on-ramp, no dev dependency
 * of the server; nor the drivers and clients of what is not configured (PostgreSQL, Redis, SMTP, the web
 * app's static files). A static import of any of them, anywhere in the server, would put it on the list.
 * The development run shows that the recorder does see them when they load. The same holds for the built
 * bundle (scripts/bundle.mjs), which is what `node apps/server/dist/main.js` runs.
 */

const REPO = new URL('../../../', import.meta.url);
const MAIN = fileURLToPath(new URL('apps/server/src/main.ts', REPO));
const REGISTER = fileURLToPath(new URL('apps/server/test/importRecorder/register.mjs', REPO));
const DEVCHAIN_PACKAGE = new URL('packages/devchain/', REPO).href;
const DEV_ROUTES = new URL('apps/server/src/dev/devRoutes.ts', REPO).href;
const APP = new URL('apps/server/src/app.ts', REPO).href;
const SANDBOX_MODULES = ['sandboxRoutes', 'sandboxProvider', 'sandboxSessions', 'sandboxPage'].map(
  (name) => new URL(`apps/server/src/onramp/${name}.ts`, REPO).href,
);
const SERVER_PACKAGE = JSON.parse(readFileSync(new URL('apps/server/package.json', REPO), 'utf8')) as {
  version: string;
  devDependencies: Record<string, string>;
};
/** Loaded only when configured: PostgreSQL's driver, Redis's client, SMTP's, and the web app's static files. */
const UNCONFIGURED_PACKAGES = ['pg', 'redis', 'nodemailer', '@fastify/static'];
/** Loading some 4,000 modules through off-thread hooks takes a while on a busy machine. */
const START_TIMEOUT_MS = 90_000;

interface LoadedModule {
  specifier: string;
  url: string;
}

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

function waitForOutput(child: ChildProcess, marker: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (output.includes(marker)) resolve();
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) =>
      reject(new Error(`the server exited (${code}) before "${marker}":\n${output}`)),
    );
  });
}

/**
 * Starts the server (`main`: the source, or a bundle) with `env`, checks GET /api/health and the OpenAPI
 * document's version (read from the package's package.json), stops it, and returns what it loaded.
 */
async function recordStart(env: Record<string, string>, main = MAIN): Promise<LoadedModule[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'dial-imports-'));
  const logPath = join(dataDir, 'imports.tsv');
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', REGISTER, main], {
    cwd: fileURLToPath(REPO),
    // Only what the server needs: not the test runner's NODE_ENV=test, nor its TEST_* settings.
    env: {
      PATH: process.env.PATH ?? '',
      DATA_DIR: dataDir,
      PORT: String(port),
      LOG_LEVEL: 'warn',
      RECORD_IMPORTS_TO: logPath,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = once(child, 'exit');
  try {
    await waitForOutput(child, 'Dial is running');
    const health = await fetch(`http://127.0.0.1:${port}/api/health`);
    expect(health.status).toBe(200);
    const openapi = await fetch(`http://127.0.0.1:${port}/api/openapi.json`);
    expect(((await openapi.json()) as { info: { version: string } }).info.version).toBe(
      SERVER_PACKAGE.version,
    );
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
  const lines = readFileSync(logPath, 'utf8').trim().split('\n');
  rmSync(dataDir, { recursive: true, force: true });
  return lines.map((line) => {
    const [specifier = '', url = ''] = line.split('\t');
    return { specifier, url };
  });
}

function devChainModules(loaded: readonly LoadedModule[]): LoadedModule[] {
  return loaded.filter(
    ({ specifier, url }) =>
      specifier.startsWith('@dial/devchain') ||
      specifier.startsWith('@nomicfoundation/edr') ||
      url.startsWith(DEVCHAIN_PACKAGE) ||
      url.includes('/node_modules/@nomicfoundation/edr'),
  );
}

/** The packages of `loaded` (`@scope/name` or `name`) that come from a node_modules folder. */
function packagesOf(loaded: readonly LoadedModule[]): Set<string> {
  const names = new Set<string>();
  for (const { url } of loaded) {
    const match = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
    if (match?.[1] !== undefined) names.add(match[1]);
  }
  return names;
}

/** What a production server must not load: dev-only packages, and the clients of what is not configured. */
function unwantedInProduction(loaded: readonly LoadedModule[]): string[] {
  const packages = packagesOf(loaded);
  const devOnly = Object.keys(SERVER_PACKAGE.devDependencies).filter((name) => packages.has(name));
  const unconfigured = UNCONFIGURED_PACKAGES.filter((name) => packages.has(name));
  return [...devOnly, ...unconfigured, ...devChainModules(loaded).map(({ url }) => url)];
}

const PRODUCTION_ENV = () => ({
  NODE_ENV: 'production',
  SHARE_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
  // Whether or not the web app is built here: the server serves the API only.
  WEB_DIST_DIR: join(tmpdir(), `dial-no-web-app-${randomBytes(6).toString('hex')}`),
});

describe('what a server loads at start', () => {
  it(
    'in production: nothing of the dev chain (@dial/devchain, EDR), the dev routes, the sandbox on-ramp, dev dependencies or unconfigured clients',
    async () => {
      const loaded = await recordStart(PRODUCTION_ENV());
      // The recorder saw the server itself, and Fastify…
      expect(loaded.map(({ url }) => url)).toContain(APP);
      expect(packagesOf(loaded).has('fastify')).toBe(true);
      // …and none of these.
      expect(unwantedInProduction(loaded)).toEqual([]);
      expect(loaded.filter(({ url }) => url === DEV_ROUTES || SANDBOX_MODULES.includes(url))).toEqual([]);
    },
    START_TIMEOUT_MS,
  );

  it(
    'in development with the local chain on: the dev chain, EDR and the dev routes (the recorder sees them)',
    async () => {
      const loaded = await recordStart({
        NODE_ENV: 'development',
        LOCAL_CHAIN_PORT: String(await freePort()),
        LOCAL_BUNDLER_PORT: String(await freePort()),
      });
      const urls = loaded.map(({ url }) => url);
      expect(urls).toContain(new URL('src/devChain.ts', DEVCHAIN_PACKAGE).href);
      expect(loaded.some(({ specifier }) => specifier === '@nomicfoundation/edr')).toBe(true);
      expect(urls).toContain(DEV_ROUTES);
      // The sandbox on-ramp is on in development with the local chain.
      expect(urls).toEqual(expect.arrayContaining(SANDBOX_MODULES.slice(0, 2)));
    },
    START_TIMEOUT_MS,
  );

  it(
    'as the production bundle (dist/main.js): the same, and no chunk of the dev routes or the sandbox',
    async () => {
      // One level below apps/server/, as dist/ is (src/serverRoot.ts).
      const outDir = fileURLToPath(
        new URL(`apps/server/.dist-test-${randomBytes(6).toString('hex')}/`, REPO),
      );
      try {
        const script = new URL('apps/server/scripts/bundle.mjs', REPO).href;
        const { bundleServer } = (await import(script)) as {
          bundleServer: (options: { outDir: string }) => Promise<string[]>;
        };
        const files = await bundleServer({ outDir });
        // The dev routes are in the bundle, as a chunk of their own…
        expect(files.some((file) => file.startsWith('devRoutes-'))).toBe(true);
        const loaded = await recordStart(PRODUCTION_ENV(), join(outDir, 'main.js'));
        const fromBundle = loaded.filter(({ url }) => url.startsWith(pathToFileURL(outDir).href));
        expect(fromBundle.map(({ url }) => url)).toContain(pathToFileURL(join(outDir, 'main.js')).href);
        // …which a production server does not load.
        expect(fromBundle.filter(({ url }) => /\/(devRoutes|sandbox\w*)-[^/]+\.js$/.test(url))).toEqual([]);
        expect(unwantedInProduction(loaded)).toEqual([]);
        // What it bundled is not loaded again from node_modules (Fastify and pino were hundreds of files of a start).
        const bundled = ['viem', 'kysely', 'fastify', '@fastify/swagger', 'cookie', 'pino', 'avvio'];
        expect([...packagesOf(loaded)].filter((name) => bundled.includes(name))).toEqual([]);
      } finally {
        rmSync(outDir, { recursive: true, force: true });
      }
    },
    START_TIMEOUT_MS,
  );
});
