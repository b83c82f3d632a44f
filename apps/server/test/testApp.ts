import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { type Channel, DEFAULT_ONRAMP_OFFERS } from '@dial/core';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Kysely } from 'kysely';
import { afterEach } from 'vitest';
import { applyDueChanges } from '../src/accountChanges/changeAccount.js';
import { type AppDeps, buildApp } from '../src/app.js';
import type { AppContext } from '../src/appContext.js';
import { DEVICE_COOKIE } from '../src/auth/devices.js';
import { SESSION_COOKIE } from '../src/auth/sessions.js';
import { type AppConfig, DEFAULT_HTTP_LIMITS, type OnrampConfig } from '../src/config/index.js';
import { DEFAULT_OTP_POLICY } from '../src/config/otpPolicy.js';
import { RATE_LIMITS } from '../src/config/rateLimits.js';
import type { Database } from '../src/db/database.js';
import type { MessageTransport, OutboundMessage } from '../src/delivery/index.js';

/** The origin test requests come from, as a browser on the app's own page would send it. */
export const ORIGIN = 'http://localhost:8080';

/** A valid UK mobile number in E.164 (07700 900xxx is reserved for fiction and refused as invalid). */
/** The sandbox on-ramp, as loadConfig sets it up in development without CDP keys. */
export const SANDBOX_ONRAMP: OnrampConfig = {
  provider: 'sandbox',
  appId: 'dial-test',
  coinbase: null,
  offers: DEFAULT_ONRAMP_OFFERS,
  btcAddress: null,
  solAddress: null,
};

export const PHONE = '+447400123456';

/** A configuration for tests: development, a random key, no web app, no local chain. */
export function testConfig(overrides: Partial<AppConfig> = {}): AppConfig {
  return {
    environment: 'development',
    host: '127.0.0.1',
    devAllowRemote: false,
    port: 8080,
    publicUrl: ORIGIN,
    // As loadConfig makes it: PUBLIC_URL's host name.
    appId: 'localhost',
    allowedOrigins: [ORIGIN, 'http://127.0.0.1:8080'],
    dataDir: join('/nonexistent', 'dial-test-data'),
    databaseUrl: undefined,
    redis: null,
    shareEncryptionKey: new Uint8Array(randomBytes(32)),
    mail: { smtpUrl: undefined, from: 'Dial <no-reply@localhost>' },
    twilio: undefined,
    allowlist: null,
    maxUsers: null,
    maxSignInMethods: 5,
    maxWalletDevices: 10,
    coolingOffHours: 48,
    walletConnect: null,
    localChain: null,
    rpcUrls: {},
    session: { idleHours: 24, maxDays: 7 },
    trustProxy: false,
    ipv6PrefixLength: 64,
    http: DEFAULT_HTTP_LIMITS,
    logLevel: 'silent',
    webDistDir: join('/nonexistent', 'web-dist'),
    otp: DEFAULT_OTP_POLICY,
    rateLimits: RATE_LIMITS,
    onramp: null,
    prices: { source: 'sandbox', url: 'https://api.coinbase.com' },
    // Off: a test that wants the chain watcher runs it (`watchChains`) or starts its timer itself.
    chainWatch: { intervalMs: 0, modes: {} },
    // No user operations nor sponsored fees: the sponsorship suites configure their own.
    sponsorship: {
      bundlerUrls: {},
      paymasters: {},
      signerKey: null,
      calls: 'off',
      accountDailyLimit: 10,
      dailyCapsWei: {},
      operatorName: 'Dial test',
      operatorToken: null,
    },
    ...overrides,
  };
}

/** A clock the test moves by hand. */
export interface TestClock {
  now: () => Date;
  advance(ms: number): void;
}

export function createClock(start = '2030-01-01T12:00:00.000Z'): TestClock {
  let time = Date.parse(start);
  return {
    now: () => new Date(time),
    advance(ms) {
      time += ms;
    },
  };
}

/** A transport that keeps what it is asked to send, for tests to read the codes. */
export interface RecordingTransport extends MessageTransport {
  sent: OutboundMessage[];
  /** The code of the latest message to `to`. */
  lastCode(to: string): string;
}

export function createRecordingTransport(): RecordingTransport {
  const sent: OutboundMessage[] = [];
  return {
    name: 'recording',
    sent,
    async send(message) {
      sent.push(message);
    },
    lastCode(to) {
      const message = sent.findLast((candidate) => candidate.to === to);
      if (message?.code === undefined) throw new Error(`no code was sent to ${to}`);
      return message.code;
    },
  };
}

