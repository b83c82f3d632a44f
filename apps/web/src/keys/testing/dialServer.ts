import type { RecoveryOprfAnswer } from '@dial/api';
import {
  accountChangeMessage,
  accountChangeTarget,
  decodeShare,
  encodeShare,
  type ShareHalves,
  splitWalletKey,
  type WalletProofFields,
  walletProofMessage,
} from '@dial/core';
import {
  createTestApp,
  type Database,
  // `useTestDatabase` registers vitest hooks; it is no React hook, whatever its name tells the linter.
  useTestDatabase as databaseForEachTest,
  ORIGIN,
  PHONE,
  type TestApp,
} from '@dial/server/testing';
import type { LightMyRequestResponse } from 'fastify';
import type { Kysely } from 'kysely';
import type { Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { beforeEach, type Mock, vi } from 'vitest';
import type { ProtectedRecoveryShare, StoredWallet } from '../../api/types';
import { type HeldDevice, newDeviceSecret } from '../deviceRecords';
import type { EvaluateBlinded } from '../passwordOprf';

/** One answer of the server to the web client, as it was sent. */
export interface ServerAnswer {
  /** `METHOD /path`. */
  route: string;
  status: number;
  /** The JSON body, or undefined for none. */
  body: unknown;
}

/** The real Dial server behind the web client's `fetch`, with a user signed in on it. */
export interface DialServer {
  /** The signed-in user's id, as the server gave it. */
  userId: string;
  /** The stubbed `fetch`: every request the web client made, in order. */
  fetch: Mock<typeof globalThis.fetch>;
  /** The server's answers to those requests, in order. */
  answers: ServerAnswer[];
  /** How many of the web client's requests went to `route` (`METHOD /path`), answered `status` if given. */
  count(route: string, status?: number): number;
  /** The server itself: its app, clock and the codes it sent. */
  test: TestApp;
  /** The server's database, for what no route does. */
  db: Kysely<Database>;
  /**
   * Registers the wallet of `key` as a browser does (here or elsewhere; signed with the key, not through the
   * web client's store): the recovery pair's auth share, and its first device, returned as its browser
   * keeps it, with the recovery pair (whose held share no browser keeps until recovery is set up).
   */
  register(key: Hex): Promise<{ device: HeldDevice; recoveryPair: ShareHalves }>;
  /** Enrolls one more device of the wallet with the key's proof (a browser that recovered or adopted it). */
  enroll(key: Hex, how?: 'recovered' | 'adopted'): Promise<HeldDevice>;
  /**
   * Replaces the recovery pair with the key's proof (setting up or changing recovery on some browser): the
   * new pair's held share is protected by `protect` and stored (a record written before the OPRF, which the
   * API no longer takes, straight into the database). Resolves with the new generation.
   */
  setRecovery(key: Hex, protect: (share: Uint8Array) => Promise<ProtectedRecoveryShare>): Promise<number>;
  /** Removes a device with the key's proof (Settings › Devices on another browser). */
  removeDevice(key: Hex, deviceId: string): Promise<void>;
  /**
   * Makes the registered wallet one registered before devices, as the migration leaves it: no device, and
   * `legacy_split` set, so that its auth share (the recovery pair's of {@link register}, whose held share then
   * stands for the old device share) is `legacyAuthShare`.
   */
  makeLegacy(): Promise<void>;
  /** The wallet as `GET /api/wallet` answers now. */
  wallet(): Promise<StoredWallet>;
  /** The server's OPRF evaluation of a blinded password for the signed-in user, not through the web client. */
  evaluate: EvaluateBlinded;
  /** The sign-in is older than a share rotation allows: the server wants a fresh code first. */
  requireCode(): void;
  /** Confirms with a fresh code (`/api/auth/reauth/start` and `/verify`): rotations are open again. */
  confirmCode(): Promise<void>;
  /**
   * Spends the user's hourly recovery budget so that only `leave` more recovery requests are answered,
   * with the clock moved to `retryAfterSeconds` before the budget's window ends.
   */
  spendRecoveryBudget(leave: number, retryAfterSeconds: number): Promise<void>;
}

/**
 * For unit tests of the web app's key code: before each test, the real server (apps/server's `buildApp`,
 * built as its own tests build it: a fresh in-memory SQLite database, a recording transport for the codes,
 * a clock the test moves) with a user signed in on it, and `fetch` stubbed to send the web client's
 * requests to it through `app.inject` as the browser would (same origin, with the cookies the server set).
 * Call at the top of a test file; read the server with the returned getter inside tests.
 */
export function withDialServer(): () => DialServer {
  const db = databaseForEachTest('sqlite');
  let current: DialServer | undefined;

  beforeEach(async () => {
    const test = await createTestApp(db());
    const cookies = new Map<string, string>();

    /** A request as this browser sends it: same origin, with its cookies; keeps the cookies set. */
    const send = async (method: string, url: string, body?: string): Promise<LightMyRequestResponse> => {
      const response = await test.app.inject({
        method: method as 'GET',
        url,
        headers: {
          origin: ORIGIN,
          ...(cookies.size > 0
            ? { cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; ') }
            : {}),
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        ...(body !== undefined ? { payload: body } : {}),
      });
      for (const cookie of response.cookies) cookies.set(cookie.name, cookie.value);
      return response;
    };
    const call = async <T>(method: string, url: string, body?: unknown): Promise<T> => {
      const response = await send(method, url, body === undefined ? undefined : JSON.stringify(body));
      if (response.statusCode >= 300) {
        throw new Error(`${method} ${url} answered ${response.statusCode}: ${response.body}`);
      }
      return (response.body === '' ? undefined : response.json()) as T;
    };

    const { to } = await call<{ to: string }>('POST', '/api/auth/otp/start', { channel: 'sms', to: PHONE });
    const code = test.transport.lastCode(to);
    const { user } = await call<{ user: { id: string } }>('POST', '/api/auth/otp/verify', {
      channel: 'sms',
      to,
      code,
    });
    const userId = user.id;

    const answers: ServerAnswer[] = [];
    const fetch = vi.fn<typeof globalThis.fetch>(async (input, init) => {
      const method = init?.method ?? 'GET';
      const url = String(input);
      const response = await send(method, url, typeof init?.body === 'string' ? init.body : undefined);
      const text = response.body;
      answers.push({
        route: `${method} ${url}`,
        status: response.statusCode,
        body: text === '' ? undefined : JSON.parse(text),
      });
      const headers = new Headers();
      for (const [name, value] of Object.entries(response.headers)) {
        if (value !== undefined && name !== 'set-cookie') headers.set(name, String(value));
      }
      const empty = response.statusCode === 204 || response.statusCode === 304;
      return new Response(empty ? null : text, { status: response.statusCode, headers });
    });
    vi.stubGlobal('fetch', fetch);

    /** The key's proof of a wallet change, over a fresh challenge for `fields.purpose`. */
    const walletProof = async (
      key: Hex,
      fields: Omit<WalletProofFields, 'challenge' | 'userId' | 'address'>,
    ) => {
      const { purpose } = fields;
      const { address } = privateKeyToAccount(key);
      const { challenge } = await call<{ challenge: string }>('POST', '/api/wallet/challenge', { purpose });
      const message = walletProofMessage({ ...fields, challenge, userId, address });
      return { challenge, signature: await privateKeyToAccount(key).signMessage({ message }) };
    };
    const generationNow = async (): Promise<number> => {
      const response = await send('GET', '/api/wallet');
      if (response.statusCode === 404) return 0;
      return response.json<StoredWallet>().generation;
    };
    /** A new device's split and secret; `post` sends its auth share and secret hash and answers its id. */
    const newDevice = async (
      key: Hex,
      post: (device: { authShare: Uint8Array; secretHash: string }) => Promise<string>,
    ): Promise<HeldDevice> => {
      const { address, heldShare, authShare } = await splitWalletKey(key);
      const { secret, secretHash } = await newDeviceSecret();
      const deviceId = await post({ authShare, secretHash });
      return { deviceId, address, secret, heldShare };
    };

    current = {
      userId,
      fetch,
      answers,
      test,
      db: db(),
      count: (route, status) =>
        answers.filter(
          (answer) => answer.route === route && (status === undefined || answer.status === status),
        ).length,
      async register(key) {
        const recoveryPair = await splitWalletKey(key);
        const device = await newDevice(key, async (device) => {
          const proof = await walletProof(key, {
            purpose: 'register-wallet',
            fromGeneration: 0,
            authShare: recoveryPair.authShare,
            recovery: null,
            device,
          });
          const answer = await call<{ device: { id: string } }>('POST', '/api/wallet', {
            address: recoveryPair.address,
            authShare: encodeShare(recoveryPair.authShare),
            device: { authShare: encodeShare(device.authShare), secretHash: device.secretHash },
            proof,
          });
          return answer.device.id;
        });
        return { device, recoveryPair };
      },
      enroll: (key, how = 'recovered') =>
        newDevice(key, async (device) => {
          const proof = await walletProof(key, {
            purpose: 'enroll-device',
            fromGeneration: await generationNow(),
            authShare: null,
            recovery: null,
            device,
          });
          const answer = await call<{ device: { id: string } }>('POST', '/api/wallet/devices', {
            address: privateKeyToAccount(key).address,
            how,
            device: { authShare: encodeShare(device.authShare), secretHash: device.secretHash },
            proof,
          });
          return answer.device.id;
        }),
      async setRecovery(key, protect) {
        const fromGeneration = await generationNow();
        const pair = await splitWalletKey(key);
        const record = await protect(pair.heldShare);
        // A password record written before the OPRF: the API refuses it, so it goes in afterwards.
        const beforeOprf = record.kdf.name === 'scrypt' && record.kdf.oprf === undefined;
        const recovery = beforeOprf ? null : record;
        const proof = await walletProof(key, {
          purpose: 'rotate-shares',
          fromGeneration,
          authShare: pair.authShare,
          recovery,
          device: null,
        });
        const { generation } = await call<{ generation: number }>('PUT', '/api/wallet/shares', {
          expectedGeneration: fromGeneration,
          address: pair.address,
          authShare: encodeShare(pair.authShare),
          ...(recovery !== null ? { recovery } : {}),
          proof,
        });
        if (beforeOprf) {
          await current!.db
            .insertInto('recovery_shares')
            .values({
              user_id: userId,
              generation,
              method: record.method,
              ciphertext: record.ciphertext,
              kdf: JSON.stringify(record.kdf),
              created_at: test.clock.now().toISOString(),
            })
            .execute();
        }
        return generation;
      },
      async removeDevice(key, deviceId) {
        const account = privateKeyToAccount(key);
        const { challenge } = await call<{ challenge: string }>('POST', '/api/account/proof', {
          action: 'remove-device',
        });
        const message = accountChangeMessage({
          action: 'remove-device',
          target: accountChangeTarget({ action: 'remove-device', id: deviceId }),
          challenge,
          userId,
          address: account.address,
        });
        const signature = await account.signMessage({ message });
        await call('POST', `/api/wallet/devices/${deviceId}/remove`, {
          proof: { challenge, address: account.address, signature },
        });
      },
      wallet: () => call<StoredWallet>('GET', '/api/wallet'),
      async makeLegacy() {
        await current!.db
          .updateTable('wallets')
          .set({ legacy_split: 1 })
          .where('user_id', '=', userId)
          .execute();
        await current!.db.deleteFrom('wallet_devices').where('user_id', '=', userId).execute();
      },
      async evaluate(blindedElement, onTriesLeft) {
        const { evaluatedElement, triesLeft, retryAfterSeconds } = await call<RecoveryOprfAnswer>(
          'POST',
          '/api/wallet/recovery/oprf',
          { blindedElement: encodeShare(blindedElement) },
        );
        onTriesLeft?.(triesLeft, retryAfterSeconds);
        return decodeShare(evaluatedElement);
      },
      requireCode() {
        // A rotation needs a sign-in within the last 10 minutes or a re-authentication within the last 5.
        test.clock.advance(11 * 60_000);
      },
      async confirmCode() {
        await call('POST', '/api/auth/reauth/start', {});
        await call('POST', '/api/auth/reauth/verify', { code: test.transport.lastCode(PHONE) });
      },
      async spendRecoveryBudget(leave, retryAfterSeconds) {
        const { max, windowSeconds } = test.config.rateLimits.walletRecoveryPerUser;
        const windowMs = windowSeconds * 1000;
        const now = test.clock.now().getTime();
        const wait = Math.floor(now / windowMs) * windowMs + windowMs - retryAfterSeconds * 1000 - now;
        if (wait < 0) throw new Error(`less than ${retryAfterSeconds} s are left in this window`);
        test.clock.advance(wait);
        const counter = await current!.db
          .selectFrom('rate_limits')
          .select(['count', 'window_start'])
          .where('key', '=', `recovery:user:${userId}`)
          .executeTakeFirst();
        const windowStart = Math.floor(test.clock.now().getTime() / windowMs) * windowMs;
        const counted = counter !== undefined && Date.parse(counter.window_start) >= windowStart;
        for (let used = counted ? Number(counter.count) : 0; used < max - leave; used += 1) {
          await call('POST', '/api/wallet/recovery/failed', {});
        }
      },
    };
  });

  return () => {
    if (current === undefined) throw new Error('the server exists only inside a test');
    return current;
  };
}
