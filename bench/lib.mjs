// What the bench modules (bench/*.mjs) share: medians, free ports, and Dial's built server started in a
// process of its own.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../', import.meta.url));
/** Dial's built server (`npm run build` writes it). */
export const SERVER_MAIN = join(ROOT, 'apps/server/dist/main.js');
/** How long a server may take to answer its first request before the bench gives up. */
const START_TIMEOUT_MS = 60_000;

/** The median of some numbers (the mean of the middle two for an even count). */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

export function round2(value) {
  return Math.round(value * 100) / 100;
}

/** A TCP port free on 127.0.0.1 right now. */
export async function freePort() {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Starts `node file` with `env` (and HOST, PORT, DATA_DIR: a fresh temporary directory, removed on stop) and
 * waits for its first `200` on `readyPath`. Its output goes to a file in DATA_DIR, shown if it exits early.
 *
 * @returns {Promise<{url: (path: string) => string, dataDir: string, stop: () => Promise<void>,
 *   databaseUrl: string | undefined, pid: number}>}
 */
export async function startProcess(file, env, readyPath) {
  const dataDir = mkdtempSync(join(tmpdir(), 'dial-bench-'));
  const logPath = join(dataDir, 'server.log');
  const logFd = openSync(logPath, 'w');
  const port = await freePort();
  const child = spawn(process.execPath, [file], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: String(port), DATA_DIR: dataDir, ...env },
    stdio: ['ignore', logFd, logFd],
  });
  closeSync(logFd);
  const exited = once(child, 'exit');
  const url = (path) => `http://127.0.0.1:${port}${path}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null) {
      const output = readFileSync(logPath, 'utf8');
      await stop();
      throw new Error(`${file} exited (${child.exitCode}) before answering:\n${output}`);
    }
    if ((await statusOf(url(readyPath))) === 200) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`${file} did not answer ${readyPath} within ${START_TIMEOUT_MS} ms`);
    }
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  return { url, dataDir, stop, databaseUrl: env.DATABASE_URL, pid: child.pid };
}

function statusOf(url) {
  return new Promise((resolve) => {
    const req = request(url, { agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode);
    });
    req.on('error', () => resolve(0));
    req.end();
  });
}
