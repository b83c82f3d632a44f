import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { linkMethod } from '../src/auth/linkMethod.js';
import { SESSION_COOKIE } from '../src/auth/sessions.js';
import { newDevice } from './browsers.js';
import { DIALECTS, useTestDatabase } from './databases.js';
import { expectError } from './expectError.js';
import { createTestApp, ORIGIN, PHONE, type RequestOptions, type TestApp } from './testApp.js';
import { testWallet } from './walletProof.js';

const EMAIL = 'ada@example.com';
const OTHER_PHONE = '+447400123457';
const THIRD_PHONE = '+447400123458';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function startLink(
  t: TestApp,
  token: string,
  channel: 'sms' | 'email',
  to: string,
  options?: RequestOptions,
) {
  return t.post('/api/auth/methods/code', { channel, to }, { token, ...options });
}

function verifyLink(
  t: TestApp,
  token: string,
  body: { channel: 'sms' | 'email'; to: string; code: string },
  options?: RequestOptions,
) {
  return t.post('/api/auth/methods/code/verify', body, { token, ...options });
}

/** Sends a link code and proves it: the whole link of a phone number or e-mail address. */
async function link(t: TestApp, token: string, channel: 'sms' | 'email', to: string) {
  const started = await startLink(t, token, channel, to);
  expect(started.statusCode, started.body).toBe(200);
  return verifyLink(t, token, { channel, to, code: t.transport.lastCode(started.json().to) });
}

async function methods(t: TestApp, token: string) {
  const response = await t.get('/api/auth/methods', { token });
  expect(response.statusCode).toBe(200);
  return response.json() as {
    methods: { id: string; kind: string; value: string; findable: boolean | null; createdAt: string }[];
    maxMethods: number;
  };
}

function lookup(t: TestApp, token: string, phone: string): Promise<LightMyRequestResponse> {
  const url = new URL('/api/users/lookup', 'http://localhost');
  url.searchParams.set('phone', phone);
  return t.get(`${url.pathname}${url.search}`, { token });
}

