import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { watchedChains } from '../src/chainWatch/watchedChains.js';
import {
  ConfigError,
  DEFAULT_HTTP_LIMITS,
  isLoopbackHost,
  loadConfig,
  parseKey,
  parseTrustProxy,
} from '../src/config/index.js';
import { DEFAULT_OTP_POLICY } from '../src/config/otpPolicy.js';
import { RATE_LIMITS } from '../src/config/rateLimits.js';
import { wakeChannel } from '../src/events/redisWake.js';

const HEX_KEY = 'ab'.repeat(32);

describe('loadConfig', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'dial-config-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('gives the development defaults with nothing set but DATA_DIR', () => {
    const config = loadConfig({ DATA_DIR: dataDir });
    expect(config).toMatchObject({
      environment: 'development',
      host: '127.0.0.1',
      port: 8080,
      publicUrl: 'http://localhost:8080',
      dataDir,
      databaseUrl: undefined,
      redis: null,
      mail: { smtpUrl: undefined, from: 'Dial <no-reply@localhost>' },
      twilio: undefined,
      allowlist: null,
      maxUsers: null,
      localChain: { start: true, port: 8545, rpcUrl: 'http://127.0.0.1:8545' },
      rpcUrls: {},
      session: { idleHours: 24, maxDays: 7 },
      trustProxy: false,
      devAllowRemote: false,
      http: {
        requestTimeoutSeconds: 30,
        headersTimeoutSeconds: 10,
        idleTimeoutSeconds: 65,
        maxConnections: 1000,
      },
      logLevel: 'info',
    });
    expect(config.http).toEqual(DEFAULT_HTTP_LIMITS);
    expect(config.allowedOrigins).toEqual(['http://localhost:8080', 'http://127.0.0.1:8080']);
    expect(config.webDistDir).toMatch(/apps[\\/]web[\\/]dist$/);
  });

  it('resolves DATA_DIR against the working directory, default ./data', () => {
    const config = loadConfig({ SHARE_ENCRYPTION_KEY: HEX_KEY });
    expect(config.dataDir).toBe(join(process.cwd(), 'data'));
  });

  it('leaves the key to DATA_DIR/share-encryption.key without SHARE_ENCRYPTION_KEY, writing no file itself', () => {
    const config = loadConfig({ DATA_DIR: join(dataDir, 'new'), NODE_ENV: 'test' });
    expect(config.shareKey).toEqual({ kind: 'file', path: join(dataDir, 'new', 'share-encryption.key') });
    expect(existsSync(join(dataDir, 'new'))).toBe(false);
    expect(loadConfig({ DATA_DIR: dataDir, SHARE_ENCRYPTION_KEY: HEX_KEY }).shareKey).toEqual({
      kind: 'value',
      key: new Uint8Array(Buffer.from(HEX_KEY, 'hex')),
    });
  });

  it('reads SHARE_ENCRYPTION_KEY as hex or base64', () => {
    const bytes = Buffer.from(HEX_KEY, 'hex');
    expect(Buffer.from(parseKey(HEX_KEY))).toEqual(bytes);
    expect(Buffer.from(parseKey(bytes.toString('base64')))).toEqual(bytes);
    expect(Buffer.from(parseKey(bytes.toString('base64url')))).toEqual(bytes);
  });

  it.each(['abc', 'ab'.repeat(31), Buffer.alloc(16).toString('base64'), 'zz'.repeat(32)])(
    'refuses the key %j',
    (key) => {
      expect(() => loadConfig({ DATA_DIR: dataDir, SHARE_ENCRYPTION_KEY: key })).toThrow(ConfigError);
    },
  );

  it('refuses to start in production without SHARE_ENCRYPTION_KEY', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', DATA_DIR: dataDir })).toThrow(
      /SHARE_ENCRYPTION_KEY is required/,
    );
  });

  it('turns the dev features off in production and keeps only PUBLIC_URL as origin', () => {
    const config = loadConfig({
      NODE_ENV: 'production',
      SHARE_ENCRYPTION_KEY: HEX_KEY,
      PUBLIC_URL: 'https://wallet.example.com',
      DATA_DIR: dataDir,
    });
    expect(config.localChain).toBeNull();
    expect(config.allowedOrigins).toEqual(['https://wallet.example.com']);
  });

  it('refuses LOCAL_CHAIN=on in production', () => {
    expect(() =>
      loadConfig({
        NODE_ENV: 'production',
        SHARE_ENCRYPTION_KEY: HEX_KEY,
        LOCAL_CHAIN: 'on',
        DATA_DIR: dataDir,
      }),
    ).toThrow(/LOCAL_CHAIN=on is for development only/);
  });

  it('uses LOCAL_CHAIN_URL instead of starting a chain, and LOCAL_CHAIN=off for none', () => {
    expect(loadConfig({ DATA_DIR: dataDir, LOCAL_CHAIN_URL: 'http://127.0.0.1:9545' }).localChain).toEqual({
      start: false,
      port: 8545,
      rpcUrl: 'http://127.0.0.1:9545',
    });
    expect(loadConfig({ DATA_DIR: dataDir, LOCAL_CHAIN_PORT: '8646' }).localChain?.rpcUrl).toBe(
      'http://127.0.0.1:8646',
    );
    expect(loadConfig({ DATA_DIR: dataDir, LOCAL_CHAIN: 'off' }).localChain).toBeNull();
    expect(loadConfig({ DATA_DIR: dataDir, NODE_ENV: 'test' }).localChain).toBeNull();
  });

  it('normalises the ALLOWLIST: e-mails lower-cased, phones to E.164', () => {
    const config = loadConfig({
      DATA_DIR: dataDir,
      ALLOWLIST:
        ' Ada@Example.com , +44 7400 123456,,+1 (201) 555-0123 , 0x8ba1f109551bd432803012645ac136ddd64dba72',
    });
    expect(config.allowlist).toEqual({
      emails: ['ada@example.com'],
      phones: ['+447400123456', '+12015550123'],
      wallets: ['0x8ba1f109551bD432803012645Ac136ddd64DBA72'],
    });
  });

  it('refuses a national phone number in the ALLOWLIST at start, naming the setting and the entry', () => {
    // Read as American before: now every phone number the server reads is in international form.
    for (const entry of ['(201) 555-0123', '2015550123', '07400 123456']) {
      let message = '';
      try {
        loadConfig({ DATA_DIR: dataDir, ALLOWLIST: `ada@example.com, ${entry}` });
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).toMatch(
        /^ALLOWLIST has an entry that is not .* a valid phone number in international form/,
      );
      expect(message).toContain(`${JSON.stringify(entry)} (not in international form)`);
    }
  });

  it('refuses an ALLOWLIST entry that is neither', () => {
    expect(() => loadConfig({ DATA_DIR: dataDir, ALLOWLIST: 'ada@example.com, +44123' })).toThrow(
      /"\+44123"/,
    );
    // A mixed-case address whose EIP-55 checksum is wrong.
    expect(() =>
      loadConfig({ DATA_DIR: dataDir, ALLOWLIST: '0x8BA1f109551bD432803012645Ac136ddd64DBA72' }),
    ).toThrow(/"0x8BA1f109551bD432803012645Ac136ddd64DBA72"/);
  });

  it('reads WalletConnect: both variables or neither, a wss:// relay in production, and MAX_SIGN_IN_METHODS', () => {
    const projectId = '0123456789abcdef0123456789ABCDEF';
    expect(loadConfig({ DATA_DIR: dataDir }).walletConnect).toBeNull();
    expect(loadConfig({ DATA_DIR: dataDir }).maxSignInMethods).toBe(5);
    expect(loadConfig({ DATA_DIR: dataDir, MAX_SIGN_IN_METHODS: '2' }).maxSignInMethods).toBe(2);
    expect(() => loadConfig({ DATA_DIR: dataDir, MAX_SIGN_IN_METHODS: '0' })).toThrow(/MAX_SIGN_IN_METHODS/);
    expect(loadConfig({ DATA_DIR: dataDir }).maxWalletDevices).toBe(10);
    expect(loadConfig({ DATA_DIR: dataDir, MAX_WALLET_DEVICES: '3' }).maxWalletDevices).toBe(3);
    expect(() => loadConfig({ DATA_DIR: dataDir, MAX_WALLET_DEVICES: '0' })).toThrow(/MAX_WALLET_DEVICES/);
    expect(
      loadConfig({
        DATA_DIR: dataDir,
        WALLETCONNECT_PROJECT_ID: projectId,
        WALLETCONNECT_RELAY_URL: 'ws://127.0.0.1:9999',
      }).walletConnect,
    ).toEqual({ projectId: projectId.toLowerCase(), relayUrl: 'ws://127.0.0.1:9999' });
    expect(() => loadConfig({ DATA_DIR: dataDir, WALLETCONNECT_PROJECT_ID: projectId })).toThrow(
      /WALLETCONNECT_RELAY_URL/,
    );
    expect(() =>
      loadConfig({
        DATA_DIR: dataDir,
        WALLETCONNECT_PROJECT_ID: 'abc',
        WALLETCONNECT_RELAY_URL: 'wss://relay.test',
      }),
    ).toThrow(/32 hex digits/);
    expect(() =>
      loadConfig({
        DATA_DIR: dataDir,
        WALLETCONNECT_PROJECT_ID: projectId,
        WALLETCONNECT_RELAY_URL: 'https://relay.test',
      }),
    ).toThrow(/ws:\/\/ or wss:\/\//);
    expect(() =>
      loadConfig({
        DATA_DIR: dataDir,
        NODE_ENV: 'production',
        PUBLIC_URL: 'https://wallet.example.com',
        SHARE_ENCRYPTION_KEY: 'ab'.repeat(32),
        WALLETCONNECT_PROJECT_ID: projectId,
        WALLETCONNECT_RELAY_URL: 'ws://relay.test',
      }),
    ).toThrow(/wss:\/\/ URL in production/);
  });

  describe('sponsored fees (BUNDLER_URL_*, PAYMASTER_*, SPONSOR_*, OPERATOR_*)', () => {
    const production = {
      NODE_ENV: 'production',
      SHARE_ENCRYPTION_KEY: HEX_KEY,
      PUBLIC_URL: 'https://wallet.example.com',
    };
    const SIGNER = `0x${'11'.repeat(32)}`;
    const PAYMASTER = '0x00000000000000000000000000000000000000aa';

    it('gives the local chain its bundler, transfers and a 1 ETH cap in development; nothing in production', () => {
      const development = loadConfig({ DATA_DIR: dataDir, LOCAL_BUNDLER_PORT: '4999' }).sponsorship;
      expect(development).toMatchObject({
        bundlerUrls: { 31337: 'http://127.0.0.1:4999' },
        paymasters: {},
        signerKey: null,
        calls: 'transfers',
        accountDailyLimit: 10,
        dailyCapsWei: { 31337: 10n ** 18n },
        operatorName: 'localhost',
        operatorToken: null,
      });
      const off = loadConfig({ DATA_DIR: dataDir, ...production }).sponsorship;
      expect(off).toMatchObject({ bundlerUrls: {}, paymasters: {}, calls: 'off', dailyCapsWei: {} });
      expect(off.operatorName).toBe('wallet.example.com');
    });

    it("reads a chain's bundler, Dial's own paymaster with its signer, the cap in wei, the policy and the operator", () => {
      const config = loadConfig({
        DATA_DIR: dataDir,
        ...production,
        BUNDLER_URL_8453: 'https://bundler.example.com/v1/KEY',
        PAYMASTER_ADDRESS_8453: PAYMASTER,
        PAYMASTER_SIGNER_KEY: SIGNER,
        SPONSOR_DAILY_CAP_8453: '0.05',
        SPONSOR_CALLS: 'dial-accounts',
        SPONSOR_ACCOUNT_DAILY_LIMIT: '3',
        OPERATOR_NAME: 'Example Wallet',
        OPERATOR_TOKEN: 'x'.repeat(40),
      }).sponsorship;
      expect(config).toEqual({
        bundlerUrls: { 8453: 'https://bundler.example.com/v1/KEY' },
        paymasters: { 8453: { kind: 'dial', address: '0x00000000000000000000000000000000000000AA' } },
        signerKey: SIGNER,
        calls: 'dial-accounts',
        accountDailyLimit: 3,
        dailyCapsWei: { 8453: 50_000_000_000_000_000n },
        operatorName: 'Example Wallet',
        operatorToken: 'x'.repeat(40),
      });
    });

    it.each([
      [
        { PAYMASTER_ADDRESS_8453: PAYMASTER, PAYMASTER_SIGNER_KEY: SIGNER, SPONSOR_DAILY_CAP_8453: '1' },
        /BUNDLER_URL_8453/,
      ],
      [
        {
          BUNDLER_URL_8453: 'https://b.example.com',
          PAYMASTER_ADDRESS_8453: PAYMASTER,
          PAYMASTER_SIGNER_KEY: SIGNER,
        },
        /SPONSOR_DAILY_CAP_8453/,
      ],
      [
        {
          BUNDLER_URL_8453: 'https://b.example.com',
          PAYMASTER_ADDRESS_8453: PAYMASTER,
          SPONSOR_DAILY_CAP_8453: '1',
        },
        /PAYMASTER_SIGNER_KEY/,
      ],
      [
        {
          BUNDLER_URL_8453: 'https://b.example.com',
          PAYMASTER_ADDRESS_8453: PAYMASTER,
          PAYMASTER_URL_8453: 'https://pm.example.com',
          PAYMASTER_SIGNER_KEY: SIGNER,
          SPONSOR_DAILY_CAP_8453: '1',
        },
        /not both/,
      ],
      [{ BUNDLER_URL_1: 'https://b.example.com' }, /supported chain/],
      [{ SPONSOR_DAILY_CAP_8453: 'lots' }, /SPONSOR_DAILY_CAP_8453/],
      [{ PAYMASTER_SIGNER_KEY: '0x1234' }, /PAYMASTER_SIGNER_KEY/],
      [{ OPERATOR_TOKEN: 'short' }, /OPERATOR_TOKEN/],
      [{ SPONSOR_CALLS: 'everything' }, /SPONSOR_CALLS/],
    ] as const)('refuses a half-configured or malformed sponsorship (%o)', (variables, message) => {
      expect(() => loadConfig({ DATA_DIR: dataDir, ...production, ...variables })).toThrow(message);
    });
  });

  it.each([
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['NODE_ENV', 'staging'],
    ['PUBLIC_URL', 'wallet.example.com'],
    ['PUBLIC_URL', 'https://wallet.example.com/app'],
    ['DATABASE_URL', 'mysql://localhost/dial'],
    ['MAX_USERS', '-1'],
    ['SESSION_IDLE_HOURS', '0'],
    ['TRUST_PROXY', 'yes'],
    ['LOG_LEVEL', 'loud'],
    ['SMTP_URL', 'http://mail.example.com'],
    ['TWILIO_ACCOUNT_SID', 'AC123'],
  ])('refuses %s=%s with a message naming it', (name, value) => {
    expect(() => loadConfig({ DATA_DIR: dataDir, [name]: value })).toThrow(
      expect.objectContaining({ name: 'ConfigError', message: expect.stringContaining(name) }),
    );
  });

  describe('REDIS_URL', () => {
    it.each([
      'redis://127.0.0.1:6379',
      'redis://cache.internal',
      'redis://:s3cret@cache.internal:6380/2',
      'redis://dial:s3cret@cache.internal/',
      'rediss://dial:s3cret@cache.example.com:6380/0',
    ])('keeps rate limits in the Redis at %s', (url) => {
      expect(loadConfig({ DATA_DIR: dataDir, REDIS_URL: url }).redis).toEqual({
        url,
        keyPrefix: 'dial:rate:',
      });
    });

    it.each([
      ['redis://127.0.0.1:6379', 'dial:rate:wallet-events:0:localhost'],
      ['redis://dial:s3cret@cache.internal/', 'dial:rate:wallet-events:0:localhost'],
      ['redis://cache.internal:6380/2', 'dial:rate:wallet-events:2:localhost'],
      ['rediss://cache.example.com/02', 'dial:rate:wallet-events:2:localhost'],
    ])('names the wake channel of %s by its database number and APP_ID: %s', (url, channel) => {
      const config = loadConfig({ DATA_DIR: dataDir, REDIS_URL: url });
      expect(wakeChannel(config.redis!, config.appId)).toBe(channel);
      const other = loadConfig({ DATA_DIR: dataDir, REDIS_URL: url, APP_ID: 'wallet-eu' });
      expect(wakeChannel(other.redis!, other.appId)).toBe(channel.replace(/localhost$/, 'wallet-eu'));
    });

    it.each([
      'http://cache.internal:6379',
      'cache.internal:6379',
      'redis://',
      'redis://cache.internal/zero',
      'redis://cache.internal/0/extra',
      'redis://cache.internal:6379?db=2',
      'redis://:s3cret@cache.internal:99999',
    ])('refuses %s with a message naming REDIS_URL, never repeating it', (url) => {
      let error: unknown;
      try {
        loadConfig({ DATA_DIR: dataDir, REDIS_URL: url });
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).message).toContain('REDIS_URL must be a Redis URL');
      expect((error as ConfigError).message).not.toContain('s3cret');
    });
  });

  describe('the chain watcher (CHAIN_WATCH_INTERVAL_SECONDS, WATCH_CHAIN_<chainId>)', () => {
    it('watches the local chain by its blocks every 5 s by default, and a chain with its own RPC by its logs', () => {
      const config = loadConfig({ DATA_DIR: dataDir, RPC_URL_8453: 'https://base.example.com/rpc' });
      expect(config.chainWatch).toEqual({ intervalMs: 5000, modes: {} });
      expect(watchedChains(config)).toEqual([
        { chainId: 31337, mode: 'blocks' },
        { chainId: 8453, mode: 'logs' },
      ]);
    });

    it('reads a mode per chain and the interval; 0 and off turn it off', () => {
      const config = loadConfig({
        DATA_DIR: dataDir,
        LOCAL_CHAIN: 'on',
        CHAIN_WATCH_INTERVAL_SECONDS: '0',
        WATCH_CHAIN_31337: 'logs',
        WATCH_CHAIN_137: 'blocks',
        WATCH_CHAIN_8453: 'off',
        RPC_URL_8453: 'https://base.example.com/rpc',
      });
      expect(config.chainWatch).toEqual({
        intervalMs: 0,
        modes: { 31337: 'logs', 137: 'blocks', 8453: 'off' },
      });
      expect(watchedChains(config)).toEqual([
        { chainId: 31337, mode: 'logs' },
        { chainId: 137, mode: 'blocks' },
      ]);
    });

    it.each([
      ['WATCH_CHAIN_1', 'logs', 'WATCH_CHAIN_1 does not name a supported chain'],
      ['WATCH_CHAIN_8453', 'all', 'WATCH_CHAIN_8453 must be one of blocks, logs, off'],
      ['CHAIN_WATCH_INTERVAL_SECONDS', '-1', 'CHAIN_WATCH_INTERVAL_SECONDS must be a whole number'],
    ])('refuses %s=%s', (name, value, message) => {
      expect(() => loadConfig({ DATA_DIR: dataDir, [name]: value })).toThrow(
        expect.objectContaining({ name: 'ConfigError', message: expect.stringContaining(message) }),
      );
    });
  });

  describe('RPC_URL_<chainId>', () => {
    it('reads one RPC URL per supported chain, as given, and nothing for chains without one', () => {
      const config = loadConfig({
        DATA_DIR: dataDir,
        RPC_URL_137: ' https://polygon.example.com/v1/KEY ',
        RPC_URL_8453: 'https://base.example.com/rpc?key=abc',
        RPC_URL_7777777: 'http://10.0.0.5:8545',
        RPC_URL_42161: '',
      });
      expect(config.rpcUrls).toEqual({
        137: 'https://polygon.example.com/v1/KEY',
        8453: 'https://base.example.com/rpc?key=abc',
        7777777: 'http://10.0.0.5:8545',
      });
      expect(Object.isFrozen(config.rpcUrls)).toBe(true);
    });

    it.each([
      ['RPC_URL_137', 'polygon.example.com'],
      ['RPC_URL_137', 'not a url'],
      ['RPC_URL_8453', 'wss://base.example.com'],
      ['RPC_URL_84532', 'ftp://sepolia.example.com'],
    ])('refuses %s=%s as not an http(s) URL, naming the variable', (name, value) => {
      expect(() => loadConfig({ DATA_DIR: dataDir, [name]: value })).toThrow(
        new ConfigError(`${name} must be an http:// or https:// URL, not ${JSON.stringify(value)}.`),
      );
    });

    it('refuses a user name or password in the URL, which browsers will not fetch', () => {
      expect(() =>
        loadConfig({ DATA_DIR: dataDir, RPC_URL_8453: 'https://user:secret@base.example.com' }),
      ).toThrow(
        expect.objectContaining({
          name: 'ConfigError',
          message: expect.stringMatching(/^RPC_URL_8453 must not hold a user name or password/),
        }),
      );
    });

    it.each(['RPC_URL_1', 'RPC_URL_10', 'RPC_URL_0137', 'RPC_URL_BASE', 'RPC_URL_'])(
      'refuses %s as no supported chain, listing the supported ids',
      (name) => {
        expect(() => loadConfig({ DATA_DIR: dataDir, [name]: 'https://rpc.example.com' })).toThrow(
          new ConfigError(
            `${name} does not name a supported chain: use RPC_URL_<chainId> with one of ` +
              '137, 42161, 8453, 84532, 7777777.',
          ),
        );
      },
    );

    it('points RPC_URL_31337 to LOCAL_CHAIN_URL', () => {
      expect(() => loadConfig({ DATA_DIR: dataDir, RPC_URL_31337: 'http://127.0.0.1:8545' })).toThrow(
        /^RPC_URL_31337 does not name a supported chain: .*\(the local chain is set with LOCAL_CHAIN_URL\)\.$/,
      );
    });
  });

  it('reads the providers, limits and switches', () => {
    const config = loadConfig({
      DATA_DIR: dataDir,
      PORT: '9000',
      DATABASE_URL: 'postgres://dial@db:5432/dial',
      SMTP_URL: 'smtps://user:pass@mail.example.com:465',
      MAIL_FROM: 'Wallet <wallet@example.com>',
      TWILIO_ACCOUNT_SID: 'AC123',
      TWILIO_AUTH_TOKEN: 'secret',
      TWILIO_FROM: '+15005550006',
      MAX_USERS: '100',
      SESSION_IDLE_HOURS: '2',
      SESSION_MAX_DAYS: '1.5',
      TRUST_PROXY: '2',
      LOG_LEVEL: 'warn',
    });
    expect(config).toMatchObject({
      port: 9000,
      publicUrl: 'http://localhost:9000',
      databaseUrl: 'postgres://dial@db:5432/dial',
      mail: { smtpUrl: 'smtps://user:pass@mail.example.com:465', from: 'Wallet <wallet@example.com>' },
      twilio: { accountSid: 'AC123', authToken: 'secret', from: '+15005550006', apiUrl: undefined },
      maxUsers: 100,
      session: { idleHours: 2, maxDays: 1.5 },
      trustProxy: 2,
      logLevel: 'warn',
    });
  });

  it('keeps the default code limits, and lets OTP_STARTS_PER_IP / OTP_VERIFIES_PER_IP raise the per-IP ones', () => {
    expect(loadConfig({ DATA_DIR: dataDir }).otp).toEqual(DEFAULT_OTP_POLICY);
    expect(loadConfig({ DATA_DIR: dataDir }).rateLimits).toEqual(RATE_LIMITS);
    const raised = loadConfig({
      DATA_DIR: dataDir,
      OTP_STARTS_PER_IP: '500',
      OTP_VERIFIES_PER_IP: '900',
    }).rateLimits;
    expect(raised).toEqual({
      ...RATE_LIMITS,
      otpStartsPerIp: { max: 500, windowSeconds: 3600 },
      otpVerifiesPerIp: { max: 900, windowSeconds: 600 },
    });
    expect(() => loadConfig({ DATA_DIR: dataDir, OTP_STARTS_PER_IP: '0' })).toThrow(
      /OTP_STARTS_PER_IP must be a whole number from 1/,
    );
    expect(() => loadConfig({ DATA_DIR: dataDir, OTP_VERIFIES_PER_IP: 'many' })).toThrow(ConfigError);
  });

  it('counts an IPv6 client by its /64 by default, and reads IPV6_PREFIX_LENGTH from 32 to 128', () => {
    expect(loadConfig({ DATA_DIR: dataDir }).ipv6PrefixLength).toBe(64);
    expect(loadConfig({ DATA_DIR: dataDir, IPV6_PREFIX_LENGTH: '48' }).ipv6PrefixLength).toBe(48);
    expect(loadConfig({ DATA_DIR: dataDir, IPV6_PREFIX_LENGTH: '128' }).ipv6PrefixLength).toBe(128);
    for (const value of ['31', '129', '64.5', '/64']) {
      expect(() => loadConfig({ DATA_DIR: dataDir, IPV6_PREFIX_LENGTH: value })).toThrow(
        /^IPV6_PREFIX_LENGTH must be a whole number from 32 to 128/,
      );
    }
  });

  it("reads APP_ID as the deployment's id, PUBLIC_URL's host name by default, with or without an on-ramp", () => {
    expect(loadConfig({ DATA_DIR: dataDir }).appId).toBe('localhost');
    const production = {
      DATA_DIR: dataDir,
      NODE_ENV: 'production',
      SHARE_ENCRYPTION_KEY: HEX_KEY,
      PUBLIC_URL: 'https://wallet.example.com',
    };
    expect(loadConfig(production)).toMatchObject({ appId: 'wallet.example.com', onramp: null });
    expect(loadConfig({ ...production, APP_ID: 'wallet-eu' }).appId).toBe('wallet-eu');
  });

  describe('TRUST_PROXY', () => {
    it.each([
      [undefined, false],
      ['false', false],
      ['1', 1],
      ['3', 3],
      ['10.0.0.1', ['10.0.0.1']],
      [' 10.0.0.0/8 , fd00::/8,loopback ', ['10.0.0.0/8', 'fd00::/8', 'loopback']],
      ['192.0.2.7/32,2001:db8::1', ['192.0.2.7/32', '2001:db8::1']],
    ])('reads %j as %j', (text, trustProxy) => {
      expect(
        loadConfig({ DATA_DIR: dataDir, ...(text === undefined ? {} : { TRUST_PROXY: text }) }).trustProxy,
      ).toEqual(trustProxy);
    });

    it('refuses true, saying what to write instead', () => {
      expect(() => loadConfig({ DATA_DIR: dataDir, TRUST_PROXY: 'true' })).toThrow(
        new ConfigError(
          'TRUST_PROXY=true trusts any X-Forwarded-For a client writes, so every per-IP limit could be dodged; ' +
            'set the number of proxies in front of Dial (TRUST_PROXY=1) or their addresses ' +
            '(TRUST_PROXY=10.0.0.0/8, or several separated by commas).',
        ),
      );
    });

    it.each([
      '0',
      '101',
      '-1',
      '1.5',
      'yes',
      'TRUE',
      '10.0.0',
      '10.0.0.0/33',
      '::1/129',
      '0.0.0.0/0',
      '::/0',
      '10.0.0.0/7',
      'fc00::/7',
      '10.0.0.0/8/1',
      'proxy.internal',
      '10.0.0.1,',
      '10.0.0.1/',
    ])('refuses %j with a message naming TRUST_PROXY and what to write', (text) => {
      expect(() => parseTrustProxy(text)).toThrow(ConfigError);
      expect(() => parseTrustProxy(text)).toThrow(/^TRUST_PROXY .*\(TRUST_PROXY=1\) or their addresses/);
    });
  });

  describe('HOST in development (the dev outbox shows every sign-in code)', () => {
    it.each(['127.0.0.1', 'localhost', '127.0.0.2', '::1', '[::1]', '0:0:0:0:0:0:0:1'])(
      'listens on the loopback interface %s',
      (host) => {
        expect(loadConfig({ DATA_DIR: dataDir, HOST: host }).host).toBe(host);
      },
    );

    it.each(['0.0.0.0', '::', '192.168.1.20', '10.0.0.5', 'fe80::1', '::ffff:10.0.0.1', 'my-laptop.local'])(
      'refuses %s, naming NODE_ENV=production and DEV_ALLOW_REMOTE',
      (host) => {
        expect(() => loadConfig({ DATA_DIR: dataDir, HOST: host })).toThrow(
          expect.objectContaining({
            name: 'ConfigError',
            message: expect.stringMatching(
              new RegExp(
                `^HOST=${host.replaceAll('.', '\\.')} would let other machines reach this development server.*` +
                  '/dev/outbox.*NODE_ENV=production.*DEV_ALLOW_REMOTE=true',
              ),
            ),
          }),
        );
      },
    );

    it('listens on any interface with DEV_ALLOW_REMOTE=true', () => {
      const config = loadConfig({ DATA_DIR: dataDir, HOST: '0.0.0.0', DEV_ALLOW_REMOTE: 'true' });
      expect(config).toMatchObject({ host: '0.0.0.0', devAllowRemote: true, environment: 'development' });
    });

    it('leaves HOST to the operator in production only: NODE_ENV=test has the dev outbox too', () => {
      expect(
        loadConfig({
          DATA_DIR: dataDir,
          NODE_ENV: 'production',
          SHARE_ENCRYPTION_KEY: HEX_KEY,
          HOST: '0.0.0.0',
        }).host,
      ).toBe('0.0.0.0');
      expect(() => loadConfig({ DATA_DIR: dataDir, NODE_ENV: 'test', HOST: '::' })).toThrow(
        /^HOST=:: would let other machines reach/,
      );
      expect(
        loadConfig({ DATA_DIR: dataDir, NODE_ENV: 'test', HOST: '::', DEV_ALLOW_REMOTE: 'true' }).host,
      ).toBe('::');
    });

    it('refuses DEV_ALLOW_REMOTE in production, and anything but true or false', () => {
      expect(() =>
        loadConfig({ NODE_ENV: 'production', SHARE_ENCRYPTION_KEY: HEX_KEY, DEV_ALLOW_REMOTE: 'true' }),
      ).toThrow(/^DEV_ALLOW_REMOTE is for development only/);
      expect(() => loadConfig({ DATA_DIR: dataDir, DEV_ALLOW_REMOTE: 'yes' })).toThrow(
        /^DEV_ALLOW_REMOTE must be one of true, false/,
      );
    });

    it.each([
      ['localhost', true],
      ['127.255.0.9', true],
      ['::ffff:127.0.0.1', true],
      ['0.0.0.0', false],
      ['::', false],
      ['128.0.0.1', false],
      ['localhost.example.com', false],
    ])('isLoopbackHost(%j) is %s', (host, loopback) => {
      expect(isLoopbackHost(host)).toBe(loopback);
    });
  });

  describe('timeouts and the connection cap', () => {
    it('reads REQUEST_TIMEOUT_SECONDS, HEADERS_TIMEOUT_SECONDS, IDLE_TIMEOUT_SECONDS and MAX_CONNECTIONS', () => {
      expect(
        loadConfig({
          DATA_DIR: dataDir,
          REQUEST_TIMEOUT_SECONDS: '20',
          HEADERS_TIMEOUT_SECONDS: '2.5',
          IDLE_TIMEOUT_SECONDS: '120',
          MAX_CONNECTIONS: '250',
        }).http,
      ).toEqual({
        requestTimeoutSeconds: 20,
        headersTimeoutSeconds: 2.5,
        idleTimeoutSeconds: 120,
        maxConnections: 250,
      });
    });

    it('keeps the headers timeout within a shorter request timeout', () => {
      expect(loadConfig({ DATA_DIR: dataDir, REQUEST_TIMEOUT_SECONDS: '5' }).http).toMatchObject({
        requestTimeoutSeconds: 5,
        headersTimeoutSeconds: 5,
      });
      expect(() =>
        loadConfig({ DATA_DIR: dataDir, REQUEST_TIMEOUT_SECONDS: '5', HEADERS_TIMEOUT_SECONDS: '6' }),
      ).toThrow(
        new ConfigError(
          'HEADERS_TIMEOUT_SECONDS (6) must not be more than REQUEST_TIMEOUT_SECONDS (5): the request timeout covers the headers too.',
        ),
      );
    });

    it.each([
      ['REQUEST_TIMEOUT_SECONDS', '0'],
      ['REQUEST_TIMEOUT_SECONDS', 'never'],
      ['HEADERS_TIMEOUT_SECONDS', '-1'],
      ['IDLE_TIMEOUT_SECONDS', '0'],
      ['REQUEST_TIMEOUT_SECONDS', '0.0001'],
      ['IDLE_TIMEOUT_SECONDS', '3000000'],
      ['MAX_CONNECTIONS', '0'],
      ['MAX_CONNECTIONS', '1.5'],
      ['MAX_CONNECTIONS', 'unlimited'],
    ])('refuses %s=%s with a message naming it', (name, value) => {
      expect(() => loadConfig({ DATA_DIR: dataDir, [name]: value })).toThrow(
        expect.objectContaining({ name: 'ConfigError', message: expect.stringContaining(name) }),
      );
    });
  });
});
