// The bench's Dial server in development mode (the production build with its local chain and bundler), and
// the dev outbox's codes: shared by the sections that drive the web app in Chromium (wallet.mjs, fees.mjs).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, ROOT, SERVER_MAIN, SERVER_NODE_OPTIONS } from './lib.mjs';

/**
 * Dial's production build in development mode with its local dev chain and bundler, on free ports (as the e2e
 * tests). `env` adds or overrides variables (say, `SPONSOR_CALLS: 'off'`).
 */
export async function startDevServer({ webDist, env = {} } = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'dial-bench-server-'));
  const logPath = join(dataDir, 'server.log');
  const logFd = openSync(logPath, 'w');
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [...SERVER_NODE_OPTIONS, SERVER_MAIN], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'development',
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: origin,
      DATA_DIR: dataDir,
      LOCAL_CHAIN: 'on',
      LOCAL_CHAIN_PORT: String(await freePort()),
      LOCAL_BUNDLER_PORT: String(await freePort()),
      // Every run signs in twice from 127.0.0.1: lift the per-IP code limits (the per-address ones apply).
      OTP_STARTS_PER_IP: '1000',
      OTP_VERIFIES_PER_IP: '1000',
      LOG_LEVEL: 'warn',
      ...(webDist !== undefined ? { WEB_DIST_DIR: webDist } : {}),
      ...env,
    },
    stdio: ['ignore', logFd, logFd],
  });
  closeSync(logFd);
  const exited = once(child, 'exit');
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) {
      const output = readFileSync(logPath, 'utf8');
      await stop();
      throw new Error(`the server exited (${child.exitCode}) before answering:\n${output}`);
    }
    const ok = await fetch(`${origin}/api/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error('the server did not answer /api/health within 60 s');
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { origin, stop };
}

/** The dev outbox's messages to `to`, newest first. */
export async function outbox(origin, to) {
  const response = await fetch(`${origin}/dev/outbox.json`);
  if (!response.ok) throw new Error(`GET /dev/outbox.json answered ${response.status}`);
  const { messages } = await response.json();
  return messages.filter((message) => message.to === to);
}

/** Waits for a new code to `to` in the dev outbox (one not in `seen`). */
export async function waitForCode(origin, to, seen) {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const latest = (await outbox(origin, to)).find((message) => message.code !== undefined);
    if (latest !== undefined && !seen.has(latest.id)) return latest.code;
    if (Date.now() > deadline) throw new Error(`no code for ${to} in the dev outbox`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
