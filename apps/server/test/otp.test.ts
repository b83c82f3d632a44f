import { ERROR_CATALOGUE } from '@dial/core';
import { describe, expect, it } from 'vitest';
import { DeliveryError, type MessageTransport } from '../src/delivery/index.js';
import { challengeOf, newDevice, solveProof } from './browsers.js';
import { DIALECTS, dialectLabel, useTestDatabase } from './databases.js';
import { createTestApp, PHONE } from './testApp.js';

const EMAIL = 'ada@example.com';
const MINUTE = 60_000;

/** A 6-digit code that is not `code`. */
function wrongCode(code: string, offset = 1): string {
  return String((Number(code) + offset) % 1_000_000).padStart(6, '0');
}

describe.each(DIALECTS)('one-time codes on %s', (dialect) => {
  const db = useTestDatabase(dialect);

  describe(`start (${dialectLabel(dialect)})`, () => {
    it('sends a 6-digit code by e-mail and answers with the normalised address', async () => {
      const t = await createTestApp(db());
      const response = await t.post('/api/auth/otp/start', { channel: 'email', to: '  Ada@Example.COM ' });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        ok: true,
        channel: 'email',
        to: EMAIL,
        resendAfterSeconds: 30,
        expiresInSeconds: 600,
      });
      expect(t.transport.sent).toHaveLength(1);
      const [message] = t.transport.sent;
      expect(message).toMatchObject({ channel: 'email', to: EMAIL });
      expect(message?.code).toMatch(/^\d{6}$/);
      expect(message?.text).toContain(message?.code);
    });

    it('sends an SMS to the E.164 form of the number', async () => {
      const t = await createTestApp(db());
      const response = await t.post('/api/auth/otp/start', { channel: 'sms', to: '+44 7400 123456' });
      expect(response.statusCode).toBe(200);
      expect(response.json().to).toBe(PHONE);
      expect(t.transport.sent[0]).toMatchObject({ channel: 'sms', to: PHONE });
    });

    it('stores only a keyed hash of the code', async () => {
      const t = await createTestApp(db());
      const code = await t.requestCode('email', EMAIL);
      const rows = await db().selectFrom('otp_codes').selectAll().execute();
      expect(rows).toHaveLength(1);
      expect(rows[0]?.code_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(JSON.stringify(rows)).not.toContain(code);
    });

    it.each([
      ['an invalid phone number', 'invalid_phone', { channel: 'sms', to: '+44123' }],
      ['a UK number reserved for fiction', 'invalid_phone', { channel: 'sms', to: '+447700900123' }],
      ['letters for a phone number', 'invalid_phone', { channel: 'sms', to: 'call me' }],
      ['an invalid e-mail address', 'invalid_email', { channel: 'email', to: 'ada@' }],
      ['an unknown channel', 'invalid_data', { channel: 'pigeon', to: EMAIL }],
      ['a number instead of a string', 'invalid_data', { channel: 'email', to: 42 }],
      ['a missing field', 'invalid_data', { channel: 'email' }],
      ['an over-long address', 'invalid_data', { channel: 'email', to: `${'a'.repeat(400)}@example.com` }],
    ])('refuses %s with 400 %s and sends nothing', async (_name, code, body) => {
      const t = await createTestApp(db());
      const response = await t.post('/api/auth/otp/start', body);
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe(code);
      expect(t.transport.sent).toHaveLength(0);
    });

    it('answers the same for an existing account and a new one', async () => {
      const t = await createTestApp(db());
      await t.signIn('email', EMAIL);
      t.clock.advance(MINUTE);
      const existing = await t.post('/api/auth/otp/start', { channel: 'email', to: EMAIL });
      const fresh = await t.post('/api/auth/otp/start', { channel: 'email', to: 'nobody@example.com' });
      expect(existing.statusCode).toBe(fresh.statusCode);
      expect({ ...existing.json(), to: null }).toEqual({ ...fresh.json(), to: null });
      expect(Object.keys(existing.headers).sort()).toEqual(Object.keys(fresh.headers).sort());
    });

    it('answers a second start within 30 seconds with 429 code_recently_sent and the real wait, then sends', async () => {
      const t = await createTestApp(db());
      await t.requestCode('email', EMAIL);
      t.clock.advance(10_000);
      const early = await t.post('/api/auth/otp/start', { channel: 'email', to: EMAIL });
      expect(early.statusCode).toBe(429);
      expect(early.json()).toEqual({
        error: { code: 'code_recently_sent', message: ERROR_CATALOGUE.code_recently_sent.message },
      });
      expect(early.headers['retry-after']).toBe('20');
      t.clock.advance(19_500);
      const still = await t.post('/api/auth/otp/start', { channel: 'email', to: EMAIL });
      expect(still.json().error.code).toBe('code_recently_sent');
      expect(still.headers['retry-after']).toBe('1');
      t.clock.advance(500);
      const onTime = await t.post('/api/auth/otp/start', { channel: 'email', to: EMAIL });
      expect(onTime.statusCode).toBe(200);
      expect(t.transport.sent).toHaveLength(2);
    });

    it('keeps the first code working when it is asked for again within the cooldown', async () => {
      const t = await createTestApp(db());
      const device = newDevice();
      await t.requestCode('email', EMAIL, { device });
      const code = t.transport.lastCode(EMAIL);
      t.clock.advance(5_000);
      const again = await t.post('/api/auth/otp/start', { channel: 'email', to: EMAIL }, { device });
      expect(again.json().error.code).toBe('code_recently_sent');
      expect(t.transport.sent).toHaveLength(1);
      const verify = await t.post('/api/auth/otp/verify', { channel: 'email', to: EMAIL, code }, { device });
      expect(verify.statusCode).toBe(200);
    });

    it('tells only the browser that asked that a code was sent a moment ago (no oracle for others)', async () => {
      const t = await createTestApp(db());
      const owner = newDevice();
      await t.requestCode('email', EMAIL, { device: owner });
      t.clock.advance(5_000);
      // Another browser asking for the same address within the owner's cooldown is answered as any first
      // request: it learns nothing of the owner's code (and gets a code of its own).
      const stranger = await t.post(
        '/api/auth/otp/start',
        { channel: 'email', to: EMAIL },
        { device: newDevice() },
      );
      expect(stranger.statusCode).toBe(200);
      expect(stranger.json()).toMatchObject({ ok: true, resendAfterSeconds: 30, expiresInSeconds: 600 });
      const again = await t.post('/api/auth/otp/start', { channel: 'email', to: EMAIL }, { device: owner });
      expect(again.json().error.code).toBe('code_recently_sent');
      expect(again.headers['retry-after']).toBe('25');
    });

    it('spends none of the free codes when a browser asks again within the cooldown', async () => {
      const t = await createTestApp(db());
      const device = newDevice();
      await t.requestCode('email', EMAIL, { device });
      // However often a reload asks again, the number's 3 free codes an hour for unknown browsers remain.
      for (let i = 0; i < 10; i++) {
        t.clock.advance(2_000);
        const again = await t.post('/api/auth/otp/start', { channel: 'email', to: EMAIL }, { device });
        expect(again.json().error.code).toBe('code_recently_sent');
      }
      t.clock.advance(MINUTE);
      for (let i = 0; i < 2; i++) {
        await t.requestCode('email', EMAIL, { device: newDevice() });
      }
      expect(t.transport.sent).toHaveLength(3);
    });

    it('sends one code when several starts from one browser for one address race', async () => {
      const t = await createTestApp(db());
      const device = newDevice();
      const answers = await Promise.all(
        Array.from({ length: 5 }, () =>
          t.post('/api/auth/otp/start', { channel: 'email', to: EMAIL }, { device }),
        ),
      );
      // One wins; the others are refused as too early (or, when they passed the cooldown check together and
      // spent the free codes, asked for a proof of work).
      const statuses = answers.map((answer) => answer.statusCode);
      expect(statuses.filter((status) => status === 200)).toHaveLength(1);
      expect(
        statuses.filter((status) => status !== 200).every((status) => status === 429 || status === 403),
      ).toBe(true);
      expect(t.transport.sent).toHaveLength(1);
      const code = t.transport.lastCode(EMAIL);
      const verify = await t.post('/api/auth/otp/verify', { channel: 'email', to: EMAIL, code }, { device });
      expect(verify.statusCode).toBe(200);
    });

    it('sends 3 codes an hour to an address for browsers it has not signed in from, then asks for a proof of work', async () => {
      const t = await createTestApp(db());
      for (let i = 0; i < 3; i++) {
        await t.requestCode('email', EMAIL, { device: newDevice() });
        t.clock.advance(MINUTE);
      }
      const fourth = await t.post(
        '/api/auth/otp/start',
        { channel: 'email', to: EMAIL },
        { device: newDevice() },
      );
      expect(fourth.statusCode).toBe(403);
      expect(fourth.json()).toEqual({
        error: { code: 'proof_of_work_required', message: ERROR_CATALOGUE.proof_of_work_required.message },
        challenge: {
          parameters: {
            algorithm: 'PBKDF2/SHA-256',
            cost: 5000,
            data: { subject: expect.stringMatching(/^[0-9a-f]{32}$/) },
            expiresAt: Math.floor(t.clock.now().getTime() / 1000) + 300,
            keyLength: 32,
            keyPrefix: expect.stringMatching(/^[0-9a-f]{32}$/),
            keySignature: expect.stringMatching(/^[0-9a-f]{64}$/),
            nonce: expect.stringMatching(/^[0-9a-f]{32}$/),
            salt: expect.stringMatching(/^[0-9a-f]{32}$/),
          },
          signature: expect.stringMatching(/^[0-9a-f]{64}$/),
        },
      });
      expect(t.transport.sent).toHaveLength(3);
      // A new hour gives new free codes.
      t.clock.advance(57 * MINUTE);
      await t.requestCode('email', EMAIL, { device: newDevice() });
    });

    it('sends a code after the default proof of work is solved the way a browser solves it', async () => {
      const t = await createTestApp(db());
      for (let i = 0; i < 3; i++) await t.requestCode('email', EMAIL, { device: newDevice() });
      const device = newDevice();
      const asked = await t.post('/api/auth/otp/start', { channel: 'email', to: EMAIL }, { device });
      const proof = await solveProof(challengeOf(asked));
      const started = await t.post('/api/auth/otp/start', { channel: 'email', to: EMAIL, proof }, { device });
      expect(started.statusCode).toBe(200);
      const code = t.transport.lastCode(EMAIL);
      expect(
        (await t.post('/api/auth/otp/verify', { channel: 'email', to: EMAIL, code }, { device })).statusCode,
      ).toBe(200);
    });

    it('accepts at most 20 starts an hour from one IP address', async () => {
      const t = await createTestApp(db());
      for (let i = 0; i < 20; i++) {
        const response = await t.post('/api/auth/otp/start', {
          channel: 'email',
          to: `user${i}@example.com`,
        });
        expect(response.statusCode).toBe(200);
      }
      const refused = await t.post('/api/auth/otp/start', { channel: 'email', to: 'user20@example.com' });
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBe(3600);
      const otherIp = await t.post(
        '/api/auth/otp/start',
        { channel: 'email', to: 'user20@example.com' },
        { ip: '203.0.113.7' },
      );
      expect(otherIp.statusCode).toBe(200);
    });

    it('answers 502 delivery_failed when the transport fails, and lets the person retry at once', async () => {
      let fail = true;
      const flaky: MessageTransport = {
        name: 'flaky',
        async send() {
          if (fail) throw new DeliveryError('SMTP delivery failed: 550 no such user');
        },
      };
      const t = await createTestApp(db(), { deps: { transports: { email: flaky } } });
      const failed = await t.post('/api/auth/otp/start', { channel: 'email', to: EMAIL });
      expect(failed.statusCode).toBe(502);
      expect(failed.json().error.code).toBe('delivery_failed');
      expect(await db().selectFrom('otp_codes').selectAll().execute()).toEqual([]);
      fail = false;
      const retried = await t.post('/api/auth/otp/start', { channel: 'email', to: EMAIL });
      expect(retried.statusCode).toBe(200);
    });

    it('answers that a channel without a provider in production is not available', async () => {
      const t = await createTestApp(db(), {
        config: { environment: 'production' },
        deps: { transports: {} },
      });
      const response = await t.post('/api/auth/otp/start', { channel: 'sms', to: PHONE });
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toEqual({
        code: 'invalid_data',
        message: 'SMS sign-in is not available on this server. Sign in with an e-mail address instead.',
      });
    });
  });

  describe(`verify (${dialectLabel(dialect)})`, () => {
    it('signs up a new user with the right code, then signs them in again as the same user', async () => {
      const t = await createTestApp(db());
      const first = await t.signIn('sms', PHONE);
      const created = first.response.json();
      expect(created.isNewUser).toBe(true);
      expect(created.user).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        phone: PHONE,
        email: null,
        wallet: null,
        createdAt: '2030-01-01T12:00:00.000Z',
      });
      t.clock.advance(MINUTE);
      const again = await t.signIn('sms', PHONE);
      expect(again.response.json()).toEqual({ user: created.user, isNewUser: false });
    });

    it('accepts a code only once', async () => {
      const t = await createTestApp(db());
      const code = await t.requestCode('email', EMAIL);
      const first = await t.post('/api/auth/otp/verify', { channel: 'email', to: EMAIL, code });
      expect(first.statusCode).toBe(200);
      const second = await t.post('/api/auth/otp/verify', { channel: 'email', to: EMAIL, code });
      expect(second.statusCode).toBe(400);
      expect(second.json().error.code).toBe('code_expired');
    });

    it('refuses a code after 10 minutes with code_expired', async () => {
      const t = await createTestApp(db());
      const code = await t.requestCode('email', EMAIL);
      t.clock.advance(10 * MINUTE);
      const response = await t.post('/api/auth/otp/verify', { channel: 'email', to: EMAIL, code });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe('code_expired');
    });

    it('accepts a code just before it expires', async () => {
      const t = await createTestApp(db());
      const code = await t.requestCode('email', EMAIL);
      t.clock.advance(10 * MINUTE - 1);
      const response = await t.post('/api/auth/otp/verify', { channel: 'email', to: EMAIL, code });
      expect(response.statusCode).toBe(200);
    });

    it('answers code_expired when no code was ever sent', async () => {
      const t = await createTestApp(db());
      const response = await t.post('/api/auth/otp/verify', { channel: 'email', to: EMAIL, code: '123456' });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe('code_expired');
    });

    it('kills a code at the fifth wrong try, so even the right code fails afterwards', async () => {
      const t = await createTestApp(db());
      const code = await t.requestCode('email', EMAIL);
      for (let attempt = 1; attempt <= 4; attempt++) {
        const wrong = await t.post('/api/auth/otp/verify', {
          channel: 'email',
          to: EMAIL,
          code: wrongCode(code, attempt),
        });
        expect(wrong.statusCode).toBe(400);
        expect(wrong.json().error.code).toBe('invalid_code');
      }
      const fifth = await t.post('/api/auth/otp/verify', {
        channel: 'email',
        to: EMAIL,
        code: wrongCode(code, 5),
      });
      expect(fifth.json().error.code).toBe('code_attempts_exceeded');
      const right = await t.post('/api/auth/otp/verify', { channel: 'email', to: EMAIL, code });
      expect(right.statusCode).toBe(400);
      expect(right.json().error.code).toBe('code_attempts_exceeded');
      expect(right.cookies).toEqual([]);
      expect(await db().selectFrom('users').selectAll().execute()).toEqual([]);
    });

    it('gives a new code fresh tries after the old one was killed', async () => {
      const t = await createTestApp(db());
      const code = await t.requestCode('email', EMAIL);
      for (let attempt = 1; attempt <= 5; attempt++) {
        await t.post('/api/auth/otp/verify', { channel: 'email', to: EMAIL, code: wrongCode(code, attempt) });
      }
      t.clock.advance(MINUTE);
      const fresh = await t.requestCode('email', EMAIL);
      const response = await t.post('/api/auth/otp/verify', { channel: 'email', to: EMAIL, code: fresh });
      expect(response.statusCode).toBe(200);
    });

    it('counts concurrent wrong tries exactly: never more than 5 get through', async () => {
      const t = await createTestApp(db());
      const code = await t.requestCode('email', EMAIL);
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          t.post('/api/auth/otp/verify', { channel: 'email', to: EMAIL, code: wrongCode(code, i + 1) }),
        ),
      );
      const codes = answers.map((answer) => answer.json().error.code);
      expect(codes.filter((c) => c === 'invalid_code')).toHaveLength(4);
      expect(codes.filter((c) => c === 'code_attempts_exceeded')).toHaveLength(4);
      const row = await db().selectFrom('otp_codes').select('attempts').executeTakeFirstOrThrow();
      expect(row.attempts).toBe(5);
    });

    it('replaces the previous code: after a new start only the new code works', async () => {
      const t = await createTestApp(db());
      const old = await t.requestCode('email', EMAIL);
      t.clock.advance(MINUTE);
      let fresh = await t.requestCode('email', EMAIL);
      while (fresh === old) {
        // One chance in a million: ask again so the two codes differ.
        t.clock.advance(MINUTE);
        fresh = await t.requestCode('email', EMAIL);
      }
      const withOld = await t.post('/api/auth/otp/verify', { channel: 'email', to: EMAIL, code: old });
      expect(withOld.json().error.code).toBe('invalid_code');
      const withNew = await t.post('/api/auth/otp/verify', { channel: 'email', to: EMAIL, code: fresh });
      expect(withNew.statusCode).toBe(200);
    });

    it('does not accept a code sent to one address for another', async () => {
      const t = await createTestApp(db());
      const code = await t.requestCode('email', EMAIL);
      await t.requestCode('email', 'grace@example.com');
      const response = await t.post('/api/auth/otp/verify', {
        channel: 'email',
        to: 'grace@example.com',
        code,
      });
      // Only wrong when the two random codes differ, which is all but certain.
      if (t.transport.lastCode('grace@example.com') !== code) {
        expect(response.json().error.code).toBe('invalid_code');
      }
      const own = await t.post('/api/auth/otp/verify', { channel: 'email', to: EMAIL, code });
      expect(own.statusCode).toBe(200);
    });

    it('accepts at most 10 verifies for one address from one browser in 10 minutes, from any IP address', async () => {
      const t = await createTestApp(db());
      const device = newDevice();
      for (let i = 0; i < 10; i++) {
        const response = await t.post(
          '/api/auth/otp/verify',
          { channel: 'email', to: EMAIL, code: '000000' },
          { ip: `198.51.100.${i}`, device },
        );
        expect(response.json().error.code).toBe('code_expired');
      }
      const refused = await t.post(
        '/api/auth/otp/verify',
        { channel: 'email', to: EMAIL, code: '000000' },
        { ip: '198.51.100.200', device },
      );
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['retry-after']).toBe('600');
      // Another browser (the owner's) is not refused: its code is its own.
      const other = await t.post(
        '/api/auth/otp/verify',
        { channel: 'email', to: EMAIL, code: '000000' },
        { ip: '198.51.100.201', device: newDevice() },
      );
      expect(other.json().error.code).toBe('code_expired');
    });

    it('accepts at most 30 verifies from one IP address in 10 minutes', async () => {
      const t = await createTestApp(db());
      for (let i = 0; i < 30; i++) {
        const response = await t.post('/api/auth/otp/verify', {
          channel: 'email',
          to: `user${i}@example.com`,
          code: '000000',
        });
        expect(response.statusCode).toBe(400);
      }
      const refused = await t.post('/api/auth/otp/verify', { channel: 'email', to: EMAIL, code: '000000' });
      expect(refused.statusCode).toBe(429);
      expect(refused.json().error.code).toBe('too_many_requests');
      expect(refused.headers['retry-after']).toBe('600');
    });

    it.each([
      ['a 5-digit code', { channel: 'email', to: EMAIL, code: '12345' }],
      ['a code with letters', { channel: 'email', to: EMAIL, code: '12345a' }],
      ['a numeric code', { channel: 'email', to: EMAIL, code: 123456 }],
      ['no code', { channel: 'email', to: EMAIL }],
    ])('refuses %s with 400 invalid_data', async (_name, body) => {
      const t = await createTestApp(db());
      const response = await t.post('/api/auth/otp/verify', body);
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe('invalid_data');
    });
  });
});