/** A running test app, its clock and recorded messages, and helpers to call it like the web app does. */
export interface TestApp {
  app: FastifyInstance;
  clock: TestClock;
  transport: RecordingTransport;
  config: AppConfig;
  /** A same-origin JSON POST, optionally with a session cookie. */
  post(url: string, body?: unknown, options?: RequestOptions): Promise<LightMyRequestResponse>;
  get(url: string, options?: RequestOptions): Promise<LightMyRequestResponse>;
  /** Asks for a code and returns it. */
  requestCode(channel: Channel, to: string, options?: RequestOptions): Promise<string>;
  /** Signs in (up) with a fresh code and returns the session token and the answer. */
  signIn(channel: Channel, to: string): Promise<{ token: string; response: LightMyRequestResponse }>;
  /**
   * Makes the account changes whose cooling-off period has ended, as the app's timer does every 30 s (that
   * timer runs on real time; a test moves `clock` and calls this). Returns how many came due.
   */
  applyDueChanges(): Promise<number>;
}

export interface RequestOptions {
  /** The session token to send as the `dial_session` cookie. */
  token?: string;
  headers?: Record<string, string>;
  /** The client address. */
  ip?: string;
  /**
   * The `dial_device` cookie to send: a token, or `null` for none (another browser). By default the test
   * app's own browser: it sends the device cookie its earlier answers set, and keeps the one this answer sets.
   */
  device?: string | null;
}

/**
 * Builds an app for a test on `db` with a recording transport on both channels and a test clock; closes it
 * after the test.
 */
export async function createTestApp(
  db: Kysely<Database>,
  options: { config?: Partial<AppConfig>; deps?: AppDeps } = {},
): Promise<TestApp> {
  const clock = createClock();
  const transport = createRecordingTransport();
  const config = testConfig(options.config);
  const deps: AppDeps = {
    db,
    now: clock.now,
    transports: { sms: transport, email: transport },
    ...options.deps,
  };
  const app = await buildApp(config, deps);
  appsToClose.push(app);

  /** The device cookie of the test app's own browser, as its answers set it. */
  let device: string | undefined;
  const headersFor = (options: RequestOptions = {}) => {
    const deviceToken = options.device === undefined ? device : (options.device ?? undefined);
    const cookies = [
      ...(options.token === undefined ? [] : [`${SESSION_COOKIE}=${options.token}`]),
      ...(deviceToken === undefined ? [] : [`${DEVICE_COOKIE}=${deviceToken}`]),
    ];
    return { ...(cookies.length === 0 ? {} : { cookie: cookies.join('; ') }), ...options.headers };
  };
  const keepDevice = (response: LightMyRequestResponse, options: RequestOptions) => {
    const set = response.cookies.find((cookie) => cookie.name === DEVICE_COOKIE);
    if (options.device === undefined && set !== undefined) device = set.value;
    return response;
  };
  const post: TestApp['post'] = async (url, body, options = {}) =>
    keepDevice(
      await app.inject({
        method: 'POST',
        url,
        headers: { origin: ORIGIN, ...headersFor(options) },
        ...(options.ip === undefined ? {} : { remoteAddress: options.ip }),
        ...(body === undefined ? {} : { payload: body as object }),
      }),
      options,
    );
  const get: TestApp['get'] = async (url, options = {}) =>
    keepDevice(
      await app.inject({
        method: 'GET',
        url,
        headers: headersFor(options),
        ...(options.ip === undefined ? {} : { remoteAddress: options.ip }),
      }),
      options,
    );

  const testApp: TestApp = {
    app,
    clock,
    transport,
    config,
    post,
    get,
    async requestCode(channel, to, requestOptions) {
      const response = await post('/api/auth/otp/start', { channel, to }, requestOptions);
      if (response.statusCode !== 200)
        throw new Error(`otp/start answered ${response.statusCode}: ${response.body}`);
      return transport.lastCode(response.json().to);
    },
    async signIn(channel, to) {
      const code = await testApp.requestCode(channel, to);
      const response = await post('/api/auth/otp/verify', { channel, to, code });
      if (response.statusCode !== 200)
        throw new Error(`otp/verify answered ${response.statusCode}: ${response.body}`);
      return { token: sessionToken(response), response };
    },
    applyDueChanges() {
      // The app's context is not reachable from outside; these are the parts applyDueChanges uses, the app's
      // own (its database, clock, configuration and transports). Live streams see the events at their next poll.
      const ctx = {
        config,
        db: deps.db ?? db,
        now: deps.now ?? clock.now,
        transports: deps.transports ?? {},
      };
      return applyDueChanges(ctx as AppContext, app.log);
    },
  };
  return testApp;
}

/** The session token an answer sets, or throws. */
export function sessionToken(response: LightMyRequestResponse): string {
  const cookie = response.cookies.find((candidate) => candidate.name === SESSION_COOKIE);
  if (cookie === undefined || cookie.value === '') throw new Error('no session cookie was set');
  return cookie.value;
}

const appsToClose: FastifyInstance[] = [];
afterEach(async () => {
  while (appsToClose.length > 0) await appsToClose.pop()?.close();
});
