import { createHmac, randomBytes } from 'node:crypto';
import { type Kysely, Migrator } from 'kysely';
import { describe, expect, it } from 'vitest';
import { deriveKey } from '../src/crypto/deriveKey.js';
import { migrateToLatest } from '../src/db/migrateToLatest.js';
import { migrationProvider } from '../src/db/migrations/index.js';
import { DIALECTS, useTestDatabase } from './databases.js';
import { expectConstraintViolation } from './expectConstraintViolation.js';
import { insertLegacySession } from './legacySession.js';
import { createTestApp } from './testApp.js';

const EMAIL = 'ada@example.com';
const NOW = '2030-01-01T12:00:00.000Z';
const EXPIRES = '2030-01-01T12:10:00.000Z';

/** A code row as 0001..0005 stored it: keyed by channel and identifier, hashed without a purpose. */
function legacyRow(otpKey: Buffer, identifier: string, code: string) {
  return {
    channel: 'email',
    identifier,
    code_hash: createHmac('sha256', otpKey).update(`email\n${identifier}\n${code}`, 'utf8').digest('hex'),
    expires_at: EXPIRES,
    attempts: 1,
    created_at: NOW,
  };
}

describe.each(DIALECTS)('migration 0006 (codes by purpose, browsers, notices) on %s', (dialect) => {
  const db = useTestDatabase(dialect);

  /** The database back at 0005, with one user, their session, and a pending sign-in and confirmation code. */
  async function before0006(otpKey: Buffer) {
    // biome-ignore lint/suspicious/noExplicitAny: the tables as 0005 left them, not today's types
    const old = db() as unknown as Kysely<any>;
    const migrator = new Migrator({ db: db(), provider: migrationProvider });
    expect((await migrator.migrateTo('0005_wallet_proofs')).error).toBeUndefined();
    await old.insertInto('users').values({ id: 'u1', created_at: NOW }).execute();
    await old
      .insertInto('identities')
      .values({ value: EMAIL, kind: 'email', user_id: 'u1', created_at: NOW })
      .execute();
    const token = await insertLegacySession(old, 'u1', new Date(NOW));
    await old
      .insertInto('otp_codes')
      .values([legacyRow(otpKey, EMAIL, '111111'), legacyRow(otpKey, `reauth:${EMAIL}`, '222222')])
      .execute();
    return token;
  }

  it('keeps pending codes: the prefixed one becomes purpose reauth, and both still work once', async () => {
    const shareEncryptionKey = new Uint8Array(randomBytes(32));
    const token = await before0006(deriveKey(shareEncryptionKey, 'dial/otp'));
    await migrateToLatest(db());

    const rows = await db()
      .selectFrom('otp_codes')
      .select(['purpose', 'channel', 'identifier', 'device_hash', 'attempts'])
      .orderBy('purpose')
      .execute();
    expect(rows).toEqual([
      { purpose: 'reauth', channel: 'email', identifier: EMAIL, device_hash: '', attempts: 1 },
      { purpose: 'sign-in', channel: 'email', identifier: EMAIL, device_hash: '', attempts: 1 },
    ]);

    // The browsers asked before the upgrade, so they have no device cookie.
    const t = await createTestApp(db(), { config: { shareEncryptionKey } });
    const reauth = await t.post('/api/auth/reauth/verify', { code: '222222' }, { token, device: null });
    expect(reauth.statusCode).toBe(200);
    // The re-authentication code signs nobody in, as before.
    const crossed = await t.post(
      '/api/auth/otp/verify',
      { channel: 'email', to: EMAIL, code: '222222' },
      { device: null },
    );
    expect(crossed.json().error.code).toBe('invalid_code');
    const signIn = await t.post(
      '/api/auth/otp/verify',
      { channel: 'email', to: EMAIL, code: '111111' },
      { device: null },
    );
    expect(signIn.statusCode).toBe(200);
    expect(signIn.json()).toMatchObject({ isNewUser: false, user: { id: 'u1' } });
    expect(await db().selectFrom('otp_codes').selectAll().execute()).toEqual([]);
  });

  it('migrates down to 0005 keeping the codes without a browser, re-authentication ones prefixed again', async () => {
    const shareEncryptionKey = new Uint8Array(randomBytes(32));
    await before0006(deriveKey(shareEncryptionKey, 'dial/otp'));
    await migrateToLatest(db());
    await db()
      .insertInto('otp_codes')
      .values({
        purpose: 'sign-in',
        channel: 'email',
        identifier: 'grace@example.com',
        device_hash: 'a'.repeat(64),
        code_hash: 'h',
        expires_at: EXPIRES,
        attempts: 0,
        created_at: NOW,
      })
      .execute();

    const migrator = new Migrator({ db: db(), provider: migrationProvider });
    expect((await migrator.migrateTo('0005_wallet_proofs')).error).toBeUndefined();
    // biome-ignore lint/suspicious/noExplicitAny: the table as 0005 has it
    const old = db() as unknown as Kysely<any>;
    const identifiers = await old
      .selectFrom('otp_codes')
      .select('identifier')
      .orderBy('identifier')
      .execute();
    expect(identifiers).toEqual([{ identifier: EMAIL }, { identifier: `reauth:${EMAIL}` }]);
    const tables = (await db().introspection.getTables()).map((table) => table.name);
    expect(tables).not.toContain('known_devices');
    expect(tables).not.toContain('account_events');
    expect(tables).not.toContain('proof_of_work_uses');
    await migrateToLatest(db());
  });

  it('refuses a code purpose other than sign-in or reauth', async () => {
    await expectConstraintViolation(
      db()
        .insertInto('otp_codes')
        .values({
          purpose: 'export' as 'reauth',
          channel: 'email',
          identifier: EMAIL,
          device_hash: '',
          code_hash: 'h',
          expires_at: EXPIRES,
          attempts: 0,
          created_at: NOW,
        })
        .execute(),
      'check',
      'purpose',
    );
  });
});
