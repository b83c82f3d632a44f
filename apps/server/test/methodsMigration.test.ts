import { randomBytes } from 'node:crypto';
import { type Kysely, Migrator } from 'kysely';
import { describe, expect, it } from 'vitest';
import { hashCode } from '../src/auth/otpCodes.js';
import { hashToken } from '../src/auth/sessions.js';
import { deriveKey } from '../src/crypto/deriveKey.js';
import { migrateToLatest } from '../src/db/migrateToLatest.js';
import { migrationProvider } from '../src/db/migrations/index.js';
import { newDevice } from './browsers.js';
import { DIALECTS, useTestDatabase } from './databases.js';
import { expectConstraintViolation } from './expectConstraintViolation.js';
import { insertLegacySession } from './legacySession.js';
import { createTestApp, PHONE } from './testApp.js';
import { testWallet } from './walletProof.js';

const EMAIL = 'ada@example.com';
const NOW = new Date('2030-01-01T12:00:00.000Z');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const BEFORE_0008 = '0007_transfer_checks';

/** The identities 0007 holds in the tests below: two users, a phone number and two e-mail addresses. */
const IDENTITIES_0007 = [
  { value: PHONE, kind: 'phone', user_id: 'u1', created_at: '2029-06-01T10:00:00.000Z' },
  { value: EMAIL, kind: 'email', user_id: 'u1', created_at: '2029-07-01T10:00:00.000Z' },
  { value: 'grace@example.com', kind: 'email', user_id: 'u2', created_at: '2029-08-01T10:00:00.000Z' },
];