describe.each(DIALECTS)('linked sign-in methods on %s', (dialect) => {
  const db = useTestDatabase(dialect);

  describe('listing', () => {
    it('lists the person’s own methods in full, oldest first, with the cap', async () => {
      const t = await createTestApp(db(), { config: { maxSignInMethods: 4 } });
      const { token } = await t.signIn('sms', PHONE);
      t.clock.advance(60_000);
      expect((await link(t, token, 'email', 'Ada@Example.com')).statusCode).toBe(200);

      expect(await methods(t, token)).toEqual({
        methods: [
          {
            id: expect.stringMatching(UUID),
            kind: 'phone',
            value: PHONE,
            findable: true,
            createdAt: '2030-01-01T12:00:00.000Z',
          },
          {
            id: expect.stringMatching(UUID),
            kind: 'email',
            value: EMAIL,
            findable: null,
            createdAt: '2030-01-01T12:01:00.000Z',
          },
        ],
        maxMethods: 4,
      });
    });

    it('shows nobody else’s methods, and nothing without a session', async () => {
      const t = await createTestApp(db());
      await t.signIn('sms', PHONE);
      const other = await t.signIn('email', EMAIL);
      expect((await methods(t, other.token)).methods.map((method) => method.value)).toEqual([EMAIL]);
      expectError(await t.get('/api/auth/methods'), 401, 'unauthorized');
    });
  });

  describe('linking a phone number or e-mail address by code', () => {
    it('links an e-mail address with a link code, and that address then signs in to the same account', async () => {
      const t = await createTestApp(db());
      const { token, response } = await t.signIn('sms', PHONE);
      const userId = response.json().user.id;

      const started = await startLink(t, token, 'email', ' Ada@Example.com ');
      expect(started.json()).toEqual({
        ok: true,
        channel: 'email',
        to: EMAIL,
        resendAfterSeconds: 30,
        expiresInSeconds: 600,
      });
      const message = t.transport.sent.at(-1);
      expect(message).toMatchObject({ channel: 'email', to: EMAIL });
      expect(message?.subject).toContain('code to link this address');
      const stored = await db().selectFrom('otp_codes').select(['purpose', 'identifier']).execute();
      expect(stored).toContainEqual({ purpose: 'link', identifier: EMAIL });

      const verified = await verifyLink(t, token, { channel: 'email', to: EMAIL, code: message!.code! });
      expect(verified.statusCode).toBe(200);
      expect(verified.json()).toEqual({
        method: {
          id: expect.stringMatching(UUID),
          kind: 'email',
          value: EMAIL,
          findable: null,
          createdAt: t.clock.now().toISOString(),
        },
      });
      expect((await t.get('/api/me', { token })).json().user).toMatchObject({ phone: PHONE, email: EMAIL });

      // Another browser signs in with the new address and reaches the same account.
      const browser = { device: newDevice() };
      await t.post('/api/auth/otp/start', { channel: 'email', to: EMAIL }, browser);
      const signIn = await t.post(
        '/api/auth/otp/verify',
        { channel: 'email', to: EMAIL, code: t.transport.lastCode(EMAIL) },
        browser,
      );
      expect(signIn.json()).toMatchObject({ isNewUser: false, user: { id: userId } });
    });

    it('links a phone number, findable by send-to-phone at once', async () => {
      const t = await createTestApp(db());
      const { token } = await t.signIn('email', EMAIL);
      const linked = await link(t, token, 'sms', OTHER_PHONE);
      expect(linked.json().method).toMatchObject({ kind: 'phone', value: OTHER_PHONE, findable: true });
      expect(
        t.transport.sent.find((sent) => sent.code !== undefined && sent.to === OTHER_PHONE)?.text,
      ).toMatch(/^Your Dial code to link this number to an account is \d{6}\./);
    });

    it('keeps link codes and sign-in codes apart: neither works for the other', async () => {
      const t = await createTestApp(db());
      const { token } = await t.signIn('sms', PHONE);
      // A sign-in code for the address, from this very browser, cannot link it…
      await t.post('/api/auth/otp/start', { channel: 'email', to: EMAIL });
      const signInCode = t.transport.lastCode(EMAIL);
      expectError(
        await verifyLink(t, token, { channel: 'email', to: EMAIL, code: signInCode }),
        400,
        'code_expired',
      );
      // …and a link code cannot sign in.
      t.clock.advance(60_000);
      await startLink(t, token, 'email', EMAIL);
      const linkCode = t.transport.lastCode(EMAIL);
      expectError(
        await t.post('/api/auth/otp/verify', { channel: 'email', to: EMAIL, code: linkCode }),
        400,
        'invalid_code',
      );
      expect((await verifyLink(t, token, { channel: 'email', to: EMAIL, code: linkCode })).statusCode).toBe(
        200,
      );
    });

    it('refuses before sending a method that is already the person’s, and one past the cap', async () => {
      const t = await createTestApp(db(), { config: { maxSignInMethods: 2 } });
      const { token } = await t.signIn('sms', PHONE);
      const sent = t.transport.sent.length;
      expectError(await startLink(t, token, 'sms', '+44 7400 123456'), 409, 'method_already_linked');
      expect((await link(t, token, 'email', EMAIL)).statusCode).toBe(200);
      const linkedSent = t.transport.sent.length;
      expectError(await startLink(t, token, 'sms', OTHER_PHONE), 409, 'methods_limit_reached');
      // No code went out for either refusal (the link sent its code and its notice).
      expect(linkedSent - sent).toBe(2);
      expect(t.transport.sent.length).toBe(linkedSent);
    });

    it('answers start for another account’s number as for a free one, and refuses it only after the code: method_taken', async () => {
      const t = await createTestApp(db());
      await t.signIn('sms', OTHER_PHONE);
      const { token } = await t.signIn('email', EMAIL);

      const taken = await startLink(t, token, 'sms', OTHER_PHONE);
      const free = await startLink(t, token, 'sms', THIRD_PHONE);
      expect(taken.statusCode).toBe(200);
      expect({ ...taken.json(), to: '' }).toEqual({ ...free.json(), to: '' });

      expectError(
        await verifyLink(t, token, {
          channel: 'sms',
          to: OTHER_PHONE,
          code: t.transport.lastCode(OTHER_PHONE),
        }),
        409,
        'method_taken',
      );
      const owner = await db()
        .selectFrom('identities')
        .select('user_id')
        .where('value', '=', OTHER_PHONE)
        .execute();
      expect(owner).toHaveLength(1);
      expect((await methods(t, token)).methods.map((method) => method.value)).toEqual([EMAIL]);
    });

    describe('an attacker with a session of their own', () => {
      it('cannot link someone else’s number without its code: wrong codes, then the code is dead', async () => {
        const t = await createTestApp(db());
        const attacker = await t.signIn('email', 'mallory@example.com');
        await startLink(t, attacker.token, 'sms', PHONE);
        const right = t.transport.lastCode(PHONE);
        const wrong = right === '000000' ? '111111' : '000000';
        for (let i = 0; i < 4; i++) {
          expectError(
            await verifyLink(t, attacker.token, { channel: 'sms', to: PHONE, code: wrong }),
            400,
            'invalid_code',
          );
        }
        expectError(
          await verifyLink(t, attacker.token, { channel: 'sms', to: PHONE, code: wrong }),
          400,
          'code_attempts_exceeded',
        );
        expectError(
          await verifyLink(t, attacker.token, { channel: 'sms', to: PHONE, code: right }),
          400,
          'code_attempts_exceeded',
        );
        const linked = await db()
          .selectFrom('identities')
          .select('value')
          .where('value', '=', PHONE)
          .execute();
        expect(linked).toEqual([]);
      });

      it('cannot use a link code from another browser, even the right one for their own account', async () => {
        const t = await createTestApp(db());
        const { token } = await t.signIn('email', EMAIL);
        await startLink(t, token, 'sms', PHONE);
        const code = t.transport.lastCode(PHONE);
        // The same session's cookie carried to another browser (no device cookie, or another one).
        expectError(
          await verifyLink(t, token, { channel: 'sms', to: PHONE, code }, { device: newDevice() }),
          400,
          'code_expired',
        );
        expectError(
          await verifyLink(t, token, { channel: 'sms', to: PHONE, code }, { device: null }),
          400,
          'code_expired',
        );
        expect((await verifyLink(t, token, { channel: 'sms', to: PHONE, code })).statusCode).toBe(200);
      });

      it('cannot flood a number with link codes from many accounts: 5 an hour to one number', async () => {
        const t = await createTestApp(db());
        for (let i = 0; i < 5; i++) {
          const { token } = await t.signIn('email', `mallory${i}@example.com`);
          expect((await startLink(t, token, 'sms', PHONE)).statusCode).toBe(200);
          // Past the 30 s between codes of this browser's slot.
          t.clock.advance(31_000);
        }
        const { token } = await t.signIn('email', 'mallory5@example.com');
        const refused = await startLink(t, token, 'sms', PHONE);
        expect(refused.statusCode).toBe(429);
        expect(refused.json().error.code).toBe('too_many_requests');
      });

      it('cannot ask for more than 5 link codes an hour for one account', async () => {
        const t = await createTestApp(db());
        const { token } = await t.signIn('email', EMAIL);
        for (let i = 0; i < 5; i++) {
          expect((await startLink(t, token, 'sms', `+4474001234${60 + i}`)).statusCode).toBe(200);
        }
        expect((await startLink(t, token, 'sms', '+447400123470')).statusCode).toBe(429);
      });
    });

    it('holds the cap under concurrency: of two links proven at once past the cap, one is refused', async () => {
      const t = await createTestApp(db(), { config: { maxSignInMethods: 2 } });
      const { token } = await t.signIn('email', EMAIL);
      await startLink(t, token, 'sms', PHONE);
      await startLink(t, token, 'sms', OTHER_PHONE);
      const answers = await Promise.all(
        [PHONE, OTHER_PHONE].map((to) =>
          verifyLink(t, token, { channel: 'sms', to, code: t.transport.lastCode(to) }),
        ),
      );
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
      expect(answers.map((answer) => answer.json().error?.code).filter(Boolean)).toEqual([
        'methods_limit_reached',
      ]);
      expect((await methods(t, token)).methods).toHaveLength(2);
    });

    it('tells the owner at the address the account had before the link, not the number just linked', async () => {
      const t = await createTestApp(db());
      const { token } = await t.signIn('email', EMAIL);
      expect((await link(t, token, 'sms', PHONE)).statusCode).toBe(200);
      const notices = t.transport.sent.filter((sent) => sent.code === undefined);
      expect(notices).toEqual([
        expect.objectContaining({
          channel: 'email',
          to: EMAIL,
          subject: 'Dial: a new way to sign in was added to your account',
        }),
      ]);
      const events = await db().selectFrom('account_events').select('kind').execute();
      expect(events).toEqual([{ kind: 'method-linked' }]);
    });
  });

  describe('findability', () => {
    it('turns a phone number’s findability off and on: send-to-phone stops and starts finding it', async () => {
      const t = await createTestApp(db());
      const owner = await t.signIn('sms', PHONE);
      const wallet = testWallet(1).address;
      const userId = owner.response.json().user.id;
      await linkMethod(db(), userId, { kind: 'wallet', value: wallet }, 5, t.clock.now());
      const sender = await t.signIn('email', EMAIL);
      expect((await lookup(t, sender.token, PHONE)).json()).toEqual({ address: wallet, phone: '*3456' });

      const phoneId = (await methods(t, owner.token)).methods[0]!.id;
      const off = await patch(t, owner.token, phoneId, { findable: false });
      expect(off.json()).toEqual({ method: expect.objectContaining({ id: phoneId, findable: false }) });
      expectError(await lookup(t, sender.token, PHONE), 404, 'recipient_not_found');
      expect((await methods(t, owner.token)).methods[0]?.findable).toBe(false);

      const on = await patch(t, owner.token, phoneId, { findable: true });
      expect(on.json().method.findable).toBe(true);
      expect((await lookup(t, sender.token, PHONE)).statusCode).toBe(200);
    });

    it('refuses findability for an e-mail address or a wallet with 400 invalid_data and a clear message', async () => {
      const t = await createTestApp(db());
      const { token, response } = await t.signIn('email', EMAIL);
      await linkMethod(
        db(),
        response.json().user.id,
        { kind: 'wallet', value: testWallet(2).address },
        5,
        t.clock.now(),
      );
      for (const method of (await methods(t, token)).methods) {
        const answer = await patch(t, token, method.id, { findable: true });
        expect(answer.statusCode).toBe(400);
        expect(answer.json().error).toEqual({
          code: 'invalid_data',
          message:
            'Only a phone number can be found by others (for send-to-phone); e-mail addresses and wallets never are.',
        });
      }
    });

    it('answers 404 not_found to an attacker turning another user’s number off, and changes nothing', async () => {
      const t = await createTestApp(db());
      const victim = await t.signIn('sms', PHONE);
      const victimPhone = (await methods(t, victim.token)).methods[0]!.id;
      const attacker = await t.signIn('email', 'mallory@example.com');
      expectError(await patch(t, attacker.token, victimPhone, { findable: false }), 404, 'not_found');
      expectError(await patch(t, attacker.token, randomUUID(), { findable: false }), 404, 'not_found');
      expect((await methods(t, victim.token)).methods[0]?.findable).toBe(true);
      const malformed = await patch(t, attacker.token, 'not-a-uuid', { findable: false });
      expect(malformed.json().error.code).toBe('invalid_data');
    });
  });

  describe('removing', () => {
    it('removes a method: it no longer signs in to the account, and the owner and the removed number hear of it', async () => {
      const t = await createTestApp(db());
      const { token, response } = await t.signIn('email', EMAIL);
      await link(t, token, 'sms', PHONE);
      const phoneId = (await methods(t, token)).methods.find((method) => method.kind === 'phone')!.id;
      const before = t.transport.sent.length;

      const removed = await t.post(`/api/auth/methods/${phoneId}/remove`, undefined, { token });
      expect(removed.json()).toEqual({ ok: true });
      expect((await methods(t, token)).methods.map((method) => method.value)).toEqual([EMAIL]);
      expect(t.transport.sent.slice(before)).toEqual([
        expect.objectContaining({
          channel: 'email',
          to: EMAIL,
          subject: 'Dial: a way to sign in was removed from your account',
        }),
        expect.objectContaining({
          channel: 'sms',
          to: PHONE,
          subject: 'Dial: a way to sign in was removed from your account',
        }),
      ]);

      // Signing in with the number now makes a new account.
      const browser = { device: newDevice() };
      await t.post('/api/auth/otp/start', { channel: 'sms', to: PHONE }, browser);
      const signIn = await t.post(
        '/api/auth/otp/verify',
        { channel: 'sms', to: PHONE, code: t.transport.lastCode(PHONE) },
        browser,
      );
      expect(signIn.json().isNewUser).toBe(true);
      expect(signIn.json().user.id).not.toBe(response.json().user.id);
    });

    it('refuses to remove the last method: 409 last_method', async () => {
      const t = await createTestApp(db());
      const { token } = await t.signIn('sms', PHONE);
      const [only] = (await methods(t, token)).methods;
      expectError(
        await t.post(`/api/auth/methods/${only!.id}/remove`, undefined, { token }),
        409,
        'last_method',
      );
      expect((await methods(t, token)).methods).toHaveLength(1);
    });

    it('answers 404 not_found to an attacker removing another user’s method, and it still signs in', async () => {
      const t = await createTestApp(db());
      const victim = await t.signIn('sms', PHONE);
      await link(t, victim.token, 'email', EMAIL);
      const victimPhone = (await methods(t, victim.token)).methods[0]!.id;
      const attacker = await t.signIn('email', 'mallory@example.com');
      await link(t, attacker.token, 'sms', OTHER_PHONE);
      expectError(
        await t.post(`/api/auth/methods/${victimPhone}/remove`, undefined, { token: attacker.token }),
        404,
        'not_found',
      );
      expect((await methods(t, victim.token)).methods).toHaveLength(2);
    });

    it('keeps one method when its last two are removed at once', async () => {
      const t = await createTestApp(db());
      const { token } = await t.signIn('sms', PHONE);
      await link(t, token, 'email', EMAIL);
      const ids = (await methods(t, token)).methods.map((method) => method.id);
      const answers = await Promise.all(
        ids.map((id) => t.post(`/api/auth/methods/${id}/remove`, undefined, { token })),
      );
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
      expect((await methods(t, token)).methods).toHaveLength(1);
    });
  });
});

function patch(t: TestApp, token: string, id: string, body: unknown): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method: 'PATCH',
    url: `/api/auth/methods/${id}`,
    headers: { origin: ORIGIN, cookie: `${SESSION_COOKIE}=${token}` },
    payload: body as object,
  });
}
