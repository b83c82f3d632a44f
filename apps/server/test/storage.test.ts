import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { storeCode } from '../src/auth/otpCodes.js';
import { createSession } from '../src/auth/sessions.js';
import type { RateKey } from '../src/config/rateKey.js';
import { RATE_LIMITS } from '../src/config/rateLimits.js';
import { createDatabase } from '../src/db/createDatabase.js';
import { dialectOf } from '../src/db/dialectOf.js';
import { isUniqueViolation } from '../src/db/isUniqueViolation.js';
import { migrateToLatest } from '../src/db/migrateToLatest.js';
import { sweepExpiredRows } from '../src/db/sweepExpiredRows.js';
import { createDatabaseOutboxStore } from '../src/dev/outboxStore.js';
import { createSqlRateLimiter } from '../src/rateLimit/sqlRateLimiter.js';
import { DIALECTS, useTestDatabase } from './databases.js';
import { expectConstraintViolation } from './expectConstraintViolation.js';

const NOW = new Date('2030-01-01T12:00:00.000Z');
const limit = { max: 3, windowSeconds: 60 };

describe.each(DIALECTS)('storage on %s', (dialect) => {
  const db = useTestDatabase(dialect);

  it('knows its dialect', () => {
    expect(dialectOf(db())).toBe(dialect);
  });

  it('migrates once: running the migrations again changes nothing', async () => {
    await migrateToLatest(db());
    const tables = (await db().introspection.getTables()).map((table) => table.name).sort();
    expect(tables).toEqual(
      [
        'account_changes',
        'account_events',
        'chain_watch',
        'disputed_wallets',
        'identities',
        'known_devices',
        'onramp_sessions',
        'otp_codes',
        'price_quotes',
        'outbox_messages',
        'passkeys',
        'proof_of_work_uses',
        'rate_limits',
        'recovery_shares',
        'sessions',
        'siwe_nonces',
        'sponsor_usage',
        'sponsorships',
        'users',
        'transfers',
        'wallet_challenges',
        'wallet_credits',
        'wallet_devices',
        'wallet_events',
        'wallet_links',
        'wallets',
        'webauthn_challenges',
      ].sort(),
    );
  });

  describe('one-time code rows', () => {
    const target = {
      purpose: 'sign-in' as const,
      channel: 'email' as const,
      identifier: 'ada@example.com',
      deviceHash: 'd'.repeat(64),
    };
    const options = (offsetMs: number) => ({
      now: new Date(NOW.getTime() + offsetMs),
      ttlSeconds: 600,
      cooldownSeconds: 30,
    });

    it('replaces a code only after the cooldown, resetting its tries', async () => {
      expect(await storeCode(db(), target, 'first', options(0))).toBe(true);
      await db().updateTable('otp_codes').set({ attempts: 3 }).execute();
      expect(await storeCode(db(), target, 'second', options(29_999))).toBe(false);
      expect(await db().selectFrom('otp_codes').select(['code_hash', 'attempts']).execute()).toEqual([
        { code_hash: 'first', attempts: 3 },
      ]);
      expect(await storeCode(db(), target, 'third', options(30_000))).toBe(true);
      expect(await db().selectFrom('otp_codes').selectAll().execute()).toEqual([
        {
          purpose: 'sign-in',
          channel: 'email',
          identifier: 'ada@example.com',
          device_hash: 'd'.repeat(64),
          code_hash: 'third',
          attempts: 0,
          created_at: '2030-01-01T12:00:30.000Z',
          expires_at: '2030-01-01T12:10:30.000Z',
        },
      ]);
    });

    it('keeps the codes of other browsers and of the other purpose apart', async () => {
      expect(await storeCode(db(), target, 'mine', options(0))).toBe(true);
      expect(await storeCode(db(), { ...target, deviceHash: 'e'.repeat(64) }, 'other', options(0))).toBe(
        true,
      );
      expect(await storeCode(db(), { ...target, purpose: 'reauth' }, 'reauth', options(0))).toBe(true);
      const rows = await db().selectFrom('otp_codes').select('code_hash').orderBy('code_hash').execute();
      expect(rows.map((row) => row.code_hash)).toEqual(['mine', 'other', 'reauth']);
    });

    it('lets one of several concurrent stores win', async () => {
      const results = await Promise.all(
        ['a', 'b', 'c', 'd'].map((hash) => storeCode(db(), target, hash, options(0))),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
    });
  });

  describe('the outbox store', () => {
    it('adds messages and lists them newest first, without a code when none was given', async () => {
      let time = NOW.getTime();
      const store = createDatabaseOutboxStore(db(), () => {
        time += 1000;
        return new Date(time);
      });
      const first = await store.add({
        channel: 'sms',
        to: '+447400123456',
        subject: 's',
        text: 't',
        code: '123456',
      });
      const second = await store.add({ channel: 'email', to: 'ada@example.com', subject: 'S', text: 'T' });
      expect(first).toEqual({
        id: expect.any(String),
        channel: 'sms',
        to: '+447400123456',
        subject: 's',
        text: 't',
        code: '123456',
        createdAt: '2030-01-01T12:00:01.000Z',
      });
      expect(await store.list()).toEqual([second, first]);
      expect(await store.list(1)).toEqual([second]);
      expect(second).not.toHaveProperty('code');
    });
  });

  it('tells unique violations from other errors', async () => {
    await db().insertInto('users').values({ id: 'u1', created_at: NOW.toISOString() }).execute();
    const duplicate = await db()
      .insertInto('users')
      .values({ id: 'u1', created_at: NOW.toISOString() })
      .execute()
      .catch((error: unknown) => error);
    expect(isUniqueViolation(duplicate)).toBe(true);
    const other = await db()
      .selectFrom('no_such_table' as 'users')
      .selectAll()
      .execute()
      .catch((error: unknown) => error);
    expect(isUniqueViolation(other)).toBe(false);
  });

  it('deletes a user’s identities, sessions and wallet with the user', async () => {
    const created_at = NOW.toISOString();
    await db().insertInto('users').values({ id: 'u1', created_at }).execute();
    await db()
      .insertInto('identities')
      .values({ id: 'i1', value: 'a@b.co', kind: 'email', user_id: 'u1', created_at })
      .execute();
    await createSession(db(), 'u1', { idleHours: 24, maxDays: 7 }, NOW);
    await db().deleteFrom('users').where('id', '=', 'u1').execute();
    expect(await db().selectFrom('identities').selectAll().execute()).toEqual([]);
    expect(await db().selectFrom('sessions').selectAll().execute()).toEqual([]);
  });

  it('refuses an identity kind other than phone, email or wallet', async () => {
    await db().insertInto('users').values({ id: 'u1', created_at: NOW.toISOString() }).execute();
    await expectConstraintViolation(
      db()
        .insertInto('identities')
        .values({
          id: 'i1',
          value: 'x',
          kind: 'fax' as 'email',
          user_id: 'u1',
          created_at: NOW.toISOString(),
        })
        .execute(),
      'check',
      'kind',
    );
  });

  it('sweeps expired codes, ended sessions and old rate-limit windows, and keeps the rest', async () => {
    const created_at = NOW.toISOString();
    await db().insertInto('users').values({ id: 'u1', created_at }).execute();
    const policy = { idleHours: 24, maxDays: 7 };
    await createSession(db(), 'u1', policy, new Date(NOW.getTime() - 25 * 3_600_000));
    await createSession(db(), 'u1', policy, NOW);
    await db()
      .insertInto('otp_codes')
      .values([
        {
          purpose: 'sign-in',
          channel: 'email',
          identifier: 'old',
          device_hash: '',
          code_hash: 'h',
          expires_at: created_at,
          attempts: 0,
          created_at,
        },
        {
          purpose: 'sign-in',
          channel: 'email',
          identifier: 'live',
          device_hash: '',
          code_hash: 'h',
          expires_at: new Date(NOW.getTime() + 1000).toISOString(),
          attempts: 0,
          created_at,
        },
      ])
      .execute();
    // Older than the longest window of the rate-limit table (a day).
    await createSqlRateLimiter(db()).consume(
      'old' as RateKey,
      limit,
      new Date(NOW.getTime() - 25 * 3_600_000),
    );
    await createSqlRateLimiter(db()).consume('live' as RateKey, limit, NOW);

    await sweepExpiredRows(db(), NOW, { rateLimits: RATE_LIMITS, session: policy });

    expect((await db().selectFrom('sessions').selectAll().execute()).map((row) => row.created_at)).toEqual([
      created_at,
    ]);
    expect(
      (await db().selectFrom('otp_codes').select('identifier').execute()).map((row) => row.identifier),
    ).toEqual(['live']);
    expect((await db().selectFrom('rate_limits').select('key').execute()).map((row) => row.key)).toEqual([
      'live',
    ]);
  });
});

describe('createDatabase with DATABASE_URL', () => {
  const serverUrl = process.env.TEST_DATABASE_URL?.trim() || undefined;

  it.skipIf(serverUrl === undefined)('opens PostgreSQL through a pool and migrates it', async () => {
    const schema = `test_${randomUUID().replaceAll('-', '')}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    try {
      const url = new URL(serverUrl ?? '');
      url.searchParams.set('options', `-c search_path=${schema}`);
      const database = createDatabase({ databaseUrl: url.href, dataDir: '/nonexistent' });
      await migrateToLatest(database);
      expect(dialectOf(database)).toBe('postgres');
      await createSqlRateLimiter(database).consume('k' as RateKey, limit, NOW);
      expect(await database.selectFrom('rate_limits').select('count').execute()).toEqual([{ count: 1 }]);
      await database.destroy();
    } finally {
      await admin.query(`drop schema ${schema} cascade`);
      await admin.end();
    }
  });
});