describe.each(DIALECTS)('migration 0008 (sign-in methods, sessions, SIWE nonces) on %s', (dialect) => {
  const db = useTestDatabase(dialect);
  // biome-ignore lint/suspicious/noExplicitAny: the tables as 0007 left them, not today's types
  const old = () => db() as unknown as Kysely<any>;

  /** The database at 0007 with two users, their identities, a session of the first and its pending codes. */
  async function at0007(shareEncryptionKey: Uint8Array) {
    const migrator = new Migrator({ db: db(), provider: migrationProvider });
    expect((await migrator.migrateTo(BEFORE_0008)).error).toBeUndefined();
    await old()
      .insertInto('users')
      .values([
        { id: 'u1', created_at: '2029-06-01T10:00:00.000Z' },
        { id: 'u2', created_at: '2029-08-01T10:00:00.000Z' },
      ])
      .execute();
    await old().insertInto('identities').values(IDENTITIES_0007).execute();
    const token = await insertLegacySession(old(), 'u1', NOW);
    // A sign-in code this browser asked for before the upgrade.
    const device = newDevice();
    const slot = {
      purpose: 'sign-in' as const,
      channel: 'email' as const,
      identifier: EMAIL,
      deviceHash: hashToken(device),
    };
    await old()
      .insertInto('otp_codes')
      .values({
        purpose: slot.purpose,
        channel: slot.channel,
        identifier: slot.identifier,
        device_hash: slot.deviceHash,
        code_hash: hashCode(deriveKey(shareEncryptionKey, 'dial/otp'), slot, '123456'),
        expires_at: new Date(NOW.getTime() + 600_000).toISOString(),
        attempts: 0,
        created_at: NOW.toISOString(),
      })
      .execute();
    return { token, device };
  }

  it('gives every identity an id, keeping its value, kind, owner and time, and makes it findable', async () => {
    const shareEncryptionKey = new Uint8Array(randomBytes(32));
    await at0007(shareEncryptionKey);
    await migrateToLatest(db());

    const rows = await db().selectFrom('identities').selectAll().orderBy('created_at').execute();
    expect(rows).toEqual(
      // And trusted (migration 0013): what was linked before the key's proof stays as it was.
      IDENTITIES_0007.map((identity) => ({
        ...identity,
        id: expect.stringMatching(UUID),
        findable: 1,
        trusted: 1,
      })),
    );
    expect(new Set(rows.map((row) => row.id)).size).toBe(3);
  });

  it('keeps sessions working with an id and no browser or method, and pending codes working', async () => {
    const shareEncryptionKey = new Uint8Array(randomBytes(32));
    const { token, device } = await at0007(shareEncryptionKey);
    await migrateToLatest(db());

    const [session] = await db().selectFrom('sessions').selectAll().execute();
    expect(session).toMatchObject({ id: expect.stringMatching(UUID), user_agent: null, method: null });

    const t = await createTestApp(db(), { config: { shareEncryptionKey } });
    const me = await t.get('/api/me', { token });
    expect(me.json().user).toMatchObject({ id: 'u1', phone: PHONE, email: EMAIL, wallet: null });
    const listed = await t.get('/api/auth/sessions', { token });
    expect(listed.json().sessions).toEqual([
      expect.objectContaining({ id: session!.id, device: 'Unknown browser', method: null, current: true }),
    ]);
    const methods = await t.get('/api/auth/methods', { token });
    expect(methods.json().methods.map((method: { value: string }) => method.value)).toEqual([PHONE, EMAIL]);

    const signIn = await t.post(
      '/api/auth/otp/verify',
      { channel: 'email', to: EMAIL, code: '123456' },
      { device },
    );
    expect(signIn.json()).toMatchObject({ isNewUser: false, user: { id: 'u1' } });
  });

  it('allows link codes, wallet methods and the new notices, and still refuses anything else', async () => {
    await migrateToLatest(db());
    await db().insertInto('users').values({ id: 'u1', created_at: NOW.toISOString() }).execute();
    const code = {
      channel: 'sms' as const,
      identifier: PHONE,
      device_hash: 'a'.repeat(64),
      code_hash: 'h',
      expires_at: NOW.toISOString(),
      attempts: 0,
      created_at: NOW.toISOString(),
    };
    await db()
      .insertInto('otp_codes')
      .values({ ...code, purpose: 'link' })
      .execute();
    await expectConstraintViolation(
      db()
        .insertInto('otp_codes')
        .values({ ...code, purpose: 'login' as 'link' })
        .execute(),
      'check',
      'purpose',
    );
    const identity = { user_id: 'u1', created_at: NOW.toISOString() };
    await db()
      .insertInto('identities')
      .values({ ...identity, id: 'i1', kind: 'wallet', value: testWallet(1).address })
      .execute();
    await expectConstraintViolation(
      db()
        .insertInto('identities')
        .values({ ...identity, id: 'i2', kind: 'pager' as 'phone', value: '555' })
        .execute(),
      'check',
      'kind',
    );
    await expectConstraintViolation(
      db()
        .insertInto('identities')
        .values({ ...identity, id: 'i3', kind: 'wallet', value: testWallet(1).address })
        .execute(),
      'unique',
      'value',
    );
    for (const kind of ['method-linked', 'method-removed'] as const) {
      await db()
        .insertInto('account_events')
        .values({ id: kind, user_id: 'u1', kind, created_at: NOW.toISOString() })
        .execute();
    }
  });

  it('migrates down to 0007 keeping phone numbers, e-mail addresses and sessions, and up again', async () => {
    const shareEncryptionKey = new Uint8Array(randomBytes(32));
    const { token } = await at0007(shareEncryptionKey);
    await migrateToLatest(db());
    // What 0008 allows and 0007 cannot hold: a wallet method, a link code, a turned-off phone, new notices.
    await db()
      .insertInto('identities')
      .values({
        id: 'w1',
        kind: 'wallet',
        value: testWallet(1).address,
        user_id: 'u2',
        created_at: NOW.toISOString(),
      })
      .execute();
    await db().updateTable('identities').set({ findable: 0 }).where('value', '=', PHONE).execute();
    await db()
      .insertInto('otp_codes')
      .values({
        purpose: 'link',
        channel: 'sms',
        identifier: '+447400123457',
        device_hash: 'a'.repeat(64),
        code_hash: 'h',
        expires_at: NOW.toISOString(),
        attempts: 0,
        created_at: NOW.toISOString(),
      })
      .execute();
    await db()
      .insertInto('account_events')
      .values([
        { id: 'e1', user_id: 'u1', kind: 'method-linked', created_at: NOW.toISOString() },
        { id: 'e2', user_id: 'u1', kind: 'key-exported', created_at: NOW.toISOString() },
      ])
      .execute();

    const migrator = new Migrator({ db: db(), provider: migrationProvider });
    const down = await migrator.migrateTo(BEFORE_0008);
    expect(down.error).toBeUndefined();
    expect(down.results?.at(-1)).toMatchObject({
      migrationName: '0008_wallet_sign_in_methods_sessions',
      direction: 'Down',
    });
    expect(await old().selectFrom('identities').selectAll().orderBy('created_at').execute()).toEqual(
      IDENTITIES_0007,
    );
    expect(await old().selectFrom('otp_codes').select(['purpose', 'identifier']).execute()).toEqual([
      { purpose: 'sign-in', identifier: EMAIL },
    ]);
    expect(await old().selectFrom('account_events').select('kind').execute()).toEqual([
      { kind: 'key-exported' },
    ]);
    const sessionColumns = (await db().introspection.getTables())
      .find((table) => table.name === 'sessions')!
      .columns.map((column) => column.name);
    expect(sessionColumns).not.toContain('id');
    expect(sessionColumns).not.toContain('user_agent');
    expect((await db().introspection.getTables()).map((table) => table.name)).not.toContain('siwe_nonces');

    await migrateToLatest(db());
    const t = await createTestApp(db(), { config: { shareEncryptionKey } });
    expect((await t.get('/api/me', { token })).json().user).toMatchObject({ id: 'u1', phone: PHONE });
  });
});
