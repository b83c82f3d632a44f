import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Starts the real server (src/main.ts, in a child `node`) with module hooks that write down every module it
 * loads (importRecorder/), and checks that a production server loads nothing of the dev chain: not
 * @dial/devchain (packages/devchain), not EDR, not the dev routes. A static import of any of them, anywhere
 * in the server, would put it on the list. The development run shows that the recorder does see them when
 * they load.
 */

const REPO = new URL('../../../', import.meta.url);
const MAIN = fileURLToPath(new URL('apps/server/src/main.ts', REPO));
const REGISTER = fileURLToPath(new URL('apps/server/test/importRecorder/register.mjs', REPO));
const DEVCHAIN_PACKAGE = new URL('packages/devchain/', REPO).href;
const DEV_ROUTES = new URL('apps/server/src/dev/devRoutes.ts', REPO).href;
const APP = new URL('apps/server/src/app.ts', REPO).href;
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

/** Starts the server with `env`, checks GET /api/health, stops it, and returns what it loaded. */
async function recordStart(env: Record<string, string>): Promise<LoadedModule[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'dial-imports-'));
  const logPath = join(dataDir, 'imports.tsv');
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', REGISTER, MAIN], {
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

describe('what a server loads at start', () => {
  it(
    'in production: nothing of the dev chain (@dial/devchain, EDR) and not the dev routes',
    async () => {
      const loaded = await recordStart({
        NODE_ENV: 'production',
        SHARE_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      });
      // The recorder saw the server itself…
      expect(loaded.map(({ url }) => url)).toContain(APP);
      // …and none of these.
      expect(devChainModules(loaded)).toEqual([]);
      expect(loaded.filter(({ url }) => url === DEV_ROUTES)).toEqual([]);
    },
    START_TIMEOUT_MS,
  );

  it(
    'in development with the local chain on: the dev chain, EDR and the dev routes (the recorder sees them)',
    async () => {
      const loaded = await recordStart({
        NODE_ENV: 'development',
        LOCAL_CHAIN_PORT: String(await freePort()),
      });
      const urls = loaded.map(({ url }) => url);
      expect(urls).toContain(new URL('src/devChain.ts', DEVCHAIN_PACKAGE).href);
      expect(loaded.some(({ specifier }) => specifier === '@nomicfoundation/edr')).toBe(true);
      expect(urls).toContain(DEV_ROUTES);
    },
    START_TIMEOUT_MS,
  );
});
