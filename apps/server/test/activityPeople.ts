import { randomBytes } from 'node:crypto';
import { SHARE_LENGTH } from '@dial/core';
import type { DevChain } from '@dial/devchain';
import type { LightMyRequestResponse } from 'fastify';
import type { Kysely } from 'kysely';
import { SESSION_COOKIE } from '../src/auth/sessions.js';
import type { AppConfig } from '../src/config/index.js';
import { deriveKey } from '../src/crypto/deriveKey.js';
import type { Database } from '../src/db/database.js';
import { saveWallet } from '../src/wallet/walletStore.js';
import { ORIGIN, type TestApp } from './testApp.js';

/** Test helpers of the activity suites: people with wallets, and the activity routes as a browser calls them. */

/** A signed-in Dial user with a registered wallet. */
export interface Person {
  token: string;
  userId: string;
  address: string;
}

/**
 * Signs up (in) by `channel` and registers `address` as the user's wallet, straight through the wallet
 * store (the registration route, with its proof of possession, has tests of its own).
 */
export async function personWithWallet(
  t: TestApp,
  db: Kysely<Database>,
  channel: 'sms' | 'email',
  to: string,
  address: string,
): Promise<Person> {
  const { token, response } = await t.signIn(channel, to);
  const userId: string = response.json().user.id;
  const saved = await saveWallet(
    db,
    deriveKey(t.config.shareEncryptionKey, 'dial/auth-share'),
    { userId, address, authShare: new Uint8Array(randomBytes(SHARE_LENGTH)) },
    t.clock.now(),
  );
  if (!saved) throw new Error(`${to} already has a wallet`);
  return { token, userId, address };
}

/**
 * What an app of these suites is built with: its own check timer only ticks after an hour, so that the
 * tests run the checks themselves, at moments they choose (one test starts the timer on purpose).
 */
export const QUIET_TIMER = Object.freeze({ transferCheckIntervalMs: 3_600_000 });

/** The configuration of an app that reads the local chain `chain` (through `rpcUrl`, by default its own). */
export function localChainConfig(chain: DevChain, rpcUrl = chain.url): Partial<AppConfig> {
  return { localChain: { start: false, port: 0, rpcUrl, usdc: chain.usdc } };
}

export function recordTransfer(
  t: TestApp,
  token: string | undefined,
  body: unknown,
): Promise<LightMyRequestResponse> {
  return t.post('/api/activity', body, token === undefined ? {} : { token });
}

/** `PATCH /api/activity/:id`: "check it now". */
export function askToCheck(t: TestApp, token: string | undefined, id: string, body: unknown = {}) {
  return t.app.inject({
    method: 'PATCH',
    url: `/api/activity/${id}`,
    headers: { origin: ORIGIN, ...(token === undefined ? {} : { cookie: `${SESSION_COOKIE}=${token}` }) },
    payload: body as object,
  });
}

export function listActivity(t: TestApp, token: string | undefined, query: Record<string, string> = {}) {
  const url = new URL('/api/activity', 'http://localhost');
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  return t.get(`${url.pathname}${url.search}`, token === undefined ? {} : { token });
}
