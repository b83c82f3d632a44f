import { describe, expect, it } from 'vitest';
import { findOrCreateUser } from '../src/auth/users.js';
import { DIALECTS, useTestDatabase } from './databases.js';
import { createClock, createTestApp, PHONE } from './testApp.js';

const MINUTE = 60_000;

describe.each(DIALECTS)('who may sign up, on %s', (dialect) => {
  const db = useTestDatabase(dialect);

  describe('the allowlist', () => {
    const allowlist = { emails: ['ada@example.com'], phones: [PHONE], wallets: [] };

    it('lets listed addresses and numbers sign up', async () => {
      const t = await createTestApp(db(), { config: { allowlist } });
      expect((await t.signIn('email', 'Ada@Example.com')).response.json().isNewUser).toBe(true);
      expect((await t.signIn('sms', PHONE)).response.json().isNewUser).toBe(true);
    });

    it('refuses others with 403 allowlist_rejected, after their code was proven right', async () => {
      const t = await createTestApp(db(), { config: { allowlist } });
      // otp/start answers the same as for a listed address: nothing leaks before the code is proven.
      const start = await t.post('/api/auth/otp/start', { channel: 'email', to: 'eve@example.com' });
      expect(start.statusCode).toBe(200);
      const code = t.transport.lastCode('eve@example.com');
      const verify = await t.post('/api/auth/otp/verify', { channel: 'email', to: 'eve@example.com', code });
      expect(verify.statusCode).toBe(403);
      expect(verify.json().error.code).toBe('allowlist_rejected');
      expect(verify.cookies).toEqual([]);
      expect(await db().selectFrom('users').selectAll().execute()).toEqual([]);
    });

    it('answers a wrong code for an unlisted address with invalid_code, like for anyone', async () => {
      const t = await createTestApp(db(), { config: { allowlist } });
      await t.requestCode('email', 'eve@example.com');
      const code = t.transport.lastCode('eve@example.com');
      const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
      const verify = await t.post('/api/auth/otp/verify', {
        channel: 'email',
        to: 'eve@example.com',
        code: wrong,
      });
      expect(verify.json().error.code).toBe('invalid_code');
    });

    it('still lets existing users sign in when they are not on it', async () => {
      const open = await createTestApp(db());
      const before = (await open.signIn('email', 'grace@example.com')).response.json().user;
      const closed = await createTestApp(db(), { config: { allowlist } });
      const after = await closed.signIn('email', 'grace@example.com');
      expect(after.response.json()).toEqual({ user: before, isNewUser: false });
    });
  });

  describe('MAX_USERS', () => {
    it('refuses sign-ups beyond the cap with 403 max_accounts_reached', async () => {
      const t = await createTestApp(db(), { config: { maxUsers: 2 } });
      await t.signIn('email', 'one@example.com');
      await t.signIn('email', 'two@example.com');
      const code = await t.requestCode('email', 'three@example.com');
      const third = await t.post('/api/auth/otp/verify', { channel: 'email', to: 'three@example.com', code });
      expect(third.statusCode).toBe(403);
      expect(third.json().error.code).toBe('max_accounts_reached');
      expect(await db().selectFrom('users').selectAll().execute()).toHaveLength(2);
    });

    it('still lets existing users sign in at the cap', async () => {
      const t = await createTestApp(db(), { config: { maxUsers: 1 } });
      const first = (await t.signIn('email', 'one@example.com')).response.json().user;
      t.clock.advance(MINUTE);
      const again = await t.signIn('email', 'one@example.com');
      expect(again.response.json()).toEqual({ user: first, isNewUser: false });
    });

    it('closes sign-ups entirely at 0', async () => {
      const t = await createTestApp(db(), { config: { maxUsers: 0 } });
      const code = await t.requestCode('sms', PHONE);
      const verify = await t.post('/api/auth/otp/verify', { channel: 'sms', to: PHONE, code });
      expect(verify.json().error.code).toBe('max_accounts_reached');
    });

    it('holds under concurrent sign-ups: never more users than the cap', async () => {
      const clock = createClock();
      const policy = { allowlist: null, maxUsers: 3 };
      const attempts = await Promise.allSettled(
        Array.from({ length: 8 }, (_, i) =>
          findOrCreateUser(db(), { kind: 'email', value: `racer${i}@example.com` }, policy, clock.now()),
        ),
      );
      const created = attempts.filter((attempt) => attempt.status === 'fulfilled');
      const refused = attempts.filter(
        (attempt) => attempt.status === 'rejected' && attempt.reason.code === 'max_accounts_reached',
      );
      expect(created).toHaveLength(3);
      expect(refused).toHaveLength(5);
      expect(await db().selectFrom('users').selectAll().execute()).toHaveLength(3);
    });

    it('gives concurrent sign-ups of one address one account', async () => {
      const clock = createClock();
      const policy = { allowlist: null, maxUsers: null };
      const results = await Promise.all(
        Array.from({ length: 4 }, () =>
          findOrCreateUser(db(), { kind: 'email', value: 'same@example.com' }, policy, clock.now()),
        ),
      );
      expect(new Set(results.map((result) => result.user.id)).size).toBe(1);
      expect(results.filter((result) => result.isNewUser)).toHaveLength(1);
      expect(await db().selectFrom('users').selectAll().execute()).toHaveLength(1);
    });
  });
});
