import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_EXECUTABLE } from './chromium.mjs';

// The browser tests run the built app (`npm run build` first) exactly as `npm start` does, on its own ports
// and a fresh data directory, so they never touch a developer's ./data.
const port = Number(process.env.E2E_PORT ?? 8181);
const chainPort = Number(process.env.E2E_CHAIN_PORT ?? 8646);
// The local chain's ERC-4337 bundler, started by the server beside the chain: a port of its own, not 4337.
const bundlerPort = Number(process.env.E2E_BUNDLER_PORT ?? 8648);
process.env.E2E_BUNDLER_PORT = String(bundlerPort);
// Inherited by the workers: the test wallet (tests/testWallet.ts) sends to the local chain from Node.
process.env.E2E_CHAIN_PORT = String(chainPort);
// WalletConnect is on for every test: the server sends the browser to a relay stand-in (@dial/wcrelay) on
// this port, which tests/walletconnect.spec.ts starts in its worker, where it can read what the stand-in saw.
// Other specs only see the "WalletConnect" choice on the sign-in screen; nothing connects until it is picked.
const walletConnectRelayPort = Number(process.env.E2E_WALLETCONNECT_RELAY_PORT ?? 8647);
process.env.E2E_WALLETCONNECT_RELAY_PORT = String(walletConnectRelayPort);
const walletConnectProjectId = process.env.E2E_WALLETCONNECT_PROJECT_ID ?? '0123456789abcdef0123456789abcdef';
process.env.E2E_WALLETCONNECT_PROJECT_ID = walletConnectProjectId;
// Set once in the runner and inherited by the workers, so tests can reach the server's database
// (tests/database.ts) to put it in states the clock would take too long to reach.
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(join(tmpdir(), 'dial-e2e-'));
process.env.E2E_DATA_DIR = dataDir;
export const baseURL = `http://localhost:${port}`;

export default defineConfig({
  testDir: './tests',
  outputDir: './artifacts/test-results',
  timeout: 60_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  forbidOnly: Boolean(process.env.CI),
  reporter: [['list'], ['html', { outputFolder: './artifacts/report', open: 'never' }]],
  use: {
    baseURL,
    locale: 'en-GB',
    screenshot: 'on',
    trace: 'retain-on-failure',
    launchOptions: { executablePath: CHROMIUM_EXECUTABLE, args: [...CHROMIUM_ARGS] },
  },
  webServer: {
    command: 'node ../apps/server/dist/main.js',
    url: `${baseURL}/api/health`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'pipe',
    stderr: 'pipe',
    env: {
      NODE_ENV: 'development',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: baseURL,
      DATA_DIR: dataDir,
      LOCAL_CHAIN: 'on',
      LOCAL_CHAIN_PORT: String(chainPort),
      LOCAL_BUNDLER_PORT: String(bundlerPort),
      WALLETCONNECT_PROJECT_ID: walletConnectProjectId,
      WALLETCONNECT_RELAY_URL: `ws://127.0.0.1:${walletConnectRelayPort}`,
      // Every test signs in from 127.0.0.1: lift the per-IP code limits (the per-address ones still apply).
      OTP_STARTS_PER_IP: '1000',
      OTP_VERIFIES_PER_IP: '1000',
      // Request logs would drown the test report; warnings and errors still show.
      LOG_LEVEL: 'warn',
    },
  },
});
