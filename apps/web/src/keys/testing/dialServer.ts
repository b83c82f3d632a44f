import type { RecoveryOprfAnswer } from '@dial/api';
import { createWalletShares, decodeShare, encodeShare, walletProofMessage } from '@dial/core';
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
import type { EvaluateBlinded } from '../passwordOprf';

/** One answer of the server to the web client, as it was sent. */
export interface ServerAnswer {
  /** `METHOD /path`. */
  route: string;
  status: number;
  /** The JSON body, or undefined for none. */
  body: unknown;
}

/** The shares the signed-in user's wallet is to have on the server. */
export interface HeldWallet {
  /** The wallet's key: it signs the registration and each rotation, as the web app's would. */
  key: Hex;
  /** Base64 of the auth share of the split the server is to hold. */
  authShare: string;
  generation: number;
  /** The recovery record stored with that split (generation 2 and later), or null for none. */
  recovery: ProtectedRecoveryShare | null;
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
   * Puts the signed-in user's wallet at `wallet.generation` with `wallet.authShare`, through the API as
   * the web app (here, or on another device) does it: registers it if the server has none, then rotates it
   * (each change signed with the key) up to that generation; the last rotation stores `wallet.recovery`.
   */
  hold(wallet: HeldWallet): Promise<void>;
  /** The wallet as `GET /api/wallet` answers now. */
  wallet(): Promise<StoredWallet>;
  /**
   * Stores `record` as the recovery record of the current split directly in the server's database, for
   * records the API no longer takes (a password record written before the OPRF).
   */
  storeRecovery(record: ProtectedRecoveryShare): Promise<void>;
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

    /** Registers or rotates the wallet to `fromGeneration + 1`, signed with `key` as the web app signs. */
    const change = async (
      key: Hex,
      fromGeneration: number,
      authShare: string,
      recovery: ProtectedRecoveryShare | null,
    ) => {
      const purpose = fromGeneration === 0 ? 'register-wallet' : 'rotate-shares';
      const { address } = privateKeyToAccount(key);
      const { challenge } = await call<{ challenge: string }>('POST', '/api/wallet/challenge', { purpose });
      const message = walletProofMessage({
        purpose,
        challenge,
        userId,
        address,
        fromGeneration,
        authShare: decodeShare(authShare),
        recovery,
      });
      const proof = { challenge, signature: await privateKeyToAccount(key).signMessage({ message }) };
      if (fromGeneration === 0) {
        await call('POST', '/api/wallet', { address, authShare, proof });
      } else {
        await call('PUT', '/api/wallet/shares', {
          expectedGeneration: fromGeneration,
          address,
          authShare,
          ...(recovery !== null ? { recovery } : {}),
          proof,
        });
      }
    };
    const generationNow = async (): Promise<number> => {
      const response = await send('GET', '/api/wallet');
      if (response.statusCode === 404) return 0;
      return response.json<StoredWallet>().generation;
    };
    const anotherSplit = async (key: Hex) => encodeShare((await createWalletShares(key)).authShare);

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
      async hold({ key, authShare, generation, recovery }) {
        let held = await generationNow();
        if (generation <= held) throw new Error(`the server is at generation ${held} already`);
        if (generation === 1 && recovery !== null) throw new Error('a first split has no recovery record');
        while (held < generation) {
          const last = held + 1 === generation;
          await change(key, held, last ? authShare : await anotherSplit(key), last ? recovery : null);
          held += 1;
        }
      },
      wallet: () => call<StoredWallet>('GET', '/api/wallet'),
      async storeRecovery(record) {
        await current!.db
          .insertInto('recovery_shares')
          .values({
            user_id: userId,
            generation: await generationNow(),
            method: record.method,
            ciphertext: record.ciphertext,
            kdf: JSON.stringify(record.kdf),
            created_at: test.clock.now().toISOString(),
          })
          .execute();
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
